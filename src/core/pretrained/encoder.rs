//! The encoder's forward pass, as transformers' `BertModel` computes it on one sentence (token
//! type 0, no padding, no mask): its attention is the page's own heads and output projection.

use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::forward::trace::{attend, concat_columns, project_output, HeadTrace};
use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::{add_row, Attention, Scale};

use super::config::Config;
use super::wordpiece::Vocabulary;

/// `nn.LayerNorm` over each row (biased variance).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerNorm {
    /// 1 × hidden, multiplies each normalised row.
    pub weight: DMatrix<f64>,
    /// 1 × hidden, added after.
    pub bias: DMatrix<f64>,
    /// Added to the variance.
    pub eps: f64,
}

impl LayerNorm {
    /// Each row less its mean, over its standard deviation, times the weight, plus the bias.
    pub fn apply(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let n = x.ncols() as f64;
        let mut out = x.clone();
        for mut row in out.row_iter_mut() {
            let mean = row.sum() / n;
            let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
            let scale = 1.0 / (variance + self.eps).sqrt();
            for (c, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) * scale * self.weight[c] + self.bias[c];
            }
        }
        out
    }
}

/// A linear layer on row vectors: `x @ w + b` (`nn.Linear`'s weight transposed).
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    /// in × out.
    pub w: DMatrix<f64>,
    /// 1 × out.
    pub b: DMatrix<f64>,
}

impl Dense {
    /// `x @ w + b`.
    pub fn apply(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let mut out = x * &self.w;
        add_row(&mut out, &self.b);
        out
    }
}

/// GELU as PyTorch's default (`approximate="none"`): `x · ½(1 + erf(x/√2))`.
pub fn gelu(x: f64) -> f64 {
    x * 0.5 * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2))
}

/// One encoder layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Its heads and the projection after them, as trained: shared with a page that puts this
    /// layer in the pipeline.
    pub attention: Arc<Attention>,
    /// After the attention's residual (`attention.output.LayerNorm`).
    pub attention_norm: LayerNorm,
    /// The feed-forward network's first layer, GELU after it (`intermediate.dense`).
    pub ffn_in: Dense,
    /// Its second (`output.dense`).
    pub ffn_out: Dense,
    /// After the feed-forward residual (`output.LayerNorm`).
    pub output_norm: LayerNorm,
}

/// The encoder: embeddings and layers.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoder {
    /// Its shape.
    pub config: Config,
    /// Its WordPiece vocabulary.
    pub vocabulary: Vocabulary,
    /// The word embeddings, vocabulary × hidden by rows, as stored (float32 or narrower): half
    /// of the model, of which a sentence reads a few rows (`config.vocabulary` × `config.hidden`:
    /// set only by the reader, which checks it).
    pub(super) words: Vec<f32>,
    /// The learned positions (positions × hidden).
    pub positions: DMatrix<f64>,
    /// Token type 0's row (1 × hidden).
    pub token_type: DMatrix<f64>,
    /// After the embeddings' sum.
    pub embedding_norm: LayerNorm,
    /// The layers, first to last.
    pub layers: Vec<Layer>,
}

/// Every intermediate of one layer on a sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerTrace {
    /// The hidden state entering it (tokens × hidden).
    pub input: DMatrix<f64>,
    /// Each head's Q, K, V, scores, weights and context (a knocked-out head's weights and
    /// context are zeros).
    pub heads: Vec<HeadTrace>,
    /// The heads' context vectors side by side.
    pub concatenated: DMatrix<f64>,
    /// `concatenated @ W_output + b_output`.
    pub attended: DMatrix<f64>,
    /// `LayerNorm(input + attended)`.
    pub attention_normed: DMatrix<f64>,
    /// `GELU(attention_normed @ W_in + b_in)`.
    pub intermediate: DMatrix<f64>,
    /// `LayerNorm(attention_normed + intermediate @ W_out + b_out)`: the layer's output.
    pub output: DMatrix<f64>,
}

/// The encoder on one sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct EncoderTrace {
    /// Its WordPiece tokens, `[CLS]` … `[SEP]`.
    pub tokens: Vec<String>,
    /// Their ids.
    pub ids: Vec<u32>,
    /// The embeddings' sum after its LayerNorm: the first layer's input.
    pub embedded: DMatrix<f64>,
    /// Each layer (shared: a page that reruns the layers above an edit keeps those below).
    pub layers: Vec<Arc<LayerTrace>>,
}

impl Encoder {
    /// The sentence's WordPiece tokens and ids, or why not (past [`super::MAX_PIECES`] tokens
    /// or the learned positions).
    pub fn tokenize(&self, sentence: &str) -> Result<(Vec<String>, Vec<u32>), Msg> {
        let tokens = self.vocabulary.encode(sentence)?;
        if tokens.len() > self.config.positions {
            return Err(models::past_positions(tokens.len(), self.config.positions));
        }
        let ids = self.vocabulary.ids(&tokens);
        Ok((tokens, ids))
    }

    /// The word embeddings of `ids` (tokens × hidden).
    pub fn word_rows(&self, ids: &[u32]) -> DMatrix<f64> {
        let h = self.config.hidden;
        DMatrix::from_fn(ids.len(), h, |r, c| {
            f64::from(self.words[ids[r] as usize * h + c])
        })
    }

    /// `LayerNorm(word + position + token type 0)`: the first layer's input.
    pub fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        self.embed_with(ids, true)
    }

    /// [`Encoder::embed`], the learned positions left out when `positions` is false (then
    /// nothing in the encoder sees the pieces' order: the order lab).
    pub fn embed_with(&self, ids: &[u32], positions: bool) -> DMatrix<f64> {
        let mut sum = self.word_rows(ids);
        if positions {
            sum += self.positions.rows(0, ids.len());
        }
        add_row(&mut sum, &self.token_type);
        self.embedding_norm.apply(&sum)
    }

    /// Layer `l` on the hidden state `x`, the heads in `knocked` knocked out (their weights
    /// × 0, as transformers' `head_mask`).
    pub fn run_layer(&self, l: usize, x: &DMatrix<f64>, knocked: &[usize]) -> LayerTrace {
        self.run_layer_with(l, x, &self.layers[l].attention, knocked)
    }

    /// Layer `l` on `x` with `attention` in place of its own (a learner's edit of it).
    pub fn run_layer_with(
        &self,
        l: usize,
        x: &DMatrix<f64>,
        attention: &Attention,
        knocked: &[usize],
    ) -> LayerTrace {
        let layer = &self.layers[l];
        let heads: Vec<HeadTrace> = attention
            .heads
            .iter()
            .enumerate()
            .map(|(h, head)| {
                let mut trace = attend(x, head, false, Scale::SqrtDk);
                if knocked.contains(&h) {
                    trace.weights.fill(0.0);
                    trace.context.fill(0.0);
                }
                trace
            })
            .collect();
        let concatenated = concat_columns(&heads.iter().map(|h| &h.context).collect::<Vec<_>>());
        let attended = project_output(&concatenated, &attention.output);
        let attention_normed = layer.attention_norm.apply(&(x + &attended));
        let intermediate = layer.ffn_in.apply(&attention_normed).map(gelu);
        let output = layer
            .output_norm
            .apply(&(&attention_normed + layer.ffn_out.apply(&intermediate)));
        LayerTrace {
            input: x.clone(),
            heads,
            concatenated,
            attended,
            attention_normed,
            intermediate,
            output,
        }
    }

    /// The whole encoder on `sentence`, the `(layer, head)` pairs in `knocked` knocked out.
    pub fn run(&self, sentence: &str, knocked: &[(usize, usize)]) -> Result<EncoderTrace, Msg> {
        if let Some(&(l, h)) = knocked
            .iter()
            .find(|&&(l, h)| l >= self.config.layers || h >= self.config.heads)
        {
            return Err(models::no_head(
                h,
                l,
                self.config.layers - 1,
                self.config.heads - 1,
            ));
        }
        let (tokens, ids) = self.tokenize(sentence)?;
        let embedded = self.embed(&ids);
        let mut layers: Vec<Arc<LayerTrace>> = Vec::with_capacity(self.layers.len());
        for l in 0..self.layers.len() {
            let x = layers.last().map_or(&embedded, |t| &t.output);
            let heads: Vec<usize> = knocked
                .iter()
                .filter(|&&(at, _)| at == l)
                .map(|&(_, h)| h)
                .collect();
            let trace = self.run_layer(l, x, &heads);
            layers.push(Arc::new(trace));
        }
        Ok(EncoderTrace {
            tokens,
            ids,
            embedded,
            layers,
        })
    }
}

/// `L:H,L:H,…` (layers and heads counted from 0, as transformers counts them): the heads to knock
/// out, or which entry is not one (the command line's: in English).
pub fn read_heads(text: &str) -> Result<Vec<(usize, usize)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|entry| {
            entry
                .split_once(':')
                .and_then(|(l, h)| Some((l.trim().parse().ok()?, h.trim().parse().ok()?)))
                .ok_or_else(|| {
                    format!(
                        "“{}” is not LAYER:HEAD (as 3:1, counted from 0)",
                        crate::core::text::clip(entry)
                    )
                })
        })
        .collect()
}

/// A step of a layer's computation after its attention, as the page shows it (`data-matrix`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerPart {
    /// `concat(heads) · W_output + b_output`.
    Attended,
    /// `LayerNorm(X + attended)`.
    Normed,
    /// The feed-forward network's inside, `GELU(h · W_in + b_in)`.
    Ffn,
    /// The layer's output.
    Output,
}

impl LayerPart {
    /// Every part, in the layer's order.
    pub const ALL: [LayerPart; 4] = [
        LayerPart::Attended,
        LayerPart::Normed,
        LayerPart::Ffn,
        LayerPart::Output,
    ];

    /// Its name in the DOM contract (`data-matrix`).
    pub fn key(self) -> &'static str {
        match self {
            LayerPart::Attended => "layer_attended",
            LayerPart::Normed => "layer_normed",
            LayerPart::Ffn => "layer_ffn",
            LayerPart::Output => "layer_output",
        }
    }

    /// Its numbers in `layer`.
    pub fn of(self, layer: &LayerTrace) -> &DMatrix<f64> {
        match self {
            LayerPart::Attended => &layer.attended,
            LayerPart::Normed => &layer.attention_normed,
            LayerPart::Ffn => &layer.intermediate,
            LayerPart::Output => &layer.output,
        }
    }
}
