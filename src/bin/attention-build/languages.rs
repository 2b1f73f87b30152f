//! Step 4, the languages: each `www/i18n/<tag>.json` as the page reads it (the core's `ship`: a
//! line per text in the page's order, no names and no JSON), named by its hash (the service
//! worker keeps a fetched one, never a stale one), and listed on `<html data-languages>` for
//! www/boot.js and the page's picker with the words boot.js shows before the code arrives (the
//! tab's title, the loading line's). English is compiled into the page and has no file.

use std::collections::BTreeMap;

use attention_explorer::core::i18n::catalogue::ship as shipped;
use serde::Serialize;

use crate::files::{hashed, Dist, Role};

/// A language as `data-languages` lists it.
#[derive(Serialize)]
pub struct Language {
    file: String,
    title: String,
    heading: String,
    loading: String,
    /// The loading line once the opening page's numbers answer (the live module started).
    live: String,
}

const SOURCE: &str = "www/i18n";

pub fn ship(dist: &mut Dist) -> Result<BTreeMap<String, Language>, String> {
    let mut names: Vec<String> = std::fs::read_dir(SOURCE)
        .map_err(|e| format!("{SOURCE}: {e}"))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    let mut languages = BTreeMap::new();
    for name in names {
        let path = format!("{SOURCE}/{name}");
        let source = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let text = shipped(&source).map_err(|e| format!("{path}: {e}"))?;
        let tag = name.trim_end_matches(".json");
        let file = format!("i18n/{}", hashed(tag, text.as_bytes(), "txt"));
        dist.write(Role::Language, &file, &text)?;
        let texts: serde_json::Value =
            serde_json::from_str(&source).map_err(|e| format!("{path}: {e}"))?;
        let word = |key: &str| {
            texts[key]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{path} has no {key}"))
        };
        languages.insert(
            tag.to_owned(),
            Language {
                file,
                title: word("page.tab_title")?,
                heading: word("page.title")?,
                loading: word("page.loading")?,
                live: word("page.loading_live")?,
            },
        );
    }
    Ok(languages)
}
