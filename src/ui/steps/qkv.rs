//! Step 4: queries, keys and values of every token.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn QkvStep() -> impl IntoView {
    view! {
        <StepSection step=Step::Qkv>
            <div class="side-by-side">
            <HeadMatrices name="queries" title="queries Q" pick=|h| &h.queries columns=Columns::Index heat=Heat::Signed/>
            <HeadMatrices name="keys" title="keys K" pick=|h| &h.keys columns=Columns::Index heat=Heat::Signed/>
            <HeadMatrices name="values" title="values V" pick=|h| &h.values columns=Columns::Index heat=Heat::Signed/>
            </div>
        </StepSection>
    }
}
