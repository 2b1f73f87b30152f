//! What the page hides while exercises are open: an asked cell's answer field, every number that
//! equals it or gives it in one step (the scaled and masked scores beside a score, the rest of
//! an asked weight's row, an asked context row in the concatenation and the output), and a
//! predicted row, until each is answered or shown.

use crate::core::model::Matrix;

use super::kinds::{gives_away, Exercise, PREDICTED};
use super::params::Exercises;
use super::progress::Progress;

/// What a matrix view hides while an exercise is open: cells with an answer field (by row,
/// column and exercise) and rows hidden until predicted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cover {
    /// (row, column, exercise index) of each open answer.
    pub answers: Vec<(usize, usize, usize)>,
    /// Rows hidden until a prediction (or an answer within them).
    pub rows: Vec<usize>,
    /// Cells that show an asked number under another name, hidden until it is answered.
    pub cells: Vec<(usize, usize)>,
}

impl Cover {
    /// Whether nothing is covered.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty() && self.rows.is_empty() && self.cells.is_empty()
    }

    /// The exercise whose answer field cell (`i`, `j`) holds, if any.
    pub fn answer_at(&self, i: usize, j: usize) -> Option<usize> {
        self.answers
            .iter()
            .find(|&&(r, c, _)| (r, c) == (i, j))
            .map(|&(_, _, e)| e)
    }

    /// As a table without answer fields shows it (a lab's): the answers are hidden cells.
    pub fn without_answers(mut self) -> Cover {
        self.cells
            .extend(self.answers.drain(..).map(|(i, j, _)| (i, j)));
        self
    }

    /// Whether cell (`i`, `j`) shows no number.
    pub fn covers(&self, i: usize, j: usize) -> bool {
        self.rows.contains(&i) || self.cells.contains(&(i, j)) || self.answer_at(i, j).is_some()
    }
}

impl Exercises {
    /// What `matrix` (of `head`) hides now, with each exercise's `progress` (in `list`'s order).
    pub fn cover(&self, progress: &[Progress], matrix: Matrix, head: Option<usize>) -> Cover {
        let mut cover = Cover::default();
        for (k, (e, p)) in self.list.iter().zip(progress).enumerate() {
            if e.shown(p) {
                continue;
            }
            // A row of weights sums to 1: its other weights give an asked one away.
            let row_of_weights = |cell: super::kinds::CellRef| {
                PREDICTED.contains(&cell.matrix) && PREDICTED.contains(&matrix)
            };
            match *e {
                Exercise::Ask(cell) if cell.matrix == matrix && cell.head == head => {
                    cover.answers.push((cell.row, cell.col, k));
                    if row_of_weights(cell) {
                        cover.rows.push(cell.row);
                    }
                }
                // The same number elsewhere, or one a step from it: a hidden cell (a row of
                // weights).
                Exercise::Ask(cell)
                    if cell.head == head && gives_away(cell.matrix).contains(&matrix) =>
                {
                    if row_of_weights(cell) {
                        cover.rows.push(cell.row);
                    } else {
                        cover.cells.push((cell.row, cell.col));
                    }
                }
                // A context row is a block of the concatenation's row.
                Exercise::Ask(cell)
                    if cell.matrix == Matrix::Context
                        && matches!(matrix, Matrix::Concatenated | Matrix::Output) =>
                {
                    cover.rows.push(cell.row);
                }
                Exercise::Predict { head: h, row }
                    if head == Some(h) && PREDICTED.contains(&matrix) =>
                {
                    cover.rows.push(row);
                }
                _ => {}
            }
        }
        cover
    }

    /// Whether row `row` of `head`'s weights is still hidden, predicted or with an asked
    /// weight: the attention lines, the heads' picture and the context's words wait for it too.
    pub fn hides_row(&self, progress: &[Progress], head: usize, row: usize) -> bool {
        self.list.iter().zip(progress).any(|(e, p)| {
            let here = match e {
                Exercise::Predict { head: h, row: r } => (*h, *r) == (head, row),
                Exercise::Ask(c) => {
                    PREDICTED.contains(&c.matrix) && (c.head, c.row) == (Some(head), row)
                }
                Exercise::Goal(..) => false,
            };
            here && !e.shown(p)
        })
    }

    /// Whether a prediction is still open (the heads' thumbnails wait for it).
    pub fn predicting(&self, progress: &[Progress]) -> bool {
        self.list
            .iter()
            .zip(progress)
            .any(|(e, p)| matches!(e, Exercise::Predict { .. }) && !e.shown(p))
    }
}
