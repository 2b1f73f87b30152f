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

/// Every area's keys, for the tests that check each language file against them.
pub const AREAS: &[&[(&str, Key)]] = &[
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
