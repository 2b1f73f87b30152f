//! The paste parser: any text is refused with a message or gives non-empty rows of numbers within
//! the limits.
#![no_main]

use attention_explorer::core::document::numbers::read_block;
use attention_explorer::core::model::limits::MAX_ABS_VALUE;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(rows) = read_block(text) {
        assert!(!rows.is_empty() && rows.iter().all(|r| !r.is_empty()));
        assert!(rows.iter().flatten().all(|x| x.is_finite() && x.abs() <= MAX_ABS_VALUE));
    }
});
