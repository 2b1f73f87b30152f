//! `core::script`: what a scripted `edit` may change, and the messages it gets otherwise.

use attention_explorer::core::document::script::{check_value, locate_edit};
use attention_explorer::core::model::presets::{dog, raschka_multihead};
use attention_explorer::core::model::{Editable, Projection};

#[test]
fn names_heads_and_positions_are_located() {
    let m = raschka_multihead();
    assert_eq!(
        locate_edit(&m, "w_key", 3.0, 2.0, 0.0, 0.5),
        Ok((Editable::Weight(3, Projection::Key), 2, 0))
    );
    // The embedding has no head: any number is ignored.
    assert_eq!(
        locate_edit(&m, "embedding", -7.5, 5.0, 2.0, 1.0),
        Ok((Editable::Embedding, 5, 2))
    );
}

#[test]
fn bad_calls_get_a_message_naming_what_is_wrong() {
    let m = dog();
    let err = |matrix: &str, head: f64, row: f64, col: f64, value: f64| {
        locate_edit(&m, matrix, head, row, col, value).unwrap_err()
    };
    assert_eq!(
        err("scores", 0.0, 0.0, 0.0, 1.0),
        "there is no editable matrix “scores”: use embedding, w_query, w_key, w_value, b_query, b_key, b_value, w_output, b_output, positions, source_embedding"
    );
    assert_eq!(
        err("w_query", 1.0, 0.0, 0.0, 1.0),
        "head 1 is out of range: use a whole number from 0 to 0"
    );
    assert_eq!(
        err("w_query", 0.0, 2.0, 0.0, 1.0),
        "row 2 is out of range: use a whole number from 0 to 1"
    );
    assert_eq!(
        err("w_value", 0.0, 0.0, 0.5, 1.0),
        "column 0.5 is out of range: use a whole number from 0 to 2"
    );
    assert!(err("w_value", 0.0, -1.0, 0.0, 1.0).starts_with("row -1 is out of range"));
    assert!(err("w_value", 0.0, f64::NAN, 0.0, 1.0).starts_with("row NaN is out of range"));
    assert_eq!(
        err("w_key", 0.0, 0.0, 0.0, f64::NAN),
        "NaN is not a finite number"
    );
    assert_eq!(
        err("w_key", 0.0, 0.0, 0.0, f64::INFINITY),
        "Infinity is not a finite number"
    );
    assert_eq!(
        err("w_key", 0.0, 0.0, 0.0, f64::NEG_INFINITY),
        "-Infinity is not a finite number"
    );
    assert!(err("w_key", 0.0, 0.0, 0.0, 2e6).contains("too large"));
}

#[test]
fn values_pass_exactly() {
    assert_eq!(check_value(0.1), Ok(0.1));
    assert_eq!(check_value(-1e6), Ok(-1e6));
    assert_eq!(check_value(1e-300), Ok(1e-300));
}
