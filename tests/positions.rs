//! Word order (`core::positions`, `core::order`): the 30 PyTorch cases of
//! `tests/fixtures/position_cases.json` (no positions, sinusoidal, learned, RoPE in both
//! conventions) through the core and `attention-trace --state`; permutation equivariance and
//! RoPE's shift property as property tests; bad positions refused with messages; gradients
//! through positions against finite differences; the order lab's reorderings.
#![cfg(not(target_arch = "wasm32"))] // proptest and processes: native only

mod common;

use attention_explorer::core::formats::state::{read_state, write_state};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::positions::{rotate_from, PositionKind, Positions, Rope};
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::{Dims, Editable, Model, Projection, Scale};
use attention_explorer::core::teaching::order::{
    both_conventions, largest_weight_difference, order, output_moves, reordered, rope_shift_diff,
    Reorder,
};
use attention_explorer::core::training::{gradients, Objective};
use common::{assert_close, attention_trace, fixture, matrix};
use nalgebra::DMatrix;
use proptest::prelude::*;
use serde_json::{json, Value};

fn cases() -> Vec<Value> {
    fixture("position_cases.json")["cases"]
        .as_array()
        .unwrap()
        .clone()
}

fn check(c: usize, trace: &Value, case: &Value) {
    let kind = case["state"]["positions"]["kind"].as_str().unwrap();
    if matches!(kind, "sinusoidal" | "learned") {
        assert_close(
            &format!("case {c} positioned"),
            &matrix(&trace["positioned"]),
            &matrix(&case["positioned"]),
            1e-9,
        );
    }
    for (h, want) in case["weights"].as_array().unwrap().iter().enumerate() {
        assert_close(
            &format!("case {c} ({kind}) head {h} weights"),
            &matrix(&trace["heads"][h]["weights"]),
            &matrix(want),
            1e-9,
        );
    }
    assert_close(
        &format!("case {c} ({kind}) output"),
        &matrix(&trace["output"]),
        &matrix(&case["output"]),
        1e-9,
    );
}

#[test]
fn every_kind_equals_pytorch_in_the_core_and_the_command() {
    for (c, case) in cases().iter().enumerate() {
        let model = read_state(&case["state"].to_string()).expect("the fixture reads");
        let trace = attention_explorer::core::formats::report::trace_json(&Trace::of(&model));
        check(c, &trace, case);
        // A written state reads back to the same model.
        assert_eq!(read_state(&write_state(&model)).unwrap(), model, "case {c}");
    }
    for (c, case) in cases().iter().enumerate().step_by(4) {
        let out = attention_trace(&["--state", "-"], &case["state"].to_string());
        assert!(out.status.success());
        check(c, &serde_json::from_slice(&out.stdout).unwrap(), case);
    }
}

#[test]
fn the_two_conventions_differ_from_d_k_4() {
    let case = cases()
        .into_iter()
        .find(|c| {
            c["state"]["positions"]["kind"] == "rope_half"
                && c["state"]["heads"][0]["w_query"][0]
                    .as_array()
                    .unwrap()
                    .len()
                    == 4
        })
        .unwrap();
    let model = read_state(&case["state"].to_string()).unwrap();
    let [half, interleaved] = both_conventions(&model).unwrap();
    assert!(largest_weight_difference(&half, &interleaved) > 1e-6);
    assert_eq!(half.heads[0].weights, Trace::of(&model).heads[0].weights);
}

#[test]
fn bad_positions_are_named() {
    let mut state: Value = serde_json::from_str(&write_state(&dog())).unwrap();
    for (positions, says) in [
        (
            json!({"kind": "spiral"}),
            "positions.kind: unknown kind “spiral”",
        ),
        (
            json!({"kind": "sinusoidal", "base": 0}),
            "positions.base: the base must be a number above 1",
        ),
        (
            json!({"kind": "sinusoidal", "base": "big"}),
            "positions.base: must be a number",
        ),
        (
            json!({"kind": "learned", "learned": [[1.0, 2.0]]}),
            "positions.learned: has 1 rows, expected 9",
        ),
        (json!({"kind": "learned"}), "positions.learned: missing"),
        (
            json!({"kind": "rope_half", "base": 100}),
            "positions: RoPE rotates pairs of components, so d_k must be even; head 0 has d_k = 3",
        ),
        (
            json!({"kind": "none", "angle": 1}),
            "positions.angle: unknown field",
        ),
        (
            json!("none"),
            "positions: invalid type: string \"none\", expected an object",
        ),
    ] {
        state["version"] = json!(2);
        state["positions"] = positions;
        let err = read_state(&state.to_string()).unwrap_err().to_string();
        assert!(err.starts_with(says), "{err:?} should start with {says:?}");
    }
    // An odd d_k with RoPE on is refused as an edit too, with the same words.
    let rope = dog()
        .resized(
            Dims {
                d_in: 2,
                d_k: 4,
                d_v: 3,
                heads: 1,
            },
            1,
        )
        .unwrap()
        .with_positions_of(PositionKind::RopeHalf, 100.0, 1)
        .unwrap();
    let err = rope
        .resized(
            Dims {
                d_in: 2,
                d_k: 3,
                d_v: 3,
                heads: 1,
            },
            1,
        )
        .unwrap_err();
    let err = err.english();
    assert!(err.contains("d_k must be even"), "{err}");
}

#[test]
fn learned_positions_belong_to_places() {
    let model = dog()
        .with_positions_of(PositionKind::Learned, 1e4, 7)
        .unwrap();
    let Positions::Learned(table) = model.positions().clone() else {
        panic!()
    };
    assert_eq!(table.shape(), (9, 2));
    let longer = model
        .with_sentence(
            &format!("{} again", model.sentence()),
            7,
            &Default::default(),
        )
        .unwrap();
    let Positions::Learned(grown) = longer.positions().clone() else {
        panic!()
    };
    assert_eq!(grown.rows(0, 9), table.rows(0, 9), "places kept their rows");
    assert_eq!(grown.nrows(), 10);
}

#[test]
fn gradients_go_through_positions() {
    for kind in [
        PositionKind::Learned,
        PositionKind::RopeHalf,
        PositionKind::RopeInterleaved,
        PositionKind::Sinusoidal,
    ] {
        let base = dog()
            .resized(
                Dims {
                    d_in: 2,
                    d_k: 4,
                    d_v: 3,
                    heads: 1,
                },
                3,
            )
            .unwrap()
            .with_positions_of(kind, 100.0, 3)
            .unwrap();
        let objective = Objective::from_value(
            &json!({"attend": [{"head": 0, "query": 6, "key": 2}]}),
            &base,
        )
        .unwrap();
        let g = gradients(&base, &objective);
        let mut targets = vec![
            (
                Editable::Weight(0, Projection::Query),
                g.heads[0].w_query.clone(),
            ),
            (Editable::Embedding, g.embedding.clone()),
        ];
        if kind == PositionKind::Learned {
            targets.push((Editable::Positions, g.positions.clone().unwrap()));
        }
        for (target, grad) in targets {
            common::assert_gradient(kind.key(), &base, target, &grad, |m| {
                gradients(m, &objective).loss
            });
        }
    }
}

#[test]
fn a_shuffle_always_moves_something_and_keeps_every_word() {
    for n in 2..12 {
        for seed in 0..20 {
            let o = order(n, Reorder::Shuffle(seed));
            assert_ne!(o, (0..n).collect::<Vec<_>>(), "n {n} seed {seed}");
            let mut sorted = o.clone();
            sorted.sort();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
            assert_eq!(order(n, Reorder::ShuffleAfterFirst(seed))[0], 0);
        }
    }
    assert_eq!(order(3, Reorder::Reverse), vec![2, 1, 0]);
    assert_eq!(order(3, Reorder::Swap(0, 2)), vec![2, 1, 0]);
}

#[test]
fn under_the_mask_the_first_word_does_not_see_the_others_move() {
    let model = dog();
    let o = order(model.tokens().len(), Reorder::ShuffleAfterFirst(4));
    let after = reordered(&model, &o).unwrap();
    let moves = output_moves(&Trace::of(&model), &Trace::of(&after), &o);
    assert!(moves[0] <= 1e-15, "{moves:?}");
    assert!(
        moves.iter().any(|&d| d > 1e-3),
        "later words see the order through the mask"
    );
}

fn seeded(words: usize, seed: u64) -> Model {
    let sentence: Vec<String> = (0..words).map(|i| format!("w{i}")).collect();
    Model::seeded(
        &sentence.join(" "),
        Dims {
            d_in: 4,
            d_k: 4,
            d_v: 3,
            heads: 2,
        },
        seed,
        false,
        Scale::SqrtDk,
    )
    .unwrap()
}

proptest! {
    #[test]
    fn without_positions_attention_only_moves_the_rows(words in 2usize..10, seed in 0u64..1000, shuffle in 0u64..1000) {
        let model = seeded(words, seed);
        let o = order(words, Reorder::Shuffle(shuffle));
        let after = reordered(&model, &o).unwrap();
        let moves = output_moves(&Trace::of(&model), &Trace::of(&after), &o);
        prop_assert!(moves.iter().all(|&d| d <= 1e-12), "{:?}", moves);
        for kind in [PositionKind::Sinusoidal, PositionKind::Learned, PositionKind::RopeHalf] {
            let with = model.with_positions_of(kind, 10_000.0, seed).unwrap();
            let after = reordered(&with, &o).unwrap();
            let moves = output_moves(&Trace::of(&with), &Trace::of(&after), &o);
            prop_assert!(moves.iter().any(|&d| d > 1e-9), "{}: {:?}", kind.key(), moves);
        }
    }

    #[test]
    fn a_rope_score_depends_only_on_the_distance(
        q in proptest::collection::vec(-3.0f64..3.0, 6),
        k in proptest::collection::vec(-3.0f64..3.0, 6),
        p in 0usize..40, r in 0usize..40, shift in 0usize..40,
        interleaved in any::<bool>(),
    ) {
        let pairs = if interleaved { Rope::Interleaved } else { Rope::Half };
        let (q, k) = (DMatrix::from_row_slice(1, 6, &q), DMatrix::from_row_slice(1, 6, &k));
        let score = |p, r| {
            rotate_from(&q, 10_000.0, pairs, p).dot(&rotate_from(&k, 10_000.0, pairs, r))
        };
        let (here, there) = (score(p, r), score(p + shift, r + shift));
        prop_assert!((here - there).abs() <= 1e-9 * (1.0 + here.abs()), "{} against {}", here, there);
    }
}

#[test]
fn the_lab_s_shift_figure_is_zero_to_rounding() {
    let model = seeded(6, 3)
        .with_positions_of(PositionKind::RopeInterleaved, 100.0, 3)
        .unwrap();
    let d = rope_shift_diff(&model, &Trace::of(&model), 0, 3).unwrap();
    assert!(d <= 1e-12, "{d}");
    assert_eq!(
        rope_shift_diff(&dog(), &Trace::of(&dog()), 0, 3),
        None,
        "odd d_k"
    );
}

/// "Copy as PyTorch" of every kind, run by torch when it is installed (`PYTHON`; else it says
/// so and passes: CI's machine has no torch): its output equals the page's.
#[test]
fn the_pytorch_script_of_every_kind_computes_the_same_output() {
    for case in cases().iter().step_by(2) {
        let model = read_state(&case["state"].to_string()).unwrap();
        let Some(got) = common::torch_output(&model) else {
            return;
        };
        let kind = case["state"]["positions"]["kind"].as_str().unwrap();
        assert_close(
            &format!("torch's output ({kind})"),
            &got,
            &Trace::of(&model).output,
            1e-12,
        );
    }
}

#[test]
fn adam_steps_past_a_matrix_without_a_gradient() {
    use attention_explorer::core::training::{train, Optimizer};
    // W_output gets no gradient from an attention target; the learned table after it still trains.
    let model = dog()
        .with_positions_of(PositionKind::Learned, 1e4, 2)
        .unwrap()
        .with_output_on(true, 2)
        .unwrap();
    let objective = Objective::from_value(
        &json!({"attend": [{"head": 0, "query": 6, "key": 1}]}),
        &model,
    )
    .unwrap();
    let run = train(&model, &objective, Optimizer::Adam { lr: 0.05 }, 3);
    let (losses, trained) = (run.losses, run.model);
    assert!(losses[3] < losses[0], "{losses:?}");
    assert_ne!(trained.positions(), model.positions(), "the table trained");
    assert_eq!(trained.output(), model.output(), "W_output had no gradient");
}

#[test]
fn positions_do_not_go_out_as_a_multihead_attention() {
    // Shaped as PyTorch's module (d_k = d_v = E/H): only the positions are in the way.
    let model = dog()
        .resized(
            Dims {
                d_in: 2,
                d_k: 2,
                d_v: 2,
                heads: 1,
            },
            1,
        )
        .unwrap();
    assert!(attention_explorer::core::formats::multihead::to_state_dict(&model).is_ok());
    let model = model
        .with_positions_of(PositionKind::Sinusoidal, 1e4, 1)
        .unwrap();
    let err = attention_explorer::core::formats::multihead::to_state_dict(&model)
        .unwrap_err()
        .english();
    assert!(err.contains("no positions"), "{err}");
}

/// The order lab's outcome, natively: reversed without positions (and without the mask) every
/// word's output row is the same numbers in its new place; with sinusoidal positions they move.
#[test]
fn the_order_labs_outcome_says_which_rows_moved() {
    use attention_explorer::core::teaching::order::{outcome, Reorder};
    let model = dog();
    let plain = outcome(&model, Reorder::Reverse, false).unwrap();
    assert_eq!(plain.before, model.sentence());
    assert_eq!(plain.rows.len(), model.tokens().len());
    let last = plain.rows.len() - 1;
    assert_eq!((plain.rows[0].1, plain.rows[0].2), (0, last));
    assert!(plain.largest < 1e-12, "{}", plain.largest);
    let placed = model
        .with_positions_of(PositionKind::Sinusoidal, 10_000.0, 0)
        .unwrap();
    let moved = outcome(&placed, Reorder::Reverse, false).unwrap();
    assert!(moved.largest > 1e-3, "{}", moved.largest);
    assert_eq!(
        moved.largest,
        moved.rows.iter().map(|r| r.3).fold(0.0, f64::max)
    );
}
