//! The Leptos front end: a thin layer of views over [`crate::core`]. No maths here.
//!
//! Imports run one way, room by room (ranked and checked by `tests/architecture.rs`): helpers
//! that know nothing of the page (`theme`, `pause`, `in_view`, `scroll`, `tasks`, the page's one
//! scheduler, `lang`, its words in the learner's language) ← the store (`state`, with the exercises' part) and `on_demand` ← what everyone
//! reads and writes through (`share`, the only code touching the URL and storage; `fields`,
//! `export`, `prerendered`) ← `api`, the language picker and the exercises' cards ← `matrix` (every matrix view) ←
//! `lines`, `labs/`, `pretrained` ← `steps/` ← what names the steps (`walk`, `author`, `embed`,
//! the only code talking to a parent page) ← `intro`, `controls`, the page's tools (`page_tools`,
//! a chunk) and the exercises' engine ←
//! `app` (the page root).

pub mod api;
pub mod app;
pub mod author;
pub mod controls;
pub mod embed;
pub mod exercises;
pub mod export;
pub mod fields;
pub mod import_torch;
pub mod in_view;
pub mod intro;
pub mod labs;
pub mod lang;
pub mod lines;
pub mod live;
pub mod matrix;
pub mod on_demand;
pub mod page_tools;
pub mod panic;
pub mod pause;
pub mod prerendered;
pub mod pretrained;
pub mod scroll;
pub mod share;
pub mod state;
pub mod steps;
pub mod tasks;
pub mod theme;
pub mod undo_keys;
pub mod walk;

use leptos::prelude::*;

use crate::core::formats::link::Opening;

/// Installs the panic hook; once the visit's language is in (its file fetched, or English) and
/// its link read ([`share::opening`]), takes away `index.html`'s loading line, mounts the app on
/// `<body>` and hands it the opening page written at build time, if the visit shows it.
pub fn start() {
    panic::install();
    // Not Leptos's spawner: the app, which sets it up, is not mounted yet.
    wasm_bindgen_futures::spawn_local(async {
        // The language's file and the link's reader are fetched at once.
        let language = lang::picker::switch(lang::picker::chosen());
        let (opened, ()) = futures::future::join(share::opening(), language).await;
        mount(opened);
    });
}

fn mount(opened: Option<Opening>) {
    let document = leptos::prelude::document();
    if let Some(boot) = document.get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(move || view! { <app::App opened/> });
    if let Ok(Some(live)) = document.query_selector("body > main:not(#prerendered)") {
        prerendered::take_over(&live);
    }
}
