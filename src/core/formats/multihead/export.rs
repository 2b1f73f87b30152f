//! A model written back as `nn.MultiheadAttention`'s state dict, and as `--to-torch`'s file,
//! refused when PyTorch would not compute the same numbers.

use nalgebra::DMatrix;
use serde_json::{json, Value};

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;
use crate::core::model::positions::Positions;
use crate::core::model::{Model, Projection, Scale};
/// The model as `nn.MultiheadAttention(E, H, bias=…)`'s state dict and H, as JSON of lists:
/// what is not there is written as what adds nothing (zero biases, an identity output
/// projection), so PyTorch computes the same numbers. Refused, with the reason, when the heads
/// do not have PyTorch's shapes (every d_k = d_v = E/H) or the scaling is not ÷√dₖ.
pub fn to_state_dict(model: &Model) -> Result<(Value, usize), Msg> {
    if model.source().is_some() {
        return Err(formats::self_attention_only.into());
    }
    let e = model.embedding().ncols();
    let h = model.heads().len();
    let d = e / h;
    if !e.is_multiple_of(h) || model.heads().iter().any(|x| x.d_k() != d || x.d_v() != d) {
        // Symbols, not words: the width each head would need.
        let need = if e.is_multiple_of(h) {
            d.to_string()
        } else {
            format!("{e}/{h}")
        };
        return Err(formats::head_widths(e, h, need));
    }
    if model.scale != Scale::SqrtDk {
        return Err(formats::scales_by_sqrt_dk.into());
    }
    if *model.positions() != Positions::None {
        return Err(formats::no_positions.into());
    }
    let bias = model.has_biases() || model.output().is_some_and(|o| o.b_output.is_some());
    let rows = |m: &DMatrix<f64>| -> Value {
        m.row_iter()
            .map(|r| r.iter().copied().collect::<Vec<f64>>())
            .collect::<Vec<_>>()
            .into()
    };
    let mut in_proj = DMatrix::zeros(3 * e, e);
    let mut in_bias = vec![0.0; 3 * e];
    for (i, p) in Projection::ALL.into_iter().enumerate() {
        for (k, head) in model.heads().iter().enumerate() {
            let at = i * e + k * d;
            in_proj
                .view_mut((at, 0), (d, e))
                .copy_from(&head[p].transpose());
            if let Some(b) = &head.biases {
                in_bias[at..at + d].copy_from_slice(b[p].as_slice());
            }
        }
    }
    let (w_out, b_out) = match model.output() {
        Some(o) if o.w_output.ncols() == e => (
            o.w_output.transpose(),
            o.b_output
                .as_ref()
                .map_or_else(|| vec![0.0; e], |b| b.as_slice().to_vec()),
        ),
        Some(o) => return Err(formats::output_width(e, o.w_output.ncols())),
        None => (DMatrix::identity(e, e), vec![0.0; e]),
    };
    let mut dict = serde_json::Map::new();
    dict.insert("in_proj_weight".into(), rows(&in_proj));
    if bias {
        dict.insert("in_proj_bias".into(), in_bias.into());
    }
    dict.insert("out_proj.weight".into(), rows(&w_out));
    if bias {
        dict.insert("out_proj.bias".into(), b_out.into());
    }
    Ok((Value::Object(dict), h))
}

/// `attention-trace --to-torch`'s file, which `--from-torch` reads back.
pub fn torch_file(model: &Model) -> Result<Value, Msg> {
    let (dict, heads) = to_state_dict(model)?;
    let embedded = model.embedded();
    let rows: Vec<Vec<f64>> = embedded
        .row_iter()
        .map(|r| r.iter().copied().collect())
        .collect();
    Ok(json!({
        "sentence": model.sentence(),
        "embedding": rows,
        "causal": model.causal,
        "num_heads": heads,
        "state_dict": dict,
    }))
}
