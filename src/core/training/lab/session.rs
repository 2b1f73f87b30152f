//! The training lab's session: the trainer that steps the page's model, the numbers from
//! before the first step (Reset), the losses of the curve, why the last step was not taken,
//! and a run's stop rule. The page applies the models it makes; the session knows nothing of
//! the page.

use crate::core::forward::trace::Trace;
use crate::core::i18n::Msg;
use crate::core::model::Model;
use crate::core::training::{Goal, Objective, Optimizer, Trainer};

/// A training session, as the lab's Step, Run, Pause and Reset drive it.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The trainer (Adam's moments), the model its last step made and the objective it stepped
    /// towards: the next step goes on from there only on that model.
    last: Option<(Trainer, Model, Objective)>,
    /// The numbers before the first step, for Reset.
    before: Option<Model>,
    /// The loss before each step taken, of the curve on the page.
    losses: Vec<f64>,
    /// Why the last step was not taken.
    refused: Option<Msg>,
    /// A run's stop rule: it stops once the first target's weight reaches this.
    until: Option<f64>,
}

impl Session {
    /// One step of `optimizer` from `model` (whose forward pass is `trace`) towards `objective`:
    /// the model it makes, or `None` when the step is refused (why: [`Session::refused`]). A new
    /// objective or optimiser starts a new curve; a model the session did not make starts a new
    /// optimiser state.
    pub fn step(
        &mut self,
        model: &Model,
        trace: &Trace,
        objective: &Objective,
        optimizer: Optimizer,
    ) -> Option<Model> {
        let kept = self
            .last
            .take()
            .filter(|(t, _, towards)| towards == objective && t.optimizer() == optimizer);
        if kept.is_none() {
            self.losses.clear();
            self.refused = None;
        }
        let mut trainer = kept
            .filter(|(_, last, _)| last == model)
            .map_or_else(|| Trainer::new(optimizer), |(t, ..)| t);
        self.before.get_or_insert_with(|| model.clone());
        let mut next = model.clone();
        let stepped = trainer.step_on(&mut next, trace, objective);
        self.last = Some((trainer, next.clone(), objective.clone()));
        match stepped {
            Ok(g) => {
                self.refused = None;
                self.losses.push(g.loss);
                Some(next)
            }
            Err(r) => {
                self.refused = Some(r.message());
                None
            }
        }
    }

    /// Steps from `model` until the stop rule holds, a step is refused or `steps` are taken: the
    /// model reached (what a Run does, a frame a step, in the page).
    pub fn run(
        &mut self,
        model: Model,
        objective: &Objective,
        optimizer: Optimizer,
        steps: usize,
    ) -> Model {
        let (mut model, mut trace) = (model, None);
        for _ in 0..steps {
            let now = trace.take().unwrap_or_else(|| Trace::of(&model));
            let Some(next) = self.step(&model, &now, objective, optimizer) else {
                break;
            };
            model = next;
            let after = Trace::of(&model);
            if self.reached(&after, objective) {
                break;
            }
            trace = Some(after);
        }
        self.stop();
        model
    }

    /// The page would not take the model the last step made (an exercise's lock): why.
    pub fn refuse(&mut self, why: Msg) {
        self.refused = Some(why);
    }

    /// Runs from here on stop once the first attention target's weight reaches `weight`.
    pub fn stop_at(&mut self, weight: f64) {
        self.until = Some(weight);
    }

    /// A run stopped: the stop rule goes with it.
    pub fn stop(&mut self) {
        self.until = None;
    }

    /// Whether the stop rule holds on `trace`, the page's after a step towards `objective`.
    pub fn reached(&self, trace: &Trace, objective: &Objective) -> bool {
        self.until
            .is_some_and(|goal| first_weight(trace, objective) >= goal)
    }

    /// Keeps the curve only while `model` (the page's) is the one the last step made: an Undo
    /// past the run, or any other change, leaves numbers it did not make. Whether it went.
    pub fn follow(&mut self, model: &Model) -> bool {
        let made = self.last.as_ref().is_some_and(|(_, last, _)| last == model);
        let gone = !made && !self.losses.is_empty();
        if gone {
            self.losses.clear();
            self.last = None;
        }
        gone
    }

    /// Reset: the numbers from before the first step, if any step was taken since the last
    /// reset or start; the session as new.
    pub fn reset(&mut self) -> Option<Model> {
        let before = self.before.take();
        *self = Session::default();
        before
    }

    /// Training starts over from `model` (a fresh random start): Reset comes back to it.
    pub fn start_from(&mut self, model: Model) {
        self.stop();
        self.before = Some(model);
    }

    /// The loss before each step of the curve.
    pub fn losses(&self) -> &[f64] {
        &self.losses
    }

    /// Why the last step was not taken.
    pub fn refused(&self) -> Option<&Msg> {
        self.refused.as_ref()
    }
}

/// The first attention target's weight on `trace` (NaN for an output to match).
pub fn first_weight(trace: &Trace, objective: &Objective) -> f64 {
    match &objective.goal {
        Goal::Attend(targets) => targets
            .first()
            .and_then(|t| {
                trace
                    .heads
                    .get(t.head)?
                    .weights
                    .get((t.query, t.key))
                    .copied()
            })
            .unwrap_or(f64::NAN),
        Goal::Output(_) => f64::NAN,
    }
}
