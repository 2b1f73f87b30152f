//! The race of the scalings: one objective from one start, trained under each [`Scale`].

use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::{settings, training};
use crate::core::i18n::{Arg, Msg};
use crate::core::model::presets::RASCHKA_SENTENCE;
use crate::core::model::torch_rng::TorchRng;
use crate::core::model::{Head, Model, Projection, Scale};
use crate::core::text::fmt_significant;
use crate::core::training::{Goal, Objective, Optimizer, Param, Trainer, DEFAULT_LR};

use super::Setup;

/// One scaling's run in the race.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The scaling.
    pub scale: Scale,
    /// The loss before each step, then after the last.
    pub losses: Vec<f64>,
    /// ‖∂L/∂W_query‖ at the start (Frobenius, over every head): what reaches the query weights.
    pub grad_w_query: f64,
    /// Why its steps stopped being taken, from the first refused one.
    pub refused: Option<Msg>,
}

impl Lane {
    /// The last loss over the first: 1 is no progress, 0.01 a hundred times lower.
    pub fn progress(&self) -> f64 {
        match (self.losses.first(), self.losses.last()) {
            (Some(first), Some(last)) => last / first,
            _ => f64::NAN,
        }
    }
}

/// The race's lanes, in the order the plot and `data-curve` name them.
pub const RACE_SCALES: [Scale; 3] = [Scale::None, Scale::SqrtDk, Scale::Dk];

/// Steps each scaling trains in the race.
pub const RACE_STEPS: usize = 100;

/// A race under way: each of [`RACE_SCALES`] trains its own copy of one start towards one
/// objective, a step of each at a time (the page steps it once a frame).
#[derive(Clone, Debug)]
pub struct Race {
    objective: Objective,
    runners: Vec<(Model, Trainer)>,
    lanes: Vec<Lane>,
    /// The steps each lane takes.
    steps: usize,
}

impl Race {
    /// `model` under each scaling, ready to take `steps` steps of `optimizer`.
    pub fn start(model: &Model, objective: &Objective, optimizer: Optimizer, steps: usize) -> Race {
        let (runners, lanes) = RACE_SCALES
            .into_iter()
            .map(|scale| {
                let mut start = model.clone();
                start.scale = scale;
                let lane = Lane {
                    scale,
                    losses: Vec::with_capacity(steps + 1),
                    grad_w_query: f64::NAN,
                    refused: None,
                };
                ((start, Trainer::new(optimizer)), lane)
            })
            .unzip();
        Race {
            objective: objective.clone(),
            runners,
            lanes,
            steps,
        }
    }

    /// One optimiser step in every lane, until the race is [done](Race::done). A step's
    /// gradients give the loss before it (and, the first, the gradient reaching W_query), so
    /// only the loss after the last step needs a pass of its own.
    pub fn step(&mut self) {
        if self.done() {
            return;
        }
        let last = self.steps() + 1 == self.steps;
        for ((model, trainer), lane) in self.runners.iter_mut().zip(&mut self.lanes) {
            // A lane whose step is refused stays where it is for the rest of the race.
            let loss = match trainer.step(model, &self.objective) {
                Ok(g) => {
                    if lane.losses.is_empty() {
                        lane.grad_w_query = g
                            .heads
                            .iter()
                            .map(|h| h.w_query.norm_squared())
                            .sum::<f64>()
                            .sqrt();
                    }
                    g.loss
                }
                Err(refused) => {
                    lane.refused.get_or_insert(refused.reason);
                    refused.loss
                }
            };
            lane.losses.push(loss);
            if last {
                lane.losses.push(self.objective.loss(&Trace::of(model)));
            }
        }
    }

    /// The steps taken.
    pub fn steps(&self) -> usize {
        self.lanes[0].losses.len().min(self.steps)
    }

    /// Whether every lane has taken its steps.
    pub fn done(&self) -> bool {
        self.lanes[0].losses.len() > self.steps
    }

    /// Each scaling's run so far, in [`RACE_SCALES`]' order: the loss before each step taken,
    /// and once done the loss after the last.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The objective raced towards.
    pub fn objective(&self) -> &Objective {
        &self.objective
    }
}

/// A whole race: `steps` steps of `optimizer` under each of [`RACE_SCALES`].
pub fn race(model: &Model, objective: &Objective, optimizer: Optimizer, steps: usize) -> Vec<Lane> {
    let mut race = Race::start(model, objective, optimizer, steps);
    while !race.done() {
        race.step();
    }
    race.lanes
}

/// The race's example, chosen by measurement (docs/learners.md, "The race of the scalings"): Raschka's
/// sentence, d_in = d_k = 64, d_v = 4, every number unit-normal (torch's double normal sampler,
/// [`TorchRng::normal_f64`], seed [`RACE_SEED`]); the target is the output of other unit-normal W_query and W_key (÷√dₖ), and
/// only W_query and W_key train, so the loss reaches them through the softmax.
pub fn race_example() -> (Model, Setup) {
    const D: usize = 64;
    let mut rng = TorchRng::manual_seed(RACE_SEED);
    let mut normals = |rows: usize, cols: usize| {
        let values: Vec<f64> = (0..rows * cols).map(|_| rng.normal_f64()).collect();
        DMatrix::from_row_slice(rows, cols, &values)
    };
    let words = crate::core::model::tokens::Tokens::new(RASCHKA_SENTENCE)
        .vocabulary
        .len();
    let embedding = normals(words, D);
    let head = Head {
        w_query: normals(D, D),
        w_key: normals(D, D),
        w_value: normals(D, 4),
        biases: None,
    };
    let teacher = Head {
        w_query: normals(D, D),
        w_key: normals(D, D),
        ..head.clone()
    };
    let model = |head: Head| {
        Model::new(
            RASCHKA_SENTENCE,
            embedding.clone(),
            vec![head],
            false,
            Scale::SqrtDk,
        )
        .expect("the race example's shapes agree")
    };
    let target = Trace::of(&model(teacher)).output;
    let setup = Setup {
        targets: Vec::new(),
        output: Some(target),
        train: vec![
            Param::Weight(Projection::Query),
            Param::Weight(Projection::Key),
        ],
        optimizer: Optimizer::Adam { lr: RACE_LR },
    };
    (model(head), setup)
}

/// The race example's seed.
pub const RACE_SEED: u64 = 2;
/// The race example's learning rate (Adam).
pub const RACE_LR: f64 = DEFAULT_LR;

/// What the race's numbers mean, in plain words: whether no scaling starved W_query, which
/// scaling went furthest, and the size of the queries' and keys' components on `model` (the
/// tutorial's √dₖ assumes 1). `lanes` are [`race`]'s, of `objective`.
pub fn race_words(lanes: &[Lane], model: &Model, objective: &Objective) -> Vec<Msg> {
    let [none, sqrt, dk] = lanes else {
        return Vec::new();
    };
    let mut words = Vec::new();
    let fell = |l: &Lane| {
        format!(
            "{} → {}",
            short(l.losses[0]),
            short(*l.losses.last().unwrap_or(&f64::NAN))
        )
    };
    // Each lane's first gradient, unless its first step was refused.
    if lanes.iter().all(|l| l.grad_w_query.is_finite()) {
        if none.grad_w_query < 1e-6 * sqrt.grad_w_query.max(dk.grad_w_query) {
            words.push(training::saturated(
                short(none.grad_w_query),
                short(sqrt.grad_w_query),
                short(dk.grad_w_query),
                fell(none),
            ));
        } else if matches!(objective.goal, Goal::Attend(_)) {
            words.push(training::learns_too(fell(none)));
        } else {
            words.push(training::not_saturated(
                short(none.grad_w_query),
                fell(none),
            ));
        }
    }
    // A lane whose step was refused stopped where it was: say so, and compare only the others.
    for lane in lanes {
        if let Some(reason) = &lane.refused {
            // No scaling's label is a word; the others' are symbols.
            let scale = match lane.scale {
                Scale::None => Arg::from(settings::no_scaling),
                other => Arg::from(other.label()),
            };
            words.push(training::lane_refused(scale, reason.clone()));
        }
    }
    let (a, b) = (sqrt.progress(), dk.progress());
    if !(a.is_finite() && b.is_finite()) || sqrt.refused.is_some() || dk.refused.is_some() {
        return words;
    }
    words.push(if (a - b).abs() <= 0.1 * a.max(b) {
        training::about_as_far(fell(sqrt), fell(dk))
    } else {
        let (win, lose) = if a < b { (sqrt, dk) } else { (dk, sqrt) };
        training::went_further(win.scale.label(), fell(win), lose.scale.label(), fell(lose))
    });
    let trace = Trace::of(model);
    let (sum, count) = trace.heads.iter().fold((0.0, 0), |(s, c), h| {
        (
            s + h.queries.norm_squared() + h.keys.norm_squared(),
            c + h.queries.len() + h.keys.len(),
        )
    });
    words.push(training::mean_square(short(sum / count.max(1) as f64)));
    words
}

/// A number to three significant digits, as the race's words give it.
fn short(x: f64) -> String {
    fmt_significant(x, 3)
}
