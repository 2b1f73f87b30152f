//! `core::state`: the saved-state format round-trips, and every malformed input is refused with a
//! message naming the field.

use attention_explorer::core::formats::state::{read_state, write_state};
use attention_explorer::core::model::limits::{MAX_DIM, MAX_HEADS, MAX_TOKENS};
use attention_explorer::core::model::presets::{dog, raschka, raschka_multihead};
use serde_json::{json, Value};

fn valid() -> Value {
    json!({
        "version": 1,
        "sentence": "a b a",
        "embedding": [[1.0, 2.0], [3.0, 4.0]],
        "heads": [{"w_query": [[1.0], [0.0]], "w_key": [[0.5], [0.5]], "w_value": [[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]]}],
        "causal": true,
        "scale": "dk"
    })
}

/// Reads `state` and returns the error's field and message.
fn refused(state: &str) -> (String, String) {
    let e = read_state(state).expect_err("must be refused");
    (e.field, e.message.english())
}

fn refused_value(state: Value) -> (String, String) {
    refused(&state.to_string())
}

fn with(path: &[&str], value: Value) -> Value {
    let mut state = valid();
    let mut slot = &mut state;
    for key in path {
        slot = match key.parse::<usize>() {
            Ok(i) => &mut slot[i],
            Err(_) => &mut slot[*key],
        };
    }
    *slot = value;
    state
}

#[test]
fn presets_round_trip_exactly() {
    for model in [dog(), raschka(), raschka_multihead()] {
        assert_eq!(read_state(&write_state(&model)).unwrap(), model);
    }
}

#[test]
fn the_documented_example_reads() {
    let model = read_state(&valid().to_string()).unwrap();
    assert_eq!(model.tokens().ids, [0, 1, 0]);
    assert_eq!(model.embedded()[(2, 1)], 2.0);
    assert!(model.causal);
}

#[test]
fn not_json() {
    let (field, message) = refused("{\"version\": 1,");
    assert_eq!(field, "state");
    assert!(message.contains("not valid JSON"), "{message}");
    assert_eq!(refused("").0, "state");
    assert_eq!(refused("[1, 2]").1, "expected a JSON object");
}

#[test]
fn wrong_or_missing_version() {
    assert_eq!(
        refused_value(with(&["version"], json!(3))),
        (
            "version".into(),
            "unsupported version 3; this app reads versions 1 and 2".into()
        )
    );
    assert_eq!(refused_value(with(&["version"], json!("1"))).0, "version");
    let mut state = valid();
    state.as_object_mut().unwrap().remove("version");
    assert_eq!(
        refused_value(state),
        ("version".into(), "missing; expected 1".into())
    );
}

#[test]
fn missing_and_unknown_fields() {
    let mut state = valid();
    state.as_object_mut().unwrap().remove("scale");
    assert_eq!(refused_value(state), ("scale".into(), "missing".into()));
    let (field, message) = refused_value(with(&["heads", "0", "w_qeury"], json!([[1.0]])));
    assert_eq!(field, "heads[0].w_qeury");
    assert!(message.contains("unknown field `w_qeury`"), "{message}");
}

#[test]
fn wrong_types_name_the_path() {
    let (field, message) = refused_value(with(&["heads", "0", "w_key", "1", "0"], json!("x")));
    assert_eq!(field, "heads[0].w_key[1][0]");
    assert!(message.contains("invalid type"), "{message}");
    assert_eq!(refused_value(with(&["causal"], json!("yes"))).0, "causal");
    let (field, message) = refused_value(with(&["scale"], json!("sqrt")));
    assert_eq!(field, "scale");
    assert!(message.contains("sqrt_dk"), "{message}");
}

#[test]
fn nan_and_infinity_are_refused() {
    let nan = valid().to_string().replace("4.0", "NaN");
    assert_eq!(refused(&nan).0, "state");
    let inf = valid().to_string().replace("4.0", "1e400");
    let (_, message) = refused(&inf);
    assert!(message.contains("number out of range"), "{message}");
}

#[test]
fn numbers_beyond_the_limit() {
    let (field, message) = refused_value(with(&["embedding", "1", "0"], json!(2e6)));
    assert_eq!(field, "embedding[1][0]");
    assert!(message.contains("outside ±1e6"), "{message}");
}

#[test]
fn empty_or_oversized_sentence() {
    assert_eq!(
        refused_value(with(&["sentence"], json!(" , "))),
        ("sentence".into(), "has no words".into())
    );
    let long: Vec<String> = (0..=MAX_TOKENS).map(|i| format!("w{i}")).collect();
    let (field, message) = refused_value(with(&["sentence"], json!(long.join(" "))));
    assert_eq!(
        (field.as_str(), message.as_str()),
        ("sentence", "has 65 tokens; the limit is 64")
    );
    assert_eq!(
        refused_value(with(&["sentence"], json!("x".repeat(1001)))).0,
        "sentence"
    );
}

#[test]
fn embedding_shape_mismatches() {
    let (field, message) = refused_value(with(&["embedding"], json!([[1.0, 2.0]])));
    assert_eq!(field, "embedding");
    assert!(
        message.contains("has 1 rows but the sentence's vocabulary has 2 words"),
        "{message}"
    );
    let (field, message) = refused_value(with(&["embedding", "1"], json!([3.0])));
    assert_eq!(field, "embedding[1]");
    assert!(
        message.contains("has 1 numbers but row 0 has 2"),
        "{message}"
    );
    assert_eq!(
        refused_value(with(&["embedding"], json!([[], []]))),
        ("embedding".into(), "has no columns".into())
    );
    let wide = vec![vec![0.0; MAX_DIM + 1]; 2];
    assert_eq!(
        refused_value(with(&["embedding"], json!(wide))).1,
        "has 129 columns; the limit is 128"
    );
}

#[test]
fn head_shape_mismatches() {
    let (field, message) = refused_value(with(&["heads", "0", "w_query"], json!([[1.0]])));
    assert_eq!(field, "heads[0].w_query");
    assert!(
        message.contains("has 1 rows, expected d_in = 2"),
        "{message}"
    );
    let (field, message) = refused_value(with(
        &["heads", "0", "w_key"],
        json!([[1.0, 2.0], [3.0, 4.0]]),
    ));
    assert_eq!(field, "heads[0].w_key");
    assert!(
        message.contains("has 2 columns but w_query has 1"),
        "{message}"
    );
    let (field, _) = refused_value(with(&["heads", "0", "w_value", "1"], json!([1.0])));
    assert_eq!(field, "heads[0].w_value[1]");
}

#[test]
fn head_count_limits() {
    assert_eq!(
        refused_value(with(&["heads"], json!([]))),
        ("heads".into(), "needs at least one head".into())
    );
    let head = valid()["heads"][0].clone();
    let many = vec![head; MAX_HEADS + 1];
    assert_eq!(
        refused_value(with(&["heads"], json!(many))).1,
        "has 17 heads; the limit is 16"
    );
}

#[test]
fn the_error_reads_as_field_then_problem() {
    let e = read_state(&with(&["sentence"], json!("")).to_string()).unwrap_err();
    assert_eq!(e.to_string(), "sentence: has no words");
}

/// A model at every limit, each number as long as a number can be written, still reads; one byte
/// past [`MAX_STATE_BYTES`] is refused before parsing.
#[test]
fn the_largest_state_fits_and_more_is_refused_unread() {
    use attention_explorer::core::formats::state::MAX_STATE_BYTES;
    use attention_explorer::core::model::{Dims, Model, Scale};
    let words: Vec<String> = (0..MAX_TOKENS).map(|i| format!("w{i:02}")).collect();
    let dims = Dims {
        d_in: MAX_DIM,
        d_k: MAX_DIM,
        d_v: MAX_DIM,
        heads: MAX_HEADS,
    };
    let model = Model::seeded(&words.join(" "), dims, 1, true, Scale::SqrtDk).unwrap();
    // Every number replaced with one of the longest a state can hold (24 characters).
    fn longest(v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(longest),
            Value::Object(fields) => fields.values_mut().for_each(longest),
            Value::Number(_) => *v = json!(-1.2345678901234567e-300),
            _ => {}
        }
    }
    let mut state: Value = serde_json::from_str(&write_state(&model)).unwrap();
    let version = state["version"].clone();
    longest(&mut state);
    state["version"] = version;
    let worst = state.to_string();
    assert!(
        worst.len() <= MAX_STATE_BYTES,
        "{} > {MAX_STATE_BYTES}",
        worst.len()
    );
    assert!(read_state(&worst).is_ok());
    let (field, message) = refused(&" ".repeat(MAX_STATE_BYTES + 1));
    assert_eq!(field, "state");
    assert!(
        message.contains("more than a model at every limit needs"),
        "{message}"
    );
}

#[test]
fn truncated_and_not_json_at_all() {
    let json = write_state(&dog());
    for cut in [1, json.len() / 2, json.len() - 1] {
        assert_eq!(refused(&json[..cut]).0, "state", "cut at {cut}");
    }
    for garbage in ["", "null", "[]", "42", "\"state\"", "<html>"] {
        assert!(read_state(garbage).is_err(), "{garbage:?}");
    }
}

#[cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency
mod properties {
    use super::*;
    use attention_explorer::core::model::{Dims, Model, Scale};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_is_refused_with_a_message_or_reads(text in "\\PC{0,200}") {
            if let Err(e) = read_state(&text) {
                prop_assert!(!e.field.is_empty() && !e.message.english().is_empty());
            }
        }

        #[test]
        fn a_damaged_state_never_panics(cut in 0usize..2000, byte in any::<u8>()) {
            let mut json = write_state(&dog()).into_bytes();
            let at = cut % json.len();
            json[at] = byte;
            let _ = read_state(&String::from_utf8_lossy(&json));
        }

        #[test]
        fn random_models_round_trip_bit_for_bit(
            words in prop::collection::vec("[a-z]{1,3}", 1..8),
            d_in in 1usize..5, d_k in 1usize..5, d_v in 1usize..5, heads in 1usize..4,
            seed: u64, causal: bool,
        ) {
            let dims = Dims { d_in, d_k, d_v, heads };
            let model = Model::seeded(&words.join(" "), dims, seed, causal, Scale::Dk).unwrap();
            prop_assert_eq!(read_state(&write_state(&model)).unwrap(), model);
        }
    }
}

#[test]
fn optional_fields_may_be_null_and_bad_values_are_named_by_their_place() {
    // As serde's reader took an optional field's null: absent.
    let mut state = valid();
    state["version"] = json!(2);
    state["w_output"] = Value::Null;
    state["heads"][0]["b_query"] = Value::Null;
    assert!(read_state(&state.to_string()).unwrap().output().is_none());
    for (path, bad, field, says) in [
        (
            &["embedding", "0", "1"][..],
            json!(true),
            "embedding[0][1]",
            "invalid type: boolean `true`, expected a number",
        ),
        (
            &["embedding", "1"],
            json!(3),
            "embedding[1]",
            "invalid type: number 3, expected a list",
        ),
        (
            &["heads", "0"],
            json!([]),
            "heads[0]",
            "invalid type: a list, expected an object with w_query",
        ),
        (
            &["sentence"],
            json!(["a"]),
            "sentence",
            "invalid type: a list, expected text",
        ),
        (
            &["causal"],
            Value::Null,
            "causal",
            "invalid type: null, expected a boolean",
        ),
        (
            &["scale"],
            json!("sqrt"),
            "scale",
            "unknown scaling `sqrt`, expected one of sqrt_dk, dk, none",
        ),
    ] {
        let (f, message) = refused_value(with(path, bad));
        assert_eq!(f, field);
        assert!(message.starts_with(says), "{f}: {message}");
    }
    let mut state = valid();
    state["heads"][0].as_object_mut().unwrap().remove("w_query");
    assert_eq!(
        refused_value(state),
        ("heads[0].w_query".into(), "missing".into())
    );
}
