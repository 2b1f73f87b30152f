//! `core::numbers`: reading typed cells and pasted blocks.

use attention_explorer::core::document::numbers::{
    read_block, read_cell, CellText, MAX_PASTE_CHARS,
};
use attention_explorer::core::i18n::keys::{edits, settings};

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
        CellText::Invalid(edits::not_number(settings::quoted("abc")))
    );
    assert!(matches!(read_cell("2e6"), CellText::Invalid(m) if m.english().contains("too large")));
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
    assert_eq!(
        read_block("1 two 3").map_err(|e| e.english()),
        Err("“two” is not a number".into())
    );
    assert!(read_block("  \n ").is_err());
}

/// Every kind of bad text a learner might type gets a message that quotes it (shortened when
/// long) and never a number.
#[test]
fn the_cell_catalogue() {
    let invalid = |t: &str| match read_cell(t) {
        CellText::Invalid(m) => m.english(),
        other => panic!("{t:?} gave {other:?}"),
    };
    assert_eq!(invalid("abc"), "“abc” is not a number");
    assert_eq!(invalid("NaN"), "“NaN” is not a finite number");
    assert_eq!(invalid("inf"), "“inf” is not a finite number");
    assert_eq!(
        invalid("1e309"),
        "“1e309” is too large: use a number from −1e6 to 1e6"
    );
    assert_eq!(invalid("0x10"), "“0x10” is not a number");
    assert_eq!(
        invalid("1,5"),
        "“1,5” is not a number here: write decimals with a point, as in 1.5"
    );
    assert_eq!(invalid("½"), "“½” is not a number");
    let long = "7".repeat(10_000);
    assert_eq!(
        invalid(&long),
        format!(
            "“{}…” (10000 characters) is too large: use a number from −1e6 to 1e6",
            "7".repeat(24)
        )
    );
    assert!(invalid(&"x".repeat(10_000)).ends_with("(10000 characters) is not a number"));
    assert_eq!(read_cell(" 2 "), CellText::Number(2.0));
    for t in ["", "-", ".", "1e"] {
        assert_eq!(read_cell(t), CellText::Incomplete, "{t:?}");
    }
}

#[test]
fn the_paste_catalogue() {
    assert_eq!(
        read_block("1 2\n3\n").map_err(|e| e.english()),
        Err("row 2 has 1 numbers but row 1 has 2: paste a rectangular block".into())
    );
    assert_eq!(
        read_block("tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)").unwrap(),
        vec![vec![1.0, 2.0], vec![3.0, 4.0]]
    );
    assert_eq!(
        read_block("1 2\nthree 4").map_err(|e| e.english()),
        Err("“three” is not a number".into())
    );
    let huge = "0.5 ".repeat(MAX_PASTE_CHARS / 4 + 1);
    assert!(read_block(&huge)
        .unwrap_err()
        .english()
        .contains("characters long"));
}

#[cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency
mod properties {
    use super::*;
    use attention_explorer::core::model::limits::MAX_ABS_VALUE;
    use proptest::prelude::*;

    fn number() -> impl Strategy<Value = f64> {
        prop_oneof![
            -MAX_ABS_VALUE..=MAX_ABS_VALUE,
            -1.0..1.0f64,
            Just(0.0),
            Just(-0.0)
        ]
    }

    proptest! {
        #[test]
        fn any_text_is_a_number_in_range_the_start_of_one_or_a_message(text in ".{0,40}") {
            if let CellText::Number(x) = read_cell(&text) {
                prop_assert!(x.is_finite() && x.abs() <= MAX_ABS_VALUE);
            }
        }

        #[test]
        fn a_number_as_rust_or_python_prints_it_reads_back_exactly(x in number()) {
            for text in [format!("{x}"), format!("{x:e}"), format!("{x:?}"), format!(" {x:E}\t")] {
                prop_assert_eq!(read_cell(&text), CellText::Number(x), "{}", text);
            }
        }

        #[test]
        fn any_text_pastes_as_a_rectangle_or_a_message(text in "[0-9eE.,;\\-\\[\\]\\t\\n a-z(]{0,80}") {
            if let Ok(rows) = read_block(&text) {
                prop_assert!(!rows.is_empty());
                prop_assert!(rows.iter().all(|r| r.len() == rows[0].len()));
            }
        }

        #[test]
        fn a_printed_block_reads_back_exactly(
            rows in (1usize..6, 1usize..6).prop_flat_map(|(r, c)| prop::collection::vec(prop::collection::vec(number(), c), r)),
            tensor: bool,
        ) {
            let text = if tensor {
                let inner: Vec<String> = rows.iter().map(|r| format!("[{}]", r.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(", "))).collect();
                format!("tensor([{}], dtype=torch.float64)", inner.join(",\n        "))
            } else {
                rows.iter().map(|r| r.iter().map(f64::to_string).collect::<Vec<_>>().join("\t")).collect::<Vec<_>>().join("\n")
            };
            prop_assert_eq!(read_block(&text), Ok(rows));
        }
    }
}

#[test]
fn the_size_field_catalogue() {
    use attention_explorer::core::document::numbers::whole;
    assert_eq!(whole(" 4 ", 1, 128), Ok(4));
    assert_eq!(whole("4.0", 1, 128), Ok(4));
    assert_eq!(whole("1e2", 1, 128), Ok(100));
    let refused = |t: &str| whole(t, 1, 128).unwrap_err().english();
    assert_eq!(
        refused("0"),
        "“0” is out of range: use a whole number from 1 to 128"
    );
    assert_eq!(
        refused("-3"),
        "“-3” is out of range: use a whole number from 1 to 128"
    );
    assert_eq!(
        refused("2.5"),
        "“2.5” is not a whole number: use a whole number from 1 to 128"
    );
    assert_eq!(refused(""), "empty: use a whole number from 1 to 128");
    assert_eq!(
        refused("1000000000"),
        "“1000000000” is out of range: use a whole number from 1 to 128"
    );
    assert_eq!(
        refused("four"),
        "“four” is not a whole number: use a whole number from 1 to 128"
    );
    assert_eq!(
        refused("inf"),
        "“inf” is not a whole number: use a whole number from 1 to 128"
    );
    assert_eq!(whole("18446744073709551615", 0, u64::MAX), Ok(u64::MAX));
    assert_eq!(
        whole("12345678901234567891", 0, u64::MAX),
        Ok(12345678901234567891)
    );
}
