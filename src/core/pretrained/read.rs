//! An encoder from a Hugging Face folder's three files: `config.json`, `vocab.txt` and
//! `model.safetensors` (float32, float16, bfloat16 or float64; names with or without `bert.`,
//! LayerNorm as `weight`/`bias` or the older `gamma`/`beta`).

use std::sync::Arc;

use nalgebra::DMatrix;
use safetensors::{Dtype, SafeTensors};

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::{Attention, Biases, Head, OutputProjection};

use super::config::Config;
use super::encoder::{Dense, Encoder, Layer, LayerNorm};
use super::wordpiece::Vocabulary;

/// The packed file's metadata `format` ([`super::pack`]).
pub const FORMAT: &str = "attention-explorer pretrained 1";

/// The folder's files, each named in a message about it.
pub const FILES: [&str; 3] = ["config.json", "vocab.txt", "model.safetensors"];

/// The tensors of a safetensors file, by the names BERT gives them.
struct Tensors<'a> {
    file: SafeTensors<'a>,
    prefix: &'static str,
}

impl Tensors<'_> {
    /// A tensor's numbers (row-major) as f32, which every stored dtype converts to exactly,
    /// checked against the shape the config gives it.
    fn numbers(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, Msg> {
        let full = format!("{}{name}", self.prefix);
        let alternative = name
            .strip_suffix(".weight")
            .filter(|n| n.ends_with("LayerNorm"))
            .map(|n| format!("{}{n}.gamma", self.prefix))
            .or_else(|| {
                name.strip_suffix(".bias")
                    .filter(|n| n.ends_with("LayerNorm"))
                    .map(|n| format!("{}{n}.beta", self.prefix))
            });
        let view = self
            .file
            .tensor(&full)
            .or_else(|e| alternative.map_or(Err(e), |a| self.file.tensor(&a)))
            .map_err(|_| models::no_safetensor(&full))?;
        if view.shape() != shape {
            return Err(models::safetensor_shape(
                &full,
                format!("{:?}", view.shape()),
                format!("{shape:?}"),
            ));
        }
        let bytes = view.data();
        let numbers: Vec<f32> = match view.dtype() {
            Dtype::F32 => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Dtype::F16 => bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Dtype::BF16 => bytes
                .chunks_exact(2)
                .map(|b| f32::from_bits(u32::from(u16::from_le_bytes([b[0], b[1]])) << 16))
                .collect(),
            Dtype::F64 => bytes
                .chunks_exact(8)
                .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as f32)
                .collect(),
            other => return Err(models::safetensor_dtype(&full, format!("{other:?}"))),
        };
        if let Some(bad) = numbers.iter().position(|x| !x.is_finite()) {
            return Err(models::safetensor_value(&full, numbers[bad], bad));
        }
        Ok(numbers)
    }

    /// How many rows a tensor has (1 if it is missing: reading it then says so).
    fn first_dimension(&self, name: &str) -> usize {
        self.file
            .tensor(&format!("{}{name}", self.prefix))
            .ok()
            .and_then(|v| v.shape().first().copied())
            .unwrap_or(1)
            .max(1)
    }

    /// A `[rows, cols]` tensor as a matrix.
    fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<DMatrix<f64>, Msg> {
        let numbers = self.numbers(name, &[rows, cols])?;
        Ok(DMatrix::from_fn(rows, cols, |r, c| {
            f64::from(numbers[r * cols + c])
        }))
    }

    /// A `[n]` tensor as one row.
    fn row(&self, name: &str, n: usize) -> Result<DMatrix<f64>, Msg> {
        let numbers = self.numbers(name, &[n])?;
        Ok(DMatrix::from_fn(1, n, |_, c| f64::from(numbers[c])))
    }

    /// An `nn.Linear(inputs, outputs)` as `x @ w + b`.
    fn dense(&self, name: &str, inputs: usize, outputs: usize) -> Result<Dense, Msg> {
        Ok(Dense {
            w: self
                .matrix(&format!("{name}.weight"), outputs, inputs)?
                .transpose(),
            b: self.row(&format!("{name}.bias"), outputs)?,
        })
    }

    fn layer_norm(&self, name: &str, n: usize, eps: f64) -> Result<LayerNorm, Msg> {
        Ok(LayerNorm {
            weight: self.row(&format!("{name}.weight"), n)?,
            bias: self.row(&format!("{name}.bias"), n)?,
            eps,
        })
    }
}

/// An encoder from the folder's `config.json`, `vocab.txt` and `model.safetensors`, or what is
/// wrong with them.
pub fn read_parts(config: &str, vocab: &str, weights: &[u8]) -> Result<Encoder, Msg> {
    let config = Config::read(config)?;
    let vocabulary = Vocabulary::read(vocab)?;
    if vocabulary.len() > config.vocabulary {
        return Err(models::vocab_over_config(
            vocabulary.len(),
            config.vocabulary,
        ));
    }
    let file = SafeTensors::deserialize(weights).map_err(models::not_safetensors)?;
    let prefix = if file
        .names()
        .iter()
        .any(|n| n.starts_with("bert.embeddings."))
    {
        "bert."
    } else {
        ""
    };
    let t = Tensors { file, prefix };
    let (h, eps) = (config.hidden, config.eps);
    let words = t.numbers("embeddings.word_embeddings.weight", &[config.vocabulary, h])?;
    let positions = t.matrix("embeddings.position_embeddings.weight", config.positions, h)?;
    // Only type 0 is used: one sentence.
    let types = t.first_dimension("embeddings.token_type_embeddings.weight");
    let token_type = t
        .matrix("embeddings.token_type_embeddings.weight", types, h)?
        .rows(0, 1)
        .into_owned();
    let embedding_norm = t.layer_norm("embeddings.LayerNorm", h, eps)?;
    let size = config.head_size();
    let mut layers = Vec::with_capacity(config.layers);
    for l in 0..config.layers {
        let name = |part: &str| format!("encoder.layer.{l}.{part}");
        let [query, key, value] =
            ["query", "key", "value"].map(|p| t.dense(&name(&format!("attention.self.{p}")), h, h));
        let (query, key, value) = (query?, key?, value?);
        let heads = (0..config.heads)
            .map(|k| {
                let cols = |d: &Dense| d.w.columns(k * size, size).into_owned();
                let bias = |d: &Dense| d.b.columns(k * size, size).into_owned();
                Head {
                    w_query: cols(&query),
                    w_key: cols(&key),
                    w_value: cols(&value),
                    biases: Some(Biases {
                        b_query: bias(&query),
                        b_key: bias(&key),
                        b_value: bias(&value),
                    }),
                }
            })
            .collect::<Vec<_>>();
        let output = t.dense(&name("attention.output.dense"), h, h)?;
        layers.push(Layer {
            attention: Arc::new(Attention {
                heads: Arc::new(heads),
                output: Arc::new(OutputProjection {
                    w_output: output.w,
                    b_output: Some(output.b),
                }),
            }),
            attention_norm: t.layer_norm(&name("attention.output.LayerNorm"), h, eps)?,
            ffn_in: t.dense(&name("intermediate.dense"), h, config.intermediate)?,
            ffn_out: t.dense(&name("output.dense"), config.intermediate, h)?,
            output_norm: t.layer_norm(&name("output.LayerNorm"), h, eps)?,
        });
    }
    Ok(Encoder {
        config,
        vocabulary,
        words,
        positions,
        token_type,
        embedding_norm,
        layers,
    })
}

/// An encoder from a Hugging Face folder on disk, or from the file the page ships
/// ([`super::pack`]): the command line's, its error in English.
pub fn read_folder(path: &std::path::Path) -> Result<Encoder, String> {
    let read = |path: &std::path::Path| {
        std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
    };
    if path.is_file() {
        return read_packed(&read(path)?).map_err(|e| e.english());
    }
    let text = |name: &str| {
        String::from_utf8(read(&path.join(name))?).map_err(|_| format!("{name} is not UTF-8 text"))
    };
    read_parts(
        &text(FILES[0])?,
        &text(FILES[1])?,
        &read(&path.join(FILES[2]))?,
    )
    .map_err(|e| e.english())
}

/// The metadata of a packed file: (`config.json`, `vocab.txt`, `source`), or None for another
/// safetensors file.
pub fn packed_parts(bytes: &[u8]) -> Option<(String, String, String)> {
    let (_, metadata) = SafeTensors::read_metadata(bytes).ok()?;
    let meta = metadata.metadata().as_ref()?;
    if meta.get("format").map(String::as_str) != Some(FORMAT) {
        return None;
    }
    let part = |k: &str| meta.get(k).cloned();
    Some((
        part("config")?,
        part("vocab")?,
        part("source").unwrap_or_default(),
    ))
}

/// The encoder in a packed file, or what is wrong with it.
pub fn read_packed(bytes: &[u8]) -> Result<Encoder, Msg> {
    let (config, vocab, _) = packed_parts(bytes).ok_or(models::not_packed)?;
    read_parts(&config, &vocab, bytes)
}
