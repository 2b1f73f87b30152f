//! `cargo bench --bench trace`: how long one full trace takes at tutorial and at maximum sizes.
//! A measurement, not a test: it asserts nothing about time.

use std::hint::black_box;
use std::time::Instant;

use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::limits::{MAX_HEADS, MAX_TOKENS};
use attention_explorer::core::model::presets::{dog, raschka_multihead};
use attention_explorer::core::model::{Dims, Model, Scale};

fn sentence(n: usize) -> String {
    (0..n)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn time(name: &str, model: &Model) {
    let runs = (2_000_000
        / (model.tokens().len().pow(2) * model.heads().len() * model.dims().d_k.max(1)))
    .clamp(5, 20_000);
    let start = Instant::now();
    for _ in 0..runs {
        black_box(Trace::of(black_box(model)));
    }
    let per = start.elapsed().as_secs_f64() / runs as f64;
    println!("{name:<44} {:>10.1} µs per trace ({runs} runs)", per * 1e6);
}

fn main() {
    time("dog (9 tokens, 1 head, d 2→3)", &dog());
    time(
        "raschka-multihead (6 tokens, 4 heads)",
        &raschka_multihead(),
    );
    let mid = Model::seeded(
        &sentence(16),
        Dims {
            d_in: 16,
            d_k: 16,
            d_v: 16,
            heads: 4,
        },
        1,
        true,
        Scale::SqrtDk,
    )
    .unwrap();
    time("16 tokens, 4 heads, d 16", &mid);
    let max = Model::seeded(
        &sentence(MAX_TOKENS),
        Dims {
            d_in: 128,
            d_k: 128,
            d_v: 128,
            heads: MAX_HEADS,
        },
        1,
        true,
        Scale::SqrtDk,
    )
    .unwrap();
    time("64 tokens, 16 heads, d 128 (the limits)", &max);
}
