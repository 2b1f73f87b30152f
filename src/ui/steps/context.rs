//! Step 9: context vectors, and a clicked row spelled out as a weighted sum of values.

use leptos::prelude::*;

use crate::core::pipeline::Step;
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Context",
    title: "Context vectors",
    formula: "context = weights · V   (n × d_v): context_i = Σ_j weights[i][j] · value_j",
    explain: "Each token's new representation is a blend of all value rows, mixed in the proportions of its attention weights. A token that pays 88% of its attention to “dog” becomes mostly dog's value: this is how “she” picks up what she refers to. Click a row to see its blend written out.",
    hint: "Click a context row to see it written out as a weighted sum of the value rows.",
};

#[component]
pub fn ContextStep() -> impl IntoView {
    let state = use_app();
    let explain_row = Callback::new(move |(head, query, _)| {
        state.detail.set(Some(Detail::Context { head, query }))
    });
    view! {
        <StepSection step=Step::Context text=&TEXT>
            <HeadMatrices key="context" on_cell_click=explain_row/>
            <Breakdown kind="context"/>
        </StepSection>
    }
}
