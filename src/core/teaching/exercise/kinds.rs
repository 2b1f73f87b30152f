//! What an exercise is: a cell of a computed matrix (`scores.0:6,1`), the three kinds, a goal's
//! bound, and how each reads, scores and finishes.

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::{Arg, Key, Msg};
use crate::core::model::Matrix;
use crate::core::views::pipeline::{Axes, Step};

use super::progress::{Outcome, Progress};

/// Wrong answers before a cell is revealed.
pub const TRIES: u32 = 3;

/// One cell of a computed matrix: `scores.0:6,1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellRef {
    /// The matrix.
    pub matrix: Matrix,
    /// Its head, for a head's matrix.
    pub head: Option<usize>,
    /// The row.
    pub row: usize,
    /// The column.
    pub col: usize,
}

/// A goal's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// `>=X`.
    AtLeast(f64),
    /// `<=X`.
    AtMost(f64),
}

impl Bound {
    /// Whether `value` meets it.
    pub fn met(self, value: f64) -> bool {
        match self {
            Bound::AtLeast(x) => value >= x,
            Bound::AtMost(x) => value <= x,
        }
    }

    /// `>=0.5`, as the link writes it.
    pub fn text(self) -> String {
        match self {
            Bound::AtLeast(x) => format!(">={x}"),
            Bound::AtMost(x) => format!("<={x}"),
        }
    }
}

/// One exercise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exercise {
    /// Compute a cell: it shows an answer field until it is right or revealed.
    Ask(CellRef),
    /// Which key gets the largest weight in a row of a head: hidden until predicted.
    Predict {
        /// The head.
        head: usize,
        /// The query's row.
        row: usize,
    },
    /// Edit until a cell is at least or at most a bound.
    Goal(CellRef, Bound),
}

/// What kind an exercise is, as results name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `ask=`.
    Ask,
    /// `predict=`.
    Predict,
    /// `goal=`.
    Goal,
}

impl Kind {
    /// Every kind, in the order a link writes them.
    pub const ALL: [Kind; 3] = [Kind::Ask, Kind::Predict, Kind::Goal];

    /// `ask`, `predict` or `goal`: its parameter and `data-kind`.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Ask => "ask",
            Kind::Predict => "predict",
            Kind::Goal => "goal",
        }
    }
}

impl CellRef {
    /// `scores.0:6,1` (the head only for a head's matrix).
    pub fn text(&self) -> String {
        match self.head {
            Some(h) => format!("{}.{h}:{},{}", self.matrix.key(), self.row, self.col),
            None => format!("{}:{},{}", self.matrix.key(), self.row, self.col),
        }
    }

    /// Its value in `trace`, while the model still has the cell.
    pub fn value(&self, trace: &Trace) -> Option<f64> {
        let m = self.matrix.in_trace(trace, self.head.unwrap_or(0))?;
        (self.row < m.nrows() && self.col < m.ncols()).then(|| m[(self.row, self.col)])
    }

    /// "scores, head 0, she → dog" or "queries Q, head 0, row she, column 1", for the page.
    pub fn describe(&self, trace: &Trace) -> Msg {
        let word = |i: usize| word(trace, i);
        let title = || title(self.matrix);
        let (row, col) = (self.row, self.col);
        match (self.matrix.axes(), self.head) {
            (Axes::QueryByKey, Some(h)) => say::cell_pair_of_head(title(), h, word(row), word(col)),
            (Axes::QueryByKey, None) => say::cell_pair(title(), word(row), word(col)),
            (_, Some(h)) => say::cell_row_of_head(title(), h, row, word(row), col),
            (_, None) => say::cell_row(title(), row, word(row), col),
        }
    }
}

/// Token `i`'s word in `trace`, or "word i" past the end (the sentence got shorter).
pub(super) fn word(trace: &Trace, i: usize) -> Arg {
    match trace.tokens.words.get(i) {
        Some(w) => w.into(),
        None => say::word_at(i).into(),
    }
}

/// A matrix's title in a message: words in the learner's language, a symbol as it is.
pub(super) fn title(matrix: Matrix) -> Arg {
    match matrix.title_key() {
        Some(key) => key.into(),
        None => matrix.title().into(),
    }
}

/// The matrices of a head whose rows give a predicted row's weights away.
pub const PREDICTED: [Matrix; 3] = [
    Matrix::Weights,
    Matrix::MaskedWeightsSimple,
    Matrix::MaskedWeightsRenormalized,
];

/// The matrices whose cell gives `matrix`'s away at a glance: the same number (the masked
/// scores are the scaled ones on the cells the mask leaves; the renormalized weights are the
/// weights), or one multiplication apart (a score is its scaled score times √dₖ, shown beside).
pub fn gives_away(matrix: Matrix) -> &'static [Matrix] {
    match matrix {
        Matrix::Scores => &[Matrix::ScaledScores, Matrix::MaskedScores],
        Matrix::ScaledScores => &[Matrix::Scores, Matrix::MaskedScores],
        Matrix::MaskedScores => &[Matrix::Scores, Matrix::ScaledScores],
        Matrix::Weights => &[Matrix::MaskedWeightsRenormalized],
        Matrix::MaskedWeightsRenormalized => &[Matrix::Weights],
        _ => &[],
    }
}

/// The steps whose numbers give an asked cell of `matrix` back in one step of arithmetic,
/// with how: the page hides the twins of [`gives_away`], not these, so the maker warns when an
/// embed shows them.
pub fn leaks(matrix: Matrix) -> &'static [(Step, Key)] {
    match matrix {
        Matrix::Scores | Matrix::ScaledScores | Matrix::MaskedScores => {
            &[(Step::Softmax, say::leak_from_weights)]
        }
        Matrix::Queries | Matrix::Keys => &[
            (Step::Scores, say::leak_from_scores),
            (Step::Scale, say::leak_from_scores),
            (Step::Mask, say::leak_from_scores),
        ],
        Matrix::Values => &[(Step::Context, say::leak_from_context)],
        Matrix::Weight(_) | Matrix::Bias(_) => &[(Step::Qkv, say::leak_from_projected)],
        Matrix::Context => &[(Step::OutProj, say::leak_from_output)],
        _ => &[],
    }
}

impl Exercise {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Exercise::Ask(_) => Kind::Ask,
            Exercise::Predict { .. } => Kind::Predict,
            Exercise::Goal(..) => Kind::Goal,
        }
    }

    /// Its name in results and `data-exercise`: the entry as the link writes it
    /// (`scores.0:6,1`, `weights.0:6`, `weights.0:6,4>=0.5`).
    pub fn id(&self) -> String {
        match self {
            Exercise::Ask(cell) => cell.text(),
            Exercise::Predict { head, row } => format!("weights.{head}:{row}"),
            Exercise::Goal(cell, bound) => format!("{}{}", cell.text(), bound.text()),
        }
    }

    /// Whether what it hid may be shown: an answer once right or revealed, a row once
    /// predicted (right or not), a goal's cell always.
    pub fn shown(&self, progress: &Progress) -> bool {
        match self {
            Exercise::Ask(_) => progress.done(),
            Exercise::Predict { .. } => progress.attempts > 0,
            Exercise::Goal(..) => true,
        }
    }

    /// Its score, from 0 to 1: a right answer loses a quarter for each wrong one before it; a
    /// right prediction and a goal met score 1.
    pub fn score(&self, progress: &Progress) -> f64 {
        match (self, progress.outcome) {
            (Exercise::Ask(_), Outcome::Correct) => {
                (1.0 - 0.25 * f64::from(progress.attempts.saturating_sub(1))).max(0.0)
            }
            (_, Outcome::Correct) => 1.0,
            _ => 0.0,
        }
    }

    /// Whether the learner is through with it: answered right or revealed, predicted, the
    /// goal met.
    pub fn finished(&self, progress: &Progress) -> bool {
        match self {
            Exercise::Goal(..) => progress.outcome == Outcome::Correct,
            _ => self.shown(progress),
        }
    }

    /// The step whose section shows it.
    pub fn step(&self) -> Step {
        match self {
            Exercise::Ask(cell) | Exercise::Goal(cell, _) => cell.matrix.step(),
            Exercise::Predict { .. } => Step::Softmax,
        }
    }

    /// The head it is about (None: the heads' joined output).
    pub fn head(&self) -> Option<usize> {
        match self {
            Exercise::Ask(cell) | Exercise::Goal(cell, _) => cell.head,
            Exercise::Predict { head, .. } => Some(*head),
        }
    }

    /// The question, in words.
    pub fn question(&self, trace: &Trace) -> Msg {
        match self {
            Exercise::Ask(cell) => say::ask_question(cell.describe(trace)),
            Exercise::Predict { head, row } => say::predict_question(word(trace, *row), head),
            Exercise::Goal(cell, Bound::AtLeast(x)) => say::goal_at_least(cell.describe(trace), x),
            Exercise::Goal(cell, Bound::AtMost(x)) => say::goal_at_most(cell.describe(trace), x),
        }
    }
}
