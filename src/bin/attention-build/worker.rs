//! Step 7, the service worker: www/sw.js after the lists it keeps, from the build's list: the
//! files the page fetches, first and later (kept at install, the code on demand included), and
//! the models' and languages' (kept once fetched); and the contract (the message it answers).

use attention_explorer::core::formats::boot::contract;

use crate::files::{hash, Dist, Role};

pub fn write(dist: &mut Dist) -> Result<(), String> {
    let mut files = vec!["./".to_owned()];
    files.extend(
        dist.listed(&[Role::First, Role::Later])
            .iter()
            .map(|f| format!("./{f}")),
    );
    let on_use: Vec<String> = dist
        .listed(&[Role::Model, Role::Language])
        .iter()
        .map(|f| format!("./{f}"))
        .collect();
    let page =
        std::fs::read(dist.dir.join("index.html")).map_err(|e| format!("index.html: {e}"))?;
    let version = hash(&[files.join("\n").as_bytes(), &page].concat());
    let source = std::fs::read_to_string("www/sw.js").map_err(|e| format!("www/sw.js: {e}"))?;
    let list = |names: &[String]| serde_json::to_string(names).expect("names");
    let worker = format!(
        "// Written by the build (src/bin/attention-build/worker.rs).\nconst VERSION = '{version}';\nconst FILES = {};\nconst ON_USE = {};\nconst CONTRACT = {};\n{source}",
        list(&files),
        list(&on_use),
        contract()
    );
    dist.write(Role::Worker, "sw.js", worker)
}
