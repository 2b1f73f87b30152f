//! The saved state: what share links, import/export and `attention-trace --state` use.
//!
//! ```json
//! {"version": 1, "sentence": "...", "embedding": [[...], ...],
//!  "heads": [{"w_query": [[...]], "w_key": [[...]], "w_value": [[...]]}],
//!  "causal": false, "scale": "sqrt_dk"}
//! ```
//! Version 2 adds, each optional: `b_query`, `b_key`, `b_value` in a head (all three or none),
//! `w_output` ((Σ d_v) × d_out) and `b_output` (d_out) at the top, and `positions`
//! (`{"kind": "none" | "sinusoidal" | "rope_half" | "rope_interleaved", "base": 10000}` or
//! `{"kind": "learned", "learned": [[…]]}`, a row per token). A model without any of them is written as version 1, so that
//! its links and files stay exactly what they were; both versions are read. Version 2 also has
//! the variants: `"kv_heads": G` with a top-level `"kv"` list of G entries (`w_key`, `w_value`,
//! optional `b_key`, `b_value`), the heads then holding only `w_query` (and `b_query`); and
//! `"source": {"sentence", "embedding"}` for cross-attention.
//! Reading validates everything and names the offending field; it never panics.

mod additions;
pub mod error;
mod json;
mod matrices;
mod read;
pub mod saved;
mod write;

pub use read::{read_state, read_state_value, MAX_STATE_BYTES};
pub use write::{state_value, write_state};
