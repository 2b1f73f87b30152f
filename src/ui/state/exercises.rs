//! The exercises' part of the store: the link's exercises (fixed for the page), each one's
//! progress, what each card last said (the edits a goal counts are the reducer's session's). The
//! checking rule is [`crate::core::teaching::exercise`]'s; `ui::exercises` shows them; `share` saves the progress,
//! `embed` posts the results.

use leptos::prelude::*;

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::Msg;
use crate::core::model::Matrix;
use crate::core::teaching::exercise::{
    self, CellRef, Cover, Exercise, Exercises, Kind, Outcome, Progress, Verdict,
};

/// The exercises' signals, in the store.
#[derive(Clone, Copy)]
pub struct ExerciseState {
    /// The link's exercises and locks, set once as the page opens.
    pub spec: StoredValue<Exercises>,
    /// Each exercise's progress, in `spec.list`'s order.
    pub progress: RwSignal<Vec<Progress>>,
    /// What each answer field holds, kept while its table is rebuilt.
    pub typed: RwSignal<Vec<String>>,
    /// What each card last said (a hint, a verdict, a message), if anything.
    pub said: RwSignal<Vec<Option<Msg>>>,
    /// The answer field where Enter was pressed: its card checks it.
    pub submitted: RwSignal<Option<usize>>,
    /// The exercises whose progress changed since the result messages last went out, in order
    /// (one edit can meet two goals: each gets its message).
    pub changed: RwSignal<Vec<usize>>,
    /// "Make an exercise" is open: a click on a computed cell picks it.
    pub authoring: RwSignal<bool>,
    /// The cell the author picked.
    pub picked: RwSignal<Option<CellRef>>,
    /// The exercise being made (it starts as the link's); the Embed dialog carries it.
    pub draft: RwSignal<Exercises>,
}

impl Default for ExerciseState {
    fn default() -> Self {
        ExerciseState {
            spec: StoredValue::new(Exercises::default()),
            progress: RwSignal::new(Vec::new()),
            typed: RwSignal::new(Vec::new()),
            said: RwSignal::new(Vec::new()),
            changed: RwSignal::new(Vec::new()),
            submitted: RwSignal::new(None),
            authoring: RwSignal::new(false),
            picked: RwSignal::new(None),
            draft: RwSignal::new(Exercises::default()),
        }
    }
}

impl ExerciseState {
    /// Sets the page's exercises, each not started yet.
    pub fn open(self, spec: Exercises) {
        let n = spec.list.len();
        self.draft.set(spec.clone());
        self.spec.set_value(spec);
        self.progress.set(vec![Progress::default(); n]);
        self.typed.set(vec![String::new(); n]);
        self.said.set(vec![None; n]);
    }

    /// Takes back the progress saved for these exercises (by exercise id); says how many.
    pub fn restore(self, saved: &[(String, Progress)]) -> usize {
        let ids: Vec<String> = self
            .spec
            .with_value(|s| s.list.iter().map(Exercise::id).collect());
        let mut restored = 0;
        self.progress.update(|progress| {
            for (slot, id) in progress.iter_mut().zip(ids) {
                if let Some((_, p)) = saved.iter().find(|(saved, _)| *saved == id) {
                    *slot = p.clone();
                    restored += 1;
                }
            }
        });
        restored
    }

    /// Every exercise's progress as the saved work and `progress()` write it (one line each).
    pub fn progress_text(self) -> String {
        let ids = self
            .spec
            .with_value(|s| s.list.iter().map(Exercise::id).collect::<Vec<_>>());
        let progress = self.progress.get_untracked();
        exercise::write_progress(&ids.into_iter().zip(progress).collect::<Vec<_>>())
    }

    /// Whether the page has any exercise (or lock).
    pub fn any(self) -> bool {
        self.spec.with_value(|s| !s.is_empty())
    }

    /// The exercise at `index`.
    pub fn exercise(self, index: usize) -> Option<Exercise> {
        self.spec.with_value(|s| s.list.get(index).copied())
    }

    /// What the view of matrix `name` (of `head`) hides now.
    pub fn cover(self, matrix: Matrix, head: Option<usize>) -> Memo<Cover> {
        let (spec, progress) = (self.spec, self.progress);
        Memo::new(move |_| progress.with(|p| spec.with_value(|s| s.cover(p, matrix, head))))
    }

    /// Whether row `row` of `head`'s weights is still hidden, predicted or with an asked
    /// weight: the attention lines, the heads' picture and the context's words wait for it too.
    pub fn hides_row(self, head: usize, row: usize) -> bool {
        self.progress
            .with(|p| self.spec.with_value(|s| s.hides_row(p, head, row)))
    }

    /// Whether a prediction is still to be made (tracked).
    pub fn predicting(self) -> bool {
        self.progress
            .with(|p| self.spec.with_value(|s| s.predicting(p)))
    }

    fn record(self, index: usize, progress: Progress, said: Option<Msg>) {
        self.progress.update(|p| {
            if let Some(slot) = p.get_mut(index) {
                *slot = progress;
            }
        });
        self.say(index, said);
        self.changed.update(|c| c.push(index));
    }

    /// Shows `words` on exercise `index`'s card (and in its live region).
    pub fn say(self, index: usize, words: Option<Msg>) {
        self.said.update(|s| {
            if let Some(slot) = s.get_mut(index) {
                *slot = words;
            }
        });
    }

    /// Checks what answer field `index` holds against `trace` (`decimals` shown).
    pub fn check(self, index: usize, trace: &Trace, decimals: usize) {
        let Some(Exercise::Ask(cell)) = self.exercise(index) else {
            return;
        };
        let text = self
            .typed
            .with_untracked(|t| t.get(index).cloned().unwrap_or_default());
        let mut progress = self.progress_of(index);
        match exercise::check(&cell, trace, decimals, &text, &mut progress) {
            Ok(verdict) => {
                let words = match verdict {
                    Verdict::Right => say::right.into(),
                    Verdict::NotYet(hint) => say::not_yet(progress.attempts, exercise::TRIES, hint),
                    Verdict::Revealed => say::revealed(exercise::worked(&cell, trace, decimals)),
                };
                self.record(index, progress, Some(words));
            }
            Err(message) => self.say(index, Some(say::not_checked(message))),
        }
    }

    /// "Show me": reveals answer `index`.
    pub fn reveal(self, index: usize, trace: &Trace, decimals: usize) {
        let Some(Exercise::Ask(cell)) = self.exercise(index) else {
            return;
        };
        let mut progress = self.progress_of(index);
        if progress.done() {
            return;
        }
        progress.outcome = Outcome::Revealed;
        self.record(
            index,
            progress,
            Some(say::shown(exercise::worked(&cell, trace, decimals))),
        );
    }

    /// Records prediction `choice` (a word's index) for exercise `index`.
    pub fn predict(self, index: usize, choice: usize, trace: &Trace) {
        let Some(Exercise::Predict { head, row }) = self.exercise(index) else {
            return;
        };
        let mut progress = self.progress_of(index);
        match exercise::predict(head, row, trace, choice, &mut progress) {
            Ok(right) => {
                let best = exercise::largest(trace, head, row)
                    .and_then(|k| trace.key_tokens().words.get(k).cloned())
                    .unwrap_or_default();
                let words = if right {
                    say::predicted_right(best)
                } else {
                    say::predicted_wrong(best)
                };
                self.record(index, progress, Some(words));
            }
            Err(message) => self.say(index, Some(say::not_checked(message))),
        }
    }

    /// Marks every goal `trace` meets as reached, with the `edits` it took (the reducer's
    /// count).
    pub fn follow_goals(self, trace: &Trace, edits: u32) {
        let goals: Vec<(usize, f64)> = self.spec.with_value(|s| s.goals_met(trace).collect());
        for (k, value) in goals {
            if self.progress_of(k).outcome == Outcome::Open {
                let (progress, words) = Progress::reached(value, edits);
                self.record(k, progress, Some(words));
            }
        }
    }

    fn progress_of(self, index: usize) -> Progress {
        self.progress
            .with_untracked(|p| p.get(index).cloned().unwrap_or_default())
    }

    /// Every exercise's result, as `results()` and the result messages give it (`activity`:
    /// the page's address), as a JSON list.
    pub fn results(self, trace: &Trace, activity: &str) -> String {
        let progress = self.progress.get_untracked();
        let results = self.spec.with_value(|s| {
            s.list
                .iter()
                .zip(&progress)
                .map(|(e, p)| exercise::result_json(e, p, e.expected(trace), activity))
                .collect::<Vec<_>>()
        });
        format!("[{}]", results.join(","))
    }

    /// Exercise `index`'s result.
    pub fn result(self, index: usize, trace: &Trace, activity: &str) -> Option<String> {
        let e = self.exercise(index)?;
        let p = self.progress_of(index);
        Some(exercise::result_json(&e, &p, e.expected(trace), activity))
    }

    /// The kinds on the page, for the cards' words.
    pub fn has(self, kind: Kind) -> bool {
        self.spec.with_value(|s| s.of(kind).next().is_some())
    }
}
