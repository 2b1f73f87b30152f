//! Step 5: scores Q·Kᵀ, and a clicked score spelled out as its dot product.

use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Q·Kᵀ",
    title: "Scores Q·Kᵀ",
    formula: "scores[i][j] = query_i · key_j   (n × n: rows are queries, columns are keys)",
    explain: "How well does token i's query match token j's key? Their dot product: multiply component by component and add. A large score means a good match: the two point in much the same direction, and are long. Rows are the tokens asking (queries), columns the tokens being asked (keys). Click any score to see its sum written out.",
    hint: "A score says how well one token's query matches another's key: click one to see its dot product written out. The largest score in a row is that token's best match.",
    dog: "Click the score in “she”'s row under “dog”: 13.8, against 9.8 under “ball”.",
    lab: "",
};

#[component]
pub fn ScoresStep() -> impl IntoView {
    let state = use_app();
    let explain_score = Callback::new(move |(head, query, key)| {
        state
            .view
            .detail
            .set(Some(Detail::Score { head, query, key }))
    });
    view! {
        <StepSection step=Step::Scores text=&TEXT>
            <HeadMatrices of=Matrix::Scores on_cell_click=explain_score/>
            <Breakdown kind="score"/>
        </StepSection>
    }
}
