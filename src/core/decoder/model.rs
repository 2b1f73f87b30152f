//! A Llama-architecture decoder read from a GGUF file: its shape from the metadata, its
//! tokenizer, and per layer the norms and the matrices as transformers loads them (the query
//! and key rows back in Hugging Face's order: llama.cpp's converter interleaves them for its
//! RoPE, transformers undoes it).

use std::sync::Arc;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

use super::bpe::Bpe;
use super::gguf::{dequantize, Gguf, Value};
use super::weights::Stored;

/// The decoder's shape, from `llama.*` metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `block_count`.
    pub layers: usize,
    /// `embedding_length`: the hidden state's width.
    pub hidden: usize,
    /// `feed_forward_length`: SwiGLU's width.
    pub ffn: usize,
    /// `attention.head_count`: query heads.
    pub heads: usize,
    /// `attention.head_count_kv`: key/value heads, each shared by `heads / kv_heads` query heads.
    pub kv_heads: usize,
    /// `hidden / heads`.
    pub head_dim: usize,
    /// `rope.freq_base`.
    pub rope_base: f64,
    /// `attention.layer_norm_rms_epsilon`, as the file stores it (float32).
    pub eps: f32,
    /// The vocabulary's size.
    pub vocabulary: usize,
}

/// Widest hidden state read (SmolLM2-135M's 576 and a little room).
pub const MAX_HIDDEN: usize = 2048;
/// Most layers read.
pub const MAX_LAYERS: usize = 64;

/// One layer's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// RMSNorm before attention.
    pub attn_norm: Vec<f64>,
    /// hidden → heads × head_dim (rows: outputs).
    pub q: Stored,
    /// hidden → kv_heads × head_dim.
    pub k: Stored,
    /// hidden → kv_heads × head_dim.
    pub v: Stored,
    /// heads × head_dim → hidden (`o_proj`).
    pub o: Stored,
    /// RMSNorm before the feed-forward network.
    pub ffn_norm: Vec<f64>,
    /// SwiGLU's gate.
    pub gate: Stored,
    /// SwiGLU's up projection.
    pub up: Stored,
    /// SwiGLU's down projection.
    pub down: Stored,
}

/// A decoder: the token embedding (also the LM head: tied), the layers, the final norm and the
/// tokenizer.
#[derive(Clone, Debug)]
pub struct Decoder {
    /// Its shape.
    pub config: Config,
    /// vocabulary × hidden.
    pub embedding: Stored,
    /// The layers, bottom first.
    pub layers: Vec<Layer>,
    /// The final RMSNorm.
    pub norm: Vec<f64>,
    /// The tokenizer.
    pub tokenizer: Bpe,
}

fn size(g: &Gguf, key: &str) -> Result<usize, Msg> {
    g.get(key)
        .and_then(Value::as_usize)
        .filter(|&n| n > 0)
        .ok_or_else(|| models::lacks_size(key))
}

fn texts(g: &Gguf, key: &str) -> Result<Vec<String>, Msg> {
    match g.get(key) {
        Some(Value::List(items)) => items
            .iter()
            .map(|v| match v {
                Value::Text(t) => Ok(t.clone()),
                _ => Err(models::not_texts(key)),
            })
            .collect(),
        _ => Err(models::lacks(key)),
    }
}

impl Config {
    /// The shape of a `llama` GGUF, within what is read here.
    pub fn read(g: &Gguf) -> Result<Config, Msg> {
        match g.get("general.architecture") {
            Some(Value::Text(a)) if a == "llama" => {}
            Some(Value::Text(a)) => return Err(models::architecture(a)),
            _ => return Err(models::no_architecture.into()),
        }
        let hidden = size(g, "llama.embedding_length")?;
        let heads = size(g, "llama.attention.head_count")?;
        let kv_heads = match g.get("llama.attention.head_count_kv") {
            Some(v) => v
                .as_usize()
                .filter(|&n| n > 0)
                .ok_or(models::kv_heads_not_number)?,
            None => heads,
        };
        let layers = size(g, "llama.block_count")?;
        if hidden > MAX_HIDDEN || layers > MAX_LAYERS {
            return Err(models::larger_than_page(
                layers, hidden, MAX_LAYERS, MAX_HIDDEN,
            ));
        }
        if !hidden.is_multiple_of(heads) || !heads.is_multiple_of(kv_heads) {
            return Err(models::heads_do_not_divide(heads, hidden, kv_heads));
        }
        let head_dim = hidden / heads;
        if let Some(rope) = g.get("llama.rope.dimension_count") {
            if rope.as_usize() != Some(head_dim) {
                return Err(models::rope_part(format!("{rope:?}"), head_dim));
            }
        }
        if !head_dim.is_multiple_of(2) {
            return Err(models::rope_pairs(head_dim));
        }
        let rope_base = match g.get("llama.rope.freq_base") {
            Some(Value::Float(b)) if *b > 1.0 => *b,
            None => 10_000.0,
            _ => return Err(models::rope_base.into()),
        };
        let eps = match g.get("llama.attention.layer_norm_rms_epsilon") {
            Some(Value::Float(e)) if *e > 0.0 => *e as f32,
            _ => return Err(models::lacks("llama.attention.layer_norm_rms_epsilon")),
        };
        match g.get("tokenizer.ggml.model") {
            Some(Value::Text(m)) if m == "gpt2" => {}
            Some(Value::Text(m)) => return Err(models::tokenizer_kind(m)),
            _ => return Err(models::lacks("tokenizer.ggml.model")),
        }
        Ok(Config {
            layers,
            hidden,
            ffn: size(g, "llama.feed_forward_length")?,
            heads,
            kv_heads,
            head_dim,
            rope_base,
            eps,
            vocabulary: 0,
        })
    }
}

impl Decoder {
    /// The decoder in a GGUF file's bytes, or what is missing or not read here.
    pub fn read(bytes: &[u8]) -> Result<Decoder, Msg> {
        Decoder::read_owned(bytes.to_vec())
    }

    /// [`Decoder::read`], keeping `bytes` as the one copy its matrices read their blocks from.
    pub fn read_owned(bytes: Vec<u8>) -> Result<Decoder, Msg> {
        let file = Arc::new(bytes);
        let bytes = file.as_slice();
        let g = Gguf::read(bytes)?;
        let mut config = Config::read(&g)?;
        let tokens = texts(&g, "tokenizer.ggml.tokens")?;
        let merges = texts(&g, "tokenizer.ggml.merges")?;
        let types: Vec<i64> = match g.get("tokenizer.ggml.token_type") {
            Some(Value::List(items)) => items
                .iter()
                .map(|v| match v {
                    Value::Int(n) => *n,
                    _ => 1,
                })
                .collect(),
            _ => Vec::new(),
        };
        let tokenizer = Bpe::new(tokens, &types, &merges)?;
        config.vocabulary = tokenizer.len();
        let (h, f) = (config.hidden, config.ffn);
        let kv = config.kv_heads * config.head_dim;
        let matrix = |name: &str, rows: usize, cols: usize| -> Result<Stored, Msg> {
            let t = g.tensor(name)?;
            if t.dims != [cols, rows] {
                return Err(models::matrix_shape(
                    name,
                    format!("{:?}", t.dims),
                    format!("[{cols}, {rows}]"),
                ));
            }
            Stored::new(t.kind, (rows, cols), file.clone(), t.start..t.start + t.len)
                .map_err(|e| models::at(name, e))
        };
        let vector = |name: &str| -> Result<Vec<f64>, Msg> {
            let t = g.tensor(name)?;
            if t.dims != [h] {
                return Err(models::vector_shape(
                    name,
                    format!("{:?}", t.dims),
                    format!("[{h}]"),
                ));
            }
            Ok(dequantize(t.kind, &bytes[t.start..t.start + t.len]))
        };
        // llama.cpp's row of a query (or key) head's pair (i, j) is 2i + j; Hugging Face's is
        // j · half + i.
        let d = config.head_dim;
        let hugging_face = move |r: usize| {
            let (head, within) = (r / d, r % d);
            head * d + 2 * (within % (d / 2)) + within / (d / 2)
        };
        let layers = (0..config.layers)
            .map(|l| {
                let name = |part: &str| format!("blk.{l}.{part}.weight");
                Ok(Layer {
                    attn_norm: vector(&name("attn_norm"))?,
                    q: matrix(&name("attn_q"), h, h)?.rows_from(hugging_face),
                    k: matrix(&name("attn_k"), kv, h)?.rows_from(hugging_face),
                    v: matrix(&name("attn_v"), kv, h)?,
                    o: matrix(&name("attn_output"), h, h)?,
                    ffn_norm: vector(&name("ffn_norm"))?,
                    gate: matrix(&name("ffn_gate"), f, h)?,
                    up: matrix(&name("ffn_up"), f, h)?,
                    down: matrix(&name("ffn_down"), h, f)?,
                })
            })
            .collect::<Result<Vec<_>, Msg>>()?;
        if g.tensor("output.weight").is_ok() {
            return Err(models::own_output.into());
        }
        Ok(Decoder {
            embedding: matrix("token_embd.weight", config.vocabulary, h)?,
            norm: vector("output_norm.weight")?,
            layers,
            config,
            tokenizer,
        })
    }
}
