//! The page's store, below every component: the document (model, undo history, seed: what
//! undo covers), the view (what the URL carries besides the model), the walk, the labs, and the
//! memos derived from them. Views read it; they change the document only by [`AppState::apply`]
//! of an [`Edit`], which runs the core's one reducer.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::document::edit::{self, Edit, Session};
use crate::core::document::history::History;
use crate::core::formats::link::{Controls as Level, Link, Shown, DEFAULT_DECIMALS};
use crate::core::forward::trace::Trace;
use crate::core::model::presets::DEFAULT_SEED;
use crate::core::model::presets::{followed_by_default, matching, preset_named};
use crate::core::model::Matrix;
use crate::core::model::{Editable, Model};
use crate::core::teaching::order::ReorderedInputs;
use crate::core::teaching::story::Story;
use crate::core::training::lab::Setup;
use crate::core::training::{gradients, Gradients, Objective};
use crate::core::views::heatmap::{Face, Palette};
use crate::core::views::pipeline::{stops, Lab, Pick, Shape, Step, Stop};
use crate::ui::exercises::ExerciseState;
use crate::ui::theme;

/// What a trained model's panel lends the page while it holds the model: the page calls it, and
/// its code stays in the panel's chunk (none of it in the first download).
pub trait TrainedModel: Send + Sync {
    /// `model` (a layer of it) on a sentence as typed (see [`Edit::Retyped`]), or why not.
    fn retype(&self, model: &Model, text: &str) -> Result<Model, String>;
    /// The order lab's hidden states of `model`'s pieces as they are and in `order`.
    fn reordered_inputs(&self, model: &Model, order: Vec<usize>) -> Option<ReorderedInputs>;
    /// What reordering them does to `model`'s layer, with the learned positions and without.
    fn moves(&self, model: &Model, inputs: &ReorderedInputs) -> Option<[Vec<f64>; 2]>;
}

/// What a click on a cell asked to have explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// A score as its dot-product terms.
    Score {
        head: usize,
        query: usize,
        key: usize,
    },
    /// A context row as the weighted sum of the value rows.
    Context { head: usize, query: usize },
}

impl Detail {
    /// `score` or `context`: the `data-breakdown` name of its explanation.
    pub fn key(self) -> &'static str {
        match self {
            Detail::Score { .. } => "score",
            Detail::Context { .. } => "context",
        }
    }

    /// The explanation in words, if the cell still exists.
    pub fn describe(self, trace: &Trace, precision: usize) -> Option<String> {
        match self {
            Detail::Score { head, query, key } => trace
                .score_terms(head, query, key)
                .map(|t| t.describe(precision)),
            Detail::Context { head, query } => trace
                .context_terms(head, query)
                .map(|t| t.describe(precision)),
        }
    }
}

/// How every matrix looks: the page-wide settings a matrix view reads from context, so that a
/// matrix can be mounted with no store at all (as in the component tests).
#[derive(Clone, Copy)]
pub struct Look {
    /// Decimals shown in every table (values keep full precision).
    pub precision: RwSignal<usize>,
    /// The colours the heat maps paint with, following light and dark mode.
    pub palette: RwSignal<Palette>,
    /// The face the learner chose for a matrix (by name and head); it outlives the view, so the
    /// choice sticks when a step is hidden and shown or the heads change.
    pub faces: RwSignal<HashMap<(Matrix, Option<usize>), Face>>,
}

/// The default look: 4 decimals, the light palette, no faces chosen.
impl Default for Look {
    fn default() -> Self {
        Look {
            precision: RwSignal::new(DEFAULT_DECIMALS),
            palette: RwSignal::new(Palette::LIGHT),
            faces: RwSignal::new(HashMap::new()),
        }
    }
}

/// A block of numbers, by rows, as a paste gives it.
pub type Block = Vec<Vec<f64>>;

/// What an editable matrix view reports; the view itself knows nothing of the model.
#[derive(Clone, Copy)]
pub struct CellEditor {
    /// A valid number typed into cell (row, col); refused with a message (a locked matrix).
    pub commit: Callback<(usize, usize, f64), Result<(), String>>,
    /// A block of numbers pasted with its top-left at (row, col); a block that does not fit is
    /// refused whole, with the message to show.
    pub paste: Callback<(usize, usize, Block), Result<(), String>>,
    /// The learner left the cell: the next number typed there is a new undo step.
    pub done: Callback<()>,
}

/// Every head's n × m tables are shown side by side while heads × n × m stays within this; beyond
/// it, one head at a time (with a picker), so that an edit repaints a few thousand cells, not
/// tens of thousands (measured: 16 tokens × 4 heads took 108 ms per edit with all heads shown).
pub const ALL_HEADS_CELL_BUDGET: usize = 600;

/// The store, provided by context to every component below the page. `Copy`, so closures
/// capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    // The document: what undo covers, changed only through `apply`.
    /// The single source of truth: everything on the page is derived from it.
    pub model: RwSignal<Model>,
    /// The steps before and after the model.
    pub history: RwSignal<History>,
    /// Seed for re-initialising and for filling new numbers when a shape grows.
    pub seed: RwSignal<u64>,
    /// An exercise page's locks and the edits made (a goal's attempts); read, not watched.
    pub session: StoredValue<Session>,
    /// The trained model, while its panel holds it: its tokenizer for the sentence box, its
    /// layers for the order lab.
    pub trained: StoredValue<Option<Arc<dyn TrainedModel>>>,
    /// A trained model's layer a link or the saved work names (its state's `pretrained`, as
    /// JSON text), until its panel has fetched the model and opened it.
    pub pretrained: RwSignal<Option<String>>,

    // The view: what the URL carries besides the model (decimals and faces are in `look`).
    /// The token followed as the query, highlighted in every step.
    pub selected: RwSignal<Option<usize>>,
    /// The head shown in full when not every head fits (see [`ALL_HEADS_CELL_BUDGET`]).
    pub focused_head: RwSignal<usize>,
    /// The steps the learner hid, in pipeline order.
    pub hidden: RwSignal<Vec<Step>>,
    /// How matrices look (decimals, palette, faces), also provided on its own.
    pub look: Look,
    /// The clicked cell whose explanation is shown.
    pub detail: RwSignal<Option<Detail>>,

    // The walk and the labs.
    /// The guided walk's place in [`stops`], while it runs, as last set.
    pub walk: RwSignal<Option<usize>>,

    // Derived.
    /// Every intermediate; after an edit only the heads it touched are recomputed.
    pub trace: Memo<Trace>,
    /// Whether the mask is on: many views grey their future cells by it.
    pub causal: Memo<bool>,
    /// Sentence words, for row and column labels; changes only when the sentence does.
    pub words: Memo<Vec<String>>,
    /// The keys' tokens: the source sentence's with cross-attention, else the sentence's.
    pub key_words: Memo<Vec<String>>,
    /// The number of heads.
    pub heads: Memo<usize>,
    /// Each head's key/value head's first query head: itself unless heads share keys and values.
    pub kv_leaders: Memo<Vec<usize>>,
    /// Which steps the page has (the heads, an output projection).
    pub shape: Memo<Shape>,
    /// The heads whose tables are in the page, in order.
    pub visible_heads: Memo<Vec<usize>>,
    /// The followed token, or the last one until the learner picks one (it sees every token,
    /// even when causal): the query that attention lines and the heads picture show.
    pub query: Memo<usize>,
    /// The walk's place kept within the stops there are now (fewer heads drop the heads' stop).
    pub walk_at: Memo<Option<usize>>,
    /// The section the walk is at.
    pub walk_stop: Memo<Option<Stop>>,
    /// The preset "Reset to the example" opens: the link's, else the default.
    pub example: &'static str,
    /// The page is an embed (`embed=1`): no labs, no walk.
    pub embedded: bool,
    /// The training lab's targets, what trains and how (the link carries it).
    pub training: RwSignal<Setup>,
    /// The page's target: a link's or one the learner set in the training lab, or the one it
    /// last trained towards ("Copy as PyTorch" adds it; the ∂L faces read it).
    pub objective: RwSignal<Option<Objective>>,
    /// The target still fits the model (cheap: read by every matrix's ∂L button).
    pub has_target: Memo<bool>,
    /// Its loss's gradient on the model as it is, while the target fits: computed only while a
    /// gradient face reads it, not on every edit or training step.
    pub gradients: Memo<Option<Gradients>>,
    /// An embed's steps (`steps=`), numbered 1, 2, … in it; `None`: the pipeline's numbers.
    pub numbered: Option<&'static [Step]>,
    /// The Embed dialog is open (its button, or the exercise maker's "Embed this exercise").
    pub embedding: RwSignal<bool>,
    /// Notified each time the URL and the saved work have been brought up to date (after
    /// [`crate::ui::share::keep_in_url`]'s pause): links made from the state follow it.
    pub written: Trigger,
    /// The controls the page shows (`controls=`): with none, a student cannot hide steps either.
    pub controls: Level,
    /// The link's exercises and their progress.
    pub exercises: ExerciseState,
}

impl AppState {
    /// A store holding `model`, shown as `shown`; `example` is what Reset opens.
    pub fn new(
        model: Model,
        start: &Shown,
        example: &'static str,
        walking: bool,
        embedded: bool,
    ) -> Self {
        let model = RwSignal::new(model);
        // Owning the previous trace lets an edit reuse the heads it did not touch, and report
        // "unchanged" when a number was rewritten with itself, so nothing re-renders.
        let trace = Memo::new_owning(move |previous| model.with(|m| Trace::refresh(previous, m)));
        let heads = Memo::new(move |_| model.with(|m| m.heads().len()));
        let shape = Memo::new(move |_| model.with(Shape::of));
        let focused_head = RwSignal::new(0);
        let visible_heads = Memo::new(move |_| {
            // n × m tables: m keys, the source's tokens when there is one.
            let (n, m, h) =
                model.with(|m| (m.tokens().len(), m.key_tokens().len(), m.heads().len()));
            if h * n * m <= ALL_HEADS_CELL_BUDGET {
                (0..h).collect()
            } else {
                vec![focused_head.get().min(h - 1)]
            }
        });
        let walk = RwSignal::new(walking.then_some(0));
        let walk_at = Memo::new(move |_| {
            let last = stops(shape.get()).len() - 1;
            walk.get().map(|i| i.min(last))
        });
        let walk_stop = Memo::new(move |_| {
            walk_at
                .get()
                .and_then(|i| stops(shape.get()).get(i).copied())
        });
        let selected = RwSignal::new(None::<usize>);
        let words = Memo::new(move |_| model.with(|m| m.tokens().words.clone()));
        let key_words = Memo::new(move |_| model.with(|m| m.key_tokens().words.clone()));
        let query = Memo::new(move |_| {
            let n = words.with(Vec::len);
            selected
                .get()
                .filter(|&i| i < n)
                .unwrap_or_else(|| model.with(|m| followed_by_default(m.sentence(), n)))
        });
        let seed = RwSignal::new(DEFAULT_SEED);
        let hidden = RwSignal::new(Vec::new());
        let objective = RwSignal::new(None::<Objective>);
        let has_target = Memo::new(move |_| {
            objective.with(|o| o.as_ref().is_some_and(|o| model.with(|m| o.fits(m))))
        });
        let state = AppState {
            model,
            history: RwSignal::new(History::default()),
            seed,
            session: StoredValue::new(Session::default()),
            trained: StoredValue::new(None),
            pretrained: RwSignal::new(None),
            selected,
            focused_head,
            hidden,
            look: Look {
                precision: RwSignal::new(DEFAULT_DECIMALS),
                palette: RwSignal::new(theme::current_palette()),
                faces: RwSignal::new(HashMap::new()),
            },
            detail: RwSignal::new(None),
            walk,
            trace,
            causal: Memo::new(move |_| model.with(|m| m.causal)),
            words,
            key_words,
            heads,
            kv_leaders: Memo::new(move |_| {
                model.with(|m| {
                    (0..m.heads().len())
                        .map(|h| m.kv_leader(m.kv_of(h)))
                        .collect()
                })
            }),
            shape,
            visible_heads,
            query,
            walk_at,
            walk_stop,
            example,
            embedded,
            numbered: None,
            controls: Level::All,
            written: Trigger::new(),
            embedding: RwSignal::new(false),
            exercises: ExerciseState::default(),
            training: RwSignal::new(Setup::default()),
            objective,
            has_target,
            gradients: Memo::new(move |_| {
                if !has_target.get() {
                    return None;
                }
                objective.with(|o| model.with(|m| o.as_ref().map(|o| gradients(m, o))))
            }),
        };
        state.show_as(start);
        state
    }

    /// The number on `step`'s badge: its place among an embed's steps, else the pipeline's.
    pub fn badge(self, step: Step) -> usize {
        let shape = self.shape.get();
        // An embed's steps that this model has not (`output` of one head) are not on its page.
        self.numbered
            .and_then(|steps| {
                steps
                    .iter()
                    .filter(|s| s.on_page(shape))
                    .position(|&s| s == step)
            })
            .map_or_else(|| step.number(shape), |i| i + 1)
    }

    /// Provides the store and its [`Look`] to the components below.
    pub fn provide(self) {
        provide_context(self);
        provide_context(self.look);
        provide_context(self.exercises);
    }

    /// Shows what a link or the saved work asks to see.
    pub fn show_as(self, shown: &Shown) {
        self.seed.set(shown.seed.unwrap_or(DEFAULT_SEED));
        self.selected.set(shown.focus);
        self.focused_head.set(shown.head.unwrap_or(0));
        self.look
            .precision
            .set(shown.decimals.unwrap_or(DEFAULT_DECIMALS));
        self.hidden.set(shown.hidden.clone());
        self.look.faces.set(
            shown
                .faces
                .iter()
                .map(|&(name, head, face)| ((name, head), face))
                .collect(),
        );
        self.training.set(shown.training.clone());
    }

    /// What the URL carries besides the model, from the view's signals (defaults left out):
    /// the one mapping from the signals to the link, as [`AppState::show_as`] is the one back.
    /// Tracked: call it in `untrack` outside an effect.
    pub fn shown(self) -> Shown {
        let (seed, head, decimals) = (
            self.seed.get(),
            self.focused_head.get(),
            self.look.precision.get(),
        );
        let mut faces: Vec<_> = self.look.faces.with(|f| {
            f.iter()
                .map(|(&(name, head), &face)| (name, head, face))
                .collect()
        });
        faces.sort_unstable_by_key(|&(matrix, head, _)| (matrix.key(), head));
        Shown {
            seed: (seed != DEFAULT_SEED).then_some(seed),
            // A place the sentence being typed does not reach yet is not in the link.
            focus: self
                .selected
                .get()
                .filter(|&i| i < self.words.with(Vec::len)),
            head: (head != 0).then_some(head),
            decimals: (decimals != DEFAULT_DECIMALS).then_some(decimals),
            hidden: self.hidden.get(),
            faces,
            training: self.training.with(|t| Setup {
                output: None,
                targets: t.targets.clone(),
                train: self.model.with(|m| t.train_of(m)),
                optimizer: t.optimizer,
            }),
        }
    }

    /// The preset the model equals, number for number, if any: what the picker names. Any
    /// edit clears it; undo brings it back.
    pub fn preset(self) -> Option<&'static str> {
        self.model.with(matching)
    }

    /// The followed token's story in the first head shown, told from the numbers on the page
    /// (none while exercises are open: its numbers could be their answers).
    pub fn story(self) -> Option<String> {
        if self.exercises.any() {
            return None;
        }
        let head = self.visible_heads.with(|v| v[0]);
        let query = self.query.get();
        let story = self.trace.with(|t| Story::of(t, head, query))?;
        Some(self.model.with(|m| {
            self.words.with(|words| {
                self.key_words.with(|keys| {
                    story.telling(m.sentence(), words, keys, self.look.precision.get())
                })
            })
        }))
    }

    /// Applies one change to the document through the core's reducer: the one write path of
    /// the page, the scripting API and its postMessage twin. A refused edit changes nothing
    /// (no signal is touched) and says why. Each signal is notified only if it changed.
    pub fn apply(self, edit: Edit) -> Result<(), String> {
        let (model, history, seed, session) = (self.model, self.history, self.seed, self.session);
        // A trained model's sentence is cut by its own tokenizer, which its panel holds.
        let edit = match edit {
            Edit::Sentence(text) if model.with_untracked(|m| m.layered().is_some()) => {
                match self.trained.get_value() {
                    Some(trained) => Edit::Retyped(Box::new(
                        model.with_untracked(|m| trained.retype(m, &text))?,
                    )),
                    None => Edit::Sentence(text),
                }
            }
            other => other,
        };
        let followed = self.selected.get_untracked();
        let mut outcome = Ok(Default::default());
        // Untracked writes, then a notice to each signal that changed: a refused edit (or one
        // that changed only the history) wakes nothing else. None of them is gone while the page
        // lives; a callback that outlived it changes nothing.
        history.try_update_untracked(|h| {
            model.try_update_untracked(|m| {
                seed.try_update_untracked(|s| {
                    session.try_update_value(|session| {
                        outcome = edit::apply((m, h, s), session, edit, followed);
                    })
                })
            })
        });
        let outcome = outcome?;
        if outcome.history {
            history.notify();
        }
        if outcome.seed {
            seed.notify();
        }
        if outcome.model {
            model.notify();
            if outcome.followed != followed {
                self.selected.set(outcome.followed);
            }
        }
        Ok(())
    }

    /// Opens the preset called `name`, undoably; refused (an exercise's lock) with why.
    pub fn open_preset(self, name: &str) -> Result<(), String> {
        let p = preset_named(name).ok_or_else(|| format!("there is no example “{name}”"))?;
        self.apply(Edit::Open(Box::new((p.build)())))
    }

    /// Opens the example again, undoably; refused with why.
    pub fn reset(self) -> Result<(), String> {
        self.open_preset(self.example)
    }

    /// Loads a saved state (JSON text), undoably; when it is refused nothing changes and the
    /// message says why. Every way a state comes in (the load box, a file, the scripting API
    /// and its postMessage twin) goes through here.
    pub fn load_state(self, json: &str) -> Result<(), String> {
        // A trained model's layer opens once the model's panel has the model.
        if let Some(trained) = serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|v| v.get("pretrained").map(ToString::to_string))
        {
            self.pretrained.set(Some(trained));
            return Ok(());
        }
        let model = crate::core::formats::state::read_state(json).map_err(|e| e.to_string())?;
        self.apply(Edit::Open(Box::new(model)))
    }

    /// Opens a model and what to show of it (from a link or the saved work), undoably; refused
    /// with why, and then nothing changes.
    pub fn open(self, link: &Link) -> Result<(), String> {
        self.apply(Edit::Open(Box::new(link.model.clone())))?;
        self.pretrained.set(link.pretrained.clone());
        self.show_as(&link.shown);
        Ok(())
    }

    /// The first head of the group whose keys and values head `h` uses (`h` itself when none
    /// are shared): the one head that shows them.
    pub fn kv_leader(self, h: usize) -> Memo<usize> {
        let leaders = self.kv_leaders;
        Memo::new(move |_| leaders.with(|l| l.get(h).copied().unwrap_or(h)))
    }

    /// One head's matrix from the trace. A memo, so a table re-renders only when its own numbers
    /// change (editing w_value leaves the scores' cells alone). Empty where the model computes
    /// none (the masking methods without a mask).
    pub fn head_matrix(self, head: usize, pick: Pick) -> Signal<DMatrix<f64>> {
        let trace = self.trace;
        Memo::new(move |_| {
            trace.with(|t| {
                t.heads
                    .get(head)
                    .and_then(pick)
                    .map_or_else(|| DMatrix::zeros(0, 0), Clone::clone)
            })
        })
        .into()
    }

    /// The gradient face of `matrix` (of `head`), if the loss has a gradient for it.
    pub fn gradient_of(self, matrix: Matrix, head: Option<usize>) -> Option<GradientOf> {
        matrix.has_gradient().then(|| {
            let gradients = self.gradients;
            GradientOf {
                shown: self.has_target.into(),
                matrix: Memo::new(move |_| {
                    gradients.with(|g| matrix.gradient(g.as_ref()?, head).cloned())
                })
                .into(),
            }
        })
    }

    /// One of the model's editable matrices (empty while the model has none, as biases when
    /// they are off).
    pub fn model_matrix(self, target: Editable) -> Signal<DMatrix<f64>> {
        let model = self.model;
        Memo::new(move |_| {
            model.with(|m| {
                m.matrix(target)
                    .map_or_else(|| DMatrix::zeros(0, 0), Clone::clone)
            })
        })
        .into()
    }

    /// The callbacks that make a view of `target` editable, as [`Edit`]s.
    pub fn editor(self, target: Editable) -> CellEditor {
        CellEditor {
            commit: Callback::new(move |(row, col, value)| {
                self.apply(Edit::Cell {
                    target,
                    row,
                    col,
                    value,
                })
            }),
            paste: Callback::new(move |(row, col, block): (usize, usize, Block)| {
                self.apply(Edit::Paste {
                    target,
                    row,
                    col,
                    block,
                })
            }),
            done: Callback::new(move |()| {
                self.apply(Edit::Seal).ok();
            }),
        }
    }

    /// Whether the walk is at `stop` now.
    pub fn at_stop(self, stop: Stop) -> bool {
        self.walk_stop.get() == Some(stop)
    }

    /// Whether the walk is at `lab` now.
    pub fn at_lab(self, lab: Lab) -> bool {
        self.at_stop(Stop::Lab(lab))
    }
}

/// The store, for components below the page.
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}

/// How matrices look: the store's, or the default when a matrix is mounted alone.
pub fn use_look() -> Look {
    use_context::<Look>().unwrap_or_default()
}

/// A matrix's gradient face: whether there is one now (cheap: the training lab has a target that
/// fits the model), and ∂L/∂cell, computed only when read (when the face is shown).
#[derive(Clone, Copy)]
pub struct GradientOf {
    /// A gradient exists.
    pub shown: Signal<bool>,
    /// The gradient.
    pub matrix: Signal<Option<DMatrix<f64>>>,
}
