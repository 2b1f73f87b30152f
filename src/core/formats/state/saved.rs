//! The saved state's shape: its versions, the structs it is written from, and the reader that
//! checks each field's type on the way in (`read_saved`), before the numbers are checked.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::i18n::keys::formats;
use crate::core::model::Scale;

use super::error::{error, StateError};
use super::json::{
    fields_of, invalid_type, list, nullable, numbers_of, only_known, optional, required, rows_of,
    text,
};
/// The version of a state with nothing of version 2 in it.
pub const STATE_VERSION: u64 = 1;
/// The newest version this app reads and writes.
pub const STATE_VERSION_2: u64 = 2;

/// The state as written; read by hand from the JSON ([`read_saved`]): serde's typed reader with
/// a tracker of the path to a bad value cost the page more than the reader below.
#[derive(Serialize)]
pub(super) struct SavedState {
    pub(super) version: u64,
    pub(super) sentence: String,
    pub(super) embedding: Vec<Vec<f64>>,
    /// Written from the model; read by [`read_positions`](super::additions::read_positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) positions: Option<SavedPositions>,
    pub(super) heads: Vec<SavedHead>,
    pub(super) causal: bool,
    pub(super) scale: Scale,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) w_output: Option<Vec<Vec<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_output: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) kv_heads: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) kv: Option<Vec<SavedKv>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) source: Option<SavedSource>,
}

/// A key/value head shared by a group of query heads.
#[derive(Serialize, Clone)]
pub(super) struct SavedKv {
    pub(super) w_key: Vec<Vec<f64>>,
    pub(super) w_value: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_key: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_value: Option<Vec<f64>>,
}

/// Cross-attention's source sentence and its embedding table.
#[derive(Serialize)]
pub(super) struct SavedSource {
    pub(super) sentence: String,
    pub(super) embedding: Vec<Vec<f64>>,
}

/// The positions as written (read by hand: [`read_positions`](super::additions::read_positions)).
#[derive(Serialize, Default)]
pub(super) struct SavedPositions {
    pub(super) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) base: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) learned: Option<Vec<Vec<f64>>>,
}

#[derive(Serialize, Clone)]
pub(super) struct SavedHead {
    pub(super) w_query: Vec<Vec<f64>>,
    /// Empty when the head shares a key/value head (an empty list is no matrix either).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) w_key: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) w_value: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_query: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_key: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) b_value: Option<Vec<f64>>,
}

/// The fields of a state's JSON (`object`), each checked for its type; a bad value is named by
/// its place (`heads[0].w_key[1][0]: invalid type: string "x", expected a number`).
pub(super) fn read_saved(object: &Map<String, Value>) -> Result<SavedState, StateError> {
    only_known(object, "", &TOP_FIELDS)?;
    // The required fields in the format's order: a state missing several names the first.
    let sentence = text(required(object, "", "sentence")?, "sentence")?;
    let embedding = rows_of(required(object, "", "embedding")?, "embedding")?;
    let heads = list(required(object, "", "heads")?, "heads")?
        .iter()
        .enumerate()
        .map(|(h, head)| {
            let at = format!("heads[{h}].");
            let head = fields_of(head, &at, &HEAD_FIELDS)?;
            let rows = |name: &str| optional(head, &at, name, rows_of);
            Ok(SavedHead {
                w_query: rows_of(required(head, &at, "w_query")?, &format!("{at}w_query"))?,
                w_key: rows("w_key")?.unwrap_or_default(),
                w_value: rows("w_value")?.unwrap_or_default(),
                // Optional in serde's reader, which took a null for none.
                b_query: nullable(head, &at, "b_query", numbers_of)?,
                b_key: nullable(head, &at, "b_key", numbers_of)?,
                b_value: nullable(head, &at, "b_value", numbers_of)?,
            })
        })
        .collect::<Result<_, StateError>>()?;
    let causal = required(object, "", "causal")?;
    let scale = required(object, "", "scale")?;
    let kv = object
        .get("kv")
        .map(|kv| {
            list(kv, "kv")?
                .iter()
                .enumerate()
                .map(|(g, entry)| {
                    let at = format!("kv[{g}].");
                    let entry = fields_of(entry, &at, &KV_FIELDS)?;
                    Ok(SavedKv {
                        w_key: rows_of(required(entry, &at, "w_key")?, &format!("{at}w_key"))?,
                        w_value: rows_of(
                            required(entry, &at, "w_value")?,
                            &format!("{at}w_value"),
                        )?,
                        b_key: optional(entry, &at, "b_key", numbers_of)?,
                        b_value: optional(entry, &at, "b_value", numbers_of)?,
                    })
                })
                .collect::<Result<Vec<_>, StateError>>()
        })
        .transpose()?;
    let source = object
        .get("source")
        .map(|source| {
            let at = "source.";
            let source = fields_of(source, at, &["sentence", "embedding"])?;
            Ok(SavedSource {
                sentence: text(required(source, at, "sentence")?, "source.sentence")?,
                embedding: rows_of(required(source, at, "embedding")?, "source.embedding")?,
            })
        })
        .transpose()?;
    Ok(SavedState {
        version: object["version"].as_u64().unwrap_or(STATE_VERSION),
        sentence,
        embedding,
        // Read from the JSON by [`read_positions`].
        positions: None,
        heads,
        causal: causal
            .as_bool()
            .ok_or_else(|| error("causal", invalid_type(causal, formats::a_boolean)))?,
        scale: scale.as_str().and_then(Scale::from_key).ok_or_else(|| {
            let expected = formats::one_of("sqrt_dk, dk, none"); // not words: JSON values
            error(
                "scale",
                match scale.as_str() {
                    Some(s) => formats::unknown_scaling(s, expected),
                    None => invalid_type(scale, expected),
                },
            )
        })?,
        w_output: nullable(object, "", "w_output", rows_of)?,
        b_output: nullable(object, "", "b_output", numbers_of)?,
        kv_heads: object
            .get("kv_heads")
            .map(|g| {
                g.as_u64()
                    .and_then(|g| usize::try_from(g).ok())
                    .ok_or_else(|| error("kv_heads", formats::must_be_whole))
            })
            .transpose()?,
        kv,
        source,
    })
}

const TOP_FIELDS: [&str; 12] = [
    "version",
    "sentence",
    "embedding",
    "positions",
    "heads",
    "causal",
    "scale",
    "w_output",
    "b_output",
    "kv_heads",
    "kv",
    "source",
];
const HEAD_FIELDS: [&str; 6] = ["w_query", "w_key", "w_value", "b_query", "b_key", "b_value"];
const KV_FIELDS: [&str; 4] = ["w_key", "w_value", "b_key", "b_value"];
