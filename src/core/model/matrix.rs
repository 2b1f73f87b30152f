//! Every matrix's identity: the one name each has in the page (`data-matrix`), links, saved
//! work, exercises, the trace JSON and the reducer's locks. What the page shows of each (title,
//! axes, colouring, step) is `core::views::pipeline`'s.

use super::editable::Editable;
use super::head::Projection;

/// A matrix of the model or of its forward pass. A new matrix is a new variant; every `match`
/// on it is exhaustive, so the compiler finds what it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Matrix {
    /// The embedding table (vocabulary × d_in).
    Embedding,
    /// The embedded sentence X (tokens × d_in).
    Embedded,
    /// The positions' table P.
    Positions,
    /// X + P.
    Positioned,
    /// Cross-attention's source sentence's embedding table (source vocabulary × d_in).
    SourceEmbedding,
    /// The embedded source sentence S (source tokens × d_in), which keys and values come from.
    SourceEmbedded,
    /// A head's W_query, W_key or W_value.
    Weight(Projection),
    /// A head's bias of one projection.
    Bias(Projection),
    /// Q.
    Queries,
    /// K.
    Keys,
    /// V.
    Values,
    /// Q rotated by RoPE.
    QueriesRotated,
    /// K rotated by RoPE.
    KeysRotated,
    /// Q·Kᵀ.
    Scores,
    /// Q·Kᵀ divided by the scaling.
    ScaledScores,
    /// The scaled scores with −∞ in the future.
    MaskedScores,
    /// The tutorial's first masking method: weights × tril(ones).
    MaskedWeightsSimple,
    /// Its rows divided by their sums.
    MaskedWeightsRenormalized,
    /// The softmax weights.
    Weights,
    /// The context vectors.
    Context,
    /// The heads' context vectors side by side, before the output projection.
    Concatenated,
    /// W_output.
    OutputWeight,
    /// b_output.
    OutputBias,
    /// The output.
    Output,
}

use Projection::{Key as K, Query as Q, Value as V};

impl Matrix {
    /// Every matrix, in the page's order.
    pub const ALL: [Matrix; 28] = [
        Matrix::Embedding,
        Matrix::Embedded,
        Matrix::Positions,
        Matrix::Positioned,
        Matrix::SourceEmbedding,
        Matrix::SourceEmbedded,
        Matrix::Weight(Q),
        Matrix::Weight(K),
        Matrix::Weight(V),
        Matrix::Bias(Q),
        Matrix::Bias(K),
        Matrix::Bias(V),
        Matrix::Queries,
        Matrix::Keys,
        Matrix::Values,
        Matrix::QueriesRotated,
        Matrix::KeysRotated,
        Matrix::Scores,
        Matrix::ScaledScores,
        Matrix::MaskedScores,
        Matrix::MaskedWeightsSimple,
        Matrix::MaskedWeightsRenormalized,
        Matrix::Weights,
        Matrix::Context,
        Matrix::Concatenated,
        Matrix::OutputWeight,
        Matrix::OutputBias,
        Matrix::Output,
    ];

    /// Its name in the DOM contract (`data-matrix`), `faces=`, exercises, saved work and the
    /// trace JSON.
    pub fn key(self) -> &'static str {
        match self {
            Matrix::Embedding => "embedding",
            Matrix::Embedded => "embedded",
            Matrix::Positions => "positions",
            Matrix::Positioned => "positioned",
            Matrix::SourceEmbedding => "source_embedding",
            Matrix::SourceEmbedded => "source_embedded",
            Matrix::Weight(Q) => "w_query",
            Matrix::Weight(K) => "w_key",
            Matrix::Weight(V) => "w_value",
            Matrix::Bias(Q) => "b_query",
            Matrix::Bias(K) => "b_key",
            Matrix::Bias(V) => "b_value",
            Matrix::Queries => "queries",
            Matrix::Keys => "keys",
            Matrix::Values => "values",
            Matrix::QueriesRotated => "queries_rotated",
            Matrix::KeysRotated => "keys_rotated",
            Matrix::Scores => "scores",
            Matrix::ScaledScores => "scaled_scores",
            Matrix::MaskedScores => "masked_scores",
            Matrix::MaskedWeightsSimple => "masked_weights_simple",
            Matrix::MaskedWeightsRenormalized => "masked_weights_renormalized",
            Matrix::Weights => "weights",
            Matrix::Context => "context",
            Matrix::Concatenated => "concatenated",
            Matrix::OutputWeight => "w_output",
            Matrix::OutputBias => "b_output",
            Matrix::Output => "output",
        }
    }

    /// The matrix [`Matrix::key`] names.
    pub fn named(key: &str) -> Option<Matrix> {
        Matrix::ALL.into_iter().find(|m| m.key() == key)
    }

    /// Whether its rows (columns, for a query-by-key matrix) are the keys' tokens: the source's
    /// with cross-attention.
    pub fn rows_are_keys(self) -> bool {
        matches!(
            self,
            Matrix::Keys | Matrix::Values | Matrix::KeysRotated | Matrix::SourceEmbedded
        )
    }

    /// Whether query heads that share a key/value head share it (keys, values and their
    /// weights and biases).
    pub fn shared_by_kv_heads(self) -> bool {
        matches!(
            self,
            Matrix::Weight(K | V)
                | Matrix::Bias(K | V)
                | Matrix::Keys
                | Matrix::Values
                | Matrix::KeysRotated
        )
    }

    /// The learner's matrix it is (of `head` for a head's), if the learner edits it.
    pub fn editable(self, head: usize) -> Option<Editable> {
        Some(match self {
            Matrix::Embedding => Editable::Embedding,
            Matrix::Positions => Editable::Positions,
            Matrix::SourceEmbedding => Editable::SourceEmbedding,
            Matrix::Weight(p) => Editable::Weight(head, p),
            Matrix::Bias(p) => Editable::Bias(head, p),
            Matrix::OutputWeight => Editable::OutputWeight,
            Matrix::OutputBias => Editable::OutputBias,
            _ => return None,
        })
    }

    /// The matrix a learner's editable one is.
    pub fn of(editable: Editable) -> Matrix {
        match editable {
            Editable::Embedding => Matrix::Embedding,
            Editable::Positions => Matrix::Positions,
            Editable::Weight(_, p) => Matrix::Weight(p),
            Editable::Bias(_, p) => Matrix::Bias(p),
            Editable::OutputWeight => Matrix::OutputWeight,
            Editable::OutputBias => Matrix::OutputBias,
            Editable::SourceEmbedding => Matrix::SourceEmbedding,
        }
    }
}

/// Names of the learner's matrices: their matrix's (the identity is [`Matrix`]'s alone).
impl Editable {
    /// The matrix's name in the saved state and the DOM contract (`data-matrix`).
    pub fn key(self) -> &'static str {
        Matrix::of(self).key()
    }
}

impl Projection {
    /// Its weight's name in the saved state and the page (`w_query`).
    pub fn key(self) -> &'static str {
        Matrix::Weight(self).key()
    }
}
