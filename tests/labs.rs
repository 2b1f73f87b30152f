//! `core::labs`: the scaling comparison shown beside the scaled scores.

use attention_explorer::core::labs::scaling_effects;
use attention_explorer::core::model::{Head, Model, Scale};
use attention_explorer::core::presets::raschka;
use attention_explorer::core::torch_rng::TorchRng;
use attention_explorer::core::trace::Trace;

/// Standard normal rows: queries and keys then have unit-variance components, as the
/// √dₖ argument assumes.
fn normal(rng: &mut TorchRng, rows: usize, cols: usize, scale: f64) -> nalgebra::DMatrix<f64> {
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
