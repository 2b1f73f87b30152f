//! The one catalogue of what the page shows, in pipeline order: the steps, the lab after each,
//! the guided walk's stops, and every matrix (its `data-matrix` name, title, axes, colouring and
//! where it comes from). The URL, the report, the walk and the page all read it; the words a
//! step says live beside its view (`ui/steps/*.rs`).

use nalgebra::DMatrix;

use crate::core::forward::trace::{HeadTrace, Trace};
use crate::core::i18n::keys::{steps, views};
use crate::core::i18n::Key;
use crate::core::model::{Matrix, Model};
use crate::core::training::Gradients;
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
    pub fn key(self) -> &'static str {
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

    /// Its heading.
    pub fn title(self) -> Key {
        match self {
            Step::Sentence => steps::sentence_title,
            Step::Embedding => steps::embedding_title,
            Step::Positions => steps::positions_title,
            Step::Projections => steps::projections_title,
            Step::Qkv => steps::qkv_title,
            Step::Scores => steps::scores_title,
            Step::Scale => steps::scale_title,
            Step::Mask => steps::mask_title,
            Step::Softmax => steps::softmax_title,
            Step::Context => steps::context_title,
            Step::Output => steps::output_title,
            Step::OutProj => steps::out_proj_title,
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

    /// The labs whose sections follow this step's, in order.
    pub fn labs(self) -> &'static [Lab] {
        match self {
            Step::Scale => &[Lab::SqrtDk],
            Step::Mask => &[Lab::Mask],
            Step::Softmax => &[Lab::Train],
            Step::Context => &[Lab::Heads, Lab::Order, Lab::KvCache, Lab::Flash],
            _ => &[],
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
    /// Whether the keys and values come from a source sentence (cross-attention).
    pub source: bool,
}

impl Shape {
    /// The shape of `model`'s page.
    pub fn of(model: &crate::core::model::Model) -> Shape {
        Shape {
            heads: model.heads().len(),
            projected: model.output().is_some(),
            positions: *model.positions() != crate::core::model::positions::Positions::None,
            source: model.source().is_some(),
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
    /// What a head is, and why several: two hand-made heads attending for two reasons.
    Heads,
    /// Shuffle the words: what attention sees of word order, with and without positions.
    Order,
    /// Decode one token at a time, keeping the keys and values.
    KvCache,
    /// The softmax a tile at a time (FlashAttention's online softmax).
    Flash,
}

impl Lab {
    /// The id of its `<section>`.
    pub const fn id(self) -> &'static str {
        match self {
            Lab::SqrtDk => "lab-sqrt-dk",
            Lab::Mask => "lab-mask",
            Lab::Train => "lab-train",
            Lab::Heads => "lab-heads",
            Lab::Order => "lab-order",
            Lab::KvCache => "lab-kv-cache",
            Lab::Flash => "lab-flash",
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

/// The walk's stops for a model of this shape, in teaching order rather than the page's: the
/// lesson first ([`lesson_length`] stops: the sentence to the context, the payoff, by the
/// fifth stop the weights; then why ÷√dₖ, the mask and why −∞, several heads, training), then
/// the way further (the weights' own step, positions and word order, the KV cache, the tiles,
/// the output projection). The page keeps the pipeline's order, where each table is computed
/// from the one above it; the walk jumps to the step that teaches next.
pub fn stops(shape: Shape) -> Vec<Stop> {
    let lesson = [
        Stop::Step(Step::Sentence),
        Stop::Step(Step::Embedding),
        Stop::Step(Step::Qkv),
        Stop::Step(Step::Scores),
        Stop::Step(Step::Softmax),
        Stop::Step(Step::Context),
        Stop::Step(Step::Scale),
        Stop::Lab(Lab::SqrtDk),
        Stop::Step(Step::Mask),
        Stop::Lab(Lab::Mask),
        Stop::Lab(Lab::Heads),
        Stop::Step(Step::Output),
        Stop::Lab(Lab::Train),
    ];
    let further = [
        Stop::Step(Step::Projections),
        Stop::Step(Step::Positions),
        Stop::Lab(Lab::Order),
        Stop::Lab(Lab::KvCache),
        Stop::Lab(Lab::Flash),
        Stop::Step(Step::OutProj),
    ];
    lesson
        .into_iter()
        .chain(further)
        .filter(|stop| match stop {
            Stop::Step(step) => step.on_page(shape),
            Stop::Lab(_) => true,
        })
        .collect()
}

/// How many of [`stops`] are the lesson; the rest go further, for a learner who chooses to.
pub fn lesson_length(shape: Shape) -> usize {
    // The lesson ends at the training lab.
    stops(shape)
        .iter()
        .position(|&s| s == Stop::Lab(Lab::Train))
        .map_or(0, |i| i + 1)
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

/// What a matrix's caption calls it: words to translate, or a symbol written alike in every
/// language (`W_query`, `X + P`).
#[derive(Clone, Copy)]
enum Title {
    Words(Key),
    Symbol(&'static str),
}

/// How the page shows a matrix: its caption, step, axes and colouring.
struct About {
    title: Title,
    step: Step,
    axes: Axes,
    heat: Heat,
}

/// What the page shows of each matrix (its identity and name are `core::model::Matrix`'s).
impl Matrix {
    fn about(self) -> About {
        use Axes::{IndexByIndex as II, QueryByKey as QK, TokensByIndex as TI, WordsByIndex as WI};
        use Heat::{Signed as S, Unit as U};
        use Title::{Symbol, Words};
        let (title, step, axes, heat) = match self {
            Matrix::Embedding => (Words(views::embedding_table), Step::Embedding, WI, S),
            Matrix::Embedded => (Words(views::embedded), Step::Embedding, TI, S),
            Matrix::Positions => (Words(views::positions), Step::Positions, TI, S),
            Matrix::Positioned => (Symbol("X + P"), Step::Positions, TI, S),
            Matrix::SourceEmbedding => (Words(views::source_embedding), Step::Embedding, WI, S),
            Matrix::SourceEmbedded => (Words(views::source_embedded), Step::Embedding, TI, S),
            Matrix::Weight(p) => (Symbol(p.title()), Step::Projections, II, S),
            Matrix::Bias(_) => (Symbol(self.key()), Step::Projections, II, S),
            Matrix::Queries => (Words(views::queries), Step::Qkv, TI, S),
            Matrix::Keys => (Words(views::keys), Step::Qkv, TI, S),
            Matrix::Values => (Words(views::values), Step::Qkv, TI, S),
            Matrix::QueriesRotated => (Words(views::queries_rotated), Step::Qkv, TI, S),
            Matrix::KeysRotated => (Words(views::keys_rotated), Step::Qkv, TI, S),
            Matrix::Scores => (Words(views::scores), Step::Scores, QK, S),
            Matrix::ScaledScores => (Words(views::scaled_scores), Step::Scale, QK, S),
            Matrix::MaskedScores => (Words(views::masked_scores), Step::Mask, QK, S),
            Matrix::MaskedWeightsSimple => (Words(views::masked_weights), Step::Mask, QK, U),
            Matrix::MaskedWeightsRenormalized => (Words(views::renormalized), Step::Mask, QK, U),
            Matrix::Weights => (Words(views::weights), Step::Softmax, QK, U),
            Matrix::Context => (Words(views::context), Step::Context, TI, S),
            Matrix::Concatenated => (Words(views::concatenated), Step::Output, TI, S),
            Matrix::OutputWeight => (Symbol("W_output"), Step::OutProj, II, S),
            Matrix::OutputBias => (Symbol("b_output"), Step::OutProj, II, S),
            Matrix::Output => (Words(views::output), Step::Output, TI, S),
        };
        About {
            title,
            step,
            axes,
            heat,
        }
    }

    /// What its caption calls it, in English.
    pub fn title(self) -> &'static str {
        match self.about().title {
            Title::Words(key) => key.0.en,
            Title::Symbol(symbol) => symbol,
        }
    }

    /// Its caption's words to translate; none for a symbol ([`Matrix::title`] then).
    pub fn title_key(self) -> Option<Key> {
        match self.about().title {
            Title::Words(key) => Some(key),
            Title::Symbol(_) => None,
        }
    }

    /// The step that shows it.
    pub fn step(self) -> Step {
        self.about().step
    }

    /// What its rows and columns are.
    pub fn axes(self) -> Axes {
        self.about().axes
    }

    /// How its numbers are coloured.
    pub fn heat(self) -> Heat {
        self.about().heat
    }

    /// What its table's corner says its rows and columns are.
    pub fn corner(self) -> Option<Key> {
        match (self, self.axes()) {
            (_, Axes::QueryByKey) => Some(views::query_by_key),
            // Positions belong to places, not words.
            (Matrix::Positions, _) => Some(views::corner_place),
            _ => None,
        }
    }

    /// Whether the cells above the diagonal are greyed under a causal mask.
    pub fn greys_future(self) -> bool {
        self.step() >= Step::Mask && self.axes() == Axes::QueryByKey
    }

    /// Whether each head has its own (its `data-head`, its place in a head's trace or weights).
    pub fn per_head(self) -> bool {
        matches!(self, Matrix::Weight(_) | Matrix::Bias(_)) || self.pick().is_some()
    }

    /// Where it is in a head's trace, for a matrix of each head's trace (absent when the model
    /// does not compute it, as the masking methods without a causal mask).
    pub fn pick(self) -> Option<Pick> {
        Some(match self {
            Matrix::Queries => |h| Some(&h.queries),
            Matrix::Keys => |h| Some(&h.keys),
            Matrix::Values => |h| Some(&h.values),
            Matrix::QueriesRotated => |h| h.queries_rotated.as_ref(),
            Matrix::KeysRotated => |h| h.keys_rotated.as_ref(),
            Matrix::Scores => |h| Some(&h.scores),
            Matrix::ScaledScores => |h| Some(&h.scaled_scores),
            Matrix::MaskedScores => |h| Some(&h.masked_scores),
            Matrix::MaskedWeightsSimple => |h| h.causal_methods.as_ref().map(|c| &c.simple),
            Matrix::MaskedWeightsRenormalized => {
                |h| h.causal_methods.as_ref().map(|c| &c.renormalized)
            }
            Matrix::Weights => |h| Some(&h.weights),
            Matrix::Context => |h| Some(&h.context),
            Matrix::Embedding
            | Matrix::Embedded
            | Matrix::SourceEmbedding
            | Matrix::SourceEmbedded
            | Matrix::Positions
            | Matrix::Positioned
            | Matrix::Weight(_)
            | Matrix::Bias(_)
            | Matrix::Concatenated
            | Matrix::OutputWeight
            | Matrix::OutputBias
            | Matrix::Output => return None,
        })
    }

    /// Its numbers in `trace` (of `head` for a head's), if the model computes it.
    pub fn in_trace(self, trace: &Trace, head: usize) -> Option<&DMatrix<f64>> {
        match self {
            Matrix::Embedded => Some(&trace.embedded),
            Matrix::Positioned => trace.positioned.as_ref(),
            Matrix::SourceEmbedded => trace.source.as_ref().map(|s| &s.1),
            Matrix::Concatenated => trace.concatenated.as_ref(),
            Matrix::Output => Some(&trace.output),
            _ => (self.pick()?)(trace.heads.get(head)?),
        }
    }

    /// Its numbers as the page shows them (of `head` for a head's): the learner's from `model`,
    /// the rest from its `trace`.
    pub fn shown<'a>(
        self,
        model: &'a Model,
        trace: &'a Trace,
        head: usize,
    ) -> Option<&'a DMatrix<f64>> {
        match self.editable(head) {
            Some(target) => model.matrix(target),
            None => self.in_trace(trace, head),
        }
    }

    /// ∂L with respect to it (of `head` for a head's), if the loss has a gradient for it: the
    /// learner's matrices and each head's intermediates up to the context.
    pub fn gradient(self, g: &Gradients, head: Option<usize>) -> Option<&DMatrix<f64>> {
        if let Some(target) = self.editable(head.unwrap_or(0)) {
            // A head's matrix needs its head.
            return if self.per_head() && head.is_none() {
                None
            } else {
                g.of(target)
            };
        }
        let h = g.heads.get(head?)?;
        match self {
            Matrix::Queries => Some(&h.queries),
            Matrix::Keys => Some(&h.keys),
            Matrix::Values => Some(&h.values),
            Matrix::Scores => Some(&h.scores),
            Matrix::Weights => Some(&h.weights),
            Matrix::Context => Some(&h.context),
            _ => None,
        }
    }

    /// Whether the loss has a gradient for it (a gradient face), whatever the model.
    pub fn has_gradient(self) -> bool {
        // The learner's matrices, and the intermediates `gradient` finds in a head's.
        self.editable(0).is_some()
            || matches!(
                self,
                Matrix::Queries
                    | Matrix::Keys
                    | Matrix::Values
                    | Matrix::Scores
                    | Matrix::Weights
                    | Matrix::Context
            )
    }
}

/// Where a matrix is in a head's trace (absent when the model does not compute it).
pub type Pick = fn(&HeadTrace) -> Option<&DMatrix<f64>>;

/// The matrices of each head's trace, in page order, with where each is.
pub fn head_matrices() -> impl Iterator<Item = (Matrix, Pick)> {
    Matrix::ALL
        .into_iter()
        .filter_map(|m| m.pick().map(|p| (m, p)))
}
