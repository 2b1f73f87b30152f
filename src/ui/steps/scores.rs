//! Step 5: scores Q·Kᵀ, and a clicked score spelled out as its dot product.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::app::{use_app, Detail};
use crate::ui::steps::{Breakdown, Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn ScoresStep() -> impl IntoView {
    let state = use_app();
    let explain_score = Callback::new(move |(head, query, key)| {
        state.detail.set(Some(Detail::Score { head, query, key }))
    });
    view! {
        <StepSection step=Step::Scores>
            <HeadMatrices name="scores" title="scores Q·Kᵀ" pick=|h| &h.scores columns=Columns::Tokens heat=Heat::Signed on_cell_click=explain_score/>
            <Breakdown kind="score"/>
        </StepSection>
    }
}
