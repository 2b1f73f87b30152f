//! The projections' step: each head's W_query, W_key and W_value (and their biases, when on), all editable.

use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::model::{Editable, Projection};
use crate::core::views::pipeline::Step;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::{use_app, AppState};
use crate::ui::steps::frame::{unless_shared, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "W_q, W_k, W_v",
    title: "Projections W_query, W_key, W_value",
    formula: "W_query, W_key: d_in × d_k · W_value: d_in × d_v   (one set per head; with biases, b_query, b_key: d_k · b_value: d_v)",
    explain: "Each head has three weight matrices that turn an embedding into its query, key and value. They multiply the embedding from the right, as row vectors, so each has d_in rows. Where the numbers come from: in a real model, from training (random at first, then nudged over a great deal of text, for instance to predict the next word); here the Raschka examples and “Re-initialise with seed” draw them with torch.rand after torch.manual_seed, head after head, and the dog's were written by hand to look trained. Real layers (nn.Linear, nn.MultiheadAttention) also add a bias to every row: turn on Biases in the settings to see them.",
    hint: "The weights themselves: edit one number of W_query and watch every token's query change in the next step.",
    dog: "In the dog example W_query's second row (“alive”) is what makes “she”'s query ask for a living thing.",
    lab: "",
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
    let has_biases = Memo::new(move |_| state.doc.model.with(|m| m.has_biases()));
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
