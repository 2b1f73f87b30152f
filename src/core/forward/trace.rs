//! Model → Trace: every intermediate of scaled dot-product self-attention, per head, and the
//! breakdowns a learner asks for (a score as its dot-product terms, a context row as a weighted sum).

use crate::core::text::fmt;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::forward::softmax::{
    largest_first, mask_future, masked_weights_simple, renormalize_rows, softmax_rows,
};
use crate::core::model::positions::{rotate, Positions, Rope};
use crate::core::model::tokens::Tokens;
use crate::core::model::{add_row, same_numbers, Head, Model, OutputProjection, Projection, Scale};

/// Every intermediate of one head. Rows are queries (tokens), columns of the n × n matrices are keys.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadTrace {
    /// embedded @ w_query (+ b_query) (n × d_k)
    pub queries: DMatrix<f64>,
    /// embedded @ w_key (+ b_key) (n × d_k)
    pub keys: DMatrix<f64>,
    /// embedded @ w_value (+ b_value) (n × d_v)
    pub values: DMatrix<f64>,
    /// With RoPE: the queries rotated by their place, from which the scores are taken
    pub queries_rotated: Option<DMatrix<f64>>,
    /// With RoPE: the keys rotated by their place
    pub keys_rotated: Option<DMatrix<f64>>,
    /// queries @ keysᵀ (n × n)
    pub scores: DMatrix<f64>,
    /// scores divided by the scale's divisor
    pub scaled_scores: DMatrix<f64>,
    /// scaled scores with −∞ above the diagonal when causal (else equal to them)
    pub masked_scores: DMatrix<f64>,
    /// softmax of the masked scores, by row
    pub weights: DMatrix<f64>,
    /// causal only: the tutorial's second way to mask
    pub causal_methods: Option<CausalMethods>,
    /// weights @ values (n × d_v)
    pub context: DMatrix<f64>,
}

/// The tutorial's second masking method, beside −∞ before the softmax.
#[derive(Clone, Debug, PartialEq)]
pub struct CausalMethods {
    /// The unmasked weights × tril(ones).
    pub simple: DMatrix<f64>,
    /// `simple` divided by its row sums.
    pub renormalized: DMatrix<f64>,
}

/// The whole computation for a model.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The sentence's tokens.
    pub tokens: Tokens,
    /// Each token's embedding row (n × d_in).
    pub embedded: DMatrix<f64>,
    /// With sinusoidal or learned positions: the embedded sentence plus the table, which the
    /// projections take.
    pub positioned: Option<DMatrix<f64>>,
    /// With cross-attention: the source's tokens and embedded rows (m × d_in), which the keys
    /// and values are computed from.
    pub source: Option<(Tokens, DMatrix<f64>)>,
    /// Each head's intermediates.
    pub heads: Vec<HeadTrace>,
    /// With an output projection, the heads' context vectors side by side (n × Σ d_v).
    pub concatenated: Option<DMatrix<f64>>,
    /// The heads' context vectors side by side (n × Σ d_v), or with an output projection
    /// `concatenated @ w_output + b_output` (n × d_out).
    pub output: DMatrix<f64>,
    /// What each head was computed from, so that [`Trace::refresh`] redoes only changed heads
    /// (the model's copy, shared).
    inputs: Arc<Vec<Head>>,
    projection: Option<Arc<OutputProjection>>,
    positions: Positions,
    causal: bool,
    scale: Scale,
}

impl Trace {
    /// Runs the model on its sentence.
    pub fn of(model: &Model) -> Trace {
        let embedded = model.embedded();
        let positioned = model.added_positions(&embedded);
        let x = positioned.as_ref().unwrap_or(&embedded);
        let rope = model.positions().rope();
        let source = model.source().map(|s| (s.tokens().clone(), s.embedded()));
        let kv_x = source.as_ref().map_or(x, |s| &s.1);
        let heads: Vec<HeadTrace> = model
            .heads()
            .iter()
            .map(|h| attend_to(x, kv_x, h, model.causal, model.scale, rope))
            .collect();
        let (concatenated, output) = output_of(&heads, model.output());
        Trace {
            tokens: model.tokens().clone(),
            embedded,
            positioned,
            source,
            heads,
            concatenated,
            output,
            inputs: model.shared_heads().clone(),
            projection: model.shared_output().cloned(),
            positions: model.positions().clone(),
            causal: model.causal,
            scale: model.scale,
        }
    }

    /// The scaling the scores were divided by.
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// Head `head`'s weights from token `query`: where the attention lines go. None when either
    /// is out of range.
    pub fn weights_row(&self, head: usize, query: usize) -> Option<Vec<f64>> {
        let h = self.heads.get(head)?;
        (query < h.weights.nrows()).then(|| h.weights.row(query).iter().copied().collect())
    }

    /// The tokens the keys belong to: the source's with cross-attention, else the sentence's.
    pub fn key_tokens(&self) -> &Tokens {
        self.source.as_ref().map_or(&self.tokens, |s| &s.0)
    }

    /// The trace of `model`, reusing whatever of `previous` its edit left alone: after an edit of
    /// one head's weights only that head is recomputed, and after an edit of the embedding or a
    /// token added (a language model writing) only those tokens' queries, keys and values (then
    /// every head's scores onwards). Also says
    /// whether anything changed, so that nothing downstream re-renders after an edit that wrote
    /// the same number.
    pub fn refresh(previous: Option<Trace>, model: &Model) -> (Trace, bool) {
        let Some(mut trace) = previous else {
            return (Trace::of(model), true);
        };
        let same_source = match (&trace.source, model.source()) {
            (None, None) => true,
            (Some((tokens, rows)), Some(s)) => tokens == s.tokens() && *rows == s.embedded(),
            _ => false,
        };
        let same_setting = same_source
            && trace.causal == model.causal
            && trace.scale == model.scale
            && trace.inputs.len() == model.heads().len()
            // A learned table's edit moves rows like an embedding's; any other change of the
            // positions changes every row.
            && (trace.positions == *model.positions()
                || matches!((&trace.positions, model.positions()), (Positions::Learned(_), Positions::Learned(_))));
        if !same_setting {
            return (Trace::of(model), true);
        }
        let embedded = model.embedded();
        let positioned = model.added_positions(&embedded);
        let x = positioned.as_ref().unwrap_or(&embedded);
        let source_rows = trace.source.as_ref().map(|s| s.1.clone());
        let kv_x = source_rows.as_ref().unwrap_or(x);
        let before = trace.positioned.as_ref().unwrap_or(&trace.embedded);
        let (n, kept) = (x.nrows(), before.nrows().min(x.nrows()));
        // The rows that changed, and those a longer sentence adds.
        let moved: Vec<usize> = (0..n)
            .filter(|&t| t >= kept || x.row(t) != before.row(t))
            .collect();
        if moved.len() == n {
            return (Trace::of(model), true);
        }
        let moved_rows = DMatrix::from_fn(moved.len(), x.ncols(), |i, j| x[(moved[i], j)]);
        let rope = model.positions().rope();
        let resized = n != before.nrows();
        let mut changed = !moved.is_empty()
            || resized
            || trace.tokens != *model.tokens()
            || !match (&trace.projection, model.shared_output()) {
                (Some(a), Some(b)) => same_numbers(a, b),
                (a, b) => a.is_none() && b.is_none(),
            };
        // The same copy: no head to compare (a language model's are 8 MB).
        let same_heads = Arc::ptr_eq(&trace.inputs, model.shared_heads());
        for (h, head) in model.heads().iter().enumerate() {
            if !same_heads && trace.inputs[h] != *head {
                trace.heads[h] = attend_to(x, kv_x, head, model.causal, model.scale, rope);
                changed = true;
            } else if !moved.is_empty() || resized {
                let old = &trace.heads[h];
                // The kept rows; the others are among the moved, projected below.
                let first = |m: &DMatrix<f64>| {
                    DMatrix::from_fn(n, m.ncols(), |i, j| if i < kept { m[(i, j)] } else { 0.0 })
                };
                let mut q = first(&old.queries);
                let (mut k, mut v) = match source_rows {
                    Some(_) => (old.keys.clone(), old.values.clone()),
                    None => (first(&old.keys), first(&old.values)),
                };
                // The moved rows projected together: one product each, not one per row.
                let project = |p| head.project(&moved_rows, p);
                let rows = |m: &mut DMatrix<f64>, projected: DMatrix<f64>| {
                    for (i, &t) in moved.iter().enumerate() {
                        m.set_row(t, &projected.row(i));
                    }
                };
                rows(&mut q, project(Projection::Query));
                // A source's keys and values do not move with the sentence.
                if source_rows.is_none() {
                    rows(&mut k, project(Projection::Key));
                    rows(&mut v, project(Projection::Value));
                }
                trace.heads[h] = attend_projected(q, k, v, model.causal, model.scale, rope);
            }
        }
        trace.inputs = model.shared_heads().clone();
        if changed {
            trace.tokens = model.tokens().clone();
            trace.embedded = embedded;
            trace.positioned = positioned;
            trace.positions = model.positions().clone();
            (trace.concatenated, trace.output) = output_of(&trace.heads, model.output());
            trace.projection = model.shared_output().cloned();
        }
        (trace, changed)
    }

    /// `score(i, j)` of a head as its dot-product terms.
    pub fn score_terms(&self, head: usize, query: usize, key: usize) -> Option<ScoreTerms> {
        let h = self.heads.get(head)?;
        if query >= h.queries.nrows() || key >= h.keys.nrows() {
            return None;
        }
        let keys_words = &self.key_tokens().words;
        // With RoPE the score is of the rotated query and key.
        let (queries, keys) = (
            h.queries_rotated.as_ref().unwrap_or(&h.queries),
            h.keys_rotated.as_ref().unwrap_or(&h.keys),
        );
        let terms = queries
            .row(query)
            .iter()
            .zip(keys.row(key).iter())
            .map(|(&q, &k)| (q, k))
            .collect();
        Some(ScoreTerms {
            query: self.tokens.words[query].clone(),
            key: keys_words[key].clone(),
            terms,
            total: h.scores[(query, key)],
        })
    }

    /// Context row `query` of a head as the weighted sum of the value rows.
    pub fn context_terms(&self, head: usize, query: usize) -> Option<ContextTerms> {
        let h = self.heads.get(head)?;
        if query >= h.context.nrows() {
            return None;
        }
        let keys_words = &self.key_tokens().words;
        let terms = (0..h.values.nrows())
            .map(|j| {
                (
                    keys_words[j].clone(),
                    h.weights[(query, j)],
                    h.values.row(j).iter().copied().collect(),
                )
            })
            .collect();
        Some(ContextTerms {
            query: self.tokens.words[query].clone(),
            terms,
            total: h.context.row(query).iter().copied().collect(),
        })
    }
}

/// One head on an embedded sentence (n × d_in), without positions.
pub fn attend(embedded: &DMatrix<f64>, head: &Head, causal: bool, scale: Scale) -> HeadTrace {
    attend_with(embedded, head, causal, scale, None)
}

/// One head on a (positioned) embedded sentence, its queries and keys rotated by `rope`'s base
/// and pairs if given.
pub fn attend_with(
    x: &DMatrix<f64>,
    head: &Head,
    causal: bool,
    scale: Scale,
    rope: Option<(f64, Rope)>,
) -> HeadTrace {
    attend_to(x, x, head, causal, scale, rope)
}

/// One head whose queries come from `x` and keys and values from `kv_x` (`x` itself in
/// self-attention, the source sentence in cross-attention).
pub fn attend_to(
    x: &DMatrix<f64>,
    kv_x: &DMatrix<f64>,
    head: &Head,
    causal: bool,
    scale: Scale,
    rope: Option<(f64, Rope)>,
) -> HeadTrace {
    attend_projected(
        head.project(x, Projection::Query),
        head.project(kv_x, Projection::Key),
        head.project(kv_x, Projection::Value),
        causal,
        scale,
        rope,
    )
}

/// One head from its queries, keys and values onwards.
fn attend_projected(
    queries: DMatrix<f64>,
    keys: DMatrix<f64>,
    values: DMatrix<f64>,
    causal: bool,
    scale: Scale,
    rope: Option<(f64, Rope)>,
) -> HeadTrace {
    let rotated = rope.map(|(base, pairs)| {
        (
            rotate(&queries, base, pairs, 1.0),
            rotate(&keys, base, pairs, 1.0),
        )
    });
    let scores = match &rotated {
        Some((q, k)) => q * k.transpose(),
        None => &queries * keys.transpose(),
    };
    let scaled_scores = &scores / scale.divisor(queries.ncols());
    let masked_scores = if causal {
        mask_future(&scaled_scores)
    } else {
        scaled_scores.clone()
    };
    let weights = softmax_rows(&masked_scores);
    let causal_methods = causal.then(|| {
        let simple = masked_weights_simple(&softmax_rows(&scaled_scores));
        let renormalized = renormalize_rows(&simple);
        CausalMethods {
            simple,
            renormalized,
        }
    });
    let context = &weights * &values;
    let (queries_rotated, keys_rotated) = rotated.unzip();
    HeadTrace {
        queries,
        keys,
        values,
        queries_rotated,
        keys_rotated,
        scores,
        scaled_scores,
        masked_scores,
        weights,
        causal_methods,
        context,
    }
}

/// The backward of `scores = queries · keysᵀ`: (∂L/∂queries, ∂L/∂keys) from ∂L/∂scores.
pub fn scores_backward(
    queries: &DMatrix<f64>,
    keys: &DMatrix<f64>,
    d_scores: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    (d_scores * keys, d_scores.transpose() * queries)
}

/// The backward of `context = weights · values`: (∂L/∂weights, ∂L/∂values) from ∂L/∂context.
pub fn context_backward(
    weights: &DMatrix<f64>,
    values: &DMatrix<f64>,
    d_context: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    (
        d_context * values.transpose(),
        weights.transpose() * d_context,
    )
}

/// The heads' context vectors side by side, and then through the output projection if there is
/// one: (the concatenation when projected, the output).
fn output_of(
    heads: &[HeadTrace],
    projection: Option<&OutputProjection>,
) -> (Option<DMatrix<f64>>, DMatrix<f64>) {
    let concatenated = concat_columns(&heads.iter().map(|h| &h.context).collect::<Vec<_>>());
    match projection {
        Some(p) => {
            let output = project_output(&concatenated, p);
            (Some(concatenated), output)
        }
        None => (None, concatenated),
    }
}

/// `concatenated @ w_output + b_output`.
pub fn project_output(concatenated: &DMatrix<f64>, p: &OutputProjection) -> DMatrix<f64> {
    let mut output = concatenated * &p.w_output;
    if let Some(b) = &p.b_output {
        add_row(&mut output, b);
    }
    output
}

/// Matrices of as many rows concatenated by columns (the heads' context vectors).
pub fn concat_columns(blocks: &[&DMatrix<f64>]) -> DMatrix<f64> {
    let rows = blocks.first().map_or(0, |b| b.nrows());
    let widths: usize = blocks.iter().map(|b| b.ncols()).sum();
    let mut out = DMatrix::zeros(rows, widths);
    let mut col = 0;
    for b in blocks {
        out.view_mut((0, col), b.shape()).copy_from(*b);
        col += b.ncols();
    }
    out
}

/// A score as a sum of products: `she·dog = 2.64×2.88 + 1.46×3.06 + 0.94×1.89 = 13.8`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreTerms {
    /// The query's token.
    pub query: String,
    /// The key's token.
    pub key: String,
    /// (query component, key component) pairs.
    pub terms: Vec<(f64, f64)>,
    /// The score.
    pub total: f64,
}

impl ScoreTerms {
    /// The sum written out with `precision` decimals.
    pub fn describe(&self, precision: usize) -> String {
        let products: Vec<String> = self
            .terms
            .iter()
            .map(|(q, k)| format!("{}×{}", fmt(*q, precision), fmt(*k, precision)))
            .collect();
        format!(
            "{}·{} = {} = {}",
            self.query,
            self.key,
            products.join(" + "),
            fmt(self.total, precision)
        )
    }
}

/// A context row as a weighted sum of value rows: `0.883 × dog + 0.087 × ball + …`.
#[derive(Clone, Debug, PartialEq)]
pub struct ContextTerms {
    /// The query's token.
    pub query: String,
    /// (token, weight, value row) for every key token.
    pub terms: Vec<(String, f64, Vec<f64>)>,
    /// The context row.
    pub total: Vec<f64>,
}

impl ContextTerms {
    /// The weighted sum, largest weights first, with `precision` decimals; zero weights left out.
    pub fn describe(&self, precision: usize) -> String {
        let mut order: Vec<usize> = (0..self.terms.len())
            .filter(|&j| self.terms[j].1 != 0.0)
            .collect();
        largest_first(&mut order, &|j| self.terms[j].1);
        let sum: Vec<String> = order
            .iter()
            .map(|&j| {
                let (token, w, _) = &self.terms[j];
                format!("{} × {token}", fmt(*w, precision))
            })
            .collect();
        let total: Vec<String> = self.total.iter().map(|x| fmt(*x, precision)).collect();
        format!(
            "context({}) = {} = [{}]",
            self.query,
            sum.join(" + "),
            total.join(", ")
        )
    }
}
