//! `core::model`: shapes, edits, resizing and sentence changes.

use attention_explorer::core::model::presets::{raschka, raschka_multihead, RASCHKA_SEED};
use attention_explorer::core::model::{Dims, Editable, Model, Projection, Scale};

#[test]
fn both_raschka_presets_draw_query_and_key_first() {
    let (one, four) = (raschka(), raschka_multihead());
    assert_eq!(four.heads()[0].w_query, one.heads()[0].w_query);
    assert_eq!(four.heads()[0].w_key, one.heads()[0].w_key);
}

#[test]
fn resizing_keeps_what_fits_and_fills_from_the_seed() {
    let mut model = raschka();
    model.set(Editable::Weight(0, Projection::Query), 0, 0, 7.5);
    let bigger = model
        .resized(
            Dims {
                d_in: 4,
                d_k: 3,
                d_v: 4,
                heads: 2,
            },
            RASCHKA_SEED,
        )
        .unwrap();
    assert_eq!(
        bigger.dims(),
        Dims {
            d_in: 4,
            d_k: 3,
            d_v: 4,
            heads: 2
        }
    );
    assert_eq!(bigger.heads()[0].w_query[(0, 0)], 7.5);
    assert_eq!(
        bigger.embedding().view((0, 0), (6, 3)),
        model.embedding().view((0, 0), (6, 3))
    );
    let fresh = Model::seeded(
        model.sentence(),
        bigger.dims(),
        RASCHKA_SEED,
        false,
        Scale::SqrtDk,
    )
    .unwrap();
    assert_eq!(bigger.heads()[1], fresh.heads()[1]);
    assert_eq!(bigger.embedding()[(0, 3)], fresh.embedding()[(0, 3)]);
    let back = bigger.resized(model.dims(), RASCHKA_SEED).unwrap();
    assert_eq!(back, model);
}

#[test]
fn a_new_sentence_keeps_known_words_embeddings() {
    let model = raschka();
    let changed = model
        .with_sentence("Life is sweet", RASCHKA_SEED, &Default::default())
        .unwrap();
    assert_eq!(changed.tokens().vocabulary, ["Life", "is", "sweet"]);
    assert_eq!(changed.embedded().row(0), model.embedded().row(0));
    assert_eq!(changed.embedded().row(1), model.embedded().row(1));
    assert_eq!(changed.heads(), model.heads());
    // Rows 0 … 5 of the seeded table are the six words' (eat's row 2 too: the page remembers
    // it), so "sweet" gets row 6, the first that no word has.
    let seven = Model::seeded(
        "a b c d e f z",
        model.dims(),
        RASCHKA_SEED,
        false,
        Scale::SqrtDk,
    )
    .unwrap();
    assert_eq!(
        changed.embedding().row(2),
        seven.embedding().row(6),
        "a new word gets the first seeded row no word has"
    );
    assert!(model
        .with_sentence("  ", RASCHKA_SEED, &Default::default())
        .is_err());
}

#[test]
fn edits_outside_the_matrices_are_ignored() {
    let mut model = raschka();
    let before = model.clone();
    model.set(Editable::Embedding, 99, 0, 1.0);
    model.set(Editable::Weight(5, Projection::Key), 0, 0, 1.0);
    model.set(Editable::Weight(0, Projection::Value), 0, 9, 1.0);
    assert_eq!(model, before);
    model.set(Editable::Embedding, 1, 2, -3.0);
    assert_eq!(model.embedding()[(1, 2)], -3.0);
}

#[test]
fn a_pasted_block_is_clipped_to_the_matrix() {
    let mut model = raschka();
    let w = Editable::Weight(0, Projection::Value);
    model.paste(w, 1, 2, &[vec![1.0, 2.0, 3.0], vec![4.0], vec![5.0, 6.0]]);
    let m = model.matrix(w).unwrap();
    assert_eq!((m[(1, 2)], m[(1, 3)], m[(2, 2)]), (1.0, 2.0, 4.0));
    assert_eq!(m.shape(), (3, 4));
    assert!(model.matrix(Editable::Weight(1, Projection::Key)).is_none());
}

#[test]
fn inconsistent_models_are_refused() {
    let m = raschka();
    assert!(Model::new(
        "one two",
        m.embedding().clone(),
        m.heads().to_vec(),
        false,
        Scale::None
    )
    .is_err());
    assert!(Model::new(
        m.sentence(),
        m.embedding().clone(),
        vec![],
        false,
        Scale::None
    )
    .is_err());
}

#[test]
fn scale_divisors() {
    assert_eq!(Scale::SqrtDk.divisor(4), 2.0);
    assert_eq!(Scale::Dk.divisor(4), 4.0);
    assert_eq!(Scale::None.divisor(4), 1.0);
    assert_eq!(Scale::from_key("dk"), Some(Scale::Dk));
}
