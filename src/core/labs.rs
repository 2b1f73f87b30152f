//! The numbers behind "why divide by √dₖ": the same scores under each scaling.

use super::model::Scale;
use super::softmax::{mask_future, softmax_rows};
use super::trace::Trace;

/// How one scaling treats a model's scores (averaged over every head and query).
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingEffect {
    pub scale: Scale,
    /// Standard deviation of the scaled scores: √dₖ keeps it near that of one product.
    pub spread: f64,
    /// Average largest weight of a row: near 1 means one-hot (saturated), near 1/n flat.
    pub top_weight: f64,
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
                scores.extend(scaled.iter().copied());
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
