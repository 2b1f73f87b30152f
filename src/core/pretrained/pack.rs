//! The one file the page ships: a safetensors file of float16 tensors whose metadata holds
//! `config.json` and `vocab.txt`, the word embeddings last, so that a reader can fetch the rest
//! in one range and then only the rows of a sentence's pieces. Read by the same code as a folder.

use safetensors::{Dtype, SafeTensors};
use serde_json::{json, Map, Value};

use super::encoder::Encoder;
use super::read::{read_parts, FILES};

/// The metadata's `format`.
pub const FORMAT: &str = "attention-explorer pretrained 1";
/// The word embeddings' tensor, placed last.
const WORDS: &str = "embeddings.word_embeddings.weight";

/// The folder's three files packed into one: each floating-point tensor as float16 (rounded to
/// nearest), `config.json` and `vocab.txt` in the metadata with `source` (where the weights come
/// from). What it reads back equals the folder's model rounded to float16.
pub fn pack(config: &str, vocab: &str, weights: &[u8], source: &str) -> Result<Vec<u8>, String> {
    // Read first: a folder that does not open is not packed.
    read_parts(config, vocab, weights)?;
    let file = SafeTensors::deserialize(weights)
        .map_err(|e| format!("model.safetensors is not a safetensors file ({e})"))?;
    let mut names: Vec<String> = file
        .names()
        .into_iter()
        .filter(|n| !n.ends_with("position_ids"))
        .map(str::to_owned)
        .collect();
    // Sorted, the word embeddings last.
    names.sort_by_key(|n| (n.ends_with(WORDS), n.clone()));
    let mut header = Map::new();
    header.insert(
        "__metadata__".into(),
        json!({ "format": FORMAT, "config": config, "vocab": vocab, "source": source }),
    );
    let mut data: Vec<u8> = Vec::new();
    for name in names {
        let view = file.tensor(&name).map_err(|e| format!("{name}: {e}"))?;
        let bytes = view.data();
        let halves: Vec<u16> = match view.dtype() {
            Dtype::F32 => bytes
                .chunks_exact(4)
                .map(|b| {
                    half::f16::from_f32(f32::from_le_bytes([b[0], b[1], b[2], b[3]])).to_bits()
                })
                .collect(),
            Dtype::F16 => bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
            // Integers (position ids) and other types are not the model's numbers.
            _ => continue,
        };
        let start = data.len();
        data.extend(halves.iter().flat_map(|h| h.to_le_bytes()));
        header.insert(
            name,
            json!({ "dtype": "F16", "shape": view.shape(), "data_offsets": [start, data.len()] }),
        );
    }
    let mut text = Value::Object(header).to_string();
    // The data starts on an 8-byte boundary, as the safetensors writer aligns it.
    while !text.len().is_multiple_of(8) {
        text.push(' ');
    }
    let mut out = Vec::with_capacity(8 + text.len() + data.len());
    out.extend((text.len() as u64).to_le_bytes());
    out.extend(text.as_bytes());
    out.extend(data);
    Ok(out)
}

/// The metadata of a packed file: (`config.json`, `vocab.txt`, `source`), or None for another
/// safetensors file.
pub fn packed_parts(bytes: &[u8]) -> Option<(String, String, String)> {
    let (_, metadata) = SafeTensors::read_metadata(bytes).ok()?;
    let meta = metadata.metadata().as_ref()?;
    if meta.get("format").map(String::as_str) != Some(FORMAT) {
        return None;
    }
    let part = |k: &str| meta.get(k).cloned();
    Some((
        part("config")?,
        part("vocab")?,
        part("source").unwrap_or_default(),
    ))
}

/// The encoder in a packed file, or what is wrong with it.
pub fn read_packed(bytes: &[u8]) -> Result<Encoder, String> {
    let (config, vocab, _) = packed_parts(bytes).ok_or(format!(
        "not a packed model (a safetensors file whose metadata holds {} and {})",
        FILES[0], FILES[1]
    ))?;
    read_parts(&config, &vocab, bytes)
}
