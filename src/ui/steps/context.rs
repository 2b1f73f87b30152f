//! Step 9: context vectors, and a clicked row spelled out as a weighted sum of values.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::app::{use_app, Detail};
use crate::ui::steps::{Breakdown, Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn ContextStep() -> impl IntoView {
    let state = use_app();
    let explain_row = Callback::new(move |(head, query, _)| {
        state.detail.set(Some(Detail::Context { head, query }))
    });
    view! {
        <StepSection step=Step::Context>
            <HeadMatrices name="context" title="context" pick=|h| &h.context columns=Columns::Index heat=Heat::Signed on_cell_click=explain_row/>
            <Breakdown kind="context"/>
        </StepSection>
    }
}
