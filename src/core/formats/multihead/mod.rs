//! PyTorch's `nn.MultiheadAttention` in and out: a state dict (as JSON of nested lists, or a
//! `.safetensors` file) becomes this app's heads, biases and output projection, and back.
//!
//! PyTorch computes y = x·Wᵀ + b with the three projections stacked in `in_proj_weight`
//! (3E × E: q, k, v); head h takes rows h·E/H … (h+1)·E/H of each block, so its W_query here
//! (row vectors, d_in × d_k) is that block transposed. Scores are scaled by √(E/H); a causal
//! module is one called with a boolean `attn_mask` above the diagonal.

pub mod dict;
mod export;
mod import;
pub mod layer;
mod names;
mod shapes;

pub use dict::{
    read_safetensors, read_state_dict_json, state_dict_of_value, StateDict, PYTHON_SNIPPET,
};
pub use export::{to_state_dict, torch_file};
pub use import::{import_into, read_torch_file};
