//! The KV cache lab: the learner's causal model decoding one token at a time, the cache of K and
//! V growing by a row a step, beside the full computation's row. The numbers come from
//! `core::teaching::kv_cache`; its body is a wasm chunk of its own.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys;
use crate::core::teaching::kv_cache::{decode, refusal, DecodeStep};
use crate::core::teaching::labs;
use crate::core::views::heatmap::Heat;
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::lang::{self, word};
use crate::ui::lang::{figure, with_figures};
use crate::ui::matrix::{index_labels, LabMatrix};
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::kv_cache_title,
    short_title: keys::labs::kv_cache_short_title,
    hint: keys::labs::kv_cache_hint,
};

#[component]
pub fn KvCacheLab() -> impl IntoView {
    let state = use_app();
    let t = RwSignal::new(0usize);
    // A new sentence or model decodes from the start.
    Effect::new(move |_| {
        state.derived.words.track();
        state.derived.causal.track();
        t.set(0);
    });
    let head = Memo::new(move |_| {
        state
            .derived
            .visible_heads
            .with(|v| v.first().copied().unwrap_or(0))
    });
    let n = Memo::new(move |_| state.derived.words.with(Vec::len));
    let why_not = Memo::new(move |_| state.doc.model.with(refusal));
    let step = Memo::new(move |_| {
        let at = t.get().min(n.get().saturating_sub(1));
        state
            .doc
            .model
            .with(|m| state.derived.trace.with(|tr| decode(m, tr, head.get(), at)))
    });
    let pick = move |f: fn(&DecodeStep) -> DMatrix<f64>| -> Signal<DMatrix<f64>> {
        Memo::new(move |_| step.with(|s| s.as_ref().map_or_else(|| DMatrix::zeros(0, 0), f))).into()
    };
    let stat = move |f: fn(&DecodeStep) -> f64| -> Signal<f64> {
        Signal::derive(move || step.with(|s| s.as_ref().map_or(f64::NAN, f)))
    };
    let seen: Signal<Vec<String>> = Memo::new(move |_| {
        let at = step.with(|s| s.as_ref().map_or(0, |s| s.t));
        state
            .derived
            .words
            .with(|w| w[..=at.min(w.len().saturating_sub(1))].to_vec())
    })
    .into();
    let current: Signal<Vec<String>> = Memo::new(move |_| {
        let at = step.with(|s| s.as_ref().map_or(0, |s| s.t));
        state
            .derived
            .words
            .with(|w| w.get(at).cloned().into_iter().collect())
    })
    .into();
    let components =
        |f: fn(&DecodeStep) -> usize| index_labels(move || step.with(|s| s.as_ref().map_or(0, f)));
    // What this step did, in words that follow its numbers.
    let words = move || {
        step.with(|s| {
            let s = s.as_ref()?;
            let word_at = |k: usize| {
                state
                    .derived
                    .words
                    .with(|w| w.get(k).cloned().unwrap_or_default())
            };
            let (most, w) = crate::core::teaching::labs::largest(s.weights.row(0).iter().copied())?;
            let p = state.view.look.precision.get();
            let saving = match s.macs_full / s.macs_cached.max(1) {
                0 | 1 => keys::labs::kv_same.into(),
                times => keys::labs::kv_fewer(times),
            };
            Some(word(&keys::labs::kv_step(
                word_at(s.t),
                word_at(most),
                crate::core::text::fmt(w, p),
                s.t,
                s.t + 1,
                s.macs_cached,
                s.macs_full,
                saving,
            )))
        })
    };
    view! {
        <p>{lang::t(keys::labs::kv_what)}</p>
        {move || why_not.get().map(|w| view! { <p class="note" data-note="kv-cache-refused">{move || word(&keys::labs::kv_needs_causal(w))}</p> })}
        <div class="lab-controls" hidden=move || why_not.with(Option::is_some)>
            <button type="button" data-action="decode-step" disabled=move || { t.get() + 1 >= n.get() } on:click=move |_| t.update(|t| *t += 1)>{lang::t(keys::labs::decode_next)}</button>
            <button type="button" data-action="decode-reset" on:click=move |_| t.set(0)>{lang::t(keys::labs::start_again)}</button>
            <span>{move || word(&keys::labs::kv_token(step.with(|s| s.as_ref().map_or(0, |s| s.t)) + 1, n.get(), current.with(|c| c.first().cloned().unwrap_or_default()), head.get()))}</span>
        </div>
        <div class="side-by-side" hidden=move || why_not.with(Option::is_some)>
            <LabMatrix of=labs::LabMatrix::KvQuery title=keys::labs::kv_query values=pick(|s| s.query.clone()) words=current columns=components(|s| s.query.ncols()) heat=Heat::Signed/>
            <LabMatrix of=labs::LabMatrix::KvKeys title=keys::labs::kv_keys values=pick(|s| s.keys.clone()) words=seen columns=components(|s| s.keys.ncols()) heat=Heat::Signed/>
            <LabMatrix of=labs::LabMatrix::KvValues title=keys::labs::kv_values values=pick(|s| s.values.clone()) words=seen columns=components(|s| s.values.ncols()) heat=Heat::Signed/>
        </div>
        <div class="side-by-side" hidden=move || why_not.with(Option::is_some)>
            <LabMatrix of=labs::LabMatrix::KvScores title=keys::labs::kv_scores values=pick(|s| s.scores.clone()) words=current columns=seen heat=Heat::Signed/>
            <LabMatrix of=labs::LabMatrix::KvWeights title=keys::labs::kv_softmax values=pick(|s| s.weights.clone()) words=current columns=seen heat=Heat::Unit/>
            <LabMatrix of=labs::LabMatrix::KvFullWeights title=keys::labs::kv_full_row values=pick(|s| s.full_weights.clone()) words=current columns=seen heat=Heat::Unit/>
        </div>
        <p class="lab-words" data-note="kv-cache-words" hidden=move || why_not.with(Option::is_some)>{words}</p>
        <p hidden=move || why_not.with(Option::is_some)>
            {with_figures(
                || keys::labs::kv_figures(figure(0), figure(1), figure(2), figure(3)),
                move |i| match i {
                    0 => view! { <Stat name="cache_rows" whole=true value=stat(|s| (s.t + 1) as f64)/> }.into_any(),
                    1 => view! { <Stat name="cache_max_diff" value=stat(|s| s.max_diff)/> }.into_any(),
                    2 => view! { <Stat name="macs_cached" whole=true value=stat(|s| s.macs_cached as f64)/> }.into_any(),
                    _ => view! { <Stat name="macs_full" whole=true value=stat(|s| s.macs_full as f64)/> }.into_any(),
                },
            )}
        </p>
    }
}
