//! A model's sizes, and the check that keeps a fresh model within the limits.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
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
pub fn check_dims(dims: Dims) -> Result<(), Msg> {
    for (name, n) in [("d_in", dims.d_in), ("d_k", dims.d_k), ("d_v", dims.d_v)] {
        if !(1..=MAX_DIM).contains(&n) {
            return Err(edits::size_range(name, MAX_DIM, n));
        }
    }
    if !(1..=MAX_HEADS).contains(&dims.heads) {
        return Err(edits::heads_range(MAX_HEADS, dims.heads));
    }
    Ok(())
}
