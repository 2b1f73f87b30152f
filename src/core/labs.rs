//! The numbers behind "why divide by √dₖ": the same scores under each scaling.

use super::model::{Model, Scale};
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

/// The model's scores under each of the three scalings, causal mask as the model has it.
pub fn scaling_effects(model: &Model) -> Vec<ScalingEffect> {
    Scale::ALL
        .into_iter()
        .map(|scale| {
            let mut variant = model.clone();
            variant.scale = scale;
            let trace = Trace::of(&variant);
            let scores: Vec<f64> = trace
                .heads
                .iter()
                .flat_map(|h| h.scaled_scores.iter().copied())
                .collect();
            let mean = scores.iter().sum::<f64>() / scores.len() as f64;
            let spread = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>()
                / scores.len() as f64)
                .sqrt();
            let rows: Vec<f64> = trace
                .heads
                .iter()
                .flat_map(|h| h.weights.row_iter().map(|r| r.max()).collect::<Vec<_>>())
                .collect();
            let top_weight = rows.iter().sum::<f64>() / rows.len() as f64;
            ScalingEffect {
                scale,
                spread,
                top_weight,
            }
        })
        .collect()
}
