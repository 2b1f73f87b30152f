//! One head's projections (`x @ W + b` for W_query, W_key, W_value), their biases, the output
//! projection after the heads, as PyTorch draws them, and the backward of a projection beside
//! its forward.

use nalgebra::DMatrix;

use crate::core::model::torch_rng::TorchRng;

/// One attention head's projections, applied to row vectors: `queries = embedded @ w_query`
/// (`+ b_query` when the head has biases).
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    /// d_in × d_k
    pub w_query: DMatrix<f64>,
    /// d_in × d_k
    pub w_key: DMatrix<f64>,
    /// d_in × d_v
    pub w_value: DMatrix<f64>,
    /// Added to each row of the projections, as `nn.Linear` and `nn.MultiheadAttention` do.
    pub biases: Option<Biases>,
}

/// A head's three biases, each one row (1 × d_k, 1 × d_k, 1 × d_v) so that they are edited and
/// shown like every other matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Biases {
    /// Added to every query.
    pub b_query: DMatrix<f64>,
    /// Added to every key.
    pub b_key: DMatrix<f64>,
    /// Added to every value.
    pub b_value: DMatrix<f64>,
}

impl std::ops::Index<Projection> for Biases {
    type Output = DMatrix<f64>;
    fn index(&self, p: Projection) -> &DMatrix<f64> {
        match p {
            Projection::Query => &self.b_query,
            Projection::Key => &self.b_key,
            Projection::Value => &self.b_value,
        }
    }
}

impl std::ops::IndexMut<Projection> for Biases {
    fn index_mut(&mut self, p: Projection) -> &mut DMatrix<f64> {
        match p {
            Projection::Query => &mut self.b_query,
            Projection::Key => &mut self.b_key,
            Projection::Value => &mut self.b_value,
        }
    }
}

/// The linear layer after the heads' concatenation: `output = concatenated @ w_output + b_output`
/// (PyTorch's `out_proj`, transposed into this app's row-vector convention).
#[derive(Clone, Debug, PartialEq)]
pub struct OutputProjection {
    /// (Σ d_v) × d_out
    pub w_output: DMatrix<f64>,
    /// 1 × d_out
    pub b_output: Option<DMatrix<f64>>,
}

impl Head {
    /// The width of queries and keys.
    pub fn d_k(&self) -> usize {
        self.w_query.ncols()
    }

    /// The width of values and of this head's context vectors.
    pub fn d_v(&self) -> usize {
        self.w_value.ncols()
    }

    /// Draws `w_query`, `w_key`, `w_value` in that order with `torch.rand`, as the tutorial's
    /// `SelfAttention.__init__` does.
    pub fn rand(rng: &mut TorchRng, d_in: usize, d_k: usize, d_v: usize) -> Head {
        Head {
            w_query: rng.rand(d_in, d_k),
            w_key: rng.rand(d_in, d_k),
            w_value: rng.rand(d_in, d_v),
            biases: None,
        }
    }

    /// A head without biases.
    pub fn new(w_query: DMatrix<f64>, w_key: DMatrix<f64>, w_value: DMatrix<f64>) -> Head {
        Head {
            w_query,
            w_key,
            w_value,
            biases: None,
        }
    }

    /// `embedded @ W (+ b)` for one of its projections.
    pub fn project(&self, embedded: &DMatrix<f64>, p: Projection) -> DMatrix<f64> {
        let mut out = embedded * &self[p];
        if let Some(b) = &self.biases {
            add_row(&mut out, &b[p]);
        }
        out
    }
}

/// Adds a 1 × c row to every row of an r × c matrix.
pub fn add_row(m: &mut DMatrix<f64>, row: &DMatrix<f64>) {
    for mut r in m.row_iter_mut() {
        r += row.row(0);
    }
}

/// The gradient through `x @ W + b` ([`Head::project`], the output projection).
#[derive(Clone, Debug, PartialEq)]
pub struct LinearGradient {
    /// ∂L/∂x
    pub x: DMatrix<f64>,
    /// ∂L/∂W
    pub w: DMatrix<f64>,
    /// ∂L/∂b: each column's sum of ∂L/∂out (a 1 × c row)
    pub b: DMatrix<f64>,
}

/// The backward of `x @ W + b` from ∂L/∂out; `x_t` is xᵀ, taken once for every projection of
/// x (`transpose() *` rather than `tr_mul`: only the plain product goes through matrixmultiply,
/// six times faster at 64 × 64 · 64 × 16, measured).
pub fn linear_backward(
    x_t: &DMatrix<f64>,
    w: &DMatrix<f64>,
    d_out: &DMatrix<f64>,
) -> LinearGradient {
    LinearGradient {
        x: d_out * w.transpose(),
        w: x_t * d_out,
        b: DMatrix::from_fn(1, d_out.ncols(), |_, j| d_out.column(j).sum()),
    }
}

/// Biases as `nn.Linear(d_in, d)` draws them, after `manual_seed(seed)`: uniform on ±1/√d_in,
/// head after head, query, key, value (PyTorch's own layers start their biases at zero; drawn
/// ones show what a bias does).
pub fn seeded_biases(seed: u64, d_in: usize, heads: &[Head]) -> Vec<Biases> {
    let mut rng = TorchRng::manual_seed(seed);
    heads
        .iter()
        .map(|h| Biases {
            b_query: rng.linear_bias(d_in, h.d_k()),
            b_key: rng.linear_bias(d_in, h.d_k()),
            b_value: rng.linear_bias(d_in, h.d_v()),
        })
        .collect()
}

/// The output projection `nn.Linear(Σ d_v, d_out)` draws after `manual_seed(seed)` (its weight,
/// then its bias when asked), transposed into the row-vector convention.
pub fn seeded_output(seed: u64, concatenated: usize, d_out: usize, bias: bool) -> OutputProjection {
    let mut rng = TorchRng::manual_seed(seed);
    let w_output = rng.linear_weight(concatenated, d_out).transpose();
    let b_output = bias.then(|| rng.linear_bias(concatenated, d_out));
    OutputProjection { w_output, b_output }
}

/// Which of a head's three matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Projection {
    /// W_query.
    Query,
    /// W_key.
    Key,
    /// W_value.
    Value,
}

impl Projection {
    /// All three, in the order the tutorial draws them.
    pub const ALL: [Projection; 3] = [Projection::Query, Projection::Key, Projection::Value];

    /// How the tutorial writes its name.
    pub fn title(self) -> &'static str {
        match self {
            Projection::Query => "W_query",
            Projection::Key => "W_key",
            Projection::Value => "W_value",
        }
    }
}

impl std::ops::Index<Projection> for Head {
    type Output = DMatrix<f64>;
    fn index(&self, p: Projection) -> &DMatrix<f64> {
        match p {
            Projection::Query => &self.w_query,
            Projection::Key => &self.w_key,
            Projection::Value => &self.w_value,
        }
    }
}

impl std::ops::IndexMut<Projection> for Head {
    fn index_mut(&mut self, p: Projection) -> &mut DMatrix<f64> {
        match p {
            Projection::Query => &mut self.w_query,
            Projection::Key => &mut self.w_key,
            Projection::Value => &mut self.w_value,
        }
    }
}
