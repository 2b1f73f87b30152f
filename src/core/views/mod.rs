//! What the page shows, as pure values: a table's cells ([`cells`]), the steps and matrices in order ([`pipeline`]), heat
//! maps' colours and layout ([`heatmap`]), attention lines ([`lines`]), a cursor's moves
//! ([`cursor`]), a matrix as a figure to save ([`figure`]).

pub mod cells;
pub mod cursor;
pub mod figure;
pub mod heatmap;
pub mod lines;
pub mod pipeline;
