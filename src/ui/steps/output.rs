//! Step 10: the heads' context vectors side by side.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::ui::app::use_app;
use crate::ui::matrix_view::{index_labels, MatrixView};
use crate::ui::steps::{Step, StepSection};

#[component]
pub fn OutputStep() -> impl IntoView {
    let state = use_app();
    let output: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.trace.with(|t| t.output.clone())).into();
    view! {
        <Show when=move || { state.heads.get() > 1 }>
            <StepSection
                step=Step::Output
                number=10
                title="Output: heads concatenated"
                formula="output = [context₀ | context₁ | …]   (n × Σ d_v)"
                explain="Each head attends in its own way, with its own weights. Multi-head attention runs them side by side and concatenates their context vectors column by column (a real transformer then mixes them with one more matrix). The first columns are head 0's context, the next head 1's, and so on."
            >
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
