//! Step 5: scores Q·Kᵀ, and a clicked score spelled out as its dot product.

use leptos::prelude::*;

use crate::core::views::pipeline::{Matrix, Step};
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Q·Kᵀ",
    title: "Scores Q·Kᵀ",
    formula: "scores[i][j] = query_i · key_j   (n × n: rows are queries, columns are keys)",
    explain: "How well does token i's query match token j's key? Their dot product: multiply component by component and add. A large score means a good match. Rows are the tokens asking (queries), columns the tokens being asked (keys). Click any score to see its sum written out.",
    hint: "Click a score to see its dot product written out term by term.",
    lab: "",
};

#[component]
pub fn ScoresStep() -> impl IntoView {
    let state = use_app();
    let explain_score = Callback::new(move |(head, query, key)| {
        state.detail.set(Some(Detail::Score { head, query, key }))
    });
    view! {
        <StepSection step=Step::Scores text=&TEXT>
            <HeadMatrices of=Matrix::Scores on_cell_click=explain_score/>
            <Breakdown kind="score"/>
        </StepSection>
    }
}
