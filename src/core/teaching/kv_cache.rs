//! The KV cache lab: a causal model decoding one token at a time. Step t computes only the new
//! token's query, key and value, appends the key and value to the cache, and takes one row of
//! scores and weights against the cache; the full causal computation's row t is the same.

use nalgebra::DMatrix;

use crate::core::forward::softmax::softmax_rows;
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::labs;
use crate::core::i18n::Key;
use crate::core::model::positions::rotate_from;
use crate::core::model::{Model, Projection};

/// What one decoding step of one head computed.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeStep {
    /// The token decoded (0-based): the cache holds t + 1 rows after it.
    pub t: usize,
    /// The new token's query (1 × d_k, rotated with RoPE).
    pub query: DMatrix<f64>,
    /// The cache of keys after the step ((t + 1) × d_k).
    pub keys: DMatrix<f64>,
    /// The cache of values after the step ((t + 1) × d_v).
    pub values: DMatrix<f64>,
    /// The one new row of scaled scores (1 × (t + 1)).
    pub scores: DMatrix<f64>,
    /// Its softmax.
    pub weights: DMatrix<f64>,
    /// The new token's context (1 × d_v).
    pub context: DMatrix<f64>,
    /// Row t of the full causal computation's weights, up to t (1 × (t + 1)).
    pub full_weights: DMatrix<f64>,
    /// The largest difference between `weights` and `context` and row t of the full causal
    /// computation's.
    pub max_diff: f64,
    /// The multiply-adds of this step over every head, with the cache.
    pub macs_cached: usize,
    /// The same without it: every token so far run again.
    pub macs_full: usize,
}

/// Why the lab cannot decode `model`: decoding is causal and within one sentence.
pub fn refusal(model: &Model) -> Option<Key> {
    if model.source().is_some() {
        Some(labs::kv_with_source)
    } else if model.is_encoder_layer() {
        Some(labs::kv_encoder)
    } else if !model.causal {
        Some(labs::kv_not_causal)
    } else {
        None
    }
}

/// Decodes tokens 0..=`t` of head `head` one at a time and returns step `t` (`None` past the
/// sentence or the heads).
pub fn decode(model: &Model, trace: &Trace, head: usize, t: usize) -> Option<DecodeStep> {
    let h = model.heads().get(head)?;
    let full = trace.heads.get(head)?;
    let x = model.positioned();
    // The trace must be this causal model's, its weights n × n.
    if refusal(model).is_some() || t >= x.nrows() || full.weights.shape() != (x.nrows(), x.nrows())
    {
        return None;
    }
    let rope = model.positions().rope();
    let project = |i: usize, p: Projection| {
        let row = h.project(&x.rows(i, 1).into_owned(), p);
        match (rope, p) {
            (Some((base, pairs)), Projection::Query | Projection::Key) => {
                rotate_from(&row, base, pairs, i)
            }
            _ => row,
        }
    };
    // The cache, filled one token at a time as a decoder does.
    let keys = DMatrix::from_rows(
        &(0..=t)
            .map(|i| project(i, Projection::Key).row(0).into_owned())
            .collect::<Vec<_>>(),
    );
    let values = DMatrix::from_rows(
        &(0..=t)
            .map(|i| project(i, Projection::Value).row(0).into_owned())
            .collect::<Vec<_>>(),
    );
    let query = project(t, Projection::Query);
    let scores = (&query * keys.transpose()) / model.scale.divisor(h.d_k());
    let weights = softmax_rows(&scores);
    let context = &weights * &values;
    let full_weights = full.weights.view((t, 0), (1, t + 1)).into_owned();
    let max_diff = (0..=t)
        .map(|j| (weights[(0, j)] - full_weights[(0, j)]).abs())
        .chain((0..h.d_v()).map(|j| (context[(0, j)] - full.context[(t, j)]).abs()))
        .fold(0.0, f64::max);
    let (macs_cached, macs_full) = macs(model, t);
    Some(DecodeStep {
        t,
        query,
        keys,
        values,
        scores,
        weights,
        context,
        full_weights,
        max_diff,
        macs_cached,
        macs_full,
    })
}

/// The multiply-adds of decoding token `t` over every head: (with the cache, without).
/// With the cache, the new token's projections (a key and a value per key/value head) and one
/// row of scores and of the weighted sum; without, every token's projections again and, under
/// the mask, 1 + 2 + … + (t + 1) scores and weighted values.
pub fn macs(model: &Model, t: usize) -> (usize, usize) {
    let d_in = model.embedding().ncols();
    let seen = t + 1;
    let heads = model.heads();
    let queries: usize = heads.iter().map(|h| d_in * h.d_k()).sum();
    let kv: usize = (0..model.kv_heads())
        .map(|g| {
            let h = &heads[model.kv_leader(g)];
            d_in * (h.d_k() + h.d_v())
        })
        .sum();
    let per_key: usize = heads.iter().map(|h| h.d_k() + h.d_v()).sum();
    let pairs = seen * (seen + 1) / 2;
    (
        queries + kv + seen * per_key,
        seen * (queries + kv) + pairs * per_key,
    )
}
