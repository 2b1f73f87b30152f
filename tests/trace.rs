//! `core::trace` against every intermediate of the 50 PyTorch cases in `attention_cases.json`.

mod common;

use attention_explorer::core::forward::softmax::softmax_rows;
use attention_explorer::core::forward::trace::{attend, concat_columns, Trace};
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::{Head, Scale};
use common::{assert_close, fixture, matrix};

const TOL: f64 = 1e-9;

#[test]
fn every_intermediate_of_every_pytorch_case() {
    let cases = fixture("attention_cases.json")["cases"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(cases.len(), 50);
    for (n, case) in cases.iter().enumerate() {
        let embedded = matrix(&case["embedding"]);
        let causal = case["causal"].as_bool().unwrap();
        let scale = Scale::from_key(case["scale"].as_str().unwrap()).unwrap();
        let mut traces = Vec::new();
        for (h, expected) in case["heads"].as_array().unwrap().iter().enumerate() {
            let head = Head {
                w_query: matrix(&expected["w_query"]),
                w_key: matrix(&expected["w_key"]),
                w_value: matrix(&expected["w_value"]),
                biases: None,
            };
            let got = attend(&embedded, &head, causal, scale);
            let check = |name: &str, actual: &nalgebra::DMatrix<f64>| {
                assert_close(
                    &format!("case {n} head {h} {name}"),
                    actual,
                    &matrix(&expected[name]),
                    TOL,
                )
            };
            check("queries", &got.queries);
            check("keys", &got.keys);
            check("values", &got.values);
            check("scores", &got.scores);
            check("scaled_scores", &got.scaled_scores);
            check("weights_unmasked", &softmax_rows(&got.scaled_scores));
            check("masked_scores", &got.masked_scores);
            check("weights", &got.weights);
            check("context", &got.context);
            if causal {
                check(
                    "masked_weights_simple",
                    &got.causal_methods.as_ref().unwrap().simple,
                );
                check(
                    "masked_weights_renormalized",
                    &got.causal_methods.as_ref().unwrap().renormalized,
                );
            } else {
                assert!(got.causal_methods.is_none());
            }
            traces.push(got);
        }
        assert_close(
            &format!("case {n} output"),
            &concat_columns(&traces.iter().map(|t| &t.context).collect::<Vec<_>>()),
            &matrix(&case["output"]),
            TOL,
        );
    }
}

#[test]
fn huge_scores_give_no_nan_weights() {
    let cases = fixture("attention_cases.json")["cases"]
        .as_array()
        .unwrap()
        .clone();
    let mut underflowing = 0;
    for case in &cases {
        for expected in case["heads"].as_array().unwrap() {
            if expected["renormalized_matches_weights"] == false {
                underflowing += 1;
                let head = Head {
                    w_query: matrix(&expected["w_query"]),
                    w_key: matrix(&expected["w_key"]),
                    w_value: matrix(&expected["w_value"]),
                    biases: None,
                };
                let got = attend(
                    &matrix(&case["embedding"]),
                    &head,
                    true,
                    Scale::from_key(case["scale"].as_str().unwrap()).unwrap(),
                );
                assert!(
                    got.weights.iter().all(|w| w.is_finite()),
                    "the −∞ method stays finite"
                );
            }
        }
    }
    assert!(
        underflowing > 0,
        "the fixtures include cases where the unmasked softmax underflows"
    );
}

#[test]
fn score_terms_spell_out_the_dot_product() {
    let trace = Trace::of(&dog());
    let terms = trace.score_terms(0, 6, 1).unwrap();
    assert_eq!((terms.query.as_str(), terms.key.as_str()), ("she", "dog"));
    assert_eq!(
        terms.describe(2),
        "she·dog = 2.64×2.88 + 1.46×3.06 + 0.94×1.89 = 13.83"
    );
    let sum: f64 = terms.terms.iter().map(|(q, k)| q * k).sum();
    assert!((sum - terms.total).abs() < 1e-12);
    assert!(trace.score_terms(0, 9, 0).is_none() && trace.score_terms(1, 0, 0).is_none());
}

#[test]
fn context_terms_spell_out_the_weighted_sum() {
    let trace = Trace::of(&dog());
    let terms = trace.context_terms(0, 6).unwrap();
    let described = terms.describe(3);
    assert!(
        described.starts_with("context(she) = 0.883 × dog + 0.087 × ball + "),
        "{described}"
    );
    assert!(
        !described.contains("was") && !described.contains("happy"),
        "masked tokens have weight 0: {described}"
    );
    for c in 0..terms.total.len() {
        let sum: f64 = terms.terms.iter().map(|(_, w, v)| w * v[c]).sum();
        assert!((sum - terms.total[c]).abs() < 1e-12);
    }
}

#[test]
fn refresh_recomputes_only_what_an_edit_touched_and_equals_a_full_trace() {
    use attention_explorer::core::model::{Editable, Projection};
    let mut model = attention_explorer::core::model::presets::raschka_multihead();
    let (first, changed) = Trace::refresh(None, &model);
    assert!(changed);
    // Writing the same number changes nothing downstream.
    let (same, changed) = Trace::refresh(Some(first.clone()), &model);
    assert!(!changed);
    assert_eq!(same, first);

    let edits = [
        (Editable::Weight(2, Projection::Key), 1, 0, 0.75),
        (Editable::Weight(0, Projection::Value), 2, 0, -3.0),
        (Editable::Embedding, 4, 2, 2.5),
    ];
    let mut trace = first;
    for (target, i, j, x) in edits {
        let before = trace.clone();
        model.set(target, i, j, x);
        let (next, changed) = Trace::refresh(Some(trace), &model);
        assert!(changed);
        assert_eq!(next, Trace::of(&model));
        if let Editable::Weight(h, _) = target {
            for other in (0..4).filter(|&o| o != h) {
                assert_eq!(
                    next.heads[other], before.heads[other],
                    "head {other} untouched"
                );
            }
        }
        trace = next;
    }
    model.causal = true;
    let (next, _) = Trace::refresh(Some(trace), &model);
    assert_eq!(next, Trace::of(&model));
}

#[test]
fn refresh_after_an_embedding_edit_equals_a_full_trace_at_size() {
    use attention_explorer::core::model::{Dims, Editable, Model};
    // A repeated word: editing its embedding row moves two tokens.
    let sentence = "w1 w2 w3 w1 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w1";
    let dims = Dims {
        d_in: 64,
        d_k: 16,
        d_v: 16,
        heads: 3,
    };
    let mut model = Model::seeded(sentence, dims, 7, true, Scale::SqrtDk).unwrap();
    let (mut trace, _) = Trace::refresh(None, &model);
    let w1 = model
        .tokens()
        .vocabulary
        .iter()
        .position(|w| w == "w1")
        .unwrap();
    for (row, col, x) in [(w1, 3, 0.25), (0, 63, -2.0), (w1, 0, 1e-3)] {
        model.set(Editable::Embedding, row, col, x);
        let (next, changed) = Trace::refresh(Some(trace), &model);
        assert!(changed);
        assert_eq!(
            next,
            Trace::of(&model),
            "bit for bit, as a reload computes it"
        );
        trace = next;
    }
}
