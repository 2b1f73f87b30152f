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

/// Every area's keys with their names and arguments, in the order of a shipped language file: for the tests that check
/// each language file against them, and the build that ships one ([`ship`]).
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

/// A translator's language file (`www/i18n/<tag>.json`: one object of `"area.name": "text"`) as
/// the page ships it: a list per area of its texts in the page's order, without names (`null`
/// for a key it lacks; a key the page does not have is left out). The build's step
/// (`attention-trace --ship-language`) and the tests read it so.
pub fn ship(source: &str) -> Result<String, String> {
    use serde_json::Value;
    let Value::Object(texts) = serde_json::from_str(source).map_err(|e| e.to_string())? else {
        return Err("a language file is one JSON object".into());
    };
    let areas = AREAS.iter().map(|keys| {
        Value::Array(
            keys.iter()
                .map(|(name, ..)| texts.get(*name).cloned().unwrap_or(Value::Null))
                .collect(),
        )
    });
    Ok(Value::Array(areas.collect()).to_string())
}
