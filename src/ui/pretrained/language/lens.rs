//! What the layers say and what kind each head is: the logit lens (each layer's guess at the
//! next token, read through the final norm and the LM head) and the head gallery (each head
//! measured as a previous-token, a first-token and an induction head), each computed when
//! opened, a layer per task.

use std::sync::Arc;

use leptos::prelude::*;

use super::run::Latest;
use crate::core::decoder::lens::GALLERY_TOKENS;
use crate::core::decoder::rerun::Rerun;
use crate::core::decoder::{Decoder, Gallery, HeadScores, Lens};
use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::text::fmt;
use crate::ui::lang::{t, word};
use crate::ui::tasks::each_task;

/// The logit lens (`data-view="logit-lens"`): a row per layer once opened, again after each run.
#[component]
pub(super) fn LogitLens(decoder: Arc<Decoder>, latest: Latest) -> impl IntoView {
    let open = RwSignal::new(false);
    let lenses = RwSignal::new(Vec::<Lens>::new());
    let generation = StoredValue::new(0_u64);
    let reader = decoder.clone();
    Effect::new(move |_| {
        let Some(written) = latest.get().filter(|_| open.get()) else {
            return;
        };
        let g = generation.get_value() + 1;
        generation.set_value(g);
        lenses.set(Vec::new());
        let decoder = reader.clone();
        each_task(0_usize, move |l| {
            if generation.try_get_value() != Some(g) || l >= written.last.len() {
                return None;
            }
            let lens = Lens::of(&decoder, &written.last[l]);
            lenses.update(|all| all.push(lens));
            Some(l + 1)
        });
    });
    view! {
        <details class="logit-lens" data-view="logit-lens" on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>{t(models::lens_summary)}</summary>
            <p class="note">{t(models::lens_note)}</p>
            <ol class="lens" start="0">
                {move || lenses.get().into_iter().enumerate().map(|(l, lens)| view! {
                    <li data-layer=l.to_string() data-token-id=lens.id.to_string() data-prob=lens.probability.to_string()>
                        {move || word(&models::layer_colon(l))}" "<b class="piece">{decoder.tokenizer.shown(lens.id)}</b>{format!(" {}%", fmt(lens.probability * 100.0, 1))}
                    </li>
                }).collect_view()}
            </ol>
        </details>
    }
}

/// A head's score of one kind.
type Score = fn(&HeadScores) -> f64;

/// The kinds of head the gallery names (its `data-kind`), with its sentence and its score.
type Strongest = fn(usize, usize, String) -> Msg;
const KINDS: [(&str, Strongest, Score); 3] = [
    (
        "previous-token",
        |l, h, s| models::strongest_previous(l, h, s),
        |s| s.previous,
    ),
    (
        "first-token",
        |l, h, s| models::strongest_first(l, h, s),
        |s| s.first,
    ),
    (
        "induction",
        |l, h, s| models::strongest_induction(l, h, s),
        |s| s.induction,
    ),
];

/// The head gallery (`data-view="head-gallery"`): measured once when opened, on random tokens
/// said twice; the strongest head of each kind, with a button that opens it on the prompt.
#[component]
pub(super) fn HeadGallery(
    decoder: Arc<Decoder>,
    opened: RwSignal<Option<(usize, usize)>>,
) -> impl IntoView {
    let gallery = RwSignal::new(None::<Arc<Gallery>>);
    let started = StoredValue::new(false);
    let measure = move |ev: leptos::ev::Event| {
        if started.get_value() || !event_target::<web_sys::HtmlDetailsElement>(&ev).open() {
            return;
        }
        started.set_value(true);
        let ids = Gallery::tokens(&decoder, 1);
        let Some(run) = Rerun::plain(&decoder, ids.clone()) else {
            return;
        };
        let decoder = decoder.clone();
        each_task(Box::new(run), move |mut run| {
            if run.step(&decoder) {
                return Some(run);
            }
            gallery.set(Some(Arc::new(Gallery::measured(
                ids.clone(),
                &run.written(&decoder).layers,
            ))));
            None
        });
    };
    view! {
        <details class="head-gallery" data-view="head-gallery" on:toggle=measure>
            <summary>{t(models::gallery_summary)}</summary>
            <p class="note">{move || word(&models::gallery_note(GALLERY_TOKENS))}</p>
            {move || match gallery.get() {
                None => view! { <p role="status" class="note">{t(models::measuring)}</p> }.into_any(),
                Some(g) => view! {
                    <ul class="gallery">
                        {KINDS.into_iter().map(|(kind, strongest, score)| {
                            let (l, h, s) = g.strongest(score);
                            view! {
                                <li data-kind=kind data-layer=l.to_string() data-head=h.to_string() data-score=s.to_string()>
                                    {move || word(&strongest(l, h, fmt(s, 2)))}" "
                                    <button type="button" data-action="open-head" on:click=move |_| opened.set(Some((l, h)))>{t(models::open_on_prompt)}</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            }}
        </details>
    }
}
