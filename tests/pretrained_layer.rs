//! A trained model's layer as the page's model (core::pretrained::layer): the page's own trace
//! of it equals the encoder's layer, an edit of one layer's weight changes every layer above
//! exactly as the same weight changed in the encoder does, the changed cells go with a change of
//! layer, sentence or knocked head, and what a layer keeps is refused by the reducer. Skipped
//! (said) without the model, as tests/pretrained.rs is.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use attention_explorer::core::document::edit::{Document, Edit};
use attention_explorer::core::formats::link::{encode_model, read_link};
use attention_explorer::core::formats::state::{read_state, write_state};
use attention_explorer::core::formats::trained::read_trained;
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::layer_record::{changed_cells, LayerOpening};
use attention_explorer::core::model::{Dims, Editable, Model, Projection, WeightChange};
use attention_explorer::core::pretrained::rerun::{Reruns, Stack};
use attention_explorer::core::pretrained::{Encoder, EncoderTrace, LayerTrace};
use attention_explorer::core::teaching::order::{
    order_of_pieces, reordered_inputs, trained_moves, Reorder,
};
use attention_explorer::core::training::{train, Goal, Objective, Optimizer, Param, Target};
use common::{largest_difference, pretrained_encoder as encoder};
use nalgebra::DMatrix;

const SENTENCE: &str = "The animal didn't cross the street because it was too tired.";
const NAME: &str = attention_explorer::core::pretrained::SHIPPED.name;

fn opening(layer: usize) -> LayerOpening {
    LayerOpening {
        sentence: SENTENCE.into(),
        layer,
        knocked: Vec::new(),
        changes: Vec::new(),
        ..Default::default()
    }
}

/// The whole encoder run as the page runs it (`rerun`), the page's layer from `model`: each
/// layer's output.
fn run_in_page(encoder: &Encoder, model: &Model) -> Vec<DMatrix<f64>> {
    let trace = Reruns::default().run(encoder, model).unwrap();
    trace.layers.iter().map(|l| l.output.clone()).collect()
}

/// The encoder, counting the layers it runs.
struct Counting<'a>(&'a Encoder, std::cell::RefCell<Vec<usize>>);

impl Stack for Counting<'_> {
    fn depth(&self) -> usize {
        self.0.depth()
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        Stack::embed(self.0, ids)
    }
    fn layer_in_page(&self, model: &Model, l: usize, x: &DMatrix<f64>) -> Option<LayerTrace> {
        self.1.borrow_mut().push(l);
        Stack::layer_in_page(self.0, model, l, x)
    }
}

#[test]
fn an_edit_of_layer_k_reruns_only_layers_k_and_above_and_gives_the_whole_runs_numbers() {
    let Some(encoder) = encoder() else { return };
    let counting = Counting(encoder, Default::default());
    let ran = || std::mem::take(&mut *counting.1.borrow_mut());
    let mut document = Document::new(encoder.open_layer(NAME, opening(3)).unwrap());
    let mut reruns = Reruns::default();
    reruns.run(&counting, &document.model).unwrap();
    assert_eq!(ran(), [0, 1, 2, 3, 4, 5], "the first run is whole");
    let edit = Edit::Cell {
        target: Editable::Weight(1, Projection::Key),
        row: 2,
        col: 5,
        value: 3.0,
    };
    document.apply(edit, None).unwrap();
    let run = reruns.start(&counting, &document.model).unwrap();
    assert_eq!(run.first(), 3);
    let incremental = reruns.run(&counting, &document.model).unwrap();
    assert_eq!(ran(), [3, 4, 5], "layer 3's edit reruns layers 3 to 5");
    let whole = Reruns::default().run(encoder, &document.model).unwrap();
    for (a, b) in incremental.layers.iter().zip(&whole.layers) {
        assert_eq!(a.output, b.output, "bit for bit the whole run's");
    }
    // Another layer, sentence or knocked head: the layers below ran on something else.
    let retyped = encoder
        .reopen(&document.model, |o| o.sentence = "it was too tired".into())
        .unwrap();
    reruns.run(&counting, &retyped).unwrap();
    assert_eq!(ran(), [0, 1, 2, 3, 4, 5]);
    let knocked = encoder
        .reopen(&retyped, |o| o.knocked = vec![(1, 0)])
        .unwrap();
    reruns.run(&counting, &knocked).unwrap();
    assert_eq!(ran(), [0, 1, 2, 3, 4, 5]);
    // A model that is not a trained layer has no run.
    assert!(reruns
        .start(&counting, &attention_explorer::core::model::presets::dog())
        .is_none());
}

#[test]
fn a_layers_model_is_the_encoders_layer_seen_by_the_pages_own_trace() {
    let Some(encoder) = encoder() else { return };
    let plain: EncoderTrace = encoder.run(SENTENCE, &[]).unwrap();
    for layer in [0, 3, 5] {
        let model = encoder.open_layer(NAME, opening(layer)).unwrap();
        assert_eq!(model.tokens().words, plain.tokens);
        assert_eq!(model.layered().unwrap().ids, plain.ids);
        // X: the hidden state entering the layer, a row per piece.
        assert_eq!(model.embedded(), plain.layers[layer].input);
        let trace = Trace::of(&model);
        for (h, head) in plain.layers[layer].heads.iter().enumerate() {
            assert!(largest_difference(&trace.heads[h].weights, &head.weights) < 1e-12);
        }
        assert_eq!(changed_cells(&model), Some(Vec::new()));
    }
}

#[test]
fn an_edit_of_layer_0_changes_layer_5_as_the_same_weight_changed_in_the_encoder() {
    let Some(encoder) = encoder() else { return };
    let mut document = Document::new(encoder.open_layer(NAME, opening(0)).unwrap());
    let target = Editable::Weight(2, Projection::Query);
    document
        .apply(
            Edit::Cell {
                target,
                row: 7,
                col: 3,
                value: 40.0,
            },
            None,
        )
        .unwrap();
    let model = &document.model;
    let change = WeightChange {
        layer: 0,
        target,
        row: 7,
        col: 3,
        value: 40.0,
    };
    assert_eq!(changed_cells(model), Some(vec![change]));

    let mut edited = encoder.clone();
    Arc::make_mut(&mut Arc::make_mut(&mut edited.layers[0].attention).heads)[2].w_query[(7, 3)] =
        40.0;
    let by_hand = edited.run(SENTENCE, &[]).unwrap();
    let in_page = run_in_page(encoder, model);
    assert_eq!(in_page[5], by_hand.layers[5].output);
    let plain = encoder.run(SENTENCE, &[]).unwrap();
    assert!(largest_difference(&in_page[5], &plain.layers[5].output) > 1e-3);

    // Layer 4 opened: the edit is kept, and its X is what the edited layers below make.
    let up = encoder.reopen(model, |o| o.layer = 4).unwrap();
    assert_eq!(up.embedded(), by_hand.layers[4].input);
    assert_eq!(up.layered().unwrap().changes, vec![change]);
    assert_eq!(changed_cells(&up), Some(vec![change]));
    // Back to layer 0: the edited number is in its W_query again.
    let down = encoder.reopen(&up, |o| o.layer = 0).unwrap();
    assert_eq!(down.heads()[2].w_query[(7, 3)], 40.0);
    assert_eq!(down.layered().unwrap().changes, Vec::new());
    // A new sentence keeps it too.
    let retyped = encoder
        .reopen(model, |o| o.sentence = "it was too tired".into())
        .unwrap();
    assert_eq!(retyped.heads()[2].w_query[(7, 3)], 40.0);
    assert_eq!(
        retyped.tokens().words,
        ["[CLS]", "it", "was", "too", "tired", "[SEP]"]
    );
}

#[test]
fn undo_keeps_a_trained_layer_as_its_changed_cells_and_brings_it_back_whole() {
    let Some(encoder) = encoder() else { return };
    let mut document = Document::new(encoder.open_layer(NAME, opening(0)).unwrap());
    let target = Editable::Weight(4, Projection::Key);
    let cell = Edit::Cell {
        target,
        row: 1,
        col: 2,
        value: -0.0,
    };
    document.apply(cell, None).unwrap();
    let edited = document.model.clone();
    // Every layer picked in turn, and a knock-out: each step keeps X and the changes, not the
    // layer's 12 heads (4.7 MB a model).
    let mut pages = vec![edited.clone()];
    for layer in 1..6 {
        let next = encoder
            .reopen(&document.model, |o| o.layer = layer)
            .unwrap();
        document.apply(Edit::Open(Box::new(next)), None).unwrap();
        pages.push(document.model.clone());
    }
    let knocked = encoder
        .reopen(&document.model, |o| o.knocked.push((5, 3)))
        .unwrap();
    document.apply(Edit::Open(Box::new(knocked)), None).unwrap();
    assert!(
        document.history.bytes() < 600_000,
        "{} bytes kept for 7 steps",
        document.history.bytes()
    );
    for page in pages.iter().rev() {
        document.apply(Edit::Undo, None).unwrap();
        assert_eq!(&document.model, page);
    }
    // The -0 typed over a trained number came back as -0.
    assert_eq!(
        document.model.matrix(target).unwrap()[(1, 2)].to_bits(),
        (-0.0_f64).to_bits()
    );
    document.apply(Edit::Undo, None).unwrap();
    assert_eq!(changed_cells(&document.model), Some(Vec::new()));
    for page in &pages {
        document.apply(Edit::Redo, None).unwrap();
        assert_eq!(&document.model, page);
    }
}

#[test]
fn a_trained_models_learned_positions_are_all_it_knows_of_order() {
    let Some(encoder) = encoder() else { return };
    let model = encoder.open_layer(NAME, opening(2)).unwrap();
    let n = model.tokens().len();
    let order = order_of_pieces(n, Reorder::Shuffle(3));
    // [CLS] and [SEP] stay at the ends; the pieces between are reordered.
    assert_eq!((order[0], order[n - 1]), (0, n - 1));
    assert_ne!(order, (0..n).collect::<Vec<_>>());
    let inputs = reordered_inputs(encoder, &model, order).unwrap();
    let [with, without] = trained_moves(encoder, &model, &inputs).unwrap();
    let largest = |moves: &[f64]| moves.iter().copied().fold(0.0, f64::max);
    assert!(largest(&with) > 0.1, "with positions: {with:?}");
    assert!(largest(&without) < 1e-9, "without positions: {without:?}");
    // Unmoved, nothing moves.
    let unmoved = reordered_inputs(encoder, &model, (0..n).collect()).unwrap();
    let [same, _] = trained_moves(encoder, &model, &unmoved).unwrap();
    assert_eq!(largest(&same), 0.0);
    // The page's own order lab has no trained model to run.
    let plain = attention_explorer::core::model::presets::preset("dog").unwrap();
    assert!(reordered_inputs(encoder, &plain, vec![0, 1]).is_none());
    assert!(trained_moves(encoder, &plain, &inputs).is_none());
}

#[test]
fn a_knocked_head_of_any_layer_runs_as_the_encoders_head_mask() {
    let Some(encoder) = encoder() else { return };
    let model = encoder.open_layer(NAME, opening(3)).unwrap();
    for knocked in [(1, 4), (3, 1)] {
        let out = encoder
            .reopen(&model, |o| o.knocked = vec![knocked])
            .unwrap();
        let expected = encoder.run(SENTENCE, &[knocked]).unwrap();
        let in_page = run_in_page(encoder, &out);
        for (l, output) in in_page.iter().enumerate() {
            assert!(
                largest_difference(output, &expected.layers[l].output) < 1e-12,
                "layer {l}"
            );
        }
    }
}

#[test]
fn a_trained_layer_refuses_what_it_keeps_and_says_why() {
    let Some(encoder) = encoder() else { return };
    let mut document = Document::new(encoder.open_layer(NAME, opening(1)).unwrap());
    let before = document.model.clone();
    let refused = [
        (
            Edit::Cell {
                target: Editable::Embedding,
                row: 0,
                col: 0,
                value: 1.0,
            },
            "X is what the layers below make",
        ),
        (Edit::Sentence("a cat".into()), "its own tokenizer"),
        (
            Edit::Resize(Dims {
                d_in: 384,
                d_k: 16,
                d_v: 32,
                heads: 12,
            }),
            "sizes",
        ),
        (Edit::Causal(true), "no causal mask"),
        (Edit::Reinitialise, "not drawn from a seed"),
    ];
    for (edit, why) in refused {
        let error = document.apply(edit, None).unwrap_err().english();
        assert!(error.contains(why), "{error}");
        assert_eq!(document.model, before);
    }
}

#[test]
fn an_opening_that_does_not_fit_is_refused_by_name() {
    let Some(encoder) = encoder() else { return };
    let change = |target, row, col, value| WeightChange {
        layer: 1,
        target,
        row,
        col,
        value,
    };
    let cases = [
        (
            LayerOpening {
                layer: 6,
                ..opening(0)
            },
            "no layer 6",
        ),
        (
            LayerOpening {
                knocked: vec![(2, 12)],
                ..opening(0)
            },
            "no head 12 in layer 2",
        ),
        (
            LayerOpening {
                changes: vec![change(Editable::Embedding, 0, 0, 1.0)],
                ..opening(0)
            },
            "embedding of layer 1",
        ),
        (
            LayerOpening {
                changes: vec![change(Editable::Weight(0, Projection::Key), 384, 0, 1.0)],
                ..opening(0)
            },
            "w_key of layer 1, row 384",
        ),
        (
            LayerOpening {
                changes: vec![change(Editable::OutputWeight, 0, 0, f64::NAN)],
                ..opening(0)
            },
            "not a number within ±1e6",
        ),
        (
            LayerOpening {
                sentence: "word ".repeat(70),
                ..opening(0)
            },
            "64",
        ),
    ];
    for (opening, why) in cases {
        let error = encoder.open_layer(NAME, opening).unwrap_err().english();
        assert!(error.contains(why), "{error}");
    }
}

#[test]
fn a_layers_state_is_what_opens_it_again_and_reads_back() {
    let Some(encoder) = encoder() else { return };
    let mut model = encoder
        .reopen(&encoder.open_layer(NAME, opening(2)).unwrap(), |o| {
            o.knocked = vec![(1, 4)];
            o.changes = vec![WeightChange {
                layer: 0,
                target: Editable::OutputBias,
                row: 0,
                col: 9,
                value: 1.5,
            }];
        })
        .unwrap();
    model.set(Editable::Bias(3, Projection::Value), 0, 5, -0.25);
    let written = write_state(&model);
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"version": 2, "pretrained": {"model": NAME, "sentence": SENTENCE, "layer": 2,
            "knocked": [[1, 4]], "changes": [[0, "b_output", null, 0, 9, 1.5], [2, "b_value", 3, 0, 5, -0.25]]}})
    );
    // A link carries it as the state's `pretrained`, opened once the model is fetched.
    // The followed piece and head past the default example's are kept for the layer.
    let link = read_link(
        "",
        &format!("m={}&focus=10&head=5", encode_model(&model, None)),
    );
    assert!(
        link.carries_model && link.messages.is_empty(),
        "{:?}",
        link.messages
    );
    assert_eq!((link.shown.followed, link.shown.head), (Some(10), Some(5)));
    let (name, opening) = read_trained(link.pretrained.as_deref().unwrap()).unwrap();
    assert_eq!(name, NAME);
    assert_eq!(encoder.open_layer(&name, opening).unwrap(), model);
    // As a state to load, it says what it needs.
    assert!(read_state(&written)
        .unwrap_err()
        .to_string()
        .contains("names a trained model"));
}

#[test]
fn a_bad_pretrained_state_names_its_field() {
    for (text, why) in [
        ("[1]", "pretrained.model must be text"),
        (
            r#"{"model": "m", "sentence": "a", "layer": -1}"#,
            "pretrained.layer must be a whole number",
        ),
        (
            r#"{"model": "m", "sentence": "a", "layer": 0, "knocked": [[1]]}"#,
            "pretrained.knocked[0] must be [layer, head]",
        ),
        (
            r#"{"model": "m", "sentence": "a", "layer": 0, "changes": [[0, "w_nope", 0, 0, 0, 1]]}"#,
            "pretrained.changes[0] names “w_nope”",
        ),
        (
            r#"{"model": "m", "sentence": "a", "layer": 0, "changes": [[0, "w_query", null, 0, 0, 1]]}"#,
            "without a head",
        ),
        (
            r#"{"model": "m", "sentence": "a", "layer": 0, "changes": [[0, "w_query", 0, 0, 0]]}"#,
            "must be [layer, matrix",
        ),
        ("{", "not valid JSON"),
    ] {
        let error = read_trained(text).unwrap_err().english();
        assert!(error.contains(why), "{text}: {error}");
    }
}

#[test]
fn the_training_lab_trains_a_trained_layers_attention_and_never_its_x() {
    let Some(encoder) = encoder() else { return };
    let model = encoder.open_layer(NAME, opening(3)).unwrap();
    let (it, street) = (10, 8);
    assert_eq!(model.tokens().words[it], "it");
    assert_eq!(model.tokens().words[street], "street");
    // Layer 3 head 1 sends "it" to "animal": train it towards "street" instead.
    let objective = Objective {
        goal: Goal::Attend(vec![Target {
            head: 1,
            query: it,
            key: street,
        }]),
        train: Param::ALL.to_vec(),
    };
    assert!(!Param::Embedding.in_model(&model));
    let trained = train(&model, &objective, Optimizer::Adam { lr: 0.01 }, 5);
    assert!(trained.refused.is_none());
    assert!(
        trained.losses[5] < trained.losses[0],
        "{:?}",
        trained.losses
    );
    assert_eq!(trained.model.embedded(), model.embedded());
    assert_eq!(trained.model.layered().unwrap().layer, 3);
    let mut document = Document::new(model);
    document
        .apply(Edit::Train(Box::new(trained.model.clone())), None)
        .unwrap();
    let changes = changed_cells(&document.model).unwrap();
    assert!(changes.iter().all(|c| c.layer == 3));
    assert!(changes.len() > 1000, "{}", changes.len());
    // What it writes opens the same numbers again.
    let (name, opening) = read_trained(
        &serde_json::from_str::<serde_json::Value>(&write_state(&document.model)).unwrap()
            ["pretrained"]
            .to_string(),
    )
    .unwrap();
    assert_eq!(encoder.open_layer(&name, opening).unwrap(), trained.model);
}

#[test]
fn a_teachers_link_names_a_trained_model_and_its_layer() {
    let link = read_link("?preset=raschka&pretrained=all-minilm-l6-v2&layer=3", "");
    assert!(
        link.carries_model && link.messages.is_empty(),
        "{:?}",
        link.messages
    );
    let (name, opening) = read_trained(link.pretrained.as_deref().unwrap()).unwrap();
    assert_eq!(name, NAME);
    assert_eq!(opening.layer, 3);
    assert_eq!(opening.sentence, "Life is short, eat dessert first");
    assert_eq!((opening.knocked.len(), opening.changes.len()), (0, 0));
    let bad = read_link("?pretrained=all-minilm-l6-v2&layer=two", "");
    assert!(
        bad.messages[0]
            .english()
            .contains("layer=“two” was ignored"),
        "{:?}",
        bad.messages
    );
    assert_eq!(
        read_trained(bad.pretrained.as_deref().unwrap())
            .unwrap()
            .1
            .layer,
        0
    );
}

#[test]
fn a_teachers_link_asks_about_a_trained_layers_head_before_it_is_open() {
    // Goals either way: nothing the stand-in computes meets one already.
    let exercises = "ask=weights.3:8,4&predict=weights.11:9&goal=weights.3:8,4>=0.9;scores.2:1,1<=0.5&lock=w_key";
    let link = read_link(
        &format!("?pretrained=all-minilm-l6-v2&layer=2&{exercises}"),
        "",
    );
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(link.exercises.list.len(), 4);
    assert_eq!(link.exercises.locks.len(), 1);
    // Against the page's own model the same heads are not there.
    let plain = read_link(&format!("?{exercises}"), "");
    assert!(
        plain
            .messages
            .iter()
            .any(|m| m.english().contains("no head")),
        "{:?}",
        plain.messages
    );
    // Past what any trained layer holds, still said.
    let far = read_link("?pretrained=all-minilm-l6-v2&ask=weights.16:0,0", "");
    assert!(!far.messages.is_empty());
}

#[test]
fn copy_as_pytorch_of_a_trained_layer_gives_each_place_its_row_and_the_pages_output() {
    let Some(encoder) = encoder() else { return };
    let model = encoder.open_layer(NAME, opening(3)).unwrap();
    let written = attention_explorer::core::formats::pytorch::pytorch_script(&model, None);
    // Its 600 000 numbers go to a file the script loads, not into 11 MB of text.
    assert!(written.text.len() < 10_000, "{} bytes", written.text.len());
    assert!(written.text.contains("ids = torch.arange(len(words))"));
    assert!(written.numbers.as_ref().unwrap().len() > 4_000_000);
    // Both "the" have their own rows, so the script sends "it" to "animal" as the page does.
    let Some(got) = common::torch_output(&model) else {
        return;
    };
    let page = Trace::of(&model).output;
    assert!(largest_difference(&got, &page) <= 1e-9);
}
