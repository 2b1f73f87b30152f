//! `core::edit`: the one write path. Every change is an `Edit` value; the reducer checks the
//! limits, decides what undo keeps and merges, and whether the followed token is still there;
//! the preset label follows the model.

use attention_explorer::core::document::edit::{Document, Edit};
use attention_explorer::core::model::presets::DEFAULT_SEED;
use attention_explorer::core::model::presets::{dog, matching, raschka};
use attention_explorer::core::model::{Dims, Editable, Matrix, Model, Projection, Scale};

const W_Q: Editable = Editable::Weight(0, Projection::Query);

fn cell(value: f64) -> Edit {
    Edit::Cell {
        target: W_Q,
        row: 0,
        col: 1,
        value,
    }
}

#[test]
fn a_typed_number_is_one_undo_step_and_a_set_number_its_own() {
    let mut doc = Document::new(dog());
    for x in [1.0, 1.0, 1.5] {
        doc.apply(cell(x), None).unwrap();
    }
    assert_eq!(doc.history.depth(), 1, "the keystrokes of one number");
    doc.apply(Edit::Seal, None).unwrap();
    doc.apply(cell(2.0), None).unwrap();
    assert_eq!(doc.history.depth(), 2, "the same cell after leaving it");
    doc.apply(
        Edit::Set {
            target: W_Q,
            row: 0,
            col: 1,
            value: 3.0,
        },
        None,
    )
    .unwrap();
    doc.apply(cell(4.0), None).unwrap();
    assert_eq!(
        doc.history.depth(),
        4,
        "a set number is sealed on both sides"
    );
    for expected in [3.0, 2.0, 1.5] {
        doc.apply(Edit::Undo, None).unwrap();
        assert_eq!(doc.model.heads()[0].w_query[(0, 1)], expected);
    }
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(doc.model, dog());
    doc.apply(Edit::Redo, None).unwrap();
    assert_eq!(doc.model.heads()[0].w_query[(0, 1)], 1.5);
}

#[test]
fn a_refused_edit_changes_nothing_and_says_why() {
    let mut doc = Document::new(dog());
    let refused = |doc: &mut Document, edit: Edit| {
        let message = doc.apply(edit, Some(6)).expect_err("refused").english();
        assert_eq!(doc.model, dog(), "{message}");
        assert_eq!(doc.history.depth(), 0, "{message}");
        message
    };
    assert!(refused(&mut doc, cell(f64::NAN)).contains("not a finite number"));
    assert!(refused(&mut doc, cell(2e6)).contains("too large"));
    assert!(refused(
        &mut doc,
        Edit::Cell {
            target: W_Q,
            row: 9,
            col: 0,
            value: 1.0
        }
    )
    .contains("outside the 2 × 3 matrix"));
    assert!(refused(
        &mut doc,
        Edit::Paste {
            target: W_Q,
            row: 1,
            col: 1,
            block: vec![vec![1.0, 2.0, 3.0]],
        }
    )
    .contains("only 1 × 2 cells"));
    assert!(refused(&mut doc, Edit::Sentence(" , ".into())).contains("no words"));
    assert!(refused(&mut doc, Edit::Sentence("w ".repeat(65))).contains("64"));
    let mut dims = dog().dims();
    dims.d_k = 129;
    assert!(
        refused(&mut doc, Edit::Resize(dims)).contains("d_k must be a whole number from 1 to 128")
    );
    dims.d_k = 2;
    dims.heads = 0;
    assert!(refused(&mut doc, Edit::Resize(dims)).contains("heads"));
}

#[test]
fn the_sentence_s_keystrokes_are_one_step_and_the_followed_token_waits_for_its_place() {
    let mut doc = Document::new(dog());
    let followed = doc
        .apply(
            Edit::Sentence("The dog fetched the ball and she".into()),
            Some(6),
        )
        .unwrap();
    assert_eq!(followed, Some(6), "she is still token 6");
    let followed = doc
        .apply(Edit::Sentence("The dog fetched".into()), followed)
        .unwrap();
    assert_eq!(
        followed,
        Some(6),
        "kept while typing: its place may come back"
    );
    assert_eq!(
        doc.clone().apply(Edit::Open(Box::new(raschka())), followed),
        Ok(None),
        "gone after any other edit"
    );
    assert_eq!(doc.history.depth(), 1);
    doc.apply(Edit::Seal, None).unwrap();
    doc.apply(Edit::Sentence("The dog".into()), None).unwrap();
    assert_eq!(doc.history.depth(), 2, "a new step after leaving the field");
    doc.apply(Edit::Undo, None).unwrap();
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(doc.model, dog());
}

#[test]
fn resize_reinitialise_and_the_seed() {
    let mut doc = Document::new(raschka());
    assert_eq!(doc.seed, DEFAULT_SEED);
    let dims = Dims {
        d_in: 3,
        d_k: 3,
        d_v: 4,
        heads: 1,
    };
    doc.apply(Edit::Resize(dims), None).unwrap();
    let grown = doc.model.clone();
    assert_eq!(grown.heads()[0].w_query.ncols(), 3);
    assert_eq!(
        grown.heads()[0].w_query.columns(0, 2),
        raschka().heads()[0].w_query.columns(0, 2),
        "numbers whose place remains are kept"
    );

    doc.apply(Edit::Seed(7), None).unwrap();
    assert_eq!(doc.seed, 7);
    assert_eq!(doc.history.depth(), 1, "the seed is no undo step");
    doc.apply(Edit::Reinitialise, None).unwrap();
    let seven = Model::seeded(raschka().sentence(), dims, 7, false, Scale::SqrtDk).unwrap();
    assert_eq!(doc.model, seven);
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(doc.model, grown);
}

#[test]
fn mask_scale_and_open_are_undoable_and_the_preset_label_follows_the_model() {
    let mut doc = Document::new(dog());
    assert_eq!(matching(&doc.model), Some("dog"));
    doc.apply(Edit::Causal(false), None).unwrap();
    assert!(!doc.model.causal);
    assert_eq!(matching(&doc.model), None, "any edit clears it");
    doc.apply(Edit::Scale(Scale::None), None).unwrap();
    assert_eq!(doc.model.scale, Scale::None);
    doc.apply(Edit::Open(Box::new(raschka())), None).unwrap();
    assert_eq!(matching(&doc.model), Some("raschka"));
    doc.apply(Edit::Undo, None).unwrap();
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(doc.model.scale, Scale::SqrtDk);
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(
        matching(&doc.model),
        Some("dog"),
        "undo brings the name back"
    );
}

#[test]
fn retyping_the_sentence_key_by_key_gives_the_example_back() {
    use attention_explorer::core::forward::trace::Trace;
    let mut doc = Document::new(dog());
    let sentence = dog().sentence().to_owned();
    let mut followed = Some(6);
    // Select all and type it again: the first key replaces the whole sentence.
    for end in 1..=sentence.len() {
        followed = doc
            .apply(Edit::Sentence(sentence[..end].to_owned()), followed)
            .unwrap_or(followed);
    }
    assert_eq!(doc.model, dog(), "every word has its row back");
    assert_eq!(followed, Some(6), "she is followed again");
    let weights = &Trace::of(&doc.model).heads[0].weights;
    assert_eq!(format!("{:.4}", weights[(6, 1)]), "0.8830");
    assert_eq!(matching(&doc.model), Some("dog"));
}

#[test]
fn a_new_word_gets_a_row_no_other_word_has_and_a_word_typed_again_its_own() {
    let mut doc = Document::new(raschka());
    // "apple" sorts first: the fresh model's row 0 is "Life"'s already.
    doc.apply(
        Edit::Sentence("apple Life is short, eat dessert first".into()),
        None,
    )
    .unwrap();
    let e = doc.model.embedding();
    for a in 0..e.nrows() {
        for b in a + 1..e.nrows() {
            assert_ne!(e.row(a), e.row(b), "rows {a} and {b} are one row");
        }
    }
    let apple = e.row(0).into_owned();
    doc.apply(
        Edit::Sentence("Life is short, eat dessert first".into()),
        None,
    )
    .unwrap();
    doc.apply(
        Edit::Sentence("Life is short, eat dessert first apple".into()),
        None,
    )
    .unwrap();
    assert_eq!(
        doc.model.embedding().row(0),
        apple,
        "apple's row comes back"
    );
    // An edited row is what comes back.
    doc.apply(
        Edit::Cell {
            target: Editable::Embedding,
            row: 0,
            col: 0,
            value: 7.0,
        },
        None,
    )
    .unwrap();
    doc.apply(Edit::Sentence("Life is short".into()), None)
        .unwrap();
    doc.apply(Edit::Sentence("Life is short apple".into()), None)
        .unwrap();
    assert_eq!(doc.model.embedding()[(0, 0)], 7.0);
}

#[test]
fn a_sentence_typed_key_by_key_gets_the_numbers_it_gets_pasted() {
    // The words typed on the way ("c", "ca", "s", "sa") keep no row from the words that follow.
    for sentence in [
        "The cat sat",
        "Life is short, eat dessert first",
        "she saw a cat",
    ] {
        for start in [dog(), raschka()] {
            let mut typed = Document::new(start.clone());
            for end in (1..=sentence.len()).filter(|&i| sentence.is_char_boundary(i)) {
                typed
                    .apply(Edit::Sentence(sentence[..end].into()), None)
                    .unwrap();
            }
            let mut pasted = Document::new(start);
            pasted.apply(Edit::Sentence(sentence.into()), None).unwrap();
            assert_eq!(typed.model, pasted.model, "{sentence}");
        }
    }
}

#[test]
fn training_steps_until_a_seal_are_one_undo_step() {
    use attention_explorer::core::training::{Objective, Optimizer, Trainer};
    let start = dog();
    let mut doc = Document::new(start.clone());
    let objective =
        Objective::read(r#"{"attend": [{"head": 0, "query": 6, "key": 4}]}"#, &start).unwrap();
    let mut trainer = Trainer::new(Optimizer::Sgd { lr: 0.5 });
    for _ in 0..5 {
        let mut next = doc.model.clone();
        trainer.step(&mut next, &objective).unwrap();
        doc.apply(Edit::Train(Box::new(next)), None).unwrap();
    }
    doc.apply(Edit::Seal, None).unwrap();
    let trained = doc.model.clone();
    assert_ne!(trained, start);
    doc.apply(Edit::Undo, None).unwrap();
    assert_eq!(doc.model, start, "one undo takes back the whole run");
    doc.apply(Edit::Redo, None).unwrap();
    assert_eq!(doc.model, trained);
}

#[test]
fn what_changes_nothing_says_so_exactly() {
    use attention_explorer::core::document::edit::{apply, Changed, Session};
    use attention_explorer::core::document::history::History;
    let (mut model, mut history, mut seed) = (dog(), History::default(), DEFAULT_SEED);
    let mut session = Session::default();
    let mut run = |edit| {
        apply(
            (&mut model, &mut history, &mut seed),
            &mut session,
            edit,
            None,
        )
        .unwrap()
    };
    // Undo and redo with nothing to take back, the same number typed again, the same block
    // pasted, the mask set as it is: no change (a goal counts none of them as an edit).
    assert_eq!(run(Edit::Undo), Changed::default());
    assert_eq!(run(Edit::Redo), Changed::default());
    let w = dog().heads()[0].w_query[(0, 0)];
    let target = Editable::Weight(0, Projection::Query);
    for edit in [
        Edit::Cell {
            target,
            row: 0,
            col: 0,
            value: w,
        },
        Edit::Set {
            target,
            row: 0,
            col: 0,
            value: w,
        },
        Edit::Paste {
            target,
            row: 0,
            col: 0,
            block: vec![vec![w]],
        },
        Edit::Causal(dog().causal),
        Edit::Scale(dog().scale),
        Edit::Open(Box::new(dog())),
    ] {
        assert_eq!(run(edit.clone()), Changed::default(), "{edit:?}");
    }
    let changed = run(Edit::Cell {
        target,
        row: 0,
        col: 0,
        value: w + 1.0,
    });
    assert!(changed.model && changed.history);
    assert!(run(Edit::Undo).model);
    assert!(!run(Edit::Undo).model, "nothing left to undo");
}

#[test]
fn the_reducer_keeps_an_exercise_s_locks_and_counts_its_edits() {
    use attention_explorer::core::document::edit::Session;
    let mut doc = Document::new(dog());
    doc.session = Session::new(vec![Matrix::Embedding, Matrix::Weight(Projection::Value)]);
    let refused = doc
        .apply(
            Edit::Set {
                target: Editable::Weight(0, Projection::Value),
                row: 0,
                col: 0,
                value: 7.0,
            },
            None,
        )
        .unwrap_err()
        .english();
    assert_eq!(
        refused,
        "w_value is locked in this exercise: reach it by editing w_query, w_key."
    );
    assert_eq!(doc.model, dog());
    // The keystrokes of one number are one edit; a setting is one of its own; nothing to undo,
    // or the same number again, is none.
    for x in [5.0, 5.5, 5.25] {
        doc.apply(cell(x), None).unwrap();
    }
    doc.apply(Edit::Seal, None).unwrap();
    doc.apply(Edit::Causal(!dog().causal), None).unwrap();
    doc.apply(Edit::Redo, None).unwrap();
    doc.apply(cell(5.25), None).unwrap();
    doc.apply(cell(6.0), None).unwrap();
    assert_eq!(
        doc.session.edits, 3,
        "the number, the mask, then a number again"
    );
    // Opening the example would change the locked embedding once it differs.
    doc.apply(Edit::Resize(dog().dims()), None).unwrap_err();
}

#[test]
fn editing_another_word_of_the_dog_sentence_keeps_following_she() {
    let mut doc = Document::new(dog());
    // Never picked: the example follows "she" (token 6) by default.
    let followed = doc
        .apply(
            Edit::Sentence("The cat fetched the ball and she was happy".into()),
            None,
        )
        .unwrap();
    assert_eq!(followed, Some(6));
    let followed = doc
        .apply(
            Edit::Sentence("The big cat fetched the ball and she was happy".into()),
            followed,
        )
        .unwrap();
    assert_eq!(followed, Some(7), "a word put before she moves her place");
    let followed = doc
        .apply(
            Edit::Sentence("The big cat fetched the ball and".into()),
            followed,
        )
        .unwrap();
    assert_eq!(
        followed,
        Some(7),
        "her place is kept while she is being retyped"
    );
}

#[test]
fn a_model_opened_over_another_follows_the_same_word_not_the_same_place() {
    let mut doc = Document::new(dog());
    // The dog follows "she" (its own pick, at 6); a model with a piece before the sentence (as a
    // trained model's [CLS]) follows "she" at 7, not "ball" at 6.
    let sentence = format!("[CLS] {}", dog().sentence());
    let dims = dog().dims();
    let shifted = Model::seeded(&sentence, dims, DEFAULT_SEED, false, Scale::SqrtDk).unwrap();
    let followed = doc.apply(Edit::Open(Box::new(shifted)), None).unwrap();
    assert_eq!(followed, Some(7));
    assert_eq!(doc.model.tokens().words[7], "she");
    // A model without the word takes its own pick.
    assert_eq!(
        doc.apply(Edit::Open(Box::new(raschka())), Some(7)).unwrap(),
        None
    );
}
