//! Step 6: scaling by √dₖ (or dₖ, or not at all), and why √dₖ.

use leptos::html::Table;
use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::teaching::labs::{scaling_effects, uniform_top_weight};
use crate::core::text::fmt;
use crate::core::views::pipeline::Step;
use crate::ui::in_view::{in_view, memo_in_view};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "÷√dₖ",
    title: "Scaling by √dₖ",
    formula: "scaled = scores / divisor, the divisor √d_k (the standard), d_k or 1 (none): chosen in the bar at the top",
    explain: "Why divide? A dot product of d_k components grows with d_k: if the components were independent with mean 0 and variance 1, the score would have variance d_k, its spread growing like √d_k. Large scores make the softmax saturate: one token gets almost everything, the rest almost nothing, and training stops learning (the nudges it makes to the weights, their gradients, vanish). Dividing by √d_k brings such scores' spread back to about 1 whatever d_k is; dividing by d_k shrinks it too far, flattening the weights as d_k grows. This page's numbers need not be like that (the hand-made dog's are not: d_k = 3, components far from mean 0), so the table below need not show a spread near 1 under ÷√d_k.",
    hint: "Why ÷√dₖ: a dot product grows with the number of its components, dₖ, and large scores make the softmax give everything to one token. The table shows this model under each scaling. Switch the scaling in the bar at the top to none and watch the weights sharpen (the lines at the top of the page too), then to dₖ and watch them flatten; the lab below shows the rule on random numbers.",
    dog: "",
    lab: "The lab below runs the experiment on numbers that are.",
};

#[component]
pub fn ScaleStep() -> impl IntoView {
    let state = use_app();
    let divisor = move || {
        state.doc.model.with(|m| {
            let d_k = m.heads()[0].d_k();
            format!(
                "Now dividing by {} with d_k = {d_k}: {}",
                m.scale.symbol(),
                fmt(m.scale.divisor(d_k), state.view.look.precision.get())
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
        let (causal, scale) = state.doc.model.with(|m| (m.causal, m.scale));
        (
            scale,
            state.derived.trace.with(|t| scaling_effects(t, causal)),
        )
    });
    // A row's keys: the source's tokens with cross-attention.
    let n = Memo::new(move |_| state.derived.key_words.with(Vec::len));
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
                    let p = state.view.look.precision.get();
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
                    let uniform = fmt(uniform_top_weight(n.get(), state.derived.causal.get()), state.view.look.precision.get());
                    if state.derived.causal.get() {
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
