//! A link's exercises (`ask=`, `predict=`, `goal=`, `lock=`): read and checked against the
//! model, with a message for each entry it cannot take, and written back.

use crate::core::forward::softmax::is_future;
use crate::core::forward::trace::Trace;
use crate::core::i18n::Key;
use crate::core::model::Matrix;
use crate::core::model::{Editable, Model};
use crate::core::views::pipeline::{in_order, Axes, Shape, Step};

use super::kinds::{leaks, Bound, CellRef, Exercise, Kind};

/// What a refused cell's message suggests instead.
const COMPUTED: &str = "use one the page computes, as queries, scores, weights, context";
/// Why a cell above the diagonal under the causal mask is refused.
const MASKED: &str =
    "the cell is masked (its key comes after its query): use one on or below the diagonal";
/// Most exercises of each kind a link may hold.
const MAX_EACH: usize = 16;

/// One entry of each kind, for a message: `ask=`, `predict=`, `goal=`.
fn example(kind: Kind) -> &'static str {
    match kind {
        Kind::Ask => "scores.0:6,1",
        Kind::Predict => "weights.0:6",
        Kind::Goal => "weights.0:6,4>=0.5",
    }
}

/// The exercises of a link and what they lock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exercises {
    /// In the order read (the link's, or the order made).
    pub list: Vec<Exercise>,
    /// The matrices the learner may not edit (`Weight(Value)`: every head's).
    pub locks: Vec<Matrix>,
}

/// The matrices `lock=` takes (by their keys): the kinds of editable matrices.
pub fn lockable() -> impl Iterator<Item = Matrix> {
    Editable::EVERY.into_iter().map(Matrix::of)
}

impl Exercises {
    /// The goals `trace` meets, by their place in the list, with the value each reached.
    pub fn goals_met<'a>(&'a self, trace: &'a Trace) -> impl Iterator<Item = (usize, f64)> + 'a {
        self.list.iter().enumerate().filter_map(|(k, e)| match e {
            Exercise::Goal(cell, bound) => {
                let v = cell.value(trace)?;
                bound.met(v).then_some((k, v))
            }
            _ => None,
        })
    }

    /// Whether the link asks nothing.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.locks.is_empty()
    }

    /// The exercises of one kind.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Exercise> {
        self.list.iter().filter(move |e| e.kind() == kind)
    }

    /// Replaces the exercises of `kind` by those of `text` (`;`-separated), checked against
    /// `model`; the error names the entry and what is allowed.
    pub fn read(&mut self, kind: Kind, text: &str, model: &Model) -> Result<(), String> {
        let trace = Trace::of(model);
        let entries: Vec<&str> = text
            .split(';')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .take(MAX_EACH)
            .collect();
        if entries.is_empty() {
            return Err(format!(
                "it names nothing (as {}={})",
                kind.key(),
                example(kind)
            ));
        }
        // The link's message quotes the whole value: an entry is named only among several.
        let read: Vec<Exercise> = entries
            .iter()
            .map(|entry| {
                read_one(kind, entry, &trace, model.causal).map_err(|e| match entries.len() {
                    1 => e,
                    _ => format!("{}: {e}", crate::core::text::clip(entry)),
                })
            })
            .collect::<Result<_, _>>()?;
        self.list.retain(|e| e.kind() != kind);
        self.list.extend(read);
        Ok(())
    }

    /// Adds one exercise of `kind` written as the link writes it (`scores.0:6,1`), checked
    /// against `model` as a link's is; one already there is not added twice.
    pub fn add(&mut self, kind: Kind, entry: &str, model: &Model) -> Result<(), String> {
        let exercise = read_one(kind, entry, &Trace::of(model), model.causal)?;
        if !self.list.contains(&exercise) {
            self.list.push(exercise);
        }
        Ok(())
    }

    /// `ask=`, `predict=` or `goal=` as [`Exercises::read`] reads it; `None` without any.
    pub fn write(&self, kind: Kind) -> Option<String> {
        let each: Vec<String> = self.of(kind).map(Exercise::id).collect();
        (!each.is_empty()).then(|| each.join(";"))
    }

    /// Reads `lock=embedding,w_value`; refused when it would leave `model` nothing to edit.
    pub fn read_locks(&mut self, text: &str, model: &Model) -> Result<(), String> {
        let mut locks = Vec::new();
        let names: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            return Err("it names nothing (as lock=embedding,w_value)".into());
        }
        for name in &names {
            let key = lockable().find(|k| k.key() == *name).ok_or_else(|| {
                format!(
                    "{} not a matrix the learner edits (use {})",
                    match names.len() {
                        1 => "it is".to_owned(),
                        _ => format!("“{}” is", crate::core::text::clip(name)),
                    },
                    lockable().map(Matrix::key).collect::<Vec<_>>().join(", ")
                )
            })?;
            if !locks.contains(&key) {
                locks.push(key);
            }
        }
        let free = Editable::EVERY
            .into_iter()
            .any(|e| model.matrix(e).is_some() && !locks.contains(&Matrix::of(e)));
        if !free {
            return Err(
                "it locks every matrix of the model: leave one free (as lock=embedding,w_value)"
                    .into(),
            );
        }
        self.locks = lockable().filter(|k| locks.contains(k)).collect();
        Ok(())
    }

    /// `lock=`, in [`Editable::EVERY`]'s order; `None` when nothing is locked.
    pub fn write_locks(&self) -> Option<String> {
        (!self.locks.is_empty()).then(|| {
            let keys: Vec<&str> = self.locks.iter().map(|m| m.key()).collect();
            keys.join(",")
        })
    }

    /// Whether `matrix` is locked.
    pub fn locked(&self, matrix: Matrix) -> bool {
        self.locks.contains(&matrix)
    }

    /// The steps where the learner may edit towards `goal`: those of the matrices not locked
    /// (on a page of `shape`), where its live value is shown too. None for another kind.
    pub fn reached_through(&self, exercise: &Exercise, shape: Shape) -> Vec<Step> {
        if exercise.kind() != Kind::Goal {
            return Vec::new();
        }
        in_order(|step| {
            step.on_page(shape)
                && Editable::EVERY
                    .into_iter()
                    .filter(|&e| e != Editable::SourceEmbedding || shape.source)
                    .any(|e| !self.locked(Matrix::of(e)) && Matrix::of(e).step() == step)
        })
    }

    /// The steps an embed of these exercises needs, in pipeline order: each one's own and the
    /// step before it (what it is computed from), and for a goal the steps it is reached
    /// through; on a page of `shape`.
    pub fn steps(&self, shape: Shape) -> Vec<Step> {
        let on_page: Vec<Step> = in_order(|s| s.on_page(shape));
        let mut needed: Vec<Step> = Vec::new();
        for e in &self.list {
            let own = e.step();
            needed.push(own);
            if let Some(k) = on_page.iter().position(|&s| s == own) {
                needed.extend(k.checked_sub(1).map(|b| on_page[b]));
            }
            needed.extend(self.reached_through(e, shape));
        }
        in_order(|s| on_page.contains(&s) && needed.contains(&s))
    }

    /// The asked cells that the steps `shown` give away ([`leaks`]): the exercise, the step and
    /// how.
    pub fn leaked_by(&self, shown: &[Step]) -> Vec<(Exercise, Step, Key)> {
        let mut leaked = Vec::new();
        for e in &self.list {
            if let Exercise::Ask(cell) = e {
                leaked.extend(
                    leaks(cell.matrix)
                        .iter()
                        .filter(|(step, _)| shown.contains(step))
                        .map(|&(step, how)| (*e, step, how)),
                );
            }
        }
        leaked
    }

    /// Whether a head's row of weights is hidden until predicted (while `open`).
    pub fn predicts(&self, head: usize, row: usize) -> bool {
        self.list.contains(&Exercise::Predict { head, row })
    }
}

/// One entry; the message does not repeat it (the link's quotes it, the maker picked it).
fn read_one(kind: Kind, entry: &str, trace: &Trace, causal: bool) -> Result<Exercise, String> {
    match kind {
        Kind::Ask => {
            let cell = read_cell_ref(entry, trace)?;
            if causal
                && cell.matrix.greys_future()
                && cell.matrix != Matrix::Weights
                && is_future(cell.row, cell.col)
            {
                return Err(MASKED.into());
            }
            Ok(Exercise::Ask(cell))
        }
        Kind::Predict => {
            let bad = || "it is not weights[.HEAD]:ROW (as weights.0:6)".to_owned();
            let (matrix, row) = entry.split_once(':').ok_or_else(bad)?;
            let (name, head) = head_of(matrix).ok_or_else(bad)?;
            if name != "weights" {
                return Err(bad());
            }
            let row: usize = row.trim().parse().map_err(|_| bad())?;
            let weights = Matrix::Weights
                .in_trace(trace, head)
                .ok_or_else(|| format!("the model has no head {head}"))?;
            if row >= weights.nrows() {
                return Err(format!(
                    "use a row from 0 to {}",
                    weights.nrows().saturating_sub(1)
                ));
            }
            if causal && row == 0 {
                return Err(
                    "under the causal mask the first word sees only itself; predict a later row"
                        .into(),
                );
            }
            Ok(Exercise::Predict { head, row })
        }
        Kind::Goal => {
            let (cell, bound) = match (entry.split_once(">="), entry.split_once("<=")) {
                (Some((c, x)), None) => (c, x.trim().parse().map(Bound::AtLeast)),
                (None, Some((c, x))) => (c, x.trim().parse().map(Bound::AtMost)),
                _ => {
                    return Err(
                        "it is not MATRIX[.HEAD]:ROW,COL>=X or <=X (as weights.0:6,4>=0.5)".into(),
                    )
                }
            };
            let bound = bound
                .ok()
                .filter(|b| match b {
                    Bound::AtLeast(x) | Bound::AtMost(x) => x.is_finite(),
                })
                .ok_or("the bound is not a number")?;
            let cell = read_cell_ref(cell.trim(), trace)?;
            if cell.matrix.axes() == Axes::QueryByKey && causal && is_future(cell.row, cell.col) {
                return Err(MASKED.into());
            }
            let impossible = cell.matrix.heat() == crate::core::views::heatmap::Heat::Unit
                && match bound {
                    Bound::AtLeast(x) => x > 1.0,
                    Bound::AtMost(x) => x < 0.0,
                };
            if impossible {
                return Err("a weight is between 0 and 1, so this bound cannot be met".into());
            }
            if cell.value(trace).is_some_and(|v| bound.met(v)) {
                return Err("the model meets it already, so there is nothing to reach".into());
            }
            Ok(Exercise::Goal(cell, bound))
        }
    }
}

/// `scores.1` → (scores, 1); `scores` → (scores, 0).
fn head_of(text: &str) -> Option<(&str, usize)> {
    match text.split_once('.') {
        Some((name, h)) => Some((name, h.trim().parse().ok()?)),
        None => Some((text, 0)),
    }
}

/// `MATRIX[.HEAD]:ROW,COL` of a computed matrix that `trace` has.
fn read_cell_ref(entry: &str, trace: &Trace) -> Result<CellRef, String> {
    let bad = || "it is not MATRIX[.HEAD]:ROW,COL (as scores.0:6,1)".to_owned();
    let (matrix, at) = entry.split_once(':').ok_or_else(bad)?;
    let (name, head) = head_of(matrix.trim()).ok_or_else(bad)?;
    let (row, col) = at.split_once(',').ok_or_else(bad)?;
    let (row, col): (usize, usize) = (
        row.trim().parse().map_err(|_| bad())?,
        col.trim().parse().map_err(|_| bad())?,
    );
    let matrix = Matrix::named(name).ok_or_else(|| {
        format!(
            "there is no matrix “{}” ({COMPUTED})",
            crate::core::text::clip(name)
        )
    })?;
    if matrix.editable(0).is_some() {
        return Err(format!(
            "{} is a number the learner sets, not one to compute ({COMPUTED})",
            matrix.key()
        ));
    }
    let head = matrix.pick().map(|_| head);
    if let Some(h) = head {
        if h >= trace.heads.len() {
            return Err(format!("use a head from 0 to {}", trace.heads.len() - 1));
        }
    }
    let m = matrix
        .in_trace(trace, head.unwrap_or(0))
        .ok_or_else(|| format!("this model does not compute {}", matrix.key()))?;
    if row >= m.nrows() || col >= m.ncols() {
        return Err(format!(
            "the cell is outside the {} × {} matrix",
            m.nrows(),
            m.ncols()
        ));
    }
    Ok(CellRef {
        matrix,
        head,
        row,
        col,
    })
}
