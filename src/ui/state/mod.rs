//! The page's store, below every component: the learner's work (model, undo history, seed),
//! how it is shown, what the page was opened as, and the memos derived from them. Views read
//! it; they change the work only by [`AppState::apply`] of an [`Edit`], which runs the core's
//! one reducer.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;

use crate::core::decoder::Choosing;
use crate::core::document::edit::Session;
use crate::core::document::history::History;
use crate::core::formats::link::{Controls as Level, Shown, DEFAULT_DECIMALS};
use crate::core::forward::trace::Trace;
use crate::core::model::presets::{followed_by_default, matching, DEFAULT_SEED};
use crate::core::model::Model;
use crate::core::training::lab::Setup;
use crate::core::training::{gradients, Gradients, Objective};
use crate::core::views::pipeline::{stops, Shape, Step, Stop};
use crate::ui::theme;

mod derived;
mod document;
mod exercises;
mod shown;
mod values;

pub use exercises::ExerciseState;
use values::shaped;
pub use values::{
    Block, CellEditor, Detail, GradientOf, Look, TrainedModel, ALL_HEADS_CELL_BUDGET,
};

/// The store, provided by context to every component below the page. `Copy`, so closures
/// capture it freely. Grouped by who changes what: the learner's work (`doc`, through
/// [`AppState::apply`] only), how it is shown (`view`), what the page was opened as (`page`),
/// what is computed from them (`derived`), and the link's exercises.
#[derive(Clone, Copy)]
pub struct AppState {
    pub doc: Work,
    pub view: View,
    pub page: Page,
    pub derived: Derived,
    /// The link's exercises and their progress.
    pub exercises: ExerciseState,
}

/// The learner's work: what undo, the link and the saved work cover.
#[derive(Clone, Copy)]
pub struct Work {
    /// The single source of truth: everything on the page is derived from it.
    pub model: RwSignal<Model>,
    /// Notified with `model` by every edit but a number's: what depends on the model's
    /// shape, tokens and options only tracks this (see [`AppState::structure`]), so a number
    /// typed wakes the tables' numbers and nothing else.
    pub structure: Trigger,
    /// The steps before and after the model.
    pub history: RwSignal<History>,
    /// Seed for re-initialising and for filling new numbers when a shape grows.
    pub seed: RwSignal<u64>,
    /// An exercise page's locks and the edits made (a goal's attempts); read, not watched.
    pub session: StoredValue<Session>,
    /// The trained models, while their panels hold them: their tokenizers for the sentence box,
    /// their layers for the order lab. [`AppState::trained_in_page`] finds the page's.
    pub trained: StoredValue<Vec<Arc<dyn TrainedModel>>>,
    /// What the language model says comes after the page's prompt, as `attention-trace
    /// --decoder` prints `next`, while its panel has run the page's model (the scripting API's
    /// `trace()` adds it).
    pub next: StoredValue<Option<serde_json::Value>>,
    /// A trained model's layer a link or the saved work names (its state's `pretrained`, as
    /// JSON text), until its panel has fetched the model and opened it.
    pub pretrained: RwSignal<Option<String>>,
}

/// How the work is shown: what the URL carries besides the model.
#[derive(Clone, Copy)]
pub struct View {
    /// The token the learner follows (link: `focus=`), highlighted in every step.
    pub followed: RwSignal<Option<usize>>,
    /// The head shown in full when not every head fits (see [`ALL_HEADS_CELL_BUDGET`]).
    pub focused_head: RwSignal<usize>,
    /// The steps the learner hid, in pipeline order.
    pub hidden: RwSignal<Vec<Step>>,
    /// How matrices look (decimals, palette, faces), also provided on its own.
    pub look: Look,
    /// The clicked cell whose explanation is shown.
    pub detail: RwSignal<Option<Detail>>,
    /// The guided walk's place in [`stops`], while it runs, as last set.
    pub walk: RwSignal<Option<usize>>,
    /// The training lab's targets, what trains and how.
    pub training: RwSignal<Setup>,
    /// How the language model chooses the next token.
    pub choosing: RwSignal<Choosing>,
    /// The page's target: a link's or one the learner set in the training lab, or the one it
    /// last trained towards ("Copy as PyTorch" adds it; the ∂L faces read it).
    pub objective: RwSignal<Option<Objective>>,
}

/// What the page was opened as, fixed once the link is read, and its own signals.
#[derive(Clone, Copy)]
pub struct Page {
    /// The preset "Reset to the example" opens: the link's, else the default.
    pub example: &'static str,
    /// An embed's trained layer as its link names it (a state's `pretrained`): Reset opens it
    /// again, not [`Page::example`].
    pub trained_example: Option<&'static str>,
    /// The page is an embed (`embed=1`): no labs, no walk.
    pub embedded: bool,
    /// An embed's steps (`steps=`), numbered 1, 2, … in it; `None`: the pipeline's numbers.
    pub numbered: Option<&'static [Step]>,
    /// The controls the page shows (`controls=`): with none, a student cannot hide steps either.
    pub controls: Level,
    /// The Embed dialog is open (its button, or the exercise maker's "Embed this exercise").
    pub embedding: RwSignal<bool>,
    /// The link and the saved work could not be read (their reader did not arrive): the page
    /// shows the default example and must not write over them.
    pub link_unread: bool,
    /// Notified each time the URL and the saved work have been brought up to date (after
    /// [`crate::ui::share::keep_in_url`]'s pause): links made from the state follow it.
    pub written: Trigger,
}

/// What views read, computed from the work and the view: memos, never set.
#[derive(Clone, Copy)]
pub struct Derived {
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
    /// The preset the model equals, if any (see [`AppState::preset`]): asked once per edit.
    pub preset: Memo<Option<&'static str>>,
    /// Which steps the page has (the heads, an output projection).
    pub shape: Memo<Shape>,
    /// The heads whose tables are in the page, in order.
    pub visible_heads: Memo<Vec<usize>>,
    /// The followed token, or the last one until the learner picks one (it sees every token,
    /// even when causal): the query that attention lines and the heads picture show.
    pub followed_or_last: Memo<usize>,
    /// The walk's place kept within the stops there are now (fewer heads drop the heads' stop).
    pub walk_at: Memo<Option<usize>>,
    /// The section the walk is at.
    pub walk_stop: Memo<Option<Stop>>,
    /// The target still fits the model (cheap: read by every matrix's ∂L button).
    pub has_target: Memo<bool>,
    /// Its loss's gradient on the model as it is, while the target fits: computed only while a
    /// gradient face reads it, not on every edit or training step.
    pub gradients: Memo<Option<Gradients>>,
    /// The followed token's story (see [`AppState::story`]).
    pub story: Memo<Option<crate::core::i18n::Msg>>,
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
        let structure = Trigger::new();
        // Owning the previous trace lets an edit reuse the heads it did not touch, and report
        // "unchanged" when a number was rewritten with itself, so nothing re-renders.
        let trace = Memo::new_owning(move |previous| model.with(|m| Trace::refresh(previous, m)));
        let heads = Memo::new(move |_| shaped(structure, model, |m| m.heads().len()));
        let shape = Memo::new(move |_| shaped(structure, model, Shape::of));
        let focused_head = RwSignal::new(0);
        let visible_heads = Memo::new(move |_| {
            // n × m tables: m keys, the source's tokens when there is one.
            let (n, m, h) = shaped(structure, model, |m| {
                (m.tokens().len(), m.key_tokens().len(), m.heads().len())
            });
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
        let followed = RwSignal::new(None::<usize>);
        let words = Memo::new(move |_| shaped(structure, model, |m| m.tokens().words.clone()));
        let key_words =
            Memo::new(move |_| shaped(structure, model, |m| m.key_tokens().words.clone()));
        let followed_or_last = Memo::new(move |_| {
            let n = words.with(Vec::len);
            followed.get().filter(|&i| i < n).unwrap_or_else(|| {
                shaped(structure, model, |m| followed_by_default(m.sentence(), n))
            })
        });
        let seed = RwSignal::new(DEFAULT_SEED);
        let hidden = RwSignal::new(Vec::new());
        let objective = RwSignal::new(None::<Objective>);
        let has_target = Memo::new(move |_| {
            objective.with(|o| {
                o.as_ref()
                    .is_some_and(|o| shaped(structure, model, |m| o.fits(m)))
            })
        });
        let state = AppState {
            doc: Work {
                model,
                structure,
                history: RwSignal::new(History::default()),
                seed,
                session: StoredValue::new(Session::default()),
                trained: StoredValue::new(Vec::new()),
                next: StoredValue::new(None),
                pretrained: RwSignal::new(None),
            },
            view: View {
                followed,
                focused_head,
                hidden,
                look: Look {
                    precision: RwSignal::new(DEFAULT_DECIMALS),
                    palette: RwSignal::new(theme::current_palette()),
                    faces: RwSignal::new(HashMap::new()),
                },
                detail: RwSignal::new(None),
                walk,
                training: RwSignal::new(Setup::default()),
                choosing: RwSignal::new(Choosing::default()),
                objective,
            },
            page: Page {
                example,
                trained_example: None,
                embedded,
                numbered: None,
                controls: Level::All,
                embedding: RwSignal::new(false),
                link_unread: false,
                written: Trigger::new(),
            },
            derived: Derived {
                trace,
                causal: Memo::new(move |_| shaped(structure, model, |m| m.causal)),
                words,
                key_words,
                heads,
                kv_leaders: Memo::new(move |_| shaped(structure, model, Model::kv_leaders)),
                preset: Memo::new(move |_| model.with(matching)),
                shape,
                visible_heads,
                followed_or_last,
                walk_at,
                walk_stop,
                has_target,
                gradients: Memo::new(move |_| {
                    if !has_target.get() {
                        return None;
                    }
                    objective.with(|o| model.with(|m| o.as_ref().map(|o| gradients(m, o))))
                }),
                story: Memo::new(|_| None), // told by `with_story`, never read before
            },
            exercises: ExerciseState::default(),
        }
        .with_story();
        state.show_as(start);
        state
    }

    /// Provides the store and its [`Look`] to the components below.
    pub fn provide(self) {
        provide_context(self);
        provide_context(self.view.look);
        provide_context(self.exercises);
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
