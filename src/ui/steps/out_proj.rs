//! Step 11: the output projection that mixes the heads' concatenated contexts, as every real
//! transformer layer (and `nn.MultiheadAttention`'s `out_proj`) does.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::steps;
use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};
use crate::ui::steps::output::token_rows;
use crate::ui::steps::projections::editable_table;

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::out_proj_short_title,
    formula: steps::out_proj_formula,
    explain: steps::out_proj_explain,
    hint: steps::out_proj_hint,
    dog: None,
    lab: None,
};

#[component]
pub fn OutProjStep() -> impl IntoView {
    let state = use_app();
    let output: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.derived.trace.with(|t| t.output.clone())).into();
    let has_bias = Memo::new(move |_| {
        state
            .doc
            .model
            .with(|m| m.output().is_some_and(|o| o.b_output.is_some()))
    });
    view! {
        <Show when=move || Step::OutProj.on_page(state.derived.shape.get())>
            <StepSection step=Step::OutProj text=&TEXT>
                <div class="heads">
                    {editable_table(state, Editable::OutputWeight)}
                    <Show when=move || has_bias.get()>{editable_table(state, Editable::OutputBias)}</Show>
                    {token_rows(state, Matrix::Output, output)}
                </div>
            </StepSection>
        </Show>
    }
}
