//! The `attention-trace` command, run as an author would.

mod common;

use attention_explorer::core::formats::state::write_state;
use attention_explorer::core::model::presets::raschka;
use common::{attention_trace, matrix, number};

#[test]
fn json_has_every_step_and_writes_minus_infinity_as_a_string() {
    let out = attention_trace(&["--preset", "dog", "--format", "json"], "");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tokens"][6], "she");
    assert_eq!(v["token_ids"].as_array().unwrap().len(), 9);
    let head = &v["heads"][0];
    for key in [
        "queries",
        "keys",
        "values",
        "scores",
        "scaled_scores",
        "masked_scores",
        "weights",
        "masked_weights_simple",
        "masked_weights_renormalized",
        "context",
    ] {
        assert!(head[key].is_array(), "{key}");
    }
    assert_eq!(head["masked_scores"][0][1], "-inf");
    assert!((number(&head["weights"][6][1]) - 0.883).abs() < 5e-4);
    assert_eq!(matrix(&v["output"]).shape(), (9, 3));
}

#[test]
fn non_causal_json_has_no_masking_methods() {
    let out = attention_trace(&["--preset", "raschka"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["heads"][0].get("masked_weights_simple").is_none());
    assert!((number(&v["heads"][0]["weights"][1][1]) - 0.6870).abs() < 5e-5);
}

#[test]
fn reads_a_state_from_stdin_and_prints_markdown() {
    let out = attention_trace(
        &["--state", "-", "--format", "markdown"],
        &write_state(&raschka()),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| **is** | 0.0386 | 0.6870 | 0.0204 | 0.0840 | 0.1470 | 0.0229 |"),
        "{text}"
    );
    assert!(text.contains("| | Life | is | short | eat | dessert | first |"));
}

#[test]
fn reads_a_state_file() {
    let path = std::env::temp_dir().join(format!("attention-trace-{}.json", std::process::id()));
    std::fs::write(&path, write_state(&raschka())).unwrap();
    let out = attention_trace(&["--state", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).ok();
    assert!(out.status.success());
}

#[test]
fn a_bad_state_exits_non_zero_with_the_error() {
    let out = attention_trace(&["--state", "-"], r#"{"version": 3}"#);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("version: unsupported version 3; this app reads versions 1 and 2"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_arguments_exit_non_zero() {
    for args in [
        &["--preset", "nope"][..],
        &["--format", "xml"],
        &["--bogus", "1"],
        &["--state"],
    ] {
        let out = attention_trace(args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn an_objective_adds_the_loss_and_every_gradient_and_train_adds_the_losses_and_the_state() {
    let cases = common::fixture("grad_cases.json");
    let case = cases["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["train"].is_object())
        .unwrap();
    let dir = std::env::temp_dir().join(format!("attention-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let objective = dir.join("objective.json");
    std::fs::write(&objective, case["objective"].to_string()).unwrap();
    let objective = objective.to_str().unwrap();
    let state = case["state"].to_string();
    let out = attention_trace(&["--state", "-", "--objective", objective], &state);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["loss"].as_f64().unwrap() - case["loss"].as_f64().unwrap()).abs() < 1e-9);
    common::assert_close(
        "grad embedding",
        &matrix(&v["grad"]["embedding"]),
        &matrix(&case["grad"]["embedding"]),
        1e-9,
    );
    common::assert_close(
        "grad scores",
        &matrix(&v["grad"]["heads"][0]["scores"]),
        &matrix(&case["grad"]["heads"][0]["scores"]),
        1e-9,
    );
    assert!(v.get("losses").is_none());

    let run_ = &case["train"];
    let (steps, lr) = (run_["steps"].to_string(), run_["lr"].to_string());
    let optimizer = run_["optimizer"].as_str().unwrap();
    let out = attention_trace(
        &[
            "--state",
            "-",
            "--objective",
            objective,
            "--train",
            &steps,
            "--optimizer",
            optimizer,
            "--lr",
            &lr,
        ],
        &state,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let losses = v["losses"].as_array().unwrap();
    assert_eq!(losses.len(), run_["losses"].as_array().unwrap().len());
    common::assert_close(
        "trained embedding",
        &matrix(&v["trained"]["embedding"]),
        &matrix(&run_["state"]["embedding"]),
        1e-9,
    );

    // Bad flags and bad objectives: a message and exit 1.
    let she = dir.join("she.json");
    std::fs::write(&she, r#"{"attend": [{"head": 0, "query": 6, "key": 1}]}"#).unwrap();
    let objective = she.to_str().unwrap();
    let with = |extra: &[&'static str]| {
        [&["--preset", "dog", "--objective", objective][..], extra].concat()
    };
    for (args, says) in [
        (vec!["--preset", "dog", "--train", "5"], "need --objective"),
        (with(&["--train", "x"]), "--train: it takes"),
        (with(&["--train", "2", "--lr", "-1"]), "--lr: it takes"),
        (
            with(&["--train", "2", "--optimizer", "rmsprop"]),
            "unknown optimizer",
        ),
        (with(&["--optimizer", "sgd"]), "need --train"),
        (with(&["--format", "markdown"]), "writes JSON"),
        (
            vec![
                "--preset",
                "dog",
                "--objective",
                "/nonexistent/objective.json",
            ],
            "reading",
        ),
    ] {
        let out = attention_trace(&args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
