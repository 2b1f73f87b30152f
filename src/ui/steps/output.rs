//! Step 10: the heads' context vectors side by side.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::steps;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::labs::heads::HeadsPicture;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::{use_app, AppState};
use crate::ui::steps::frame::{StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::output_short_title,
    formula: steps::output_formula,
    explain: steps::output_explain,
    hint: steps::output_hint,
    dog: None,
    lab: None,
};

/// A matrix of the tokens' rows from the trace (the concatenation, the output), following the
/// clicked row.
pub fn token_rows(state: AppState, of: Matrix, values: Signal<DMatrix<f64>>) -> impl IntoView {
    view! {
        <MatrixView
            of
            values
            row_labels=state.derived.words.into()
            col_labels=index_labels(move || values.with(|m| m.ncols()))
            followed_row=state.view.followed
            on_row_click=Callback::new(move |i| state.view.followed.set(Some(i)))
        />
    }
}

#[component]
pub fn OutputStep() -> impl IntoView {
    let state = use_app();
    // With an output projection this step shows the concatenation, and the next the output.
    let concatenated: Signal<DMatrix<f64>> = Memo::new(move |_| {
        state
            .derived
            .trace
            .with(|t| t.concatenated.as_ref().unwrap_or(&t.output).clone())
    })
    .into();
    let projected = Memo::new(move |_| state.derived.shape.get().projected);
    view! {
        <Show when=move || Step::Output.on_page(state.derived.shape.get())>
            <StepSection step=Step::Output text=&TEXT>
                <HeadsPicture/>
                <div class="heads">
                    {move || if projected.get() {
                        token_rows(state, Matrix::Concatenated, concatenated).into_any()
                    } else {
                        token_rows(state, Matrix::Output, concatenated).into_any()
                    }}
                </div>
            </StepSection>
        </Show>
    }
}
