//! Step 8: attention weights, the softmax of each row; every head's weights at a glance, and
//! where the followed token looks.

use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lines::AttentionLines;
use crate::ui::matrix::heatmap::Thumbnail;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Softmax",
    title: "Attention weights (softmax)",
    formula: "weights[i][j] = exp(s_ij) / Σ_k exp(s_ik)   — each row sums to 1",
    explain: "The softmax turns each row of scores into weights between 0 and 1 that add up to 1: how much of its attention token i pays to each token j (its share, like percentages). It takes e to the power of each score and divides by the row's total, so a bigger score wins more than in proportion, and only the differences within a row matter. The scores reach it after the two steps above, divided by √d_k and masked (each of them says why). (It subtracts the row's largest score first, so huge scores never overflow.)",
    hint: "The softmax makes each row of scores into shares between 0 and 1 that add up to 1: e^score divided by the row's total, so the largest score wins more than in proportion. (The scores were first divided by √dₖ and masked: the walk explains both after the payoff.)",
    dog: "“she”'s row gives “dog” 0.883 and “ball” 0.087: a lead of 4.0 in score, 2.3 once divided by √3, became ten times the share (e^2.3 ≈ 10).",
    lab: "",
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
        <div class="head-strip" role="group" aria-label="Every head's weights; pick one to see it in detail">
            <For each=move || 0..state.derived.heads.get() key=|h| *h let:h>
                <button
                    type="button"
                    class="thumb"
                    data-action="pick-head"
                    data-head=h.to_string()
                    aria-pressed=move || state.derived.visible_heads.with(|v| v.contains(&h)).to_string()
                    aria-label=format!("Show head {h}")
                    on:click=move |_| state.view.focused_head.set(h)
                >
                    // A prediction's row would show in the picture: the name alone, until then.
                    <span class="thumb-picture" hidden=move || exercises.predicting()>
                        <Thumbnail head=h matrix=state.head_matrix(h, |t| Some(&t.weights)) causal/>
                    </span>
                    <span>{format!("head {h}")}</span>
                </button>
            </For>
        </div>
    }
}
