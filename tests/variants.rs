//! Grouped-query heads and cross-attention against PyTorch's `scaled_dot_product_attention`
//! (`fixtures/variant_cases.json`), their saved state, their gradients and their refusals.
#![cfg(not(target_arch = "wasm32"))] // runs attention-trace and Python

mod common;

use attention_explorer::core::document::edit::{apply, Edit, Session};
use attention_explorer::core::document::history::History;
use attention_explorer::core::formats::state::{read_state, read_state_value, write_state};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::presets::{dog, raschka};
use attention_explorer::core::model::{Dims, Editable, Model, Projection, Source};
use attention_explorer::core::training::{gradients, Objective};
use common::{assert_close, assert_gradient, attention_trace, fixture, matrix};
use serde_json::{json, Value};

fn cases() -> Vec<Value> {
    fixture("variant_cases.json")["cases"]
        .as_array()
        .expect("cases")
        .clone()
}

fn expect_case(
    kind: &str,
    case: &Value,
    weights: &[nalgebra::DMatrix<f64>],
    contexts: &[nalgebra::DMatrix<f64>],
    concatenated: &nalgebra::DMatrix<f64>,
) {
    for (h, w) in weights.iter().enumerate() {
        assert_close(
            &format!("{kind} weights {h}"),
            w,
            &matrix(&case["weights"][h]),
            1e-9,
        );
        assert_close(
            &format!("{kind} context {h}"),
            &contexts[h],
            &matrix(&case["context"][h]),
            1e-9,
        );
    }
    assert_eq!(weights.len(), case["weights"].as_array().unwrap().len());
    assert_close(
        &format!("{kind} concatenated"),
        concatenated,
        &matrix(&case["concatenated"]),
        1e-9,
    );
}

#[test]
fn grouped_query_and_cross_attention_equal_pytorch() {
    let cases = cases();
    assert_eq!(cases.iter().filter(|c| c["kind"] == "gqa").count(), 16);
    assert_eq!(cases.iter().filter(|c| c["kind"] == "cross").count(), 14);
    for case in &cases {
        let kind = case["kind"].as_str().unwrap();
        let model = read_state_value(&case["state"]).unwrap_or_else(|e| panic!("{kind}: {e}"));
        match kind {
            "gqa" => {
                assert_eq!(
                    Some(model.kv_heads() as u64),
                    case["state"]["kv_heads"].as_u64()
                );
                assert!(model.source().is_none());
            }
            _ => assert!(model.source().is_some() && !model.shares_kv()),
        }
        let trace = Trace::of(&model);
        let weights: Vec<_> = trace.heads.iter().map(|h| h.weights.clone()).collect();
        let contexts: Vec<_> = trace.heads.iter().map(|h| h.context.clone()).collect();
        expect_case(kind, case, &weights, &contexts, &trace.output);
    }
}

#[test]
fn attention_trace_reads_the_variants() {
    for case in cases().iter().step_by(3) {
        let out = attention_trace(&["--state", "-"], &case["state"].to_string());
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let heads = v["heads"].as_array().unwrap();
        let weights: Vec<_> = heads.iter().map(|h| matrix(&h["weights"])).collect();
        let contexts: Vec<_> = heads.iter().map(|h| matrix(&h["context"])).collect();
        expect_case("cli", case, &weights, &contexts, &matrix(&v["output"]));
        if case["kind"] == "cross" {
            assert_eq!(
                v["source_tokens"].as_array().unwrap().len(),
                heads[0]["keys"].as_array().unwrap().len()
            );
        }
    }
}

#[test]
fn the_state_round_trips_in_the_form_it_was_read() {
    for case in cases() {
        let model = read_state_value(&case["state"]).unwrap();
        let written = write_state(&model);
        assert_eq!(read_state(&written).unwrap(), model);
        let v: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(v["version"], 2);
        for key in ["kv_heads", "kv", "source"] {
            assert_eq!(
                v.get(key).is_some(),
                case["state"].get(key).is_some(),
                "{key}"
            );
        }
        if v.get("kv").is_some() {
            assert!(v["heads"][0].get("w_key").is_none() && v["heads"][0].get("b_key").is_none());
            assert_eq!(v["kv"], case["state"]["kv"]);
        }
    }
    // A model without them writes what it wrote before.
    assert_eq!(
        serde_json::from_str::<Value>(&write_state(&dog())).unwrap()["version"],
        1
    );
}

fn refused(state: &Value) -> String {
    let e = read_state_value(state).unwrap_err();
    format!("{}: {}", e.field, e.message.english())
}

#[test]
fn every_bad_form_is_refused_naming_its_field() {
    let all = cases();
    let gqa = all
        .iter()
        .find(|c| c["kind"] == "gqa" && c["state"]["heads"].as_array().unwrap().len() == 4)
        .unwrap()["state"]
        .clone();
    let cross = all.iter().find(|c| c["kind"] == "cross").unwrap()["state"].clone();
    let with = |base: &Value, f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        refused(&v)
    };
    let m = with(&gqa, &|v| v["kv_heads"] = json!(3));
    assert!(
        m.starts_with("kv_heads: must divide the 4 heads (1, 2, 4), not 3"),
        "{m}"
    );
    let m = with(&gqa, &|v| v["kv_heads"] = json!(0));
    assert!(m.starts_with("kv_heads:"), "{m}");
    let m = with(&gqa, &|v| {
        v["kv_heads"] = json!(2);
    });
    assert!(
        m.starts_with("kv: has 1 entries, expected kv_heads = 2"),
        "{m}"
    );
    let m = with(&gqa, &|v| {
        v.as_object_mut().unwrap().remove("kv");
    });
    assert!(m.starts_with("kv: missing"), "{m}");
    let m = with(&gqa, &|v| {
        v.as_object_mut().unwrap().remove("kv_heads");
    });
    assert!(m.starts_with("kv: needs kv_heads"), "{m}");
    let m = with(&gqa, &|v| {
        v["heads"][1]["w_key"] = v["kv"][0]["w_key"].clone()
    });
    assert!(m.starts_with("heads[1].w_key: with kv_heads"), "{m}");
    let m = with(&gqa, &|v| v["kv"][0]["w_key"] = json!([[1.0, 2.0]]));
    assert!(
        m.starts_with("kv[0].w_key: has 1 rows, expected d_in"),
        "{m}"
    );
    let m = with(&gqa, &|v| v["kv"][0]["w_value"][0][0] = json!(1e9));
    assert!(m.starts_with("kv[0].w_value[0][0]"), "{m}");
    // A null is no bias in a head (serde's reader took it so), but not in kv, and no matrix.
    let m = with(&gqa, &|v| v["kv"][0]["b_key"] = Value::Null);
    assert!(
        m.starts_with("kv[0].b_key: invalid type: null, expected a list"),
        "{m}"
    );
    let m = with(&gqa, &|v| v["heads"][1]["w_key"] = Value::Null);
    assert!(
        m.starts_with("heads[1].w_key: invalid type: null, expected a list"),
        "{m}"
    );
    let m = with(&gqa, &|v| v["kv"][0]["wat"] = json!(1));
    assert!(m.starts_with("kv[0]") && m.contains("wat"), "{m}");

    let m = with(&cross, &|v| v["causal"] = json!(true));
    assert!(m.starts_with("source: a causal mask"), "{m}");
    let m = with(&cross, &|v| v["source"]["sentence"] = json!(" "));
    assert!(m.starts_with("source.sentence: has no words"), "{m}");
    let m = with(&cross, &|v| {
        v["source"]["sentence"] = json!("w ".repeat(65))
    });
    assert!(
        m.starts_with("source.sentence") && m.contains("limit is 64"),
        "{m}"
    );
    let m = with(&cross, &|v| {
        v["source"]["embedding"] = json!([[1.0, 2.0, 3.0]])
    });
    assert!(
        m.starts_with("source.embedding: has 1 rows but the source's vocabulary has"),
        "{m}"
    );
    let m = with(&cross, &|v| {
        let rows = v["source"]["embedding"].as_array().unwrap().len();
        let d_in = v["embedding"][0].as_array().unwrap().len();
        v["source"]["embedding"] = json!(vec![vec![0.5; d_in + 1]; rows]);
    });
    assert!(
        m.starts_with("source.embedding: rows have") && m.contains("expected d_in"),
        "{m}"
    );
    let m = with(&cross, &|v| v["positions"] = json!({"kind": "sinusoidal"}));
    assert!(
        m.starts_with("positions:") || m.starts_with("source:"),
        "{m}"
    );
}

#[test]
fn a_shared_key_is_one_matrix_whichever_head_it_is_edited_in() {
    let model = raschka_multihead(4).with_kv_heads(2).unwrap();
    assert_eq!(
        (
            model.kv_of(0),
            model.kv_of(1),
            model.kv_of(2),
            model.kv_of(3)
        ),
        (0, 0, 1, 1)
    );
    assert_eq!(model.heads()[1].w_key, model.heads()[0].w_key);
    assert_ne!(model.heads()[2].w_key, model.heads()[0].w_key);
    let (mut m, mut history, mut seed) = (model.clone(), History::default(), 123);
    let mut session = Session::default();
    let set = Edit::Set {
        target: Editable::Weight(1, Projection::Value),
        row: 0,
        col: 0,
        value: 9.5,
    };
    apply((&mut m, &mut history, &mut seed), &mut session, set, None).unwrap();
    assert_eq!(m.heads()[0].w_value[(0, 0)], 9.5);
    assert_eq!(m.heads()[1].w_value[(0, 0)], 9.5);
    assert_ne!(m.heads()[2].w_value[(0, 0)], 9.5);
    apply(
        (&mut m, &mut history, &mut seed),
        &mut session,
        Edit::Undo,
        None,
    )
    .unwrap();
    assert_eq!(m, model);
    // A query is each head's own.
    m.set(Editable::Weight(1, Projection::Query), 0, 0, 7.0);
    assert_ne!(m.heads()[0].w_query[(0, 0)], 7.0);
    // Fewer heads keep the groups while they divide them, else none share.
    let two = m
        .resized(
            Dims {
                heads: 2,
                ..m.dims()
            },
            1,
        )
        .unwrap();
    assert_eq!(two.kv_heads(), 2);
    let three = m
        .resized(
            Dims {
                heads: 3,
                ..m.dims()
            },
            1,
        )
        .unwrap();
    assert_eq!(three.kv_heads(), 3);
    assert!(model
        .clone()
        .with_kv_heads(3)
        .unwrap_err()
        .english()
        .contains("1, 2, 4"));
}

fn raschka_multihead(heads: usize) -> Model {
    let r = raschka();
    r.resized(Dims { heads, ..r.dims() }, 123).unwrap()
}

#[test]
fn shared_keys_and_a_source_get_their_gradients() {
    let model = raschka_multihead(4)
        .with_biases_on(true, 5)
        .unwrap()
        .with_kv_heads(2)
        .unwrap();
    let objective = Objective::from_value(&json!({"attend": [{"head": 1, "query": 2, "key": 4}, {"head": 0, "query": 0, "key": 1}, {"head": 3, "query": 5, "key": 0}]}), &model).unwrap();
    let g = gradients(&model, &objective);
    let loss = |m: &Model| gradients(m, &objective).loss;
    for target in [
        Editable::Weight(1, Projection::Key),
        Editable::Weight(0, Projection::Value),
        Editable::Bias(3, Projection::Key),
        Editable::Weight(2, Projection::Query),
        Editable::Embedding,
    ] {
        assert_gradient("gqa", &model, target, g.of(target).unwrap(), loss);
    }
    assert_eq!(
        g.of(Editable::Weight(0, Projection::Key)),
        g.of(Editable::Weight(1, Projection::Key))
    );
    // The group's K and V, shown once, get the sum of what its heads' separate copies would.
    let apart = gradients(&model.clone().with_kv_heads(4).unwrap(), &objective);
    for (h, pair) in [(0, [0, 1]), (3, [2, 3])] {
        let sum = |pick: fn(
            &attention_explorer::core::training::HeadGradient,
        ) -> &nalgebra::DMatrix<f64>| {
            pick(&apart.heads[pair[0]]) + pick(&apart.heads[pair[1]])
        };
        assert_close("shared ∂K", &g.heads[h].keys, &sum(|x| &x.keys), 1e-12);
        assert_close("shared ∂V", &g.heads[h].values, &sum(|x| &x.values), 1e-12);
    }

    let mut cross = raschka_multihead(2);
    cross.causal = false;
    let source = Source::drawn(
        "the cat sat on the mat",
        cross.tokens(),
        cross.embedding(),
        7,
    )
    .unwrap();
    let cross = cross.with_source(Some(source)).unwrap();
    let target = matrix(&json!(vec![vec![0.25; 8]; 6]));
    let objective = Objective::from_value(&json!({"output": rows(&target)}), &cross).unwrap();
    let g = gradients(&cross, &objective);
    let loss = |m: &Model| gradients(m, &objective).loss;
    for target in [
        Editable::SourceEmbedding,
        Editable::Embedding,
        Editable::Weight(1, Projection::Key),
        Editable::Weight(0, Projection::Query),
    ] {
        assert_gradient("cross", &cross, target, g.of(target).unwrap(), loss);
    }
}

fn rows(m: &nalgebra::DMatrix<f64>) -> Vec<Vec<f64>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

#[test]
fn a_source_shares_rows_with_the_sentence_and_refuses_a_mask() {
    let mut model = dog();
    model.causal = true;
    let source = Source::drawn("the dog sat", model.tokens(), model.embedding(), 1).unwrap();
    let dog_row = model
        .tokens()
        .vocabulary
        .iter()
        .position(|w| w == "dog")
        .unwrap();
    let src_row = source
        .tokens()
        .vocabulary
        .iter()
        .position(|w| w == "dog")
        .unwrap();
    assert_eq!(
        source.embedding().row(src_row),
        model.embedding().row(dog_row)
    );
    assert!(model
        .clone()
        .with_source(Some(source.clone()))
        .unwrap_err()
        .english()
        .contains("causal"));
    model.causal = false;
    let crossed = model.with_source(Some(source)).unwrap();
    let trace = Trace::of(&crossed);
    assert_eq!(trace.heads[0].weights.shape(), (crossed.tokens().len(), 3));
    assert_eq!(trace.key_tokens().words, ["the", "dog", "sat"]);
    let terms = trace.score_terms(0, 0, 1).unwrap();
    assert_eq!(terms.key, "dog");
}

#[test]
fn copy_as_pytorch_writes_shared_heads_once_and_checks_them_with_the_fused_function() {
    use attention_explorer::core::formats::pytorch::pytorch_script;
    let all = cases();
    for kind in ["gqa", "cross"] {
        for case in all.iter().filter(|c| c["kind"] == kind).take(4) {
            let model = read_state_value(&case["state"]).unwrap();
            let script = pytorch_script(&model, None).text;
            assert!(script.contains("scaled_dot_product_attention"), "{kind}");
            if kind == "gqa" {
                assert!(
                    script.contains("enable_gqa=True")
                        && script.contains("# one per key/value head")
                );
            } else {
                assert!(script.contains("source_embedded = source_embedding[source_ids]"));
            }
            // Run by torch where there is one (CI's machine has none): the page's numbers.
            if let Some((out, printed)) = common::torch_run(&model) {
                assert_close(kind, &out, &Trace::of(&model).output, 1e-9);
                assert!(
                    printed.contains("the same as scaled_dot_product_attention: True"),
                    "{printed}"
                );
            }
        }
    }
}

#[test]
fn no_form_of_a_variant_state_or_edit_panics() {
    let broken: Vec<(&str, Value)> = vec![
        ("kv_heads", json!(-1)),
        ("kv_heads", json!(2.5)),
        ("kv_heads", json!("2")),
        ("kv_heads", json!(64)),
        ("kv", json!([])),
        ("kv", json!({})),
        ("kv", json!([{"w_key": [[1.0]], "w_value": [[1.0]]}])),
        ("kv", json!([{"w_key": [], "w_value": [[]]}])),
        ("kv", json!([{"w_key": [["a"]], "w_value": [[1.0]]}])),
        (
            "kv",
            json!([{"w_key": [[1.0]], "w_value": [[1.0]], "b_key": [1.0, 2.0]}]),
        ),
        ("source", json!(null)),
        ("source", json!("the cat")),
        (
            "source",
            json!({"sentence": "a b", "embedding": [[1.0], [2.0, 3.0]]}),
        ),
        (
            "source",
            json!({"sentence": "a b", "embedding": [[1e300, 1.0], [2.0, 3.0]]}),
        ),
        ("source", json!({"sentence": 7, "embedding": []})),
    ];
    for case in cases() {
        for (key, value) in &broken {
            let mut state = case["state"].clone();
            state[*key] = value.clone();
            if let Ok(model) = read_state_value(&state) {
                let _ = Trace::of(&model);
            }
        }
    }
    let mut model = raschka_multihead(4);
    model.causal = false;
    let (mut history, mut seed, mut session) = (History::default(), 1, Session::default());
    for edit in [
        Edit::KvHeads(0),
        Edit::KvHeads(3),
        Edit::KvHeads(17),
        Edit::KvHeads(2),
        Edit::Source(Some(" ".into())),
        Edit::Source(Some("w ".repeat(70))),
        Edit::Source(Some("x".repeat(2000))),
        Edit::Source(Some("the cat, sat".into())),
        Edit::Causal(true),
        Edit::Positions {
            kind: attention_explorer::core::model::positions::PositionKind::Sinusoidal,
            base: 10_000.0,
        },
        Edit::Resize(Dims {
            heads: 3,
            d_in: 5,
            ..model.dims()
        }),
        Edit::Sentence("a b c d e f g h".into()),
        Edit::Source(None),
        Edit::Undo,
        Edit::Undo,
        Edit::Redo,
    ] {
        let _ = apply(
            (&mut model, &mut history, &mut seed),
            &mut session,
            edit,
            None,
        );
        let trace = Trace::of(&model);
        assert_eq!(trace.heads[0].weights.ncols(), model.key_tokens().len());
        assert_eq!(read_state(&write_state(&model)).unwrap(), model);
    }
}

#[test]
fn heads_that_differ_do_not_share_and_a_source_is_not_exported_as_self_attention() {
    // Two heads of different widths, and two with biases on one only.
    let mut state: Value = serde_json::from_str(&write_state(&raschka_multihead(2))).unwrap();
    state["heads"][1]["w_value"] = json!(vec![vec![0.5; 2]; 3]);
    let model = read_state_value(&state).unwrap();
    assert!(model
        .with_kv_heads(1)
        .unwrap_err()
        .english()
        .contains("head 1 differs from head 0"));
    let mut state: Value = serde_json::from_str(&write_state(&raschka_multihead(2))).unwrap();
    for b in ["b_query", "b_key", "b_value"] {
        state["heads"][0][b] = json!(vec![
            0.1;
            state["heads"][0]["w_query"][0]
                .as_array()
                .unwrap()
                .len()
        ]);
    }
    state["heads"][0]["b_value"] = json!(vec![
        0.1;
        state["heads"][0]["w_value"][0]
            .as_array()
            .unwrap()
            .len()
    ]);
    state["version"] = json!(2);
    let model = read_state_value(&state).unwrap();
    assert!(model.with_kv_heads(1).is_err());

    let mut model = dog();
    model.causal = false;
    let source = Source::drawn(
        "a b c d e f g h i j k l",
        model.tokens(),
        model.embedding(),
        2,
    )
    .unwrap();
    let model = model.with_source(Some(source)).unwrap();
    let e = attention_explorer::core::formats::multihead::to_state_dict(&model)
        .unwrap_err()
        .english();
    assert!(e.contains("source"), "{e}");
}

#[test]
fn re_initialising_keeps_the_shared_heads_and_the_source() {
    use attention_explorer::core::document::edit::{Document, Edit};
    // Four heads sharing two key/value heads, and another with a source sentence.
    let shared = raschka_multihead(4).with_kv_heads(2).unwrap();
    let mut doc = Document::new(shared);
    doc.apply(Edit::Reinitialise, None).unwrap();
    assert_eq!(doc.model.kv_heads(), 2, "the key/value heads are kept");
    let mut crossed = raschka();
    crossed.causal = false;
    let source = Source::drawn(
        "the cake is a lie",
        crossed.tokens(),
        crossed.embedding(),
        7,
    )
    .unwrap();
    let crossed = crossed.with_source(Some(source)).unwrap();
    let mut doc = Document::new(crossed);
    doc.apply(Edit::Seed(9), None).unwrap();
    doc.apply(Edit::Reinitialise, None).unwrap();
    let kept = doc.model.source().expect("the source is kept");
    assert_eq!(kept.sentence(), "the cake is a lie");
    // Its rows are drawn again with the rest, as a new source of this model would be.
    let drawn = Source::drawn(
        "the cake is a lie",
        doc.model.tokens(),
        doc.model.embedding(),
        9,
    )
    .unwrap();
    assert_eq!(kept.embedding(), drawn.embedding());
}
