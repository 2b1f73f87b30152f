//! The numbers behind the labs: the model's scores under each scaling, the two masking methods
//! as the scores grow, and what each head attends to (a trained encoder's too). The √dₖ experiment is in `sqrt_dk`.

use nalgebra::DMatrix;

use crate::core::forward::softmax::{
    mask_future, masked_weights_simple, renormalize_rows, softmax_rows,
};
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::views;
use crate::core::i18n::Key;
use crate::core::model::Scale;
use crate::core::pretrained::EncoderTrace;

/// How one scaling treats a model's scores (averaged over every head and query).
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingEffect {
    /// The scaling.
    pub scale: Scale,
    /// Standard deviation of the scaled scores that reach the softmax (under a causal mask, the
    /// visible ones: a masked score is never used): √dₖ keeps it near that of one product.
    pub spread: f64,
    /// Average largest weight of a row: near 1 means one-hot (saturated), near
    /// [`uniform_top_weight`] flat.
    pub top_weight: f64,
}

/// The average largest weight of flat rows, where each query spreads its attention evenly over
/// the keys it may see: 1/n, or under a causal mask the mean of 1/(i + 1) (query i sees i + 1
/// keys). The reference the average largest weight is read against.
pub fn uniform_top_weight(n: usize, causal: bool) -> f64 {
    if n == 0 {
        return 0.0;
    }
    if causal {
        (1..=n).map(|k| 1.0 / k as f64).sum::<f64>() / n as f64
    } else {
        1.0 / n as f64
    }
}

/// The trace's scores under each of the three scalings, masked when `causal`. Only the scaling
/// and the softmax are redone: the scores themselves do not depend on the scale.
pub fn scaling_effects(trace: &Trace, causal: bool) -> Vec<ScalingEffect> {
    Scale::ALL
        .into_iter()
        .map(|scale| {
            let mut scores = Vec::new();
            let mut top_weights = Vec::new();
            for head in &trace.heads {
                let scaled = &head.scores / scale.divisor(head.queries.ncols());
                let weights = softmax_rows(&if causal {
                    mask_future(&scaled)
                } else {
                    scaled.clone()
                });
                // The scores the softmax sees (row-major, as i ≥ j picks the visible ones).
                for (i, row) in scaled.row_iter().enumerate() {
                    let visible = if causal { i + 1 } else { row.len() };
                    scores.extend(row.iter().take(visible).copied());
                }
                top_weights.extend(weights.row_iter().map(|r| r.max()));
            }
            let mean = scores.iter().sum::<f64>() / scores.len() as f64;
            let variance =
                scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / scores.len() as f64;
            ScalingEffect {
                scale,
                spread: variance.sqrt(),
                top_weight: top_weights.iter().sum::<f64>() / top_weights.len() as f64,
            }
        })
        .collect()
}

/// The masking lab's magnitude control goes from 10⁰ to 10 to this power.
pub const MAGNITUDE_MAX_EXP: u32 = 4;

/// `torch.allclose(a, b, atol=1e-9)` for one pair: |a − b| ≤ 1e-9 + 1e-5 |b|; NaN is never close.
pub fn allclose(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 + 1e-5 * b.abs()
}

/// The two causal-masking methods on the same scores, and where they disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskComparison {
    /// Method 1: softmax of the unmasked scores, times tril(ones), each row divided by its sum.
    pub renormalized: DMatrix<f64>,
    /// Method 2: −∞ above the diagonal, then softmax.
    pub neg_inf: DMatrix<f64>,
    /// Cells where method 1 is not `allclose` to method 2.
    pub failing: DMatrix<bool>,
    /// The largest |method 1 − method 2|; NaN when method 1 divided 0 by 0 somewhere.
    pub max_diff: f64,
}

impl MaskComparison {
    /// Both methods on `scores` multiplied by `magnitude` (the lab's 10⁰ … 10⁴).
    pub fn of(scores: &DMatrix<f64>, magnitude: f64) -> MaskComparison {
        let scores = scores * magnitude;
        let renormalized = renormalize_rows(&masked_weights_simple(&softmax_rows(&scores)));
        let neg_inf = softmax_rows(&mask_future(&scores));
        let failing = renormalized.zip_map(&neg_inf, |a, b| !allclose(a, b));
        let max_diff = renormalized
            .zip_map(&neg_inf, |a, b| (a - b).abs())
            .iter()
            .copied()
            .fold(0.0, |m: f64, d| {
                if d.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(d)
                }
            });
        MaskComparison {
            renormalized,
            neg_inf,
            failing,
            max_diff,
        }
    }

    /// Whether renormalising gave back the −∞ method's weights everywhere (PyTorch's
    /// `renormalized_matches_weights`).
    pub fn renormalized_ok(&self) -> bool {
        !self.failing.iter().any(|&f| f)
    }
}

/// For the token `query`, each head's most-attended key and its weight (the first key on ties);
/// none when the query is out of range.
pub fn most_attended(trace: &Trace, query: usize) -> Option<Vec<(usize, f64)>> {
    trace
        .heads
        .iter()
        .map(|h| {
            (query < h.weights.nrows())
                .then(|| largest(h.weights.row(query).iter().copied()))
                .flatten()
        })
        .collect()
}

/// Where a trained model's heads (`layers`, each its heads' weights) send the piece `query`: each
/// head whose largest weight from it is at least `at_least`, as (layer, head, key, weight) in
/// layer order, and apart how many of those send it to a piece where heads rest when they have
/// nothing to find (`rests`: an encoder's `[CLS]` or `[SEP]`, a decoder's first token).
pub fn heads_sending<'a, W, Heads>(
    layers: impl IntoIterator<Item = Heads>,
    query: usize,
    at_least: f64,
    rests: impl Fn(usize) -> bool,
) -> (Vec<(usize, usize, usize, f64)>, usize)
where
    W: nalgebra::Scalar + Copy + Into<f64>,
    Heads: IntoIterator<Item = &'a DMatrix<W>>,
{
    let (mut sending, mut resting) = (Vec::new(), 0);
    for (l, layer) in layers.into_iter().enumerate() {
        for (h, weights) in layer.into_iter().enumerate() {
            let row = (query < weights.nrows()).then(|| weights.row(query));
            match row.and_then(|r| largest(r.iter().map(|&w| w.into()))) {
                Some((k, w)) if w >= at_least => {
                    if rests(k) {
                        resting += 1;
                    } else {
                        sending.push((l, h, k, w));
                    }
                }
                _ => {}
            }
        }
    }
    (sending, resting)
}

/// [`heads_sending`] in a trained encoder's run, where heads rest on `[CLS]` and `[SEP]`.
pub fn encoder_heads_sending(
    trace: &EncoderTrace,
    query: usize,
    at_least: f64,
) -> (Vec<(usize, usize, usize, f64)>, usize) {
    let layers = trace
        .layers
        .iter()
        .map(|l| l.heads.iter().map(|h| &h.weights));
    heads_sending(layers, query, at_least, |k| {
        matches!(trace.tokens[k].as_str(), "[CLS]" | "[SEP]")
    })
}

/// The key a row of weights gives the most, and its weight; of tied keys the first, so that
/// every view names the same one. None for an empty row.
pub fn largest(row: impl IntoIterator<Item = f64>) -> Option<(usize, f64)> {
    row.into_iter()
        .enumerate()
        .fold(None, |best, (j, w)| match best {
            Some((_, b)) if w <= b => best,
            _ => Some((j, w)),
        })
}

/// A matrix a lab shows beside the page's own (`data-lab-matrix`): the one name each has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabMatrix {
    /// The masking lab's first method: softmax, × tril(ones), ÷ row sums.
    Renormalized,
    /// The masking lab's second method: −∞, then softmax.
    NegInf,
    /// The order lab's head 0 weights with RoPE's pairs (i, i + d/2).
    WeightsRopeHalf,
    /// The order lab's head 0 weights with RoPE's pairs (2i, 2i + 1).
    WeightsRopeInterleaved,
    /// The heads lab's "she"'s weights in each head.
    TwoHeads,
    /// The KV cache lab's new query.
    KvQuery,
    /// The KV cache lab's cache of K.
    KvKeys,
    /// The KV cache lab's cache of V.
    KvValues,
    /// The KV cache lab's one row of scores.
    KvScores,
    /// Its softmax.
    KvWeights,
    /// The full computation's row.
    KvFullWeights,
    /// FlashAttention's scores of one tile.
    FlashScores,
    /// FlashAttention's running output.
    FlashOutput,
    /// FlashAttention's O / l after a block's last tile: its rows of the context.
    FlashContext,
}

impl LabMatrix {
    /// Its name in the DOM contract (`data-lab-matrix`).
    pub fn key(self) -> &'static str {
        match self {
            LabMatrix::Renormalized => "renormalized",
            LabMatrix::NegInf => "neg_inf",
            LabMatrix::WeightsRopeHalf => "weights_rope_half",
            LabMatrix::WeightsRopeInterleaved => "weights_rope_interleaved",
            LabMatrix::TwoHeads => "two_heads",
            LabMatrix::KvQuery => "kv-query",
            LabMatrix::KvKeys => "kv-keys",
            LabMatrix::KvValues => "kv-values",
            LabMatrix::KvScores => "kv-scores",
            LabMatrix::KvWeights => "kv-weights",
            LabMatrix::KvFullWeights => "kv-full-weights",
            LabMatrix::FlashScores => "flash-scores",
            LabMatrix::FlashOutput => "flash-output",
            LabMatrix::FlashContext => "flash-context",
        }
    }

    /// What its table's corner says its rows and columns are.
    pub fn corner(self) -> Option<Key> {
        match self {
            LabMatrix::Renormalized | LabMatrix::NegInf => Some(views::query_by_key),
            LabMatrix::TwoHeads => Some(views::head_by_key),
            _ => None,
        }
    }
}
