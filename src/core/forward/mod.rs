//! The forward pass: the row softmax and the masks, and the trace of every intermediate from
//! the embedded sentence to the heads' output.

pub mod softmax;
pub mod trace;
