//! Step 4: queries, keys and values of every token.

use leptos::prelude::*;

use crate::core::i18n::keys::steps;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::qkv_short_title,
    title: steps::qkv_title,
    formula: steps::qkv_formula,
    explain: steps::qkv_explain,
    hint: steps::qkv_hint,
    dog: Some(steps::qkv_dog),
    lab: None,
};

#[component]
pub fn QkvStep() -> impl IntoView {
    let state = use_app();
    let rope = Memo::new(move |_| state.doc.model.with(|m| m.positions().rope().is_some()));
    view! {
        <StepSection step=Step::Qkv text=&TEXT>
            <div class="side-by-side">
            <HeadMatrices of=Matrix::Queries/>
            <HeadMatrices of=Matrix::Keys/>
            <HeadMatrices of=Matrix::Values/>
            </div>
            <KvNote/>
            <Show when=move || rope.get()>
                <p>"With RoPE the scores are taken from the queries and keys rotated by each token's place (the column labels name each component's pair):"</p>
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
    let bytes = Memo::new(move |_| state.doc.model.with(|m| m.kv_bytes_per_token().0));
    let sharing = Memo::new(move |_| {
        state.doc.model.with(|m| {
            let (h, g) = (m.heads().len(), m.kv_heads());
            if g == h {
                return String::new();
            }
            let groups: Vec<String> = (0..g)
                .map(|k| {
                    let first = m.kv_leader(k);
                    let last = first + h / g - 1;
                    if first == last {
                        format!("head {first}")
                    } else {
                        format!("heads {first}–{last}")
                    }
                })
                .collect();
            format!(
                "{h} query heads share {g} key/value head{} ({}: {} each use one K and V, shown once). ",
                if g == 1 { "" } else { "s" },
                if g == 1 { "multi-query attention" } else { "grouped-query attention" },
                groups.join(", ")
            )
        })
    });
    let against = Memo::new(move |_| {
        state.doc.model.with(|m| {
            if m.shares_kv() {
                format!(" bytes per token in float16 here, against {} with a key and a value per query head.", m.kv_bytes_per_token().1)
            } else {
                " bytes per token: a key and a value, d_k + d_v numbers a head, each in float16 (2 bytes). With “KV heads” (in the settings) below the heads, query heads share them and the cache shrinks.".to_owned()
            }
        })
    });
    view! {
        <p class="note" data-note="kv-heads">
            {sharing}
            "Going further: a model that writes text one token at a time (a decoder) keeps every earlier token's key and value rather than compute them again (its KV cache): "
            <span data-stat="kv_bytes_per_token">{bytes}</span>
            {against}
        </p>
    }
}
