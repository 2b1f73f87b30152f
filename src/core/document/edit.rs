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
use crate::core::model::presets::{follows, DEFAULT_SEED};
use crate::core::model::{Dims, Editable, Matrix, Model, Projection, Scale, Source};

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

/// What an exercise page adds to the document, kept by the reducer: the matrices the learner may
/// not edit, and the edits made so far (a goal counts them: the keystrokes of one number, a
/// sentence or a training run are one edit; any other change is one of its own; what changes
/// nothing is none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Session {
    /// The locked matrices (`Weight(Value)`: every head's).
    pub locks: Vec<Matrix>,
    /// The edits made.
    pub edits: u32,
    /// The model changed since the last sealed step.
    editing: bool,
}

impl Session {
    /// A session with `locks`, no edit made.
    pub fn new(locks: Vec<Matrix>) -> Session {
        Session {
            locks,
            ..Session::default()
        }
    }

    /// Whether `matrix` is locked.
    pub fn locked(&self, matrix: Matrix) -> bool {
        self.locks.contains(&matrix)
    }

    /// Why `edit` of `model` is refused, if it would change a locked matrix. Retyping the
    /// sentence is allowed: the rows there are stay, and a new word's row is a new number, not
    /// an edit of a locked one.
    pub fn refusal(&self, edit: &Edit, model: &Model) -> Option<String> {
        if self.locks.is_empty() {
            return None;
        }
        // What these turn on, off or draw again.
        let touched: &[Matrix] = match edit {
            Edit::Biases(_) => &Projection::ALL.map(Matrix::Bias),
            Edit::OutputProjection(_) => &[Matrix::OutputWeight, Matrix::OutputBias],
            Edit::Positions { .. } => &[Matrix::Positions],
            _ => &[],
        };
        if let Some(&matrix) = touched.iter().find(|&&m| self.locked(m)) {
            return Some(self.locked_message(matrix, model));
        }
        let target = match edit {
            Edit::Cell { target, .. } | Edit::Set { target, .. } | Edit::Paste { target, .. } => {
                Some(*target)
            }
            // A whole new model (a step, a preset, a loaded state): whatever it changes.
            Edit::Train(next) | Edit::Open(next) => Editable::EVERY
                .into_iter()
                .flat_map(|e| (0..model.heads().len()).map(move |h| e.in_head(h)))
                .find(|&e| self.locked(Matrix::of(e)) && model.matrix(e) != next.matrix(e)),
            // Every matrix drawn again or resized: the locked ones too.
            Edit::Reinitialise | Edit::Resize(_) => {
                return Some(self.locked_message(self.locks[0], model))
            }
            _ => None,
        }?;
        let matrix = Matrix::of(target);
        self.locked(matrix)
            .then(|| self.locked_message(matrix, model))
    }

    /// What a learner who types into the locked `matrix` of `model` is told: what is free.
    pub fn locked_message(&self, matrix: Matrix, model: &Model) -> String {
        let free: Vec<&str> = Editable::EVERY
            .into_iter()
            .filter(|&e| model.matrix(e).is_some() && !self.locked(Matrix::of(e)))
            .map(Editable::key)
            .collect();
        format!(
            "{} is locked in this exercise: reach it by editing {}.",
            matrix.key(),
            free.join(", ")
        )
    }

    /// Counts an edit once applied (`changed`: it changed the model); a `sealing` one is an
    /// edit of its own, sealed on both sides.
    fn count(&mut self, sealing: bool, changed: bool) {
        if sealing {
            self.editing = false;
        }
        if changed && !self.editing {
            self.editing = true;
            self.edits += 1;
        }
        if sealing {
            self.editing = false;
        }
    }
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
    /// An exercise page's locks and the edits made.
    pub session: Session,
}

impl Document {
    /// A document of `model`, with nothing to undo, the default seed and no locks.
    pub fn new(model: Model) -> Document {
        Document {
            model,
            history: History::default(),
            seed: DEFAULT_SEED,
            session: Session::default(),
        }
    }

    /// Applies `edit`; `followed` is the token followed before it, and the result the token
    /// followed after it. A refused edit changes nothing and says why.
    pub fn apply(&mut self, edit: Edit, followed: Option<usize>) -> Result<Option<usize>, String> {
        let parts = (&mut self.model, &mut self.history, &mut self.seed);
        Ok(apply(parts, &mut self.session, edit, followed)?.followed)
    }
}

/// What a sentence edit keeps followed, as its place and word: the learner's pick, else the
/// example's own (the dog's "she").
fn followed_before(followed: Option<usize>, model: &Model) -> Option<(usize, String)> {
    let words = &model.tokens().words;
    let at = followed.or_else(|| follows(model.sentence(), words.len()))?;
    // A place past the words (the sentence half typed) is kept; no word is "".
    Some((at, words.get(at).cloned().unwrap_or_default()))
}

/// The token followed after an edit. After a sentence edit (`typed`: what was followed before
/// it), the same word while it is in the sentence, at its occurrence nearest its old place (an
/// edit of another word, or a word put before it, keeps "she" followed); while it is not (being
/// retyped), its place, which the word may come back to. After any other edit, `followed` while
/// the model still has it.
fn followed_after(
    followed: Option<usize>,
    typed: Option<&(usize, String)>,
    model: &Model,
) -> Option<usize> {
    let words = &model.tokens().words;
    match typed {
        Some((at, word)) => words
            .iter()
            .enumerate()
            .filter(|(_, w)| *w == word)
            .map(|(i, _)| i)
            .min_by_key(|i| i.abs_diff(*at))
            .or(Some(*at)),
        None => followed.filter(|&i| i < words.len()),
    }
}

/// What an edit changed, so that a page notifies only the parts that changed, and the token
/// followed after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The token followed after the edit (see [`followed_after`]).
    pub followed: Option<usize>,
    /// The model.
    pub model: bool,
    /// The undo history.
    pub history: bool,
    /// The seed.
    pub seed: bool,
}

/// [`Document::apply`] over the document's parts, as a page holds them in separate signals:
/// the model, the history and the seed (what undo covers), and the session (locks, edits made).
/// An edit a lock refuses, or one past the limits, changes nothing and says why.
pub fn apply(
    (model, history, seed): (&mut Model, &mut History, &mut u64),
    session: &mut Session,
    edit: Edit,
    followed: Option<usize>,
) -> Result<Changed, String> {
    if let Some(refusal) = session.refusal(&edit, model) {
        return Err(refusal);
    }
    // Typing (a number, the sentence) and a training run go on until sealed; the rest seal.
    let sealing = !matches!(
        edit,
        Edit::Cell { .. }
            | Edit::Sentence(_)
            | Edit::Source(Some(_))
            | Edit::Retyped(_)
            | Edit::Train(_)
    );
    if model.layered().is_some() {
        if let Some(why) = kept_by_a_trained_layer(&edit) {
            return Err(why.into());
        }
    }
    let typed = matches!(edit, Edit::Sentence(_) | Edit::Retyped(_))
        .then(|| followed_before(followed, model))
        .flatten();
    let mut changed = change(model, history, seed, edit)?;
    session.count(sealing, changed.model);
    changed.followed = followed_after(followed, typed.as_ref(), model);
    Ok(changed)
}

/// The change `edit` makes to the document's parts, once no lock refuses it.
fn change(
    model: &mut Model,
    history: &mut History,
    seed: &mut u64,
    edit: Edit,
) -> Result<Changed, String> {
    let both = Changed {
        model: true,
        history: true,
        ..Changed::default()
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
            let next = model.redrawn(*seed)?;
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
        Edit::KvHeads(g) => {
            let next = model.clone().with_kv_heads(g)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Source(text) => {
            let source = text
                .map(|t| {
                    Source::retyped(&t, model.source(), model.tokens(), model.embedding(), *seed)
                })
                .transpose()?;
            let next = model.clone().with_source(source)?;
            return Ok(replace(model, history, EditKey::Source, next));
        }
        Edit::Causal(on) => {
            if on && model.source().is_some() {
                return Err("a causal mask hides later tokens of the same sentence; with a source sentence every query sees every source token: remove the source first".into());
            }
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
        Edit::Retyped(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Sentence, *next));
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

/// Why a trained model's layer refuses `edit`, if it does: it keeps the shape and settings it was
/// trained with, and its input X is what the layers below make of the sentence.
fn kept_by_a_trained_layer(edit: &Edit) -> Option<&'static str> {
    Some(match edit {
        Edit::Cell { target, .. } | Edit::Set { target, .. } | Edit::Paste { target, .. }
            if *target == Editable::Embedding =>
        {
            "X is what the layers below make of the sentence: change their weights (pick a lower layer) to change it"
        }
        Edit::Sentence(_) => {
            "a trained model's sentence is cut by its own tokenizer, which comes with the model: open it again (Open a trained model)"
        }
        Edit::Resize(_) => "a trained model's layer keeps the sizes it was trained with",
        Edit::Reinitialise => {
            "a trained model's numbers are not drawn from a seed: undo or open the layer again to get them back"
        }
        Edit::Positions { .. } => {
            "a trained model's learned positions are already in X, added before its first layer"
        }
        Edit::Biases(_) | Edit::OutputProjection(_) => {
            "a trained model's layer keeps its biases and output projection as trained"
        }
        Edit::Causal(_) => "an encoder has no causal mask: every piece sees every other",
        Edit::KvHeads(_) => "a trained model's layer keeps a key and a value per head, as trained",
        Edit::Source(_) => "a trained model's layer attends within its own sentence",
        Edit::Scale(_) => "a trained model's layer divides by √dₖ, as it was trained",
        _ => return None,
    })
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
        ..Changed::default()
    }
}

fn outside(model: &Model, target: Editable, row: usize, col: usize) -> String {
    let (rows, cols) = model.matrix(target).map_or((0, 0), |m| m.shape());
    format!("cell ({row}, {col}) is outside the {rows} × {cols} matrix")
}
