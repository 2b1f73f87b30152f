//! The trained model in the page: the layer a link names opened, its layer picker, its pieces,
//! its heads (`heads.rs`) and the layer's steps.

use std::sync::Arc;

use leptos::prelude::*;

use super::heads::{HeadGrid, HeadMaps, HeadWords, Maps, OpenedHead};
use super::layer_steps::{AfterAttention, LayerSteps, ENCODER};
use super::opening::open_named;
use super::run::{keep_running, layer_model, ours, Run};
use crate::core::decoder::LANGUAGE_MODEL;
use crate::core::document::edit::Edit;
use crate::core::i18n::keys::models;
use crate::core::i18n::{Arg, Msg};
use crate::core::pretrained::Encoder;
use crate::core::pretrained::SHIPPED;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

/// The trained model in the page: a layer picker, its pieces, and every layer × head's weights.
/// Built once; a new run repaints the maps and the opened head's numbers (a knock-out keeps the
/// focus on its checkbox), and a new sentence rebuilds only the pieces.
#[component]
pub(super) fn ModelView(encoder: Arc<Encoder>) -> impl IntoView {
    let state = use_app();
    state.lend(encoder.clone());
    let error = RwSignal::new(None::<Msg>);
    let put = {
        let encoder = encoder.clone();
        move |layer: usize| {
            let opened = state
                .doc
                .model
                .with_untracked(|m| layer_model(&encoder, m, layer))
                .map_err(Arg::from)
                .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from));
            error.try_set(opened.err().map(models::trained_error));
        }
    };
    let opener = encoder.clone();
    open_named(
        |name| name != LANGUAGE_MODEL.name,
        move |name, opening| {
            if name == SHIPPED.name {
                opener.open_layer(SHIPPED.name, opening).map_err(Arg::from)
            } else {
                Err(models::names_other(crate::core::text::clip(&name), SHIPPED.name).into())
            }
        },
        ours,
        error,
        {
            let put = put.clone();
            move || put(0)
        },
    );
    let error_line = move || {
        error.get().map(
            |e| view! { <p class="field-error" role="alert" data-stat="pretrained-error">{move || word(&e)}</p> },
        )
    };
    // An embed shows the steps its author chose: the layer in them, not the model view.
    if state.page.embedded {
        return error_line.into_any();
    }
    let run: Run = RwSignal::new(None);
    keep_running(encoder.clone(), run);
    let layered = Memo::new(move |_| {
        state.doc.model.with(|m| {
            m.layered()
                .filter(|_| ours(m))
                .map(|l| (l.layer, l.knocked.clone()))
        })
    });
    let knock = {
        let encoder = encoder.clone();
        Callback::new(move |((l, h), out): ((usize, usize), bool)| {
            let knocked = state
                .doc
                .model
                .with_untracked(|m| encoder.reopen(m, |o| o.knock((l, h), out)))
                .map_err(Arg::from)
                .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from));
            error.set(knocked.err().map(models::trained_error));
        })
    };
    let pieces = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref()
                .map(|t| (t.tokens.clone(), t.ids.clone()))
                .unwrap_or_default()
        })
    });
    let followed = Signal::derive(move || {
        state
            .derived
            .followed_or_last
            .get()
            .min(pieces.with(|(t, _)| t.len().saturating_sub(1)))
    });
    let opened = RwSignal::new(None::<(usize, usize)>);
    let maps: Maps = Signal::derive(move || run.get().map(|t| t as Arc<dyn HeadMaps>));
    let tokens = Signal::derive(move || pieces.with(|(t, _)| t.clone()));
    let config = encoder.config.clone();
    // Put back opens the layer the learner left (layer, knocked heads, edits), which the undo
    // steps keep; a fresh layer 0 once they no longer do.
    let put_again = {
        let put = put.clone();
        move || match state
            .doc
            .history
            .with_untracked(|h| h.last_layer(SHIPPED.name))
        {
            Some(left) => {
                let back = state.apply(Edit::Open(Box::new(left)));
                error.set(back.err().map(models::trained_error));
            }
            None => put(0),
        }
    };
    view! {
        {error_line}
        <p class="note" hidden=move || layered.with(Option::is_some)>
            {t(models::another_model)}" "
            <button type="button" data-action="pretrained-in-page" on:click=move |_| put_again()>{t(models::put_trained_back)}</button>
        </p>
        <div hidden=move || layered.with(Option::is_none)>
            <label class="field">
                <span>{t(models::layer_in_page)}</span>
                <select data-control="layer" prop:value=move || layered.with(|l| l.as_ref().map_or(0, |l| l.0).to_string())
                    on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { put(l) }>
                    {(0..config.layers).map(|l| view! { <option value=l.to_string()>{move || word(&models::layer_option(l))}</option> }).collect_view()}
                </select>
            </label>
            {move || layered.with(|p| p.as_ref().and_then(|(l, knocked)| {
                let here: Vec<usize> = knocked.iter().filter(|k| k.0 == *l).map(|k| k.1).collect();
                (!here.is_empty()).then(|| view! {
                    <p class="note" data-note="knocked-in-page">
                        {move || {
                            let heads: Vec<String> = here.iter().map(|&h| word(&models::head_item(h))).collect();
                            word(&models::knocked_here(heads.join(", ")))
                        }}
                    </p>
                })
            }))}
            <p class="note">{move || word(&models::encoder_steps_note(config.heads))}</p>
            <Pieces pieces=pieces followed=followed/>
            {move || run.get().map(|trace| view! { <HeadWords trace=trace followed=followed layered=layered/> })}
            <HeadGrid layers=config.layers heads=config.heads maps=maps layered=layered opened=opened/>
            {move || opened.get().map(|(l, h)| view! { <OpenedHead layer=l head=h maps=maps tokens=tokens followed=followed knocked=Signal::derive(move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))) knock=knock layered=layered/> })}
            <LayerSteps run=Signal::derive(move || run.get().map(|t| t as Arc<dyn AfterAttention>)) words=tokens
                layer=Signal::derive(move || layered.with(|p| p.as_ref().map_or(0, |p| p.0))) wording=ENCODER/>
        </div>
    }
    .into_any()
}

/// The model's own tokens for the sentence, with their ids; a click follows one.
#[component]
fn Pieces(pieces: Memo<(Vec<String>, Vec<u32>)>, followed: Signal<usize>) -> impl IntoView {
    let state = use_app();
    view! {
        <ol class="pretrained-tokens" data-stat="pretrained-tokens">
            {move || pieces.with(|(tokens, ids)| tokens.iter().zip(ids).enumerate().map(|(i, (t, id))| view! {
                <li>
                    <button type="button" class="token" data-token=i.to_string() data-id=id.to_string()
                        aria-pressed=move || (followed.get() == i).to_string()
                        on:click=move |_| state.view.followed.set(Some(i))>
                        {t.clone()}<sub>{id.to_string()}</sub>
                    </button>
                </li>
            }).collect_view())}
        </ol>
    }
}
