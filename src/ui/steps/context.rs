//! Step 9: context vectors, and a clicked row spelled out as a weighted sum of values.

use leptos::prelude::*;

use crate::core::i18n::keys::steps;
use crate::core::model::Matrix;
use crate::core::teaching::story::blend;
use crate::core::views::pipeline::Step;
use crate::ui::lang::word;
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::context_short_title,
    formula: steps::context_formula,
    explain: steps::context_explain,
    hint: steps::context_hint,
    dog: Some(steps::context_dog),
    lab: None,
};

#[component]
pub fn ContextStep() -> impl IntoView {
    let state = use_app();
    let explain_row = Callback::new(move |(head, query, _)| {
        state.view.detail.set(Some(Detail::Context { head, query }))
    });
    // Said of the numbers on the page, whatever the model: the followed token's story.
    let blend = move || {
        let head = state.derived.visible_heads.with(|v| v[0]);
        Some(word(&blend(
            state.story()?,
            head,
            state.derived.heads.get(),
        )))
    };
    view! {
        <StepSection step=Step::Context text=&TEXT>
            <p class="explain" data-stat="blend" data-says-numbers="">{blend}</p>
            <HeadMatrices of=Matrix::Context on_cell_click=explain_row/>
            <Breakdown kind="context"/>
        </StepSection>
    }
}
