//! The saved-state reader (share links, files, storage, the scripting API's `load`): any bytes
//! are refused with a message or give a model that writes back to a state reading the same.
#![no_main]

use attention_explorer::core::formats::state::{read_state, write_state};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(model) = read_state(text) {
        let again = read_state(&write_state(&model)).expect("a written state reads back");
        assert_eq!(write_state(&again), write_state(&model));
    }
});
