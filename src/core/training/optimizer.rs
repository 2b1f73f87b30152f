//! The optimisers `torch.optim` computes (SGD, Adam), stepping a model along the gradient, and
//! a step taken only when every number stays within the limits a saved state keeps.

use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::training;
use crate::core::i18n::Msg;
use crate::core::model::{Editable, Model};
use crate::core::training::backward::{gradients_on, Gradients};
use crate::core::training::objective::{Objective, Param};

/// An optimiser, as `torch.optim` computes it in float64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Optimizer {
    /// `SGD(lr)`: p ← p − lr·g.
    Sgd {
        /// The learning rate.
        lr: f64,
    },
    /// `Adam(lr)` with β = (0.9, 0.999), ε = 1e-8, bias-corrected.
    Adam {
        /// The learning rate.
        lr: f64,
    },
}

/// The learning rate when none is given.
pub const DEFAULT_LR: f64 = 0.05;

impl Optimizer {
    /// The optimiser called `name` (`"adam"` when `None`) with learning rate `lr`, as the CLI,
    /// the scripting API and the training lab name it; refused with a message otherwise.
    pub fn named(name: Option<&str>, lr: f64) -> Result<Optimizer, Msg> {
        if !(lr.is_finite() && lr > 0.0) {
            return Err(training::lr_positive(lr));
        }
        match name.unwrap_or("adam") {
            "adam" => Ok(Optimizer::Adam { lr }),
            "sgd" => Ok(Optimizer::Sgd { lr }),
            other => Err(training::unknown_optimizer(other)),
        }
    }

    /// Its name, as [`Optimizer::named`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Optimizer::Sgd { .. } => "sgd",
            Optimizer::Adam { .. } => "adam",
        }
    }

    /// Its learning rate.
    pub fn lr(self) -> f64 {
        match self {
            Optimizer::Sgd { lr } | Optimizer::Adam { lr } => lr,
        }
    }
}

/// An optimiser with its state (Adam's running averages), stepping a model towards an objective
/// one step at a time, as a training loop calls `optimizer.step()`.
#[derive(Clone, Debug)]
pub struct Trainer {
    optimizer: Optimizer,
    /// Adam's state per trained matrix: its first and second moments and its own step count
    /// (a matrix without a gradient is skipped, as torch.optim skips a parameter whose grad is
    /// None: W_output under an attention target).
    moments: Vec<Moments>,
}

impl Trainer {
    /// A trainer that has taken no step.
    pub fn new(optimizer: Optimizer) -> Trainer {
        Trainer {
            optimizer,
            moments: Vec::new(),
        }
    }

    /// Its optimiser.
    pub fn optimizer(&self) -> Optimizer {
        self.optimizer
    }

    /// One step on `model`; returns the gradients it took (their loss is the loss before it).
    /// A step that would put a number past the limits a saved state keeps (or whose loss is not
    /// finite) is refused whole: the model and the optimiser's state stay as they were, so the
    /// link and the saved work always read back.
    pub fn step(&mut self, model: &mut Model, objective: &Objective) -> Result<Gradients, Refused> {
        let trace = Trace::of(model);
        self.step_on(model, &trace, objective)
    }

    /// [`Trainer::step`] from `trace`, `model`'s forward pass (the page's, already there).
    pub fn step_on(
        &mut self,
        model: &mut Model,
        trace: &Trace,
        objective: &Objective,
    ) -> Result<Gradients, Refused> {
        let g = gradients_on(model, trace, objective);
        let refuse = |reason: Msg| Refused {
            loss: g.loss,
            reason,
        };
        if !g.loss.is_finite() {
            return Err(refuse(training::loss_not_finite.into()));
        }
        // Taken on copies, kept only when every number stays within the limits: no
        // half-taken step.
        let (mut next, mut moments) = (model.clone(), self.moments.clone());
        for target in trained(model, &objective.train) {
            let (Some(grad), Some(p)) = (g.of(target), next.matrix_mut(target)) else {
                continue;
            };
            match self.optimizer {
                Optimizer::Sgd { lr } => *p -= grad * lr,
                Optimizer::Adam { lr } => {
                    let k = match moments.iter().position(|s| s.of == target) {
                        Some(k) => k,
                        None => {
                            moments.push(Moments::new(target, grad.shape()));
                            moments.len() - 1
                        }
                    };
                    moments[k].adam(p, grad, lr);
                }
            }
        }
        next.check_limits().map_err(refuse)?;
        *model = next;
        self.moments = moments;
        Ok(g)
    }
}

/// A training step not taken, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The loss before it (the model's, unchanged).
    pub loss: f64,
    /// What the step would have done.
    pub reason: Msg,
}

impl Refused {
    /// What to tell the learner: what happened and what to do.
    pub fn message(&self) -> Msg {
        training::step_not_taken(self.reason.clone())
    }
}

/// Adam's state for one matrix.
#[derive(Clone, Debug)]
struct Moments {
    of: Editable,
    m: DMatrix<f64>,
    v: DMatrix<f64>,
    steps: i32,
}

impl Moments {
    fn new(of: Editable, (rows, cols): (usize, usize)) -> Moments {
        Moments {
            of,
            m: DMatrix::zeros(rows, cols),
            v: DMatrix::zeros(rows, cols),
            steps: 0,
        }
    }

    /// One Adam step of `p` along `grad`: the moments move, and `p` with them.
    fn adam(&mut self, p: &mut DMatrix<f64>, grad: &DMatrix<f64>, lr: f64) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        self.steps += 1;
        // As torch.optim.Adam's single-tensor path orders the arithmetic.
        self.m.zip_apply(grad, |m, g| *m += (g - *m) * (1.0 - B1));
        self.v
            .zip_apply(grad, |v, g| *v = *v * B2 + g * g * (1.0 - B2));
        let correction1 = 1.0 - B1.powi(self.steps);
        let correction2_sqrt = (1.0 - B2.powi(self.steps)).sqrt();
        let step_size = lr / correction1;
        for ((p, &m), &v) in p.iter_mut().zip(self.m.iter()).zip(self.v.iter()) {
            *p -= step_size * m / (v.sqrt() / correction2_sqrt + EPS);
        }
    }
}

/// The matrices `train` names that the model has, in a fixed order: the embedding, then each
/// head's projections and biases, then the output projection.
fn trained(model: &Model, train: &[Param]) -> Vec<Editable> {
    Param::ALL
        .into_iter()
        .filter(|p| train.contains(p) && p.in_model(model))
        .flat_map(|p| p.matrices(model.heads().len()))
        .filter(|&m| model.matrix(m).is_some())
        .collect()
}

/// Most steps a training run takes: a call of [`train`] where a step is cheap, or a Run of the
/// lab before it pauses by itself (about four minutes at 64 tokens × 8 heads), so a forgotten
/// one does not run for ever.
pub const MAX_STEPS: usize = 10_000;

/// Most steps one call of [`train`] may take: [`MAX_STEPS`] where a step is cheap, fewer as the model
/// grows, so that a call takes at most a couple of seconds in the page (a script's `train()`
/// runs on the page's one thread; a frozen page for minutes looks like a crash).
pub fn max_steps(model: &Model) -> usize {
    // Multiply-adds of one forward pass; a step is about three. About 1.5e9 took 2 s in wasm
    // (the limits' step, 44 ms natively, measured in docs/developers/benchmarks.md).
    const BUDGET: f64 = 1.5e9;
    let n = model.tokens().len() as f64;
    let d_in = model.embedding().ncols() as f64;
    let forward: f64 = model
        .heads()
        .iter()
        .map(|h| {
            let (d_k, d_v) = (h.d_k() as f64, h.d_v() as f64);
            n * d_in * (2.0 * d_k + d_v) + n * n * (d_k + d_v)
        })
        .sum();
    ((BUDGET / forward.max(1.0)) as usize).clamp(1, MAX_STEPS)
}

/// What [`train`] did.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The loss before each step taken and after the last (one more than the steps taken).
    pub losses: Vec<f64>,
    /// The model after the steps taken.
    pub model: Model,
    /// The step that was refused, which ended the training early.
    pub refused: Option<Refused>,
}

/// `steps` optimiser steps on `model` towards `objective`, stopping at a step refused
/// ([`Trainer::step`]).
pub fn train(model: &Model, objective: &Objective, optimizer: Optimizer, steps: usize) -> Trained {
    let mut model = model.clone();
    let mut trainer = Trainer::new(optimizer);
    let mut losses = Vec::with_capacity(steps + 1);
    for _ in 0..steps {
        match trainer.step(&mut model, objective) {
            Ok(g) => losses.push(g.loss),
            Err(refused) => {
                losses.push(refused.loss);
                return Trained {
                    losses,
                    model,
                    refused: Some(refused),
                };
            }
        }
    }
    losses.push(objective.loss(&Trace::of(&model)));
    Trained {
        losses,
        model,
        refused: None,
    }
}
