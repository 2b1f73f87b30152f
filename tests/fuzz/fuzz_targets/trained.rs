//! A trained layer's record (a saved state's or a link's `pretrained`: the model, its sentence,
//! layer, knocked heads, changed cells and written tokens): any text is refused with a message or
//! opens a layer of a tiny encoder and of a tiny Llama, or says what does not fit, without
//! panicking.
#![no_main]

use std::sync::OnceLock;

use attention_explorer::core::decoder::Decoder;
use attention_explorer::core::formats::trained::read_trained;
use attention_explorer::core::pretrained::{read_parts, Encoder};
use libfuzzer_sys::fuzz_target;

#[path = "../src/bert.rs"]
mod bert;

/// The tests' GGUF writer: the tiny Llama.
#[path = "../../common/gguf.rs"]
#[allow(dead_code)]
mod gguf;

fn models() -> &'static (Encoder, Decoder) {
    static MODELS: OnceLock<(Encoder, Decoder)> = OnceLock::new();
    MODELS.get_or_init(|| {
        let encoder = read_parts(&bert::config(), bert::VOCAB, &bert::weights("")).unwrap();
        let (metadata, tensors) = gguf::tiny_llama();
        (
            encoder,
            Decoder::read(&gguf::file(&metadata, &tensors)).unwrap(),
        )
    })
}

fuzz_target!(|text: &str| {
    let Ok((name, opening)) = read_trained(text) else {
        return;
    };
    let (encoder, decoder) = models();
    let _ = encoder.open_layer(&name, opening.clone());
    let _ = decoder.open_layer(&name, opening);
});
