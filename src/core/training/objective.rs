//! What training aims at: the parameters a step may change ([`Param`]), the targets and the
//! loss ([`Objective`]: −log-softmax of attention weights, as `F.cross_entropy`, or the mean
//! squared distance to an output, as `F.mse_loss`), read from JSON with a message for anything
//! it cannot take.

use nalgebra::DMatrix;
use serde_json::Value;

use crate::core::forward::softmax::{is_future, largest_first, neg_log_softmax};
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::{formats, training};
use crate::core::i18n::Msg;
use crate::core::model::{Editable, Matrix, Model, Projection};

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

    /// Whether `model` has it (W_output only with an output projection, the positions' table
    /// only when learned; a trained model's layer has no embedding to train: its X is what the
    /// layers below make): the training lab offers and trains only these.
    pub fn in_model(self, model: &Model) -> bool {
        if self == Param::Embedding && model.layered().is_some() {
            return false;
        }
        self.matrices(1)
            .into_iter()
            .any(|e| model.matrix(e).is_some())
    }

    /// Its (first) matrix, whose lock keeps it from training.
    pub fn matrix(self) -> Matrix {
        Matrix::of(self.matrices(1)[0])
    }

    /// Its name in `"train"`: its (first) matrix's.
    pub fn key(self) -> &'static str {
        self.matrix().key()
    }

    /// The parameter [`Param::key`] names; the message lists the names there are.
    pub fn named(name: &str) -> Result<Param, Msg> {
        Param::ALL
            .into_iter()
            .find(|p| p.key() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Param::ALL.iter().map(|p| p.key()).collect();
                training::use_names(name, names.join(", "))
            })
    }

    /// The parameters `names` name, without repeats, in their order (`"train"` and `train=`).
    pub fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Vec<Param>, Msg> {
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
    pub fn check(self, model: &Model) -> Result<(), Msg> {
        self.check_at(model, None)
    }

    /// [`Target::check`], the fields named under `at` (`attend[0]`) when given.
    fn check_at(self, model: &Model, at: Option<&str>) -> Result<(), Msg> {
        let (heads, n, m) = (
            model.heads().len(),
            model.tokens().len(),
            model.key_tokens().len(),
        );
        for (name, i, limit) in [
            ("head", self.head, heads),
            ("query", self.query, n),
            ("key", self.key, m),
        ] {
            if i >= limit {
                let field = at.map_or_else(|| name.to_owned(), |at| format!("{at}.{name}"));
                return Err(training::beyond(field, i, limit - 1));
            }
        }
        if model.causal && is_future(self.query, self.key) {
            let hidden = training::causal_future(self.query, self.key);
            return Err(match at {
                Some(at) => formats::at(at, hidden),
                None => hidden,
            });
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
    pub fn read(json: &str, model: &Model) -> Result<Objective, Msg> {
        let value: Value = serde_json::from_str(json).map_err(training::objective_not_json)?;
        Objective::from_value(&value, model)
    }

    /// As [`Objective::read`], from parsed JSON.
    pub fn from_value(value: &Value, model: &Model) -> Result<Objective, Msg> {
        let object = value.as_object().ok_or(training::objective_not_object)?;
        if let Some(key) = object
            .keys()
            .find(|k| !["attend", "output", "train"].contains(&k.as_str()))
        {
            return Err(training::unknown_field(key));
        }
        let goal = match (object.get("attend"), object.get("output")) {
            (Some(_), Some(_)) => {
                return Err(training::not_both.into());
            }
            (Some(targets), None) => Goal::Attend(read_targets(targets, model)?),
            (None, Some(target)) => Goal::Output(read_output(target, model)?),
            (None, None) => return Err(training::attend_or_output.into()),
        };
        let train = match object.get("train") {
            None => Param::ALL.to_vec(),
            Some(names) => read_train(names)?,
        };
        Ok(Objective { goal, train })
    }
}

fn read_targets(value: &Value, model: &Model) -> Result<Vec<Target>, Msg> {
    let list = value
        .as_array()
        .ok_or_else(|| training::attend_not_list(r#"{"head", "query", "key"}"#))?;
    if list.is_empty() {
        return Err(training::no_targets.into());
    }
    list.iter()
        .enumerate()
        .map(|(t, item)| {
            let index = |name: &str| -> Result<usize, Msg> {
                item.get(name)
                    .and_then(Value::as_u64)
                    .and_then(|i| usize::try_from(i).ok())
                    .ok_or_else(|| training::whole_number(format!("attend[{t}].{name}")))
            };
            let target = Target {
                head: index("head")?,
                query: index("query")?,
                key: index("key")?,
            };
            // "attend[0].head is 3, …", "attend[0]: under the causal mask …".
            target.check_at(model, Some(&format!("attend[{t}]")))?;
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

fn read_output(value: &Value, model: &Model) -> Result<DMatrix<f64>, Msg> {
    let (n, width) = output_shape(model);
    let rows = value
        .as_array()
        .filter(|r| r.len() == n)
        .ok_or_else(|| training::output_rows(n, width))?;
    let mut cells = Vec::with_capacity(n * width);
    for (i, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|r| r.len() == width)
            .ok_or_else(|| training::output_row(format!("output[{i}]"), width))?;
        for (j, x) in row.iter().enumerate() {
            let x = x
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| training::not_finite(format!("output[{i}][{j}]")))?;
            cells.push(x);
        }
    }
    Ok(DMatrix::from_row_slice(n, width, &cells))
}

fn read_train(value: &Value) -> Result<Vec<Param>, Msg> {
    let names = value.as_array().ok_or(training::train_not_list)?;
    Param::list(names.iter().map(|n| n.as_str().unwrap_or_default())).map_err(training::train_names)
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
    largest_first(&mut order, &|j| row[j]);
    order.get(1).or(order.first()).copied().unwrap_or(0)
}
