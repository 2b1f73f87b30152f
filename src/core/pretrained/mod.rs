//! A trained BERT-family encoder (as transformers' `BertModel` runs it, one sentence, no
//! padding): WordPiece tokens, the embedding sum and its LayerNorm, then per layer the page's own
//! attention heads (`forward::trace::attend`) with their output projection, residual and
//! LayerNorm, the feed-forward network (GELU) with its residual and LayerNorm; heads knocked out
//! as transformers' `head_mask` does. Read from a Hugging Face folder (`config.json`, `vocab.txt`,
//! `model.safetensors`) or from the one float16 file the page ships ([`pack`]).

pub mod config;
pub mod encoder;
pub mod layer;
pub mod pack;
pub mod read;
pub mod rerun;
pub mod wordpiece;

pub use crate::core::model::Shipped;
pub use config::Config;
pub use encoder::{read_heads, Encoder, EncoderTrace, LayerPart, LayerTrace};
pub use pack::{pack, pack_folder};
pub use read::{read_folder, read_packed, read_parts};
pub use wordpiece::{Vocabulary, MAX_PIECES};

/// all-MiniLM-L6-v2, trained by sentence-transformers.
pub const SHIPPED: Shipped = Shipped {
    name: "all-minilm-l6-v2",
    file: "models/all-minilm-l6-v2.safetensors",
    bytes: 45_700_520,
    title: "all-MiniLM-L6-v2",
    layers: 6,
    heads: 12,
};
