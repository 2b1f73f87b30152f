//! Which naming a state dict uses (PyTorch's packed `in_proj_weight` or separate q, k, v
//! projections) and under which prefix, and the refusal of any key the reader would not use.

use crate::core::i18n::keys::formats;
use crate::core::i18n::{Arg, Msg};

use super::dict::{StateDict, Tensor};
/// The names a module's parameters go by, after a common prefix (`self_attn.`).
pub(super) struct Names {
    pub(super) prefix: String,
    /// `in_proj_weight` (packed) or separate q, k, v weights.
    pub(super) packed: bool,
    /// Separate weights' names: `q_proj.weight` (Hugging Face, fairseq) or `q_proj_weight`
    /// (PyTorch when kdim or vdim differ).
    pub(super) separate: [&'static str; 3],
}

pub(super) fn names(dict: &StateDict) -> Result<Names, Msg> {
    for key in dict.keys() {
        if let Some(prefix) = key.strip_suffix("in_proj_weight") {
            return Ok(Names {
                prefix: prefix.to_owned(),
                packed: true,
                separate: ["", "", ""],
            });
        }
        for separate in [
            ["q_proj.weight", "k_proj.weight", "v_proj.weight"],
            ["q_proj_weight", "k_proj_weight", "v_proj_weight"],
        ] {
            if let Some(prefix) = key.strip_suffix(separate[0]) {
                return Ok(Names {
                    prefix: prefix.to_owned(),
                    packed: false,
                    separate,
                });
            }
        }
    }
    let found: Vec<&str> = dict.keys().map(String::as_str).take(6).collect();
    Err(formats::no_attention_weights(if found.is_empty() {
        Arg::from(formats::nothing)
    } else {
        Arg::from(found.join(", "))
    }))
}

/// Every key under the module's prefix must be one this reader uses: a key it does not know
/// (`bias_k`, a misspelt `out_proj.bias`) would change the numbers PyTorch computes, so it is
/// refused, as `load_state_dict(strict=True)` does. Keys outside the prefix are other layers.
pub(super) fn refuse_unknown(dict: &StateDict, n: &Names) -> Result<(), Msg> {
    // Hugging Face's separate projections carry their own biases (q_proj.bias); PyTorch's
    // (q_proj_weight) share in_proj_bias.
    let own_biases = n
        .separate
        .map(|w| w.strip_suffix(".weight").map(|s| format!("{s}.bias")));
    let known = |name: &str| {
        [
            "in_proj_weight",
            "in_proj_bias",
            "out_proj.weight",
            "out_proj.bias",
        ]
        .contains(&name)
            || (!n.packed && n.separate.contains(&name))
            || own_biases.iter().flatten().any(|b| b == name)
    };
    let unknown: Vec<&str> = dict
        .keys()
        .filter(|k| k.strip_prefix(&n.prefix).is_some_and(|rest| !known(rest)))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = unknown.iter().copied().take(4).collect();
    let keys = shown.join(", ");
    let unexpected = if unknown.len() > shown.len() {
        formats::unexpected_keys_more(keys, unknown.len() - shown.len())
    } else {
        formats::unexpected_keys(unknown.len(), keys)
    };
    Err(formats::at(unexpected, formats::module_keys_only))
}

pub(super) fn get<'a>(
    dict: &'a StateDict,
    prefix: &str,
    name: &str,
) -> Option<(&'a Tensor, String)> {
    let full = format!("{prefix}{name}");
    dict.get(&full).map(|t| (t, full))
}
