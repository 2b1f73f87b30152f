//! Helpers shared by the native tests: fixtures and matrix comparison.
#![allow(dead_code)] // each test file uses a different subset

use nalgebra::DMatrix;
use serde_json::Value;

/// A fixture file from `tests/fixtures/`.
pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture exists"))
        .expect("fixture is JSON")
}

/// A number, with "-inf" and "nan" read as written by the fixtures and `attention-trace`.
pub fn number(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        Value::String(s) if s == "nan" => f64::NAN,
        _ => v.as_f64().expect("a number"),
    }
}

/// A list of rows as a matrix.
pub fn matrix(v: &Value) -> DMatrix<f64> {
    let rows: Vec<Vec<f64>> = v
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_array().expect("a row").iter().map(number).collect())
        .collect();
    let cols = rows.first().map_or(0, Vec::len);
    DMatrix::from_row_slice(rows.len(), cols, &rows.concat())
}

/// Asserts two matrices have the same shape and agree within `tol` (−∞ and NaN must match exactly).
pub fn assert_close(name: &str, actual: &DMatrix<f64>, expected: &DMatrix<f64>, tol: f64) {
    assert_eq!(actual.shape(), expected.shape(), "{name}: shape");
    for i in 0..expected.nrows() {
        for j in 0..expected.ncols() {
            let (a, e) = (actual[(i, j)], expected[(i, j)]);
            let same = (a.is_nan() && e.is_nan()) || a == e || (a - e).abs() <= tol;
            assert!(
                same,
                "{name}[{i}][{j}]: got {a}, expected {e} (tolerance {tol})"
            );
        }
    }
}
