//! A model's sizes, and the check that keeps a fresh model within the limits.

use crate::core::model::limits::{MAX_DIM, MAX_HEADS};
/// Sizes for a freshly initialised model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// The embedding's width.
    pub d_in: usize,
    /// Queries' and keys' width.
    pub d_k: usize,
    /// Values' width.
    pub d_v: usize,
    /// The number of heads.
    pub heads: usize,
}

/// Sizes within the limits: d_in, d_k, d_v from 1 to [`MAX_DIM`], heads from 1 to
/// [`MAX_HEADS`]. The error names the first size out of range.
pub fn check_dims(dims: Dims) -> Result<(), String> {
    for (name, n, max) in [
        ("d_in", dims.d_in, MAX_DIM),
        ("d_k", dims.d_k, MAX_DIM),
        ("d_v", dims.d_v, MAX_DIM),
        ("heads", dims.heads, MAX_HEADS),
    ] {
        if !(1..=max).contains(&n) {
            return Err(format!(
                "{name} must be a whole number from 1 to {max}, not {n}"
            ));
        }
    }
    Ok(())
}
