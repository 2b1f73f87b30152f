//! Step 3: each head's W_query, W_key and W_value, all editable.

use leptos::prelude::*;

use crate::core::model::Projection;
use crate::ui::app::use_app;
use crate::ui::matrix_table::{index_labels, Edit, Heat, MatrixTable};
use crate::ui::steps::{Step, StepSection};

#[component]
pub fn ProjectionsStep() -> impl IntoView {
    let state = use_app();
    let table = move |h: usize, p: Projection| {
        let matrix = state.weight_matrix(h, p);
        let edit = Edit {
            on_commit: Callback::new(move |(i, j, x)| {
                state.model.update(|m| m.set_weight(h, p, i, j, x))
            }),
            on_paste: Callback::new(move |(i, j, block): (usize, usize, Vec<Vec<f64>>)| {
                state.model.update(|m| {
                    for (di, row) in block.iter().enumerate() {
                        for (dj, &x) in row.iter().enumerate() {
                            m.set_weight(h, p, i + di, j + dj, x);
                        }
                    }
                })
            }),
        };
        let title = match p {
            Projection::Query => "W_query",
            Projection::Key => "W_key",
            Projection::Value => "W_value",
        };
        view! {
            <MatrixTable
                name=p.key()
                title=title.to_owned()
                head=h
                matrix
                row_labels=index_labels(move || matrix.with(|m| m.nrows()))
                col_labels=index_labels(move || matrix.with(|m| m.ncols()))
                heat=Heat::Signed
                edit
            />
        }
    };
    view! {
        <StepSection
            step=Step::Projections
            number=3
            title="Projections W_query, W_key, W_value"
            formula="W_query, W_key: d_in × d_k · W_value: d_in × d_v   (one set per head)"
            explain="Each head has three weight matrices that turn an embedding into three different views of the token: a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on if chosen?). They multiply the embedding from the right, as row vectors, so each has d_in rows. The Raschka presets draw them with torch.rand after torch.manual_seed, head after head."
        >
            <For each=move || state.visible_heads.get() key=|h| *h let:h>
                <div class="heads">{table(h, Projection::Query)} {table(h, Projection::Key)} {table(h, Projection::Value)}</div>
            </For>
        </StepSection>
    }
}
