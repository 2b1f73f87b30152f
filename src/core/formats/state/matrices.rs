//! Lists of numbers read from a state made matrices: rectangular, within the limits, the first
//! bad number named by its place. Shared by the heads and the optional parts.

use nalgebra::DMatrix;

use crate::core::i18n::keys::formats;
use crate::core::i18n::Arg;
use crate::core::model::limits::{MAX_ABS_VALUE, MAX_DIM};

use super::error::{error, StateError};
/// A bias of `width` numbers within ±MAX_ABS_VALUE, as a 1 × width matrix; `size` names the
/// width in the message (`heads[1].b_key: 3 numbers, d_k is 2`).
pub(super) fn bias(
    field: &str,
    b: &[f64],
    width: usize,
    size: impl Into<Arg>,
) -> Result<DMatrix<f64>, StateError> {
    if b.len() != width {
        return Err(error(field, formats::bias_width(b.len(), size, width)));
    }
    within(field, b)?;
    Ok(DMatrix::from_row_slice(1, width, b))
}

/// A list of rows as a matrix: rectangular, 1..=MAX_DIM columns, `rows` rows when given, numbers
/// within ±MAX_ABS_VALUE.
pub(super) fn matrix(
    field: &str,
    rows: &[Vec<f64>],
    expected_rows: Option<usize>,
) -> Result<DMatrix<f64>, StateError> {
    if let Some(n) = expected_rows {
        if rows.len() != n {
            return Err(error(field, formats::rows_expected_d_in(rows.len(), n)));
        }
    }
    let cols = rows.first().map_or(0, Vec::len);
    if cols == 0 {
        return Err(error(field, formats::no_columns));
    }
    if cols > MAX_DIM {
        return Err(error(field, formats::columns_limit(cols, MAX_DIM)));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.len() != cols {
            return Err(error(
                format!("{field}[{i}]"),
                formats::ragged(row.len(), cols),
            ));
        }
        within(&format!("{field}[{i}]"), row)?;
    }
    let flat: Vec<f64> = rows.concat();
    Ok(DMatrix::from_row_slice(rows.len(), cols, &flat))
}

/// Every number of `row` (the field `field`) finite and within ±MAX_ABS_VALUE; the error names
/// the first that is not (`heads[0].b_key[2]`).
fn within(field: &str, row: &[f64]) -> Result<(), StateError> {
    match row
        .iter()
        .enumerate()
        .find(|(_, x)| x.is_nan() || x.abs() > MAX_ABS_VALUE)
    {
        Some((j, x)) => Err(error(
            format!("{field}[{j}]"),
            formats::value_outside(format!("{x:e}"), format!("{MAX_ABS_VALUE:e}")),
        )),
        None => Ok(()),
    }
}
