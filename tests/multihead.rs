#![cfg(not(target_arch = "wasm32"))] // proptest and processes: native only
//! `core::multihead` and the model's biases and output projection: PyTorch's
//! `nn.MultiheadAttention` modules (`tests/fixtures/mha_cases.json`, `mha_*.safetensors`) in,
//! every head's weights and the output equal to PyTorch's; the state dict back out; state v2;
//! every bad state dict refused with its message; no bytes make the reader panic.

mod common;

use attention_explorer::core::formats::multihead::{
    import_into, read_safetensors, read_state_dict_json, read_torch_file, state_dict_of_value,
    to_state_dict, torch_file,
};
use attention_explorer::core::formats::state::{read_state, write_state};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::presets::{dog, raschka};
use attention_explorer::core::model::{seeded_biases, seeded_output, Editable, Model, Projection};
use attention_explorer::core::training::{gradients, Objective};
use common::{assert_close, attention_trace, fixture, matrix};
use proptest::prelude::*;
use serde_json::{json, Value};

fn cases() -> Vec<Value> {
    fixture("mha_cases.json")["cases"]
        .as_array()
        .unwrap()
        .clone()
}

fn check_against_torch(c: usize, model: &Model, case: &Value) {
    let trace = Trace::of(model);
    for (h, want) in case["weights"].as_array().unwrap().iter().enumerate() {
        assert_close(
            &format!("case {c} head {h} weights"),
            &trace.heads[h].weights,
            &matrix(want),
            1e-9,
        );
    }
    assert_close(
        &format!("case {c} output"),
        &trace.output,
        &matrix(&case["output"]),
        1e-9,
    );
}

#[test]
fn every_module_equals_pytorch() {
    for (c, case) in cases().iter().enumerate() {
        let model = read_torch_file(&case["torch"].to_string()).expect("the fixture reads");
        assert_eq!(model.causal, case["torch"]["causal"].as_bool().unwrap());
        assert!(model.output().is_some());
        assert_eq!(
            model.has_biases(),
            case["torch"]["state_dict"].get("in_proj_bias").is_some()
        );
        check_against_torch(c, &model, case);
    }
}

#[test]
fn the_state_dict_comes_back() {
    for (c, case) in cases().iter().enumerate() {
        let model = read_torch_file(&case["torch"].to_string()).unwrap();
        let (dict, heads) = to_state_dict(&model).unwrap();
        assert_eq!(heads as u64, case["torch"]["num_heads"].as_u64().unwrap());
        let want = case["torch"]["state_dict"].as_object().unwrap();
        let got = dict.as_object().unwrap();
        let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(got), keys(want), "case {c}");
        for (name, w) in want {
            let (a, b) = (
                state_dict_of_value(&json!({ "x": got[name] })).unwrap()["x"].clone(),
                state_dict_of_value(&json!({ "x": w })).unwrap()["x"].clone(),
            );
            assert_eq!(a.shape, b.shape, "case {c} {name}");
            for (x, y) in a.data.iter().zip(&b.data) {
                assert!((x - y).abs() <= 1e-12, "case {c} {name}: {x} against {y}");
            }
        }
        // And the whole file reads back to the same model, in the CLI and in the page's field.
        let file = torch_file(&model).unwrap().to_string();
        let again = read_torch_file(&file).unwrap();
        assert_eq!(again, model, "case {c}");
        let (pasted, named) = read_state_dict_json(&file).unwrap();
        assert_eq!(named, Some(heads));
        assert_eq!(import_into(&model, &pasted, heads).unwrap(), model);
    }
}

#[test]
fn safetensors_files_import() {
    for (i, case) in cases().iter().take(3).enumerate() {
        let path = format!(
            "{}/tests/fixtures/mha_{i}.safetensors",
            env!("CARGO_MANIFEST_DIR")
        );
        let (dict, heads) = read_safetensors(&std::fs::read(path).unwrap()).unwrap();
        let want_heads = case["torch"]["num_heads"].as_u64().unwrap() as usize;
        assert_eq!(heads, Some(want_heads));
        let json = state_dict_of_value(&case["torch"]["state_dict"]).unwrap();
        assert_eq!(
            dict.keys().collect::<Vec<_>>(),
            json.keys().collect::<Vec<_>>()
        );
        for (name, t) in &dict {
            assert_eq!(t.shape, json[name].shape, "mha_{i} {name}");
            for (x, y) in t.data.iter().zip(&json[name].data) {
                // mha_0 is float64; mha_1 and mha_2 are float32 twins of the JSON.
                let want = if i == 0 { *y } else { *y as f32 as f64 };
                assert_eq!(*x, want, "mha_{i} {name}");
            }
        }
        if i == 0 {
            let page = read_torch_file(&case["torch"].to_string()).unwrap();
            let model = import_into(&page, &dict, want_heads).unwrap();
            check_against_torch(i, &model, case);
        }
    }
}

#[test]
fn hugging_face_names_import_too() {
    let case = &cases()[1];
    let torch = &case["torch"];
    let packed = state_dict_of_value(&torch["state_dict"]).unwrap();
    let e = packed["out_proj.weight"].shape[0];
    let w = &packed["in_proj_weight"].data;
    let b = &packed["in_proj_bias"].data;
    let mut separate = serde_json::Map::new();
    for (i, name) in ["q_proj", "k_proj", "v_proj"].iter().enumerate() {
        let rows: Vec<Vec<f64>> = (0..e)
            .map(|r| w[(i * e + r) * e..(i * e + r + 1) * e].to_vec())
            .collect();
        separate.insert(format!("self_attn.{name}.weight"), json!(rows));
        separate.insert(
            format!("self_attn.{name}.bias"),
            json!(b[i * e..(i + 1) * e].to_vec()),
        );
    }
    for name in ["out_proj.weight", "out_proj.bias"] {
        separate.insert(
            format!("self_attn.{name}"),
            torch["state_dict"][name].clone(),
        );
    }
    let mut file = torch.clone();
    file["state_dict"] = Value::Object(separate);
    let model = read_torch_file(&file.to_string()).unwrap();
    check_against_torch(1, &model, case);
}

#[test]
fn bad_state_dicts_are_named() {
    let page = read_torch_file(&cases()[1]["torch"].to_string()).unwrap();
    let good = cases()[1]["torch"]["state_dict"].clone();
    let with = |name: &str, v: Value| {
        let mut d = good.clone();
        d[name] = v;
        d
    };
    let without = |name: &str| {
        let mut d = good.clone();
        d.as_object_mut().unwrap().remove(name);
        d
    };
    for (dict, heads, message) in [
        (json!({}), 3, "no attention weights"),
        (json!([1, 2]), 3, "expected a JSON object"),
        (
            with("in_proj_weight", json!([[1.0, 2.0], [3.0]])),
            3,
            "in_proj_weight[1]: expected a row of 2 numbers",
        ),
        (
            with("in_proj_weight", json!([[1.0, 2.0]])),
            3,
            "in_proj_weight is 1 × 2, expected 6 × 2",
        ),
        (
            with("in_proj_bias", json!([1.0])),
            3,
            "in_proj_bias is 1 numbers, expected 27 numbers",
        ),
        (
            with("out_proj.bias", json!(["x"])),
            3,
            "out_proj.bias[0]: expected a number",
        ),
        (without("out_proj.weight"), 3, "out_proj.weight is missing"),
        (
            good.clone(),
            2,
            "2 heads: the number of heads must divide E = 9",
        ),
        (good.clone(), 0, "0 heads"),
    ] {
        let err = state_dict_of_value(&dict)
            .and_then(|d| import_into(&page, &d, heads))
            .expect_err(message)
            .english();
        assert!(err.contains(message), "{err:?} should say {message:?}");
    }
    let narrow = dog();
    let err = import_into(&narrow, &state_dict_of_value(&good).unwrap(), 3)
        .unwrap_err()
        .english();
    assert!(
        err.contains("E = 9 but this page's embedding is 2 wide"),
        "{err}"
    );
    assert!(read_state_dict_json("{")
        .unwrap_err()
        .english()
        .contains("not valid JSON"));
    assert!(read_safetensors(b"not a file")
        .unwrap_err()
        .english()
        .contains("not a safetensors file"));
    let mut file = cases()[1]["torch"].clone();
    file["num_heads"] = json!("three");
    assert!(read_torch_file(&file.to_string())
        .unwrap_err()
        .english()
        .contains("num_heads"));
}

#[test]
fn only_pytorch_shapes_go_out() {
    let err = to_state_dict(&dog()).unwrap_err().english();
    assert!(err.contains("d_k = d_v = E/H"), "{err}");
}

#[test]
fn state_v2_round_trips_and_v1_stays_v1() {
    let plain = dog();
    assert!(write_state(&plain).starts_with("{\"version\":1,"));
    let model = read_torch_file(&cases()[1]["torch"].to_string()).unwrap();
    let text = write_state(&model);
    assert!(text.starts_with("{\"version\":2,"), "{text}");
    assert!(text.contains("\"b_query\"") && text.contains("\"w_output\""));
    assert_eq!(read_state(&text).unwrap(), model);
    let trace = Trace::of(&model);
    assert!(trace.concatenated.is_some());
}

#[test]
fn bad_biases_in_a_state_are_named() {
    let model = read_torch_file(&cases()[3]["torch"].to_string()).unwrap();
    let mut state: Value = serde_json::from_str(&write_state(&model)).unwrap();
    state["heads"][1]["b_key"] = json!([1.0, 2.0, 3.0, 4.0, 5.0]);
    let err = read_state(&state.to_string()).unwrap_err().to_string();
    assert_eq!(err, "heads[1].b_key: 5 numbers, d_k is 4");
    state["heads"][1].as_object_mut().unwrap().remove("b_key");
    let err = read_state(&state.to_string()).unwrap_err().to_string();
    assert!(err.starts_with("heads[1].b_key: missing"), "{err}");
    let mut state: Value = serde_json::from_str(&write_state(&model)).unwrap();
    state["w_output"] = json!([[1.0]]);
    let err = read_state(&state.to_string()).unwrap_err().to_string();
    assert!(
        err.starts_with("w_output: has 1 rows, expected 12"),
        "{err}"
    );
    state.as_object_mut().unwrap().remove("w_output");
    let err = read_state(&state.to_string()).unwrap_err().to_string();
    assert!(err.starts_with("b_output: needs w_output"), "{err}");
}

#[test]
fn biases_and_the_projection_get_gradients_like_the_rest() {
    // Finite differences on a dog with everything added.
    let base = dog();
    let biases = seeded_biases(7, 2, base.heads());
    let model = base
        .with_biases(Some(biases))
        .unwrap()
        .with_output(Some(seeded_output(7, 3, 2, true)))
        .unwrap();
    let target = vec![vec![0.5, -0.25]; model.tokens().len()];
    let objective = Objective::from_value(&json!({ "output": target }), &model).expect("objective");
    let g = gradients(&model, &objective);
    let loss = |m: &Model| gradients(m, &objective).loss;
    for (target, grad) in [
        (
            Editable::Bias(0, Projection::Query),
            g.heads[0].biases.as_ref().unwrap().b_query.clone(),
        ),
        (
            Editable::Bias(0, Projection::Value),
            g.heads[0].biases.as_ref().unwrap().b_value.clone(),
        ),
        (Editable::OutputWeight, g.output.as_ref().unwrap().0.clone()),
        (
            Editable::OutputBias,
            g.output.as_ref().unwrap().1.clone().unwrap(),
        ),
        (
            Editable::Weight(0, Projection::Key),
            g.heads[0].w_key.clone(),
        ),
    ] {
        common::assert_gradient("", &model, target, &grad, loss);
    }
}

#[test]
fn the_command_line_reads_and_writes_pytorch() {
    let dir = std::env::temp_dir().join(format!("mha-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let case = &cases()[4];
    let file = dir.join("module.json");
    std::fs::write(&file, case["torch"].to_string()).unwrap();
    let run = |args: &[&str]| {
        let out = attention_trace(args, "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let path = file.to_str().unwrap();
    let trace: Value = serde_json::from_str(&run(&["--from-torch", path])).unwrap();
    assert_close(
        "output",
        &matrix(&trace["output"]),
        &matrix(&case["output"]),
        1e-9,
    );
    assert!(trace.get("concatenated").is_some());
    let state = run(&["--from-torch", path, "--format", "state"]);
    assert!(state.starts_with("{\"version\":2,"));
    let back: Value = serde_json::from_str(&run(&["--from-torch", path, "--to-torch"])).unwrap();
    assert_eq!(back["num_heads"], case["torch"]["num_heads"]);
    let out = attention_trace(&["--preset", "dog", "--to-torch"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--to-torch: nn.MultiheadAttention"));
}

#[test]
fn a_module_without_an_embedding_gets_the_pages_seeded_rows() {
    // The Raschka tutorial's sentence and E = 3: its table, torch.manual_seed(123) then
    // nn.Embedding(50_000, 3), whatever the module.
    let raschka = raschka();
    let mut identity = vec![vec![0.0; 3]; 9];
    (0..9).for_each(|i| identity[i][i % 3] = 1.0);
    let file = json!({
        "sentence": raschka.sentence(),
        "causal": false,
        "num_heads": 1,
        "state_dict": {"in_proj_weight": identity, "out_proj.weight": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]},
    });
    let model = read_torch_file(&file.to_string()).unwrap();
    assert_eq!(model.embedding(), raschka.embedding());
    let mut nulled = file.clone();
    nulled["embedding"] = Value::Null;
    assert_eq!(read_torch_file(&nulled.to_string()).unwrap(), model);
}

proptest! {
    #[test]
    fn no_bytes_make_the_safetensors_reader_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = read_safetensors(&bytes);
    }

    #[test]
    fn a_header_with_any_json_never_panics(header in "[ -~]{0,200}") {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&[0; 64]);
        let _ = read_safetensors(&bytes);
    }
}

/// "Copy as PyTorch" of an imported module, run by torch when it is installed (the test says
/// so and passes without it: CI's machine has no torch).
#[test]
fn the_pytorch_script_of_an_imported_module_computes_the_same_output() {
    for case in [&cases()[1], &cases()[2]] {
        let model = read_torch_file(&case["torch"].to_string()).unwrap();
        let Some(got) = common::torch_output(&model) else {
            return;
        };
        assert_close("torch's output", &got, &Trace::of(&model).output, 1e-12);
    }
}

#[test]
fn new_random_projections_keep_the_biases_and_the_output_projection() {
    use attention_explorer::core::training::lab::scrambled;
    let model = read_torch_file(&cases()[1]["torch"].to_string()).unwrap();
    let fresh = scrambled(&model, 5);
    assert!(fresh.has_biases() && fresh.output().is_some());
    assert_ne!(fresh.heads()[0].biases, model.heads()[0].biases);
    assert_eq!(
        fresh.output().unwrap().w_output.shape(),
        model.output().unwrap().w_output.shape()
    );
    assert_eq!(
        Trace::of(&fresh).output.shape(),
        Trace::of(&model).output.shape()
    );
}

#[test]
fn re_initialising_draws_the_output_projection_of_the_same_shape() {
    use attention_explorer::core::document::edit::{Document, Edit};
    // bias=False: no in_proj_bias, no out_proj.bias.
    let model = read_torch_file(&cases()[2]["torch"].to_string()).unwrap();
    assert!(model.output().unwrap().b_output.is_none());
    let mut doc = Document::new(model.clone());
    doc.apply(Edit::Reinitialise, None).unwrap();
    let again = doc.model.output().unwrap();
    assert!(again.b_output.is_none());
    assert_eq!(
        again.w_output.shape(),
        model.output().unwrap().w_output.shape()
    );
    assert_ne!(again.w_output, model.output().unwrap().w_output);
}

#[test]
fn an_output_as_wide_as_the_embedding_follows_d_in() {
    use attention_explorer::core::model::Dims;
    let model = dog().with_output_on(true, 1).unwrap();
    assert_eq!(model.output().unwrap().w_output.shape(), (3, 2));
    let wider = model
        .resized(
            Dims {
                d_in: 4,
                d_k: 3,
                d_v: 3,
                heads: 2,
            },
            1,
        )
        .unwrap();
    assert_eq!(wider.output().unwrap().w_output.shape(), (6, 4));
    assert_eq!(
        wider.output().unwrap().w_output.view((0, 0), (3, 2)),
        model.output().unwrap().w_output.view((0, 0), (3, 2)),
        "the numbers that still fit are kept"
    );
}

/// `.ci/fuzz.sh 60 torch`'s first find: an in_proj_bias with no out_proj.bias, and a misspelt key.
const HALF_BIASED: &str = include_str!("fixtures/fuzz/half_biased_torch.json");

#[test]
fn a_key_the_reader_does_not_know_is_refused_with_its_name() {
    let e = read_torch_file(HALF_BIASED).unwrap_err().english();
    assert!(e.contains("unexpected key pt_oruoj.bias"), "{e}");
    // Keys of other layers (outside the module's prefix) are not this module's.
    let mut file: Value = serde_json::from_str(HALF_BIASED).unwrap();
    let dict = file["state_dict"].as_object_mut().unwrap();
    let entries: Vec<(String, Value)> = std::mem::take(dict).into_iter().collect();
    for (k, v) in entries {
        let k = if k == "pt_oruoj.bias" {
            "linear1.bias".into()
        } else {
            format!("self_attn.{k}")
        };
        dict.insert(k, v);
    }
    assert!(read_torch_file(&file.to_string()).is_ok());
    dict_insert(&mut file, "self_attn.bias_k", json!([[0.5]]));
    let e = read_torch_file(&file.to_string()).unwrap_err().english();
    assert!(e.contains("unexpected key self_attn.bias_k"), "{e}");
}

fn dict_insert(file: &mut Value, key: &str, v: Value) {
    file["state_dict"]
        .as_object_mut()
        .unwrap()
        .insert(key.into(), v);
}

#[test]
fn a_half_biased_module_gets_zeros_for_the_missing_bias_and_round_trips_exactly() {
    let mut file: Value = serde_json::from_str(HALF_BIASED).unwrap();
    file["state_dict"]
        .as_object_mut()
        .unwrap()
        .remove("pt_oruoj.bias");
    let model = read_torch_file(&file.to_string()).unwrap();
    let output = model.output().unwrap();
    assert_eq!(output.b_output.as_ref().unwrap().as_slice(), &[0.0]);
    let (dict, heads) = to_state_dict(&model).unwrap();
    let again = import_into(&model, &state_dict_of_value(&dict).unwrap(), heads).unwrap();
    assert_eq!(again, model);
    // And the other half: an out_proj.bias with no in_proj_bias.
    let d = file["state_dict"].as_object_mut().unwrap();
    d.remove("in_proj_bias");
    d.insert("out_proj.bias".into(), json!([0.25]));
    let model = read_torch_file(&file.to_string()).unwrap();
    assert_eq!(
        model.heads()[0].biases.as_ref().unwrap().b_query.as_slice(),
        &[0.0]
    );
    let (dict, heads) = to_state_dict(&model).unwrap();
    let again = import_into(&model, &state_dict_of_value(&dict).unwrap(), heads).unwrap();
    assert_eq!(again, model);
}

#[test]
fn a_pickle_and_python_s_nan_are_named_for_what_they_are() {
    let zip_pt = [b"PK\x03\x04".as_slice(), &[0u8; 60]].concat();
    let bare = [0x80u8, 0x02, b'}', b'q'];
    for bytes in [zip_pt.as_slice(), bare.as_slice()] {
        let e = read_safetensors(bytes).unwrap_err().english();
        assert!(
            e.starts_with("it is a PyTorch pickle (torch.save's .pt or .pth)"),
            "{e}"
        );
    }
    for text in [
        r#"{"in_proj_weight": [[1.0, NaN]]}"#,
        "{\"out_proj.bias\":\n  [Infinity]}",
        r#"{"out_proj.bias": [-Infinity]}"#,
    ] {
        let e = read_state_dict_json(text).unwrap_err().english();
        assert!(
            e.starts_with("it holds NaN or Infinity (Python's json writes them"),
            "{text}: {e}"
        );
    }
    let e = read_state_dict_json(r#"{"a": [1.0,]}"#)
        .unwrap_err()
        .english();
    assert!(e.starts_with("not valid JSON"), "{e}");
}
