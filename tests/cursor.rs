//! `core::cursor`: one keyboard model for a table's cells and a heat map's cursor.

use attention_explorer::core::views::cursor::{cell_key, moved, place, CellKey};

#[test]
fn keys_move_act_or_belong_to_the_text() {
    assert_eq!(
        cell_key("ArrowUp", false, false),
        Some(CellKey::Step(-1, 0))
    );
    assert_eq!(cell_key("Enter", false, false), Some(CellKey::Act));
    assert_eq!(cell_key(" ", false, false), Some(CellKey::Act));
    assert_eq!(
        cell_key("Enter", false, true),
        Some(CellKey::Step(1, 0)),
        "down, as a spreadsheet"
    );
    assert_eq!(cell_key("Enter", true, true), Some(CellKey::Step(-1, 0)));
    assert_eq!(cell_key("Home", false, true), None, "the text's own");
    assert_eq!(cell_key(" ", false, true), None);
    assert_eq!(cell_key("End", false, false), Some(CellKey::RowEnd));
    assert_eq!(cell_key("a", false, false), None);
}

#[test]
fn the_cursor_stays_inside_the_matrix() {
    let shape = (3, 4);
    assert_eq!(moved((0, 0), shape, CellKey::Step(-1, 0)), Some((0, 0)));
    assert_eq!(moved((2, 3), shape, CellKey::Step(1, 1)), Some((2, 3)));
    assert_eq!(moved((1, 1), shape, CellKey::Step(0, 1)), Some((1, 2)));
    assert_eq!(moved((1, 2), shape, CellKey::RowStart), Some((1, 0)));
    assert_eq!(moved((1, 0), shape, CellKey::RowEnd), Some((1, 3)));
    assert_eq!(
        moved((9, 9), shape, CellKey::Step(0, 0)),
        Some((2, 3)),
        "a matrix that shrank"
    );
    assert_eq!(moved((0, 0), (0, 0), CellKey::Step(1, 0)), None);
    assert_eq!(moved((0, 0), shape, CellKey::Act), None);
}

#[test]
fn the_readout_names_the_place() {
    assert_eq!(
        place(6, "she", "dog", true).english(),
        "query “she” → key “dog”"
    );
    assert_eq!(
        place(2, "ball", "1", false).english(),
        "row 2 “ball”, column 1"
    );
    assert_eq!(place(2, "2", "1", false).english(), "row 2, column 1");
}

#[test]
fn attention_lines_sit_on_their_tokens_and_grow_with_the_weight() {
    use attention_explorer::core::views::lines::{
        height, stroke_opacity, stroke_width, token_y, visible,
    };
    assert_eq!(token_y(0, 9), 14.0);
    assert_eq!(token_y(8, 9), 174.0);
    assert_eq!(height(9), 188.0);
    assert_eq!(token_y(0, 64), 9.5, "compact rows at 64 tokens");
    assert_eq!(
        (stroke_width(0.0), stroke_opacity(0.0)),
        ("0.50".into(), "0.120".into())
    );
    assert_eq!(
        (stroke_width(2.0), stroke_opacity(1.0)),
        ("6.50".into(), "1.000".into())
    );
    assert!(visible(true, 3, 3) && !visible(true, 3, 4) && visible(false, 3, 4));
}
