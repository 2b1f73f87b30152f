//! Writes each fuzz target's starting corpus from the presets: `seeds DIR` fills DIR/state,
//! DIR/block, DIR/cell and DIR/link, DIR/torch from the PyTorch fixtures, DIR/gguf with a tiny
//! Llama file and DIR/bpe with the presets' sentences.

use std::fs;
use std::path::Path;

use attention_explorer::core::formats::link::encode_model;
use attention_explorer::core::model::Editable;
use attention_explorer::core::model::presets::PRESETS;
use attention_explorer::core::formats::state::write_state;
use nalgebra::DMatrix;

/// The tests' GGUF writer: one tiny Llama for both.
#[path = "../../common/gguf.rs"]
#[allow(dead_code)]
mod gguf;

/// A matrix as a spreadsheet copies it (tabs and lines) and as PyTorch prints it.
fn printed(m: &DMatrix<f64>) -> [String; 2] {
    let rows: Vec<Vec<String>> = m
        .row_iter()
        .map(|r| r.iter().map(|x| x.to_string()).collect())
        .collect();
    let sheet = rows.iter().map(|r| r.join("\t")).collect::<Vec<_>>().join("\n");
    let tensor = rows
        .iter()
        .map(|r| format!("[{}]", r.join(", ")))
        .collect::<Vec<_>>()
        .join(",\n        ");
    [sheet, format!("tensor([{tensor}], grad_fn=<MmBackward0>)")]
}

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "corpus".into());
    let dir = Path::new(&dir);
    for target in ["state", "block", "cell", "link", "torch", "gguf", "bpe"] {
        fs::create_dir_all(dir.join(target))?;
    }
    for preset in &PRESETS {
        let model = (preset.build)();
        fs::write(dir.join("state").join(preset.name), write_state(&model))?;
        let edited = {
            let mut m = model.clone();
            m.set(Editable::Embedding, 0, 0, 0.5);
            m
        };
        let page = format!(
            "?embed=1&steps=scores,weights&focus=1&theme=dark#m={}&hide=scale&faces=weights.0:heatmap",
            encode_model(&edited, None)
        );
        fs::write(dir.join("link").join(preset.name), page)?;
        let mut matrices = vec![model.embedding().clone()];
        matrices.extend(model.heads().iter().map(|h| h.w_query.clone()));
        for (i, m) in matrices.iter().enumerate() {
            for (j, text) in printed(m).iter().enumerate() {
                fs::write(dir.join("block").join(format!("{}-{i}-{j}", preset.name)), text)?;
            }
            for (k, x) in m.iter().take(4).enumerate() {
                fs::write(dir.join("cell").join(format!("{}-{i}-{k}", preset.name)), x.to_string())?;
            }
        }
    }
    // PyTorch's own modules: the --from-torch files and the safetensors files.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let cases: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(fixtures.join("mha_cases.json"))?)?;
    for (i, case) in cases["cases"].as_array().into_iter().flatten().take(4).enumerate() {
        fs::write(dir.join("torch").join(format!("mha-{i}.json")), case["torch"].to_string())?;
    }
    for i in 0..3 {
        let name = format!("mha_{i}.safetensors");
        fs::copy(fixtures.join(&name), dir.join("torch").join(name))?;
    }
    let (metadata, tensors) = gguf::tiny_llama();
    fs::write(dir.join("gguf").join("tiny-llama.gguf"), gguf::file(&metadata, &tensors))?;
    for preset in &PRESETS {
        fs::write(dir.join("bpe").join(preset.name), (preset.build)().sentence())?;
    }
    fs::write(dir.join("bpe").join("hard"), "The  cat's\r\n12345 naïve 🙂<|endoftext|>   x")?;
    for (k, text) in ["-", "1e-3", "−2", " 0.5 ", ".5", "1E6"].iter().enumerate() {
        fs::write(dir.join("cell").join(format!("typed-{k}")), text)?;
    }
    Ok(())
}
