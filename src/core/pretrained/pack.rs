//! The one file the page ships: a safetensors file of float16 tensors whose metadata holds
//! `config.json` and `vocab.txt`, the word embeddings last, so that a reader can fetch the rest
//! in one range and then only the rows of a sentence's pieces. Read by the same code as a folder
//! (`read::read_packed`).

use safetensors::{Dtype, SafeTensors};
use serde_json::{json, Map, Value};

use crate::core::i18n::keys::models;

use super::read::{read_parts, FILES, FORMAT};

/// The word embeddings' tensor, placed last.
const WORDS: &str = "embeddings.word_embeddings.weight";

/// A Hugging Face folder (its three [`FILES`], and `SOURCE` if there is one) packed by [`pack`]:
/// what the command line's `--pack` and the build write. Its error in English.
pub fn pack_folder(dir: &std::path::Path) -> Result<Vec<u8>, String> {
    let read = |name: &str| {
        std::fs::read(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()))
    };
    let text =
        |name: &str| String::from_utf8(read(name)?).map_err(|_| format!("{name} is not text"));
    let source = std::fs::read_to_string(dir.join("SOURCE")).unwrap_or_default();
    pack(
        &text(FILES[0])?,
        &text(FILES[1])?,
        &read(FILES[2])?,
        source.trim(),
    )
}

/// The folder's three files packed into one: each floating-point tensor as float16 (rounded to
/// nearest), `config.json` and `vocab.txt` in the metadata with `source` (where the weights come
/// from). What it reads back equals the folder's model rounded to float16. The command line's:
/// its error in English.
pub fn pack(config: &str, vocab: &str, weights: &[u8], source: &str) -> Result<Vec<u8>, String> {
    // Read first: a folder that does not open is not packed.
    read_parts(config, vocab, weights).map_err(|e| e.english())?;
    let file =
        SafeTensors::deserialize(weights).map_err(|e| models::not_safetensors(e).english())?;
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
