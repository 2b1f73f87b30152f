//! The matrices a learner edits directly, by name.

use super::head::Projection;

/// A matrix the learner edits directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Editable {
    /// The embedding table (vocabulary × d_in).
    Embedding,
    /// A head's projection.
    Weight(usize, Projection),
    /// A head's bias of one projection (when it has biases).
    Bias(usize, Projection),
    /// W_output, after the concatenation (when there is an output projection).
    OutputWeight,
    /// The learned positions' table (when positions are learned).
    Positions,
    /// b_output (when the output projection has a bias).
    OutputBias,
    /// The source sentence's embedding table (with cross-attention).
    SourceEmbedding,
}

impl Editable {
    /// One of each kind (head 0 for a head's), in the order the scripting API lists them.
    pub const EVERY: [Editable; 11] = [
        Editable::Embedding,
        Editable::Weight(0, Projection::Query),
        Editable::Weight(0, Projection::Key),
        Editable::Weight(0, Projection::Value),
        Editable::Bias(0, Projection::Query),
        Editable::Bias(0, Projection::Key),
        Editable::Bias(0, Projection::Value),
        Editable::OutputWeight,
        Editable::OutputBias,
        Editable::Positions,
        Editable::SourceEmbedding,
    ];

    /// The same kind of matrix in head `head` (itself if it is not a head's).
    pub fn in_head(self, head: usize) -> Editable {
        match self {
            Editable::Weight(_, p) => Editable::Weight(head, p),
            Editable::Bias(_, p) => Editable::Bias(head, p),
            other => other,
        }
    }

    /// Its head, for a head's matrix.
    pub fn head(self) -> Option<usize> {
        match self {
            Editable::Weight(h, _) | Editable::Bias(h, _) => Some(h),
            _ => None,
        }
    }
}
