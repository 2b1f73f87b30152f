//! The learner's matrices one by one: found by name, checked against the limits a saved state
//! keeps, and edited a cell or a pasted block at a time.

use crate::core::i18n::keys::edits;
use crate::core::i18n::{Arg, Msg};
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::limits::MAX_ABS_VALUE;
use crate::core::model::positions::Positions;
use crate::core::model::{Editable, Model};

impl Model {
    /// One of the learner's editable matrices, if it exists.
    pub fn matrix(&self, target: Editable) -> Option<&DMatrix<f64>> {
        match target {
            Editable::Embedding => Some(&self.embedding),
            Editable::Weight(head, p) => self.heads.get(head).map(|h| &h[p]),
            Editable::Bias(head, p) => self.heads.get(head)?.biases.as_ref().map(|b| &b[p]),
            Editable::OutputWeight => self.output.as_ref().map(|o| &o.w_output),
            Editable::OutputBias => self.output.as_ref()?.b_output.as_ref(),
            Editable::Positions => match &self.positions {
                Positions::Learned(t) => Some(t),
                _ => None,
            },
            Editable::SourceEmbedding => self.source.as_ref().map(|s| &s.embedding),
        }
    }

    /// Every number the learner can edit finite and within ±[`MAX_ABS_VALUE`](crate::core::model::limits::MAX_ABS_VALUE),
    /// as a saved state must be to be read back; else which matrix holds what.
    pub fn check_limits(&self) -> Result<(), Msg> {
        // Each kind in head 0 stands for every head's: the search goes on past what is absent.
        for kind in Editable::EVERY {
            for h in 0..self.heads.len() {
                let target = kind.in_head(h);
                // A trained layer's numbers as its file has them are not the learner's to keep.
                let Some(m) = self
                    .matrix(target)
                    .filter(|_| !self.is_trained_copy(target))
                else {
                    continue;
                };
                // By the kernels: a language model's layer is 1.3 million numbers.
                if let Some(i) = kernels::first_outside(m.as_slice(), MAX_ABS_VALUE) {
                    return Err(outside_limits(target, m.as_slice()[i]));
                }
                if target.head().is_none() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// One of the learner's editable matrices, to change in place (its shape stays).
    pub(crate) fn matrix_mut(&mut self, target: Editable) -> Option<&mut DMatrix<f64>> {
        match target {
            Editable::Embedding => Some(&mut self.embedding),
            // A copy of its own once changed (see `Model::heads`).
            Editable::Weight(head, p) if head < self.heads.len() => {
                Some(&mut Arc::make_mut(&mut self.heads)[head][p])
            }
            Editable::Bias(head, p) if self.heads.get(head)?.biases.is_some() => {
                Arc::make_mut(&mut self.heads)[head]
                    .biases
                    .as_mut()
                    .map(|b| &mut b[p])
            }
            Editable::Weight(..) | Editable::Bias(..) => None,
            Editable::OutputWeight => self.output.as_mut().map(|o| &mut Arc::make_mut(o).w_output),
            Editable::OutputBias if self.output.as_ref()?.b_output.is_some() => {
                Arc::make_mut(self.output.as_mut()?).b_output.as_mut()
            }
            Editable::OutputBias => None,
            Editable::Positions => match &mut self.positions {
                Positions::Learned(t) => Some(t),
                _ => None,
            },
            Editable::SourceEmbedding => self.source.as_mut().map(|s| &mut s.embedding),
        }
    }

    /// Whether a pasted `block` (rectangular, as `read_block` gives) fits with its top-left at
    /// (`row`, `col`) of `target`: a paste that does not fit is refused whole, never clipped
    /// silently. The message says how much room there is.
    pub fn check_paste(
        &self,
        target: Editable,
        row: usize,
        col: usize,
        block: &[Vec<f64>],
    ) -> Result<(), Msg> {
        let (rows, cols) = self.matrix(target).map_or((0, 0), DMatrix::shape);
        let (need_rows, need_cols) = (block.len(), block.first().map_or(0, Vec::len));
        let (room_rows, room_cols) = (rows.saturating_sub(row), cols.saturating_sub(col));
        if need_rows > room_rows || need_cols > room_cols {
            return Err(edits::block_too_big(
                need_rows, need_cols, room_rows, room_cols,
            ));
        }
        Ok(())
    }

    /// Sets one number; positions outside the matrix are ignored.
    pub fn set(&mut self, target: Editable, row: usize, col: usize, value: f64) {
        self.paste(target, row, col, &[vec![value]]);
    }

    /// Writes a block of numbers with its top-left at (`row`, `col`); what falls outside the
    /// matrix is dropped.
    pub fn paste(&mut self, target: Editable, row: usize, col: usize, block: &[Vec<f64>]) {
        let target = self.kv_home(target);
        let Some(m) = self.matrix_mut(target) else {
            return;
        };
        for (i, values) in block.iter().enumerate() {
            for (j, &x) in values.iter().enumerate() {
                if let Some(cell) = m.get_mut((row + i, col + j)) {
                    *cell = x;
                }
            }
        }
        self.share_kv();
    }
}

/// Why `x` may not stand in `target`: not a number, or past the limits a saved state keeps.
fn outside_limits(target: Editable, x: f64) -> Msg {
    let name = match target.head() {
        Some(h) => Arg::from(edits::of_head(target.key(), h + 1)),
        None => Arg::from(target.key()),
    };
    if x.is_finite() {
        // Four figures of the shortest form (Rust's rounding exponent formatter is 3 KB of wasm).
        let shortest = format!("{x:e}");
        let (mantissa, exponent) = shortest.split_once('e').unwrap_or((&shortest, "0"));
        let figures = &mantissa[..mantissa.len().min(5 + usize::from(x < 0.0))];
        edits::would_hold(name, format!("{figures}e{exponent}"))
    } else {
        edits::would_hold_infinite(name)
    }
}
