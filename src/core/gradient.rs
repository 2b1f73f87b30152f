//! Training: an objective on the trace, its loss, the gradient of that loss with respect to every
//! parameter and intermediate (the backward pass of each forward step, equal to PyTorch's
//! autograd in float64), and the optimisers `torch.optim` computes (SGD, Adam).

use nalgebra::DMatrix;
use serde_json::Value;

use super::model::{
    outside_limits, within_limits, Biases, Editable, Head, Model, Projection, Scale,
};
use super::positions::{rotate, Positions, Rope};
use super::softmax::{
    is_future, mask_future, neg_log_softmax, neg_log_softmax_backward, softmax_rows,
    softmax_rows_backward,
};
use super::trace::{concat_columns, fmt, project_output, Trace};

/// A parameter an optimiser step may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// The embedding table.
    Embedding,
    /// Every head's W_query, W_key or W_value, with its bias when the model has biases (one
    /// layer's parameters, as `nn.Linear` trains them).
    Weight(Projection),
    /// W_output and b_output (when the model has an output projection).
    Output,
    /// The learned positions' table (when positions are learned).
    Positions,
}

impl Param {
    /// Every one, in the order of `"train"`'s names.
    pub const ALL: [Param; 6] = [
        Param::Embedding,
        Param::Weight(Projection::Query),
        Param::Weight(Projection::Key),
        Param::Weight(Projection::Value),
        Param::Output,
        Param::Positions,
    ];

    /// The matrices it trains in a model of `heads` heads (those the model has).
    pub fn matrices(self, heads: usize) -> Vec<Editable> {
        match self {
            Param::Embedding => vec![Editable::Embedding],
            Param::Weight(p) => (0..heads)
                .flat_map(|h| [Editable::Weight(h, p), Editable::Bias(h, p)])
                .collect(),
            Param::Output => vec![Editable::OutputWeight, Editable::OutputBias],
            Param::Positions => vec![Editable::Positions],
        }
    }

    /// Its name in `"train"`: its (first) matrix's.
    pub fn key(self) -> &'static str {
        self.matrices(1)[0].key()
    }

    /// The parameter [`Param::key`] names; the message lists the names there are.
    pub fn named(name: &str) -> Result<Param, String> {
        Param::ALL
            .into_iter()
            .find(|p| p.key() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Param::ALL.iter().map(|p| p.key()).collect();
                format!("“{name}”: use {}", names.join(", "))
            })
    }

    /// The parameters `names` name, without repeats, in their order (`"train"` and `train=`).
    pub fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Vec<Param>, String> {
        let mut list = Vec::new();
        for name in names {
            let param = Param::named(name)?;
            if !list.contains(&param) {
                list.push(param);
            }
        }
        Ok(list)
    }
}

/// One "make this query attend to this key" target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The head.
    pub head: usize,
    /// The query token (row of the weights).
    pub query: usize,
    /// The key token (column).
    pub key: usize,
}

impl Target {
    /// Whether the loss can be taken of it on `model`: the head, query and key in range and,
    /// under the causal mask, the key not in the query's future.
    pub fn check(self, model: &Model) -> Result<(), String> {
        let (heads, n) = (model.heads().len(), model.tokens().len());
        for (name, i, limit) in [
            ("head", self.head, heads),
            ("query", self.query, n),
            ("key", self.key, n),
        ] {
            if i >= limit {
                return Err(format!("{name} is {i}, beyond 0 … {}", limit - 1));
            }
        }
        if model.causal && is_future(self.query, self.key) {
            return Err(format!(
                "under the causal mask query {} cannot see key {} (its weight is 0, its log −∞)",
                self.query, self.key
            ));
        }
        Ok(())
    }
}

/// What the loss measures.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// L = −mean over the targets of ln weights[head][query][key].
    Attend(Vec<Target>),
    /// L = mean over every cell of (output − target)², as `F.mse_loss`.
    Output(DMatrix<f64>),
}

/// A loss and what an optimiser step may change, as JSON gives it:
/// `{"attend": [{"head", "query", "key"}, …]}` or `{"output": [[…]]}`, and optionally
/// `"train": ["embedding", "w_query", "w_key", "w_value"]` (all four when absent).
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// The loss.
    pub goal: Goal,
    /// What a step changes.
    pub train: Vec<Param>,
}

impl Objective {
    /// Reads an objective for `model`, refusing with a message what the loss cannot be taken of.
    pub fn read(json: &str, model: &Model) -> Result<Objective, String> {
        let value: Value =
            serde_json::from_str(json).map_err(|e| format!("the objective is not JSON: {e}"))?;
        Objective::from_value(&value, model)
    }

    /// As [`Objective::read`], from parsed JSON.
    pub fn from_value(value: &Value, model: &Model) -> Result<Objective, String> {
        let object = value
            .as_object()
            .ok_or("the objective must be an object with \"attend\" or \"output\"")?;
        if let Some(key) = object
            .keys()
            .find(|k| !["attend", "output", "train"].contains(&k.as_str()))
        {
            return Err(format!(
                "unknown field \"{key}\": use \"attend\" or \"output\", and \"train\""
            ));
        }
        let goal = match (object.get("attend"), object.get("output")) {
            (Some(_), Some(_)) => {
                return Err("give \"attend\" or \"output\", not both".into());
            }
            (Some(targets), None) => Goal::Attend(read_targets(targets, model)?),
            (None, Some(target)) => Goal::Output(read_output(target, model)?),
            (None, None) => return Err("give \"attend\" or \"output\"".into()),
        };
        let train = match object.get("train") {
            None => Param::ALL.to_vec(),
            Some(names) => read_train(names)?,
        };
        Ok(Objective { goal, train })
    }
}

fn read_targets(value: &Value, model: &Model) -> Result<Vec<Target>, String> {
    let list = value
        .as_array()
        .ok_or("\"attend\" must be a list of {\"head\", \"query\", \"key\"}")?;
    if list.is_empty() {
        return Err("\"attend\" has no targets".into());
    }
    list.iter()
        .enumerate()
        .map(|(t, item)| {
            let index = |name: &str| -> Result<usize, String> {
                item.get(name)
                    .and_then(Value::as_u64)
                    .and_then(|i| usize::try_from(i).ok())
                    .ok_or_else(|| format!("attend[{t}].{name} must be a whole number"))
            };
            let target = Target {
                head: index("head")?,
                query: index("query")?,
                key: index("key")?,
            };
            // "attend[0].head is 3, …", "attend[0]: under the causal mask …".
            target.check(model).map_err(|e| {
                let sep = if e.starts_with("under") { ": " } else { "." };
                format!("attend[{t}]{sep}{e}")
            })?;
            Ok(target)
        })
        .collect()
}

/// The output's shape: a row per token, every head's d_v wide (d_out wide with an output
/// projection).
pub fn output_shape(model: &Model) -> (usize, usize) {
    let width = match model.output() {
        Some(o) => o.w_output.ncols(),
        None => model.heads().iter().map(|h| h.d_v()).sum(),
    };
    (model.tokens().len(), width)
}

fn read_output(value: &Value, model: &Model) -> Result<DMatrix<f64>, String> {
    let (n, width) = output_shape(model);
    let rows = value
        .as_array()
        .filter(|r| r.len() == n)
        .ok_or_else(|| format!("\"output\" must be {n} rows (one per token) of {width} numbers"))?;
    let mut cells = Vec::with_capacity(n * width);
    for (i, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|r| r.len() == width)
            .ok_or_else(|| format!("output[{i}] must be {width} numbers (the output's width)"))?;
        for (j, x) in row.iter().enumerate() {
            let x = x
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("output[{i}][{j}] is not a finite number"))?;
            cells.push(x);
        }
    }
    Ok(DMatrix::from_row_slice(n, width, &cells))
}

fn read_train(value: &Value) -> Result<Vec<Param>, String> {
    let names = value
        .as_array()
        .ok_or("\"train\" must be a list of names")?;
    Param::list(names.iter().map(|n| n.as_str().unwrap_or_default()))
        .map_err(|e| format!("\"train\" names {e}"))
}

impl Objective {
    /// The loss on `trace` (the objective's model's): what [`gradients`] reports, without the
    /// backward pass. −ln of a weight is taken from the scores (log-softmax, as
    /// `F.cross_entropy`), so a weight that underflowed to 0 gives a large loss, not ∞.
    pub fn loss(&self, trace: &Trace) -> f64 {
        match &self.goal {
            Goal::Attend(targets) => {
                targets
                    .iter()
                    .map(|t| neg_log_softmax(&trace.heads[t.head].masked_scores, t.query, t.key))
                    .sum::<f64>()
                    / targets.len() as f64
            }
            Goal::Output(target) => (&trace.output - target).norm_squared() / target.len() as f64,
        }
    }

    /// Whether the loss can still be taken on `model` (a target still in range and visible, an
    /// output target of its shape): the page keeps its target while the learner edits.
    pub fn fits(&self, model: &Model) -> bool {
        match &self.goal {
            Goal::Attend(targets) => targets.iter().all(|t| t.check(model).is_ok()),
            Goal::Output(target) => target.shape() == output_shape(model),
        }
    }
}

/// The gradient of the loss with respect to one head's projections and intermediates.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadGradient {
    /// ∂L/∂W_query
    pub w_query: DMatrix<f64>,
    /// ∂L/∂W_key
    pub w_key: DMatrix<f64>,
    /// ∂L/∂W_value
    pub w_value: DMatrix<f64>,
    /// ∂L/∂queries
    pub queries: DMatrix<f64>,
    /// ∂L/∂keys
    pub keys: DMatrix<f64>,
    /// ∂L/∂values
    pub values: DMatrix<f64>,
    /// ∂L/∂scores, before scaling
    pub scores: DMatrix<f64>,
    /// ∂L/∂weights
    pub weights: DMatrix<f64>,
    /// ∂L/∂context
    pub context: DMatrix<f64>,
    /// ∂L/∂b_query, ∂L/∂b_key, ∂L/∂b_value, when the head has biases
    pub biases: Option<Biases>,
}

/// The loss and its gradient with respect to every parameter, trained or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// L
    pub loss: f64,
    /// ∂L/∂embedding (vocabulary × d_in)
    pub embedding: DMatrix<f64>,
    /// Per head.
    pub heads: Vec<HeadGradient>,
    /// ∂L/∂W_output and ∂L/∂b_output, with an output projection.
    pub output: Option<(DMatrix<f64>, Option<DMatrix<f64>>)>,
    /// ∂L/∂positions, with learned positions (a row per token).
    pub positions: Option<DMatrix<f64>>,
}

impl Gradients {
    /// The matrices (by the DOM contract's names) the loss has a gradient for.
    pub const NAMES: [&'static str; 16] = [
        "embedding",
        "positions",
        "b_query",
        "b_key",
        "b_value",
        "w_output",
        "b_output",
        "w_query",
        "w_key",
        "w_value",
        "queries",
        "keys",
        "values",
        "scores",
        "weights",
        "context",
    ];

    /// ∂L with respect to the matrix the DOM contract calls `name` (of `head`), if the loss
    /// has one (see [`Gradients::NAMES`]).
    pub fn of(&self, name: &str, head: Option<usize>) -> Option<&DMatrix<f64>> {
        match name {
            "embedding" => return Some(&self.embedding),
            "positions" => return self.positions.as_ref(),
            "w_output" => return self.output.as_ref().map(|o| &o.0),
            "b_output" => return self.output.as_ref()?.1.as_ref(),
            _ => {}
        }
        let h = self.heads.get(head?)?;
        let bias = |p| h.biases.as_ref().map(|b| &b[p]);
        Some(match name {
            "b_query" => return bias(Projection::Query),
            "b_key" => return bias(Projection::Key),
            "b_value" => return bias(Projection::Value),
            "w_query" => &h.w_query,
            "w_key" => &h.w_key,
            "w_value" => &h.w_value,
            "queries" => &h.queries,
            "keys" => &h.keys,
            "values" => &h.values,
            "scores" => &h.scores,
            "weights" => &h.weights,
            "context" => &h.context,
            _ => return None,
        })
    }
}

/// What the backward pass needs of one head's forward pass (no more than that: a training step
/// at 64 tokens and 8 heads is mostly this).
struct Forward {
    queries: DMatrix<f64>,
    keys: DMatrix<f64>,
    values: DMatrix<f64>,
    masked: DMatrix<f64>,
    weights: DMatrix<f64>,
}

/// With RoPE, `queries` and `keys` are the rotated ones the scores are taken from.
fn forward(
    x: &DMatrix<f64>,
    head: &Head,
    causal: bool,
    scale: Scale,
    rope: Option<(f64, Rope)>,
) -> Forward {
    let (mut queries, mut keys, values) = (
        head.project(x, Projection::Query),
        head.project(x, Projection::Key),
        head.project(x, Projection::Value),
    );
    if let Some((base, pairs)) = rope {
        queries = rotate(&queries, base, pairs, 1.0);
        keys = rotate(&keys, base, pairs, 1.0);
    }
    let scaled = (&queries * keys.transpose()) / scale.divisor(queries.ncols());
    let masked = if causal { mask_future(&scaled) } else { scaled };
    Forward {
        weights: softmax_rows(&masked),
        masked,
        queries,
        keys,
        values,
    }
}

/// The loss of `objective` on `model`, and its gradient, backwards through every step.
pub fn gradients(model: &Model, objective: &Objective) -> Gradients {
    // The projections take the positioned sentence (the embedded one without positions).
    let embedded = model.positioned();
    let n = embedded.nrows();
    let rope = model.positions().rope();
    let heads: Vec<Forward> = model
        .heads()
        .iter()
        .map(|h| forward(&embedded, h, model.causal, model.scale, rope))
        .collect();
    let mut d_projection = None;
    // ∂L/∂masked from a log-softmax loss, beside ∂L/∂weights (shown, not used backwards: it is
    // −1/w, infinite where a weight underflowed).
    let mut d_log = vec![DMatrix::zeros(n, n); heads.len()];
    let (loss, mut d_weights, d_output) = match &objective.goal {
        Goal::Attend(targets) => {
            let share = 1.0 / targets.len() as f64;
            let mut d: Vec<DMatrix<f64>> = heads.iter().map(|_| DMatrix::zeros(n, n)).collect();
            let mut loss = 0.0;
            for t in targets {
                let h = &heads[t.head];
                loss += share * neg_log_softmax(&h.masked, t.query, t.key);
                d[t.head][(t.query, t.key)] -= share / h.weights[(t.query, t.key)];
                neg_log_softmax_backward(&h.weights, t.query, t.key, share, &mut d_log[t.head]);
            }
            (loss, d, None)
        }
        Goal::Output(target) => {
            let contexts: Vec<DMatrix<f64>> =
                heads.iter().map(|h| &h.weights * &h.values).collect();
            let concatenated = concat_columns(&contexts.iter().collect::<Vec<_>>());
            let projection = model.output();
            let output = projection.map_or_else(
                || concatenated.clone(),
                |p| project_output(&concatenated, p),
            );
            let diff = output - target;
            let cells = diff.len() as f64;
            let loss = diff.norm_squared() / cells;
            let d_out = diff * (2.0 / cells);
            // output = concatenated · W_output + b_output
            let d_concatenated = match projection {
                Some(p) => {
                    let d_bias = p.b_output.as_ref().map(|_| column_sums(&d_out));
                    d_projection = Some((concatenated.transpose() * &d_out, d_bias));
                    &d_out * p.w_output.transpose()
                }
                None => d_out,
            };
            (
                loss,
                vec![DMatrix::zeros(n, n); heads.len()],
                Some(d_concatenated),
            )
        }
    };
    let mut d_embedded = DMatrix::zeros(n, embedded.ncols());
    // `transpose() *` rather than `tr_mul`: only the plain product goes through
    // matrixmultiply (tr_mul was six times slower at 64 × 64 · 64 × 16, measured).
    let x_t = embedded.transpose();
    let mut column = 0;
    let grads = model
        .heads()
        .iter()
        .zip(&heads)
        .zip(d_weights.iter_mut())
        .zip(&d_log)
        .map(|(((head, h), d_weights), d_log)| {
            let d_v = head.d_v();
            let d_context = d_output
                .as_ref()
                .map_or_else(|| DMatrix::zeros(n, d_v), |d| d.columns(column, d_v).into());
            column += d_v;
            // context = weights · values
            let d_from_context = &d_context * h.values.transpose();
            let d_values = h.weights.transpose() * &d_context;
            // weights = softmax(masked), by row; a masked score gets nothing back.
            let d_scaled = softmax_rows_backward(&h.weights, &d_from_context) + d_log;
            *d_weights += d_from_context;
            // scaled = scores / divisor; scores = queries · keysᵀ
            let d_scores = d_scaled / model.scale.divisor(head.d_k());
            let mut d_queries = &d_scores * &h.keys;
            let mut d_keys = d_scores.transpose() * &h.queries;
            // RoPE rotated them: the gradient rotates back (a rotation's transpose).
            if let Some((base, pairs)) = rope {
                d_queries = rotate(&d_queries, base, pairs, -1.0);
                d_keys = rotate(&d_keys, base, pairs, -1.0);
            }
            d_embedded += &d_queries * head.w_query.transpose()
                + &d_keys * head.w_key.transpose()
                + &d_values * head.w_value.transpose();
            // queries = x · W_query + b_query: the bias gets each column's sum.
            let biases = head.biases.as_ref().map(|_| Biases {
                b_query: column_sums(&d_queries),
                b_key: column_sums(&d_keys),
                b_value: column_sums(&d_values),
            });
            HeadGradient {
                biases,
                w_query: &x_t * &d_queries,
                w_key: &x_t * &d_keys,
                w_value: &x_t * &d_values,
                queries: d_queries,
                keys: d_keys,
                values: d_values,
                scores: d_scores,
                weights: d_weights.clone(),
                context: d_context,
            }
        })
        .collect();
    // embedded = embedding[ids]: each token's gradient goes back to its word's row.
    let mut embedding = DMatrix::zeros(model.embedding().nrows(), embedded.ncols());
    for (t, &id) in model.tokens().ids.iter().enumerate() {
        let row = embedding.row(id) + d_embedded.row(t);
        embedding.set_row(id, &row);
    }
    // positioned = embedded + P: a learned table gets the positioned rows' gradient.
    let positions = matches!(model.positions(), Positions::Learned(_)).then_some(d_embedded);
    Gradients {
        loss,
        embedding,
        heads: grads,
        output: d_projection,
        positions,
    }
}

/// ∂L/∂`name`[i][j] = `x` in words, with `precision` decimals: what raising the number does to
/// the loss. Never "by about 0": a zero gradient leaves the number alone, and a change too
/// small for the decimals is written in powers of ten.
pub fn gradient_words(name: &str, (i, j): (usize, usize), x: f64, precision: usize) -> String {
    let head = format!("∂L/∂{name}[{i}][{j}] = {}", fmt(x, precision));
    if x == 0.0 {
        return format!("{head}: raising this number a little does not change the loss, so a training step leaves it as it is.");
    }
    let way = if x > 0.0 { "raise" } else { "lower" };
    let change = (0.01 * x).abs();
    let mut by = fmt(change, precision + 2);
    if by.chars().all(|c| c == '0' || c == '.') {
        by = format!("{change:.1e}");
    }
    format!("{head}: raising this number by 0.01 would {way} the loss by about {by}, so a training step moves it the other way.")
}

/// A 1 × c row of a matrix's column sums (a bias's gradient).
fn column_sums(m: &DMatrix<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(1, m.ncols(), |_, j| m.column(j).sum())
}

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
    pub fn named(name: Option<&str>, lr: f64) -> Result<Optimizer, String> {
        if !(lr.is_finite() && lr > 0.0) {
            return Err(format!(
                "the learning rate must be a positive number, not {lr}"
            ));
        }
        match name.unwrap_or("adam") {
            "adam" => Ok(Optimizer::Adam { lr }),
            "sgd" => Ok(Optimizer::Sgd { lr }),
            other => Err(format!("unknown optimizer “{other}”: use sgd or adam")),
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
        let g = gradients(model, objective);
        let refuse = |reason: String| Refused {
            loss: g.loss,
            reason,
        };
        if !g.loss.is_finite() {
            return Err(refuse("the loss is not a finite number".into()));
        }
        // Worked out whole, then applied: no half-taken step.
        let mut staged = Vec::new();
        for target in trained(model, &objective.train) {
            let (Some(grad), Some(p)) = (gradient_of(&g, target), model.matrix(target)) else {
                continue;
            };
            let (next, moments) = match self.optimizer {
                Optimizer::Sgd { lr } => (p - grad * lr, None),
                Optimizer::Adam { lr } => {
                    let mut s = self
                        .moments
                        .iter()
                        .find(|s| s.of == target)
                        .cloned()
                        .unwrap_or_else(|| Moments::new(target, grad.shape()));
                    (s.adam(p, grad, lr), Some(s))
                }
            };
            if let Some(x) = next.iter().find(|&&x| !within_limits(x)) {
                return Err(refuse(outside_limits(target, *x)));
            }
            staged.push((target, next, moments));
        }
        for (target, next, moments) in staged {
            if let Some(p) = model.matrix_mut(target) {
                *p = next;
            }
            if let Some(s) = moments {
                match self.moments.iter_mut().find(|m| m.of == target) {
                    Some(m) => *m = s,
                    None => self.moments.push(s),
                }
            }
        }
        Ok(g)
    }
}

/// A training step not taken, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The loss before it (the model's, unchanged).
    pub loss: f64,
    /// What the step would have done.
    pub reason: String,
}

impl Refused {
    /// What to tell the learner: what happened and what to do.
    pub fn message(&self) -> String {
        format!(
            "Step not taken: {}. Lower the learning rate, or start from other numbers.",
            self.reason
        )
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

    /// One Adam step of `p` along `grad`: the moments move, and the new `p` is returned.
    fn adam(&mut self, p: &DMatrix<f64>, grad: &DMatrix<f64>, lr: f64) -> DMatrix<f64> {
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
        let mut next = p.clone();
        for ((p, &m), &v) in next.iter_mut().zip(self.m.iter()).zip(self.v.iter()) {
            *p -= step_size * m / (v.sqrt() / correction2_sqrt + EPS);
        }
        next
    }
}

/// The matrices `train` names that the model has, in a fixed order: the embedding, then each
/// head's projections and biases, then the output projection.
fn trained(model: &Model, train: &[Param]) -> Vec<Editable> {
    Param::ALL
        .into_iter()
        .filter(|p| train.contains(p))
        .flat_map(|p| p.matrices(model.heads().len()))
        .filter(|&m| model.matrix(m).is_some())
        .collect()
}

fn gradient_of(g: &Gradients, target: Editable) -> Option<&DMatrix<f64>> {
    match target {
        Editable::Embedding => Some(&g.embedding),
        Editable::Weight(h, Projection::Query) => Some(&g.heads[h].w_query),
        Editable::Weight(h, Projection::Key) => Some(&g.heads[h].w_key),
        Editable::Weight(h, Projection::Value) => Some(&g.heads[h].w_value),
        Editable::Bias(h, p) => g.heads[h].biases.as_ref().map(|b| &b[p]),
        Editable::OutputWeight => g.output.as_ref().map(|o| &o.0),
        Editable::OutputBias => g.output.as_ref()?.1.as_ref(),
        Editable::Positions => g.positions.as_ref(),
    }
}

/// Most steps one call of [`train`] may take: 10 000 where a step is cheap, fewer as the model
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
    ((BUDGET / forward.max(1.0)) as usize).clamp(1, 10_000)
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
    losses.push(gradients(&model, objective).loss);
    Trained {
        losses,
        model,
        refused: None,
    }
}

/// The key a training target starts at for `query`: the one it attends to second most among
/// those it may see (the dog's "she": "ball", as a teacher asks "make her look at the ball
/// instead"), the most with a single key; `weights` is a head's weights.
pub fn second_key(weights: &DMatrix<f64>, query: usize, causal: bool) -> usize {
    if query >= weights.nrows() {
        return 0;
    }
    let row = weights.row(query);
    let mut order: Vec<usize> = (0..row.len())
        .filter(|&j| !(causal && is_future(query, j)))
        .collect();
    order.sort_by(|&a, &b| row[b].total_cmp(&row[a]));
    order.get(1).or(order.first()).copied().unwrap_or(0)
}
