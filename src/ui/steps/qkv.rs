//! Step 4: queries, keys and values of every token.

use leptos::prelude::*;

use crate::core::i18n::keys::{page, steps, views};
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::qkv_short_title,
    formula: steps::qkv_formula,
    explain: steps::qkv_explain,
    hint: steps::qkv_hint,
    dog: Some(steps::qkv_dog),
    lab: None,
};

#[component]
pub fn QkvStep() -> impl IntoView {
    let state = use_app();
    let rope = Memo::new(move |_| state.structure(|m| m.positions().rope().is_some()));
    view! {
        <StepSection step=Step::Qkv text=&TEXT>
            <div class="side-by-side">
            <HeadMatrices of=Matrix::Queries/>
            <HeadMatrices of=Matrix::Keys/>
            <HeadMatrices of=Matrix::Values/>
            </div>
            <KvNote/>
            <Show when=move || rope.get()>
                <p>{t(views::rope_rotated)}</p>
                <div class="side-by-side">
                <HeadMatrices of=Matrix::QueriesRotated/>
                <HeadMatrices of=Matrix::KeysRotated/>
                </div>
            </Show>
        </StepSection>
    }
}

/// Which heads share their keys and values, and what a decoder caches per token for them.
#[component]
fn KvNote() -> impl IntoView {
    let state = use_app();
    // Memos of types the page has already: each new type of memo is code in the page.
    let bytes = Memo::new(move |_| state.structure(|m| m.kv_bytes_per_token().0));
    // The whole paragraph is one message; the count stands in a span of its own, where the
    // language puts it.
    let note = Memo::new(move |_| {
        state.structure(|m| {
            let cache = if m.shares_kv() {
                views::kv_cache_shared(figure(0), m.kv_bytes_per_token().1)
            } else {
                views::kv_cache(figure(0))
            };
            let (h, g) = (m.heads().len(), m.kv_heads());
            if g == h {
                return cache;
            }
            let groups: Vec<String> = (0..g)
                .map(|k| {
                    let first = m.kv_leader(k);
                    let last = first + h / g - 1;
                    word(&if first == last {
                        views::kv_group(first)
                    } else {
                        views::kv_group_range(first, last)
                    })
                })
                .collect();
            let kind = if g == 1 {
                views::multi_query
            } else {
                views::grouped_query
            };
            page::sentences(views::kv_sharing(h, g, kind, groups.join(", ")), cache)
        })
    });
    view! {
        <p class="note" data-note="kv-heads">
            {with_figures(move || note.get(), move |_| view! { <span data-stat="kv_bytes_per_token">{bytes}</span> }.into_any())}
        </p>
    }
}
