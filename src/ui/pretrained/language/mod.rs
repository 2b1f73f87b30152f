//! "Open a language model": SmolLM2-135M-Instruct (`core::decoder`), fetched only when asked,
//! with the bytes so far and a Cancel button, then writing after the page's sentence as its
//! prompt: the next token's probabilities, sampling, tokens written one at a time with the KV
//! cache, and one of its 30 layers as the page's steps. Its own wasm chunk: the decoder, its
//! tokenizer and these views are not in the first download.

mod cache;
mod heads;
mod lens;
mod next_token;
mod run;
mod writer;

use leptos::prelude::*;

use super::fetch::Fetched;
use super::opening::named_model;
use crate::core::decoder::{Decoder, LANGUAGE_MODEL};
use crate::core::i18n::keys::models;
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, Loaded, PanelButton};
use crate::ui::state::use_app;

use writer::Writer;

/// Whether a state's `pretrained` names the language model.
fn names_it(record: Option<&str>) -> bool {
    record.is_some_and(|p| named_model(p) == LANGUAGE_MODEL.name)
}

/// The button and, once opened, the panel.
#[component]
pub fn LanguageModelButton() -> impl IntoView {
    let state = use_app();
    // A link or the saved work naming the language model opens it.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if state.doc.pretrained.with(|p| names_it(p.as_deref())) {
            open.set(true);
        }
    });
    view! { <PanelButton action="load-decoder" label=models::open_language load=language_panel what=models::language_code open=open/> }
}

/// In an embed without the settings: the language model a link names, fetched and opened all
/// the same.
#[component]
pub fn LanguageModelInEmbed() -> impl IntoView {
    let state = use_app();
    state
        .doc
        .pretrained
        .with_untracked(|p| names_it(p.as_deref()))
        .then(|| view! { <Loaded load=language_panel what=models::language_code/> })
}

chunk! {
    /// The language model's panel, in its own wasm chunk.
    language_panel => LanguagePanel().into_any()
}

#[component]
fn LanguagePanel() -> impl IntoView {
    let state = use_app();
    view! {
        <section class="pretrained language-model" id="language-model" aria-label=t(models::language_aria)>
            <h2>{move || word(&models::language_title(LANGUAGE_MODEL.title))}</h2>
            <p class="note" hidden=state.page.embedded>{move || word(&models::language_note(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads))}</p>
            <Fetched file=LANGUAGE_MODEL.file bytes=LANGUAGE_MODEL.bytes key="decoder" what=models::the_language_model read=Decoder::read_owned
                ready=|decoder| view! { <Writer decoder=decoder/> }.into_any()/>
        </section>
    }
}
