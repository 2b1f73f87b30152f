//! Writes each fuzz target's starting corpus from the presets: `seeds DIR` fills DIR/state,
//! DIR/block, DIR/cell and DIR/link, DIR/torch from the PyTorch fixtures, DIR/gguf with a tiny
//! Llama file, DIR/bpe with the presets' sentences, and DIR/packed, DIR/folder, DIR/wordpiece and
//! DIR/trained from a tiny BERT encoder.

use std::fs;
use std::path::Path;

use attention_explorer::core::formats::link::encode_model;
use attention_explorer::core::model::Editable;
use attention_explorer::core::model::presets::PRESETS;
use attention_explorer::core::formats::state::write_state;
use attention_explorer::core::pretrained::pack;
use nalgebra::DMatrix;

/// The tests' GGUF writer: one tiny Llama for both.
#[path = "../../common/gguf.rs"]
#[allow(dead_code)]
mod gguf;

/// A tiny encoder's folder.
mod bert;

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
    for target in [
        "state", "block", "cell", "link", "torch", "gguf", "bpe", "packed", "folder", "wordpiece",
        "trained",
    ] {
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
    // The tiny encoder as its folder (the files apart at NUL bytes) and packed, its vocabulary
    // with sentences, and records of its layers.
    let (config, vocab) = (bert::config(), bert::VOCAB);
    for prefix in ["", "bert."] {
        let mut folder = [config.as_bytes(), vocab.as_bytes()].join(&0);
        folder.push(0);
        folder.extend(bert::weights(prefix));
        fs::write(dir.join("folder").join(format!("tiny-{prefix}bert")), folder)?;
    }
    let packed = pack(&config, vocab, &bert::weights(""), "seeds").expect("the tiny encoder packs");
    fs::write(dir.join("packed").join("tiny-bert.safetensors"), packed)?;
    for (k, sentence) in [
        "The cat sat on the mat.",
        "Cats, sitting: [MASK] naïve 東京 🙂",
        "",
    ]
    .iter()
    .enumerate()
    {
        fs::write(
            dir.join("wordpiece").join(format!("tiny-{k}")),
            format!("{vocab}\0{sentence}"),
        )?;
    }
    let records = [
        r#"{"model": "all-minilm-l6-v2", "sentence": "the cat sat", "layer": 1, "knocked": [[0, 1]], "changes": [[0, "w_query", 1, 2, 0, 0.5], [1, "b_output", null, 0, 3, 1]]}"#,
        r#"{"model": "smollm2-135m-instruct", "sentence": "the cat", "layer": 0, "changes": [[0, "w_output", null, 1, 1, -2]], "written": [65, 66]}"#,
    ];
    for (k, record) in records.iter().enumerate() {
        fs::write(dir.join("trained").join(format!("record-{k}")), record)?;
    }
    Ok(())
}
