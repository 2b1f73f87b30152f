//! The trained model's heads: every layer × head's weights as thumbnails, the words on where
//! they send the followed piece, and one head opened with its knock-out.

use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;

use super::run::Run;
use crate::core::pretrained::EncoderTrace;
use crate::core::teaching::labs::heads_sending;
use crate::core::text::fmt;
use crate::ui::matrix::heatmap::Thumbnail;

/// A weight from which the words name where a head sends the followed piece.
const CLEAR: f64 = 0.5;

/// The layer in the page and the heads knocked out, `(layer, head)`, while the page shows it.
pub(super) type InPage = Memo<Option<(usize, Vec<(usize, usize)>)>>;

/// Every layer × head's weights on the followed sentence, a button each that opens the head;
/// the layer in the page and the knocked heads marked.
#[component]
pub(super) fn HeadGrid(
    layers: usize,
    heads: usize,
    run: Run,
    layered: InPage,
    opened: RwSignal<Option<(usize, usize)>>,
) -> impl IntoView {
    let weights = move |l: usize, h: usize| {
        Signal::derive(move || {
            run.with(|r| match r {
                Some(t) => t.layers[l].heads[h].weights.clone(),
                None => DMatrix::zeros(0, 0),
            })
        })
    };
    view! {
        <div class="model-view" data-view="model" role="group" aria-label="Every layer's heads' weights">
            {(0..layers).map(|l| view! {
                <div class="model-layer" class:in-page=move || layered.with(|p| p.as_ref().is_some_and(|p| p.0 == l))>
                    <span class="model-layer-name">{format!("layer {l}")}</span>
                    {(0..heads).map(|h| view! {
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
    }
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
