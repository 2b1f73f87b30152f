//! The positions' step, when the model has them: the table added to the embedding (sinusoidal, or
//! learned and editable) and the sum the projections take; with RoPE, how each place turns a
//! pair of a query's components.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::{steps, views};
use crate::core::model::positions::{theta, Positions};
use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lang::word;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};
use crate::ui::steps::projections::editable_table;

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::positions_short_title,
    formula: steps::positions_formula,
    explain: steps::positions_explain,
    hint: steps::positions_hint,
    dog: None,
    lab: None,
};

/// One pair's rotation at every place, as spokes of a circle: pair `pair` of `d` components,
/// base `base`; the followed token's spoke is marked.
fn rotation_picture(
    pair: usize,
    d: usize,
    base: f64,
    words: Vec<String>,
    followed: usize,
) -> impl IntoView {
    let theta = theta(base, pair, d);
    // A word is written only where it does not fall on another's (the slow pairs' spokes
    // bunch up); the followed token's always is.
    let mut written: Vec<f64> = Vec::new();
    let spokes = words
        .into_iter()
        .enumerate()
        .map(|(p, w)| {
            let angle = theta * p as f64;
            let apart = |a: &f64| {
                let d = (angle - a).rem_euclid(std::f64::consts::TAU);
                d.min(std::f64::consts::TAU - d) < 0.35
            };
            let label = (p == followed || !written.iter().any(apart)).then(|| {
                written.push(angle);
                let (lx, ly) = (50.0 + 46.0 * angle.cos(), 50.0 - 46.0 * angle.sin());
                view! { <text x=format!("{lx:.1}") y=format!("{ly:.1}") text-anchor="middle" dominant-baseline="middle">{w}</text> }
            });
            let (x, y) = (50.0 + 38.0 * angle.cos(), 50.0 - 38.0 * angle.sin());
            view! {
                <line x1="50" y1="50" x2=format!("{x:.1}") y2=format!("{y:.1}") class:followed=p == followed data-place=p.to_string()/>
                {label}
            }
        })
        .collect_view();
    view! {
        <figure class="rope-pair">
            <svg viewBox="-10 -10 120 120" role="img" aria-label=word(&views::rope_turns(pair, format!("{theta:.4}")))>
                <circle cx="50" cy="50" r="38"/>
                {spokes}
            </svg>
            <figcaption>{word(&views::rope_theta(pair, format!("{theta:.4}")))}</figcaption>
        </figure>
    }
}

#[component]
fn PositionsBody() -> impl IntoView {
    let state = use_app();
    let positions = Memo::new(move |_| state.doc.model.with(|m| m.positions().clone()));
    let table: Signal<DMatrix<f64>> = Memo::new(move |_| {
        state.doc.model.with(|m| {
            m.positions()
                .table(m.tokens().len(), m.embedding().ncols())
                .unwrap_or_else(|| DMatrix::zeros(0, 0))
        })
    })
    .into();
    let positioned: Signal<DMatrix<f64>> = Memo::new(move |_| {
        state
            .derived
            .trace
            .with(|t| t.positioned.clone().unwrap_or_else(|| DMatrix::zeros(0, 0)))
    })
    .into();
    let labels = index_labels(move || table.with(|m| m.ncols()));
    let body = move || {
        // The RoPE picture also follows the model itself, so turning positions off can run this
        // once more after the section (and `positions`) is gone: nothing to draw then.
        let Some(positions) = positions.try_get() else {
            return ().into_any();
        };
        match positions {
        Positions::None => ().into_any(),
        Positions::Learned(_) => view! {
            <div class="heads">
                {editable_table(state, Editable::Positions)}
                <MatrixView of=Matrix::Positioned values=positioned row_labels=state.derived.words.into() col_labels=labels followed_row=state.view.followed/>
            </div>
        }
        .into_any(),
        Positions::Sinusoidal { .. } => view! {
            <div class="heads">
                // By place, not by word: positions belong to places.
                <MatrixView of=Matrix::Positions values=table row_labels=index_labels(move || table.with(|m| m.nrows())) col_labels=labels/>
                <MatrixView of=Matrix::Positioned values=positioned row_labels=state.derived.words.into() col_labels=labels followed_row=state.view.followed/>
            </div>
        }
        .into_any(),
        Positions::Rope { base, pairs } => {
            let d = state.doc.model.with(|m| m.heads()[0].d_k());
            let words = state.derived.words.get();
            let followed = state.derived.followed_or_last.get();
            let marked: Vec<String> = pairs
                .pairs(d)
                .iter()
                .enumerate()
                .map(|(i, (a, b))| word(&views::rope_pair(i, a, b)))
                .collect();
            view! {
                <p>{word(&views::rope_note(marked.join(", ")))}</p>
                <div class="heads">
                    {rotation_picture(0, d, base, words.clone(), followed)}
                    {(d > 2).then(|| rotation_picture(d / 2 - 1, d, base, words, followed))}
                </div>
            }
            .into_any()
        }
    }
    };
    body
}

chunk! {
    /// The step's tables and pictures: a visit sees them only once it turns positions on.
    positions_body => PositionsBody().into_any()
}

#[component]
pub fn PositionsStep() -> impl IntoView {
    let state = use_app();
    view! {
        <Show when=move || Step::Positions.on_page(state.derived.shape.get())>
            <StepSection step=Step::Positions text=&TEXT>
                <Loaded load=positions_body what=views::the_step/>
            </StepSection>
        </Show>
    }
}
