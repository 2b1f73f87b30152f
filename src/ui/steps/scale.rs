//! Step 6: scaling by √dₖ (or dₖ, or not at all), and why √dₖ.

use leptos::html::Table;
use leptos::prelude::*;

use crate::core::i18n::keys::{steps, views};
use crate::core::model::Matrix;
use crate::core::teaching::labs::{scaling_effects, uniform_top_weight};
use crate::core::text::fmt;
use crate::core::views::pipeline::Step;
use crate::ui::in_view::{in_view, memo_in_view};
use crate::ui::lang::{symbol, t, word};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::scale_short_title,
    formula: steps::scale_formula,
    explain: steps::scale_explain,
    hint: steps::scale_hint,
    dog: None,
    lab: Some(steps::scale_lab),
};

#[component]
pub fn ScaleStep() -> impl IntoView {
    let state = use_app();
    let divisor = move || {
        state.structure(|m| {
            let d_k = m.heads()[0].d_k();
            word(&views::dividing_by(
                m.scale.symbol(),
                d_k,
                fmt(m.scale.divisor(d_k), state.view.look.precision.get()),
            ))
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
            <caption>{t(views::scaling_caption)}</caption>
            <thead>
                <tr><th scope="col">{t(views::divide_by)}</th><th scope="col">{t(views::spread)}</th><th scope="col">{t(views::largest_weight)}</th></tr>
            </thead>
            <tbody data-says-numbers="">
                {move || {
                    let (scale, effects) = effects.get();
                    let p = state.view.look.precision.get();
                    effects.into_iter().map(|e| {
                        let current = scale == e.scale;
                        view! {
                            <tr class:current=current>
                                <th scope="row">{if current { word(&views::scaling_now(e.scale.symbol())).into_any() } else { symbol(e.scale.symbol()).into_any() }}</th>
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
                        word(&views::uniform_causal(uniform))
                    } else {
                        word(&views::uniform(uniform))
                    }
                }}</td></tr>
            </tfoot>
        </table>
        </div>
    }
}
