//! `cargo bench --bench train`: one forward + backward + SGD step, per size, beside PyTorch's
//! (float64, CPU, one thread) timed on the same models in the same run when `python3` has torch
//! (`TORCH_PYTHON=/path/to/python` picks another). A measurement, not a test.

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use attention_explorer::core::formats::state::write_state;
use attention_explorer::core::model::limits::{MAX_HEADS, MAX_TOKENS};
use attention_explorer::core::model::presets::{dog, raschka};
use attention_explorer::core::model::{Dims, Model, Scale};
use attention_explorer::core::training::{Objective, Optimizer, Trainer};

fn sentence(n: usize) -> String {
    (0..n)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn seeded(n: usize, d_in: usize, d_k: usize, heads: usize) -> Model {
    let dims = Dims {
        d_in,
        d_k,
        d_v: d_k,
        heads,
    };
    Model::seeded(&sentence(n), dims, 1, true, Scale::SqrtDk).unwrap()
}

/// Microseconds per step, and how many steps were timed.
fn time(model: &Model, objective: &Objective) -> (f64, usize) {
    let work = model.tokens().len().pow(2) * model.heads().len() * model.dims().d_k.max(1);
    let runs = (4_000_000 / work).clamp(5, 20_000);
    let mut m = model.clone();
    let mut trainer = Trainer::new(Optimizer::Sgd { lr: 1e-3 });
    let start = Instant::now();
    for _ in 0..runs {
        black_box(trainer.step(black_box(&mut m), objective)).ok();
    }
    (start.elapsed().as_secs_f64() / runs as f64 * 1e6, runs)
}

fn main() {
    let cases = [
        ("dog (9 tokens, 1 head, d 2→3)", dog()),
        ("raschka (6 tokens, 1 head, d 3→2/4)", raschka()),
        ("64 tokens, 8 heads, d 64→16", seeded(64, 64, 16, 8)),
        (
            "64 tokens, 16 heads, d 128 (the limits)",
            seeded(MAX_TOKENS, 128, 128, MAX_HEADS),
        ),
    ];
    let dir = std::env::temp_dir().join("attention-bench-train");
    std::fs::create_dir_all(&dir).unwrap();
    let python = std::env::var("TORCH_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/benches/train_torch.py");
    println!(
        "{:<42} {:>14} {:>14} {:>8}",
        "model", "ours µs/step", "torch µs/step", "ratio"
    );
    for (name, model) in cases {
        let n = model.tokens().len();
        // The last token attends to the first: a target every model has, causal or not.
        let json = format!(
            r#"{{"attend": [{{"head": 0, "query": {}, "key": 0}}]}}"#,
            n - 1
        );
        let objective = Objective::read(&json, &model).unwrap();
        let (ours, runs) = time(&model, &objective);
        let state = dir.join("state.json");
        std::fs::write(&state, write_state(&model)).unwrap();
        let torch = Command::new(&python)
            .args([
                script,
                state.to_str().unwrap(),
                &(n - 1).to_string(),
                &runs.to_string(),
            ])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .trim()
                    .parse::<f64>()
                    .ok()
            });
        match torch {
            Some(t) => println!("{name:<42} {ours:>14.1} {t:>14.1} {:>8.2}", ours / t),
            None => println!("{name:<42} {ours:>14.1} {:>14} {:>8}", "(no torch)", ""),
        }
    }
}
