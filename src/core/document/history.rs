//! Undo and redo of the learner's edits. A typed number is remembered as that one number, so a
//! long session of typing costs bytes, not a copy of the model per keystroke, and a paste keeps
//! the block it overwrote; only structural changes (a new sentence, a resize, a new model) keep
//! a whole model.

use crate::core::i18n::Msg;
use std::collections::VecDeque;

use crate::core::model::layer_record::LayerRecord;
use crate::core::model::{Editable, Head, Model, WordRows};

/// What an edit touched: the keystrokes of one number, or of the sentence, make one undo step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditKey {
    /// The typing of one number: (matrix, row, column).
    Cell(Editable, usize, usize),
    /// The typing of the sentence.
    Sentence,
    /// The typing of cross-attention's source sentence.
    Source,
    /// Training steps (a Run, until it pauses).
    Training,
    /// Anything else; never merged with the edit before it.
    Other,
}

/// At most this many undo steps are kept…
pub const UNDO_DEPTH: usize = 200;
/// …and at most about this many bytes of them (the oldest go first).
pub const UNDO_BYTES: usize = 64 << 20;

/// What undoing (or redoing) one step writes back.
#[derive(Clone, Debug, PartialEq)]
enum Change {
    Cell {
        target: Editable,
        row: usize,
        col: usize,
        value: f64,
    },
    /// A block with its top-left at (`row`, `col`), clipped to the matrix.
    Block {
        target: Editable,
        row: usize,
        col: usize,
        values: Vec<Vec<f64>>,
    },
    Model(Box<Model>),
    /// A trained model's layer, kept as its changes from the trained numbers.
    Layer(Box<LayerRecord>),
}

impl Change {
    /// Roughly what this step keeps in memory.
    fn bytes(&self) -> usize {
        match self {
            Change::Cell { .. } => std::mem::size_of::<Change>(),
            Change::Block { values, .. } => {
                std::mem::size_of::<Change>()
                    + values.iter().map(|r| r.len() * 8 + 24).sum::<usize>()
            }
            Change::Model(m) => model_bytes(m),
            Change::Layer(r) => std::mem::size_of::<Change>() + r.bytes(),
        }
    }

    /// Writes this change into `model` and returns the change that takes it back.
    fn apply(self, model: &mut Model) -> Change {
        match self {
            Change::Cell {
                target,
                row,
                col,
                value,
            } => {
                let now = cell(model, target, row, col).unwrap_or(value);
                model.set(target, row, col, value);
                Change::Cell {
                    target,
                    row,
                    col,
                    value: now,
                }
            }
            Change::Block {
                target,
                row,
                col,
                values,
            } => {
                let now = block(model, target, row, col, &values);
                model.paste(target, row, col, &values);
                Change::Block {
                    target,
                    row,
                    col,
                    values: now,
                }
            }
            Change::Model(before) => Change::of_model(std::mem::replace(model, *before)),
            Change::Layer(before) => {
                Change::of_model(std::mem::replace(model, before.into_model()))
            }
        }
    }

    /// What brings `model` back: a trained layer as its changes, another model whole.
    fn of_model(model: Model) -> Change {
        match LayerRecord::of(model) {
            Ok(record) => Change::Layer(Box::new(record)),
            Err(model) => Change::Model(model),
        }
    }
}

fn cell(model: &Model, target: Editable, row: usize, col: usize) -> Option<f64> {
    model.matrix(target)?.get((row, col)).copied()
}

/// The numbers of `model` under a block of `shape`'s size at (`row`, `col`), clipped to the matrix.
fn block(
    model: &Model,
    target: Editable,
    row: usize,
    col: usize,
    shape: &[Vec<f64>],
) -> Vec<Vec<f64>> {
    shape
        .iter()
        .enumerate()
        .map_while(|(i, r)| {
            let cells: Vec<f64> = (0..r.len())
                .map_while(|j| cell(model, target, row + i, col + j))
                .collect();
            (!cells.is_empty()).then_some(cells)
        })
        .collect()
}

/// The numbers a model holds, in bytes.
pub fn model_bytes(model: &Model) -> usize {
    model_numbers(model) * std::mem::size_of::<f64>() + model.sentence().len()
}

/// How many numbers a model holds: its embedding, every head's projections and biases, the
/// output projection and learned positions.
pub fn model_numbers(model: &Model) -> usize {
    let biases = |h: &Head| {
        h.biases
            .as_ref()
            .map_or(0, |b| b.b_query.len() + b.b_key.len() + b.b_value.len())
    };
    let numbers = model.embedding().len()
        + model
            .heads()
            .iter()
            .map(|h| h.w_query.len() + h.w_key.len() + h.w_value.len() + biases(h))
            .sum::<usize>()
        + model.output().map_or(0, |o| {
            o.w_output.len() + o.b_output.as_ref().map_or(0, |b| b.len())
        })
        + model.matrix(Editable::Positions).map_or(0, |t| t.len());
    numbers
}

/// The steps before and after the current model.
#[derive(Clone, Debug, Default)]
pub struct History {
    past: VecDeque<Change>,
    future: Vec<Change>,
    past_bytes: usize,
    /// The key of the last edit, while further edits with the same key extend it.
    open_edit: Option<EditKey>,
    /// The rows of the words the page has seen, which outlive undo: a word typed again gets its
    /// row back (see [`Model::with_sentence`]).
    pub words: WordRows,
}

impl History {
    /// Sets one number of `model`, remembering the old one unless this continues the same
    /// number's typing or writes the number already there; typing that comes back to the number
    /// it began from ("1,5" refused back to 0.8) leaves no step. Returns false (and changes
    /// nothing) outside the matrix.
    pub fn set_cell(
        &mut self,
        model: &mut Model,
        target: Editable,
        row: usize,
        col: usize,
        value: f64,
    ) -> bool {
        let Some(before) = cell(model, target, row, col) else {
            return false;
        };
        let key = EditKey::Cell(target, row, col);
        // Bitwise, so that typing -0 over 0 is still an edit.
        if before.to_bits() == value.to_bits() {
            return true;
        }
        let began = Change::Cell {
            target,
            row,
            col,
            value,
        };
        if self.open_edit == Some(key) && self.past.back() == Some(&began) {
            if let Some(step) = self.past.pop_back() {
                self.past_bytes -= step.bytes();
            }
            // Typing on is a new step, from this number.
            self.open_edit = None;
        } else {
            if self.open_edit != Some(key) {
                self.push(Change::Cell {
                    target,
                    row,
                    col,
                    value: before,
                });
            }
            self.open_edit = Some(key);
        }
        self.future.clear();
        model.set(target, row, col, value);
        true
    }

    /// Pastes `values` with its top-left at (`row`, `col`), remembering only the numbers it
    /// overwrote. A block that does not fit is refused with [`Model::check_paste`]'s message.
    pub fn paste(
        &mut self,
        model: &mut Model,
        target: Editable,
        row: usize,
        col: usize,
        values: &[Vec<f64>],
    ) -> Result<(), Msg> {
        model.check_paste(target, row, col, values)?;
        let before = block(model, target, row, col, values);
        self.seal();
        self.push(Change::Block {
            target,
            row,
            col,
            values: before,
        });
        self.future.clear();
        model.paste(target, row, col, values);
        Ok(())
    }

    /// Whether a structural change with `key` starts a new step (and so needs the model before
    /// it), rather than extending the open one (the sentence's keystrokes).
    pub fn starts_step(&self, key: EditKey) -> bool {
        key == EditKey::Other || self.open_edit != Some(key)
    }

    /// Remembers the whole model `before` a structural change; keystrokes with the same `key`
    /// (the sentence) extend the step instead.
    pub fn record_model(&mut self, before: Model, key: EditKey) {
        if self.starts_step(key) {
            self.push(Change::of_model(before));
        }
        self.open_edit = (key != EditKey::Other).then_some(key);
        self.future.clear();
    }

    /// The model from before the sentence's keystrokes now being typed, while they are (and
    /// undo keeps it whole).
    pub fn typing_began_from(&self) -> Option<&Model> {
        match self.past.back() {
            Some(Change::Model(before)) if self.open_edit == Some(EditKey::Sentence) => {
                Some(before)
            }
            _ => None,
        }
    }

    fn push(&mut self, change: Change) {
        self.past_bytes += change.bytes();
        self.past.push_back(change);
        while self.past.len() > UNDO_DEPTH || (self.past_bytes > UNDO_BYTES && self.past.len() > 1)
        {
            if let Some(old) = self.past.pop_front() {
                self.past_bytes -= old.bytes();
            }
        }
    }

    /// Ends the current edit: the next one, even of the same cell, is a new undo step.
    pub fn seal(&mut self) {
        self.open_edit = None;
    }

    /// The newest layer of the trained model `name` the undo steps keep: the one the page showed
    /// before another model replaced it, edits and all.
    pub fn last_layer(&self, name: &str) -> Option<Model> {
        self.past.iter().rev().find_map(|c| match c {
            Change::Layer(r) if r.name() == Some(name) => Some(r.as_ref().clone().into_model()),
            _ => None,
        })
    }

    /// Takes back the last step. Returns false when there is none.
    pub fn undo(&mut self, model: &mut Model) -> bool {
        let Some(change) = self.past.pop_back() else {
            return false;
        };
        self.past_bytes -= change.bytes();
        self.future.push(change.apply(model));
        self.seal();
        true
    }

    /// Repeats the last step undone. Returns false when there is none.
    pub fn redo(&mut self, model: &mut Model) -> bool {
        let Some(change) = self.future.pop() else {
            return false;
        };
        let back = change.apply(model);
        self.push(back);
        self.seal();
        true
    }

    /// Whether there is a step to take back.
    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    /// Whether there is an undone step to repeat.
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// How many undo steps are kept.
    pub fn depth(&self) -> usize {
        self.past.len()
    }

    /// Roughly how many bytes the undo steps keep.
    pub fn bytes(&self) -> usize {
        self.past_bytes
    }
}
