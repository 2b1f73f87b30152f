//! Exercises a teacher puts in a link: compute a cell (`ask=`), predict a row before seeing it
//! (`predict=`), reach a goal by editing (`goal=`, with `lock=` naming what stays fixed). Their
//! parameters, the checking rule, the hints, each one's progress and the result a page reports
//! (with its xAPI statement) live here; the page only shows them.

use crate::core::document::numbers::{read_cell, CellText};
use crate::core::forward::softmax::is_future;
use crate::core::forward::trace::Trace;
use crate::core::model::{Editable, Model, Scale};
use crate::core::text::fmt;
use crate::core::views::pipeline::{Axes, Matrix, Step};

/// What a refused cell's message suggests instead.
const COMPUTED: &str = "use one the page computes, as queries, scores, weights, context";
/// Why a cell above the diagonal under the causal mask is refused.
const MASKED: &str =
    "the cell is masked (its key comes after its query): use one on or below the diagonal";

/// Most exercises of each kind a link may hold.
const MAX_EACH: usize = 16;
/// Wrong answers before a cell is revealed.
pub const TRIES: u32 = 3;
/// The decimals the tolerance counts at most: a learner working from the page's four decimals
/// rounds to two, and must not be marked wrong for it.
const TOLERANCE_DECIMALS: usize = 2;
/// The relative part of the tolerance (0.1 %).
const RELATIVE_TOLERANCE: f64 = 1e-3;

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

    /// "at least 0.5", for the page.
    pub fn words(self) -> String {
        match self {
            Bound::AtLeast(x) => format!("at least {x}"),
            Bound::AtMost(x) => format!("at most {x}"),
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
    pub fn describe(&self, trace: &Trace) -> String {
        let word = |i: usize| word(trace, i);
        let head = self.head.map(|h| format!(", head {h}")).unwrap_or_default();
        let title = self.matrix.title();
        match self.matrix.axes() {
            Axes::QueryByKey => format!("{title}{head}, {} → {}", word(self.row), word(self.col)),
            _ => format!(
                "{title}{head}, row {} ({}), column {}",
                self.row,
                word(self.row),
                self.col
            ),
        }
    }
}

/// Token `i`'s word in `trace`, or "word i" past the end (the sentence got shorter).
fn word(trace: &Trace, i: usize) -> String {
    trace
        .tokens
        .words
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("word {i}"))
}

/// The matrices of a head whose rows give a predicted row's weights away.
pub const PREDICTED: [Matrix; 3] = [
    Matrix::Weights,
    Matrix::MaskedWeightsSimple,
    Matrix::MaskedWeightsRenormalized,
];

/// The matrices that show the same numbers as `matrix` (on the cells a causal mask leaves).
pub fn twins(matrix: Matrix) -> &'static [Matrix] {
    match matrix {
        Matrix::ScaledScores => &[Matrix::MaskedScores],
        Matrix::MaskedScores => &[Matrix::ScaledScores],
        Matrix::Weights => &[Matrix::MaskedWeightsRenormalized],
        Matrix::MaskedWeightsRenormalized => &[Matrix::Weights],
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

    /// The question, in words.
    pub fn question(&self, trace: &Trace) -> String {
        let word = |i: usize| word(trace, i);
        match self {
            Exercise::Ask(cell) => format!(
                "Compute {} by hand, and type it in its cell.",
                cell.describe(trace)
            ),
            Exercise::Predict { head, row } => format!(
                "Before you see its weights: which word does “{}” attend to most in head {head}?",
                word(*row)
            ),
            Exercise::Goal(cell, bound) => format!(
                "Edit the model until {} is {}.",
                cell.describe(trace),
                bound.words()
            ),
        }
    }
}

/// The exercises of a link and what they lock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exercises {
    /// In the order read (the link's, or the order made).
    pub list: Vec<Exercise>,
    /// The matrices the learner may not edit, by their names (`w_value`: every head's).
    pub locks: Vec<&'static str>,
}

/// The names `lock=` takes: the kinds of editable matrices.
pub fn lockable() -> impl Iterator<Item = &'static str> {
    Editable::EVERY.into_iter().map(Editable::key)
}

impl Exercises {
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
        let read: Vec<Exercise> = text
            .split(';')
            .filter(|e| !e.trim().is_empty())
            .take(MAX_EACH)
            .map(|entry| read_one(kind, entry.trim(), &trace, model.causal))
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
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let key = lockable().find(|k| *k == name).ok_or_else(|| {
                format!(
                    "“{}” is not a matrix the learner edits (use {})",
                    crate::core::text::clip(name),
                    lockable().collect::<Vec<_>>().join(", ")
                )
            })?;
            if !locks.contains(&key) {
                locks.push(key);
            }
        }
        let free = Editable::EVERY
            .into_iter()
            .any(|e| model.matrix(e).is_some() && !locks.contains(&e.key()));
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
        (!self.locks.is_empty()).then(|| self.locks.join(","))
    }

    /// Whether the matrix called `key` is locked.
    pub fn locked(&self, key: &str) -> bool {
        self.locks.contains(&key)
    }

    /// Whether a head's row of weights is hidden until predicted (while `open`).
    pub fn predicts(&self, head: usize, row: usize) -> bool {
        self.list.contains(&Exercise::Predict { head, row })
    }
}

fn read_one(kind: Kind, entry: &str, trace: &Trace, causal: bool) -> Result<Exercise, String> {
    let clipped = crate::core::text::clip(entry);
    match kind {
        Kind::Ask => {
            let cell = read_cell_ref(entry, trace)?;
            if causal
                && cell.matrix.greys_future()
                && cell.matrix != Matrix::Weights
                && is_future(cell.row, cell.col)
            {
                return Err(format!("{clipped}: {MASKED}"));
            }
            Ok(Exercise::Ask(cell))
        }
        Kind::Predict => {
            let bad = || format!("“{clipped}” is not weights[.HEAD]:ROW (as weights.0:6)");
            let (matrix, row) = entry.split_once(':').ok_or_else(bad)?;
            let (name, head) = head_of(matrix).ok_or_else(bad)?;
            if name != "weights" {
                return Err(bad());
            }
            let row: usize = row.trim().parse().map_err(|_| bad())?;
            let weights = Matrix::Weights
                .in_trace(trace, head)
                .ok_or_else(|| format!("{clipped}: the model has no head {head}"))?;
            if row >= weights.nrows() {
                return Err(format!(
                    "{clipped}: use a row from 0 to {}",
                    weights.nrows().saturating_sub(1)
                ));
            }
            if causal && row == 0 {
                return Err(format!(
                    "{clipped}: under the causal mask the first word sees only itself; predict a later row"
                ));
            }
            Ok(Exercise::Predict { head, row })
        }
        Kind::Goal => {
            let (cell, bound) = match (entry.split_once(">="), entry.split_once("<=")) {
                (Some((c, x)), None) => (c, x.trim().parse().map(Bound::AtLeast)),
                (None, Some((c, x))) => (c, x.trim().parse().map(Bound::AtMost)),
                _ => {
                    return Err(format!(
                        "“{clipped}” is not MATRIX[.HEAD]:ROW,COL>=X or <=X (as weights.0:6,4>=0.5)"
                    ))
                }
            };
            let bound = bound
                .ok()
                .filter(|b| match b {
                    Bound::AtLeast(x) | Bound::AtMost(x) => x.is_finite(),
                })
                .ok_or_else(|| format!("{clipped}: the bound is not a number"))?;
            let cell = read_cell_ref(cell.trim(), trace)?;
            if cell.matrix.axes() == Axes::QueryByKey && causal && is_future(cell.row, cell.col) {
                return Err(format!("{clipped}: {MASKED}"));
            }
            let impossible = cell.matrix.heat() == crate::core::views::heatmap::Heat::Unit
                && match bound {
                    Bound::AtLeast(x) => x > 1.0,
                    Bound::AtMost(x) => x < 0.0,
                };
            if impossible {
                return Err(format!(
                    "{clipped}: a weight is between 0 and 1, so this bound cannot be met"
                ));
            }
            if cell.value(trace).is_some_and(|v| bound.met(v)) {
                return Err(format!(
                    "{clipped}: the model meets it already, so there is nothing to reach"
                ));
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
    let clipped = crate::core::text::clip(entry);
    let bad = || format!("“{clipped}” is not MATRIX[.HEAD]:ROW,COL (as scores.0:6,1)");
    let (matrix, at) = entry.split_once(':').ok_or_else(bad)?;
    let (name, head) = head_of(matrix.trim()).ok_or_else(bad)?;
    let (row, col) = at.split_once(',').ok_or_else(bad)?;
    let (row, col): (usize, usize) = (
        row.trim().parse().map_err(|_| bad())?,
        col.trim().parse().map_err(|_| bad())?,
    );
    let matrix = Matrix::named(name).ok_or_else(|| {
        format!(
            "{clipped}: there is no matrix “{}” ({COMPUTED})",
            crate::core::text::clip(name)
        )
    })?;
    if matrix.editable(0).is_some() {
        return Err(format!(
            "{clipped}: {} is a number the learner sets, not one to compute ({COMPUTED})",
            matrix.key()
        ));
    }
    let head = matrix.pick().map(|_| head);
    if let Some(h) = head {
        if h >= trace.heads.len() {
            return Err(format!(
                "{clipped}: use a head from 0 to {}",
                trace.heads.len() - 1
            ));
        }
    }
    let m = matrix
        .in_trace(trace, head.unwrap_or(0))
        .ok_or_else(|| format!("{clipped}: this model does not compute {}", matrix.key()))?;
    if row >= m.nrows() || col >= m.ncols() {
        return Err(format!(
            "{clipped}: the cell is outside the {} × {} matrix",
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

/// Where an exercise stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// Not answered yet (or a goal not met yet).
    #[default]
    Open,
    /// Answered right, predicted right, or the goal met.
    Correct,
    /// Answered wrong (tries remain) or predicted wrong.
    Incorrect,
    /// Shown after three wrong answers or "Show me".
    Revealed,
}

impl Outcome {
    /// `open`, `correct`, `incorrect`, `revealed`: `data-result`.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Open => "open",
            Outcome::Correct => "correct",
            Outcome::Incorrect => "incorrect",
            Outcome::Revealed => "revealed",
        }
    }

    /// The outcome called `key`.
    pub fn from_key(key: &str) -> Option<Outcome> {
        [
            Outcome::Open,
            Outcome::Correct,
            Outcome::Incorrect,
            Outcome::Revealed,
        ]
        .into_iter()
        .find(|o| o.key() == key)
    }
}

/// One exercise's progress: what the page shows and reports, and what the saved work keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Where it stands.
    pub outcome: Outcome,
    /// Answers checked (ask), 1 once predicted, edits made until the goal was met.
    pub attempts: u32,
    /// The last answer, the predicted word's index, or the goal's value when met.
    pub response: Option<String>,
}

impl Progress {
    /// Whether an answer is over (right or revealed): no more tries.
    pub fn done(&self) -> bool {
        matches!(self.outcome, Outcome::Correct | Outcome::Revealed)
    }
}

/// The progress the saved work keeps: a line per exercise, `id TAB result TAB attempts TAB
/// response` (plain text: a JSON reader would cost the page more code than this).
pub fn write_progress(progress: &[(String, Progress)]) -> String {
    progress
        .iter()
        .map(|(id, p)| {
            let response = p
                .response
                .as_deref()
                .unwrap_or("")
                .replace(['\t', '\n'], " ");
            format!("{id}\t{}\t{}\t{response}\n", p.outcome.key(), p.attempts)
        })
        .collect()
}

/// Reads what [`write_progress`] wrote; a line it cannot read is left out (that exercise
/// starts over).
pub fn read_progress(text: &str) -> Vec<(String, Progress)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\t');
            let id = parts.next()?.to_owned();
            let outcome = Outcome::from_key(parts.next()?)?;
            let attempts = parts.next()?.parse().ok()?;
            let response = parts.next().filter(|r| !r.is_empty()).map(str::to_owned);
            Some((
                id,
                Progress {
                    outcome,
                    attempts,
                    response,
                },
            ))
        })
        .collect()
}

/// What checking an answer said.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Right.
    Right,
    /// Not yet, with a hint.
    NotYet(String),
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
pub fn read_answer(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if matches!(t, "−∞" | "-∞" | "-inf" | "−inf") {
        return Ok(f64::NEG_INFINITY);
    }
    match read_cell(t) {
        CellText::Number(x) => Ok(x),
        CellText::Incomplete => Err("type a number first".into()),
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
) -> Result<Verdict, String> {
    if progress.done() {
        return Err("this one is done".into());
    }
    let answer = read_answer(text)?;
    let expected = cell
        .value(trace)
        .ok_or("the model no longer has this cell (its sentence or sizes changed)")?;
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
/// into it (a dot product's factors, not their sum).
pub fn hint(cell: &CellRef, trace: &Trace, decimals: usize) -> String {
    let p = decimals.max(2);
    let n = |x: f64| fmt(x, p);
    let (h, i, j) = (cell.head.unwrap_or(0), cell.row, cell.col);
    let word = |i: usize| word(trace, i);
    let head = trace.heads.get(h);
    let row_of = |m: &nalgebra::DMatrix<f64>, r: usize| -> Vec<String> {
        m.row(r).iter().map(|&x| n(x)).collect()
    };
    match cell.matrix {
        Matrix::Scores => match trace.score_terms(h, i, j) {
            Some(t) => {
                let factors: Vec<String> = t
                    .terms
                    .iter()
                    .map(|(q, k)| format!("{} × {}", n(*q), n(*k)))
                    .collect();
                format!(
                    "A score is the dot product of the query row of “{}” and the key row of “{}”: multiply them component by component and add: {}.",
                    word(i),
                    word(j),
                    factors.join(" + ")
                )
            }
            None => String::new(),
        },
        Matrix::ScaledScores => match (head, trace.scale()) {
            (None, _) => String::new(),
            (Some(_), Scale::None) => format!(
                "With no scaling the scores pass through unchanged: look for the score of {} → {} in step “Scores”.",
                word(i),
                word(j)
            ),
            (Some(t), scale) => format!(
                "Divide the score of {} → {} ({}) by {} (the scaling chosen; dₖ = {}).",
                word(i),
                word(j),
                n(t.scores[(i, j)]),
                scale.symbol(),
                t.keys.ncols()
            ),
        },
        Matrix::MaskedScores => "Under the mask a key after its query becomes −∞; any other cell keeps its scaled score.".into(),
        Matrix::Weights => match head {
            Some(t) => format!(
                "Softmax of the row: exp of this cell's masked score divided by the sum of exp over the row. The row of “{}” is [{}].",
                word(i),
                row_of(&t.masked_scores, i).join(", ")
            ),
            None => String::new(),
        },
        Matrix::Queries | Matrix::Keys | Matrix::Values => {
            let x = trace.positioned.as_ref().unwrap_or(&trace.embedded);
            let w = match cell.matrix {
                Matrix::Queries => "W_query",
                Matrix::Keys => "W_key",
                _ => "W_value",
            };
            format!(
                "Multiply the row of “{}” ([{}]) by column {j} of {w} and add the products (then the bias, if there is one).",
                word(i),
                row_of(x, i).join(", ")
            )
        }
        Matrix::Context => match head {
            Some(t) => {
                let terms: Vec<String> = (0..t.values.nrows())
                    .map(|k| format!("{} × {}", n(t.weights[(i, k)]), n(t.values[(k, j)])))
                    .collect();
                format!(
                    "A context vector is the weights' sum of the value rows: for column {j}, {}.",
                    terms.join(" + ")
                )
            }
            None => String::new(),
        },
        _ => format!(
            "See how step “{}” computes {}: the numbers it uses are on the page.",
            cell.matrix.step().key(),
            cell.matrix.title()
        ),
    }
}

/// Records the prediction that `choice` gets the largest weight in `row` of `head`; the
/// verdict is whether it does.
pub fn predict(
    head: usize,
    row: usize,
    trace: &Trace,
    choice: usize,
    progress: &mut Progress,
) -> Result<bool, String> {
    if progress.attempts > 0 {
        return Err("this prediction is made".into());
    }
    let best = largest(trace, head, row)
        .ok_or("the model no longer has this row (its sentence or heads changed)")?;
    if choice >= trace.tokens.words.len() {
        return Err(format!(
            "choose a word from 0 to {}",
            trace.tokens.words.len() - 1
        ));
    }
    // Equal weights (as a row that sees one word): either word of the largest is right.
    let w = &trace.heads[head].weights;
    let right = w[(row, choice)] >= w[(row, best)];
    progress.attempts = 1;
    progress.response = Some(trace.tokens.words[choice].clone());
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
            Exercise::Predict { head, row } => {
                largest(trace, *head, *row).map(|k| Expected::Word(word(trace, k)))
            }
        }
    }
}

/// An asked cell worked out, once revealed: a score's products and sum, a context row's
/// weighted sum (the page's own breakdowns), else the cell and its value.
pub fn worked(cell: &CellRef, trace: &Trace, decimals: usize) -> String {
    let value = cell
        .value(trace)
        .map(|v| fmt(v, decimals))
        .unwrap_or_default();
    match (cell.matrix, cell.head) {
        (Matrix::Scores, Some(h)) => trace
            .score_terms(h, cell.row, cell.col)
            .map_or(value, |t| t.describe(decimals)),
        (Matrix::Context, Some(h)) => trace.context_terms(h, cell.row).map_or_else(
            || value.clone(),
            |t| format!("{}; column {}: {value}", t.describe(decimals), cell.col),
        ),
        _ => format!("{}: {value}", cell.describe(trace)),
    }
}

/// What a result message and `results()` say of an exercise: `expected` only once it is
/// shown (right, revealed or predicted), and the same as an xAPI statement whose object is
/// `activity` (the page's address) with the exercise's id. Written with one `format!` (strings
/// escaped by serde_json): less code in the page than serde's derive or JSON values.
pub fn result_json(
    exercise: &Exercise,
    progress: &Progress,
    expected: Option<Expected>,
    activity: &str,
) -> String {
    let text = |t: &str| serde_json::to_string(t).unwrap_or_default();
    let kind = exercise.kind();
    let correct = progress.outcome == Outcome::Correct;
    let verb = if kind == Kind::Goal {
        "completed"
    } else {
        "answered"
    };
    let id = exercise.id();
    let response = progress.response.as_deref().map_or("null".into(), text);
    let expected = match expected.filter(|_| exercise.shown(progress)) {
        Some(Expected::Number(x)) if x.is_finite() => format!(r#","expected":{x}"#),
        Some(Expected::Number(_)) => r#","expected":null"#.into(),
        Some(Expected::Word(w)) => format!(r#","expected":{}"#, text(&w)),
        None => String::new(),
    };
    let interaction = match kind {
        Kind::Ask => "numeric",
        Kind::Predict => "choice",
        Kind::Goal => "performance",
    };
    // An IRI has no `<` or `>`: a goal's bound is written %3E= or %3C=.
    let iri_id = match exercise {
        Exercise::Goal(cell, Bound::AtLeast(x)) => format!("{}%3E={x}", cell.text()),
        Exercise::Goal(cell, Bound::AtMost(x)) => format!("{}%3C={x}", cell.text()),
        _ => id.clone(),
    };
    let object = text(&format!("{activity}#exercise={iri_id}"));
    let score = exercise.score(progress);
    format!(
        r#"{{"exercise":{id},"kind":"{kind}","result":"{result}","correct":{correct},"score":{score},"attempts":{attempts},"response":{response}{expected},"statement":{{"verb":{{"id":"http://adlnet.gov/expapi/verbs/{verb}","display":{{"en-US":"{verb}"}}}},"object":{{"objectType":"Activity","id":{object},"definition":{{"name":{{"en-US":"Attention Explorer: {kind} {plain}"}},"type":"http://adlnet.gov/expapi/activities/cmi.interaction","interactionType":"{interaction}"}}}},"result":{{"success":{correct},"completion":{finished},"score":{{"scaled":{score}}},"response":{statement_response}}}}}}}"#,
        id = text(&id),
        plain = id,
        kind = kind.key(),
        result = progress.outcome.key(),
        attempts = progress.attempts,
        finished = exercise.finished(progress),
        statement_response = text(progress.response.as_deref().unwrap_or("")),
    )
}

/// An exercise's answer: a number, or the word a row attends to most.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// A cell's value.
    Number(f64),
    /// A word.
    Word(String),
}
