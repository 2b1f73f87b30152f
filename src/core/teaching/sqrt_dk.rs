//! The √dₖ lab: a seeded sample of random queries and keys with independent N(0, 1) components,
//! and what each scaling does to their dot products and to a softmax row.

use nalgebra::DMatrix;

use crate::core::forward::softmax::softmax_rows;
use crate::core::model::torch_rng::TorchRng;
use crate::core::model::Scale;

/// The smallest dₖ the lab offers.
pub const DK_MIN: usize = 1;
/// The largest dₖ the lab offers; every sampled vector has this many components.
pub const DK_MAX: usize = 1024;
/// The dₖ the lab opens with.
pub const DK_DEFAULT: usize = 64;
/// Query–key pairs in the variance sample. At dₖ each pair is cut into up to [`SLICES`] disjoint
/// slices of dₖ components, so dₖ = 1024 has 2 048 dot products (its variance is then measured
/// within about 3 %), and dₖ ≤ 64 has 32 768.
pub const PAIRS: usize = 2048;
/// At most this many dot products per pair; more would cost time and add little precision.
pub const SLICES: usize = 16;
/// Softmax rows averaged for the largest weight, entropy and gradient size.
pub const ROWS: usize = 32;
/// Scores in each softmax row (keys per query).
pub const ROW_LEN: usize = 16;
/// The seed the lab opens with.
pub const SEED_DEFAULT: u32 = 1;

/// What one softmax row of scores looks like after a scaling, averaged over [`ROWS`] rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowStats {
    /// The largest weight: 1 is one-hot (saturated), 1/[`ROW_LEN`] uniform.
    pub max_weight: f64,
    /// The entropy in nats: 0 is one-hot, ln [`ROW_LEN`] uniform.
    pub entropy: f64,
    /// The Frobenius norm of the softmax's Jacobian: how much gradient flows back to the scores.
    pub jacobian_norm: f64,
}

/// The lab's sample: the variance of q·k at every dₖ, and the queries and keys of the rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    seed: u32,
    /// Variance of the unscaled q·k at dₖ = index + 1.
    variance: Vec<f64>,
    /// [`ROWS`] queries and [`ROW_LEN`] keys, [`DK_MAX`] components each; dₖ uses the first dₖ.
    queries: DMatrix<f64>,
    keys: DMatrix<f64>,
}

impl Sample {
    /// Draws the sample for `seed` (MT19937 and Box–Muller, as `torch.manual_seed` then double
    /// normals): first the rows' queries and keys, then the pairs. One pass over the pairs gives
    /// the variance at every dₖ, so moving dₖ computes nothing new.
    pub fn draw(seed: u32) -> Sample {
        let mut rng = TorchRng::manual_seed(seed.into());
        let mut normals = |rows: usize| {
            let values: Vec<f64> = (0..rows * DK_MAX).map(|_| rng.normal_f64()).collect();
            DMatrix::from_row_slice(rows, DK_MAX, &values)
        };
        let queries = normals(ROWS);
        let keys = normals(ROW_LEN);

        let mut sum = vec![0.0; DK_MAX];
        let mut sum_sq = vec![0.0; DK_MAX];
        // prefix[j] = Σ of the first j products q_i k_i of this pair.
        let mut prefix = vec![0.0; DK_MAX + 1];
        for _ in 0..PAIRS {
            for j in 0..DK_MAX {
                let (q, k) = (rng.normal_f64(), rng.normal_f64());
                prefix[j + 1] = prefix[j] + q * k;
            }
            for dk in DK_MIN..=DK_MAX {
                for slice in 0..slices(dk) {
                    let dot = prefix[(slice + 1) * dk] - prefix[slice * dk];
                    sum[dk - 1] += dot;
                    sum_sq[dk - 1] += dot * dot;
                }
            }
        }
        let variance = (DK_MIN..=DK_MAX)
            .map(|dk| {
                let count = Sample::size(dk) as f64;
                let mean = sum[dk - 1] / count;
                sum_sq[dk - 1] / count - mean * mean
            })
            .collect();
        Sample {
            seed,
            variance,
            queries,
            keys,
        }
    }

    /// The seed it was drawn with.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// How many dot products the variance at `dk` is measured on.
    pub fn size(dk: usize) -> usize {
        PAIRS * slices(clamp_dk(dk))
    }

    /// The measured variance of q·k after dividing by `scale`'s divisor, at `dk`.
    pub fn variance(&self, dk: usize, scale: Scale) -> f64 {
        let dk = clamp_dk(dk);
        self.variance[dk - 1] / scale.divisor(dk).powi(2)
    }

    /// The rows' scores Q·Kᵀ on the first `dk` components, divided by `scale`'s divisor, through
    /// the softmax, summarised and averaged over the rows.
    pub fn row_stats(&self, dk: usize, scale: Scale) -> RowStats {
        let dk = clamp_dk(dk);
        let scores =
            self.queries.columns(0, dk) * self.keys.columns(0, dk).transpose() / scale.divisor(dk);
        let weights = softmax_rows(&scores);
        let rows: Vec<Vec<f64>> = weights
            .row_iter()
            .map(|r| r.iter().copied().collect())
            .collect();
        let mean = |f: fn(&[f64]) -> f64| rows.iter().map(|r| f(r)).sum::<f64>() / ROWS as f64;
        RowStats {
            max_weight: mean(|p| p.iter().copied().fold(0.0, f64::max)),
            entropy: mean(entropy),
            jacobian_norm: mean(softmax_jacobian_norm),
        }
    }
}

/// Dot products taken from each pair at `dk`.
fn slices(dk: usize) -> usize {
    (DK_MAX / dk).min(SLICES)
}

/// The variance of q·k after scaling that theory predicts for N(0, 1) components: dₖ unscaled,
/// 1 divided by √dₖ, 1/dₖ divided by dₖ.
pub fn theory_variance(dk: usize, scale: Scale) -> f64 {
    dk as f64 / scale.divisor(dk).powi(2)
}

/// `dk` brought into the lab's range.
pub fn clamp_dk(dk: usize) -> usize {
    dk.clamp(DK_MIN, DK_MAX)
}

/// The slider's position for `dk`: log₂ dₖ, so each step doubles.
pub fn slider_position(dk: usize) -> f64 {
    (clamp_dk(dk) as f64).log2()
}

/// The dₖ at a slider position (log₂ dₖ), rounded to a whole number and clamped.
pub fn dk_at(position: f64) -> usize {
    if position.is_finite() {
        clamp_dk(position.exp2().round() as usize)
    } else {
        DK_MIN
    }
}

/// Entropy in nats of a probability row; 0 · ln 0 counts as 0.
pub fn entropy(p: &[f64]) -> f64 {
    -p.iter()
        .filter(|&&x| x > 0.0)
        .map(|&x| x * x.ln())
        .sum::<f64>()
}

/// Frobenius norm of the softmax's Jacobian diag(p) − p pᵀ at output `p`, without building it:
/// ‖J‖² = Σ pᵢ² − 2 Σ pᵢ³ + (Σ pᵢ²)². It is 0 for a one-hot row: no gradient reaches the scores.
pub fn softmax_jacobian_norm(p: &[f64]) -> f64 {
    let sum_sq: f64 = p.iter().map(|x| x * x).sum();
    let sum_cube: f64 = p.iter().map(|x| x * x * x).sum();
    (sum_sq - 2.0 * sum_cube + sum_sq * sum_sq).max(0.0).sqrt()
}

/// The dₖ values the plot's curves pass through: about eight per doubling, 1 to [`DK_MAX`].
pub fn plot_dks() -> Vec<usize> {
    let mut dks: Vec<usize> = (0..=80).map(|i| dk_at(i as f64 / 8.0)).collect();
    dks.dedup();
    dks
}

/// Where `value` sits between `lo` and `hi` on a log scale: 0 at `lo`, 1 at `hi`.
pub fn log_fraction(value: f64, lo: f64, hi: f64) -> f64 {
    (value.ln() - lo.ln()) / (hi.ln() - lo.ln())
}

/// The three scalings in the order the lab lists them, with the theory's variance of a scaled
/// score (unit-variance components): dₖ unscaled, 1 under ÷√dₖ, 1/dₖ under ÷dₖ.
pub const SCALINGS: [(Scale, &str); 3] = [
    (Scale::None, "dₖ"),
    (Scale::SqrtDk, "1"),
    (Scale::Dk, "1/dₖ"),
];
