//! Step 7: the causal mask, and the tutorial's two ways to apply it side by side.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Mask",
    title: "Causal mask",
    formula: "masked[i][j] = −∞ where j > i · softmax turns −∞ into exactly 0",
    explain: "A model that writes text one token at a time (a decoder, as GPT is) must not peek at the tokens that come later: when it writes, they do not exist yet, and in training, seeing the next word would let it copy the answer instead of learning to predict it. So each query may only look at itself and the tokens before it: every score above the diagonal is replaced by −∞, which the softmax turns into a weight of exactly 0 (e^−∞ = 0). Sebastian Raschka's tutorial (“Understanding and Coding Self-Attention…”) also shows a second way: compute the weights without a mask, zero the future (multiply by a lower-triangular matrix of ones), then divide each row by its new sum. Both give the same weights, unless the scores are so large that the unmasked softmax underflows to 0.",
    hint: "The causal mask: a model that writes one word at a time must not see the words after the one it writes. Untick “Causal mask” in the bar at the top: this step's tables give way to a note, and in the weights (the next step) every token may now look at the tokens after it too. Tick it again: −∞ above the diagonal, a weight of exactly 0.",
    dog: "",
    lab: "The lab below finds where.",
};

#[component]
pub fn MaskStep() -> impl IntoView {
    let state = use_app();
    let causal = state.derived.causal;
    let has_source = Memo::new(move |_| state.doc.model.with(|m| m.source().is_some()));
    let refused = RwSignal::new(None::<String>);
    view! {
        <StepSection step=Step::Mask text=&TEXT>
            <Show
                when=move || causal.get()
                fallback=move || if has_source.get() {
                    view! {
                        <p class="note" data-note="no-mask-with-source">"No causal mask with a source sentence: every query sees every source token, as a translation model's decoder reads all of its source. Remove the source to mask the sentence's later tokens."</p>
                    }.into_any()
                } else {
                    view! {
                        <p class="note">
                            "Causal is off: every token sees every other token. "
                            <button type="button" data-action="causal-on" on:click=move |_| refused.set(state.apply(Edit::Causal(true)).err())>"Turn the causal mask on"</button>
                            {move || refused.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
                        </p>
                    }.into_any()
                }
            >
                <HeadMatrices of=Matrix::MaskedScores/>
                <h3>"Method 1: softmax, then zero the future, then renormalise"</h3>
                <div class="side-by-side">
                <HeadMatrices of=Matrix::MaskedWeightsSimple/>
                <HeadMatrices of=Matrix::MaskedWeightsRenormalized/>
                </div>
                <p class="note">"Method 2, −∞ before the softmax, gives the weights in the next step: compare them with “÷ row sums”."</p>
            </Show>
        </StepSection>
    }
}
