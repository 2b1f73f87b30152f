//! Step 3: each head's W_query, W_key and W_value, all editable.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::core::model::{Editable, Projection};
use crate::core::pipeline::Step;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "W_q, W_k, W_v",
    title: "Projections W_query, W_key, W_value",
    formula: "W_query, W_key: d_in × d_k · W_value: d_in × d_v   (one set per head)",
    explain: "Each head has three weight matrices that turn an embedding into three different views of the token: a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on if chosen?). They multiply the embedding from the right, as row vectors, so each has d_in rows. The Raschka presets draw them with torch.rand after torch.manual_seed, head after head.",
    hint: "Edit one weight of W_query and watch the queries in the next step move, one column for every token.",
    lab: "",
};

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
                gradient=state.gradient_of(p.key(), Some(h))
            />
        }
    };
    view! {
        <StepSection step=Step::Projections text=&TEXT>
            <For each=move || state.visible_heads.get() key=|h| *h let:h>
                <div class="heads">{table(h, Projection::Query)} {table(h, Projection::Key)} {table(h, Projection::Value)}</div>
            </For>
        </StepSection>
    }
}
