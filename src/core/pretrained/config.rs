//! A Hugging Face `config.json` of a BERT encoder, and the limits of what the page opens.

use serde_json::Value;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

/// Widest hidden state the page opens (MiniLM's 384).
pub const MAX_HIDDEN: usize = 384;
/// Most layers.
pub const MAX_LAYERS: usize = 12;
/// Most heads per layer.
pub const MAX_HEADS: usize = 16;
/// Widest feed-forward layer: four times the widest hidden state.
pub const MAX_INTERMEDIATE: usize = 4 * MAX_HIDDEN;
/// Largest vocabulary.
pub const MAX_VOCABULARY: usize = 50_000;

/// What the encoder's shape is, read from `config.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `hidden_size`: the width of every token's hidden state.
    pub hidden: usize,
    /// `num_hidden_layers`.
    pub layers: usize,
    /// `num_attention_heads`: each `hidden / heads` wide.
    pub heads: usize,
    /// `intermediate_size`: the feed-forward network's width.
    pub intermediate: usize,
    /// `vocab_size`.
    pub vocabulary: usize,
    /// `max_position_embeddings`: the learned positions' table's length.
    pub positions: usize,
    /// `layer_norm_eps`.
    pub eps: f64,
}

impl Config {
    /// Reads `config.json`: a BERT encoder (`model_type` "bert", GELU, absolute positions) within
    /// the page's limits, or what is not.
    pub fn read(text: &str) -> Result<Config, Msg> {
        let json: Value = serde_json::from_str(text).map_err(models::config_not_json)?;
        let text_of = |key: &str| json.get(key).and_then(Value::as_str);
        let size = |key: &str| {
            json.get(key)
                .and_then(Value::as_u64)
                .filter(|&n| n > 0)
                .map(|n| n as usize)
                .ok_or_else(|| models::config_lacks(key))
        };
        match text_of("model_type") {
            Some("bert") => {}
            Some(other) => return Err(models::config_model_type(other)),
            None => return Err(models::config_no_model_type.into()),
        }
        if let Some(act) = text_of("hidden_act").filter(|&a| a != "gelu") {
            return Err(models::activation(act));
        }
        if let Some(kind) = text_of("position_embedding_type").filter(|&k| k != "absolute") {
            return Err(models::positions_kind(kind));
        }
        let config = Config {
            hidden: size("hidden_size")?,
            layers: size("num_hidden_layers")?,
            heads: size("num_attention_heads")?,
            intermediate: size("intermediate_size")?,
            vocabulary: size("vocab_size")?,
            positions: size("max_position_embeddings")?,
            eps: json
                .get("layer_norm_eps")
                .and_then(Value::as_f64)
                .filter(|e| *e > 0.0 && e.is_finite())
                .unwrap_or(1e-12),
        };
        config.check()?;
        Ok(config)
    }

    /// The width of one head's queries, keys and values.
    pub fn head_size(&self) -> usize {
        self.hidden / self.heads
    }

    /// Whether the page can open a model of this shape.
    fn check(&self) -> Result<(), Msg> {
        let over = |refusal: fn(usize, usize) -> Msg, n: usize, max: usize| {
            (n > max).then(|| refusal(n, max))
        };
        let refused = [
            over(models::hidden_over, self.hidden, MAX_HIDDEN),
            over(models::layers_over, self.layers, MAX_LAYERS),
            over(models::heads_over, self.heads, MAX_HEADS),
            over(models::ffn_over, self.intermediate, MAX_INTERMEDIATE),
            over(models::vocabulary_over, self.vocabulary, MAX_VOCABULARY),
        ]
        .into_iter()
        .flatten()
        .next();
        if let Some(refused) = refused {
            return Err(refused);
        }
        if !self.hidden.is_multiple_of(self.heads) {
            return Err(models::not_multiple(self.hidden, self.heads));
        }
        Ok(())
    }
}
