//! The pure core: attention maths, PyTorch-compatible initialisation, tokens, presets and the
//! saved-state format. Nothing here knows about the browser; it is tested natively.
//!
//! Rooms, from the bottom up (each imports only from the rooms before it, and within itself
//! without a circle; `tests/architecture.rs` enforces it): [`text`] and [`i18n`], [`model`], [`forward`],
//! [`training`], [`document`] and [`pretrained`], [`views`], [`teaching`], [`formats`].

pub mod decoder;
pub mod document;
pub mod formats;
pub mod forward;
pub mod i18n;
pub mod model;
pub mod pretrained;
pub mod teaching;
pub mod text;
pub mod training;
pub mod views;
