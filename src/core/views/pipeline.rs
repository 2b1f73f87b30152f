//! The one catalogue of what the page shows, in pipeline order: the steps, the lab after each,
//! the guided walk's stops, and every matrix (its `data-matrix` name, title, axes, colouring and
//! where it comes from). The URL, the report, the walk and the page all read it; the words a
//! step says live beside its view (`ui/steps/*.rs`).

use nalgebra::DMatrix;

use crate::core::forward::trace::HeadTrace;
use crate::core::views::heatmap::Heat;

/// A step of the pipeline, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Sentence → tokens.
    Sentence,
    /// The embedding table and the embedded sentence.
    Embedding,
    /// Word order put back (when the model has positions).
    Positions,
    /// W_query, W_key, W_value.
    Projections,
    /// Q, K, V.
    Qkv,
    /// Q·Kᵀ.
    Scores,
    /// ÷√dₖ.
    Scale,
    /// The causal mask.
    Mask,
    /// The softmax weights.
    Softmax,
    /// The context vectors.
    Context,
    /// The heads concatenated.
    Output,
    /// The output projection after the concatenation (when the model has one).
    OutProj,
}

impl Step {
    /// Every step, in pipeline order.
    pub const ALL: [Step; 12] = [
        Step::Sentence,
        Step::Embedding,
        Step::Positions,
        Step::Projections,
        Step::Qkv,
        Step::Scores,
        Step::Scale,
        Step::Mask,
        Step::Softmax,
        Step::Context,
        Step::Output,
        Step::OutProj,
    ];

    /// Its name in `steps=`, `hide=` and its section's id.
    pub const fn key(self) -> &'static str {
        match self {
            Step::Sentence => "sentence",
            Step::Embedding => "embedding",
            Step::Positions => "positions",
            Step::Projections => "projections",
            Step::Qkv => "qkv",
            Step::Scores => "scores",
            Step::Scale => "scale",
            Step::Mask => "mask",
            Step::Softmax => "weights",
            Step::Context => "context",
            Step::Output => "output",
            Step::OutProj => "out_proj",
        }
    }

    /// The step named `key`.
    pub fn from_key(key: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Its place among the steps on a page of this shape, from 1 (the number on its section):
    /// a step that only some models have numbers the later ones only while it is there.
    pub fn number(self, shape: Shape) -> usize {
        Step::ALL[..self as usize]
            .iter()
            .filter(|s| s.on_page(shape))
            .count()
            + 1
    }

    /// The id of its `<section>` (`step-scores`), the target of the nav's links.
    pub fn id(self) -> String {
        format!("step-{}", self.key())
    }

    /// The lab whose section follows this step's, if any.
    pub fn lab(self) -> Option<Lab> {
        match self {
            Step::Scale => Some(Lab::SqrtDk),
            Step::Mask => Some(Lab::Mask),
            Step::Softmax => Some(Lab::Train),
            Step::Context => Some(Lab::Order),
            _ => None,
        }
    }

    /// Whether the step is on the page for a model of this shape: the heads' concatenation
    /// when there are several or it is projected, the output projection when there is one.
    pub fn on_page(self, shape: Shape) -> bool {
        match self {
            Step::Output => shape.heads > 1 || shape.projected,
            Step::OutProj => shape.projected,
            Step::Positions => shape.positions,
            _ => true,
        }
    }
}

/// What decides which steps a model's page has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The number of heads.
    pub heads: usize,
    /// Whether there is an output projection.
    pub projected: bool,
    /// Whether word order is put back (any positions but none).
    pub positions: bool,
}

impl Shape {
    /// The shape of `model`'s page.
    pub fn of(model: &crate::core::model::Model) -> Shape {
        Shape {
            heads: model.heads().len(),
            projected: model.output().is_some(),
            positions: *model.positions() != crate::core::model::positions::Positions::None,
        }
    }
}

/// The steps `chosen` picks, in pipeline order, each once.
pub fn in_order(chosen: impl Fn(Step) -> bool) -> Vec<Step> {
    Step::ALL.into_iter().filter(|&s| chosen(s)).collect()
}

/// The labs that have a section of their own, each after its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lab {
    /// Why divide the scores by √dₖ.
    SqrtDk,
    /// Why mask with −∞ before the softmax.
    Mask,
    /// Train the weights towards a target.
    Train,
    /// Shuffle the words: what attention sees of word order, with and without positions.
    Order,
}

impl Lab {
    /// The id of its `<section>`.
    pub const fn id(self) -> &'static str {
        match self {
            Lab::SqrtDk => "lab-sqrt-dk",
            Lab::Mask => "lab-mask",
            Lab::Train => "lab-train",
            Lab::Order => "lab-order",
        }
    }
}

/// One place the guided walk stops at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// A step's section.
    Step(Step),
    /// A lab's section, right after its step.
    Lab(Lab),
}

impl Stop {
    /// The id of its `<section>`.
    pub fn id(self) -> String {
        match self {
            Stop::Step(step) => step.id(),
            Stop::Lab(lab) => lab.id().to_owned(),
        }
    }
}

/// The walk's stops for a model of this shape: each step on the page, then its lab.
pub fn stops(shape: Shape) -> Vec<Stop> {
    Step::ALL
        .into_iter()
        .filter(|s| s.on_page(shape))
        .flat_map(|s| std::iter::once(Stop::Step(s)).chain(s.lab().map(Stop::Lab)))
        .collect()
}

/// What a matrix's rows and columns are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axes {
    /// Rows are vocabulary words, columns components (the embedding table).
    WordsByIndex,
    /// Rows are components, columns components (the weights).
    IndexByIndex,
    /// Rows are tokens, columns components (Q, K, V, context, output).
    TokensByIndex,
    /// Rows are queries, columns keys (scores, weights): n × n.
    QueryByKey,
}

/// Where a matrix is in a head's trace (absent when the model does not compute it).
pub type Pick = fn(&HeadTrace) -> Option<&DMatrix<f64>>;

/// A matrix the page shows.
#[derive(Clone, Copy, Debug)]
pub struct MatrixInfo {
    /// Its `data-matrix` name, also in `faces=` and the trace JSON.
    pub key: &'static str,
    /// What its caption calls it.
    pub title: &'static str,
    /// The step that shows it.
    pub step: Step,
    /// What its rows and columns are.
    pub axes: Axes,
    /// How its numbers are coloured.
    pub heat: Heat,
    /// For a matrix of each head's trace: where it is (absent when the model does not compute
    /// it, as the masking methods without a causal mask).
    pub pick: Option<Pick>,
}

impl MatrixInfo {
    /// Whether the cells above the diagonal are greyed under a causal mask.
    pub fn greys_future(&self) -> bool {
        self.step >= Step::Mask && self.axes == Axes::QueryByKey
    }
}

const fn info(
    key: &'static str,
    title: &'static str,
    step: Step,
    axes: Axes,
    heat: Heat,
    pick: Option<Pick>,
) -> MatrixInfo {
    MatrixInfo {
        key,
        title,
        step,
        axes,
        heat,
        pick,
    }
}

/// Every matrix the page shows, in the page's order.
pub const MATRICES: [MatrixInfo; 26] = [
    info(
        "embedding",
        "embedding table",
        Step::Embedding,
        Axes::WordsByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "embedded",
        "embedded sentence X",
        Step::Embedding,
        Axes::TokensByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "positions",
        "positions P",
        Step::Positions,
        Axes::TokensByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "positioned",
        "X + P",
        Step::Positions,
        Axes::TokensByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "w_query",
        "W_query",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "w_key",
        "W_key",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "w_value",
        "W_value",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "b_query",
        "b_query",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "b_key",
        "b_key",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "b_value",
        "b_value",
        Step::Projections,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "queries",
        "queries Q",
        Step::Qkv,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| Some(&h.queries)),
    ),
    info(
        "keys",
        "keys K",
        Step::Qkv,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| Some(&h.keys)),
    ),
    info(
        "values",
        "values V",
        Step::Qkv,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| Some(&h.values)),
    ),
    info(
        "queries_rotated",
        "Q rotated",
        Step::Qkv,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| h.queries_rotated.as_ref()),
    ),
    info(
        "keys_rotated",
        "K rotated",
        Step::Qkv,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| h.keys_rotated.as_ref()),
    ),
    info(
        "scores",
        "scores Q·Kᵀ",
        Step::Scores,
        Axes::QueryByKey,
        Heat::Signed,
        Some(|h| Some(&h.scores)),
    ),
    info(
        "scaled_scores",
        "scaled scores",
        Step::Scale,
        Axes::QueryByKey,
        Heat::Signed,
        Some(|h| Some(&h.scaled_scores)),
    ),
    info(
        "masked_scores",
        "masked scores",
        Step::Mask,
        Axes::QueryByKey,
        Heat::Signed,
        Some(|h| Some(&h.masked_scores)),
    ),
    info(
        "masked_weights_simple",
        "weights × tril(ones)",
        Step::Mask,
        Axes::QueryByKey,
        Heat::Unit,
        Some(|h| h.causal_methods.as_ref().map(|c| &c.simple)),
    ),
    info(
        "masked_weights_renormalized",
        "÷ row sums",
        Step::Mask,
        Axes::QueryByKey,
        Heat::Unit,
        Some(|h| h.causal_methods.as_ref().map(|c| &c.renormalized)),
    ),
    info(
        "weights",
        "weights",
        Step::Softmax,
        Axes::QueryByKey,
        Heat::Unit,
        Some(|h| Some(&h.weights)),
    ),
    info(
        "context",
        "context",
        Step::Context,
        Axes::TokensByIndex,
        Heat::Signed,
        Some(|h| Some(&h.context)),
    ),
    info(
        "concatenated",
        "concatenated",
        Step::Output,
        Axes::TokensByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "w_output",
        "W_output",
        Step::OutProj,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "b_output",
        "b_output",
        Step::OutProj,
        Axes::IndexByIndex,
        Heat::Signed,
        None,
    ),
    info(
        "output",
        "output",
        Step::Output,
        Axes::TokensByIndex,
        Heat::Signed,
        None,
    ),
];

/// The matrix named `key`.
pub fn matrix(key: &str) -> Option<&'static MatrixInfo> {
    MATRICES.iter().find(|m| m.key == key)
}

/// The matrices of each head's trace, in page order, with where each is.
pub fn head_matrices() -> impl Iterator<Item = (&'static MatrixInfo, Pick)> {
    MATRICES.iter().filter_map(|m| m.pick.map(|p| (m, p)))
}
