//! Step 8: attention weights, the softmax of each row.

use leptos::prelude::*;

use crate::ui::matrix_table::Heat;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn SoftmaxStep() -> impl IntoView {
    view! {
        <StepSection
            step=Step::Softmax
            number=8
            title="Attention weights (softmax)"
            formula="weights[i][j] = exp(s_ij) / Σ_k exp(s_ik)   — each row sums to 1"
            explain="The softmax turns each row of scores into weights between 0 and 1 that add up to 1: how much of its attention token i pays to each token j. Bigger scores win more than proportionally, because of the exponential. Only differences within a row matter: adding the same number to a whole row changes nothing. (We subtract the row's largest score first, so huge scores never overflow.)"
        >
            <HeadMatrices name="weights" title="weights" pick=|h| &h.weights columns=Columns::Tokens heat=Heat::Unit grey_future=true/>
        </StepSection>
    }
}
