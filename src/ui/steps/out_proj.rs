//! Step 11: the output projection that mixes the heads' concatenated contexts, as every real
//! transformer layer (and `nn.MultiheadAttention`'s `out_proj`) does.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};
use crate::ui::steps::output::token_rows;
use crate::ui::steps::projections::editable_table;

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "W_output",
    title: "Output projection W_output",
    formula: "output = concatenated · W_output + b_output   (W_output: Σ d_v × d_out)",
    explain: "The concatenation puts each head's context in its own columns, so no head's result yet depends on another's. One more linear layer mixes them: each output column is a weighted sum of every head's columns, plus a bias. nn.MultiheadAttention calls it out_proj and maps back to the embedding's width (d_out = d_in), so the layer's output can be added to its input. PyTorch stores the weight as d_out × Σ d_v and computes x·Wᵀ + b; here it is shown transposed, multiplied from the right like every other matrix.",
    hint: "Set a row of W_output to zeros and that column of the concatenation stops counting in the output.",
    dog: "",
    lab: "",
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
