//! `core::history`: undo and redo round-trips, one step per typed number, the bounds.

use attention_explorer::core::document::history::{
    model_bytes, EditKey, History, UNDO_BYTES, UNDO_DEPTH,
};
use attention_explorer::core::model::presets::{dog, raschka};
use attention_explorer::core::model::{Dims, Editable, Model, Projection, Scale};

const W_Q: Editable = Editable::Weight(0, Projection::Query);

#[test]
fn keystrokes_of_one_number_are_one_step_and_undo_redo_round_trip() {
    let original = dog();
    let mut model = original.clone();
    let mut history = History::default();
    // "1", "1.", "1.5" typed into one cell.
    for x in [1.0, 1.0, 1.5] {
        assert!(history.set_cell(&mut model, W_Q, 0, 1, x));
    }
    assert_eq!(history.depth(), 1);
    history.seal();
    assert!(history.set_cell(&mut model, W_Q, 0, 1, 2.0));
    assert!(history.set_cell(&mut model, Editable::Embedding, 2, 0, -4.0));
    assert_eq!(history.depth(), 3);
    let edited = model.clone();

    assert!(history.undo(&mut model));
    assert_eq!(model.embedding()[(2, 0)], original.embedding()[(2, 0)]);
    assert!(history.undo(&mut model));
    assert_eq!(model.heads()[0].w_query[(0, 1)], 1.5);
    assert!(history.undo(&mut model));
    assert_eq!(model, original);
    assert!(!history.undo(&mut model));
    assert!(history.can_redo());

    while history.redo(&mut model) {}
    assert_eq!(model, edited);
    assert!(!history.can_redo());
}

#[test]
fn typing_back_to_the_number_it_began_from_leaves_no_step() {
    let mut model = dog();
    let mut history = History::default();
    let began = model.heads()[0].w_query[(0, 1)];
    // "1,5": "1" applied on its way, then the cell goes back to its number.
    assert!(history.set_cell(&mut model, W_Q, 0, 1, 1.0));
    assert!(history.set_cell(&mut model, W_Q, 0, 1, began));
    assert!(!history.can_undo());
    assert_eq!((history.bytes(), &model), (0, &dog()));
    // Typing on in the same cell is a step again, back to that number.
    assert!(history.set_cell(&mut model, W_Q, 0, 1, 2.0));
    assert!(history.undo(&mut model));
    assert_eq!(model, dog());
    assert!(!history.can_undo());
}

#[test]
fn structural_changes_keep_the_model_and_a_new_edit_drops_the_redo_steps() {
    let mut model = raschka();
    let mut history = History::default();
    let before = model.clone();
    model = model
        .with_sentence("Life is long", 123, &Default::default())
        .unwrap();
    history.record_model(before.clone(), EditKey::Sentence);
    // A second keystroke of the sentence extends the same step.
    let again = model.clone();
    model = model
        .with_sentence("Life is longer", 123, &Default::default())
        .unwrap();
    history.record_model(again, EditKey::Sentence);
    assert_eq!(history.depth(), 1);
    assert!(history.undo(&mut model));
    assert_eq!(model, before);
    assert!(history.can_redo());
    history.set_cell(&mut model, W_Q, 0, 0, 9.0);
    assert!(!history.can_redo(), "a new edit forgets what was undone");
}

#[test]
fn edits_outside_the_matrix_change_nothing() {
    let mut model = dog();
    let mut history = History::default();
    assert!(!history.set_cell(&mut model, W_Q, 99, 0, 1.0));
    assert!(!history.set_cell(&mut model, Editable::Weight(5, Projection::Key), 0, 0, 1.0));
    assert_eq!((history.depth(), model), (0, dog()));
}

#[test]
fn a_typed_number_costs_bytes_not_a_model_and_history_is_bounded() {
    let mut model = dog();
    let mut history = History::default();
    for i in 0..UNDO_DEPTH + 50 {
        history.seal();
        history.set_cell(&mut model, W_Q, 0, 0, i as f64);
    }
    assert_eq!(history.depth(), UNDO_DEPTH);
    assert!(
        history.bytes() < 64 * UNDO_DEPTH,
        "{} bytes",
        history.bytes()
    );

    // At the limits a model is ~6.3 MB: the byte bound keeps about ten of them.
    let big = Model::seeded(
        &"w ".repeat(64),
        Dims {
            d_in: 128,
            d_k: 128,
            d_v: 128,
            heads: 16,
        },
        1,
        true,
        Scale::SqrtDk,
    )
    .unwrap();
    assert!(model_bytes(&big) > 6_000_000);
    let mut history = History::default();
    for _ in 0..40 {
        history.record_model(big.clone(), EditKey::Other);
    }
    assert!(history.bytes() <= UNDO_BYTES);
    assert_eq!(history.depth(), UNDO_BYTES / model_bytes(&big));
}

#[test]
fn a_paste_keeps_only_the_block_it_overwrote() {
    let original = raschka();
    let mut model = original.clone();
    let mut history = History::default();
    // A 2 × 2 block fills the bottom-right corner of the 3 × 2 W_query; a 3 × 3 one does not fit.
    assert_eq!(
        history.paste(&mut model, W_Q, 1, 0, &[vec![1.0, 2.0], vec![3.0, 4.0]]),
        Ok(())
    );
    assert_eq!(model.heads()[0].w_query[(2, 1)], 4.0);
    assert!(history.bytes() < 200, "{} bytes", history.bytes());
    let block = vec![
        vec![1.0, 2.0, 3.0],
        vec![4.0, 5.0, 6.0],
        vec![7.0, 8.0, 9.0],
    ];
    let refused = history
        .paste(&mut model, W_Q, 0, 0, &block)
        .map_err(|e| e.english());
    assert_eq!(
        refused,
        Err(
            "the block is 3 × 3 but only 3 × 2 cells lie from this one to the matrix's corner"
                .into()
        )
    );
    assert!(
        history.paste(&mut model, W_Q, 5, 0, &block).is_err(),
        "outside the matrix"
    );
    assert_eq!(
        history.paste(&mut model, Editable::Embedding, 0, 0, &block),
        Ok(())
    );
    let pasted = model.clone();
    assert!(history.undo(&mut model) && history.undo(&mut model));
    assert_eq!(model, original);
    assert!(history.redo(&mut model) && history.redo(&mut model));
    assert_eq!(model, pasted);
}

#[test]
fn writing_the_number_already_there_is_not_an_undo_step() {
    let mut model = dog();
    let mut history = History::default();
    let same = model.heads()[0].w_query[(0, 0)];
    assert!(history.set_cell(&mut model, W_Q, 0, 0, same));
    assert!(!history.can_undo());
    // A structural step is needed only when it does not extend the open one.
    history.record_model(model.clone(), EditKey::Sentence);
    assert!(!history.starts_step(EditKey::Sentence));
    assert!(history.starts_step(EditKey::Other));
    history.seal();
    assert!(history.starts_step(EditKey::Sentence));
}
