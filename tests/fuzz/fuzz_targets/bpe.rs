//! The byte-level BPE tokenizer on any prompt: never a panic, and the ids give the text back.
#![no_main]

use std::sync::OnceLock;

use attention_explorer::core::decoder::{Bpe, Decoder};
use libfuzzer_sys::fuzz_target;

/// The tests' GGUF writer: the tiny Llama's tokenizer (the 256 bytes, two merges, a special
/// token).
#[path = "../../common/gguf.rs"]
#[allow(dead_code)]
mod gguf;

fn tokenizer() -> &'static Bpe {
    static BPE: OnceLock<Bpe> = OnceLock::new();
    BPE.get_or_init(|| {
        let (metadata, tensors) = gguf::tiny_llama();
        Decoder::read(&gguf::file(&metadata, &tensors)).unwrap().tokenizer
    })
}

fuzz_target!(|text: &str| {
    let bpe = tokenizer();
    assert_eq!(bpe.decode(&bpe.encode(text)), text);
});
