//! The cell parser: any text is a number within the limits, the start of one, or a message.
#![no_main]

use attention_explorer::core::document::numbers::{read_cell, CellText};
use attention_explorer::core::model::limits::MAX_ABS_VALUE;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let CellText::Number(x) = read_cell(text) {
        assert!(x.is_finite() && x.abs() <= MAX_ABS_VALUE, "{text:?} read as {x}");
    }
});
