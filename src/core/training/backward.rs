//! The backward pass: the loss's gradient with respect to every parameter and intermediate,
//! each forward step's backward taken from beside it ([`softmax_rows_backward`],
//! [`neg_log_softmax_backward`], …), equal to PyTorch's autograd in float64.

use nalgebra::DMatrix;

use crate::core::forward::softmax::{
    mask_future, neg_log_softmax, neg_log_softmax_backward, softmax_rows, softmax_rows_backward,
};
use crate::core::forward::trace::{concat_columns, project_output};
use crate::core::model::positions::{rotate, Positions, Rope};
use crate::core::model::{Biases, Head, Model, Projection, Scale};
use crate::core::text::fmt;
use crate::core::training::objective::{Goal, Objective};

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
