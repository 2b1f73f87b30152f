//! Step 8: attention weights, the softmax of each row; every head's weights at a glance, and
//! where the followed token looks.

use leptos::prelude::*;

use crate::core::i18n::keys::{steps, views};
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lang::{t, word};
use crate::ui::lines::AttentionLines;
use crate::ui::matrix::heatmap::Thumbnail;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::softmax_short_title,
    formula: steps::softmax_formula,
    explain: steps::softmax_explain,
    hint: steps::softmax_hint,
    dog: Some(steps::softmax_dog),
    lab: None,
};

#[component]
pub fn SoftmaxStep() -> impl IntoView {
    let state = use_app();
    view! {
        <StepSection step=Step::Softmax text=&TEXT>
            <Show when=move || { state.derived.heads.get() > 1 }>
                <HeadStrip/>
            </Show>
            <div class="side-by-side">
                <HeadMatrices of=Matrix::Weights/>
                <For each=move || state.derived.visible_heads.get() key=|h| *h let:h>
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
    let causal: Signal<bool> = state.derived.causal.into();
    let exercises = state.exercises;
    view! {
        <div class="head-strip" role="group" aria-label=t(views::head_strip)>
            <For each=move || 0..state.derived.heads.get() key=|h| *h let:h>
                <button
                    type="button"
                    class="thumb"
                    data-action="pick-head"
                    data-head=h.to_string()
                    aria-pressed=move || state.derived.visible_heads.with(|v| v.contains(&h)).to_string()
                    aria-label=move || word(&views::show_head(h))
                    on:click=move |_| state.view.focused_head.set(h)
                >
                    // A prediction's row would show in the picture: the name alone, until then.
                    <span class="thumb-picture" hidden=move || exercises.predicting()>
                        <Thumbnail head=h matrix=state.head_matrix(h, |t| Some(&t.weights)) causal/>
                    </span>
                    <span>{move || word(&views::head(h))}</span>
                </button>
            </For>
        </div>
    }
}
