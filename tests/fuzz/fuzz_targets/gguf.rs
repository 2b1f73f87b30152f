//! The GGUF reader (a language model's file the learner opens or a download cut short): any bytes
//! give a model or a message; a model read runs on a prompt without panicking.
#![no_main]

use attention_explorer::core::decoder::Decoder;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(decoder) = Decoder::read(bytes) {
        let ids = decoder.tokenizer.encode("the cat");
        let _ = decoder.run(&ids, &[(0, 0)]);
    }
});
