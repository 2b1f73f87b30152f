//! The link reader (`location.search` and `location.hash`, `#m=…` models): any text gives a page
//! to open, with messages for what it refused; a model it read writes back to a link reading the
//! same.
#![no_main]

use attention_explorer::core::formats::link::{decode_model, encode_model, read_link};
use attention_explorer::core::formats::state::write_state;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    // The query, then the fragment, as the browser splits them.
    let (search, hash) = text.split_once('#').unwrap_or((text, ""));
    let link = read_link(search, hash);
    if link.carries_model {
        let (again, _) = decode_model(&encode_model(&link.model, None)).expect("a written link reads back");
        assert_eq!(write_state(&again), write_state(&link.model));
    }
});
