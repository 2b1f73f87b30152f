//! Every change a learner or a script can make to the document, as a value ([`Edit`]), and the
//! one function that applies it ([`Document::apply`]): it checks the limits, decides what undo
//! keeps and merges, and says whether the followed token is still there. The page, the
//! scripting API and its postMessage twin all go through it. Which preset the model is follows
//! from the model ([`crate::core::model::presets::matching`]), so any edit clears it and undo brings
//! it back.

use crate::core::document::history::{EditKey, History};
use crate::core::document::script::check_value;
use crate::core::model::check_dims;
use crate::core::model::limits::check_sentence;
use crate::core::model::positions::{Positions, DEFAULT_BASE};
use crate::core::model::presets::DEFAULT_SEED;
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
    /// How word order enters: a kind of [`crate::core::model::positions::KINDS`] and its base (a
    /// learned table is drawn from the seed).
    Positions {
        /// `none`, `sinusoidal`, `learned`, `rope_half` or `rope_interleaved`.
        kind: String,
        /// The base of sinusoidal and RoPE angles.
        base: f64,
    },
    /// A whole model: a preset, a loaded state, the saved work.
    Open(Box<Model>),
    /// The model after a training step: the steps until the next [`Edit::Seal`] (a Run until
    /// Pause, one Step) are one undo step.
    Train(Box<Model>),
    /// Takes back the last step.
    Undo,
    /// Repeats the last step undone.
    Redo,
}

/// What undo covers, and the seed new numbers are drawn from.
#[derive(Clone, Debug)]
pub struct Document {
    /// The model everything on the page is computed from.
    pub model: Model,
    /// The steps before and after it.
    pub history: History,
    /// The seed of re-initialising and of the numbers a resize or a new word adds.
    pub seed: u64,
}

impl Document {
    /// A document of `model`, with nothing to undo and the default seed.
    pub fn new(model: Model) -> Document {
        Document {
            model,
            history: History::default(),
            seed: DEFAULT_SEED,
        }
    }

    /// Applies `edit`; `followed` is the token followed before it, and the result the token
    /// followed after it. A refused edit changes nothing and says why.
    pub fn apply(&mut self, edit: Edit, followed: Option<usize>) -> Result<Option<usize>, String> {
        let typing = matches!(edit, Edit::Sentence(_));
        apply(&mut self.model, &mut self.history, &mut self.seed, edit)?;
        Ok(followed_after(typing, followed, &self.model))
    }
}

/// The token followed after an edit: while the sentence is being typed, the one followed before
/// (its place comes back with the words: retyping a sentence keeps "she" followed; until then the
/// page shows the last token); after any other edit, it while the model still has it.
pub fn followed_after(typing: bool, followed: Option<usize>, model: &Model) -> Option<usize> {
    if typing {
        followed
    } else {
        followed.filter(|&i| i < model.tokens().len())
    }
}

/// What an edit changed, so that a page notifies only the parts that changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The model.
    pub model: bool,
    /// The undo history.
    pub history: bool,
    /// The seed.
    pub seed: bool,
}

/// [`Document::apply`] over the document's parts, as a page holds them in separate signals.
pub fn apply(
    model: &mut Model,
    history: &mut History,
    seed: &mut u64,
    edit: Edit,
) -> Result<Changed, String> {
    let both = Changed {
        model: true,
        history: true,
        seed: false,
    };
    // A set number is an undo step of its own: sealed on both sides.
    let alone = matches!(edit, Edit::Set { .. });
    match edit {
        Edit::Cell {
            target,
            row,
            col,
            value,
        }
        | Edit::Set {
            target,
            row,
            col,
            value,
        } => {
            let value = check_value(value)?;
            // Bitwise, as undo keeps it: typing -0 over 0 is an edit, the same number is not.
            let same = model
                .matrix(target)
                .and_then(|m| m.get((row, col)))
                .is_some_and(|x| x.to_bits() == value.to_bits());
            if same {
                return Ok(Changed::default());
            }
            if alone {
                history.seal();
            }
            if !history.set_cell(model, target, row, col, value) {
                return Err(outside(model, target, row, col));
            }
            if alone {
                history.seal();
            }
        }
        Edit::Paste {
            target,
            row,
            col,
            block,
        } => {
            for &x in block.iter().flatten() {
                check_value(x)?;
            }
            model.check_paste(target, row, col, &block)?;
            let m = model.matrix(target).expect("check_paste found the matrix");
            let same = block.iter().enumerate().all(|(i, r)| {
                r.iter()
                    .enumerate()
                    .all(|(j, x)| m[(row + i, col + j)].to_bits() == x.to_bits())
            });
            if same {
                return Ok(Changed::default());
            }
            history.paste(model, target, row, col, &block)?;
        }
        Edit::Seal => {
            history.seal();
            return Ok(Changed {
                history: true,
                ..Changed::default()
            });
        }
        Edit::Sentence(text) => {
            check_sentence(&text)?;
            // The rows as they are now, edits included; the new words' rows are remembered
            // when the sentence changes again.
            history.words.remember(model);
            let next = model.with_sentence(&text, *seed, &history.words)?;
            return Ok(replace(model, history, EditKey::Sentence, next));
        }
        Edit::Resize(dims) => {
            check_dims(dims)?;
            let next = model.resized(dims, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Reinitialise => {
            let next = Model::seeded(
                model.sentence(),
                model.dims(),
                *seed,
                model.causal,
                model.scale,
            )?
            .with_biases_on(model.has_biases(), *seed)?
            .with_output_drawn_like(model, *seed)?;
            let positions = model.positions();
            let base = positions.base().unwrap_or(DEFAULT_BASE);
            let next = match positions {
                // A learned table is numbers like the rest: drawn again.
                Positions::Learned(_) => next.with_positions_of("learned", base, *seed)?,
                other => next.with_positions(other.clone())?,
            };
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Positions { kind, base } => {
            let next = model.with_positions_of(&kind, base, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Biases(on) => {
            let next = model.with_biases_on(on, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::OutputProjection(on) => {
            let next = model.with_output_on(on, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Seed(s) => {
            *seed = s;
            return Ok(Changed {
                seed: true,
                ..Changed::default()
            });
        }
        Edit::Causal(on) => {
            let mut next = model.clone();
            next.causal = on;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Scale(scale) => {
            let mut next = model.clone();
            next.scale = scale;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        // A whole model is taken only within the limits a saved state keeps, so the link and
        // the saved work always read back.
        Edit::Open(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Other, *next));
        }
        Edit::Train(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Training, *next));
        }
        // Nothing to take back (or repeat) changes nothing.
        Edit::Undo => {
            if !history.undo(model) {
                return Ok(Changed::default());
            }
        }
        Edit::Redo => {
            if !history.redo(model) {
                return Ok(Changed::default());
            }
        }
    }
    Ok(both)
}

/// Replaces the model, remembering the one before for undo unless this continues the open
/// step (another keystroke of the sentence); a model equal to the one there is no change.
fn replace(model: &mut Model, history: &mut History, key: EditKey, next: Model) -> Changed {
    if next == *model {
        return Changed::default();
    }
    let before = std::mem::replace(model, next);
    history.record_model(before, key);
    Changed {
        model: true,
        history: true,
        seed: false,
    }
}

fn outside(model: &Model, target: Editable, row: usize, col: usize) -> String {
    let (rows, cols) = model.matrix(target).map_or((0, 0), |m| m.shape());
    format!("cell ({row}, {col}) is outside the {rows} × {cols} matrix")
}
