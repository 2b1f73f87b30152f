//! The edits themselves, as values: what a learner or a script can ask of the document.

use crate::core::model::positions::PositionKind;
use crate::core::model::{Dims, Editable, Model, Scale};
/// One change to the document.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A number typed into a cell: the keystrokes of one number are one undo step.
    Cell {
        /// The matrix.
        target: Editable,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// The number.
        value: f64,
    },
    /// One number set at once (the scripting API): an undo step of its own.
    Set {
        /// The matrix.
        target: Editable,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// The number.
        value: f64,
    },
    /// A block pasted with its top-left at (`row`, `col`); refused whole when it does not fit.
    Paste {
        /// The matrix.
        target: Editable,
        /// The block's top row.
        row: usize,
        /// The block's left column.
        col: usize,
        /// Its numbers, by rows.
        block: Vec<Vec<f64>>,
    },
    /// The learner left a field: the next keystroke there starts a new undo step.
    Seal,
    /// The sentence as typed; its keystrokes are one undo step.
    Sentence(String),
    /// New sizes: numbers whose place remains are kept, new places drawn from the seed.
    Resize(Dims),
    /// Every number drawn again as `torch.manual_seed(seed)` would.
    Reinitialise,
    /// The seed for re-initialising and for new numbers (not an undo step).
    Seed(u64),
    /// The causal mask on or off.
    Causal(bool),
    /// The scaling of the scores.
    Scale(Scale),
    /// Biases on the projections, on or off (drawn from the seed when turned on).
    Biases(bool),
    /// The output projection after the concatenation, on or off.
    OutputProjection(bool),
    /// How word order enters: a [`PositionKind`] and its base (a
    /// learned table is drawn from the seed).
    Positions {
        /// Which kind.
        kind: PositionKind,
        /// The base of sinusoidal and RoPE angles.
        base: f64,
    },
    /// Key/value heads shared by groups of query heads (a divisor of the heads; the heads' own
    /// number for none shared, 1 for multi-query attention).
    KvHeads(usize),
    /// Cross-attention's source sentence as typed (its keystrokes one undo step, as the
    /// sentence's), or none: the keys and values from the sentence itself again.
    Source(Option<String>),
    /// A whole model: a preset, a loaded state, the saved work.
    Open(Box<Model>),
    /// A trained model's layer on the sentence as typed, cut by the model's own tokenizer (which
    /// the page holds beside the document): its keystrokes are one undo step, as
    /// [`Edit::Sentence`]'s are.
    Retyped(Box<Model>),
    /// The model after a training step: the steps until the next [`Edit::Seal`] (a Run until
    /// Pause, one Step) are one undo step.
    Train(Box<Model>),
    /// Takes back the last step.
    Undo,
    /// Repeats the last step undone.
    Redo,
}
