//! Step 3: each head's W_query, W_key and W_value, all editable.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::core::model::{Editable, Projection};
use crate::ui::app::use_app;
use crate::ui::matrix_view::{index_labels, MatrixView};
use crate::ui::steps::{Step, StepSection};

#[component]
pub fn ProjectionsStep() -> impl IntoView {
    let state = use_app();
    let table = move |h: usize, p: Projection| {
        let matrix = state.weight_matrix(h, p);
        view! {
            <MatrixView
                name=p.key()
                title=p.title()
                head=h
                matrix
                row_labels=index_labels(move || matrix.with(|m| m.nrows()))
                col_labels=index_labels(move || matrix.with(|m| m.ncols()))
                heat=Heat::Signed
                editor=state.editor(Editable::Weight(h, p))
            />
        }
    };
    view! {
        <StepSection step=Step::Projections>
            <For each=move || state.visible_heads.get() key=|h| *h let:h>
                <div class="heads">{table(h, Projection::Query)} {table(h, Projection::Key)} {table(h, Projection::Value)}</div>
            </For>
        </StepSection>
    }
}
