//! `cargo bench --bench pretrained`: the trained encoder (all-MiniLM-L6-v2, from
//! `node www/pretrained.mjs`) on sentences of 8, 16 and 64 tokens: one layer and all six, and the
//! multiply-adds they take, which bound what the page can do after an edit of a layer.
//! A measurement, not a test: it asserts nothing about time.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use attention_explorer::core::pretrained::read_folder;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/pretrained")
        .join(attention_explorer::core::pretrained::SHIPPED.name);
    let Ok(encoder) = read_folder(&dir) else {
        println!(
            "SKIPPED: no trained model in {} (run `node www/pretrained.mjs`)",
            dir.display()
        );
        return;
    };
    let c = &encoder.config;
    for n in [8, 16, 64] {
        // n - 2 words, each one piece, between [CLS] and [SEP].
        let sentence = vec!["word"; n - 2].join(" ");
        let trace = encoder.run(&sentence, &[]).unwrap();
        let x = &trace.embedded;
        let runs = 20;
        let start = Instant::now();
        for _ in 0..runs {
            black_box(encoder.run_layer(0, black_box(x), &[]));
        }
        let layer = start.elapsed().as_secs_f64() / f64::from(runs);
        let start = Instant::now();
        for _ in 0..runs {
            black_box(encoder.run(black_box(&sentence), &[]).unwrap());
        }
        let all = start.elapsed().as_secs_f64() / f64::from(runs);
        // Q, K, V and the output projection; the scores and the weighted sums; the FFN.
        let (h, f) = (c.hidden, c.intermediate);
        let macs = 4 * n * h * h + 2 * n * n * h + 2 * n * h * f;
        println!(
            "{n:>2} tokens: one layer {:>7.2} ms, {} layers {:>7.2} ms; {:.1} M multiply-adds a layer, {:.2} G/s",
            layer * 1e3,
            c.layers,
            all * 1e3,
            macs as f64 / 1e6,
            macs as f64 / layer / 1e9
        );
    }
}
