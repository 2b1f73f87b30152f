//! Reading a saved state: its size before parsing, its version, the sentence, the embedding and
//! the heads (with the key/value heads they share); the optional parts are read beside it.

use crate::core::i18n::keys::formats;
use crate::core::model::limits::{check_sentence, kv_heads_fit, MAX_DIM, MAX_HEADS, MAX_TOKENS};
use crate::core::model::{Head, Matrix, Model, Projection};

use super::additions::{read_biases, read_output, read_positions, read_source};
use super::error::{error, StateError};
use super::matrices::matrix;
use super::saved::{read_saved, SavedHead, SavedState, STATE_VERSION, STATE_VERSION_2};
/// The longest state read: a model at every limit, each number written with all its digits
/// (at most 24 characters and a comma), plus room for the sentence and brackets. Anything
/// longer is refused before parsing, so a huge link or file costs nothing.
pub const MAX_STATE_BYTES: usize = 25 * (MAX_TOKENS * MAX_DIM // the embedding
        + (MAX_HEADS * 3 + MAX_HEADS) * MAX_DIM * MAX_DIM // the weights and W_output
        + 2 * MAX_TOKENS * MAX_DIM // a learned table, a source's embedding
        + MAX_HEADS * 3 * MAX_DIM + MAX_DIM) // the biases and b_output
        + 256 * 1024;

/// Reads and validates a saved state (version 1 or 2).
pub fn read_state(json: &str) -> Result<Model, StateError> {
    if json.len() > MAX_STATE_BYTES {
        return Err(error(
            "state",
            formats::state_too_long(json.len(), MAX_STATE_BYTES),
        ));
    }
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| error("state", formats::not_valid_json(e)))?;
    read_state_value(&value)
}

/// Validates a saved state already parsed as JSON.
pub fn read_state_value(value: &serde_json::Value) -> Result<Model, StateError> {
    let object = value
        .as_object()
        .ok_or_else(|| error("state", formats::expected_json_object))?;
    match object.get("version") {
        None => return Err(error("version", formats::version_missing(STATE_VERSION))),
        Some(v) if !matches!(v.as_u64(), Some(STATE_VERSION | STATE_VERSION_2)) => {
            return Err(error(
                "version",
                formats::unsupported_version(v, STATE_VERSION, STATE_VERSION_2),
            ))
        }
        Some(_) => {}
    }
    if object.contains_key("pretrained") {
        return Err(error("pretrained", formats::names_trained));
    }
    let state = read_saved(object)?;

    let tokens = check_sentence(&state.sentence).map_err(|m| error("sentence", m))?;
    let vocab = tokens.vocabulary.len();
    if state.embedding.len() != vocab {
        return Err(error(
            "embedding",
            formats::embedding_rows(state.embedding.len(), vocab),
        ));
    }
    let embedding = matrix("embedding", &state.embedding, None)?;
    let d_in = embedding.ncols();

    if state.heads.is_empty() {
        return Err(error("heads", formats::needs_a_head));
    }
    if state.heads.len() > MAX_HEADS {
        return Err(error(
            "heads",
            formats::heads_limit(state.heads.len(), MAX_HEADS),
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
                return Err(error(field(p.key()), formats::head_missing));
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
            return Err(error(
                field("w_key"),
                formats::key_width(w_key.ncols(), w_query.ncols()),
            ));
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

/// With `kv_heads`: how many query heads share each entry of `kv` (checked: G divides the
/// heads, `kv` has G entries, the heads hold only their queries). Without: no `kv`.
fn read_groups(state: &SavedState) -> Result<Option<usize>, StateError> {
    let heads = state.heads.len();
    let Some(g) = state.kv_heads else {
        return match state.kv {
            Some(_) => Err(error("kv", formats::needs_kv_heads)),
            None => Ok(None),
        };
    };
    kv_heads_fit(heads, g).map_err(|m| error("kv_heads", m))?;
    let kv = state
        .kv
        .as_ref()
        .ok_or_else(|| error("kv", formats::kv_missing(g)))?;
    if kv.len() != g {
        return Err(error("kv", formats::kv_entries(kv.len(), g)));
    }
    for (h, head) in state.heads.iter().enumerate() {
        let extra = [
            ("w_key", !head.w_key.is_empty()),
            ("w_value", !head.w_value.is_empty()),
            ("b_key", head.b_key.is_some()),
            ("b_value", head.b_value.is_some()),
        ];
        if let Some((name, _)) = extra.iter().find(|(_, given)| *given) {
            return Err(error(
                format!("heads[{h}].{name}"),
                formats::kv_holds_keys(format!("kv[{}]", h / (heads / g))),
            ));
        }
    }
    Ok(Some(heads / g))
}
