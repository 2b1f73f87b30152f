//! The KV cache and FlashAttention labs on random models (proptest): decoding with a cache and
//! the tiled online softmax give the full computation's numbers.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::positions::PositionKind;
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::{Dims, Model, Scale, Source};
use attention_explorer::core::teaching::{flash, kv_cache};
use proptest::prelude::*;

const WORDS: [&str; 8] = ["the", "dog", "ran", "far", "she", "a", "ball", "sat"];

/// A seeded model: 1–10 tokens, sizes 1–5 (d_k even with RoPE), 1–4 heads sharing keys and
/// values in any grouping, any scaling and positions, biases or not.
fn model() -> impl Strategy<Value = Model> {
    (
        prop::collection::vec(0..WORDS.len(), 1..=10),
        (1usize..=5, 1usize..=3, 1usize..=5, 1usize..=4),
        (any::<u64>(), 0usize..4, 0usize..4, any::<bool>(), 0usize..3),
    )
        .prop_map(
            |(ids, (d_in, half_k, d_v, heads), (seed, kv, positions, biases, scale))| {
                let sentence: Vec<&str> = ids.iter().map(|&i| WORDS[i]).collect();
                let kind = PositionKind::ALL[positions];
                let dims = Dims {
                    d_in,
                    d_k: 2 * half_k,
                    d_v,
                    heads,
                };
                let divisors: Vec<usize> = (1..=heads).filter(|g| heads % g == 0).collect();
                Model::seeded(&sentence.join(" "), dims, seed, true, Scale::ALL[scale])
                    .unwrap()
                    .with_biases_on(biases, seed ^ 1)
                    .unwrap()
                    .with_positions_of(kind, 10_000.0, seed)
                    .unwrap()
                    .with_kv_heads(divisors[kv % divisors.len()])
                    .unwrap()
            },
        )
}

proptest! {
    #[test]
    fn decoding_with_the_cache_gives_the_full_rows(model in model()) {
        let trace = Trace::of(&model);
        for head in 0..model.heads().len() {
            for t in 0..model.tokens().len() {
                let step = kv_cache::decode(&model, &trace, head, t).unwrap();
                prop_assert!(step.max_diff <= 1e-12, "head {head} t {t}: {}", step.max_diff);
                prop_assert_eq!(step.keys.nrows(), t + 1);
                prop_assert!(step.macs_cached <= step.macs_full);
            }
        }
    }

    #[test]
    fn the_tiles_give_the_context(model in model(), block in 1usize..=10, causal in any::<bool>(), cross in any::<bool>()) {
        let mut model = model;
        model.causal = causal && !cross;
        if cross {
            let plain = model.clone().with_positions_of(PositionKind::None, 10_000.0, 0).unwrap();
            let source = Source::drawn("a ball sat far", plain.tokens(), plain.embedding(), 3).unwrap();
            model = plain.with_source(Some(source)).unwrap();
        }
        let trace = Trace::of(&model);
        let keys = trace.key_tokens().len();
        let block = block.min(keys);
        for (h, head) in trace.heads.iter().enumerate() {
            let divisor = model.scale.divisor(model.heads()[h].d_k());
            let tiles = flash::walk(head, divisor, model.causal, block);
            let out = flash::output(&tiles, head.context.nrows(), head.context.ncols());
            let diff = (&out - &head.context).abs().max();
            prop_assert!(diff <= 1e-12, "head {h} block {block}: {diff}");
            // The mask skips exactly the tiles wholly above the diagonal.
            let skipped = tiles.iter().filter(|t| t.skipped).count();
            let above = tiles.iter().filter(|t| model.causal && t.keys.0 >= t.rows.1).count();
            prop_assert_eq!(skipped, above);
        }
    }
}

#[test]
fn the_labs_refuse_what_they_cannot_show() {
    let mut model = dog();
    assert!(kv_cache::refusal(&model).is_none());
    model.causal = false;
    assert!(kv_cache::refusal(&model).unwrap().0.en.contains("causal"));
    // 0 and past the keys are refused with the same range.
    for typed in ["0", "10", "100"] {
        assert!(flash::read_block(typed, 9)
            .unwrap_err()
            .english()
            .contains("use a whole number from 1 to 9"));
    }
    assert_eq!(flash::read_block("3", 9), Ok(3));
    assert_eq!(flash::numbers_held(2, 3, 9, 9), (10, 81));
    // The query whose maximum a tile raised most: the smallest rescaling below 1.
    let tile = |rescale: Vec<f64>| flash::FlashTile {
        rows: (0, 3),
        keys: (3, 6),
        skipped: false,
        scores: nalgebra::DMatrix::zeros(3, 3),
        m: vec![0.0; 3],
        l: vec![1.0; 3],
        o: nalgebra::DMatrix::zeros(3, 2),
        rescale,
    };
    assert_eq!(tile(vec![1.0, 0.5, 0.2]).most_rescaled(), Some(2));
    assert_eq!(tile(vec![1.0, 1.0, 1.0]).most_rescaled(), None);
    // A tile is never wider than the keys.
    assert_eq!(
        flash::numbers_held(12, 3, 9, 9),
        flash::numbers_held(9, 3, 9, 9)
    );
    // The dog's "she" (token 6) decoded at step 6 looks at "dog" as the page does.
    let model = dog();
    let trace = Trace::of(&model);
    let step = kv_cache::decode(&model, &trace, 0, 6).unwrap();
    assert!((step.weights[(0, 1)] - 0.883).abs() < 5e-4);
    // With the cache: the new token's q, k, v and a row of 7 keys; without: 7 tokens' q, k, v
    // and, under the mask, 1 + 2 + … + 7 = 28 query–key pairs.
    let (cached, full) = kv_cache::macs(&model, 6);
    let d = model.dims();
    let (projections, per_key) = (d.d_in * (2 * d.d_k + d.d_v), d.d_k + d.d_v);
    assert_eq!(cached, projections + 7 * per_key);
    assert_eq!(full, 7 * projections + 28 * per_key);
    // A model without the mask or with a source is not decoded.
    let mut open = dog();
    open.causal = false;
    assert!(kv_cache::decode(&open, &Trace::of(&open), 0, 3).is_none());
}
