//! The language model's heads on the prompt: every layer × head's weights as thumbnails for the
//! followed token, the words on where they send it, one head opened and knocked out.

use leptos::prelude::*;

use super::run::{ours, Latest};
use crate::core::decoder::{Decoder, LANGUAGE_MODEL};
use crate::core::document::edit::Edit;
use crate::core::i18n::keys::{models, page};
use crate::core::i18n::{Arg, Msg};
use crate::core::teaching::labs::heads_sending;
use crate::core::text::fmt;
use crate::ui::lang::{t, word};
use crate::ui::pretrained::heads::{HeadGrid, HeadMaps, InPage, Maps, OpenedHead};
use crate::ui::state::use_app;

/// A weight from which the words name where a head sends the followed token.
const CLEAR: f64 = 0.5;
/// The most heads the words name, the strongest first.
const NAMED: usize = 8;
/// A thumbnail's side, in CSS pixels: 9 heads to a row.
const THUMBNAIL: f64 = 56.0;

/// The grid, the words and the opened head; `opened` is shared with the head gallery, which
/// opens the heads it names.
#[component]
pub(super) fn DecoderHeads(
    decoder: std::sync::Arc<Decoder>,
    latest: Latest,
    opened: RwSignal<Option<(usize, usize)>>,
) -> impl IntoView {
    let state = use_app();
    let error = RwSignal::new(None::<Msg>);
    let maps: Maps =
        Signal::derive(move || latest.get().map(|w| w as std::sync::Arc<dyn HeadMaps>));
    let tokens = Signal::derive(move || state.doc.model.with(|m| m.tokens().words.clone()));
    let followed = Signal::derive(move || {
        state
            .derived
            .followed_or_last
            .get()
            .min(tokens.with(|t| t.len().saturating_sub(1)))
    });
    let layered: InPage = Memo::new(move |_| {
        state.doc.model.with(|m| {
            m.layered()
                .filter(|_| ours(m))
                .map(|l| (l.layer, l.knocked.clone()))
        })
    });
    let knock = Callback::new(move |((l, h), out): ((usize, usize), bool)| {
        let knocked = state
            .doc
            .model
            .with_untracked(|m| decoder.reopen(m, |o| o.knock((l, h), out)))
            .map_err(Arg::from)
            .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from));
        error.set(knocked.err().map(models::language_error));
    });
    let words = move || {
        let q = followed.get();
        latest.with(|w| {
            let w = w.as_ref()?;
            tokens.with(|tokens| {
                let token = |i: usize| tokens.get(i).cloned().unwrap_or_default();
                let layers = w.layers.iter().map(|l| l.weights.iter());
                let (mut sending, resting) = heads_sending(layers, q, CLEAR, |k| k == 0 && q > 0);
                sending.sort_by(|a, b| b.3.total_cmp(&a.3));
                let more = sending.len().saturating_sub(NAMED);
                let mut said: Vec<String> = sending
                    .iter()
                    .take(NAMED)
                    .map(|&(l, h, k, x)| word(&models::sends_to(l, h, token(k), fmt(x, 2))))
                    .collect();
                if more > 0 {
                    said.push(word(&models::and_more(more)));
                }
                let words = if said.is_empty() {
                    models::no_head_sends_token(token(q))
                } else {
                    models::half_from_strongest(token(q), said.join("; "))
                };
                Some(word(&match resting {
                    0 => words,
                    n => page::sentences(
                        words,
                        models::sink(n, LANGUAGE_MODEL.layers * LANGUAGE_MODEL.heads, token(0)),
                    ),
                }))
            })
        })
    };
    view! {
        <section class="decoder-heads" aria-label=t(models::every_head)>
            <h3>{t(models::every_layers_heads)}</h3>
            <p class="note">{move || word(&models::squares_note(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads))}</p>
            <p class="pretrained-words" data-stat="decoder-words">{words}</p>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert" data-stat="decoder-error">{word(&e)}</p> })}
            <HeadGrid layers=LANGUAGE_MODEL.layers heads=LANGUAGE_MODEL.heads maps=maps layered=layered opened=opened causal=true side=THUMBNAIL/>
            {move || opened.get().map(|(l, h)| view! { <OpenedHead layer=l head=h maps=maps tokens=tokens followed=followed knocked=Signal::derive(move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))) knock=knock layered=layered/> })}
        </section>
    }
}
