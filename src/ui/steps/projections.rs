//! The projections' step: each head's W_query, W_key and W_value (and their biases, when on), all editable.

use leptos::prelude::*;

use crate::core::i18n::keys::steps;
use crate::core::model::Matrix;
use crate::core::model::{Editable, Projection};
use crate::core::views::pipeline::Step;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::{use_app, AppState};
use crate::ui::steps::frame::{unless_shared, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::projections_short_title,
    formula: steps::projections_formula,
    explain: steps::projections_explain,
    hint: steps::projections_hint,
    dog: Some(steps::projections_dog),
    lab: None,
};

/// An editable table of one of the model's matrices, named and titled as the catalogue says.
pub fn editable_table(state: AppState, target: Editable) -> impl IntoView {
    let values = state.model_matrix(target);
    view! {
        <MatrixView
            of=Matrix::of(target)
            head=target.head()
            values
            row_labels=index_labels(move || values.with(|m| m.nrows()))
            col_labels=index_labels(move || values.with(|m| m.ncols()))
            editor=state.editor(target)
        />
    }
}

#[component]
pub fn ProjectionsStep() -> impl IntoView {
    let state = use_app();
    let has_biases = Memo::new(move |_| state.structure(|m| m.has_biases()));
    view! {
        <StepSection step=Step::Projections text=&TEXT>
            <For each=move || state.derived.visible_heads.get() key=|h| *h let:h>
                <div class="heads">
                    {Projection::ALL.map(|p| unless_shared(state, Matrix::Weight(p), h, move || editable_table(state, Editable::Weight(h, p)).into_any()))}
                </div>
                <Show when=move || has_biases.get()>
                    <div class="heads biases">
                        {Projection::ALL.map(|p| unless_shared(state, Matrix::Bias(p), h, move || editable_table(state, Editable::Bias(h, p)).into_any()))}
                    </div>
                </Show>
            </For>
        </StepSection>
    }
}
