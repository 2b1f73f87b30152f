//! A trained model's heads: every layer × head's weights as thumbnails, the words on where
//! they send the followed piece, and one head opened with its knock-out (the encoder's and the
//! language model's alike, through [`HeadMaps`]).

use std::borrow::Cow;
use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::decoder::rerun::Written;
use crate::core::i18n::keys::{models, page};
use crate::core::pretrained::EncoderTrace;
use crate::core::teaching::labs::encoder_heads_sending;
use crate::core::text::fmt;
use crate::ui::lang::{t, word};
use crate::ui::matrix::heatmap::{Thumbnail, THUMBNAIL_PX};
use crate::ui::state::{use_app, AppState};

/// A weight from which the words name where a head sends the followed piece.
const CLEAR: f64 = 0.5;

/// The layer in the page and the heads knocked out, `(layer, head)`, while the page shows it.
pub(super) type InPage = Memo<Option<(usize, Vec<(usize, usize)>)>>;

/// A run's weights, every layer × head (query × key), as the grid and an opened head read them.
pub(super) trait HeadMaps: Send + Sync {
    /// Layer `l`'s head `h`, if the run has it (the language model's widened from the float32
    /// its runs keep).
    fn weights(&self, l: usize, h: usize) -> Option<Cow<'_, DMatrix<f64>>>;
}

impl HeadMaps for EncoderTrace {
    fn weights(&self, l: usize, h: usize) -> Option<Cow<'_, DMatrix<f64>>> {
        Some(Cow::Borrowed(&self.layers.get(l)?.heads.get(h)?.weights))
    }
}

impl HeadMaps for Written {
    fn weights(&self, l: usize, h: usize) -> Option<Cow<'_, DMatrix<f64>>> {
        let w = self.layers.get(l)?.weights.get(h)?;
        Some(Cow::Owned(w.map(f64::from)))
    }
}

/// Whether layer `l`'s head `h` would give away an open exercise's answer: its row `q` (any row
/// with `None`) of the page's layer, which the steps hide until it is answered.
fn gives_away(state: AppState, layered: InPage, l: usize, h: usize, q: Option<usize>) -> bool {
    if !layered.with(|p| p.as_ref().is_some_and(|p| p.0 == l)) {
        return false;
    }
    match q {
        Some(q) => state.exercises.hides_row(h, q),
        None => (0..state.derived.words.with(Vec::len)).any(|r| state.exercises.hides_row(h, r)),
    }
}

/// The last run's maps, None before the first.
pub(super) type Maps = Signal<Option<Arc<dyn HeadMaps>>>;

/// Every layer × head's weights on the followed sentence, a button each that opens the head;
/// the layer in the page and the knocked heads marked.
#[component]
pub(super) fn HeadGrid(
    layers: usize,
    heads: usize,
    maps: Maps,
    layered: InPage,
    opened: RwSignal<Option<(usize, usize)>>,
    /// Grey the keys after each query (a decoder's mask).
    #[prop(optional)]
    causal: bool,
    /// The thumbnails' side in CSS pixels.
    #[prop(default = THUMBNAIL_PX)]
    side: f64,
) -> impl IntoView {
    let state = use_app();
    let weights = move |l: usize, h: usize| {
        Signal::derive(move || {
            maps.with(|m| {
                m.as_ref()
                    .and_then(|m| m.weights(l, h).map(Cow::into_owned))
                    .unwrap_or_else(|| DMatrix::zeros(0, 0))
            })
        })
    };
    view! {
        <div class="model-view" data-view="model" role="group" aria-label=t(models::heads_weights_aria)>
            // The heads' numbers over their columns (each button is the map and 2 px of padding
            // and border a side).
            <div class="model-layer model-head-numbers" aria-hidden="true">
                <span class="model-layer-name">{t(models::head_column)}</span>
                {(0..heads).map(|h| view! { <span class="model-head-number" style:width=format!("{}px", side + 4.0)>{h.to_string()}</span> }).collect_view()}
            </div>
            {(0..layers).map(|l| view! {
                <div class="model-layer" class:in-page=move || layered.with(|p| p.as_ref().is_some_and(|p| p.0 == l))>
                    <span class="model-layer-name">{move || word(&models::layer_option(l))}</span>
                    {(0..heads).map(|h| {
                        // Rebuilt only when the map's hiding changes, not at every knock-out.
                        let hidden = Memo::new(move |_| gives_away(state, layered, l, h, None));
                        view! {
                        <button type="button" class="model-head" data-layer=l.to_string() data-head=h.to_string()
                            class:knocked=move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))
                            aria-label=move || word(&models::head_aria(l, h)) aria-pressed=move || (opened.get() == Some((l, h))).to_string()
                            on:click=move |_| opened.set(Some((l, h)))>
                            {move || if hidden.get() {
                                view! { <span class="thumbnail-hidden" data-stat="hidden-head" style:width=format!("{side}px") style:height=format!("{side}px")>"?"</span> }.into_any()
                            } else {
                                view! { <Thumbnail head=h layer=l matrix=weights(l, h) causal=Signal::stored(causal) side=side/> }.into_any()
                            }}
                        </button>
                    }}).collect_view()}
                </div>
            }).collect_view()}
        </div>
    }
}

/// Which heads send the followed piece where: each head whose largest weight from it is at least
/// [`CLEAR`], by layer, named by the piece it goes to; those that go to `[CLS]` or `[SEP]` counted
/// apart (where a head rests when it has nothing to find).
#[component]
pub(super) fn HeadWords(
    trace: Arc<EncoderTrace>,
    followed: Signal<usize>,
    layered: InPage,
) -> impl IntoView {
    let state = use_app();
    view! {
        <p class="pretrained-words" data-stat="pretrained-words">
            {move || {
                let q = followed.get();
                let token = |i: usize| trace.tokens[i].clone();
                let (sending, resting) = encoder_heads_sending(&trace, q, CLEAR);
                let said: Vec<String> = sending
                    .iter()
                    .filter(|&&(l, h, _, _)| !gives_away(state, layered, l, h, Some(q)))
                    .map(|&(l, h, k, w)| word(&models::sends_to(l, h, token(k), fmt(w, 2))))
                    .collect();
                let words = if said.is_empty() {
                    models::no_head_sends_word(token(q))
                } else {
                    models::half_from(token(q), said.join("; "))
                };
                word(&match resting {
                    0 => words,
                    n => page::sentences(words, models::resting(n)),
                })
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
    maps: Maps,
    tokens: Signal<Vec<String>>,
    followed: Signal<usize>,
    knocked: Signal<bool>,
    knock: Callback<((usize, usize), bool)>,
    layered: InPage,
) -> impl IntoView {
    let state = use_app();
    let hidden = move || gives_away(state, layered, layer, head, Some(followed.get()));
    let toggle = move |ev| knock.run(((layer, head), event_target_checked(&ev)));
    // (the followed piece, the pieces, its row of weights)
    let row = Memo::new(move |_| {
        let q = followed.get();
        let row = maps.with(|m| {
            let w = m.as_ref()?.weights(layer, head)?;
            (q < w.nrows()).then(|| w.row(q).iter().copied().collect::<Vec<f64>>())
        });
        match row {
            Some(row) => (q, tokens.get(), row),
            None => (q, Vec::new(), Vec::new()),
        }
    });
    view! {
        <div class="pretrained-head" data-view="pretrained-head" data-layer=layer.to_string() data-head=head.to_string()>
            <h3>{move || row.with(|(q, tokens, _)| word(&models::where_looks(layer, head, tokens.get(*q).map_or("", String::as_str))))}</h3>
            <label class="field check">
                <input type="checkbox" data-control="knockout" prop:checked=move || knocked.get() on:change=toggle/>
                <span>{t(models::knock_out)}</span>
            </label>
            <p class="note" data-stat="hidden-head" hidden=move || !hidden()>{t(models::hidden_until_answered)}</p>
            <table class="matrix" hidden=hidden>
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
