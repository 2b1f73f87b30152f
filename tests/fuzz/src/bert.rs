//! A tiny BERT encoder's folder written for the fuzzer: `config.json`, `vocab.txt` and
//! `model.safetensors` of the shape all-MiniLM-L6-v2 has (two layers of two heads, 4 wide), its
//! numbers made up.

use safetensors::tensor::TensorView;
use safetensors::Dtype;

const HIDDEN: usize = 4;
const LAYERS: usize = 2;
const INTERMEDIATE: usize = 8;
const POSITIONS: usize = 16;

pub const VOCAB: &str =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\nsat\non\nmat\n##s\n.\n,\ndog\nit\n##ting\n";

pub fn config() -> String {
    format!(
        r#"{{"model_type": "bert", "hidden_size": {HIDDEN}, "num_hidden_layers": {LAYERS}, "num_attention_heads": 2, "intermediate_size": {INTERMEDIATE}, "vocab_size": {}, "max_position_embeddings": {POSITIONS}, "hidden_act": "gelu", "layer_norm_eps": 1e-12}}"#,
        VOCAB.lines().count()
    )
}

/// Every tensor's name (as BERT names it, after `prefix`) and shape.
fn tensors(prefix: &str) -> Vec<(String, Vec<usize>)> {
    let (h, i) = (HIDDEN, INTERMEDIATE);
    let mut out = vec![
        (
            "embeddings.word_embeddings.weight".into(),
            vec![VOCAB.lines().count(), h],
        ),
        (
            "embeddings.position_embeddings.weight".into(),
            vec![POSITIONS, h],
        ),
        ("embeddings.token_type_embeddings.weight".into(), vec![2, h]),
        ("embeddings.LayerNorm.weight".into(), vec![h]),
        ("embeddings.LayerNorm.bias".into(), vec![h]),
    ];
    for l in 0..LAYERS {
        let mut dense = |name: &str, inputs: usize, outputs: usize| {
            let name = format!("encoder.layer.{l}.{name}");
            out.push((format!("{name}.weight"), vec![outputs, inputs]));
            out.push((format!("{name}.bias"), vec![outputs]));
        };
        for part in ["query", "key", "value"] {
            dense(&format!("attention.self.{part}"), h, h);
        }
        dense("attention.output.dense", h, h);
        dense("intermediate.dense", h, i);
        dense("output.dense", i, h);
        for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
            out.push((format!("encoder.layer.{l}.{norm}.weight"), vec![h]));
            out.push((format!("encoder.layer.{l}.{norm}.bias"), vec![h]));
        }
    }
    out.into_iter()
        .map(|(n, s)| (format!("{prefix}{n}"), s))
        .collect()
}

/// `model.safetensors` in float32, its names after `prefix` ("" or "bert.", as older checkpoints
/// have them).
pub fn weights(prefix: &str) -> Vec<u8> {
    let named = tensors(prefix);
    let data: Vec<Vec<u8>> = named
        .iter()
        .enumerate()
        .map(|(t, (_, shape))| {
            (0..shape.iter().product::<usize>())
                .flat_map(|k| (((t * 7 + k) as f32).sin() / 2.0).to_le_bytes())
                .collect()
        })
        .collect();
    let views = named.iter().zip(&data).map(|((name, shape), bytes)| {
        (
            name.as_str(),
            TensorView::new(Dtype::F32, shape.clone(), bytes).expect("the sizes agree"),
        )
    });
    safetensors::serialize(views, None).expect("the tensors write")
}
