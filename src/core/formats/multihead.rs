//! PyTorch's `nn.MultiheadAttention` in and out: a state dict (as JSON of nested lists, or a
//! `.safetensors` file) becomes this app's heads, biases and output projection, and back.
//!
//! PyTorch computes y = x·Wᵀ + b with the three projections stacked in `in_proj_weight`
//! (3E × E: q, k, v); head h takes rows h·E/H … (h+1)·E/H of each block, so its W_query here
//! (row vectors, d_in × d_k) is that block transposed. Scores are scaled by √(E/H); a causal
//! module is one called with a boolean `attn_mask` above the diagonal.

use std::collections::BTreeMap;

use nalgebra::DMatrix;
use serde_json::{json, Value};

use crate::core::model::limits::{check_sentence, MAX_ABS_VALUE, MAX_DIM, MAX_HEADS};
use crate::core::model::positions::Positions;
use crate::core::model::presets::DEFAULT_SEED;
use crate::core::model::tokens::Tokens;
use crate::core::model::{Biases, Dims, Head, Model, OutputProjection, Projection, Scale};

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
fn not_json(text: &str, e: serde_json::Error) -> String {
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

fn tensor_of_value(name: &str, v: &Value) -> Result<Tensor, String> {
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

/// The names a module's parameters go by, after a common prefix (`self_attn.`).
struct Names {
    prefix: String,
    /// `in_proj_weight` (packed) or separate q, k, v weights.
    packed: bool,
    /// Separate weights' names: `q_proj.weight` (Hugging Face, fairseq) or `q_proj_weight`
    /// (PyTorch when kdim or vdim differ).
    separate: [&'static str; 3],
}

fn names(dict: &StateDict) -> Result<Names, String> {
    for key in dict.keys() {
        if let Some(prefix) = key.strip_suffix("in_proj_weight") {
            return Ok(Names {
                prefix: prefix.to_owned(),
                packed: true,
                separate: ["", "", ""],
            });
        }
        for separate in [
            ["q_proj.weight", "k_proj.weight", "v_proj.weight"],
            ["q_proj_weight", "k_proj_weight", "v_proj_weight"],
        ] {
            if let Some(prefix) = key.strip_suffix(separate[0]) {
                return Ok(Names {
                    prefix: prefix.to_owned(),
                    packed: false,
                    separate,
                });
            }
        }
    }
    let found: Vec<&str> = dict.keys().map(String::as_str).take(6).collect();
    Err(format!(
        "no attention weights: expected in_proj_weight (nn.MultiheadAttention) or q_proj.weight, k_proj.weight, v_proj.weight; found {}",
        if found.is_empty() { "nothing".into() } else { found.join(", ") }
    ))
}

/// Every key under the module's prefix must be one this reader uses: a key it does not know
/// (`bias_k`, a misspelt `out_proj.bias`) would change the numbers PyTorch computes, so it is
/// refused, as `load_state_dict(strict=True)` does. Keys outside the prefix are other layers.
fn refuse_unknown(dict: &StateDict, n: &Names) -> Result<(), String> {
    // Hugging Face's separate projections carry their own biases (q_proj.bias); PyTorch's
    // (q_proj_weight) share in_proj_bias.
    let own_biases = n
        .separate
        .map(|w| w.strip_suffix(".weight").map(|s| format!("{s}.bias")));
    let known = |name: &str| {
        [
            "in_proj_weight",
            "in_proj_bias",
            "out_proj.weight",
            "out_proj.bias",
        ]
        .contains(&name)
            || (!n.packed && n.separate.contains(&name))
            || own_biases.iter().flatten().any(|b| b == name)
    };
    let unknown: Vec<&str> = dict
        .keys()
        .filter(|k| k.strip_prefix(&n.prefix).is_some_and(|rest| !known(rest)))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = unknown.iter().copied().take(4).collect();
    Err(format!(
        "unexpected key{} {}{}: nn.MultiheadAttention's state dict holds in_proj_weight, in_proj_bias, out_proj.weight and out_proj.bias (or q_proj.weight, k_proj.weight, v_proj.weight and their biases); a key this app cannot use is refused rather than ignored",
        if unknown.len() == 1 { "" } else { "s" },
        shown.join(", "),
        if unknown.len() > shown.len() { format!(" and {} more", unknown.len() - shown.len()) } else { String::new() },
    ))
}

fn get<'a>(dict: &'a StateDict, prefix: &str, name: &str) -> Option<(&'a Tensor, String)> {
    let full = format!("{prefix}{name}");
    dict.get(&full).map(|t| (t, full))
}

/// A 2-D tensor of `rows` × `cols`, as a matrix; the message names it and the shape expected.
fn matrix_of(t: &Tensor, name: &str, rows: usize, cols: usize) -> Result<DMatrix<f64>, String> {
    if t.shape != [rows, cols] {
        return Err(format!(
            "{name} is {}, expected {rows} × {cols}",
            shape_text(&t.shape)
        ));
    }
    within(name, &t.data)?;
    Ok(DMatrix::from_row_slice(rows, cols, &t.data))
}

/// A 1-D tensor of `n`.
fn vector_of(t: &Tensor, name: &str, n: usize) -> Result<Vec<f64>, String> {
    if t.shape != [n] {
        return Err(format!(
            "{name} is {}, expected {n} numbers",
            shape_text(&t.shape)
        ));
    }
    within(name, &t.data)?;
    Ok(t.data.clone())
}

fn within(name: &str, data: &[f64]) -> Result<(), String> {
    match data.iter().find(|x| x.abs() > MAX_ABS_VALUE) {
        Some(x) => Err(format!("{name} holds {x:e}, outside ±{MAX_ABS_VALUE:e}")),
        None => Ok(()),
    }
}

fn shape_text(shape: &[usize]) -> String {
    match shape {
        [] => "a single number".into(),
        [n] => format!("{n} numbers"),
        dims => dims
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" × "),
    }
}

/// The attention layer of a state dict: its heads (with biases when it has any) and its output
/// projection, for inputs of width E, as `nn.MultiheadAttention(E, heads)` computes.
pub fn layer_of(dict: &StateDict, heads: usize) -> Result<(Vec<Head>, OutputProjection), String> {
    let n = names(dict)?;
    let p = n.prefix.as_str();
    // E from the query weight: packed 3E × E, or E × E.
    let (weights, e) = if n.packed {
        let (t, name) = get(dict, p, "in_proj_weight").expect("found by names");
        let e = t.shape.get(1).copied().unwrap_or(0);
        let all = matrix_of(t, &name, 3 * e, e)?;
        let blocks = [0, 1, 2].map(|i| all.rows(i * e, e).into_owned());
        (blocks, e)
    } else {
        let (q, q_name) = get(dict, p, n.separate[0]).expect("found by names");
        let e = q.shape.get(1).copied().unwrap_or(0);
        let mut blocks = Vec::with_capacity(3);
        for name in n.separate {
            let (t, full) = get(dict, p, name).ok_or_else(|| {
                format!(
                    "{q_name} is there but {p}{name} is not: the three projections come together"
                )
            })?;
            blocks.push(matrix_of(t, &full, e, e)?);
        }
        (
            <[DMatrix<f64>; 3]>::try_from(blocks).expect("three blocks"),
            e,
        )
    };
    if !(1..=MAX_DIM).contains(&e) {
        return Err(format!(
            "the embedding width E is {e}; this app takes 1 to {MAX_DIM}"
        ));
    }
    if !(1..=MAX_HEADS).contains(&heads) || e % heads != 0 {
        return Err(format!(
            "{heads} heads: the number of heads must divide E = {e} and be 1 to {MAX_HEADS}"
        ));
    }
    refuse_unknown(dict, &n)?;
    let packed_bias = || {
        get(dict, p, "in_proj_bias")
            .map(|(t, name)| {
                let b = vector_of(t, &name, 3 * e)?;
                Ok::<_, String>([0, 1, 2].map(|i| b[i * e..(i + 1) * e].to_vec()))
            })
            .transpose()
    };
    let in_biases: Option<[Vec<f64>; 3]> = if n.packed || n.separate[0].ends_with("_weight") {
        // PyTorch keeps one in_proj_bias also when its weights are separate (kdim ≠ E).
        packed_bias()?
    } else {
        let found: Vec<Option<Vec<f64>>> = n
            .separate
            .iter()
            .map(|w| {
                let name = w.replace("weight", "bias");
                get(dict, p, &name)
                    .map(|(t, full)| vector_of(t, &full, e))
                    .transpose()
            })
            .collect::<Result<_, _>>()?;
        // A projection without a bias (Whisper's k_proj) adds nothing: zeros.
        found
            .iter()
            .any(Option::is_some)
            .then(|| [0, 1, 2].map(|i| found[i].clone().unwrap_or_else(|| vec![0.0; e])))
    };
    let (t, full) = get(dict, p, "out_proj.weight")
        .ok_or_else(|| format!("{p}out_proj.weight is missing: the output projection (E × E)"))?;
    let w_out = matrix_of(t, &full, e, e)?;
    let out_bias = get(dict, p, "out_proj.bias")
        .map(|(t, full)| vector_of(t, &full, e))
        .transpose()?;
    // nn.MultiheadAttention(bias=True) has both biases: a module with one of them gets the
    // other as zeros (what adds nothing), so writing it back and reading it again is the same.
    let (biases, b_output) = match (in_biases, out_bias) {
        (None, None) => (None, None),
        (i, o) => (
            Some(i.unwrap_or_else(|| [0, 1, 2].map(|_| vec![0.0; e]))),
            Some(DMatrix::from_row_slice(
                1,
                e,
                &o.unwrap_or_else(|| vec![0.0; e]),
            )),
        ),
    };
    let d = e / heads;
    let heads = (0..heads)
        .map(|h| {
            let w = |i: usize| weights[i].rows(h * d, d).transpose();
            let b = |i: usize| {
                biases
                    .as_ref()
                    .map(|b| DMatrix::from_row_slice(1, d, &b[i][h * d..(h + 1) * d]))
            };
            Head {
                w_query: w(0),
                w_key: w(1),
                w_value: w(2),
                biases: biases.as_ref().map(|_| Biases {
                    b_query: b(0).expect("biases"),
                    b_key: b(1).expect("biases"),
                    b_value: b(2).expect("biases"),
                }),
            }
        })
        .collect();
    Ok((
        heads,
        OutputProjection {
            w_output: w_out.transpose(),
            b_output,
        },
    ))
}

/// `model` with the attention layer of `dict` (its sentence, embedding and mask kept, the
/// scaling ÷√dₖ as PyTorch's); the message says what does not fit.
pub fn import_into(model: &Model, dict: &StateDict, heads: usize) -> Result<Model, String> {
    let (heads, output) = layer_of(dict, heads)?;
    let e = heads[0].w_query.nrows();
    let d_in = model.embedding().ncols();
    if e != d_in {
        return Err(format!(
            "the module takes inputs of width E = {e} but this page's embedding is {d_in} wide: set d_in to {e} first, or import a module with E = {d_in}"
        ));
    }
    Model::new(
        model.sentence(),
        model.embedding().clone(),
        heads,
        model.causal,
        Scale::SqrtDk,
    )?
    .with_output(Some(output))?
    .with_positions(model.positions().clone())
}

/// Reads `attention-trace --from-torch`'s file: `{"sentence", "embedding" (a row per token),
/// "causal", "num_heads", "state_dict"}`. Without an embedding (absent or null) the words get the
/// page's seeded rows, `torch.manual_seed(123)` then `nn.Embedding(50_000, E)`.
pub fn read_torch_file(text: &str) -> Result<Model, String> {
    if text.len() > MAX_DICT_BYTES {
        return Err(format!("longer than {MAX_DICT_BYTES} bytes"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| not_json(text, e))?;
    let field = |name: &str| {
        value
            .get(name)
            .ok_or_else(|| format!("\"{name}\" is missing"))
    };
    let sentence = field("sentence")?
        .as_str()
        .ok_or("\"sentence\" must be a string")?;
    let tokens = check_sentence(sentence).map_err(|e| format!("sentence: {e}"))?;
    let causal = field("causal")?
        .as_bool()
        .ok_or("\"causal\" must be true or false")?;
    let heads = field("num_heads")?
        .as_u64()
        .ok_or("\"num_heads\" must be a whole number")? as usize;
    let dict = state_dict_of_value(field("state_dict")?).map_err(|e| format!("state_dict: {e}"))?;
    let start = match value.get("embedding").filter(|e| !e.is_null()) {
        Some(x) => {
            let embedding = embedding_of_rows(&tokens, &tensor_of_value("embedding", x)?)?;
            let d_in = embedding.ncols();
            Model::new(
                sentence,
                embedding,
                vec![Head::new(
                    DMatrix::zeros(d_in, 1),
                    DMatrix::zeros(d_in, 1),
                    DMatrix::zeros(d_in, 1),
                )],
                causal,
                Scale::SqrtDk,
            )?
        }
        None => {
            let d_in = layer_of(&dict, heads)?.0[0].w_query.nrows();
            let dims = Dims {
                d_in,
                d_k: 1,
                d_v: 1,
                heads: 1,
            };
            Model::seeded(sentence, dims, DEFAULT_SEED, causal, Scale::SqrtDk)?
        }
    };
    import_into(&start, &dict, heads)
}

/// The embedding table (a row per vocabulary word) of `x`, a row per token.
fn embedding_of_rows(tokens: &Tokens, x: &Tensor) -> Result<DMatrix<f64>, String> {
    let (n, width) = (tokens.len(), x.shape.get(1).copied().unwrap_or(0));
    let x = matrix_of(x, "embedding", n, width).map_err(|e| format!("{e} (a row per token)"))?;
    // One row per vocabulary word: a word that repeats must have the same row each time.
    let mut rows: Vec<Option<usize>> = vec![None; tokens.vocabulary.len()];
    for (t, &id) in tokens.ids.iter().enumerate() {
        match rows[id] {
            Some(first) if x.row(first) != x.row(t) => {
                return Err(format!(
                    "embedding: “{}” is token {first} and token {t} with different rows; this app gives a word one row",
                    tokens.words[t]
                ))
            }
            Some(_) => {}
            None => rows[id] = Some(t),
        }
    }
    Ok(DMatrix::from_fn(rows.len(), width, |i, j| {
        x[(rows[i].expect("every word is a token"), j)]
    }))
}

/// The model as `nn.MultiheadAttention(E, H, bias=…)`'s state dict and H, as JSON of lists:
/// what is not there is written as what adds nothing (zero biases, an identity output
/// projection), so PyTorch computes the same numbers. Refused, with the reason, when the heads
/// do not have PyTorch's shapes (every d_k = d_v = E/H) or the scaling is not ÷√dₖ.
pub fn to_state_dict(model: &Model) -> Result<(Value, usize), String> {
    if model.source().is_some() {
        return Err("this exports self-attention: with a source sentence, call nn.MultiheadAttention(query=x, key=source, value=source) on it (Copy as PyTorch writes it out)".into());
    }
    let e = model.embedding().ncols();
    let h = model.heads().len();
    let d = e / h;
    if !e.is_multiple_of(h) || model.heads().iter().any(|x| x.d_k() != d || x.d_v() != d) {
        return Err(format!(
            "nn.MultiheadAttention gives every head d_k = d_v = E/H; here E = {e} and {h} heads need d_k = d_v = {}",
            if e.is_multiple_of(h) { d.to_string() } else { format!("{e}/{h}") }
        ));
    }
    if model.scale != Scale::SqrtDk {
        return Err("nn.MultiheadAttention scales by √dₖ: choose ÷√dₖ".into());
    }
    if *model.positions() != Positions::None {
        return Err(
            "nn.MultiheadAttention has no positions (a model adds them before it): choose none"
                .into(),
        );
    }
    let bias = model.has_biases() || model.output().is_some_and(|o| o.b_output.is_some());
    let rows = |m: &DMatrix<f64>| -> Value {
        m.row_iter()
            .map(|r| r.iter().copied().collect::<Vec<f64>>())
            .collect::<Vec<_>>()
            .into()
    };
    let mut in_proj = DMatrix::zeros(3 * e, e);
    let mut in_bias = vec![0.0; 3 * e];
    for (i, p) in Projection::ALL.into_iter().enumerate() {
        for (k, head) in model.heads().iter().enumerate() {
            let at = i * e + k * d;
            in_proj
                .view_mut((at, 0), (d, e))
                .copy_from(&head[p].transpose());
            if let Some(b) = &head.biases {
                in_bias[at..at + d].copy_from_slice(b[p].as_slice());
            }
        }
    }
    let (w_out, b_out) = match model.output() {
        Some(o) if o.w_output.ncols() == e => (
            o.w_output.transpose(),
            o.b_output
                .as_ref()
                .map_or_else(|| vec![0.0; e], |b| b.as_slice().to_vec()),
        ),
        Some(o) => {
            return Err(format!(
                "nn.MultiheadAttention's output is E = {e} wide; W_output here is {} wide",
                o.w_output.ncols()
            ))
        }
        None => (DMatrix::identity(e, e), vec![0.0; e]),
    };
    let mut dict = serde_json::Map::new();
    dict.insert("in_proj_weight".into(), rows(&in_proj));
    if bias {
        dict.insert("in_proj_bias".into(), in_bias.into());
    }
    dict.insert("out_proj.weight".into(), rows(&w_out));
    if bias {
        dict.insert("out_proj.bias".into(), b_out.into());
    }
    Ok((Value::Object(dict), h))
}

/// `attention-trace --to-torch`'s file, which `--from-torch` reads back.
pub fn torch_file(model: &Model) -> Result<Value, String> {
    let (dict, heads) = to_state_dict(model)?;
    let embedded = model.embedded();
    let rows: Vec<Vec<f64>> = embedded
        .row_iter()
        .map(|r| r.iter().copied().collect())
        .collect();
    Ok(json!({
        "sentence": model.sentence(),
        "embedding": rows,
        "causal": model.causal,
        "num_heads": heads,
        "state_dict": dict,
    }))
}
