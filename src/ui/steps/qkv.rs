//! Step 4: queries, keys and values of every token.

use leptos::prelude::*;

use crate::core::views::pipeline::{Matrix, Step};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Q, K, V",
    title: "Queries, keys, values",
    formula: "Q = X · W_query (n × d_k) · K = X · W_key (n × d_k) · V = X · W_value (n × d_v)",
    explain: "Multiplying the embedded sentence by each weight matrix gives every token its query, key and value at once: row t of Q is token t's query. Change one embedding number and only that token's rows move; change one weight and every token's column moves.",
    hint: "Compare a token's query with its key: the same word asks for one thing and offers another.",
    lab: "",
};

#[component]
pub fn QkvStep() -> impl IntoView {
    let state = use_app();
    let rope = Memo::new(move |_| state.model.with(|m| m.positions().rope().is_some()));
    view! {
        <StepSection step=Step::Qkv text=&TEXT>
            <div class="side-by-side">
            <HeadMatrices of=Matrix::Queries/>
            <HeadMatrices of=Matrix::Keys/>
            <HeadMatrices of=Matrix::Values/>
            </div>
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
