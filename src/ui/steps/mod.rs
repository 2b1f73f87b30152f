//! One component per pipeline step, in the order the pipeline reads.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::core::trace::HeadTrace;
use crate::ui::app::use_app;
use crate::ui::matrix_view::{index_labels, MatrixView};

pub mod context;
pub mod embedding;
pub mod mask;
pub mod output;
pub mod projections;
pub mod qkv;
pub mod scale;
pub mod scores;
pub mod sentence;
pub mod softmax;

/// The steps, as named in `?view=` and in each section's id (`step-scores`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Sentence,
    Embedding,
    Projections,
    Qkv,
    Scores,
    Scale,
    Mask,
    Softmax,
    Context,
    Output,
}

impl Step {
    pub const ALL: [Step; 10] = [
        Step::Sentence,
        Step::Embedding,
        Step::Projections,
        Step::Qkv,
        Step::Scores,
        Step::Scale,
        Step::Mask,
        Step::Softmax,
        Step::Context,
        Step::Output,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Step::Sentence => "sentence",
            Step::Embedding => "embedding",
            Step::Projections => "projections",
            Step::Qkv => "qkv",
            Step::Scores => "scores",
            Step::Scale => "scale",
            Step::Mask => "mask",
            Step::Softmax => "weights",
            Step::Context => "context",
            Step::Output => "output",
        }
    }

    pub fn from_key(key: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|s| s.key() == key)
    }

    /// The step's short name in the page's table of contents.
    pub fn short_title(self) -> &'static str {
        match self {
            Step::Sentence => "Tokens",
            Step::Embedding => "Embedding",
            Step::Projections => "W_q, W_k, W_v",
            Step::Qkv => "Q, K, V",
            Step::Scores => "Q·Kᵀ",
            Step::Scale => "÷√dₖ",
            Step::Mask => "Mask",
            Step::Softmax => "Softmax",
            Step::Context => "Context",
            Step::Output => "Heads",
        }
    }
}

/// A step's frame: number, title, one paragraph in our words, the formula, then its tables.
/// The learner can hide a step; a hidden step's tables are not in the page, so they cost nothing.
/// Every step starts shown: large matrices open as heat maps, which cost one canvas each.
#[component]
pub fn StepSection(
    step: Step,
    number: usize,
    title: &'static str,
    formula: &'static str,
    explain: &'static str,
    children: ChildrenFn,
) -> impl IntoView {
    let open = RwSignal::new(true);
    let key = step.key();
    view! {
        <section class="step" id=format!("step-{key}") aria-labelledby=format!("step-{key}-title")>
            <h2 id=format!("step-{key}-title")>
                <span class="step-number">{number}</span>
                {title}
                <button
                    type="button"
                    class="toggle"
                    data-action="toggle-step"
                    aria-expanded=move || open.get().to_string()
                    aria-controls=format!("step-{key}-body")
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    {move || if open.get() { "Hide" } else { "Show" }}
                </button>
            </h2>
            <div id=format!("step-{key}-body")>
                <Show
                    when=move || open.get()
                    fallback=|| view! { <p class="note">"Hidden. “Show” brings it back."</p> }
                >
                    <p class="explain">{explain}</p>
                    <p class="formula">{formula}</p>
                    {children()}
                </Show>
            </div>
        </section>
    }
}

/// The pipeline as links to its steps, so a learner can jump along it.
#[component]
pub fn PipelineNav() -> impl IntoView {
    let state = use_app();
    view! {
        <nav class="pipeline" aria-label="Pipeline steps">
            {Step::ALL
                .into_iter()
                .map(|step| {
                    let shown = move || step != Step::Output || state.heads.get() > 1;
                    view! {
                        <Show when=shown>
                            <a href=format!("#step-{}", step.key())>{step.short_title()}</a>
                        </Show>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// The clicked cell's explanation, when it is of this `kind` (`score` or `context`).
#[component]
pub fn Breakdown(kind: &'static str) -> impl IntoView {
    let state = use_app();
    move || {
        let detail = state.detail.get().filter(|d| d.key() == kind)?;
        let text = state
            .trace
            .with(|t| detail.describe(t, state.precision.get()))?;
        Some(view! { <p class="breakdown" data-breakdown=kind>{text}</p> })
    }
}

/// How a per-head matrix's columns are labelled.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Columns {
    /// Columns are keys: labelled with the tokens.
    Tokens,
    /// Columns are components: 0, 1, ….
    Index,
}

/// The same matrix of every head, side by side, rows labelled with the tokens (the queries).
/// Clicking a row follows that token; `on_cell_click` gets (head, row, col).
#[component]
pub fn HeadMatrices(
    name: &'static str,
    title: &'static str,
    pick: fn(&HeadTrace) -> &DMatrix<f64>,
    columns: Columns,
    heat: Heat,
    #[prop(optional)] grey_future: bool,
    #[prop(optional)] on_cell_click: Option<Callback<(usize, usize, usize)>>,
) -> impl IntoView {
    let state = use_app();
    // A memo: every cell reads it, and must not re-run on edits that leave `causal` alone.
    let causal: Signal<bool> =
        Memo::new(move |_| grey_future && state.model.with(|m| m.causal)).into();
    view! {
        <div class="heads">
            <For each=move || state.visible_heads.get() key=|h| *h let:h>
                {
                    let matrix = state.head_matrix(h, pick);
                    let col_labels = match columns {
                        Columns::Tokens => state.words.into(),
                        Columns::Index => index_labels(move || matrix.with(|m| m.ncols())),
                    };
                    view! {
                        <MatrixView
                            name
                            title
                            head=h
                            corner=if columns == Columns::Tokens { "query ╲ key" } else { "" }
                            matrix
                            row_labels=state.words.into()
                            col_labels
                            heat
                            highlight_row=state.selected
                            grey_future=causal
                            on_cell_click=Callback::new(move |(i, j)| {
                                state.selected.set(Some(i));
                                if let Some(cb) = on_cell_click {
                                    cb.run((h, i, j));
                                }
                            })
                            on_row_click=Callback::new(move |i| state.selected.set(Some(i)))
                        />
                    }
                }
            </For>
        </div>
    }
}
