//! What the store derives for views: a step's badge, the preset the model is, the followed
//! token's story, a head's matrices and their gradients, a matrix's editor, the walk's place.

use leptos::prelude::*;
use nalgebra::DMatrix;

use super::values::{Block, CellEditor, GradientOf};
use super::AppState;
use crate::core::document::edit::Edit;
use crate::core::i18n::Msg;
use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::model::Model;
use crate::core::teaching::story::Story;
use crate::core::views::pipeline::{Lab, Pick, Step, Stop};

impl AppState {
    /// `f` of the model, tracking only its structure (its shape, tokens and options): for what
    /// a number's edit leaves as it is.
    pub fn structure<T>(self, f: impl FnOnce(&Model) -> T) -> T {
        super::values::shaped(self.doc.structure, self.doc.model, f)
    }

    /// The number on `step`'s badge: its place among an embed's steps, else the pipeline's.
    pub fn badge(self, step: Step) -> usize {
        let shape = self.derived.shape.get();
        // An embed's steps that this model has not (`output` of one head) are not on its page.
        self.page
            .numbered
            .and_then(|steps| {
                steps
                    .iter()
                    .filter(|s| s.on_page(shape))
                    .position(|&s| s == step)
            })
            .map_or_else(|| step.number(shape), |i| i + 1)
    }

    /// The preset the model equals, number for number, if any: what the picker names. Any
    /// edit clears it; undo brings it back.
    pub fn preset(self) -> Option<&'static str> {
        self.derived.preset.get()
    }

    /// The followed token's story in the first head shown, told from the numbers on the page
    /// (none while exercises are open: its numbers could be their answers). Told once per edit
    /// for every view that says it.
    pub fn story(self) -> Option<Msg> {
        self.derived.story.get()
    }

    /// The store with its story's memo, which the store itself tells.
    pub(super) fn with_story(mut self) -> Self {
        let telling = self;
        self.derived.story = Memo::new(move |_| telling.tell_story());
        self
    }

    /// The story as [`AppState::story`] tells it, for the store's memo.
    fn tell_story(self) -> Option<Msg> {
        if self.exercises.any() {
            return None;
        }
        let head = self.derived.visible_heads.with(|v| v[0]);
        let query = self.derived.followed_or_last.get();
        let story = self.derived.trace.with(|t| Story::of(t, head, query))?;
        Some(self.structure(|m| {
            self.derived.words.with(|words| {
                self.derived.key_words.with(|keys| {
                    story.telling(m.sentence(), words, keys, self.view.look.precision.get())
                })
            })
        }))
    }

    /// The first head of the group whose keys and values head `h` uses (`h` itself when none
    /// are shared): the one head that shows them.
    pub fn kv_leader(self, h: usize) -> Memo<usize> {
        let leaders = self.derived.kv_leaders;
        Memo::new(move |_| leaders.with(|l| l.get(h).copied().unwrap_or(h)))
    }

    /// One head's matrix from the trace. A memo, so a table re-renders only when its own numbers
    /// change (editing w_value leaves the scores' cells alone). Empty where the model computes
    /// none (the masking methods without a mask).
    pub fn head_matrix(self, head: usize, pick: Pick) -> Signal<DMatrix<f64>> {
        let trace = self.derived.trace;
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
            let gradients = self.derived.gradients;
            GradientOf {
                shown: self.derived.has_target.into(),
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
        let model = self.doc.model;
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
        self.derived.walk_stop.get() == Some(stop)
    }

    /// Whether the walk is at `lab` now.
    pub fn at_lab(self, lab: Lab) -> bool {
        self.at_stop(Stop::Lab(lab))
    }
}
