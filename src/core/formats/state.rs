//! The saved state: what share links, import/export and `attention-trace --state` use.
//!
//! ```json
//! {"version": 1, "sentence": "...", "embedding": [[...], ...],
//!  "heads": [{"w_query": [[...]], "w_key": [[...]], "w_value": [[...]]}],
//!  "causal": false, "scale": "sqrt_dk"}
//! ```
//! Version 2 adds, each optional: `b_query`, `b_key`, `b_value` in a head (all three or none),
//! `w_output` ((Σ d_v) × d_out) and `b_output` (d_out) at the top, and `positions`
//! (`{"kind": "none" | "sinusoidal" | "rope_half" | "rope_interleaved", "base": 10000}` or
//! `{"kind": "learned", "learned": [[…]]}`, a row per token). A model without any of them is written as version 1, so that
//! its links and files stay exactly what they were; both versions are read. Version 2 also has
//! the variants: `"kv_heads": G` with a top-level `"kv"` list of G entries (`w_key`, `w_value`,
//! optional `b_key`, `b_value`), the heads then holding only `w_query` (and `b_query`); and
//! `"source": {"sentence", "embedding"}` for cross-attention.
//! Reading validates everything and names the offending field; it never panics.

use std::fmt;

use nalgebra::DMatrix;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::model::limits::{
    check_kv_heads, check_sentence, MAX_ABS_VALUE, MAX_DIM, MAX_HEADS, MAX_TOKENS,
};
use crate::core::model::positions::{Positions, DEFAULT_BASE, KINDS};
use crate::core::model::{
    Biases, Head, Matrix, Model, OutputProjection, Projection, Scale, Source,
};

use super::trained::trained_value;

/// The version of a state with nothing of version 2 in it.
pub const STATE_VERSION: u64 = 1;
/// The newest version this app reads and writes.
pub const STATE_VERSION_2: u64 = 2;
/// The longest state read: a model at every limit, each number written with all its digits
/// (at most 24 characters and a comma), plus room for the sentence and brackets. Anything
/// longer is refused before parsing, so a huge link or file costs nothing.
pub const MAX_STATE_BYTES: usize = 25 * (MAX_TOKENS * MAX_DIM // the embedding
        + (MAX_HEADS * 3 + MAX_HEADS) * MAX_DIM * MAX_DIM // the weights and W_output
        + 2 * MAX_TOKENS * MAX_DIM // a learned table, a source's embedding
        + MAX_HEADS * 3 * MAX_DIM + MAX_DIM) // the biases and b_output
        + 256 * 1024;

/// Why a state was refused: the field (a JSON path such as `heads[0].w_query[1]`) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// Where: a JSON path, or empty for the whole state.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for StateError {}

fn error(field: impl Into<String>, message: impl Into<String>) -> StateError {
    StateError {
        field: field.into(),
        message: message.into(),
    }
}

/// The state as written; read by hand from the JSON ([`read_saved`]): serde's typed reader with
/// a tracker of the path to a bad value cost the page more than the reader below.
#[derive(Serialize)]
struct SavedState {
    version: u64,
    sentence: String,
    embedding: Vec<Vec<f64>>,
    /// Written from the model; read by [`read_positions`].
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<SavedPositions>,
    heads: Vec<SavedHead>,
    causal: bool,
    scale: Scale,
    #[serde(skip_serializing_if = "Option::is_none")]
    w_output: Option<Vec<Vec<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_output: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kv_heads: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kv: Option<Vec<SavedKv>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<SavedSource>,
}

/// A key/value head shared by a group of query heads.
#[derive(Serialize, Clone)]
struct SavedKv {
    w_key: Vec<Vec<f64>>,
    w_value: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_key: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_value: Option<Vec<f64>>,
}

/// Cross-attention's source sentence and its embedding table.
#[derive(Serialize)]
struct SavedSource {
    sentence: String,
    embedding: Vec<Vec<f64>>,
}

/// The positions as written (read by hand: [`read_positions`]).
#[derive(Serialize, Default)]
struct SavedPositions {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    learned: Option<Vec<Vec<f64>>>,
}

#[derive(Serialize, Clone)]
struct SavedHead {
    w_query: Vec<Vec<f64>>,
    /// Empty when the head shares a key/value head (an empty list is no matrix either).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    w_key: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    w_value: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_query: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_key: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b_value: Option<Vec<f64>>,
}

/// The model as a saved state (compact JSON, numbers in shortest round-trip form).
pub fn write_state(model: &Model) -> String {
    if model.layered().is_some() {
        return state_value(model).to_string();
    }
    serde_json::to_string(&saved(model)).expect("a state of finite numbers always serialises")
}

/// The model as a saved state, as a JSON value (for formats built on it, such as links).
pub fn state_value(model: &Model) -> serde_json::Value {
    if let Some(mut trained) = trained_value(model) {
        trained["version"] = STATE_VERSION_2.into();
        return trained;
    }
    serde_json::to_value(saved(model)).expect("a state of finite numbers always serialises")
}

fn saved(model: &Model) -> SavedState {
    let rows = |m: &DMatrix<f64>| m.row_iter().map(|r| r.iter().copied().collect()).collect();
    let row = |m: &DMatrix<f64>| m.iter().copied().collect();
    let positions = model.positions();
    let version_2 = model.has_biases()
        || model.output().is_some()
        || *positions != Positions::None
        || model.shares_kv()
        || model.source().is_some();
    let shared = model.shares_kv();
    SavedState {
        version: if version_2 {
            STATE_VERSION_2
        } else {
            STATE_VERSION
        },
        sentence: model.sentence().to_owned(),
        embedding: rows(model.embedding()),
        positions: (*positions != Positions::None).then(|| SavedPositions {
            kind: positions.kind(),
            base: positions.base(),
            learned: match positions {
                Positions::Learned(t) => Some(rows(t)),
                _ => None,
            },
        }),
        heads: model
            .heads()
            .iter()
            .map(|h| {
                let b = h.biases.as_ref();
                let own = (!shared).then_some(h);
                let own_b = b.filter(|_| !shared);
                SavedHead {
                    w_query: rows(&h.w_query),
                    w_key: own.map(|h| rows(&h.w_key)).unwrap_or_default(),
                    w_value: own.map(|h| rows(&h.w_value)).unwrap_or_default(),
                    b_query: b.map(|b| row(&b.b_query)),
                    b_key: own_b.map(|b| row(&b.b_key)),
                    b_value: own_b.map(|b| row(&b.b_value)),
                }
            })
            .collect(),
        kv_heads: shared.then(|| model.kv_heads()),
        kv: shared.then(|| {
            (0..model.kv_heads())
                .map(|g| {
                    let h = &model.heads()[model.kv_leader(g)];
                    let b = h.biases.as_ref();
                    SavedKv {
                        w_key: rows(&h.w_key),
                        w_value: rows(&h.w_value),
                        b_key: b.map(|b| row(&b.b_key)),
                        b_value: b.map(|b| row(&b.b_value)),
                    }
                })
                .collect()
        }),
        source: model.source().map(|s| SavedSource {
            sentence: s.sentence().to_owned(),
            embedding: rows(s.embedding()),
        }),
        causal: model.causal,
        scale: model.scale,
        w_output: model.output().map(|o| rows(&o.w_output)),
        b_output: model.output().and_then(|o| o.b_output.as_ref()).map(row),
    }
}

/// Reads and validates a saved state (version 1 or 2).
pub fn read_state(json: &str) -> Result<Model, StateError> {
    if json.len() > MAX_STATE_BYTES {
        return Err(error(
            "state",
            format!(
                "{} bytes is more than a model at every limit needs ({MAX_STATE_BYTES})",
                json.len()
            ),
        ));
    }
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| error("state", format!("not valid JSON ({e})")))?;
    read_state_value(&value)
}

/// Validates a saved state already parsed as JSON.
pub fn read_state_value(value: &serde_json::Value) -> Result<Model, StateError> {
    let object = value
        .as_object()
        .ok_or_else(|| error("state", "expected a JSON object"))?;
    match object.get("version") {
        None => {
            return Err(error(
                "version",
                format!("missing; expected {STATE_VERSION}"),
            ))
        }
        Some(v) if !matches!(v.as_u64(), Some(STATE_VERSION | STATE_VERSION_2)) => {
            return Err(error(
                "version",
                format!("unsupported version {v}; this app reads versions {STATE_VERSION} and {STATE_VERSION_2}"),
            ))
        }
        Some(_) => {}
    }
    if object.contains_key("pretrained") {
        return Err(error(
            "pretrained",
            "names a trained model, which opens once the page has fetched it (open the state as a link or saved work, or open the trained model first)",
        ));
    }
    let state = read_saved(object)?;

    let tokens = check_sentence(&state.sentence).map_err(|m| error("sentence", m))?;
    let vocab = tokens.vocabulary.len();
    if state.embedding.len() != vocab {
        return Err(error("embedding", format!("has {} rows but the sentence's vocabulary has {vocab} words (one row per word, in sorted order)", state.embedding.len())));
    }
    let embedding = matrix("embedding", &state.embedding, None)?;
    let d_in = embedding.ncols();

    if state.heads.is_empty() {
        return Err(error("heads", "needs at least one head"));
    }
    if state.heads.len() > MAX_HEADS {
        return Err(error(
            "heads",
            format!("has {} heads; the limit is {MAX_HEADS}", state.heads.len()),
        ));
    }
    let groups = read_groups(&state)?;
    let mut heads = Vec::with_capacity(state.heads.len());
    for (h, own) in state.heads.iter().enumerate() {
        // A head of a group takes its keys and values from the group's entry of `kv`.
        let (saved, kv_at) = match (&groups, &state.kv) {
            (Some(per), Some(kv)) => {
                let g = h / per;
                let k = &kv[g];
                (
                    SavedHead {
                        w_query: own.w_query.clone(),
                        b_query: own.b_query.clone(),
                        w_key: k.w_key.clone(),
                        w_value: k.w_value.clone(),
                        b_key: k.b_key.clone(),
                        b_value: k.b_value.clone(),
                    },
                    Some(g),
                )
            }
            _ => (own.clone(), None),
        };
        let field = |name: &str| match kv_at {
            Some(g) if Matrix::named(name).is_some_and(Matrix::shared_by_kv_heads) => {
                format!("kv[{g}].{name}")
            }
            _ => format!("heads[{h}].{name}"),
        };
        let given = |m: &Vec<Vec<f64>>, p: Projection| {
            if m.is_empty() {
                return Err(error(field(p.key()), "missing: a head has w_query, w_key and w_value (or, with kv_heads, only w_query)"));
            }
            Ok(m.clone())
        };
        let w_query = matrix(&field("w_query"), &saved.w_query, Some(d_in))?;
        let w_key = matrix(
            &field("w_key"),
            &given(&saved.w_key, Projection::Key)?,
            Some(d_in),
        )?;
        let w_value = matrix(
            &field("w_value"),
            &given(&saved.w_value, Projection::Value)?,
            Some(d_in),
        )?;
        if w_key.ncols() != w_query.ncols() {
            return Err(error(field("w_key"), format!("has {} columns but w_query has {}: keys and queries must have the same width d_k", w_key.ncols(), w_query.ncols())));
        }
        let biases = read_biases(&field, &saved, &w_query, &w_value)?;
        heads.push(Head {
            w_query,
            w_key,
            w_value,
            biases,
        });
    }
    let output = read_output(&state, &heads)?;
    let positions = read_positions(object.get("positions"), tokens.len(), d_in)?;
    let source = read_source(state.source.as_ref(), d_in)?;
    let model = Model::new(&state.sentence, embedding, heads, state.causal, state.scale)
        .and_then(|m| m.with_output(output))
        .map_err(|m| error("state", m))?
        .with_positions(positions)
        .map_err(|m| error("positions", m))?;
    let model = match groups {
        Some(per) => model
            .with_kv_heads(state.heads.len() / per)
            .map_err(|m| error("kv_heads", m))?,
        None => model,
    };
    model.with_source(source).map_err(|m| error("source", m))
}

/// The fields of a state's JSON (`object`), each checked for its type; a bad value is named by
/// its place (`heads[0].w_key[1][0]: invalid type: string "x", expected a number`).
fn read_saved(object: &Map<String, Value>) -> Result<SavedState, StateError> {
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
            .ok_or_else(|| error("causal", invalid_type(causal, "a boolean")))?,
        scale: scale.as_str().and_then(Scale::from_key).ok_or_else(|| {
            let expected = "one of sqrt_dk, dk, none";
            error(
                "scale",
                match scale.as_str() {
                    Some(s) => format!("unknown scaling `{s}`, expected {expected}"),
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
                    .ok_or_else(|| error("kv_heads", "must be a whole number"))
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

/// The field `name` of `object` (`at` its place, ending in a dot).
fn required<'a>(
    object: &'a Map<String, Value>,
    at: &str,
    name: &str,
) -> Result<&'a Value, StateError> {
    object
        .get(name)
        .ok_or_else(|| error(format!("{at}{name}"), "missing"))
}

/// The field `name` of `object` read by `read`, if it is there.
fn optional<T>(
    object: &Map<String, Value>,
    at: &str,
    name: &str,
    read: fn(&Value, &str) -> Result<T, StateError>,
) -> Result<Option<T>, StateError> {
    object
        .get(name)
        .map(|v| read(v, &format!("{at}{name}")))
        .transpose()
}

/// As [`optional`], a `null` being absent too.
fn nullable<T>(
    object: &Map<String, Value>,
    at: &str,
    name: &str,
    read: fn(&Value, &str) -> Result<T, StateError>,
) -> Result<Option<T>, StateError> {
    match object.get(name) {
        Some(Value::Null) => Ok(None),
        _ => optional(object, at, name, read),
    }
}

/// `value` as an object holding no field but `known` (`at` prefixes the field's name).
fn fields_of<'a>(
    value: &'a Value,
    at: &str,
    known: &[&str],
) -> Result<&'a Map<String, Value>, StateError> {
    let object = value.as_object().ok_or_else(|| {
        error(
            at.trim_end_matches('.'),
            invalid_type(value, &format!("an object with {}", known.join(", "))),
        )
    })?;
    only_known(object, at, known)?;
    Ok(object)
}

fn only_known(object: &Map<String, Value>, at: &str, known: &[&str]) -> Result<(), StateError> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(error(
            format!("{at}{k}"),
            format!("unknown field `{k}`, expected one of {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// What serde would say of a value of the wrong type: `invalid type: string "x", expected …`.
fn invalid_type(value: &Value, expected: &str) -> String {
    let what = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    };
    format!("invalid type: {what}, expected {expected}")
}

fn list<'a>(value: &'a Value, field: &str) -> Result<&'a Vec<Value>, StateError> {
    value
        .as_array()
        .ok_or_else(|| error(field, invalid_type(value, "a list")))
}

fn text(value: &Value, field: &str) -> Result<String, StateError> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| error(field, invalid_type(value, "text")))
}

/// A list of rows of numbers (as rows of a matrix they are checked after).
fn rows_of(value: &Value, field: &str) -> Result<Vec<Vec<f64>>, StateError> {
    list(value, field)?
        .iter()
        .enumerate()
        .map(|(i, row)| numbers_of(row, &format!("{field}[{i}]")))
        .collect()
}

/// A list of numbers, a bad one named by its place.
fn numbers_of(value: &Value, field: &str) -> Result<Vec<f64>, StateError> {
    list(value, field)?
        .iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_f64()
                .ok_or_else(|| error(format!("{field}[{j}]"), invalid_type(x, "a number")))
        })
        .collect()
}

/// With `kv_heads`: how many query heads share each entry of `kv` (checked: G divides the
/// heads, `kv` has G entries, the heads hold only their queries). Without: no `kv`.
fn read_groups(state: &SavedState) -> Result<Option<usize>, StateError> {
    let heads = state.heads.len();
    let Some(g) = state.kv_heads else {
        return match state.kv {
            Some(_) => Err(error("kv", "needs kv_heads: the number of key/value heads")),
            None => Ok(None),
        };
    };
    check_kv_heads(heads, g).map_err(|m| error("kv_heads", m.replacen("kv_heads ", "", 1)))?;
    let kv = state.kv.as_ref().ok_or_else(|| {
        error(
            "kv",
            format!("missing: kv_heads = {g} needs a list of {g} key/value heads"),
        )
    })?;
    if kv.len() != g {
        return Err(error(
            "kv",
            format!("has {} entries, expected kv_heads = {g}", kv.len()),
        ));
    }
    for (h, head) in state.heads.iter().enumerate() {
        let extra = [
            ("w_key", !head.w_key.is_empty()),
            ("w_value", !head.w_value.is_empty()),
            ("b_key", head.b_key.is_some()),
            ("b_value", head.b_value.is_some()),
        ];
        if let Some((name, _)) = extra.iter().find(|(_, given)| *given) {
            return Err(error(format!("heads[{h}].{name}"), format!("with kv_heads the keys and values are in kv[{}]: a head holds only w_query (and b_query)", h / (heads / g))));
        }
    }
    Ok(Some(heads / g))
}

/// `source`: its sentence within the limits, a row of d_in numbers per word of its vocabulary.
fn read_source(source: Option<&SavedSource>, d_in: usize) -> Result<Option<Source>, StateError> {
    let Some(saved) = source else {
        return Ok(None);
    };
    let tokens = check_sentence(&saved.sentence).map_err(|m| error("source.sentence", m))?;
    let vocab = tokens.vocabulary.len();
    if saved.embedding.len() != vocab {
        return Err(error("source.embedding", format!("has {} rows but the source's vocabulary has {vocab} words (one row per word, in sorted order)", saved.embedding.len())));
    }
    let embedding = matrix("source.embedding", &saved.embedding, None)?;
    if embedding.ncols() != d_in {
        return Err(error(
            "source.embedding",
            format!(
                "rows have {} numbers, expected d_in = {d_in} (the embedding's width)",
                embedding.ncols()
            ),
        ));
    }
    Source::new(&saved.sentence, embedding)
        .map(Some)
        .map_err(|m| error("source", m))
}

/// `positions` as the state writes it; absent means none.
fn read_positions(
    value: Option<&serde_json::Value>,
    n: usize,
    d_in: usize,
) -> Result<Positions, StateError> {
    let Some(value) = value else {
        return Ok(Positions::None);
    };
    let at = |f: &str| format!("positions.{f}");
    let object = fields_of(value, "positions.", &["kind", "base", "learned"])?;
    let kind = object
        .get("kind")
        .and_then(|k| k.as_str())
        .ok_or_else(|| error(at("kind"), format!("missing: one of {}", KINDS.join(", "))))?;
    let base = match object.get("base") {
        None => DEFAULT_BASE,
        Some(b) => b
            .as_f64()
            .ok_or_else(|| error(at("base"), "must be a number"))?,
    };
    if kind == "learned" {
        let rows = object
            .get("learned")
            .ok_or_else(|| error(at("learned"), "missing: a row per token"))
            .and_then(|l| rows_of(l, &at("learned")))?;
        if rows.len() != n {
            return Err(error(
                at("learned"),
                format!("has {} rows, expected {n}: a row per token", rows.len()),
            ));
        }
        let table = matrix(&at("learned"), &rows, None)?;
        if table.ncols() != d_in {
            return Err(error(
                at("learned"),
                format!(
                    "rows have {} numbers, expected d_in = {d_in}",
                    table.ncols()
                ),
            ));
        }
        return Ok(Positions::Learned(table));
    }
    Positions::of_kind(kind, base, 0, n, d_in).map_err(|e| {
        let field = if e.starts_with("unknown kind") {
            "kind"
        } else {
            "base"
        };
        error(at(field), e)
    })
}

/// A head's biases: all three or none, each as wide as its projection.
fn read_biases(
    field: &dyn Fn(&str) -> String,
    saved: &SavedHead,
    w_query: &DMatrix<f64>,
    w_value: &DMatrix<f64>,
) -> Result<Option<Biases>, StateError> {
    let given = [&saved.b_query, &saved.b_key, &saved.b_value];
    if given.iter().all(|b| b.is_none()) {
        return Ok(None);
    }
    let (d_k, d_v) = (w_query.ncols(), w_value.ncols());
    let mut rows = Vec::with_capacity(3);
    for (b, (name, width, size)) in given.into_iter().zip([
        ("b_query", d_k, "d_k"),
        ("b_key", d_k, "d_k"),
        ("b_value", d_v, "d_v"),
    ]) {
        let field = field(name);
        let b = b.as_ref().ok_or_else(|| {
            error(
                &field,
                "missing: a head has all three biases (b_query, b_key, b_value) or none",
            )
        })?;
        rows.push(bias(&field, b, width, size)?);
    }
    let [b_query, b_key, b_value] = <[DMatrix<f64>; 3]>::try_from(rows).expect("three biases");
    Ok(Some(Biases {
        b_query,
        b_key,
        b_value,
    }))
}

/// `w_output` (one row per concatenated column) and its optional `b_output`.
fn read_output(state: &SavedState, heads: &[Head]) -> Result<Option<OutputProjection>, StateError> {
    let Some(w) = &state.w_output else {
        return match state.b_output {
            Some(_) => Err(error(
                "b_output",
                "needs w_output: it is the output projection's bias",
            )),
            None => Ok(None),
        };
    };
    let width: usize = heads.iter().map(Head::d_v).sum();
    if w.len() != width {
        return Err(error(
            "w_output",
            format!(
                "has {} rows, expected {width} (every head's d_v side by side)",
                w.len()
            ),
        ));
    }
    let w_output = matrix("w_output", w, None)?;
    let b_output = state
        .b_output
        .as_ref()
        .map(|b| bias("b_output", b, w_output.ncols(), "w_output's width"))
        .transpose()?;
    Ok(Some(OutputProjection { w_output, b_output }))
}

/// A bias of `width` numbers within ±MAX_ABS_VALUE, as a 1 × width matrix; `size` names the
/// width in the message (`heads[1].b_key: 3 numbers, d_k is 2`).
fn bias(field: &str, b: &[f64], width: usize, size: &str) -> Result<DMatrix<f64>, StateError> {
    if b.len() != width {
        return Err(error(
            field,
            format!("{} numbers, {size} is {width}", b.len()),
        ));
    }
    within(field, b)?;
    Ok(DMatrix::from_row_slice(1, width, b))
}

/// A list of rows as a matrix: rectangular, 1..=MAX_DIM columns, `rows` rows when given, numbers
/// within ±MAX_ABS_VALUE.
fn matrix(
    field: &str,
    rows: &[Vec<f64>],
    expected_rows: Option<usize>,
) -> Result<DMatrix<f64>, StateError> {
    if let Some(n) = expected_rows {
        if rows.len() != n {
            return Err(error(
                field,
                format!(
                    "has {} rows, expected d_in = {n} (the embedding's width)",
                    rows.len()
                ),
            ));
        }
    }
    let cols = rows.first().map_or(0, Vec::len);
    if cols == 0 {
        return Err(error(field, "has no columns"));
    }
    if cols > MAX_DIM {
        return Err(error(
            field,
            format!("has {cols} columns; the limit is {MAX_DIM}"),
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.len() != cols {
            return Err(error(
                format!("{field}[{i}]"),
                format!(
                    "has {} numbers but row 0 has {cols}: rows must be the same length",
                    row.len()
                ),
            ));
        }
        within(&format!("{field}[{i}]"), row)?;
    }
    let flat: Vec<f64> = rows.concat();
    Ok(DMatrix::from_row_slice(rows.len(), cols, &flat))
}

/// Every number of `row` (the field `field`) finite and within ±MAX_ABS_VALUE; the error names
/// the first that is not (`heads[0].b_key[2]`).
fn within(field: &str, row: &[f64]) -> Result<(), StateError> {
    match row
        .iter()
        .enumerate()
        .find(|(_, x)| x.is_nan() || x.abs() > MAX_ABS_VALUE)
    {
        Some((j, x)) => Err(error(
            format!("{field}[{j}]"),
            format!("{x:e} is outside ±{MAX_ABS_VALUE:e}"),
        )),
        None => Ok(()),
    }
}
