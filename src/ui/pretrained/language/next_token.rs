//! What comes next: the ten most likely next tokens with their probabilities as bars, how the
//! next one is chosen (the most likely, or drawn after temperature, top-k and top-p with a
//! seed), and the buttons that write one token or up to twenty, each into the prompt (Undo takes
//! it back).

use std::sync::Arc;

use leptos::prelude::*;

use super::run::Latest;
use crate::core::decoder::rerun::Written;
use crate::core::decoder::{top, Choosing, Decoder, Sampling};
use crate::core::document::edit::Edit;
use crate::core::document::numbers::{read_cell, CellText};
use crate::core::i18n::keys::{models, settings};
use crate::core::i18n::{Arg, Msg};
use crate::core::text::{fmt, grouped};
use crate::ui::fields::{accept, IntegerField, NumberField};
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

/// How many tokens "Write 20" writes.
const GENERATE: u64 = 20;
/// How many next tokens the view lists.
const LISTED: usize = 10;

/// The next-token view (`data-view="next-token"`): a row per likely token with its id and
/// probability (`data-token-id`, `data-prob`), the choosing controls and the writing buttons.
/// `current` is the finished run of the page's model (None while it runs), `latest` the last
/// finished run.
#[component]
pub(super) fn NextToken(
    decoder: Arc<Decoder>,
    current: Memo<Option<Arc<Written>>>,
    latest: Latest,
) -> impl IntoView {
    let state = use_app();
    let choosing = state.view.choosing;
    let error = RwSignal::new(None::<Msg>);
    // Tokens left to write; a finished run writes the next.
    let left = RwSignal::new(0_u64);
    let write = {
        let decoder = decoder.clone();
        move |written: &Written| {
            let id = choosing
                .get_untracked()
                .pick(&written.logits, written.ids.len());
            // As the model wrote it: its text read again could cut other pieces.
            let done = state
                .doc
                .model
                .with_untracked(|m| decoder.write(m, id))
                .map_err(Arg::from)
                .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from));
            if let Err(e) = &done {
                left.set(0);
                error.set(Some(models::not_written(e.clone())));
            } else {
                error.set(None);
            }
        }
    };
    let write_on = write.clone();
    Effect::new(move |_| {
        let Some(written) = current.get() else { return };
        if left.get() > 0 {
            left.update(|n| *n -= 1);
            write_on(&written);
        }
    });
    // The last run's rows stay while the next runs (the section says it is busy).
    let rows = Memo::new(move |_| {
        latest.with(|w| {
            w.as_ref().map(|w| {
                let p = w.probabilities();
                let c = choosing.get();
                let after = c.draw.then(|| c.sampling.probabilities(&w.logits));
                top(&p, LISTED)
                    .into_iter()
                    .map(|(id, p)| (id, p, after.as_ref().map(|a| a[id as usize])))
                    .collect::<Vec<_>>()
            })
        })
    });
    let last_piece = move || {
        state
            .doc
            .model
            .with(|m| m.tokens().words.last().cloned().unwrap_or_default())
    };
    let vocabulary = grouped(decoder.tokenizer.len());
    let shown = move |id: u32| decoder.tokenizer.shown(id);
    let write_one = move |_| {
        if let Some(w) = current.get_untracked() {
            write(&w);
        }
    };
    view! {
        <section class="next-token" data-view="next-token" aria-label=t(models::next_token_aria) aria-busy=move || current.with(Option::is_none).to_string()>
            <h3>{t(models::what_comes_next)}</h3>
            <p class="note">
                {move || word(&models::after_piece(last_piece(), vocabulary.clone()))}
            </p>
            <table class="next-tokens">
                <thead><tr><th scope="col">{t(models::token_column)}</th><th scope="col">{t(models::id_column)}</th><th scope="col">{t(models::probability_column)}</th>
                    <th scope="col" hidden=move || !choosing.with(|c| c.draw)>{t(models::after_sampling_column)}</th></tr></thead>
                <tbody>
                    {move || rows.get().unwrap_or_default().into_iter().map(|(id, p, after)| view! {
                        <tr data-token-id=id.to_string() data-prob=p.to_string()>
                            <th scope="row" class="piece">{shown(id)}</th>
                            <td class="id">{id.to_string()}</td>
                            <td class="prob"><span class="bar" style:width=format!("{:.1}%", p * 100.0)></span>{format!("{}%", fmt(p * 100.0, 1))}</td>
                            <td class="prob after" hidden=after.is_none() data-after=after.map(|a| a.to_string())>
                                {after.map(|a| format!("{}%", fmt(a * 100.0, 1)))}
                            </td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <Choose choosing=choosing/>
            <p class="actions">
                <button type="button" data-action="next-token" disabled=move || current.with(Option::is_none) on:click=write_one>{t(models::write_next)}</button>
                " "
                <button type="button" data-action="generate" hidden=move || { left.get() > 0 } disabled=move || current.with(Option::is_none)
                    on:click=move |_| left.set(GENERATE)>
                    {move || word(&models::write_many(GENERATE))}
                </button>
                <button type="button" data-action="stop-generating" hidden=move || left.get() == 0 on:click=move |_| left.set(0)>{t(models::stop)}</button>
            </p>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert" data-stat="decoder-error">{word(&e)}</p> })}
        </section>
    }
}

/// The choosing controls: the most likely token, or a draw with temperature, top-k, top-p and a
/// seed (each field keeps its last good value while its text is wrong).
#[component]
fn Choose(choosing: RwSignal<Choosing>) -> impl IntoView {
    // The setting's refusal comes with the reading: a field's `read` may refuse with a `Msg`, its
    // `on_change` only with a `String`.
    let decimal = move |change: fn(&mut Sampling, f64)| {
        Callback::new(move |t: String| match read_cell(&t) {
            CellText::Number(x) => {
                let mut s = choosing.get_untracked().sampling;
                change(&mut s, x);
                s.checked().map(|_| x).map_err(Arg::from)
            }
            CellText::Incomplete => Err(Arg::from(models::not_a_number_yet)),
            CellText::Invalid(e) => Err(Arg::from(e)),
        })
    };
    let sampling = move |change: fn(&mut Sampling, f64)| {
        Callback::new(move |x: f64| {
            choosing.update(|c| change(&mut c.sampling, x));
            Ok(())
        })
    };
    let temperature: fn(&mut Sampling, f64) = |s, x| s.temperature = x;
    let top_p: fn(&mut Sampling, f64) = |s, x| s.top_p = x;
    view! {
        <fieldset class="choosing">
            <legend>{t(models::how_chosen)}</legend>
            <label class="check">
                <input type="checkbox" data-control="sample" prop:checked=move || choosing.with(|c| c.draw)
                    on:change=move |ev| choosing.update(|c| c.draw = event_target_checked(&ev))/>
                " "{t(models::draw_at_random)}
            </label>
            <div class="fields" hidden=move || !choosing.with(|c| c.draw)>
                <NumberField control="temperature" label=models::temperature numeric="decimal" read=decimal(temperature)
                    value=Signal::derive(move || choosing.with(|c| c.sampling.temperature)) on_change=sampling(temperature)/>
                <IntegerField control="top-k" label=models::top_k min=0 max=49_152
                    value=Signal::derive(move || choosing.with(|c| c.sampling.top_k as u64))
                    on_change=accept(move |k| choosing.update(|c| c.sampling.top_k = k as usize))/>
                <NumberField control="top-p" label="Top-p" numeric="decimal" read=decimal(top_p)
                    value=Signal::derive(move || choosing.with(|c| c.sampling.top_p)) on_change=sampling(top_p)/>
                <IntegerField control="sample-seed" label=settings::seed min=0 max=u64::from(u32::MAX)
                    value=Signal::derive(move || choosing.with(|c| c.seed)) on_change=accept(move |s| choosing.update(|c| c.seed = s))/>
            </div>
        </fieldset>
    }
}
