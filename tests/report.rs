//! The CSV export of a matrix.

use attention_explorer::core::formats::report::matrix_csv;
use nalgebra::DMatrix;

#[test]
fn a_matrix_as_csv_with_labels() {
    let m = DMatrix::from_row_slice(2, 2, &[0.5, f64::NEG_INFINITY, -0.0, 1e-7]);
    let words = ["say \"hi\"".to_string(), "b".to_string()];
    assert_eq!(
        matrix_csv(&m, &words, &words),
        ",\"say \"\"hi\"\"\",b\r\n\"say \"\"hi\"\"\",0.5,-inf\r\nb,-0,0.0000001\r\n"
    );
    // Missing labels are the indices.
    assert_eq!(
        matrix_csv(&m, &[], &[]),
        ",0,1\r\n0,0.5,-inf\r\n1,-0,0.0000001\r\n"
    );
}
