//! The page's sentences by area, each area one file: the walk's, a step's, a lab's. Their
//! names in the language files are `area.name`.

pub mod edits;
pub mod exercises;
pub mod formats;
pub mod frame;
pub mod intro;
pub mod labs;
pub mod models;
pub mod page;
pub mod settings;
pub mod steps;
pub mod story;
pub mod training;
pub mod views;
pub mod walk;

use super::Key;

/// The areas, in `AREAS`' order.
const NAMES: [&str; 14] = [
    "intro",
    "page",
    "story",
    "steps",
    "labs",
    "frame",
    "walk",
    "settings",
    "views",
    "exercises",
    "models",
    "edits",
    "formats",
    "training",
];

/// An area's place among the areas, at compile time (an area missing from `NAMES` does not
/// compile).
pub const fn area_no(name: &str) -> u8 {
    let mut i = 0;
    while i < NAMES.len() {
        if same(NAMES[i].as_bytes(), name.as_bytes()) {
            return i as u8;
        }
        i += 1;
    }
    panic!("an area missing from keys::NAMES")
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Every area's keys with their names and arguments, in the order of a shipped language file: for the tests that check
/// each language file against them, and the build that ships one ([`ship`](super::ship)).
pub const AREAS: &[&[(&str, &[&str], Key)]] = &[
    intro::ALL,
    page::ALL,
    story::ALL,
    steps::ALL,
    labs::ALL,
    frame::ALL,
    walk::ALL,
    settings::ALL,
    views::ALL,
    exercises::ALL,
    models::ALL,
    edits::ALL,
    formats::ALL,
    training::ALL,
];
