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
/// the page ships it and [`Catalogue::read`](super::Catalogue::read) reads it: no names, no JSON,
/// each argument by its place among English's (`{0}`), each area's texts a line each in the
/// page's order (an empty line for a key it lacks or keeps
/// as English's, a symbol or a formula: the page falls back to English's own; a key the page does
/// not have is left out). The build's step (`attention-trace --ship-language`) and the
/// tests write it so.
pub fn ship(source: &str) -> Result<String, String> {
    use super::catalogue::{renamed_slots, AREA_BREAK, SHIPPED};
    use serde_json::Value;
    let Value::Object(texts) = serde_json::from_str(source).map_err(|e| e.to_string())? else {
        return Err("a language file is one JSON object".into());
    };
    let mut areas = Vec::new();
    for keys in AREAS {
        let mut lines = Vec::new();
        for (name, args, key) in keys.iter() {
            let text = match texts.get(*name) {
                Some(Value::String(text)) if text == key.0.en => "",
                Some(Value::String(text)) => text.as_str(),
                Some(_) => return Err(format!("{name} is not a text")),
                None => "",
            };
            if text.contains(['\n', '\r', '\u{c}']) {
                return Err(format!("{name} holds a line break"));
            }
            // An argument by its place among English's: a name is bytes every learner downloads.
            lines.push(renamed_slots(text, |n| {
                args.iter().position(|a| *a == n).map(|i| i.to_string())
            }));
        }
        areas.push(lines.join("\n"));
    }
    Ok(format!("{SHIPPED}\n{}", areas.join(AREA_BREAK)))
}
