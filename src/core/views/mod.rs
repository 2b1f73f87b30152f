//! What the page shows, as pure values: the steps and matrices in order ([`pipeline`]), heat
//! maps' colours and layout ([`heatmap`]), attention lines ([`lines`]), a cursor's moves
//! ([`cursor`]).

pub mod cursor;
pub mod heatmap;
pub mod lines;
pub mod pipeline;
