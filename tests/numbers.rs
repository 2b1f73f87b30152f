//! `core::numbers`: reading typed cells and pasted blocks.

use attention_explorer::core::numbers::{read_block, read_cell, CellText};

#[test]
fn cells_that_are_numbers() {
    assert_eq!(read_cell("0.5"), CellText::Number(0.5));
    assert_eq!(read_cell(" -1e-3 "), CellText::Number(-0.001));
    assert_eq!(read_cell("1."), CellText::Number(1.0));
    assert_eq!(read_cell(".25"), CellText::Number(0.25));
    assert_eq!(read_cell("−2"), CellText::Number(-2.0));
    assert_eq!(read_cell("1e6"), CellText::Number(1e6));
}

#[test]
fn cells_still_being_typed() {
    for t in ["", "-", "+", ".", "-.", "1e", "1e-", "2.5E+"] {
        assert_eq!(read_cell(t), CellText::Incomplete, "{t:?}");
    }
}

#[test]
fn cells_that_are_wrong() {
    for t in [
        "abc",
        "1.2.3",
        "NaN",
        "inf",
        "-infinity",
        "1e5x",
        "--1",
        "e5",
        "0x10",
    ] {
        assert!(
            matches!(read_cell(t), CellText::Invalid(_)),
            "{t:?}: {:?}",
            read_cell(t)
        );
    }
    assert_eq!(
        read_cell("abc"),
        CellText::Invalid("“abc” is not a number".into())
    );
    assert!(matches!(read_cell("2e6"), CellText::Invalid(m) if m.contains("too large")));
}

#[test]
fn blocks_from_a_spreadsheet() {
    assert_eq!(
        read_block("1\t2\n3\t4\n").unwrap(),
        vec![vec![1.0, 2.0], vec![3.0, 4.0]]
    );
    assert_eq!(read_block("1, 2; 3").unwrap(), vec![vec![1.0, 2.0, 3.0]]);
}

#[test]
fn blocks_from_a_printed_tensor() {
    let printed = "tensor([[ 0.3374, -0.1778, -0.3035],\n        [ 0.1794,  1.8951,  0.4954]], grad_fn=<MmBackward0>)";
    assert_eq!(
        read_block(printed).unwrap(),
        vec![vec![0.3374, -0.1778, -0.3035], vec![0.1794, 1.8951, 0.4954]]
    );
    assert_eq!(
        read_block("[[1, 2], [3, 4]]").unwrap(),
        vec![vec![1.0, 2.0], vec![3.0, 4.0]]
    );
}

#[test]
fn blocks_with_garbage_name_it() {
    assert_eq!(read_block("1 two 3"), Err("“two” is not a number".into()));
    assert!(read_block("  \n ").is_err());
}
