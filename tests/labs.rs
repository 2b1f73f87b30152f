//! `core::labs` and `core::sqrt_dk`: the numbers behind the scaling comparison, the √dₖ lab,
//! the masking lab (against PyTorch's verdicts) and the heads' picks.

mod common;

use attention_explorer::core::forward::trace::{attend, Trace};
use attention_explorer::core::model::presets::{dog, raschka, raschka_multihead};
use attention_explorer::core::model::torch_rng::TorchRng;
use attention_explorer::core::model::{Head, Model, Scale};
use attention_explorer::core::teaching::labs::{
    allclose, most_attended, scaling_effects, MaskComparison,
};
use attention_explorer::core::teaching::sqrt_dk::{
    dk_at, entropy, log_fraction, plot_dks, slider_position, softmax_jacobian_norm,
    theory_variance, Sample, DK_MAX, DK_MIN, ROW_LEN, SEED_DEFAULT,
};
use common::{assert_close, fixture, matrix};
use nalgebra::DMatrix;

/// Standard normal rows: queries and keys then have unit-variance components, as the
/// √dₖ argument assumes.
fn normal(rng: &mut TorchRng, rows: usize, cols: usize, scale: f64) -> DMatrix<f64> {
    rng.embedding_rows(rows, cols, &(0..rows).collect::<Vec<_>>()) * scale
}

#[test]
fn sqrt_dk_sits_between_saturated_and_flat() {
    // Wide keys (d_k = 64) make the unscaled scores large: their spread is about √64 = 8.
    let mut rng = TorchRng::manual_seed(7);
    let embedding = normal(&mut rng, 8, 64, 1.0);
    let head = Head {
        w_query: normal(&mut rng, 64, 64, 0.125),
        w_key: normal(&mut rng, 64, 64, 0.125),
        w_value: normal(&mut rng, 64, 2, 0.125),
        biases: None,
    };
    let model = Model::new(
        "a b c d e f g h",
        embedding,
        vec![head],
        false,
        Scale::SqrtDk,
    )
    .unwrap();
    let effects = scaling_effects(&Trace::of(&model), model.causal);
    let by = |s: Scale| effects.iter().find(|e| e.scale == s).unwrap().clone();
    let (sqrt, dk, none) = (by(Scale::SqrtDk), by(Scale::Dk), by(Scale::None));
    assert!(
        none.top_weight > 0.75,
        "unscaled nearly saturates: {}",
        none.top_weight
    );
    assert!(
        dk.top_weight < 1.0 / 8.0 + 0.1,
        "dividing by d_k flattens: {}",
        dk.top_weight
    );
    assert!(
        (sqrt.spread - 1.0).abs() < 0.5,
        "√d_k keeps the spread near 1: {}",
        sqrt.spread
    );
    assert!(dk.top_weight < sqrt.top_weight && sqrt.top_weight < none.top_weight);
    assert!((none.spread / sqrt.spread - 8.0).abs() < 1e-9, "√64 = 8");
    assert!((sqrt.spread / dk.spread - 8.0).abs() < 1e-9);
}

#[test]
fn lists_every_scaling_in_order() {
    let effects = scaling_effects(&Trace::of(&raschka()), false);
    assert_eq!(
        effects.iter().map(|e| e.scale).collect::<Vec<_>>(),
        Scale::ALL
    );
    // d_k = 2: √2 and 2 differ by √2 in spread.
    assert!((effects[0].spread / effects[1].spread - 2f64.sqrt()).abs() < 1e-9);
}

#[test]
fn measured_variance_is_within_ten_percent_of_theory_over_the_whole_range() {
    let sample = Sample::draw(SEED_DEFAULT);
    for dk in DK_MIN..=DK_MAX {
        for scale in Scale::ALL {
            let (measured, theory) = (sample.variance(dk, scale), theory_variance(dk, scale));
            assert!(
                (measured / theory - 1.0).abs() < 0.1,
                "d_k = {dk}, {scale:?}: measured {measured}, theory {theory}"
            );
        }
        assert_eq!(theory_variance(dk, Scale::None), dk as f64);
        assert!((theory_variance(dk, Scale::SqrtDk) - 1.0).abs() < 1e-12);
        assert!((theory_variance(dk, Scale::Dk) * dk as f64 - 1.0).abs() < 1e-12);
    }
}

#[test]
fn other_seeds_also_stay_within_ten_percent() {
    for seed in [0, 2, 3, 123] {
        let sample = Sample::draw(seed);
        for dk in [1, 3, 64, 500, 1024] {
            let measured = sample.variance(dk, Scale::SqrtDk);
            assert!(
                (measured - 1.0).abs() < 0.1,
                "seed {seed}, d_k = {dk}: {measured}"
            );
        }
    }
}

#[test]
fn largest_weight_and_entropy_move_as_the_text_says_when_dk_grows() {
    let sample = Sample::draw(SEED_DEFAULT);
    let uniform_entropy = (ROW_LEN as f64).ln();
    // Each quadrupling of d_k: unscaled rows sharpen, ÷d_k rows flatten.
    let dks = [1, 4, 16, 64, 256, 1024];
    for pair in dks.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let none = (
            sample.row_stats(a, Scale::None),
            sample.row_stats(b, Scale::None),
        );
        assert!(none.1.max_weight > none.0.max_weight, "none, {a} → {b}");
        assert!(none.1.entropy < none.0.entropy, "none, {a} → {b}");
        let dk = (
            sample.row_stats(a, Scale::Dk),
            sample.row_stats(b, Scale::Dk),
        );
        assert!(dk.1.max_weight < dk.0.max_weight, "÷d_k, {a} → {b}");
        assert!(dk.1.entropy > dk.0.entropy, "÷d_k, {a} → {b}");
    }
    // At 1024: unscaled is nearly one-hot with little gradient, ÷d_k nearly uniform, ÷√d_k neither.
    let (none, sqrt, dk) = (
        sample.row_stats(1024, Scale::None),
        sample.row_stats(1024, Scale::SqrtDk),
        sample.row_stats(1024, Scale::Dk),
    );
    assert!(none.max_weight > 0.9 && none.entropy < 0.2, "{none:?}");
    assert!(dk.max_weight < 1.2 / ROW_LEN as f64, "{dk:?}");
    assert!(uniform_entropy - dk.entropy < 0.01, "{dk:?}");
    assert!(none.max_weight > sqrt.max_weight && sqrt.max_weight > dk.max_weight);
    assert!(none.entropy < sqrt.entropy && sqrt.entropy < dk.entropy);
    assert!(
        sqrt.jacobian_norm > 4.0 * none.jacobian_norm,
        "{sqrt:?} {none:?}"
    );
    // ÷√d_k keeps the row the same shape whatever d_k: within 0.1 of its value at d_k = 1.
    let at_one = sample.row_stats(1, Scale::SqrtDk);
    for d in dks {
        let s = sample.row_stats(d, Scale::SqrtDk);
        assert!(
            (s.max_weight - at_one.max_weight).abs() < 0.1,
            "d_k = {d}: {s:?}"
        );
        assert!((s.entropy - at_one.entropy).abs() < 0.1, "d_k = {d}: {s:?}");
    }
}

#[test]
fn jacobian_norm_and_entropy_by_hand() {
    let p = [0.5, 0.3, 0.2];
    // J = diag(p) − p pᵀ, built in full.
    let j = DMatrix::from_fn(3, 3, |a, b| if a == b { p[a] } else { 0.0 } - p[a] * p[b]);
    assert!((softmax_jacobian_norm(&p) - j.norm()).abs() < 1e-15);
    assert_eq!(softmax_jacobian_norm(&[1.0, 0.0, 0.0]), 0.0);
    let expected = -(0.5f64 * 0.5f64.ln() + 0.3 * 0.3f64.ln() + 0.2 * 0.2f64.ln());
    assert!((entropy(&p) - expected).abs() < 1e-15);
    assert_eq!(entropy(&[1.0, 0.0]), 0.0);
    assert!((entropy(&[0.25; 4]) - 4f64.ln()).abs() < 1e-15);
}

#[test]
fn the_slider_is_logarithmic_and_clamped() {
    for dk in [1, 2, 3, 64, 100, 1000, 1024] {
        assert_eq!(dk_at(slider_position(dk)), dk);
    }
    assert_eq!(dk_at(f64::NAN), DK_MIN);
    assert_eq!(dk_at(99.0), DK_MAX);
    assert_eq!(dk_at(-5.0), DK_MIN);
    assert_eq!(slider_position(4096), 10.0);
    // The plot's curves run from 1 to 1024 without repeating a point.
    let dks = plot_dks();
    assert_eq!((dks[0], *dks.last().unwrap()), (1, DK_MAX));
    assert!(dks.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(log_fraction(1.0, 1.0, 1024.0), 0.0);
    assert_eq!(log_fraction(1024.0, 1.0, 1024.0), 1.0);
    assert!((log_fraction(32.0, 1.0, 1024.0) - 0.5).abs() < 1e-15);
}

/// The values the end-to-end test expects on the page (`EXPECTED` in `tests/e2e/labs.test.mjs`,
/// copied from here): (d_k, scaling, variance, largest weight, entropy) with the default sample.
const E2E_EXPECTED: [(usize, Scale, f64, f64, f64); 6] = [
    (
        64,
        Scale::None,
        63.40223635752947,
        0.8273058497580112,
        0.4004172772819463,
    ),
    (
        64,
        Scale::SqrtDk,
        0.9906599430863979,
        0.2596204130794796,
        2.3333250640260124,
    ),
    (
        64,
        Scale::Dk,
        0.015479061610724968,
        0.0779792965720033,
        2.765461073152437,
    ),
    (
        256,
        Scale::None,
        253.74791801178267,
        0.9178080321454051,
        0.20744108807992934,
    ),
    (
        256,
        Scale::SqrtDk,
        0.9912028047335261,
        0.2492238257841208,
        2.358441220552268,
    ),
    (
        256,
        Scale::Dk,
        0.003871885955990336,
        0.06964231595044065,
        2.770861368744244,
    ),
];

#[test]
fn numbers_the_end_to_end_test_expects() {
    let sample = Sample::draw(SEED_DEFAULT);
    // The browser's libm may differ from the native one in the last bit of ln, sin and cos.
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
    for (dk, scale, var, max_weight, entropy) in E2E_EXPECTED {
        let row = sample.row_stats(dk, scale);
        assert!(close(sample.variance(dk, scale), var), "{dk} {scale:?}");
        assert!(close(row.max_weight, max_weight), "{dk} {scale:?}");
        assert!(close(row.entropy, entropy), "{dk} {scale:?}");
    }
    // The dog preset's masking lab: renormalising holds at 10² and breaks (0/0) at 10³.
    let scaled = &Trace::of(&dog()).heads[0].scaled_scores;
    assert!(MaskComparison::of(scaled, 1e2).renormalized_ok());
    let broken = MaskComparison::of(scaled, 1e3);
    assert!(!broken.renormalized_ok() && broken.max_diff.is_nan());
}

#[test]
fn masking_verdict_agrees_with_pytorch() {
    let cases = fixture("attention_cases.json")["cases"]
        .as_array()
        .unwrap()
        .clone();
    let (mut broken, mut checked) = (0, 0);
    for (n, case) in cases.iter().enumerate() {
        if !case["causal"].as_bool().unwrap() {
            continue;
        }
        let embedded = matrix(&case["embedding"]);
        let scale = Scale::from_key(case["scale"].as_str().unwrap()).unwrap();
        for (h, expected) in case["heads"].as_array().unwrap().iter().enumerate() {
            let head = Head {
                w_query: matrix(&expected["w_query"]),
                w_key: matrix(&expected["w_key"]),
                w_value: matrix(&expected["w_value"]),
                biases: None,
            };
            let scaled = attend(&embedded, &head, false, scale).scaled_scores;
            let lab = MaskComparison::of(&scaled, 1.0);
            let matches = expected["renormalized_matches_weights"].as_bool().unwrap();
            assert_eq!(lab.renormalized_ok(), matches, "case {n} head {h}");
            assert_eq!(
                lab.max_diff.is_nan() || lab.max_diff > 1e-9,
                !matches,
                "case {n} head {h}"
            );
            // −∞ still equals PyTorch's weights, broken case or not.
            let what = format!("case {n} head {h}");
            assert_close(&what, &lab.neg_inf, &matrix(&expected["weights"]), 1e-9);
            assert_close(
                &what,
                &lab.renormalized,
                &matrix(&expected["masked_weights_renormalized"]),
                1e-9,
            );
            broken += usize::from(!matches);
            checked += 1;
        }
    }
    assert!(
        broken >= 2 && checked > broken,
        "{broken} broken of {checked}"
    );
}

#[test]
fn scaling_the_scores_up_breaks_renormalising_but_not_minus_infinity() {
    let model = dog();
    let scaled = Trace::of(&model).heads[0].scaled_scores.clone();
    let small = MaskComparison::of(&scaled, 1.0);
    assert!(small.renormalized_ok() && small.max_diff < 1e-12);
    let huge = MaskComparison::of(&scaled, 1e4);
    assert!(!huge.renormalized_ok());
    // The −∞ method's rows still sum to 1 and give nothing to the future.
    for (i, row) in huge.neg_inf.row_iter().enumerate() {
        assert!((row.sum() - 1.0).abs() < 1e-12);
        assert!(row.iter().skip(i + 1).all(|&w| w == 0.0));
    }
    assert!(huge.failing.iter().any(|&f| f));
    assert!(allclose(1.0, 1.0 + 1e-6) && !allclose(1.0, 1.0001) && !allclose(f64::NAN, f64::NAN));
}

#[test]
fn each_head_attends_to_its_own_key() {
    let trace = Trace::of(&raschka_multihead());
    let picks = most_attended(&trace, 1).unwrap();
    assert_eq!(picks.len(), 4);
    for (h, &(key, weight)) in picks.iter().enumerate() {
        let row = trace.heads[h].weights.row(1);
        assert_eq!(weight, row.max());
        assert_eq!(row[key], weight);
    }
    assert!(most_attended(&trace, 6).is_none());
}

#[test]
fn lab_figures_keep_four_significant_digits() {
    use attention_explorer::core::text::fmt_significant;
    assert_eq!(fmt_significant(0.9906599430863979, 4), "0.9907");
    assert_eq!(fmt_significant(63.40223635752947, 4), "63.40");
    assert_eq!(fmt_significant(0.003871885955990336, 4), "0.003872");
    assert_eq!(fmt_significant(1.1102230246251565e-16, 4), "1.110e-16");
    assert_eq!(fmt_significant(253.7, 4), "253.7");
    assert_eq!(fmt_significant(f64::NAN, 4), "NaN");
    assert_eq!(fmt_significant(0.0, 4), "0");
}

#[test]
fn under_the_mask_the_scaling_table_reads_only_what_the_softmax_sees() {
    use attention_explorer::core::model::presets::dog;
    use attention_explorer::core::teaching::labs::uniform_top_weight;
    let model = dog();
    let effects = scaling_effects(&Trace::of(&model), true);
    let none = effects.iter().find(|e| e.scale == Scale::None).unwrap();
    // The unscaled scores' spread over the 45 visible ones, not all 81 (with the 36 masked
    // ones it read 2.8774).
    assert_eq!(format!("{:.4}", none.spread), "3.1855");
    // Query i sees i + 1 keys: flat rows average 1/(i + 1), not 1/n = 0.1111.
    assert_eq!(format!("{:.4}", uniform_top_weight(9, true)), "0.3143");
    assert_eq!(uniform_top_weight(9, false), 1.0 / 9.0);
    assert_eq!(uniform_top_weight(0, true), 0.0);
}
