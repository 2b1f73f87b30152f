//! The training lab's settings (what its link carries), its loss curves, and the race of the
//! scalings: one objective from one start, trained under each [`Scale`].

use crate::core::model::presets::dog;
use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::model::presets::RASCHKA_SENTENCE;
use crate::core::model::torch_rng::TorchRng;
use crate::core::model::{Head, Model, Projection, Scale};
use crate::core::text::fmt_significant;
use crate::core::training::{
    output_shape, second_key, Goal, Objective, Optimizer, Param, Target, Trainer, DEFAULT_LR,
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
    pub fn read_targets(text: &str, model: &Model) -> Result<Vec<Target>, String> {
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
                    _ => return Err(format!("“{entry}” is not HEAD:QUERY,KEY (as 0:6,1)")),
                };
                target.check(model).map_err(|e| format!("{entry}: {e}"))?;
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
    pub fn read_train(text: &str) -> Result<Vec<Param>, String> {
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
    pub fn read_lr(text: &str) -> Result<f64, String> {
        match text.trim().parse::<f64>() {
            Ok(lr) if lr > 0.0 && lr <= MAX_LR => Ok(lr),
            _ => Err(format!(
                "“{text}” is not a learning rate above 0, at most {MAX_LR}"
            )),
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
    pub refused: Option<String>,
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

/// The race example's seed.
pub const RACE_SEED: u64 = 2;
/// The race example's learning rate (Adam).
pub const RACE_LR: f64 = DEFAULT_LR;

/// What the race's numbers mean, in plain words: whether no scaling starved W_query, which
/// scaling went furthest, and the size of the queries' and keys' components on `model` (the
/// tutorial's √dₖ assumes 1). `lanes` are [`race`]'s, of `objective`.
pub fn race_words(lanes: &[Lane], model: &Model, objective: &Objective) -> Vec<String> {
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
            words.push(format!(
                "Without scaling the softmax is saturated (one weight per row is 1, the rest 0): the gradient that reaches W_query is {} against {} with ÷√dₖ and {} with ÷dₖ, so W_query and W_key do not learn (loss {}).",
                short(none.grad_w_query), short(sqrt.grad_w_query), short(dk.grad_w_query), fell(none)
            ));
        } else if matches!(objective.goal, Goal::Attend(_)) {
            words.push(format!(
                "Without scaling it learns too (loss {}): with an attention target the gradient at the scores is the weights minus the target, which does not vanish when the softmax saturates. The √dₖ argument is about a loss further on, such as an output to match: try the race example.",
                fell(none)
            ));
        } else {
            words.push(format!(
                "Without scaling W_query still gets a gradient of {} (loss {}): at this start its softmax is not saturated.",
                short(none.grad_w_query), fell(none)
            ));
        }
    }
    // A lane whose step was refused stopped where it was: say so, and compare only the others.
    for lane in lanes {
        if let Some(reason) = &lane.refused {
            words.push(format!(
                "With {} a step was not taken ({reason}): its curve stops there; a lower learning rate goes on.",
                lane.scale.label()
            ));
        }
    }
    let (a, b) = (sqrt.progress(), dk.progress());
    if !(a.is_finite() && b.is_finite()) || sqrt.refused.is_some() || dk.refused.is_some() {
        return words;
    }
    words.push(if (a - b).abs() <= 0.1 * a.max(b) {
        format!(
            "÷√dₖ ({}) and ÷dₖ ({}) went about as far.",
            fell(sqrt),
            fell(dk)
        )
    } else {
        let (win, lose) = if a < b { (sqrt, dk) } else { (dk, sqrt) };
        format!(
            "{} went further ({}) than {} ({}).",
            win.scale.label(),
            fell(win),
            lose.scale.label(),
            fell(lose)
        )
    });
    let trace = Trace::of(model);
    let (sum, count) = trace.heads.iter().fold((0.0, 0), |(s, c), h| {
        (
            s + h.queries.norm_squared() + h.keys.norm_squared(),
            c + h.queries.len() + h.keys.len(),
        )
    });
    words.push(format!(
        "The queries' and keys' components here have a mean square of {}: ÷√dₖ keeps the scores near 1 in size when that is 1, as the tutorial assumes; larger components favour ÷dₖ, and which wins also depends on the start and the learning rate.",
        short(sum / count.max(1) as f64)
    ));
    words
}

/// The most points [`loss_curves`] draws of a curve (one every few steps beyond).
pub const MAX_POINTS: usize = 400;

/// A plot of loss curves on one log scale: each curve's SVG path (one point per step) in a
/// `width` × `height` box, and the powers of ten the scale spans (for its axis labels). Losses
/// that are not positive and finite are left out; `None` with none left.
pub fn loss_curves(curves: &[&[f64]], width: f64, height: f64) -> Option<(Vec<String>, Vec<i32>)> {
    // At most about MAX_POINTS points a curve: a long run draws as fast as a short one.
    let logs = |losses: &[f64]| -> Vec<(usize, f64)> {
        let stride = losses.len().div_ceil(MAX_POINTS).max(1);
        losses
            .iter()
            .enumerate()
            .filter(|(k, _)| k % stride == 0 || *k + 1 == losses.len())
            .filter(|(_, l)| l.is_finite() && **l > 0.0)
            .map(|(k, l)| (k, l.log10()))
            .collect()
    };
    let (low, high) = curves
        .iter()
        .flat_map(|c| logs(c))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, y)| {
            (a.min(y), b.max(y))
        });
    if !low.is_finite() {
        return None;
    }
    let (bottom, top) = (
        low.floor() as i32,
        (high.ceil() as i32).max(low.floor() as i32 + 1),
    );
    let steps = curves.iter().map(|c| c.len()).max().unwrap_or(0).max(2) - 1;
    let x = |k: usize| width * k as f64 / steps as f64;
    let y = |v: f64| height * (f64::from(top) - v) / f64::from(top - bottom);
    let paths = curves
        .iter()
        .map(|c| {
            logs(c)
                .iter()
                .enumerate()
                .map(|(n, &(k, v))| {
                    format!("{}{:.1},{:.1}", if n == 0 { 'M' } else { 'L' }, x(k), y(v))
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Some((paths, (bottom..=top).collect()))
}

/// A number to three significant digits, as the race's words give it.
fn short(x: f64) -> String {
    fmt_significant(x, 3)
}

/// The dog story before training: its hand-made embedding with projections drawn as
/// `torch.manual_seed(seed)` would (the training lab trains them until "she" attends to "dog").
pub fn dog_untrained(seed: u64) -> Model {
    scrambled(&dog(), seed)
}

/// How a loss curve fell, said of its numbers: whether more of its fall came in its first half
/// or its second (a curve from random weights often starts flat); none before two steps or
/// when it did not fall.
pub fn how_it_fell(losses: &[f64]) -> Option<&'static str> {
    let (first, last) = (*losses.first()?, *losses.last()?);
    let middle = losses[losses.len() / 2];
    if losses.len() < 3 || last >= first {
        return None;
    }
    Some(if first - middle >= middle - last {
        "It fell fast at first, then slowly."
    } else {
        "It fell slowly at first, then faster."
    })
}
