//! "Open a trained model": all-MiniLM-L6-v2 (`core::pretrained`), fetched only when asked, with
//! the bytes so far and a Cancel button, then run on the page's sentence: its WordPiece tokens
//! and ids, and the model view, every layer × head's weights as a thumbnail, the words saying
//! which heads send the followed piece where (`teaching::labs::heads_sending`), and heads knocked
//! out. Its own wasm chunk: the encoder, the tokenizer and their Unicode tables are not in the
//! first download.

mod fetch;
mod heads;
pub mod language;
mod layer_steps;
mod model_view;
mod opening;
mod run;

use leptos::prelude::*;

use crate::core::decoder::LANGUAGE_MODEL;
use crate::core::i18n::keys::models;
use crate::core::pretrained::{read_packed, SHIPPED};
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, Loaded, PanelButton};
use crate::ui::state::use_app;

use fetch::Fetched;
use model_view::ModelView;
use opening::named_model;

/// The button and, once opened, the panel.
#[component]
pub fn PretrainedButton() -> impl IntoView {
    let state = use_app();
    // A link or the saved work naming the trained model opens it.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if state.doc.pretrained.with(|p| {
            p.as_deref()
                .is_some_and(|p| named_model(p) != LANGUAGE_MODEL.name)
        }) {
            open.set(true);
        }
    });
    view! { <PanelButton action="load-pretrained" label=models::open_trained load=pretrained_panel what=models::trained_code open=open/> }
}

/// In an embed without the settings (where the button is): the trained model a link names,
/// fetched and opened all the same; only its progress, or why not, is shown.
#[component]
pub fn PretrainedInEmbed() -> impl IntoView {
    let state = use_app();
    state
        .doc
        .pretrained
        .with_untracked(|p| {
            p.as_deref()
                .is_some_and(|p| named_model(p) != LANGUAGE_MODEL.name)
        })
        .then(|| view! { <Loaded load=pretrained_panel what=models::trained_code/> })
}

chunk! {
    /// The trained model's panel, in its own wasm chunk.
    pretrained_panel => PretrainedPanel().into_any()
}

#[component]
fn PretrainedPanel() -> impl IntoView {
    let state = use_app();
    view! {
        <section class="pretrained" id="pretrained" aria-label=t(models::trained_aria)>
            <h2>{move || word(&models::trained_title(SHIPPED.title))}</h2>
            <p class="note" hidden=state.page.embedded>{move || word(&models::trained_note(SHIPPED.layers, SHIPPED.heads))}</p>
            <Fetched file=SHIPPED.file bytes=SHIPPED.bytes key="pretrained" what=models::the_trained_model read=|bytes| read_packed(&bytes)
                ready=|encoder| view! { <ModelView encoder=encoder/> }.into_any()/>
        </section>
    }
}
