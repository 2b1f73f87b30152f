//! The language model in the page: the layer a link names opened (else layer 0 on a first
//! prompt), its layer picker, what comes next and what the KV cache saves.

use std::sync::Arc;

use leptos::prelude::*;

use super::cache::KvCache;
use super::heads::DecoderHeads;
use super::lens::{HeadGallery, LogitLens};
use super::next_token::NextToken;
use super::run::{keep_running, ours, Latest};
use crate::core::decoder::{Decoder, LANGUAGE_MODEL};
use crate::core::document::edit::Edit;
use crate::core::formats::report::next_json;
use crate::core::model::layer_record::LayerOpening;
use crate::ui::pretrained::layer_steps::{AfterAttention, LayerSteps, DECODER};
use crate::ui::pretrained::opening::open_named;
use crate::ui::state::use_app;

/// The prompt the model opens on when the page shows another model: its answer, " Paris", is
/// likely enough (0.77) to read at once.
const FIRST_PROMPT: &str = "The capital of France is";

/// The language model in the page.
#[component]
pub(super) fn Writer(decoder: Arc<Decoder>) -> impl IntoView {
    let state = use_app();
    state.lend(decoder.clone());
    let error = RwSignal::new(None::<String>);
    let put = {
        let decoder = decoder.clone();
        move |layer: usize| {
            let opened = state
                .doc
                .model
                .with_untracked(|m| {
                    if ours(m) {
                        decoder.reopen(m, |o| o.layer = layer)
                    } else {
                        decoder.open_layer(
                            LANGUAGE_MODEL.name,
                            LayerOpening {
                                sentence: FIRST_PROMPT.to_owned(),
                                layer,
                                knocked: Vec::new(),
                                changes: Vec::new(),
                                ..Default::default()
                            },
                        )
                    }
                })
                .and_then(|m| state.apply(Edit::Open(Box::new(m))));
            error.try_set(opened.err().map(|e| format!("The language model: {e}.")));
        }
    };
    let opener = decoder.clone();
    open_named(
        |name| name == LANGUAGE_MODEL.name,
        move |_, opening| opener.open_layer(LANGUAGE_MODEL.name, opening),
        ours,
        error,
        {
            let put = put.clone();
            move || put(0)
        },
    );
    let latest: Latest = RwSignal::new(None);
    let running = RwSignal::new(None::<usize>);
    keep_running(decoder.clone(), latest, running);
    // The run of the page's model as it is now: None while one runs.
    let current = Memo::new(move |_| {
        let ids = state
            .doc
            .model
            .with(|m| m.layered().filter(|_| ours(m)).map(|l| l.ids.clone()))?;
        latest.with(|w| w.clone().filter(|w| w.ids == ids))
    });
    Effect::new(move |_| {
        let next = current.with(|w| w.as_ref().map(|w| next_json(&w.logits, 50)));
        state.doc.next.set_value(next);
    });
    on_cleanup(move || {
        state.doc.next.try_update_value(|n| *n = None);
    });
    let layer = Memo::new(move |_| {
        state
            .doc
            .model
            .with(|m| m.layered().filter(|_| ours(m)).map(|l| l.layer))
    });
    let put_again = put.clone();
    let opened = RwSignal::new(None::<(usize, usize)>);
    let error_line = move || {
        error.get().map(
            |e| view! { <p class="field-error" role="alert" data-stat="decoder-error">{e}</p> },
        )
    };
    view! {
        {error_line}
        <p class="note" hidden=move || layer.with(Option::is_some)>
            "The page shows another model now. "
            <button type="button" data-action="decoder-in-page" on:click=move |_| put_again(0)>"Put the language model back in the page"</button>
        </p>
        <div hidden=move || layer.with(Option::is_none)>
            <p class="note">"Your sentence above is the prompt: change it, and the model reads it again."</p>
            <NextToken decoder=decoder.clone() current=current latest=latest/>
            <p role="status" class="note" data-stat="decoder-running">
                {move || running.get().map(|done| format!("Running layer {} of {}…", done + 1, LANGUAGE_MODEL.layers))}
            </p>
            <KvCache decoder=decoder.clone() current=current/>
            <DecoderHeads decoder=decoder.clone() latest=latest opened=opened/>
            <LogitLens decoder=decoder.clone() latest=latest/>
            <HeadGallery decoder=decoder.clone() opened=opened/>
            <LayerSteps run=Signal::derive(move || latest.get().map(|w| w as Arc<dyn AfterAttention>))
                words=Signal::derive(move || state.doc.model.with(|m| m.tokens().words.clone()))
                layer=Signal::derive(move || layer.get().unwrap_or(0)) wording=DECODER/>
            <label class="field">
                <span>"Layer in the page"</span>
                <select data-control="layer" prop:value=move || layer.get().unwrap_or(0).to_string()
                    on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { put(l) }>
                    {(0..LANGUAGE_MODEL.layers).map(|l| view! { <option value=l.to_string()>{format!("layer {l}")}</option> }).collect_view()}
                </select>
            </label>
            <p class="note">{format!("The steps below are this layer's attention: X is the hidden state entering it after its RMSNorm; its {} query heads each have their own W_query, and every 3 of them share one W_key and one W_value (grouped-query attention: the cache keeps 3 key/value heads, not 9); Q and K are turned by RoPE, the mask is causal, and W_output joins the heads again. Change any weight and every layer above, and the next token, are computed again. Layers count from 0, as transformers counts them.", LANGUAGE_MODEL.heads)}</p>
        </div>
    }
}
