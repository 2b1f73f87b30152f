//! Helpers shared by the native tests: fixtures and matrix comparison.
#![allow(dead_code)] // each test file uses a different subset

pub mod gguf;

use std::path::PathBuf;
use std::sync::OnceLock;

use attention_explorer::core::pretrained::{read_folder, Encoder};
use nalgebra::DMatrix;
use serde_json::Value;

/// `attention-trace ARGS` with `stdin` as its input: its status, output and messages.
pub fn attention_trace(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_attention-trace"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    // A command that refuses its arguments may exit before reading its input.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// A fixture file from `tests/fixtures/`.
pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture exists"))
        .expect("fixture is JSON")
}

/// A number, with "-inf" and "nan" read as written by the fixtures and `attention-trace`.
pub fn number(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        Value::String(s) if s == "nan" => f64::NAN,
        _ => v.as_f64().expect("a number"),
    }
}

/// A gzipped fixture (a 10-byte header, the file's name, deflate, 8 bytes) as JSON.
pub fn unzipped(gz: &[u8]) -> Value {
    let mut at = 10;
    if gz[3] & 0x08 != 0 {
        at += gz[at..].iter().position(|&b| b == 0).unwrap() + 1;
    }
    let json = miniz_oxide::inflate::decompress_to_vec(&gz[at..gz.len() - 8]).unwrap();
    serde_json::from_slice(&json).unwrap()
}

/// A list of rows as a matrix.
pub fn matrix(v: &Value) -> DMatrix<f64> {
    let rows: Vec<Vec<f64>> = v
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_array().expect("a row").iter().map(number).collect())
        .collect();
    let cols = rows.first().map_or(0, Vec::len);
    DMatrix::from_row_slice(rows.len(), cols, &rows.concat())
}

/// Asserts two matrices have the same shape and agree within `tol` (−∞ and NaN must match exactly).
pub fn assert_close(name: &str, actual: &DMatrix<f64>, expected: &DMatrix<f64>, tol: f64) {
    assert_eq!(actual.shape(), expected.shape(), "{name}: shape");
    for i in 0..expected.nrows() {
        for j in 0..expected.ncols() {
            let (a, e) = (actual[(i, j)], expected[(i, j)]);
            let same = (a.is_nan() && e.is_nan()) || a == e || (a - e).abs() <= tol;
            assert!(
                same,
                "{name}[{i}][{j}]: got {a}, expected {e} (tolerance {tol})"
            );
        }
    }
}

/// Asserts `grad` is ∂(loss)/∂`target` of `model` by central differences, cell by cell.
pub fn assert_gradient(
    what: &str,
    model: &attention_explorer::core::model::Model,
    target: attention_explorer::core::model::Editable,
    grad: &DMatrix<f64>,
    loss: impl Fn(&attention_explorer::core::model::Model) -> f64,
) {
    let m = model
        .matrix(target)
        .expect("the model has the matrix")
        .clone();
    let h = 1e-6;
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            let (mut up, mut down) = (model.clone(), model.clone());
            up.set(target, i, j, m[(i, j)] + h);
            down.set(target, i, j, m[(i, j)] - h);
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!(
                (numeric - grad[(i, j)]).abs() <= 1e-6,
                "{what} {target:?}[{i}][{j}]: {numeric} against {}",
                grad[(i, j)]
            );
        }
    }
}

/// The output of `model`'s "Copy as PyTorch" script run by torch (`PYTHON`, else `python3`),
/// or `None`, said on stderr, when that Python has no torch (CI's machine has none).
#[cfg(not(target_arch = "wasm32"))]
pub fn torch_output(model: &attention_explorer::core::model::Model) -> Option<DMatrix<f64>> {
    torch_run(model).map(|(output, _)| output)
}

/// [`torch_output`] and everything the script printed.
#[cfg(not(target_arch = "wasm32"))]
pub fn torch_run(model: &attention_explorer::core::model::Model) -> Option<(DMatrix<f64>, String)> {
    use std::process::Command;
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let has_torch = Command::new(&python)
        .args(["-c", "import torch"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_torch {
        eprintln!("SKIPPED: {python} has no torch (set PYTHON to one that does)");
        return None;
    }
    let written = attention_explorer::core::formats::pytorch::pytorch_script(model, None);
    let script = written.text + "import json\nprint('JSON', json.dumps(output.tolist()))\n";
    // A large model's numbers are a file the script loads from where it runs.
    let dir = std::env::temp_dir().join(format!("explorer-torch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    if let Some(numbers) = &written.numbers {
        let file = dir.join(attention_explorer::core::formats::pytorch::NUMBERS_FILE);
        std::fs::write(file, numbers).expect("the numbers are written");
    }
    let out = Command::new(&python)
        .args(["-c", &script])
        .current_dir(&dir)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let json = stdout
        .lines()
        .find_map(|l| l.strip_prefix("JSON "))
        .expect("the script prints its output");
    Some((
        matrix(&serde_json::from_str(json).expect("JSON")),
        stdout.clone(),
    ))
}

/// Where `www/pretrained.mjs` puts the model (or `ATTENTION_PRETRAINED`).
pub fn pretrained_folder() -> PathBuf {
    std::env::var_os("ATTENTION_PRETRAINED").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("target/pretrained")
                .join(attention_explorer::core::pretrained::SHIPPED.name)
        },
        PathBuf::from,
    )
}

/// The model, read once for every test; None (said) when it is not there.
pub fn pretrained_encoder() -> Option<&'static Encoder> {
    static ENCODER: OnceLock<Option<Encoder>> = OnceLock::new();
    ENCODER
        .get_or_init(|| {
            let dir = pretrained_folder();
            if !dir.join("model.safetensors").exists() {
                return None;
            }
            Some(read_folder(&dir).expect("the package's folder reads"))
        })
        .as_ref()
        .or_else(|| {
            eprintln!(
                "SKIPPED: no trained model in {} (run `node www/pretrained.mjs`)",
                pretrained_folder().display()
            );
            None
        })
}

/// The largest difference between two matrices of one shape.
pub fn largest_difference(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    assert_eq!(a.shape(), b.shape());
    a.iter()
        .zip(b.iter())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}
