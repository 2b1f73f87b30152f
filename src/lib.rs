//! Attention Explorer: scaled dot-product self-attention with every number editable.
//!
//! [`core`] is the pure model and maths (tested natively); `ui` is the Leptos front end, built
//! only for the browser.

#[deny(missing_docs)]
pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod ui;
