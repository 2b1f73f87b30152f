//! A trained model's layer in a saved state or a link: not its millions of numbers but what
//! opens it again from the model file, the learner's changed cells with it.
//!
//! ```json
//! {"version": 2, "pretrained": {"model": "all-minilm-l6-v2", "sentence": "…", "layer": 3,
//!  "knocked": [[1, 4]], "changes": [[0, "w_query", 2, 7, 3, 0.5], [5, "b_output", null, 0, 9, 1]]}}
//! ```
//! A language model's also has `"written": [7042, 30]`, the ids it wrote at the sentence's end.
//! A change is `[layer, matrix, head (null for w_output and b_output), row, column, value]`,
//! layers and heads counted from 0 as transformers counts them.

use serde_json::{json, Value};

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;

use crate::core::model::layer_record::{changed_cells, LayerOpening};
use crate::core::model::limits::MAX_PROMPT_TOKENS;
use crate::core::model::{Editable, Model, Projection, WeightChange};
use crate::core::pretrained::config::MAX_HIDDEN;

/// Most changed cells a state may carry: every number of a layer's attention at the widest
/// hidden state the page opens (4 × hidden × hidden weights and 4 × hidden biases), as training
/// every matrix of a layer changes them all.
pub const MAX_CHANGES: usize = 4 * MAX_HIDDEN * (MAX_HIDDEN + 1);

/// A layer model's state (without its version, which the state adds), None for other models.
pub fn trained_value(model: &Model) -> Option<Value> {
    let layered = model.layered()?;
    let changes: Vec<Value> = changed_cells(model)?
        .iter()
        .map(|c| {
            json!([
                c.layer,
                c.target.key(),
                c.target.head(),
                c.row,
                c.col,
                c.value
            ])
        })
        .collect();
    let mut value = json!({
        "pretrained": {
            "model": layered.name,
            "sentence": model.sentence(),
            "layer": layered.layer,
            "knocked": layered.knocked,
            "changes": changes,
        }
    });
    // Only a language model's: an encoder's state reads as it always did.
    if !layered.written.is_empty() {
        value["pretrained"]["written"] = json!(layered.written);
    }
    Some(value)
}

/// The name of the trained model a state's `pretrained` (as JSON text) names, if it can be read.
pub fn trained_name(text: &str) -> Option<String> {
    let p: Value = serde_json::from_str(text).ok()?;
    Some(p.get("model")?.as_str()?.to_owned())
}

/// The trained model a state's `pretrained` (as JSON text) names and what to open of it, or
/// which field cannot be read.
pub fn read_trained(text: &str) -> Result<(String, LayerOpening), Msg> {
    let p: Value = serde_json::from_str(text).map_err(formats::pretrained_not_json)?;
    let text = |field: &str| {
        p.get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| formats::must_be_text(format!("pretrained.{field}")))
    };
    let whole = |v: &Value, field: &str| {
        v.as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| formats::whole_from_zero(field))
    };
    let list = |field: &str| match p.get(field) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a.clone()),
        Some(_) => Err(formats::must_be_list(format!("pretrained.{field}"))),
    };
    let name = text("model")?.to_owned();
    let sentence = text("sentence")?.to_owned();
    let layer = whole(p.get("layer").unwrap_or(&Value::Null), "pretrained.layer")?;
    let knocked = list("knocked")?
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let field = format!("pretrained.knocked[{i}]");
            match k.as_array().map(Vec::as_slice) {
                Some([l, h]) => Ok((whole(l, &field)?, whole(h, &field)?)),
                _ => Err(formats::layer_and_head(field)),
            }
        })
        .collect::<Result<Vec<_>, Msg>>()?;
    let changes = list("changes")?;
    if changes.len() > MAX_CHANGES {
        return Err(formats::changes_limit(changes.len(), MAX_CHANGES));
    }
    let written = list("written")?
        .iter()
        .enumerate()
        .map(|(i, id)| {
            id.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| formats::token_id(format!("pretrained.written[{i}]")))
        })
        .collect::<Result<Vec<u32>, Msg>>()?;
    if written.len() > MAX_PROMPT_TOKENS {
        return Err(formats::written_limit(written.len(), MAX_PROMPT_TOKENS));
    }
    let changes = changes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            read_change(c).map_err(|e| formats::change_at(format!("pretrained.changes[{i}]"), e))
        })
        .collect::<Result<Vec<_>, Msg>>()?;
    Ok((
        name,
        LayerOpening {
            sentence,
            layer,
            knocked,
            changes,
            written,
        },
    ))
}

/// `[layer, matrix, head, row, column, value]`.
fn read_change(c: &Value) -> Result<WeightChange, Msg> {
    let shape = formats::change_shape;
    let Some([layer, key, head, row, col, value]) = c.as_array().map(Vec::as_slice) else {
        return Err(shape.into());
    };
    let whole = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
    let (Some(layer), Some(key), Some(row), Some(col), Some(value)) = (
        whole(layer),
        key.as_str(),
        whole(row),
        whole(col),
        value.as_f64(),
    ) else {
        return Err(shape.into());
    };
    let head = whole(head);
    let target = match (key, head) {
        ("w_output", None) => Editable::OutputWeight,
        ("b_output", None) => Editable::OutputBias,
        (key, Some(h)) => Projection::ALL
            .into_iter()
            .flat_map(|p| [Editable::Weight(h, p), Editable::Bias(h, p)])
            .find(|t| t.key() == key)
            .ok_or_else(|| formats::not_head_matrix(crate::core::text::clip(key)))?,
        (key, None) => return Err(formats::without_head(crate::core::text::clip(key))),
    };
    Ok(WeightChange {
        layer,
        target,
        row,
        col,
        value,
    })
}
