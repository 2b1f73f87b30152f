//! Step 6: scaling by √dₖ (or dₖ, or not at all), and why √dₖ.

use leptos::prelude::*;

use crate::core::trace::fmt;
use crate::ui::app::use_app;
use crate::ui::matrix_table::Heat;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn ScaleStep() -> impl IntoView {
    let state = use_app();
    let divisor = move || {
        state.model.with(|m| {
            let d_k = m.heads()[0].d_k();
            format!(
                "Now dividing by {} with d_k = {d_k}: {}",
                m.scale.symbol(),
                fmt(m.scale.divisor(d_k), state.precision.get())
            )
        })
    };
    view! {
        <StepSection
            step=Step::Scale
            number=6
            title="Scaling by √dₖ"
            formula="scaled = scores / √d_k"
            explain="A dot product of d_k components grows with d_k: if the components have variance 1, the score has variance d_k, so its spread grows like √d_k. Large scores push the softmax to give one token almost everything and the rest almost nothing, which stops learning. Dividing by √d_k brings the spread back to about 1 whatever d_k is. Dividing by d_k shrinks it too far (the weights flatten towards uniform as d_k grows); not dividing lets them saturate. Switch the scaling above to see each."
        >
            <p class="note">{divisor}</p>
            <HeadMatrices name="scaled_scores" title="scaled scores" pick=|h| &h.scaled_scores columns=Columns::Tokens heat=Heat::Signed/>
        </StepSection>
    }
}
