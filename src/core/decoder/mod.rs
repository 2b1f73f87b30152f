//! A trained decoder of the Llama family (SmolLM2-135M is the one the page ships) read from a
//! GGUF file, run as transformers' `LlamaForCausalLM` runs it: its byte-level BPE tokenizer, the
//! forward pass with grouped-query causal attention and RoPE, a head knocked out as its output
//! set to 0 before `o_proj`, generation with a KV cache, and sampling as transformers' warpers.

pub mod bpe;
pub mod gguf;
pub mod layer;
pub mod lens;
pub mod model;
pub mod rerun;
pub mod run;
pub mod sample;
pub mod steps;
pub mod weights;

pub use bpe::Bpe;
pub use layer::{LANGUAGE_MODEL, SMOLLM2};
pub use lens::{logit_lens, Gallery, HeadScores, Lens};
pub use model::{Config, Decoder, Layer};
pub use run::{greedy, top, Cache, LayerParts, LayerRun, Run};
pub use sample::{Choosing, Draw, Sampling};
