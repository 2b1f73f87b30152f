//! Step 6, the opening pages (release builds): `node www/prerender.mjs` opens the built page in
//! headless Chromium and keeps what the app paints first, for each preset, embed and language.
//! It says when it cannot run (no Chromium or playwright-core): the page then opens with its
//! loading line until the wasm has arrived.

use std::path::Path;

use crate::files::{Dist, Role};

/// What index.html holds of the opening pages.
pub struct Snapshot {
    /// `data-prerendered`, JSON: each page's file (the default page's is "", being in index.html).
    pub files: String,
    /// Their inline styles as a stylesheet, and its integrity.
    pub style: (String, String),
    /// The default page's `<main>`.
    pub main: String,
}

/// `scratch`: where www/prerender.mjs writes what it made.
pub fn run(dist: &mut Dist, scratch: &Path) -> Result<Option<Snapshot>, String> {
    let result = &scratch.join("prerendered.json");
    let _ = std::fs::remove_file(result);
    let dir = dist.dir.to_string_lossy().into_owned();
    crate::files::run(
        "node",
        &["www/prerender.mjs", &dir, &result.to_string_lossy()],
    )?;
    let Ok(text) = std::fs::read_to_string(result) else {
        return Ok(None);
    };
    let said: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", result.display()))?;
    let text_of = |v: &serde_json::Value| {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{} is not as www/prerender.mjs writes it", result.display()))
    };
    for entry in said["written"].as_array().into_iter().flatten() {
        let role = entry[1]
            .as_str()
            .and_then(Role::from_key)
            .ok_or_else(|| format!("www/prerender.mjs wrote {entry} with no role"))?;
        dist.record(role, &text_of(&entry[0])?)?;
    }
    Ok(Some(Snapshot {
        files: text_of(&said["files"])?,
        style: (text_of(&said["style"][0])?, text_of(&said["style"][1])?),
        main: text_of(&said["main"])?,
    }))
}
