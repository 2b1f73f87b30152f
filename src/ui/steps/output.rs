//! Step 10: the heads' context vectors side by side.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::core::pipeline::Step;
use crate::ui::labs::heads::HeadsPicture;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Heads",
    title: "Output: heads concatenated",
    formula: "output = [context₀ | context₁ | …]   (n × Σ d_v)",
    explain: "Each head attends in its own way, with its own weights. Multi-head attention runs them side by side and concatenates their context vectors column by column (a real transformer then mixes them with one more matrix). The first columns are head 0's context, the next head 1's, and so on.",
    hint: "Each head's context fills its own columns; compare which token each head attends to most.",
    lab: "",
};

#[component]
pub fn OutputStep() -> impl IntoView {
    let state = use_app();
    let output: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.trace.with(|t| t.output.clone())).into();
    view! {
        <Show when=move || Step::Output.on_page(state.heads.get())>
            <StepSection step=Step::Output text=&TEXT>
                <HeadsPicture/>
                <div class="heads">
                    <MatrixView
                        name="output"
                        title="output"
                        matrix=output
                        row_labels=state.words.into()
                        col_labels=index_labels(move || output.with(|m| m.ncols()))
                        heat=Heat::Signed
                        highlight_row=state.selected
                        on_row_click=Callback::new(move |i| state.selected.set(Some(i)))
                    />
                </div>
            </StepSection>
        </Show>
    }
}
