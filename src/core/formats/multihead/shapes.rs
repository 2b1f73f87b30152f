//! A tensor taken at the shape expected, its numbers within the limits; the message names the
//! tensor and the shape it should have.

use nalgebra::DMatrix;

use crate::core::i18n::keys::formats;
use crate::core::i18n::{Arg, Msg};
use crate::core::model::limits::MAX_ABS_VALUE;

use super::dict::Tensor;
/// A 2-D tensor of `rows` × `cols`, as a matrix; the message names it and the shape expected.
pub(super) fn matrix_of(
    t: &Tensor,
    name: &str,
    rows: usize,
    cols: usize,
) -> Result<DMatrix<f64>, Msg> {
    if t.shape != [rows, cols] {
        return Err(formats::matrix_shape(
            name,
            shape_text(&t.shape),
            rows,
            cols,
        ));
    }
    within(name, &t.data)?;
    Ok(DMatrix::from_row_slice(rows, cols, &t.data))
}

/// A 1-D tensor of `n`.
pub(super) fn vector_of(t: &Tensor, name: &str, n: usize) -> Result<Vec<f64>, Msg> {
    if t.shape != [n] {
        return Err(formats::vector_shape(name, shape_text(&t.shape), n));
    }
    within(name, &t.data)?;
    Ok(t.data.clone())
}

fn within(name: &str, data: &[f64]) -> Result<(), Msg> {
    match data.iter().find(|x| x.abs() > MAX_ABS_VALUE) {
        Some(x) => Err(formats::outside(
            name,
            format!("{x:e}"),
            format!("{MAX_ABS_VALUE:e}"),
        )),
        None => Ok(()),
    }
}

/// A tensor's shape: in words for none or one dimension, else its sizes (`2 × 3`).
fn shape_text(shape: &[usize]) -> Arg {
    match shape {
        [] => formats::a_single_number.into(),
        [n] => formats::numbers(n).into(),
        dims => dims
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" × ")
            .into(),
    }
}
