//! Step 8: attention weights, the softmax of each row.

use leptos::prelude::*;

use crate::ui::matrix_table::Heat;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn SoftmaxStep() -> impl IntoView {
    view! {
        <StepSection step=Step::Softmax>
            <HeadMatrices name="weights" title="weights" pick=|h| &h.weights columns=Columns::Tokens heat=Heat::Unit grey_future=true/>
        </StepSection>
    }
}
