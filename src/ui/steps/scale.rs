//! Step 6: scaling by √dₖ (or dₖ, or not at all), and why √dₖ.

use leptos::html::Table;
use leptos::prelude::*;

use crate::core::teaching::labs::{scaling_effects, uniform_top_weight};
use crate::core::text::fmt;
use crate::core::views::pipeline::{Matrix, Step};
use crate::ui::in_view::{in_view, memo_in_view};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "÷√dₖ",
    title: "Scaling by √dₖ",
    formula: "scaled = scores / √d_k",
    explain: "A dot product of d_k components grows with d_k: if the components are independent with mean 0 and variance 1, the score has variance d_k, so its spread grows like √d_k. Large scores push the softmax to give one token almost everything and the rest almost nothing, which stops learning. Dividing by √d_k brings the spread back to about 1 whatever d_k is. Dividing by d_k shrinks it too far (the weights flatten towards uniform as d_k grows); not dividing lets them saturate. Switch the scaling above to see each.",
    hint: "Switch the scaling in the controls to none, then to dₖ, and watch the table's average largest weight.",
    lab: "Run the experiment in the lab below.",
};

#[component]
pub fn ScaleStep() -> impl IntoView {
    let state = use_app();
    let divisor = move || {
        state.model.with(|m| {
            let d_k = m.heads()[0].d_k();
            format!(
                "Now dividing by {} with d_k = {d_k}: {}",
                m.scale.symbol(),
                fmt(m.scale.divisor(d_k), state.look.precision.get())
            )
        })
    };
    view! {
        <StepSection step=Step::Scale text=&TEXT>
            <p class="note">{divisor}</p>
            <ScalingComparison/>
            <HeadMatrices of=Matrix::ScaledScores/>
        </StepSection>
    }
}

/// The current model's scores under each scaling: their spread and how peaked the weights get.
#[component]
fn ScalingComparison() -> impl IntoView {
    let state = use_app();
    let table = NodeRef::<Table>::new();
    // From the trace already computed: only the softmax is redone, once per scaling, and only
    // while the table is in view. The model's own scale rides along, so that the rows read
    // nothing else of the model and an edit out of view rebuilds nothing.
    let effects = memo_in_view(in_view(table), move || {
        let (causal, scale) = state.model.with(|m| (m.causal, m.scale));
        (scale, state.trace.with(|t| scaling_effects(t, causal)))
    });
    // A row's keys: the source's tokens with cross-attention.
    let n = Memo::new(move |_| state.key_words.with(Vec::len));
    view! {
        <div class="scroll">
        <table class="lab" data-lab="scaling" node_ref=table>
            <caption>"This model under each scaling"</caption>
            <thead>
                <tr><th scope="col">"divide by"</th><th scope="col">"spread of scaled scores (std)"</th><th scope="col">"average largest weight per row"</th></tr>
            </thead>
            <tbody>
                {move || {
                    let (scale, effects) = effects.get();
                    let p = state.look.precision.get();
                    effects.into_iter().map(|e| {
                        let current = scale == e.scale;
                        view! {
                            <tr class:current=current>
                                <th scope="row">{e.scale.symbol()}{current.then_some(" (now)")}</th>
                                <td>{fmt(e.spread, p)}</td>
                                <td>{fmt(e.top_weight, p)}</td>
                            </tr>
                        }
                    }).collect_view()
                }}
            </tbody>
            <tfoot>
                <tr><td colspan="3">{move || {
                    let uniform = fmt(uniform_top_weight(n.get(), state.causal.get()), state.look.precision.get());
                    if state.causal.get() {
                        format!("1 is one-hot (saturated); {uniform} is uniform (flat: each query spreads its attention evenly over itself and the tokens before it). The spread counts only the scores the mask lets through.")
                    } else {
                        format!("1 is one-hot (saturated); 1/n = {uniform} is uniform (flat).")
                    }
                }}</td></tr>
            </tfoot>
        </table>
        </div>
    }
}
