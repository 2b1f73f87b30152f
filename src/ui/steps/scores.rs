//! Step 5: scores Q·Kᵀ, and a clicked score spelled out as its dot product.

use leptos::prelude::*;

use crate::core::i18n::keys::steps;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::scores_short_title,
    formula: steps::scores_formula,
    explain: steps::scores_explain,
    hint: steps::scores_hint,
    dog: Some(steps::scores_dog),
    lab: None,
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
