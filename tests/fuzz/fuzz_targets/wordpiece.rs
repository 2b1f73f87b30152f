//! The WordPiece tokenizer: the bytes are a `vocab.txt`, a NUL byte and a sentence; any
//! vocabulary is read or refused with a message, and a vocabulary read cuts any sentence into
//! `[CLS]` … `[SEP]`, at most `MAX_PIECES` tokens whose ids are the vocabulary's, or says it is
//! too long.
#![no_main]

use attention_explorer::core::pretrained::{Vocabulary, MAX_PIECES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (vocab, sentence) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(vocabulary) = Vocabulary::read(vocab) else {
        return;
    };
    if let Ok(pieces) = vocabulary.encode(sentence) {
        assert!(pieces.len() <= MAX_PIECES);
        assert_eq!(pieces.first().map(String::as_str), Some("[CLS]"));
        assert_eq!(pieces.last().map(String::as_str), Some("[SEP]"));
        let ids = vocabulary.ids(&pieces);
        assert_eq!(ids.len(), pieces.len());
        assert!(ids.iter().all(|&id| vocabulary.piece(id).is_some()));
    }
});
