//! A link's exercises (`ask=`, `predict=`, `goal=`, `lock=`): read and checked against the
//! model, with a message for each entry it cannot take, and written back.

use crate::core::forward::softmax::is_future;
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::{Key, Msg};
use crate::core::model::Matrix;
use crate::core::model::{Editable, Model};
use crate::core::views::pipeline::{in_order, Axes, Shape, Step};

use super::kinds::{leaks, Bound, CellRef, Exercise, Kind};

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

/// `lock=` as a message's example.
const LOCK_EXAMPLE: &str = "lock=embedding,w_value";

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
    pub fn read(&mut self, kind: Kind, text: &str, model: &Model) -> Result<(), Msg> {
        let trace = Trace::of(model);
        let entries: Vec<&str> = text
            .split(';')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .take(MAX_EACH)
            .collect();
        if entries.is_empty() {
            return Err(say::names_nothing(format!(
                "{}={}",
                kind.key(),
                example(kind)
            )));
        }
        // The link's message quotes the whole value: an entry is named only among several.
        let read: Vec<Exercise> = entries
            .iter()
            .map(|entry| {
                read_one(kind, entry, &trace, model.causal).map_err(|e| match entries.len() {
                    1 => e,
                    _ => say::in_entry(crate::core::text::clip(entry), e),
                })
            })
            .collect::<Result<_, _>>()?;
        self.list.retain(|e| e.kind() != kind);
        self.list.extend(read);
        Ok(())
    }

    /// Adds one exercise of `kind` written as the link writes it (`scores.0:6,1`), checked
    /// against `model` as a link's is; one already there is not added twice.
    pub fn add(&mut self, kind: Kind, entry: &str, model: &Model) -> Result<(), Msg> {
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
    pub fn read_locks(&mut self, text: &str, model: &Model) -> Result<(), Msg> {
        let mut locks = Vec::new();
        let names: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            return Err(say::names_nothing(LOCK_EXAMPLE));
        }
        for name in &names {
            let key = lockable().find(|k| k.key() == *name).ok_or_else(|| {
                let list = lockable().map(Matrix::key).collect::<Vec<_>>().join(", ");
                match names.len() {
                    1 => say::not_lockable(list),
                    _ => say::name_not_lockable(crate::core::text::clip(name), list),
                }
            })?;
            if !locks.contains(&key) {
                locks.push(key);
            }
        }
        let free = Editable::EVERY
            .into_iter()
            .any(|e| model.matrix(e).is_some() && !locks.contains(&Matrix::of(e)));
        if !free {
            return Err(say::locks_all(LOCK_EXAMPLE));
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
fn read_one(kind: Kind, entry: &str, trace: &Trace, causal: bool) -> Result<Exercise, Msg> {
    match kind {
        Kind::Ask => {
            let cell = read_cell_ref(entry, trace)?;
            if causal
                && cell.matrix.greys_future()
                && cell.matrix != Matrix::Weights
                && is_future(cell.row, cell.col)
            {
                return Err(say::masked.into());
            }
            Ok(Exercise::Ask(cell))
        }
        Kind::Predict => {
            let bad = || say::not_form("weights[.HEAD]:ROW", example(Kind::Predict));
            let (matrix, row) = entry.split_once(':').ok_or_else(bad)?;
            let (name, head) = head_of(matrix).ok_or_else(bad)?;
            if name != "weights" {
                return Err(bad());
            }
            let row: usize = row.trim().parse().map_err(|_| bad())?;
            let weights = Matrix::Weights
                .in_trace(trace, head)
                .ok_or_else(|| say::no_head(head))?;
            if row >= weights.nrows() {
                return Err(say::row_range(weights.nrows().saturating_sub(1)));
            }
            if causal && row == 0 {
                return Err(say::first_row.into());
            }
            Ok(Exercise::Predict { head, row })
        }
        Kind::Goal => {
            let (cell, bound) = match (entry.split_once(">="), entry.split_once("<=")) {
                (Some((c, x)), None) => (c, x.trim().parse().map(Bound::AtLeast)),
                (None, Some((c, x))) => (c, x.trim().parse().map(Bound::AtMost)),
                _ => {
                    return Err(say::not_goal_form(
                        "MATRIX[.HEAD]:ROW,COL>=X",
                        "<=X",
                        example(Kind::Goal),
                    ))
                }
            };
            let bound = bound
                .ok()
                .filter(|b| match b {
                    Bound::AtLeast(x) | Bound::AtMost(x) => x.is_finite(),
                })
                .ok_or(say::bound_not_number)?;
            let cell = read_cell_ref(cell.trim(), trace)?;
            if cell.matrix.axes() == Axes::QueryByKey && causal && is_future(cell.row, cell.col) {
                return Err(say::masked.into());
            }
            let impossible = cell.matrix.heat() == crate::core::views::heatmap::Heat::Unit
                && match bound {
                    Bound::AtLeast(x) => x > 1.0,
                    Bound::AtMost(x) => x < 0.0,
                };
            if impossible {
                return Err(say::bound_impossible.into());
            }
            if cell.value(trace).is_some_and(|v| bound.met(v)) {
                return Err(say::met_already.into());
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
fn read_cell_ref(entry: &str, trace: &Trace) -> Result<CellRef, Msg> {
    let bad = || say::not_form("MATRIX[.HEAD]:ROW,COL", example(Kind::Ask));
    let (matrix, at) = entry.split_once(':').ok_or_else(bad)?;
    let (name, head) = head_of(matrix.trim()).ok_or_else(bad)?;
    let (row, col) = at.split_once(',').ok_or_else(bad)?;
    let (row, col): (usize, usize) = (
        row.trim().parse().map_err(|_| bad())?,
        col.trim().parse().map_err(|_| bad())?,
    );
    let matrix =
        Matrix::named(name).ok_or_else(|| say::no_matrix(crate::core::text::clip(name)))?;
    if matrix.editable(0).is_some() {
        return Err(say::set_not_computed(matrix.key()));
    }
    let head = matrix.pick().map(|_| head);
    if let Some(h) = head {
        if h >= trace.heads.len() {
            return Err(say::head_range(trace.heads.len() - 1));
        }
    }
    let m = matrix
        .in_trace(trace, head.unwrap_or(0))
        .ok_or_else(|| say::not_computed(matrix.key()))?;
    if row >= m.nrows() || col >= m.ncols() {
        return Err(say::outside(m.nrows(), m.ncols()));
    }
    Ok(CellRef {
        matrix,
        head,
        row,
        col,
    })
}
