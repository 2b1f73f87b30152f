//! The saved state, version 1: what share links, import/export and `attention-trace --state` use.
//!
//! ```json
//! {"version": 1, "sentence": "...", "embedding": [[...], ...],
//!  "heads": [{"w_query": [[...]], "w_key": [[...]], "w_value": [[...]]}],
//!  "causal": false, "scale": "sqrt_dk"}
//! ```
//! Reading validates everything and names the offending field; it never panics.

use std::fmt;

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use super::model::{Dims, Head, Model, Projection, Scale};
use super::tokens::Tokens;

/// The only version this app reads and writes.
pub const STATE_VERSION: u64 = 1;
/// Most tokens a sentence may have. These limits keep the page responsive; a state beyond them
/// is refused.
pub const MAX_TOKENS: usize = 64;
/// Most characters a sentence may have.
pub const MAX_SENTENCE_CHARS: usize = 1000;
/// Largest d_in, d_k and d_v.
pub const MAX_DIM: usize = 128;
/// Most heads.
pub const MAX_HEADS: usize = 16;
/// Every number's magnitude must be at most this, so scores stay finite.
pub const MAX_ABS_VALUE: f64 = 1e6;
/// The longest state read: a model at every limit, each number written with all its digits
/// (at most 24 characters and a comma), plus room for the sentence and brackets. Anything
/// longer is refused before parsing, so a huge link or file costs nothing.
pub const MAX_STATE_BYTES: usize =
    25 * (MAX_TOKENS * MAX_DIM + MAX_HEADS * 3 * MAX_DIM * MAX_DIM) + 256 * 1024;

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

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedState {
    version: u64,
    sentence: String,
    embedding: Vec<Vec<f64>>,
    heads: Vec<SavedHead>,
    causal: bool,
    scale: Scale,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedHead {
    w_query: Vec<Vec<f64>>,
    w_key: Vec<Vec<f64>>,
    w_value: Vec<Vec<f64>>,
}

/// The model as a version-1 state (compact JSON, numbers in shortest round-trip form).
pub fn write_state(model: &Model) -> String {
    serde_json::to_string(&saved(model)).expect("a state of finite numbers always serialises")
}

/// The model as a version-1 state, as a JSON value (for formats built on it, such as links).
pub fn state_value(model: &Model) -> serde_json::Value {
    serde_json::to_value(saved(model)).expect("a state of finite numbers always serialises")
}

fn saved(model: &Model) -> SavedState {
    let rows = |m: &DMatrix<f64>| m.row_iter().map(|r| r.iter().copied().collect()).collect();
    SavedState {
        version: STATE_VERSION,
        sentence: model.sentence().to_owned(),
        embedding: rows(model.embedding()),
        heads: model
            .heads()
            .iter()
            .map(|h| SavedHead {
                w_query: rows(&h.w_query),
                w_key: rows(&h.w_key),
                w_value: rows(&h.w_value),
            })
            .collect(),
        causal: model.causal,
        scale: model.scale,
    }
}

/// Reads and validates a version-1 state.
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

/// Validates a version-1 state already parsed as JSON.
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
        Some(v) if v.as_u64() != Some(STATE_VERSION) => {
            return Err(error(
                "version",
                format!("unsupported version {v}; this app reads version {STATE_VERSION}"),
            ))
        }
        Some(_) => {}
    }
    let state: SavedState = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        error(
            if path == "." { "state".into() } else { path },
            e.into_inner().to_string(),
        )
    })?;

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
    let mut heads = Vec::with_capacity(state.heads.len());
    for (h, saved) in state.heads.iter().enumerate() {
        let field = |p: Projection| format!("heads[{h}].{}", p.key());
        let w_query = matrix(&field(Projection::Query), &saved.w_query, Some(d_in))?;
        let w_key = matrix(&field(Projection::Key), &saved.w_key, Some(d_in))?;
        let w_value = matrix(&field(Projection::Value), &saved.w_value, Some(d_in))?;
        if w_key.ncols() != w_query.ncols() {
            return Err(error(field(Projection::Key), format!("has {} columns but w_query has {}: keys and queries must have the same width d_k", w_key.ncols(), w_query.ncols())));
        }
        heads.push(Head {
            w_query,
            w_key,
            w_value,
        });
    }
    Model::new(&state.sentence, embedding, heads, state.causal, state.scale)
        .map_err(|m| error("state", m))
}

/// Tokenises a sentence within the limits: some words, at most [`MAX_SENTENCE_CHARS`]
/// characters and [`MAX_TOKENS`] tokens. The error says what is wrong with it.
pub fn check_sentence(sentence: &str) -> Result<Tokens, String> {
    if sentence.chars().count() > MAX_SENTENCE_CHARS {
        return Err(format!("longer than {MAX_SENTENCE_CHARS} characters"));
    }
    let tokens = Tokens::new(sentence);
    if tokens.is_empty() {
        return Err("has no words".into());
    }
    if tokens.len() > MAX_TOKENS {
        return Err(format!(
            "has {} tokens; the limit is {MAX_TOKENS}",
            tokens.len()
        ));
    }
    Ok(tokens)
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
        if let Some((j, x)) = row
            .iter()
            .enumerate()
            .find(|(_, x)| x.is_nan() || x.abs() > MAX_ABS_VALUE)
        {
            return Err(error(
                format!("{field}[{i}][{j}]"),
                format!("{x:e} is outside ±{MAX_ABS_VALUE:e}"),
            ));
        }
    }
    let flat: Vec<f64> = rows.concat();
    Ok(DMatrix::from_row_slice(rows.len(), cols, &flat))
}

/// Sizes within the limits: d_in, d_k, d_v from 1 to [`MAX_DIM`], heads from 1 to
/// [`MAX_HEADS`]. The error names the first size out of range.
pub fn check_dims(dims: Dims) -> Result<(), String> {
    for (name, n, max) in [
        ("d_in", dims.d_in, MAX_DIM),
        ("d_k", dims.d_k, MAX_DIM),
        ("d_v", dims.d_v, MAX_DIM),
        ("heads", dims.heads, MAX_HEADS),
    ] {
        if !(1..=max).contains(&n) {
            return Err(format!(
                "{name} must be a whole number from 1 to {max}, not {n}"
            ));
        }
    }
    Ok(())
}
