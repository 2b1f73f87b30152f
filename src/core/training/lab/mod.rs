//! The training lab: its settings (what its link carries, [`Setup`]) and starts to train from;
//! its session (a run's trainer, losses and stop rule, [`session`]), its loss curves
//! ([`curve`]) and the race of the scalings ([`race`]).

pub mod curve;
pub mod race;
pub mod session;

use crate::core::model::presets::dog;
use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::{formats, training};
use crate::core::i18n::Msg;
use crate::core::model::Model;
use crate::core::training::{
    output_shape, second_key, Goal, Objective, Optimizer, Param, Target, DEFAULT_LR,
};

/// What the training lab trains towards and how: the page keeps it, the link carries it
/// (`target=`, `train=`, `optimizer=`, `lr=`) but for an output target.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The attention targets the learner set; none: the lab's default (the followed token
    /// towards the key it attends to second most, see [`Setup::targets_on`]).
    pub targets: Vec<Target>,
    /// "Match an output": this output instead of the targets (not in the link: too long).
    pub output: Option<DMatrix<f64>>,
    /// What a step changes.
    pub train: Vec<Param>,
    /// The optimiser and its learning rate.
    pub optimizer: Optimizer,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            targets: Vec::new(),
            output: None,
            train: Param::ALL.to_vec(),
            optimizer: Optimizer::Adam { lr: DEFAULT_LR },
        }
    }
}

/// The largest learning rate the lab and the link take.
pub const MAX_LR: f64 = 10.0;

/// Most targets at once.
pub const MAX_TARGETS: usize = 16;

impl Setup {
    /// The attention targets on `model` with `query` followed in `head`: the learner's, else
    /// [`start_target`]'s.
    pub fn targets_on(
        &self,
        model: &Model,
        trace: &Trace,
        query: usize,
        head: usize,
    ) -> Vec<Target> {
        if self.targets.is_empty() {
            vec![start_target(model, trace, head, query)]
        } else {
            self.targets.clone()
        }
    }

    /// The objective the lab trains towards on `model`: the output target if set and of the
    /// output's shape, else `targets` (see [`Setup::targets_on`]); `None` when no target fits
    /// the model.
    pub fn objective(&self, model: &Model, targets: &[Target]) -> Option<Objective> {
        let goal = match &self.output {
            Some(target) if target.shape() == output_shape(model) => Goal::Output(target.clone()),
            _ => Goal::Attend(targets.to_vec()),
        };
        let objective = Objective {
            goal,
            train: self.train.clone(),
        };
        objective.fits(model).then_some(objective)
    }

    /// Reads `target=H:Q,K;H:Q,K` for `model`.
    pub fn read_targets(text: &str, model: &Model) -> Result<Vec<Target>, Msg> {
        text.split(';')
            .filter(|t| !t.is_empty())
            .take(MAX_TARGETS)
            .map(|entry| {
                let numbers: Option<Vec<usize>> = entry
                    .split([':', ','])
                    .map(|n| n.trim().parse().ok())
                    .collect();
                let target = match numbers.as_deref() {
                    Some(&[head, query, key]) if entry.contains(':') => Target { head, query, key },
                    _ => return Err(training::not_a_target(entry)),
                };
                target.check(model).map_err(|e| formats::at(entry, e))?;
                Ok(target)
            })
            .collect()
    }

    /// `target=` as [`Setup::read_targets`] reads it; `None` with no targets set.
    pub fn write_targets(&self) -> Option<String> {
        let each: Vec<String> = self
            .targets
            .iter()
            .map(|t| format!("{}:{},{}", t.head, t.query, t.key))
            .collect();
        (!each.is_empty()).then(|| each.join(";"))
    }

    /// Reads `train=w_query,w_key`.
    pub fn read_train(text: &str) -> Result<Vec<Param>, Msg> {
        Param::list(text.split(',').filter(|n| !n.is_empty()))
    }

    /// What trains, as the link says it for `model`: everything when every part the model has
    /// trains (a part turned on later trains too), else only those of its parts that train (a
    /// part it lacks is not written as training).
    pub fn train_of(&self, model: &Model) -> Vec<Param> {
        let offered: Vec<Param> = Param::ALL
            .into_iter()
            .filter(|p| p.in_model(model))
            .collect();
        if offered.iter().all(|p| self.train.contains(p)) {
            Param::ALL.to_vec()
        } else {
            offered
                .into_iter()
                .filter(|p| self.train.contains(p))
                .collect()
        }
    }

    /// `train=`, in [`Param::ALL`]'s order; `None` when everything trains.
    pub fn write_train(&self) -> Option<String> {
        let names: Vec<&str> = Param::ALL
            .into_iter()
            .filter(|p| self.train.contains(p))
            .map(Param::key)
            .collect();
        (names.len() < Param::ALL.len()).then(|| names.join(","))
    }

    /// Reads `lr=`: a learning rate above 0, at most [`MAX_LR`].
    pub fn read_lr(text: &str) -> Result<f64, Msg> {
        match text.trim().parse::<f64>() {
            Ok(lr) if lr > 0.0 && lr <= MAX_LR => Ok(lr),
            _ => Err(training::not_a_learning_rate(text, MAX_LR)),
        }
    }
}

/// Where a target for `query` in `head` starts: towards the key it attends to second most on
/// `trace` (`model`'s), as a teacher asks "make her look at the ball instead".
pub fn start_target(model: &Model, trace: &Trace, head: usize, query: usize) -> Target {
    let key = trace
        .heads
        .get(head)
        .map_or(0, |h| second_key(&h.weights, query, model.causal));
    Target { head, query, key }
}

/// `model` with its projections drawn afresh (`torch.rand` after `manual_seed(seed)`, as
/// [`Model::seeded`] draws them) and its sentence and embedding kept: a start to train back
/// from (the dog story backwards, "match an output").
pub fn scrambled(model: &Model, seed: u64) -> Model {
    Model::seeded(
        model.sentence(),
        model.dims(),
        seed,
        model.causal,
        model.scale,
    )
    .and_then(|random| {
        Model::new(
            model.sentence(),
            model.embedding().clone(),
            random.heads().to_vec(),
            model.causal,
            model.scale,
        )
    })
    // Biases and the output projection stay, drawn again too.
    .and_then(|m| m.with_positions(model.positions().clone()))
    .and_then(|m| m.with_biases_on(model.has_biases(), seed))
    .and_then(|m| m.with_output_drawn_like(model, seed))
    // Shared heads and a source stay.
    .and_then(|m| m.with_kv_heads(model.kv_heads()))
    .and_then(|m| m.with_source(model.source().cloned()))
    .unwrap_or_else(|_| model.clone())
}

/// The dog story before training: its hand-made embedding with projections drawn as
/// `torch.manual_seed(seed)` would (the training lab trains them until "she" attends to "dog").
pub fn dog_untrained(seed: u64) -> Model {
    scrambled(&dog(), seed)
}
