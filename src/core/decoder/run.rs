//! The Llama forward pass, as transformers runs `LlamaForCausalLM`: the token embedding; per
//! layer RMSNorm → queries, keys, values → RoPE → grouped-query causal attention (key/value
//! head `h / (heads / kv_heads)` for query head h, stored once and shared, as `repeat_kv`) →
//! `o_proj` → residual → RMSNorm → SwiGLU → residual; the final RMSNorm and the LM head tied to
//! the embedding. Every layer keeps its rotated keys and values in a cache, so a generated
//! token costs one row, and a run a token at a time equals the run of all of them at once.

use nalgebra::{DMatrix, Scalar};

use crate::core::forward::trace::concat_columns;
use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::{knocked_in, Attention};

use super::model::Decoder;
use super::steps::{log_sum_exp, rms_norm, silu, softmax_f32, Angles};

/// What one layer's attention has seen: per key/value head, the rotated keys and the values of
/// every position so far.
#[derive(Clone, Debug, Default)]
pub struct LayerCache {
    keys: Vec<DMatrix<f64>>,
    values: Vec<DMatrix<f64>>,
}

/// Every layer's cache: what a generated token's attention reads instead of computing again.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    layers: Vec<LayerCache>,
}

impl Cache {
    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.layers
            .first()
            .and_then(|l| l.keys.first())
            .map_or(0, DMatrix::nrows)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Layer `l`'s cache of a decoder with `layers` layers.
    pub fn layer(&mut self, l: usize, layers: usize) -> &mut LayerCache {
        if self.layers.len() < layers {
            self.layers.resize_with(layers, LayerCache::default);
        }
        &mut self.layers[l]
    }
}

/// One layer on some tokens, its attention weights as `W` (the page keeps them as float32).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerRun<W: Scalar = f64> {
    /// Each query head's attention weights: the tokens' rows over every position so far.
    pub weights: Vec<DMatrix<W>>,
    /// The hidden state after the layer, a row per token.
    pub output: DMatrix<f64>,
    /// What the layer computes after its attention, a row per token (a run keeps them for the
    /// layer it shows, and drops the others').
    pub parts: Option<Box<LayerParts>>,
}

/// A layer's steps after its attention.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerParts {
    /// The heads joined by `o_proj`: what attention adds to the hidden state.
    pub attended: DMatrix<f64>,
    /// `RMSNorm(x + attended)`: the feed-forward network's input.
    pub normed: DMatrix<f64>,
    /// Inside the feed-forward network, `SiLU(normed · W_gate) ⊙ normed · W_up`.
    pub ffn: DMatrix<f64>,
}

/// A run of the whole decoder on some tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The tokens' embedding rows: the first layer's input.
    pub embedded: DMatrix<f64>,
    /// Each layer, bottom first.
    pub layers: Vec<LayerRun>,
    /// After the final RMSNorm.
    pub normed: DMatrix<f64>,
    /// The LM head's logits at the last token: what comes next.
    pub logits: Vec<f64>,
}

impl Run {
    /// The last token's log-probabilities of every next token.
    pub fn log_probs(&self) -> Vec<f64> {
        let total = log_sum_exp(&self.logits);
        self.logits.iter().map(|l| l - total).collect()
    }
}

/// The `n` largest of `values` with their places, largest first (the earlier place first among
/// equals, as `torch.topk`'s order is read here). The rest are left unsorted: greedy decoding
/// asks for 1 of 49 152.
pub fn top(values: &[f64], n: usize) -> Vec<(u32, f64)> {
    let larger_first = |a: &usize, b: &usize| values[*b].total_cmp(&values[*a]).then(a.cmp(b));
    let mut order: Vec<usize> = (0..values.len()).collect();
    let n = n.min(order.len());
    if n > 0 && n < order.len() {
        order.select_nth_unstable_by(n - 1, larger_first);
    }
    order.truncate(n);
    order.sort_by(larger_first);
    order.into_iter().map(|i| (i as u32, values[i])).collect()
}

impl Decoder {
    /// The embedding rows of `ids` (an id past the vocabulary is refused).
    pub fn embed(&self, ids: &[u32]) -> Result<DMatrix<f64>, Msg> {
        let h = self.config.hidden;
        let mut out = DMatrix::zeros(ids.len(), h);
        for (t, &id) in ids.iter().enumerate() {
            if id as usize >= self.config.vocabulary {
                return Err(models::past_vocabulary(id, self.config.vocabulary));
            }
            for (c, v) in self.embedding.row(id as usize).into_iter().enumerate() {
                out[(t, c)] = v;
            }
        }
        Ok(out)
    }

    /// Layer `l` on `x` (a row per new token, after those in `cache`), its query heads in
    /// `knocked` giving zeros to `o_proj`, and `attention` (the page's heads and output
    /// projection, or a learner's edit of them) in place of its own if given; the cache takes
    /// the new keys and values. `angles` are RoPE's for the new tokens' positions.
    pub fn layer(
        &self,
        l: usize,
        x: &DMatrix<f64>,
        cache: &mut LayerCache,
        knocked: &[usize],
        attention: Option<&Attention>,
        angles: &Angles,
    ) -> LayerRun {
        let c = &self.config;
        let layer = &self.layers[l];
        let (d, per) = (c.head_dim, c.heads / c.kv_heads);
        let (n, past) = (x.nrows(), cache.keys.first().map_or(0, DMatrix::nrows));
        let normed = rms_norm(x, &layer.attn_norm, c.eps);
        let (q, k, v) = match attention {
            None => (
                layer.q.apply(&normed),
                layer.k.apply(&normed),
                layer.v.apply(&normed),
            ),
            Some(a) => {
                // A group's keys and values are its first head's (the others hold copies).
                let each = |m: &dyn Fn(usize) -> DMatrix<f64>, count: usize, step: usize| {
                    let blocks: Vec<DMatrix<f64>> = (0..count).map(|i| m(i * step)).collect();
                    concat_columns(&blocks.iter().collect::<Vec<_>>())
                };
                (
                    each(&|h| &normed * &a.heads[h].w_query, c.heads, 1),
                    each(&|h| &normed * &a.heads[h].w_key, c.kv_heads, per),
                    each(&|h| &normed * &a.heads[h].w_value, c.kv_heads, per),
                )
            }
        };
        if cache.keys.is_empty() {
            cache.keys = vec![DMatrix::zeros(0, d); c.kv_heads];
            cache.values = vec![DMatrix::zeros(0, d); c.kv_heads];
        }
        for g in 0..c.kv_heads {
            let keys = angles.rotate(&k.columns(g * d, d).into_owned());
            for (kept, new) in [
                (&mut cache.keys[g], keys),
                (&mut cache.values[g], v.columns(g * d, d).into_owned()),
            ] {
                let at = kept.nrows();
                *kept =
                    std::mem::replace(kept, DMatrix::zeros(0, 0)).resize_vertically(at + n, 0.0);
                kept.rows_mut(at, n).copy_from(&new);
            }
        }
        let scaling = (d as f64).powf(-0.5);
        let mut concatenated = DMatrix::zeros(n, c.heads * d);
        let mut weights = Vec::with_capacity(c.heads);
        for h in 0..c.heads {
            let g = h / per;
            let queries = angles.rotate(&q.columns(h * d, d).into_owned());
            let scores = (&queries * cache.keys[g].transpose()) * scaling;
            let mut w = DMatrix::zeros(n, past + n);
            for t in 0..n {
                let row: Vec<f64> = scores.row(t).iter().copied().collect();
                for (j, p) in softmax_f32(&row, past + t + 1).into_iter().enumerate() {
                    w[(t, j)] = p;
                }
            }
            if !knocked.contains(&h) {
                concatenated
                    .columns_mut(h * d, d)
                    .copy_from(&(&w * &cache.values[g]));
            }
            weights.push(w);
        }
        let projected = match attention {
            None => layer.o.apply(&concatenated),
            Some(a) => &concatenated * &a.output.w_output,
        };
        let attended = x + &projected;
        let normed = rms_norm(&attended, &layer.ffn_norm, c.eps);
        let gate = layer.gate.apply(&normed);
        let up = layer.up.apply(&normed);
        let ffn = gate.zip_map(&up, |g, u| silu(g) * u);
        LayerRun {
            weights,
            output: attended + layer.down.apply(&ffn),
            parts: Some(Box::new(LayerParts {
                attended: projected,
                normed,
                ffn,
            })),
        }
    }

    /// The multiply-adds the next token costs when `past` tokens come before it: with the cache,
    /// its own row through every layer and the LM head; without, every token so far through the
    /// layers again.
    pub fn multiply_adds(&self, past: usize, cached: bool) -> u64 {
        let c = &self.config;
        let (h, kv, f) = (
            c.hidden as u64,
            (c.kv_heads * c.head_dim) as u64,
            c.ffn as u64,
        );
        let matrices = 2 * h * h + 2 * h * kv + 3 * h * f;
        // Scores and context over the keys up to a position.
        let attention = |at: u64| 2 * (c.heads * c.head_dim) as u64 * (at + 1);
        let token = |at: u64| c.layers as u64 * (matrices + attention(at));
        let layers: u64 = if cached {
            token(past as u64)
        } else {
            (0..=past as u64).map(token).sum()
        };
        layers + c.vocabulary as u64 * h
    }

    /// The numbers the cache keeps per position: a key and a value per key/value head per
    /// layer.
    pub fn cache_numbers_per_token(&self) -> usize {
        let c = &self.config;
        2 * c.layers * c.kv_heads * c.head_dim
    }

    /// RoPE's angles for positions `from..to`.
    pub fn angles(&self, from: usize, to: usize) -> Angles {
        Angles::of(self.config.rope_base, self.config.head_dim, from, to)
    }

    /// The LM head on a hidden state after the final norm: a logit per vocabulary token.
    pub fn logits(&self, normed: &[f64]) -> Vec<f64> {
        let x = DMatrix::from_row_slice(1, normed.len(), normed);
        self.embedding.apply(&x).iter().copied().collect()
    }

    /// Every layer on `ids` after what `cache` holds, `knocked` heads as (layer, head).
    pub fn run_with(
        &self,
        ids: &[u32],
        cache: &mut Cache,
        knocked: &[(usize, usize)],
    ) -> Result<Run, Msg> {
        self.run_edited(ids, cache, knocked, &|_| None)
    }

    /// [`Decoder::run_with`], layer `l`'s attention replaced by `replaced(l)` where it gives one
    /// (the page's layer, a learner's changed cells).
    pub fn run_edited<'a>(
        &self,
        ids: &[u32],
        cache: &mut Cache,
        knocked: &[(usize, usize)],
        replaced: &dyn Fn(usize) -> Option<std::borrow::Cow<'a, Attention>>,
    ) -> Result<Run, Msg> {
        if ids.is_empty() {
            return Err(models::no_tokens_to_run.into());
        }
        let embedded = self.embed(ids)?;
        cache
            .layers
            .resize_with(self.config.layers, LayerCache::default);
        let past = cache.len();
        let angles = self.angles(past, past + ids.len());
        let mut x = embedded.clone();
        let mut layers = Vec::with_capacity(self.config.layers);
        for l in 0..self.config.layers {
            let out = knocked_in(knocked, l);
            let run = self.layer(
                l,
                &x,
                &mut cache.layers[l],
                &out,
                replaced(l).as_deref(),
                &angles,
            );
            x = run.output.clone();
            layers.push(run);
        }
        let normed = rms_norm(&x, &self.norm, self.config.eps);
        let last: Vec<f64> = normed.row(normed.nrows() - 1).iter().copied().collect();
        Ok(Run {
            logits: self.logits(&last),
            embedded,
            layers,
            normed,
        })
    }

    /// Every layer on `ids` from the start.
    pub fn run(&self, ids: &[u32], knocked: &[(usize, usize)]) -> Result<Run, Msg> {
        self.run_with(ids, &mut Cache::default(), knocked)
    }

    /// `n` tokens after `ids`, each `pick`ed from the logits after the last, the cache on (one
    /// row per new token).
    pub fn generate(
        &self,
        ids: &[u32],
        n: usize,
        knocked: &[(usize, usize)],
        mut pick: impl FnMut(&[f64]) -> u32,
    ) -> Result<Vec<u32>, Msg> {
        let mut cache = Cache::default();
        let mut run = self.run_with(ids, &mut cache, knocked)?;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let next = pick(&run.logits);
            out.push(next);
            if k + 1 < n {
                run = self.run_with(&[next], &mut cache, knocked)?;
            }
        }
        Ok(out)
    }
}

/// The place of the largest logit (the first among equals, as `argmax`): greedy decoding.
pub fn greedy(logits: &[f64]) -> u32 {
    top(logits, 1).first().map_or(0, |&(i, _)| i)
}
