//! The model's sizes: d_in, d_k, d_v, the heads and the key/value heads, and what a resize did
//! that the tables alone do not say.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::i18n::keys::{page, settings};
use crate::core::i18n::{Arg, Msg};
use crate::core::model::limits::{MAX_DIM, MAX_HEADS};
use crate::core::model::{Dims, Model};
use crate::core::teaching::story::Story;
use crate::core::text::fmt;
use crate::ui::fields::IntegerField;
use crate::ui::lang::word;
use crate::ui::lang::Label;
use crate::ui::state::AppState;

/// The size fields, and the note a resize that grew the model leaves (said while the sizes are
/// the ones it speaks of: an Undo takes it away).
pub(super) fn sizes(state: AppState) -> (impl IntoView, impl IntoView) {
    let dims = Memo::new(move |_| state.structure(Model::dims));
    let kv_heads = Memo::new(move |_| state.structure(Model::kv_heads));
    // What a resize did that the tables alone do not say: new places got random numbers.
    let resized = RwSignal::new(None::<(Dims, Msg)>);
    let followed = move || {
        let (head, query) = (0, state.derived.followed_or_last.get_untracked());
        state
            .derived
            .trace
            .with_untracked(|t| Story::of(t, head, query))
    };
    let resize = move |change: fn(&mut Dims, usize), n: u64| {
        let mut d = dims.get_untracked();
        let was = followed();
        change(&mut d, n as usize);
        let grew = d.d_in > dims.get_untracked().d_in
            || d.d_k > dims.get_untracked().d_k
            || d.d_v > dims.get_untracked().d_v
            || d.heads > dims.get_untracked().heads;
        state.apply(Edit::Resize(d))?;
        resized.set(grew.then(|| {
            let at = d;
            let then = match (was, followed()) {
                (Some(a), Some(b))
                    if (a.top.weight - b.top.weight).abs() > 5e-4 || a.top.key != b.top.key =>
                {
                    let token = |k: usize| {
                        state
                            .derived
                            .key_words
                            .with_untracked(|w| w.get(k).cloned().unwrap_or_default())
                    };
                    let moved = settings::largest_weight_moved(
                        token(a.top.key),
                        fmt(a.top.weight, 3),
                        token(b.top.key),
                        fmt(b.top.weight, 3),
                    );
                    page::sentences(moved, settings::undo_takes_it_back)
                }
                _ => settings::undo_takes_it_back.into(),
            };
            (at, page::sentences(settings::new_places_random, then))
        }));
        Ok(())
    };
    let resized_note = move || {
        resized
            .get()
            .filter(|(at, _)| *at == dims.get())
            .map(|(_, note)| view! { <p class="note resized" role="status" data-note="resized">{word(&note)}</p> })
    };
    let dim_field = move |control: &'static str,
                          label: Label,
                          max: usize,
                          get: fn(&Dims) -> usize,
                          set: fn(&mut Dims, usize)| {
        view! {
            <IntegerField
                control
                label
                min=1
                max=max as u64
                value=Signal::derive(move || get(&dims.get()) as u64)
                on_change=Callback::new(move |n| resize(set, n))
            />
        }
    };
    let fields = view! {
        {dim_field("d_in", "d_in".into(), MAX_DIM, |d| d.d_in, |d, n| d.d_in = n)}
        {dim_field("d_k", "d_k".into(), MAX_DIM, |d| d.d_k, |d, n| d.d_k = n)}
        {dim_field("d_v", "d_v".into(), MAX_DIM, |d| d.d_v, |d, n| d.d_v = n)}
        {dim_field("heads", settings::heads.into(), MAX_HEADS, |d| d.heads, |d, n| d.heads = n)}
        <IntegerField
            control="kv_heads"
            label=settings::kv_heads
            min=1
            max=MAX_HEADS as u64
            value=Signal::derive(move || kv_heads.get() as u64)
            on_change=Callback::new(move |n| state.apply(Edit::KvHeads(n as usize)).map_err(Arg::from))
        />
    };
    (fields, resized_note)
}
