//! The pure core: attention maths, PyTorch-compatible initialisation, tokens, presets and the
//! saved-state format. Nothing here knows about the browser; it is tested natively.

pub mod cursor;
pub mod edit;
pub mod exercise;
pub mod gradient;
pub mod heatmap;
pub mod history;
pub mod labs;
pub mod lines;
pub mod link;
pub mod model;
pub mod multihead;
pub mod numbers;
pub mod order;
pub mod pipeline;
pub mod positions;
pub mod presets;
pub mod pytorch;
pub mod report;
pub mod scorm;
pub mod script;
pub mod softmax;
pub mod sqrt_dk;
pub mod state;
pub mod tokens;
pub mod torch_rng;
pub mod trace;
pub mod training;
