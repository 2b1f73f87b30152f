//! A state dict read as it comes: JSON of nested lists (Python's snippet or a `--to-torch` file)
//! or a `.safetensors` file, each tensor its shape and numbers, before any is read as a layer.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;
/// One tensor of a state dict: its shape (1 or 2 dimensions) and its numbers, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// `[n]` or `[rows, cols]`.
    pub shape: Vec<usize>,
    /// Row-major.
    pub data: Vec<f64>,
}

/// A state dict by parameter name.
pub type StateDict = BTreeMap<String, Tensor>;

/// The Python that prints the JSON the page reads (shown beside the import field).
pub const PYTHON_SNIPPET: &str = "import json\n\
    # mha = torch.nn.MultiheadAttention(E, H, batch_first=True), trained or loaded\n\
    print(json.dumps({k: v.tolist() for k, v in mha.state_dict().items()}))";

/// Most bytes of a state dict read (JSON or safetensors): a module at every limit, and room.
pub const MAX_DICT_BYTES: usize = 16 * 1024 * 1024;

/// Reads `{"in_proj_weight": [[…]], …}` (every value a list of numbers or of equal rows), or a
/// whole `--to-torch` file, whose `state_dict` it takes with its `num_heads`.
pub fn read_state_dict_json(text: &str) -> Result<(StateDict, Option<usize>), Msg> {
    if text.len() > MAX_DICT_BYTES {
        return Err(formats::longer_than(MAX_DICT_BYTES));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| not_json(text, e))?;
    match value.get("state_dict") {
        Some(dict) => Ok((
            state_dict_of_value(dict).map_err(|e| formats::at("state_dict", e))?,
            value
                .get("num_heads")
                .and_then(Value::as_u64)
                .map(|h| h as usize),
        )),
        None => Ok((state_dict_of_value(&value)?, None)),
    }
}

/// Why `text` is not JSON: Python's `json.dumps` writes a NaN or an infinity as `NaN` or
/// `Infinity`, which JSON has no numbers for; said so, not as a parser's column.
pub(super) fn not_json(text: &str, e: serde_json::Error) -> Msg {
    let at = (e.column() > 0).then(|| {
        let line = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
        line.get(e.column().saturating_sub(1)..).unwrap_or("")
    });
    match at {
        Some(rest)
            if ["NaN", "Infinity", "-Infinity"]
                .iter()
                .any(|t| rest.starts_with(t)) =>
        {
            formats::nan_or_infinity.into()
        }
        _ => formats::not_valid_json(e),
    }
}

/// A state dict already parsed as JSON.
pub fn state_dict_of_value(value: &Value) -> Result<StateDict, Msg> {
    let object = value.as_object().ok_or(formats::expected_object)?;
    let mut out = StateDict::new();
    for (name, v) in object {
        out.insert(name.clone(), tensor_of_value(name, v)?);
    }
    Ok(out)
}

pub(super) fn tensor_of_value(name: &str, v: &Value) -> Result<Tensor, Msg> {
    let number = |x: &Value, at: String| {
        x.as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| formats::at(format!("{name}{at}"), formats::expected_number))
    };
    let items = v
        .as_array()
        .ok_or_else(|| formats::at(name, formats::expected_list))?;
    match items.first() {
        Some(Value::Array(first)) => {
            let cols = first.len();
            let mut data = Vec::with_capacity(items.len() * cols);
            for (i, row) in items.iter().enumerate() {
                let row = row.as_array().filter(|r| r.len() == cols).ok_or_else(|| {
                    formats::at(format!("{name}[{i}]"), formats::expected_row(cols))
                })?;
                for (j, x) in row.iter().enumerate() {
                    data.push(number(x, format!("[{i}][{j}]"))?);
                }
            }
            Ok(Tensor {
                shape: vec![items.len(), cols],
                data,
            })
        }
        _ => Ok(Tensor {
            shape: vec![items.len()],
            data: items
                .iter()
                .enumerate()
                .map(|(i, x)| number(x, format!("[{i}]")))
                .collect::<Result<_, _>>()?,
        }),
    }
}

/// Reads a `.safetensors` file (float32 or float64 tensors), and the number of heads its
/// metadata gives (`{"num_heads": "H"}`), if any.
pub fn read_safetensors(bytes: &[u8]) -> Result<(StateDict, Option<usize>), Msg> {
    use safetensors::{Dtype, SafeTensors};
    if bytes.len() > MAX_DICT_BYTES {
        return Err(formats::larger_than(MAX_DICT_BYTES));
    }
    // torch.save writes a zip (PK…) or a bare pickle (0x80, protocol): code, not numbers.
    if bytes.starts_with(b"PK\x03\x04") || bytes.first() == Some(&0x80) {
        return Err(formats::pickle.into());
    }
    let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(formats::not_safetensors)?;
    let heads = match metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get("num_heads"))
    {
        None => None,
        Some(h) => Some(
            h.parse::<usize>()
                .map_err(|_| formats::num_heads_not_whole(format!("{h:?}")))?,
        ),
    };
    let file = SafeTensors::deserialize(bytes).map_err(formats::not_safetensors)?;
    let mut out = StateDict::new();
    for (name, view) in file.tensors() {
        let data: Vec<f64> = match view.dtype() {
            Dtype::F64 => view
                .data()
                .chunks_exact(8)
                .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
                .collect(),
            Dtype::F32 => view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64)
                .collect(),
            other => {
                return Err(formats::at(
                    name,
                    formats::float_types(format!("{other:?}")),
                ))
            }
        };
        if let Some(x) = data.iter().find(|x| !x.is_finite()) {
            return Err(formats::at(name, formats::not_finite(x)));
        }
        out.insert(
            name,
            Tensor {
                shape: view.shape().to_vec(),
                data,
            },
        );
    }
    Ok((out, heads))
}
