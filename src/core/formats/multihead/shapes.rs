//! A tensor taken at the shape expected, its numbers within the limits; the message names the
//! tensor and the shape it should have.

use nalgebra::DMatrix;

use crate::core::model::limits::MAX_ABS_VALUE;

use super::dict::Tensor;
/// A 2-D tensor of `rows` × `cols`, as a matrix; the message names it and the shape expected.
pub(super) fn matrix_of(
    t: &Tensor,
    name: &str,
    rows: usize,
    cols: usize,
) -> Result<DMatrix<f64>, String> {
    if t.shape != [rows, cols] {
        return Err(format!(
            "{name} is {}, expected {rows} × {cols}",
            shape_text(&t.shape)
        ));
    }
    within(name, &t.data)?;
    Ok(DMatrix::from_row_slice(rows, cols, &t.data))
}

/// A 1-D tensor of `n`.
pub(super) fn vector_of(t: &Tensor, name: &str, n: usize) -> Result<Vec<f64>, String> {
    if t.shape != [n] {
        return Err(format!(
            "{name} is {}, expected {n} numbers",
            shape_text(&t.shape)
        ));
    }
    within(name, &t.data)?;
    Ok(t.data.clone())
}

fn within(name: &str, data: &[f64]) -> Result<(), String> {
    match data.iter().find(|x| x.abs() > MAX_ABS_VALUE) {
        Some(x) => Err(format!("{name} holds {x:e}, outside ±{MAX_ABS_VALUE:e}")),
        None => Ok(()),
    }
}

fn shape_text(shape: &[usize]) -> String {
    match shape {
        [] => "a single number".into(),
        [n] => format!("{n} numbers"),
        dims => dims
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" × "),
    }
}
