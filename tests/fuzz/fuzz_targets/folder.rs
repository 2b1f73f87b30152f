//! The trained model's folder (`config.json`, `vocab.txt` and `model.safetensors`, as
//! `attention-trace --pretrained` and `--pack` read them): the bytes are the three files
//! separated by the first two NUL bytes; any files give an encoder or a message, and an encoder
//! read runs on a sentence without panicking.
#![no_main]

use attention_explorer::core::pretrained::read_parts;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut files = bytes.splitn(3, |&b| b == 0);
    let (Some(config), Some(vocab), Some(weights)) = (files.next(), files.next(), files.next())
    else {
        return;
    };
    // The folder reader refuses text files that are not UTF-8 before reading them.
    let (Ok(config), Ok(vocab)) = (std::str::from_utf8(config), std::str::from_utf8(vocab)) else {
        return;
    };
    if let Ok(encoder) = read_parts(config, vocab, weights) {
        let _ = encoder.run("The cat sat on the mat.", &[(0, 0)]);
    }
});
