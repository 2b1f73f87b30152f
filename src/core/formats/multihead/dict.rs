//! A state dict read as it comes: JSON of nested lists (Python's snippet or a `--to-torch` file)
//! or a `.safetensors` file, each tensor its shape and numbers, before any is read as a layer.

use std::collections::BTreeMap;

use serde_json::Value;
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
pub fn read_state_dict_json(text: &str) -> Result<(StateDict, Option<usize>), String> {
    if text.len() > MAX_DICT_BYTES {
        return Err(format!("longer than {MAX_DICT_BYTES} bytes"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| not_json(text, e))?;
    match value.get("state_dict") {
        Some(dict) => Ok((
            state_dict_of_value(dict).map_err(|e| format!("state_dict: {e}"))?,
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
pub(super) fn not_json(text: &str, e: serde_json::Error) -> String {
    let at = (e.column() > 0).then(|| {
        let line = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
        line.get(e.column().saturating_sub(1)..).unwrap_or("")
    });
    match at {
        Some(rest) if ["NaN", "Infinity", "-Infinity"].iter().any(|t| rest.starts_with(t)) => {
            "it holds NaN or Infinity (Python's json writes them; they are not numbers): every number must be finite".into()
        }
        _ => format!("not valid JSON ({e})"),
    }
}

/// A state dict already parsed as JSON.
pub fn state_dict_of_value(value: &Value) -> Result<StateDict, String> {
    let object = value
        .as_object()
        .ok_or("expected a JSON object of parameter names and lists of numbers")?;
    let mut out = StateDict::new();
    for (name, v) in object {
        out.insert(name.clone(), tensor_of_value(name, v)?);
    }
    Ok(out)
}

pub(super) fn tensor_of_value(name: &str, v: &Value) -> Result<Tensor, String> {
    let number = |x: &Value, at: String| {
        x.as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{name}{at}: expected a number"))
    };
    let items = v
        .as_array()
        .ok_or_else(|| format!("{name}: expected a list of numbers or of rows"))?;
    match items.first() {
        Some(Value::Array(first)) => {
            let cols = first.len();
            let mut data = Vec::with_capacity(items.len() * cols);
            for (i, row) in items.iter().enumerate() {
                let row = row
                    .as_array()
                    .filter(|r| r.len() == cols)
                    .ok_or_else(|| format!("{name}[{i}]: expected a row of {cols} numbers"))?;
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
pub fn read_safetensors(bytes: &[u8]) -> Result<(StateDict, Option<usize>), String> {
    use safetensors::{Dtype, SafeTensors};
    if bytes.len() > MAX_DICT_BYTES {
        return Err(format!("larger than {MAX_DICT_BYTES} bytes"));
    }
    // torch.save writes a zip (PK…) or a bare pickle (0x80, protocol): code, not numbers.
    if bytes.starts_with(b"PK\x03\x04") || bytes.first() == Some(&0x80) {
        return Err("it is a PyTorch pickle (torch.save's .pt or .pth), which could run code, so it is not opened: save the state dict with safetensors.torch.save_file, or as JSON with the snippet above".into());
    }
    let not_safetensors = |e: safetensors::SafeTensorError| format!("not a safetensors file ({e})");
    let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(not_safetensors)?;
    let heads = match metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get("num_heads"))
    {
        None => None,
        Some(h) => Some(
            h.parse::<usize>()
                .map_err(|_| format!("its metadata's num_heads is {h:?}, not a whole number"))?,
        ),
    };
    let file = SafeTensors::deserialize(bytes).map_err(not_safetensors)?;
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
                return Err(format!(
                    "{name}: {other:?} numbers; this app reads float32 and float64 (call .double() or .float() before saving)"
                ))
            }
        };
        if let Some(x) = data.iter().find(|x| !x.is_finite()) {
            return Err(format!("{name}: holds {x}, which is not a finite number"));
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
