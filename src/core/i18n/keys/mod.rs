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

use super::msg::Key;

/// Every area's keys with their names and arguments, in the order of a shipped language file: for the tests that check
/// each language file against them, and the build that ships one ([`ship`](super::catalogue::ship)).
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
