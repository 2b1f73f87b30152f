//! The trained model in the page: its layer picker, pieces, every layer × head's weights, the
//! words on where heads send the followed piece, and one head opened.

use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;

use super::layer_steps::LayerSteps;
use super::run::{keep_running, layer_model, Run};
use crate::core::document::edit::Edit;
use crate::core::formats::trained::read_trained;
use crate::core::pretrained::SHIPPED;
use crate::core::pretrained::{Encoder, EncoderTrace};
use crate::core::teaching::labs::heads_sending;
use crate::core::text::fmt;
use crate::ui::matrix::heatmap::Thumbnail;
use crate::ui::state::use_app;

/// A weight from which the words name where a head sends the followed piece.
const CLEAR: f64 = 0.5;

/// The trained model in the page: a layer picker, its pieces, and every layer × head's weights.
/// Built once; a new run repaints the maps and the opened head's numbers (a knock-out keeps the
/// focus on its checkbox), and a new sentence rebuilds only the pieces.
#[component]
pub(super) fn ModelView(encoder: Arc<Encoder>) -> impl IntoView {
    let state = use_app();
    state.doc.trained.set_value(Some(encoder.clone()));
    on_cleanup(move || state.doc.trained.set_value(None));
    let error = RwSignal::new(None::<String>);
    let put = {
        let encoder = encoder.clone();
        move |layer: usize| {
            let opened = state
                .doc
                .model
                .with_untracked(|m| layer_model(&encoder, m, layer))
                .and_then(|m| state.apply(Edit::Open(Box::new(m))));
            error.set(opened.err().map(|e| format!("The trained model: {e}.")));
        }
    };
    // Opened, the model goes into the page: as a link, the saved work or a loaded state names
    // it (then, or whenever one does), else at its first layer (undo brings the page back).
    let (opening, put_first) = (encoder.clone(), put.clone());
    Effect::new(move |first: Option<()>| {
        // Taken only when there: taking notifies, and this effect watches it.
        let named = state
            .doc
            .pretrained
            .with(Option::is_some)
            .then(|| state.doc.pretrained.try_update(Option::take).flatten())
            .flatten();
        match named {
            Some(named) => {
                let encoder = &opening;
                let opened = read_trained(&named).and_then(|(name, opening)| {
                    if name == SHIPPED.name {
                        encoder
                            .open_layer(SHIPPED.name, opening)
                            .and_then(|m| state.apply(Edit::Open(Box::new(m))))
                    } else {
                        Err(format!(
                            "it names “{}”, and this page has {}",
                            crate::core::text::clip(&name),
                            SHIPPED.name
                        ))
                    }
                });
                error.set(
                    opened
                        .err()
                        .map(|e| format!("The trained model's layer could not be opened: {e}.")),
                );
            }
            None if first.is_none()
                && state.doc.model.with_untracked(|m| m.layered().is_none()) =>
            {
                put_first(0)
            }
            None => {}
        }
    });
    let error_line = move || {
        error.get().map(
            |e| view! { <p class="field-error" role="alert" data-stat="pretrained-error">{e}</p> },
        )
    };
    // An embed shows the steps its author chose: the layer in them, not the model view.
    if state.page.embedded {
        return error_line.into_any();
    }
    let run: Run = RwSignal::new(None);
    keep_running(encoder.clone(), run);
    let layered = Memo::new(move |_| {
        state
            .doc
            .model
            .with(|m| m.layered().map(|l| (l.layer, l.knocked.clone())))
    });
    let knock = {
        let encoder = encoder.clone();
        Callback::new(move |((l, h), out): ((usize, usize), bool)| {
            let knocked = state
                .doc
                .model
                .with_untracked(|m| {
                    encoder.reopen(m, |o| {
                        o.knocked.retain(|x| *x != (l, h));
                        if out {
                            o.knocked.push((l, h));
                        }
                    })
                })
                .and_then(|m| state.apply(Edit::Open(Box::new(m))));
            error.set(knocked.err().map(|e| format!("The trained model: {e}.")));
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
    let weights = move |l: usize, h: usize| {
        Signal::derive(move || {
            run.with(|r| match r {
                Some(t) => t.layers[l].heads[h].weights.clone(),
                None => DMatrix::zeros(0, 0),
            })
        })
    };
    let config = encoder.config.clone();
    let put_again = put.clone();
    view! {
        {error_line}
        <p class="note" hidden=move || layered.with(Option::is_some)>
            "The page shows another model now. "
            <button type="button" data-action="pretrained-in-page" on:click=move |_| put_again(0)>"Put the trained model back in the page"</button>
        </p>
        <div hidden=move || layered.with(Option::is_none)>
            <label class="field">
                <span>"Layer in the page"</span>
                <select data-control="layer" prop:value=move || layered.with(|l| l.as_ref().map_or(0, |l| l.0).to_string())
                    on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { put(l) }>
                    {(0..config.layers).map(|l| view! { <option value=l.to_string()>{format!("layer {l}")}</option> }).collect_view()}
                </select>
            </label>
            {move || layered.with(|p| p.as_ref().and_then(|(l, knocked)| {
                let here: Vec<String> = knocked.iter().filter(|k| k.0 == *l).map(|k| k.1.to_string()).collect();
                (!here.is_empty()).then(|| view! {
                    <p class="note" data-note="knocked-in-page">
                        {format!("Knocked out in this layer: head {}. The page's steps still show what such a head computes; the layers above get zeros from it.", here.join(", head "))}
                    </p>
                })
            }))}
            <p class="note">{format!("The steps below are this layer: X is the hidden state entering it, W_query, W_key and W_value are its {} heads' (with their biases), and W_output joins them again. Change any weight and every layer above is computed again. Layers count from 0, as transformers counts them. Its own tokens (WordPiece: a word it does not know whole is cut into known pieces, “##” marking a piece inside a word); click one to follow it.", config.heads)}</p>
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
            {move || run.get().map(|trace| view! { <HeadWords trace=trace followed=followed/> })}
            <div class="model-view" data-view="model" role="group" aria-label="Every layer's heads' weights">
                {(0..config.layers).map(|l| view! {
                    <div class="model-layer" class:in-page=move || layered.with(|p| p.as_ref().is_some_and(|p| p.0 == l))>
                        <span class="model-layer-name">{format!("layer {l}")}</span>
                        {(0..config.heads).map(|h| view! {
                            <button type="button" class="model-head" data-layer=l.to_string() data-head=h.to_string()
                                class:knocked=move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))
                                aria-label=format!("Layer {l}, head {h}") aria-pressed=move || (opened.get() == Some((l, h))).to_string()
                                on:click=move |_| opened.set(Some((l, h)))>
                                <Thumbnail head=h layer=l matrix=weights(l, h) causal=Signal::stored(false)/>
                            </button>
                        }).collect_view()}
                    </div>
                }).collect_view()}
            </div>
            {move || opened.get().map(|(l, h)| view! { <OpenedHead layer=l head=h run=run followed=followed knocked=Signal::derive(move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))) knock=knock/> })}
            <LayerSteps run=run layer=Signal::derive(move || layered.with(|p| p.as_ref().map_or(0, |p| p.0)))/>
        </div>
    }
    .into_any()
}

/// Which heads send the followed piece where: each head whose largest weight from it is at least
/// [`CLEAR`], by layer, named by the piece it goes to; those that go to `[CLS]` or `[SEP]` counted
/// apart (where a head rests when it has nothing to find).
#[component]
pub(super) fn HeadWords(trace: Arc<EncoderTrace>, followed: Signal<usize>) -> impl IntoView {
    view! {
        <p class="pretrained-words" data-stat="pretrained-words">
            {move || {
                let q = followed.get();
                let token = |i: usize| format!("“{}”", trace.tokens[i]);
                let (sending, resting) = heads_sending(&trace, q, CLEAR);
                let said: Vec<String> = sending
                    .iter()
                    .map(|&(l, h, k, w)| format!("layer {l} head {h} to {} ({})", token(k), fmt(w, 2)))
                    .collect();
                let rest = match resting {
                    0 => String::new(),
                    1 => " One more sends it to [CLS] or [SEP], where a head rests when it finds nothing to do.".into(),
                    n => format!(" {n} more send it to [CLS] or [SEP], where a head rests when it finds nothing to do."),
                };
                if said.is_empty() {
                    format!("No head sends {} as much as half its attention to another word.{rest}", token(q))
                } else {
                    format!("From {}, at least half the attention: {}.{rest}", token(q), said.join("; "))
                }
            }}
        </p>
    }
}

/// One head opened: the followed piece's weights over every piece, as numbers, and its
/// knock-out.
#[component]
pub(super) fn OpenedHead(
    layer: usize,
    head: usize,
    run: Run,
    followed: Signal<usize>,
    knocked: Signal<bool>,
    knock: Callback<((usize, usize), bool)>,
) -> impl IntoView {
    let toggle = move |ev| knock.run(((layer, head), event_target_checked(&ev)));
    // (the followed piece, the pieces, its row of weights)
    let row = Memo::new(move |_| {
        let q = followed.get();
        run.with(|r| match r {
            Some(t) if q < t.tokens.len() => (
                q,
                t.tokens.clone(),
                t.layers[layer].heads[head]
                    .weights
                    .row(q)
                    .iter()
                    .copied()
                    .collect::<Vec<f64>>(),
            ),
            _ => (q, Vec::new(), Vec::new()),
        })
    });
    view! {
        <div class="pretrained-head" data-view="pretrained-head" data-layer=layer.to_string() data-head=head.to_string()>
            <h3>{move || row.with(|(q, tokens, _)| format!("Layer {layer}, head {head}: where “{}” looks", tokens.get(*q).map_or("", String::as_str)))}</h3>
            <label class="field check">
                <input type="checkbox" data-control="knockout" prop:checked=move || knocked.get() on:change=toggle/>
                <span>"Knock this head out (its weights × 0, as transformers' head_mask): every later layer is computed without it"</span>
            </label>
            <table class="matrix">
                {move || row.with(|(q, tokens, weights)| view! {
                    <thead><tr>{tokens.iter().map(|t| view! { <th scope="col">{t.clone()}</th> }).collect_view()}</tr></thead>
                    <tbody><tr>
                        {weights.iter().enumerate().map(|(k, &w)| view! {
                            <td data-row=q.to_string() data-col=k.to_string() data-value=w.to_string()>{fmt(w, 4)}</td>
                        }).collect_view()}
                    </tr></tbody>
                })}
            </table>
        </div>
    }
}
