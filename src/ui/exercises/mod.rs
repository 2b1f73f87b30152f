//! The exercises on the page: their cards (`cards`, a chunk of its own) and the engine that
//! follows goals and reports results (`engine`). Their part of the store is
//! `ui::state::ExerciseState`.

pub mod cards;
pub mod engine;
