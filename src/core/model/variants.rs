//! Two of today's variants of the one formula, on the learner's model: grouped-query heads
//! (query heads sharing one key/value head: `kv_heads`) and cross-attention (the keys and values
//! taken from a second sentence: the `source`).
//!
//! Shared keys and values are kept as equal copies in every head of a group, so that the trace,
//! the gradients and the views go on reading a head's own `w_key` and `w_value`; every write
//! goes to the group's first head and is copied to the others ([`Model::share_kv`]).

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::limits::check_kv_heads;
use crate::core::model::positions::Positions;
use crate::core::model::reshape::overlay;
use crate::core::model::source::Source;
use crate::core::model::tokens::Tokens;
use crate::core::model::{Editable, Head, Model, Projection};

impl Model {
    /// The number of key/value heads: the number of heads unless query heads share them.
    pub fn kv_heads(&self) -> usize {
        self.kv_heads
    }

    /// The key/value head query head `h` uses: `h / (H / G)`, PyTorch's `repeat_interleave`
    /// order (`scaled_dot_product_attention(…, enable_gqa=True)`, Llama).
    pub fn kv_of(&self, h: usize) -> usize {
        h / (self.heads.len() / self.kv_heads)
    }

    /// The first query head of key/value head `g`, which holds the group's keys and values.
    pub fn kv_leader(&self, g: usize) -> usize {
        g * (self.heads.len() / self.kv_heads)
    }

    /// Each query head's key/value head's first query head: the one head that shows them.
    pub fn kv_leaders(&self) -> Vec<usize> {
        (0..self.heads.len())
            .map(|h| self.kv_leader(self.kv_of(h)))
            .collect()
    }

    /// Whether some query heads share their keys and values.
    pub fn shares_kv(&self) -> bool {
        self.kv_heads < self.heads.len()
    }

    /// The same model with `g` key/value heads: each group's heads take the keys and values
    /// (and their biases) of its first head. `g` must divide the number of heads.
    pub fn with_kv_heads(mut self, g: usize) -> Result<Model, Msg> {
        let h = self.heads.len();
        check_kv_heads(h, g)?;
        if g < h && self.layered.is_some() {
            return Err(edits::layer_keeps_kv.into());
        }
        // Heads that share must be alike: the same d_k and d_v, biases on all or none.
        let shape = |head: &Head| (head.d_k(), head.d_v(), head.biases.is_some());
        let per = h / g;
        if let Some(k) =
            (0..h).find(|&k| shape(&self.heads[k]) != shape(&self.heads[k / per * per]))
        {
            return Err(edits::heads_differ(k, k / per * per));
        }
        self.kv_heads = g;
        self.share_kv();
        Ok(self)
    }

    /// Copies each group's keys and values (and their biases) from its first head to the others.
    pub(crate) fn share_kv(&mut self) {
        if !self.shares_kv() {
            return;
        }
        for h in 0..self.heads.len() {
            let leader = self.kv_leader(self.kv_of(h));
            if leader == h {
                continue;
            }
            for p in [Projection::Key, Projection::Value] {
                let (mine, theirs) = (&self.heads[h], &self.heads[leader]);
                let same_bias = match (&mine.biases, &theirs.biases) {
                    (Some(m), Some(t)) => m[p] == t[p],
                    _ => true,
                };
                // Already shared (a trained model's): no copy of the heads made.
                if mine[p] == theirs[p] && same_bias {
                    continue;
                }
                let heads = Arc::make_mut(&mut self.heads);
                heads[h][p] = heads[leader][p].clone();
                let bias = heads[leader].biases.as_ref().map(|b| b[p].clone());
                if let (Some(b), Some(mine)) = (bias, heads[h].biases.as_mut()) {
                    mine[p] = b;
                }
            }
        }
    }

    /// Where a write to `target` goes: a shared key or value to its group's first head.
    pub(crate) fn kv_home(&self, target: Editable) -> Editable {
        match target {
            Editable::Weight(h, p) | Editable::Bias(h, p)
                if self.shares_kv() && p != Projection::Query && h < self.heads.len() =>
            {
                target.in_head(self.kv_leader(self.kv_of(h)))
            }
            other => other,
        }
    }

    /// The bytes a decoder's KV cache keeps per token (one layer, float16 as deployed models
    /// store it): (with these key/value heads, with a key and a value per query head).
    pub fn kv_bytes_per_token(&self) -> (usize, usize) {
        let width = |h: &Head| 2 * (h.d_k() + h.d_v());
        let separate = self.heads.iter().map(width).sum();
        let shared = (0..self.kv_heads)
            .map(|g| width(&self.heads[self.kv_leader(g)]))
            .sum();
        (shared, separate)
    }

    /// The source sentence of cross-attention, if any.
    pub fn source(&self) -> Option<&Source> {
        self.source.as_ref()
    }

    /// The same model with keys and values taken from `source` (or from its own sentence).
    /// Refused with a causal mask (no source token comes "later"), with positions (each
    /// sentence would need its own) and on a trained layer.
    pub fn with_source(mut self, source: Option<Source>) -> Result<Model, Msg> {
        if let Some(s) = &source {
            if self.causal {
                return Err(edits::causal_with_source.into());
            }
            if *self.positions() != Positions::None {
                return Err(edits::positions_with_source_off.into());
            }
            if self.layered.is_some() {
                return Err(edits::layer_own_sentence.into());
            }
            if s.embedding.ncols() != self.embedding.ncols() {
                return Err(edits::source_width(
                    s.embedding.ncols(),
                    self.embedding.ncols(),
                ));
            }
        }
        self.source = source;
        Ok(self)
    }

    /// What the keys and values are computed from: the source's embedded tokens, or `x` (the
    /// sentence's, positioned).
    pub fn keys_from(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        match &self.source {
            Some(s) => s.embedded(),
            None => x.clone(),
        }
    }

    /// The words the keys belong to: the source's, or the sentence's.
    pub fn key_tokens(&self) -> &Tokens {
        self.source.as_ref().map_or(&self.tokens, |s| s.tokens())
    }

    /// The key/value heads and the source of `from`, on this model where they fit: the groups
    /// if their number still divides the heads, the source with its rows widened or cut to
    /// this d_in (new numbers drawn from `seed`).
    pub(crate) fn with_variants_of(self, from: &Model, seed: u64) -> Result<Model, Msg> {
        let h = self.heads.len();
        let g = if from.shares_kv() && h.is_multiple_of(from.kv_heads) {
            from.kv_heads
        } else {
            h
        };
        let source = match &from.source {
            Some(s) if s.embedding.ncols() != self.embedding.ncols() => {
                let fresh = Source::drawn(s.sentence(), self.tokens(), self.embedding(), seed)?;
                Some(Source::new(
                    s.sentence(),
                    overlay(&fresh.embedding, &s.embedding),
                )?)
            }
            other => other.clone(),
        };
        self.with_kv_heads(g)?.with_source(source)
    }
}
