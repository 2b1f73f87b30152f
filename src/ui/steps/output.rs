//! Step 10: the heads' context vectors side by side.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::ui::app::use_app;
use crate::ui::labs::heads::HeadsPicture;
use crate::ui::matrix_view::{index_labels, MatrixView};
use crate::ui::steps::{Step, StepSection};

#[component]
pub fn OutputStep() -> impl IntoView {
    let state = use_app();
    let output: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.trace.with(|t| t.output.clone())).into();
    view! {
        <Show when=move || { state.heads.get() > 1 }>
            <StepSection step=Step::Output>
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
