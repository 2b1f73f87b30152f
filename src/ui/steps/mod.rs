//! One component per pipeline step, in the order the pipeline reads.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::core::link::STEP_KEYS;
use crate::core::trace::HeadTrace;
use crate::ui::app::use_app;
use crate::ui::labs::Lab;
use crate::ui::matrix_view::{index_labels, MatrixView};
use crate::ui::walk::{is_current, Stop};
use context::ContextStep;
use embedding::EmbeddingStep;
use mask::MaskStep;
use output::OutputStep;
use projections::ProjectionsStep;
use qkv::QkvStep;
use scale::ScaleStep;
use scores::ScoresStep;
use sentence::SentenceStep;
use softmax::SoftmaxStep;

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

/// What the page says about each step, in the order of [`Step::ALL`] (and of the enum, and of
/// the steps' names in `core::link::STEP_KEYS`): one entry per step.
struct StepText {
    short_title: &'static str,
    title: &'static str,
    formula: &'static str,
    explain: &'static str,
    hint: &'static str,
}

const TEXT: [StepText; 10] = [
    StepText {
        short_title: "Tokens",
        title: "Sentence → tokens",
        formula: "words = sentence without commas, split on spaces · vocabulary = sorted(set(words)) · id = index in vocabulary",
        explain: "A model cannot read letters, so the sentence is cut into words, and each distinct word gets a number: its place in the alphabetically sorted vocabulary (capitals sort first, as in Python). A word used twice gets the same id, so it will get the same embedding. Click a token to follow it as the query through every step.",
        hint: "Click a token, say “she”, to follow it as the query through every step; or type a sentence of your own.",
    },
    StepText {
        short_title: "Embedding",
        title: "Embedding",
        formula: "embedded[t] = embedding[id(t)]   (n × d_in)",
        explain: "Each vocabulary word owns a row of d_in numbers, its embedding: a point in a space where the model can compare words. In a trained model these numbers are learned; here they come from PyTorch's nn.Embedding initialisation or from the preset, and you can edit every one. The embedded sentence simply looks up each token's row, so a repeated word repeats its row.",
        hint: "Change one number in a word's row of the embedding table: only that word's rows of X change.",
    },
    StepText {
        short_title: "W_q, W_k, W_v",
        title: "Projections W_query, W_key, W_value",
        formula: "W_query, W_key: d_in × d_k · W_value: d_in × d_v   (one set per head)",
        explain: "Each head has three weight matrices that turn an embedding into three different views of the token: a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on if chosen?). They multiply the embedding from the right, as row vectors, so each has d_in rows. The Raschka presets draw them with torch.rand after torch.manual_seed, head after head.",
        hint: "Edit one weight of W_query and watch the queries in the next step move, one column for every token.",
    },
    StepText {
        short_title: "Q, K, V",
        title: "Queries, keys, values",
        formula: "Q = X · W_query (n × d_k) · K = X · W_key (n × d_k) · V = X · W_value (n × d_v)",
        explain: "Multiplying the embedded sentence by each weight matrix gives every token its query, key and value at once: row t of Q is token t's query. Change one embedding number and only that token's rows move; change one weight and every token's column moves.",
        hint: "Compare a token's query with its key: the same word asks for one thing and offers another.",
    },
    StepText {
        short_title: "Q·Kᵀ",
        title: "Scores Q·Kᵀ",
        formula: "scores[i][j] = query_i · key_j   (n × n: rows are queries, columns are keys)",
        explain: "How well does token i's query match token j's key? Their dot product: multiply component by component and add. A large score means a good match. Rows are the tokens asking (queries), columns the tokens being asked (keys). Click any score to see its sum written out.",
        hint: "Click a score to see its dot product written out term by term.",
    },
    StepText {
        short_title: "÷√dₖ",
        title: "Scaling by √dₖ",
        formula: "scaled = scores / √d_k",
        explain: "A dot product of d_k components grows with d_k: if the components have variance 1, the score has variance d_k, so its spread grows like √d_k. Large scores push the softmax to give one token almost everything and the rest almost nothing, which stops learning. Dividing by √d_k brings the spread back to about 1 whatever d_k is. Dividing by d_k shrinks it too far (the weights flatten towards uniform as d_k grows); not dividing lets them saturate. Switch the scaling above to see each, and run the experiment in the lab below.",
        hint: "Switch the scaling in the controls to none, then to dₖ, and watch the table's average largest weight.",
    },
    StepText {
        short_title: "Mask",
        title: "Causal mask",
        formula: "masked[i][j] = −∞ where j > i · softmax turns −∞ into exactly 0",
        explain: "A model that writes text one token at a time must not peek at tokens that come later. So each query may only look at itself and the tokens before it: every score above the diagonal is replaced by −∞, which the softmax turns into a weight of exactly 0. The tutorial also shows a second way: compute the weights without a mask, zero the future (multiply by a lower-triangular matrix of ones), then divide each row by its new sum. Both give the same weights, unless the scores are so large that the unmasked softmax underflows to 0: the lab below finds where.",
        hint: "Turn causal off and on in the controls and watch row 1: masked, it may only look at itself and the token before it.",
    },
    StepText {
        short_title: "Softmax",
        title: "Attention weights (softmax)",
        formula: "weights[i][j] = exp(s_ij) / Σ_k exp(s_ik)   — each row sums to 1",
        explain: "The softmax turns each row of scores into weights between 0 and 1 that add up to 1: how much of its attention token i pays to each token j. Bigger scores win more than proportionally, because of the exponential. Only differences within a row matter: adding the same number to a whole row changes nothing. (We subtract the row's largest score first, so huge scores never overflow.)",
        hint: "Follow a token and read its row: the weights add up to 1, and the largest goes to the key whose score was largest.",
    },
    StepText {
        short_title: "Context",
        title: "Context vectors",
        formula: "context = weights · V   (n × d_v): context_i = Σ_j weights[i][j] · value_j",
        explain: "Each token's new representation is a blend of all value rows, mixed in the proportions of its attention weights. A token that pays 88% of its attention to “dog” becomes mostly dog's value: this is how “she” picks up what she refers to. Click a row to see its blend written out.",
        hint: "Click a context row to see it written out as a weighted sum of the value rows.",
    },
    StepText {
        short_title: "Heads",
        title: "Output: heads concatenated",
        formula: "output = [context₀ | context₁ | …]   (n × Σ d_v)",
        explain: "Each head attends in its own way, with its own weights. Multi-head attention runs them side by side and concatenates their context vectors column by column (a real transformer then mixes them with one more matrix). The first columns are head 0's context, the next head 1's, and so on.",
        hint: "Each head's context fills its own columns; compare which token each head attends to most.",
    },
];

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

    /// Its name in `?steps=` and in its section's id (`step-scores`).
    pub fn key(self) -> &'static str {
        STEP_KEYS[self as usize]
    }

    /// The step's number on the page: its place in [`Step::ALL`], from 1.
    pub fn number(self) -> usize {
        self as usize + 1
    }

    /// The step's heading.
    pub fn title(self) -> &'static str {
        TEXT[self as usize].title
    }

    /// The step's computation, in one line.
    pub fn formula(self) -> &'static str {
        TEXT[self as usize].formula
    }

    /// One paragraph in our words: what the step does and why.
    pub fn explain(self) -> &'static str {
        TEXT[self as usize].explain
    }

    /// What the guided walk suggests trying here, in one short paragraph.
    pub fn hint(self) -> &'static str {
        TEXT[self as usize].hint
    }

    /// The lab shown right after this step, if any.
    pub fn lab(self) -> Option<Lab> {
        match self {
            Step::Scale => Some(Lab::SqrtDk),
            Step::Mask => Some(Lab::Mask),
            _ => None,
        }
    }

    /// The step's component.
    pub fn render(self) -> AnyView {
        match self {
            Step::Sentence => SentenceStep().into_any(),
            Step::Embedding => EmbeddingStep().into_any(),
            Step::Projections => ProjectionsStep().into_any(),
            Step::Qkv => QkvStep().into_any(),
            Step::Scores => ScoresStep().into_any(),
            Step::Scale => ScaleStep().into_any(),
            Step::Mask => MaskStep().into_any(),
            Step::Softmax => SoftmaxStep().into_any(),
            Step::Context => ContextStep().into_any(),
            Step::Output => OutputStep().into_any(),
        }
    }

    /// The step's short name in the page's table of contents.
    pub fn short_title(self) -> &'static str {
        TEXT[self as usize].short_title
    }
}

/// A step's frame: number, title, one paragraph in our words, the formula (all from [`Step`]),
/// then its tables. The learner can hide a step; a hidden step's tables are not in the page, so
/// they cost nothing; which are hidden is part of the link. Every step starts shown: large matrices open as heat maps, which cost one
/// canvas each.
#[component]
pub fn StepSection(step: Step, children: ChildrenFn) -> impl IntoView {
    let hidden = use_app().hidden;
    let i = step as usize;
    let open = Memo::new(move |_| hidden.with(|h| !h.contains(&i)));
    let toggle = move |_| {
        hidden.update(|h| {
            match h.iter().position(|&x| x == i) {
                Some(at) => {
                    h.remove(at);
                }
                None => h.push(i),
            }
            h.sort_unstable();
        })
    };
    let key = step.key();
    view! {
        <section
            class="step"
            id=format!("step-{key}")
            aria-labelledby=format!("step-{key}-title")
            aria-current=move || is_current(Stop::Step(step)).then_some("step")
        >
            <h2 id=format!("step-{key}-title")>
                <span class="step-number">{step.number()}</span>
                {step.title()}
                <button
                    type="button"
                    class="toggle"
                    data-action="toggle-step"
                    aria-expanded=move || open.get().to_string()
                    aria-controls=format!("step-{key}-body")
                    on:click=toggle
                >
                    {move || if open.get() { "Hide" } else { "Show" }}
                </button>
            </h2>
            <div id=format!("step-{key}-body")>
                <Show
                    when=move || open.get()
                    fallback=|| view! { <p class="note">"Hidden. “Show” brings it back."</p> }
                >
                    <p class="explain">{step.explain()}</p>
                    <p class="formula">{step.formula()}</p>
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
                        {step.lab().map(|lab| view! { <a class="lab-link" href=format!("#{}", lab.id())>{lab.short_title()}</a> })}
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
