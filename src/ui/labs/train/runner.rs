//! The training lab's buttons on the core's [`Session`]: a step, a run of a step a frame, a
//! pause, a reset to the numbers before training, a fresh start. Each step goes through the
//! store's reducer, so a lock or a trained layer refuses it and a run is one undo step.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::model::Model;
use crate::core::training::lab::session::Session;
use crate::core::training::{Objective, Target, MAX_STEPS};
use crate::ui::state::{use_app, AppState};
use crate::ui::tasks::each_frame;

/// The lab's session and whether a run is going, with what it trains towards.
#[derive(Clone, Copy)]
pub(super) struct Runner {
    state: AppState,
    targets: Memo<Vec<Target>>,
    objective: Memo<Option<Objective>>,
    pub session: RwSignal<Session>,
    pub running: RwSignal<bool>,
}

impl Runner {
    /// A session that follows the model: the curve is of the run that made the numbers on the
    /// page.
    pub fn new(targets: Memo<Vec<Target>>, objective: Memo<Option<Objective>>) -> Self {
        let state = use_app();
        let session = RwSignal::new(Session::default());
        Effect::new(move |_| {
            if state
                .doc
                .model
                .with(|m| session.try_update_untracked(|s| s.follow(m)))
                .unwrap_or(false)
            {
                session.notify();
            }
        });
        Runner {
            state,
            targets,
            objective,
            session,
            running: RwSignal::new(false),
        }
    }

    /// One optimiser step; false when there is nothing to train towards, the step was refused
    /// or the target is reached.
    fn step(self) -> bool {
        let (state, session) = (self.state, self.session);
        let Some(objective) = self.objective.get_untracked() else {
            return false;
        };
        // Training changes which key is second: the targets stay the ones trained towards.
        if state
            .view
            .training
            .with_untracked(|s| s.targets.is_empty() && s.output.is_none())
        {
            let fixed = self.targets.get_untracked();
            state.view.training.update(|s| s.targets = fixed);
        }
        state.view.objective.set(Some(objective.clone()));
        let optimizer = state.view.training.with_untracked(|s| s.optimizer);
        let stepped = state
            .doc
            .model
            .with_untracked(|m| {
                state
                    .derived
                    .trace
                    .with_untracked(|t| session.try_update(|s| s.step(m, t, &objective, optimizer)))
            })
            .flatten();
        let Some(model) = stepped else {
            return false;
        };
        if let Err(e) = state.apply(Edit::Train(Box::new(model))) {
            session.update(|s| s.refuse(e));
            return false;
        }
        !state
            .derived
            .trace
            .with_untracked(|t| session.with_untracked(|s| s.reached(t, &objective)))
    }

    /// The Step button: one step, its own undo step.
    pub fn step_once(self) {
        self.step();
        self.state.apply(Edit::Seal).ok();
    }

    /// Ends a run: what it changed becomes one undo step.
    pub fn stop(self) {
        self.running.set(false);
        self.session.update(Session::stop);
        self.state.apply(Edit::Seal).ok();
    }

    /// A step a frame while running (a Pause, or the lab gone, ends it), at most
    /// [`MAX_STEPS`].
    pub fn run(self) {
        self.running.set(true);
        each_frame(MAX_STEPS, move |left| {
            if !self.running.try_get_untracked().unwrap_or(false) {
                return None;
            }
            if left == 0 || !self.step() {
                self.stop();
                return None;
            }
            Some(left - 1)
        });
    }

    /// The Run button, which is Pause while running.
    pub fn toggle(self) {
        if self.running.get_untracked() {
            self.stop()
        } else {
            self.run()
        }
    }

    /// The numbers from before training (Undo brings the trained ones back).
    pub fn reset(self) {
        self.stop();
        if let Some(model) = self.session.try_update(Session::reset).flatten() {
            self.state.apply(Edit::Open(Box::new(model))).ok();
        }
    }

    /// A fresh start to train from (projections drawn at random, say).
    pub fn start_over(self, model: Model) {
        self.stop();
        self.state.apply(Edit::Open(Box::new(model.clone()))).ok();
        self.session.update(|s| s.start_from(model));
    }
}
