//! Step 9: context vectors, and a clicked row spelled out as a weighted sum of values.

use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Context",
    title: "Context vectors",
    formula: "context = weights · V   (n × d_v): context_i = Σ_j weights[i][j] · value_j",
    explain: "Each token's new vector, its context vector, is a blend of all the value rows, mixed in the proportions of its attention weights: the token, enriched by what it found. This is attention's output. A language model stacks many such layers, each reading the context vectors of the one below. Click a row to see its blend written out.",
    hint: "The payoff: each token's context vector is a blend of the value rows in the proportions of its weights, the token enriched by what it found. Click a row to see its blend written out.",
    dog: "“she” comes out mostly “dog”: the model now knows whom she means.",
    lab: "",
};

#[component]
pub fn ContextStep() -> impl IntoView {
    let state = use_app();
    let explain_row = Callback::new(move |(head, query, _)| {
        state.view.detail.set(Some(Detail::Context { head, query }))
    });
    // Said of the numbers on the page, whatever the model: the followed token's story.
    let blend = move || {
        let heads = if state.derived.heads.get() > 1 {
            format!("In head {}: ", state.derived.visible_heads.with(|v| v[0]))
        } else {
            "Here ".into()
        };
        state.story().map(|story| format!("{heads}{story}"))
    };
    view! {
        <StepSection step=Step::Context text=&TEXT>
            <p class="explain" data-stat="blend">{blend}</p>
            <HeadMatrices of=Matrix::Context on_cell_click=explain_row/>
            <Breakdown kind="context"/>
        </StepSection>
    }
}
