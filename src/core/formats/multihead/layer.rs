//! A state dict made this app's attention layer: the packed or separate projections cut into
//! heads, their biases, and the output projection.

use nalgebra::DMatrix;

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;
use crate::core::model::limits::{MAX_DIM, MAX_HEADS};
use crate::core::model::{Biases, Head, OutputProjection};

use super::dict::StateDict;
use super::names::{get, names, refuse_unknown};
use super::shapes::{matrix_of, vector_of};
/// The attention layer of a state dict: its heads (with biases when it has any) and its output
/// projection, for inputs of width E, as `nn.MultiheadAttention(E, heads)` computes.
pub fn layer_of(dict: &StateDict, heads: usize) -> Result<(Vec<Head>, OutputProjection), Msg> {
    let n = names(dict)?;
    let p = n.prefix.as_str();
    // E from the query weight: packed 3E × E, or E × E.
    let (weights, e) = if n.packed {
        let (t, name) = get(dict, p, "in_proj_weight").expect("found by names");
        let e = t.shape.get(1).copied().unwrap_or(0);
        let all = matrix_of(t, &name, 3 * e, e)?;
        let blocks = [0, 1, 2].map(|i| all.rows(i * e, e).into_owned());
        (blocks, e)
    } else {
        let (q, q_name) = get(dict, p, n.separate[0]).expect("found by names");
        let e = q.shape.get(1).copied().unwrap_or(0);
        let mut blocks = Vec::with_capacity(3);
        for name in n.separate {
            let (t, full) = get(dict, p, name)
                .ok_or_else(|| formats::projections_together(&q_name, format!("{p}{name}")))?;
            blocks.push(matrix_of(t, &full, e, e)?);
        }
        (
            <[DMatrix<f64>; 3]>::try_from(blocks).expect("three blocks"),
            e,
        )
    };
    if !(1..=MAX_DIM).contains(&e) {
        return Err(formats::embedding_width(e, MAX_DIM));
    }
    if !(1..=MAX_HEADS).contains(&heads) || e % heads != 0 {
        return Err(formats::heads_divide(heads, e, MAX_HEADS));
    }
    refuse_unknown(dict, &n)?;
    let packed_bias = || {
        get(dict, p, "in_proj_bias")
            .map(|(t, name)| {
                let b = vector_of(t, &name, 3 * e)?;
                Ok::<_, Msg>([0, 1, 2].map(|i| b[i * e..(i + 1) * e].to_vec()))
            })
            .transpose()
    };
    let in_biases: Option<[Vec<f64>; 3]> = if n.packed || n.separate[0].ends_with("_weight") {
        // PyTorch keeps one in_proj_bias also when its weights are separate (kdim ≠ E).
        packed_bias()?
    } else {
        let found: Vec<Option<Vec<f64>>> = n
            .separate
            .iter()
            .map(|w| {
                let name = w.replace("weight", "bias");
                get(dict, p, &name)
                    .map(|(t, full)| vector_of(t, &full, e))
                    .transpose()
            })
            .collect::<Result<_, _>>()?;
        // A projection without a bias (Whisper's k_proj) adds nothing: zeros.
        found
            .iter()
            .any(Option::is_some)
            .then(|| [0, 1, 2].map(|i| found[i].clone().unwrap_or_else(|| vec![0.0; e])))
    };
    let (t, full) = get(dict, p, "out_proj.weight")
        .ok_or_else(|| formats::out_proj_missing(format!("{p}out_proj.weight")))?;
    let w_out = matrix_of(t, &full, e, e)?;
    let out_bias = get(dict, p, "out_proj.bias")
        .map(|(t, full)| vector_of(t, &full, e))
        .transpose()?;
    // nn.MultiheadAttention(bias=True) has both biases: a module with one of them gets the
    // other as zeros (what adds nothing), so writing it back and reading it again is the same.
    let (biases, b_output) = match (in_biases, out_bias) {
        (None, None) => (None, None),
        (i, o) => (
            Some(i.unwrap_or_else(|| [0, 1, 2].map(|_| vec![0.0; e]))),
            Some(DMatrix::from_row_slice(
                1,
                e,
                &o.unwrap_or_else(|| vec![0.0; e]),
            )),
        ),
    };
    let d = e / heads;
    let heads = (0..heads)
        .map(|h| {
            let w = |i: usize| weights[i].rows(h * d, d).transpose();
            let b = |i: usize| {
                biases
                    .as_ref()
                    .map(|b| DMatrix::from_row_slice(1, d, &b[i][h * d..(h + 1) * d]))
            };
            Head {
                w_query: w(0),
                w_key: w(1),
                w_value: w(2),
                biases: biases.as_ref().map(|_| Biases {
                    b_query: b(0).expect("biases"),
                    b_key: b(1).expect("biases"),
                    b_value: b(2).expect("biases"),
                }),
            }
        })
        .collect();
    Ok((
        heads,
        OutputProjection {
            w_output: w_out.transpose(),
            b_output,
        },
    ))
}
