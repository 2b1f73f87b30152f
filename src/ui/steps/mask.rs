//! Step 7: the causal mask, and the tutorial's two ways to apply it side by side.

use leptos::prelude::*;

use crate::core::heatmap::Heat;
use crate::ui::app::use_app;
use crate::ui::steps::{Columns, HeadMatrices, Step, StepSection};

#[component]
pub fn MaskStep() -> impl IntoView {
    let state = use_app();
    let causal = Memo::new(move |_| state.model.with(|m| m.causal));
    view! {
        <StepSection step=Step::Mask>
            <Show
                when=move || causal.get()
                fallback=move || view! {
                    <p class="note">
                        "Causal is off: every token sees every other token. "
                        <button type="button" data-action="causal-on" on:click=move |_| state.edit(|m| m.causal = true)>"Turn the causal mask on"</button>
                    </p>
                }
            >
                <HeadMatrices name="masked_scores" title="masked scores" pick=|h| &h.masked_scores columns=Columns::Tokens heat=Heat::Signed grey_future=true/>
                <h3>"Method 1: softmax, then zero the future, then renormalise"</h3>
                <div class="side-by-side">
                <HeadMatrices name="masked_weights_simple" title="weights × tril(ones)" pick=|h| h.masked_weights_simple.as_ref().unwrap_or(&h.weights) columns=Columns::Tokens heat=Heat::Unit grey_future=true/>
                <HeadMatrices name="masked_weights_renormalized" title="÷ row sums" pick=|h| h.masked_weights_renormalized.as_ref().unwrap_or(&h.weights) columns=Columns::Tokens heat=Heat::Unit grey_future=true/>
                </div>
                <p class="note">"Method 2, −∞ before the softmax, gives the weights in the next step: compare them with “÷ row sums”."</p>
            </Show>
        </StepSection>
    }
}
