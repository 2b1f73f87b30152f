//! Step 9: context vectors, and a clicked row spelled out as a weighted sum of values.

use leptos::prelude::*;

use crate::core::teaching::labs::largest;
use crate::core::views::pipeline::{Matrix, Step};
use crate::ui::state::{use_app, Detail};
use crate::ui::steps::frame::{Breakdown, HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: "Context",
    title: "Context vectors",
    formula: "context = weights · V   (n × d_v): context_i = Σ_j weights[i][j] · value_j",
    explain: "Each token's new representation is a blend of all value rows, mixed in the proportions of its attention weights. Click a row to see its blend written out.",
    hint: "Click a context row to see it written out as a weighted sum of the value rows.",
    lab: "",
};

#[component]
pub fn ContextStep() -> impl IntoView {
    let state = use_app();
    let explain_row = Callback::new(move |(head, query, _)| {
        state.detail.set(Some(Detail::Context { head, query }))
    });
    // Said of the numbers on the page, whatever the model: the followed token's largest share.
    let blend = move || {
        let (i, h) = (state.query.get(), state.visible_heads.with(|v| v[0]));
        if state.exercises.hides_row(h, i) {
            return None;
        }
        let (j, w) = state.trace.with(|t| {
            let weights = &t.heads.get(h)?.weights;
            (i < weights.nrows()).then(|| largest(weights.row(i).iter().copied()))?
        })?;
        let word = |k: usize| {
            state
                .words
                .with(|ws| ws.get(k).cloned().unwrap_or_default())
        };
        let key_word = |k: usize| {
            state
                .key_words
                .with(|ws| ws.get(k).cloned().unwrap_or_default())
        };
        // With a source no value row is the query's own.
        let own = i == j && state.model.with(|m| m.source().is_none());
        let heads = if state.heads.get() > 1 {
            format!(" in head {h}")
        } else {
            String::new()
        };
        let how = if w > 0.5 { "mostly" } else { "partly" };
        let row = if own {
            "its own value row".to_owned()
        } else {
            format!("the value row of “{}”", key_word(j))
        };
        Some(format!(
            "Here “{}” pays {:.1}% of its attention{heads} to “{}”, so its context vector is {how} {row}.",
            word(i),
            100.0 * w,
            word(j)
        ))
    };
    view! {
        <StepSection step=Step::Context text=&TEXT>
            <p class="explain" data-stat="blend">{blend}</p>
            <HeadMatrices of=Matrix::Context on_cell_click=explain_row/>
            <Breakdown kind="context"/>
        </StepSection>
    }
}
