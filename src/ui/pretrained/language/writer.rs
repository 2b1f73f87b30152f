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
use crate::core::i18n::keys::models;
use crate::core::i18n::{Arg, Msg};
use crate::core::model::layer_record::LayerOpening;
use crate::ui::lang::{t, word};
use crate::ui::pretrained::layer_steps::{AfterAttention, LayerSteps, DECODER};
use crate::ui::pretrained::opening::open_named;
use crate::ui::state::use_app;

/// The prompt the model opens on when the page shows another model: its answer, " Paris", is
/// likely enough (0.77) to read at once.
const FIRST_PROMPT: &str = "The capital of France is"; // not words: the model writes English

/// The language model in the page.
#[component]
pub(super) fn Writer(decoder: Arc<Decoder>) -> impl IntoView {
    let state = use_app();
    state.lend(decoder.clone());
    let error = RwSignal::new(None::<Msg>);
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
                .map_err(Arg::from)
                .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from));
            error.try_set(opened.err().map(models::language_error));
        }
    };
    let opener = decoder.clone();
    open_named(
        |name| name == LANGUAGE_MODEL.name,
        move |_, opening| {
            opener
                .open_layer(LANGUAGE_MODEL.name, opening)
                .map_err(Arg::from)
        },
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
            |e| view! { <p class="field-error" role="alert" data-stat="decoder-error">{move || word(&e)}</p> },
        )
    };
    view! {
        {error_line}
        <p class="note" hidden=move || layer.with(Option::is_some)>
            {t(models::another_model)}" "
            <button type="button" data-action="decoder-in-page" on:click=move |_| put_again(0)>{t(models::put_language_back)}</button>
        </p>
        <div hidden=move || layer.with(Option::is_none)>
            <p class="note">{t(models::prompt_note)}</p>
            <NextToken decoder=decoder.clone() current=current latest=latest/>
            <p role="status" class="note" data-stat="decoder-running">
                {move || running.get().map(|done| word(&models::running_layer(done + 1, LANGUAGE_MODEL.layers)))}
            </p>
            <KvCache decoder=decoder.clone() current=current/>
            <DecoderHeads decoder=decoder.clone() latest=latest opened=opened/>
            <LogitLens decoder=decoder.clone() latest=latest/>
            <HeadGallery decoder=decoder.clone() opened=opened/>
            <LayerSteps run=Signal::derive(move || latest.get().map(|w| w as Arc<dyn AfterAttention>))
                words=Signal::derive(move || state.doc.model.with(|m| m.tokens().words.clone()))
                layer=Signal::derive(move || layer.get().unwrap_or(0)) wording=DECODER/>
            <label class="field">
                <span>{t(models::layer_in_page)}</span>
                <select data-control="layer" prop:value=move || layer.get().unwrap_or(0).to_string()
                    on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { put(l) }>
                    {(0..LANGUAGE_MODEL.layers).map(|l| view! { <option value=l.to_string()>{move || word(&models::layer_option(l))}</option> }).collect_view()}
                </select>
            </label>
            <p class="note">{move || word(&models::decoder_steps_note(LANGUAGE_MODEL.heads))}</p>
        </div>
    }
}
