//! The checking rule: an answer right within the decimals shown, three tries, hints from the
//! numbers on the page, predictions, and a revealed cell worked out.

use crate::core::document::numbers::{read_cell, CellText};
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::{Arg, Msg};
use crate::core::model::Matrix;
use crate::core::model::Scale;
use crate::core::text::fmt;

use super::kinds::{title, word, CellRef, Exercise, TRIES};
use super::progress::{Outcome, Progress};
use super::result::Expected;

/// The decimals the tolerance counts at most: a learner working from the page's four decimals
/// rounds to two, and must not be marked wrong for it.
const TOLERANCE_DECIMALS: usize = 2;
/// The relative part of the tolerance (0.1 %).
const RELATIVE_TOLERANCE: f64 = 1e-3;

/// What checking an answer said.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Right.
    Right,
    /// Not yet, with a hint.
    NotYet(Msg),
    /// Wrong the last time: the cell is revealed.
    Revealed,
}

/// Whether `answer` is `expected`: within half a unit of the last decimal shown (`decimals`,
/// counting at most two) or 0.1 % of the value, whichever is larger.
pub fn is_right(answer: f64, expected: f64, decimals: usize) -> bool {
    if expected.is_infinite() {
        return answer == expected;
    }
    let unit = 0.5 * 10f64.powi(-(decimals.min(TOLERANCE_DECIMALS) as i32));
    (answer - expected).abs() <= unit.max(RELATIVE_TOLERANCE * expected.abs())
}

/// Reads a typed answer as a cell reads a number ("−∞" too, for a masked score).
pub fn read_answer(text: &str) -> Result<f64, Msg> {
    let t = text.trim();
    if matches!(t, "−∞" | "-∞" | "-inf" | "−inf") {
        return Ok(f64::NEG_INFINITY);
    }
    match read_cell(t) {
        CellText::Number(x) => Ok(x),
        CellText::Incomplete => Err(say::type_first.into()),
        CellText::Invalid(message) => Err(message),
    }
}

/// Checks `text` for the ask of `cell` on `trace` (`decimals` shown) and moves `progress` on:
/// a parse error is returned and costs no try.
pub fn check(
    cell: &CellRef,
    trace: &Trace,
    decimals: usize,
    text: &str,
    progress: &mut Progress,
) -> Result<Verdict, Msg> {
    if progress.done() {
        return Err(say::done_already.into());
    }
    let answer = read_answer(text)?;
    let expected = cell.value(trace).ok_or(say::cell_gone)?;
    progress.attempts = progress.attempts.saturating_add(1);
    progress.response = Some(text.trim().to_owned());
    Ok(if is_right(answer, expected, decimals) {
        progress.outcome = Outcome::Correct;
        Verdict::Right
    } else if progress.attempts >= TRIES {
        progress.outcome = Outcome::Revealed;
        Verdict::Revealed
    } else {
        progress.outcome = Outcome::Incorrect;
        Verdict::NotYet(hint(cell, trace, decimals))
    })
}

/// A hint that helps without telling: the formula, and the numbers from visible cells that go
/// into it (a dot product's factors, not their sum); where those are missing, the step that
/// computes it.
pub fn hint(cell: &CellRef, trace: &Trace, decimals: usize) -> Msg {
    specific_hint(cell, trace, decimals)
        .unwrap_or_else(|| say::hint_step(cell.matrix.step().title(), title(cell.matrix)))
}

/// [`hint`]'s formula and numbers, for a matrix that has them.
fn specific_hint(cell: &CellRef, trace: &Trace, decimals: usize) -> Option<Msg> {
    let p = decimals.max(2);
    let n = |x: f64| fmt(x, p);
    let (h, i, j) = (cell.head.unwrap_or(0), cell.row, cell.col);
    let word = |i: usize| word(trace, i);
    let head = trace.heads.get(h);
    // Past the matrix's rows (a cell of another shape), no numbers rather than a panic.
    let row_of = |m: &nalgebra::DMatrix<f64>, r: usize| -> Vec<String> {
        if r >= m.nrows() {
            return Vec::new();
        }
        m.row(r).iter().map(|&x| n(x)).collect()
    };
    // A key's word: the source's with cross-attention.
    let key_word = |j: usize| -> Arg {
        match trace.key_tokens().words.get(j) {
            Some(w) => w.into(),
            None => say::word_at(j).into(),
        }
    };
    Some(match cell.matrix {
        Matrix::Scores => {
            let t = trace.score_terms(h, i, j)?;
            let factors: Vec<String> = t
                .terms
                .iter()
                .map(|(q, k)| format!("{} × {}", n(*q), n(*k)))
                .collect();
            say::hint_score(word(i), key_word(j), factors.join(" + "))
        }
        Matrix::ScaledScores => match (head?, trace.scale()) {
            (_, Scale::None) => say::hint_unscaled(word(i), word(j)),
            (t, scale) => say::hint_scaled(
                word(i),
                word(j),
                n(t.scores[(i, j)]),
                scale.symbol(),
                t.keys.ncols(),
            ),
        },
        Matrix::MaskedScores => say::hint_masked.into(),
        Matrix::Weights => say::hint_weight(word(i), row_of(&head?.masked_scores, i).join(", ")),
        Matrix::Queries | Matrix::Keys | Matrix::Values => {
            let x = trace.positioned.as_ref().unwrap_or(&trace.embedded);
            // Keys and values come from the source's rows with cross-attention.
            let (x, word) = match (&trace.source, cell.matrix) {
                (Some((_, s)), Matrix::Keys | Matrix::Values) => (s, key_word(i)),
                _ => (x, word(i)),
            };
            let w = match cell.matrix {
                Matrix::Queries => "W_query",
                Matrix::Keys => "W_key",
                _ => "W_value",
            };
            say::hint_projection(word, row_of(x, i).join(", "), j, w)
        }
        Matrix::Context => {
            let t = head?;
            let terms: Vec<String> = (0..t.values.nrows())
                .map(|k| format!("{} × {}", n(t.weights[(i, k)]), n(t.values[(k, j)])))
                .collect();
            say::hint_context(j, terms.join(" + "))
        }
        _ => return None,
    })
}

/// Records the prediction that `choice` gets the largest weight in `row` of `head`; the
/// verdict is whether it does.
pub fn predict(
    head: usize,
    row: usize,
    trace: &Trace,
    choice: usize,
    progress: &mut Progress,
) -> Result<bool, Msg> {
    if progress.attempts > 0 {
        return Err(say::predicted_already.into());
    }
    let best = largest(trace, head, row).ok_or(say::row_gone)?;
    // The keys: the source's words with cross-attention.
    let keys = trace.key_tokens().len();
    if choice >= keys {
        return Err(say::word_range(keys - 1));
    }
    // Equal weights (as a row that sees one word): either word of the largest is right.
    let w = &trace.heads[head].weights;
    let right = w[(row, choice)] >= w[(row, best)];
    progress.attempts = 1;
    progress.response = Some(trace.key_tokens().words[choice].clone());
    progress.outcome = if right {
        Outcome::Correct
    } else {
        Outcome::Incorrect
    };
    Ok(right)
}

/// The key a row of weights gives the most weight: the first of tied keys, as every view names
/// it ([`crate::core::teaching::labs::largest`]).
pub fn largest(trace: &Trace, head: usize, row: usize) -> Option<usize> {
    let weights = &trace.heads.get(head)?.weights;
    (row < weights.nrows())
        .then(|| crate::core::teaching::labs::largest(weights.row(row).iter().copied()))?
        .map(|(k, _)| k)
}

impl Exercise {
    /// Its answer now: a cell's value (a goal's now), or the word a row attends to most.
    pub fn expected(&self, trace: &Trace) -> Option<Expected> {
        match self {
            Exercise::Ask(cell) | Exercise::Goal(cell, _) => {
                cell.value(trace).map(Expected::Number)
            }
            // The result's JSON is English, as the scripting API's.
            Exercise::Predict { head, row } => largest(trace, *head, *row).map(|k| {
                Expected::Word(match word(trace, k) {
                    Arg::Text(w) => w,
                    Arg::Msg(m) => m.english(),
                })
            }),
        }
    }
}

/// An asked cell worked out, once revealed: a score's products and sum, a context row's
/// weighted sum (the page's own breakdowns), else the cell and its value.
pub fn worked(cell: &CellRef, trace: &Trace, decimals: usize) -> Arg {
    let value = cell
        .value(trace)
        .map(|v| fmt(v, decimals))
        .unwrap_or_default();
    match (cell.matrix, cell.head) {
        (Matrix::Scores, Some(h)) => trace
            .score_terms(h, cell.row, cell.col)
            .map_or(value, |t| t.describe(decimals))
            .into(),
        (Matrix::Context, Some(h)) => match trace.context_terms(h, cell.row) {
            Some(t) => say::worked_context(t.describe(decimals), cell.col, value).into(),
            None => value.into(),
        },
        _ => say::worked_cell(cell.describe(trace), value).into(),
    }
}
