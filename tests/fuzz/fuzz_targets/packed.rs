//! The trained model's file (the packed safetensors file the page fetches, or a download cut
//! short): any bytes give an encoder or a message; an encoder read runs on a sentence, and opens
//! its last layer in the page, without panicking.
#![no_main]

use attention_explorer::core::model::layer_record::LayerOpening;
use attention_explorer::core::pretrained::{read_packed, Encoder};
use libfuzzer_sys::fuzz_target;

/// What the page does with an encoder it has read.
fn run(encoder: &Encoder) {
    let sentence = "The cat sat on the mat.";
    let _ = encoder.run(sentence, &[(0, 0)]);
    let opening = LayerOpening {
        sentence: sentence.into(),
        layer: encoder.config.layers - 1,
        knocked: vec![(0, 0)],
        changes: Vec::new(),
        written: Vec::new(),
    };
    let _ = encoder.open_layer("fuzzed", opening);
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok(encoder) = read_packed(bytes) {
        run(&encoder);
    }
});
