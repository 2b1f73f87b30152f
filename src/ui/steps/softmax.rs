//! Step 8: attention weights, the softmax of each row; every head's weights at a glance, and
//! where the followed token looks.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::app::use_app;
use crate::ui::heatmap::Thumbnail;
use crate::ui::lines::AttentionLines;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn SoftmaxStep() -> impl IntoView {
    let state = use_app();
    view! {
        <StepSection step=Step::Softmax>
            <Show when=move || { state.heads.get() > 1 }>
                <HeadStrip/>
            </Show>
            <div class="side-by-side">
                <HeadMatrices name="weights" title="weights" pick=|h| &h.weights columns=Columns::Tokens heat=Heat::Unit grey_future=true/>
                <For each=move || state.visible_heads.get() key=|h| *h let:h>
                    <AttentionLines head=h/>
                </For>
            </div>
        </StepSection>
    }
}

/// Every head's weights side by side; clicking one shows that head in detail.
#[component]
fn HeadStrip() -> impl IntoView {
    let state = use_app();
    let causal: Signal<bool> = Memo::new(move |_| state.model.with(|m| m.causal)).into();
    view! {
        <div class="head-strip" role="group" aria-label="Every head's weights; pick one to see it in detail">
            <For each=move || 0..state.heads.get() key=|h| *h let:h>
                <button
                    type="button"
                    class="thumb"
                    data-action="pick-head"
                    data-head=h.to_string()
                    aria-pressed=move || state.visible_heads.with(|v| v.contains(&h)).to_string()
                    aria-label=format!("Show head {h}")
                    on:click=move |_| state.focused_head.set(h)
                >
                    <Thumbnail head=h matrix=state.head_matrix(h, |t| &t.weights) causal/>
                    <span>{format!("head {h}")}</span>
                </button>
            </For>
        </div>
    }
}
