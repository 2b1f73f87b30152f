//! What the store holds beside its signals: the trained model a panel lends it, a clicked
//! cell's detail, how matrices look, a cell's editor, a gradient face.

use std::collections::HashMap;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::formats::link::DEFAULT_DECIMALS;
use crate::core::forward::trace::Trace;
use crate::core::i18n::Msg;
use crate::core::model::Matrix;
use crate::core::model::Model;
use crate::core::teaching::order::ReorderedInputs;
use crate::core::views::heatmap::{Face, Palette};

/// What a trained model's panel lends the page while it holds the model: the page calls it, and
/// its code stays in the panel's chunk (none of it in the first download).
pub trait TrainedModel: Send + Sync {
    /// Its name, as its layer models carry it (`Layered::name`).
    fn name(&self) -> &'static str;
    /// `model` (a layer of it) on a sentence as typed (see [`Edit::Retyped`]), or why not.
    fn retype(&self, model: &Model, text: &str) -> Result<Model, crate::core::i18n::Msg>;
    /// The order lab's hidden states of `model`'s pieces as they are and in `order`.
    fn reordered_inputs(&self, model: &Model, order: Vec<usize>) -> Option<ReorderedInputs>;
    /// What reordering them does to `model`'s layer, with the learned positions and without.
    fn moves(&self, model: &Model, inputs: &ReorderedInputs) -> Option<[Vec<f64>; 2]>;
    /// What the embedding step says X is when layer `layer` is in the page.
    fn hidden_state_note(&self, layer: usize) -> String;
    /// What the sentence step says of how its tokenizer cuts the sentence, with the note's
    /// `data-note` name.
    fn tokens_note(&self) -> (&'static str, String);
}

/// What a click on a cell asked to have explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// A score as its dot-product terms.
    Score {
        head: usize,
        query: usize,
        key: usize,
    },
    /// A context row as the weighted sum of the value rows.
    Context { head: usize, query: usize },
}

impl Detail {
    /// `score` or `context`: the `data-breakdown` name of its explanation.
    pub fn key(self) -> &'static str {
        match self {
            Detail::Score { .. } => "score",
            Detail::Context { .. } => "context",
        }
    }

    /// The explanation in words, if the cell still exists.
    pub fn describe(self, trace: &Trace, precision: usize) -> Option<String> {
        match self {
            Detail::Score { head, query, key } => trace
                .score_terms(head, query, key)
                .map(|t| t.describe(precision)),
            Detail::Context { head, query } => trace
                .context_terms(head, query)
                .map(|t| t.describe(precision)),
        }
    }
}

/// How every matrix looks: the page-wide settings a matrix view reads from context, so that a
/// matrix can be mounted with no store at all (as in the component tests).
#[derive(Clone, Copy)]
pub struct Look {
    /// Decimals shown in every table (values keep full precision).
    pub precision: RwSignal<usize>,
    /// The colours the heat maps paint with, following light and dark mode.
    pub palette: RwSignal<Palette>,
    /// The face the learner chose for a matrix (by name and head); it outlives the view, so the
    /// choice sticks when a step is hidden and shown or the heads change.
    pub faces: RwSignal<HashMap<(Matrix, Option<usize>), Face>>,
}

/// The default look: 4 decimals, the light palette, no faces chosen.
impl Default for Look {
    fn default() -> Self {
        Look {
            precision: RwSignal::new(DEFAULT_DECIMALS),
            palette: RwSignal::new(Palette::LIGHT),
            faces: RwSignal::new(HashMap::new()),
        }
    }
}

/// A block of numbers, by rows, as a paste gives it.
pub type Block = Vec<Vec<f64>>;

/// What an editable matrix view reports; the view itself knows nothing of the model.
#[derive(Clone, Copy)]
pub struct CellEditor {
    /// A valid number typed into cell (row, col); refused with a message (a locked matrix).
    pub commit: Callback<(usize, usize, f64), Result<(), Msg>>,
    /// A block of numbers pasted with its top-left at (row, col); a block that does not fit is
    /// refused whole, with the message to show.
    pub paste: Callback<(usize, usize, Block), Result<(), Msg>>,
    /// The learner left the cell: the next number typed there is a new undo step.
    pub done: Callback<()>,
}

/// Every head's n × m tables are shown side by side while heads × n × m stays within this; beyond
/// it, one head at a time (with a picker), so that an edit repaints a few thousand cells, not
/// tens of thousands (measured: 16 tokens × 4 heads took 108 ms per edit with all heads shown).
pub const ALL_HEADS_CELL_BUDGET: usize = 600;

/// A matrix's gradient face: whether there is one now (cheap: the training lab has a target that
/// fits the model), and ∂L/∂cell, computed only when read (when the face is shown).
#[derive(Clone, Copy)]
pub struct GradientOf {
    /// A gradient exists.
    pub shown: Signal<bool>,
    /// The gradient.
    pub matrix: Signal<Option<DMatrix<f64>>>,
}

/// `f` of `model`, tracking `structure` only (see [`super::AppState::structure`]).
pub(super) fn shaped<T>(
    structure: Trigger,
    model: RwSignal<Model>,
    f: impl FnOnce(&Model) -> T,
) -> T {
    structure.track();
    model.with_untracked(f)
}
