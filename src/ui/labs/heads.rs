//! What several heads add: a picture of the concatenation with its shapes, and, for the followed
//! token, the key each head attends to most.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::teaching::labs::most_attended;
use crate::core::teaching::story::alike;
use crate::core::text::fmt;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

/// Shown inside the output step (which is there only with several heads).
#[component]
pub fn HeadsPicture() -> impl IntoView {
    let state = use_app();
    let shapes = Memo::new(move |_| {
        state.derived.trace.with(|t| {
            (
                t.output.nrows(),
                t.heads
                    .iter()
                    .map(|h| h.context.ncols())
                    .collect::<Vec<_>>(),
            )
        })
    });
    // Each head's pick and its row of weights (which keys it gives the same).
    let picks = Memo::new(move |_| {
        let q = state.derived.followed_or_last.get();
        state.derived.trace.with(|t| {
            let rows = t
                .heads
                .iter()
                .map(|h| h.weights.row(q).iter().copied().collect());
            most_attended(t, q)
                .map(|p| {
                    p.into_iter()
                        .zip(rows)
                        .collect::<Vec<((usize, f64), Vec<f64>)>>()
                })
                .unwrap_or_default()
        })
    });
    view! {
        <div class="concat" role="img" aria-label=move || {
            let (n, widths) = shapes.get();
            word(&labs::concat_label(widths.len(), n, widths.iter().sum::<usize>()))
        }>
            {move || {
                let (n, widths) = shapes.get();
                let total: usize = widths.iter().sum();
                view! {
                    {widths.iter().enumerate().map(|(h, &w)| view! {
                        <span class="concat-block" style:--cols=w.to_string()>
                            <span class="concat-name">{move || word(&labs::head(h))}</span>
                            <span class="shape">{format!("{n} × {w}")}</span>
                        </span>
                    }).collect_view()}
                    <span class="concat-arrow" aria-hidden="true">"↓"</span>
                    <span class="concat-block concat-total" style:--cols=total.to_string()>
                        <span class="concat-name">{t(labs::output)}</span>
                        <span class="shape">{format!("{n} × {total}")}</span>
                    </span>
                }
            }}
        </div>
        <p class="heads-picks" data-heads-query=move || state.derived.followed_or_last.get().to_string()>
            {move || {
                let words = state.derived.words.get();
                let word_at = |i: usize| words.get(i).cloned().unwrap_or_default();
                let q = state.derived.followed_or_last.get();
                if (0..state.derived.heads.get()).any(|h| state.exercises.hides_row(h, q)) {
                    return word(&labs::picks_hidden(word_at(q)));
                }
                let p = state.view.look.precision.get();
                // How many keys each head gives its top weight: more than one, it has no favourite.
                let alike: Vec<usize> = picks.with(|ps| ps.iter().map(|((_, w), row)| alike(row, *w, p)).collect());
                let list = picks
                    .get()
                    .iter()
                    .enumerate()
                    .map(|(h, ((key, w), _))| match alike[h] {
                        // A row of equal weights has no favourite.
                        n if n > 1 => word(&labs::pick_even(h, n, fmt(*w, p))),
                        _ => {
                            let key = state.derived.key_words.with(|k| k.get(*key).cloned().unwrap_or_default());
                            word(&labs::pick(h, key, fmt(*w, p)))
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let distinct = {
                    let mut keys: Vec<usize> = picks.get().iter().map(|&((k, _), _)| k).collect();
                    keys.sort_unstable();
                    keys.dedup();
                    keys.len()
                };
                let verdict = if alike.iter().any(|&n| n > 1) {
                    labs::picks_tied.into()
                } else if distinct > 1 {
                    labs::picks_apart(distinct)
                } else {
                    labs::picks_same.into()
                };
                word(&labs::picks(word_at(state.derived.followed_or_last.get()), list, verdict))
            }}
        </p>
    }
}
