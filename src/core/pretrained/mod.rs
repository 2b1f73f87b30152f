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

pub use config::Config;
pub use encoder::{read_heads, Encoder, EncoderTrace, LayerPart, LayerTrace};
pub use layer::{changed_cells, LayerOpening};
pub use pack::pack;
pub use read::{read_folder, read_packed, read_parts};
pub use wordpiece::{Vocabulary, MAX_PIECES};
