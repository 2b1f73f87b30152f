//! "Open a trained model": all-MiniLM-L6-v2 (`core::pretrained`), fetched only when asked, with
//! the bytes so far and a Cancel button, then run on the page's sentence: its WordPiece tokens
//! and ids, and the model view, every layer × head's weights as a thumbnail, the words saying
//! which heads send the followed piece where (`teaching::labs::heads_sending`), and heads knocked
//! out. Its own wasm chunk: the encoder, the tokenizer and their Unicode tables are not in the
//! first download.

mod fetch;
mod heads;
mod layer_steps;
mod model_view;
mod run;

use leptos::prelude::*;
use web_sys::XmlHttpRequest;

use crate::core::pretrained::SHIPPED;
use crate::ui::on_demand::{chunk, Loaded, PanelButton};
use crate::ui::state::use_app;

use fetch::{arrived, fetch_with_progress, megabytes, Stage};
use model_view::ModelView;

/// The button and, once opened, the panel.
#[component]
pub fn PretrainedButton() -> impl IntoView {
    let state = use_app();
    // A link or the saved work naming the trained model opens it.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if state.doc.pretrained.with(Option::is_some) {
            open.set(true);
        }
    });
    view! { <PanelButton action="load-pretrained" label="Open a trained model" load=pretrained_panel what="the trained model's code" open=open/> }
}

/// In an embed without the settings (where the button is): the trained model a link names,
/// fetched and opened all the same; only its progress, or why not, is shown.
#[component]
pub fn PretrainedInEmbed() -> impl IntoView {
    let state = use_app();
    state
        .doc
        .pretrained
        .with_untracked(Option::is_some)
        .then(|| view! { <Loaded load=pretrained_panel what="the trained model's code"/> })
}

chunk! {
    /// The trained model's panel, in its own wasm chunk.
    pretrained_panel => PretrainedPanel().into_any()
}

#[component]
fn PretrainedPanel() -> impl IntoView {
    let state = use_app();
    let stage = RwSignal::new(Stage::Fetching(0.0, None));
    let request = StoredValue::new_local(None::<XmlHttpRequest>);
    let start = move || {
        stage.set(Stage::Fetching(0.0, None));
        let fetched = fetch_with_progress(
            SHIPPED.file,
            move |got, of| stage.set(Stage::Fetching(got, of)),
            move |fetched| arrived(stage, fetched),
        );
        match fetched {
            Ok(xhr) => request.set_value(Some(xhr)),
            Err(e) => stage.set(Stage::Failed(format!("{e}."))),
        }
    };
    start();
    on_cleanup(move || {
        if let Some(xhr) = request.get_value() {
            let _ = xhr.abort();
        }
    });
    let cancel = move |_| {
        if let Some(xhr) = request.get_value() {
            let _ = xhr.abort();
        }
    };
    view! {
        <section class="pretrained" id="pretrained" aria-label="A trained model">
            <h2>{format!("A trained model: {}", SHIPPED.title)}</h2>
            <p class="note" hidden=state.page.embedded>{format!("{} layers × {} heads, trained by sentence-transformers (Apache-2.0), run here on your sentence with every number equal to Hugging Face transformers' (stored as float16: each weight within 0.001).", SHIPPED.layers, SHIPPED.heads)}</p>
            {move || match stage.get() {
                Stage::Fetching(got, of) => view! {
                    <p role="status" data-stat="pretrained-progress">
                        <progress value=got.to_string() max=of.unwrap_or(0.0).to_string()></progress>
                        " "
                        {match of {
                            Some(of) => format!("Fetching the model: {} of {}", megabytes(got), megabytes(of)),
                            None => format!("Fetching the model: {}", megabytes(got)),
                        }}
                        " "
                        <button type="button" data-action="cancel-pretrained" on:click=cancel>"Cancel"</button>
                    </p>
                }.into_any(),
                Stage::Reading => view! { <p role="status" data-stat="pretrained-progress">"Reading the model…"</p> }.into_any(),
                Stage::Failed(why) => view! {
                    <p class="field-error" role="alert" data-stat="pretrained-error">
                        {why}
                        " "
                        <button type="button" data-action="retry-pretrained" on:click=move |_| start()>"Try again"</button>
                    </p>
                }.into_any(),
                Stage::Ready(encoder) => view! { <ModelView encoder=encoder/> }.into_any(),
            }}
        </section>
    }
}
