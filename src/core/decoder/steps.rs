//! The decoder's steps other than the matrices, each as transformers computes it in a float64
//! model: RMSNorm, RoPE's angles and the attention's softmax are taken in float32 there (the
//! model casts up for them, or builds them in float32), so they are here too, and the rest in
//! float64. Exponentials, logarithms and trigonometry are `libm`'s, the same code natively and in
//! WebAssembly, so that the page and the command line give the same numbers (the platforms' own
//! differ by an ulp, which 30 layers grow to 1e-6).

use nalgebra::DMatrix;

/// RMSNorm of each row of `x`, as `LlamaRMSNorm`: the row cast to float32, its mean square
/// and `1/√(mean + eps)` in float32, the product cast back and times `weight` in float64.
pub fn rms_norm(x: &DMatrix<f64>, weight: &[f64], eps: f32) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(x.nrows(), x.ncols());
    for t in 0..x.nrows() {
        let row: Vec<f32> = x.row(t).iter().map(|&v| v as f32).collect();
        // The sum taken wider and rounded once: as near as float32 gets to torch's own sum.
        let squares: f64 = row.iter().map(|&v| f64::from(v * v)).sum();
        let mean = (squares as f32) / row.len() as f32;
        let scale = 1.0 / (mean + eps).sqrt();
        for (c, &v) in row.iter().enumerate() {
            out[(t, c)] = weight[c] * f64::from(v * scale);
        }
    }
    out
}

/// RoPE's cosines and sines for some positions (a row each) over a head's components, as
/// `LlamaRotaryEmbedding` builds them: the angles `position · base^(−2i/d)` in float32, each
/// used for component i and i + d/2. The same for every layer: a run computes them once.
#[derive(Clone, Debug, PartialEq)]
pub struct Angles {
    cos: DMatrix<f64>,
    sin: DMatrix<f64>,
}

impl Angles {
    /// For positions `from..to` over a head of `d` components.
    pub fn of(base: f64, d: usize, from: usize, to: usize) -> Angles {
        let half = d / 2;
        let inverse: Vec<f32> = (0..half)
            .map(|i| 1.0 / libm::powf(base as f32, (2 * i) as f32 / d as f32))
            .collect();
        let n = to.saturating_sub(from);
        let mut cos = DMatrix::zeros(n, d);
        let mut sin = DMatrix::zeros(n, d);
        for p in 0..n {
            for (i, &f) in inverse.iter().enumerate() {
                let angle = f * (from + p) as f32;
                let (c, s) = (f64::from(libm::cosf(angle)), f64::from(libm::sinf(angle)));
                for col in [i, i + half] {
                    cos[(p, col)] = c;
                    sin[(p, col)] = s;
                }
            }
        }
        Angles { cos, sin }
    }

    /// `x · cos + rotate_half(x) · sin`, Hugging Face's RoPE (pairs i and i + d/2), a row per
    /// position.
    pub fn rotate(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let half = x.ncols() / 2;
        DMatrix::from_fn(x.nrows(), x.ncols(), |t, c| {
            let turned = if c < half {
                -x[(t, c + half)]
            } else {
                x[(t, c - half)]
            };
            x[(t, c)] * self.cos[(t, c)] + turned * self.sin[(t, c)]
        })
    }
}

/// Softmax of one row of scores in float32 (`softmax(…, dtype=torch.float32)`), keys past
/// `visible` masked out, widened back.
pub fn softmax_f32(scores: &[f64], visible: usize) -> Vec<f64> {
    let shown: Vec<f32> = scores[..visible].iter().map(|&s| s as f32).collect();
    let max = shown.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = shown.iter().map(|&s| libm::expf(s - max)).collect();
    let sum = exps.iter().map(|&e| f64::from(e)).sum::<f64>() as f32;
    let inverse = 1.0 / sum;
    let mut out: Vec<f64> = exps.iter().map(|&e| f64::from(e * inverse)).collect();
    out.resize(scores.len(), 0.0);
    out
}

/// SiLU in float64, as torch computes it: `x / (1 + e^(−x))`.
pub fn silu(x: f64) -> f64 {
    x / (1.0 + libm::exp(-x))
}

/// The log-sum-exp of `logits` (the largest taken out first).
pub fn log_sum_exp(logits: &[f64]) -> f64 {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    max + libm::log(logits.iter().map(|&l| libm::exp(l - max)).sum::<f64>())
}
