//! Step 4: queries, keys and values of every token.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn QkvStep() -> impl IntoView {
    view! {
        <StepSection
            step=Step::Qkv
            number=4
            title="Queries, keys, values"
            formula="Q = X · W_query (n × d_k) · K = X · W_key (n × d_k) · V = X · W_value (n × d_v)"
            explain="Multiplying the embedded sentence by each weight matrix gives every token its query, key and value at once: row t of Q is token t's query. Change one embedding number and only that token's rows move; change one weight and every token's column moves."
        >
            <div class="side-by-side">
            <HeadMatrices name="queries" title="queries Q" pick=|h| &h.queries columns=Columns::Index heat=Heat::Signed/>
            <HeadMatrices name="keys" title="keys K" pick=|h| &h.keys columns=Columns::Index heat=Heat::Signed/>
            <HeadMatrices name="values" title="values V" pick=|h| &h.values columns=Columns::Index heat=Heat::Signed/>
            </div>
        </StepSection>
    }
}
