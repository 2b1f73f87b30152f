//! `core::gradient`: the loss, every gradient and the optimisers against PyTorch's autograd
//! (`tests/fixtures/grad_cases.json`), each backward step against finite differences, and every
//! bad objective refused with its message.

mod common;

use attention_explorer::core::formats::state::{read_state_value, state_value};
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::{Editable, Model, Projection};
use attention_explorer::core::training::{gradients, train, Objective, Optimizer};
use common::{assert_close, fixture, matrix};
use serde_json::Value;

fn case_model(case: &Value) -> Model {
    read_state_value(&case["state"]).expect("the fixture's state reads")
}

#[test]
fn every_gradient_equals_autograd() {
    let cases = fixture("grad_cases.json");
    for (c, case) in cases["cases"].as_array().unwrap().iter().enumerate() {
        let model = case_model(case);
        let objective = Objective::from_value(&case["objective"], &model).expect("objective");
        let g = gradients(&model, &objective);
        let want = case["loss"].as_f64().unwrap();
        assert!(
            (g.loss - want).abs() <= 1e-9 * want.abs().max(1.0),
            "case {c}: loss {} against {want}",
            g.loss
        );
        assert_close(
            &format!("case {c} embedding"),
            &g.embedding,
            &matrix(&case["grad"]["embedding"]),
            1e-9,
        );
        for (h, head) in case["grad"]["heads"].as_array().unwrap().iter().enumerate() {
            let ours = &g.heads[h];
            for (name, m) in [
                ("w_query", &ours.w_query),
                ("w_key", &ours.w_key),
                ("w_value", &ours.w_value),
                ("queries", &ours.queries),
                ("keys", &ours.keys),
                ("values", &ours.values),
                ("scores", &ours.scores),
                ("weights", &ours.weights),
                ("context", &ours.context),
            ] {
                assert_close(
                    &format!("case {c} head {h} {name}"),
                    m,
                    &matrix(&head[name]),
                    1e-9,
                );
            }
        }
    }
}

#[test]
fn sgd_and_adam_follow_torch_optim() {
    let cases = fixture("grad_cases.json");
    let mut trained_cases = 0;
    for (c, case) in cases["cases"].as_array().unwrap().iter().enumerate() {
        let Some(run) = case.get("train").filter(|t| t.is_object()) else {
            continue;
        };
        trained_cases += 1;
        let model = case_model(case);
        let objective = Objective::from_value(&case["objective"], &model).unwrap();
        let lr = run["lr"].as_f64().unwrap();
        let optimizer = match run["optimizer"].as_str().unwrap() {
            "sgd" => Optimizer::Sgd { lr },
            "adam" => Optimizer::Adam { lr },
            other => panic!("case {c}: optimizer {other}"),
        };
        let steps = run["steps"].as_u64().unwrap() as usize;
        let trained = train(&model, &objective, optimizer, steps);
        let (losses, after) = (trained.losses, trained.model);
        let want: Vec<f64> = run["losses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(losses.len(), want.len(), "case {c}: steps + 1 losses");
        for (k, (a, e)) in losses.iter().zip(&want).enumerate() {
            assert!(
                (a - e).abs() <= 1e-9 * e.abs().max(1e-3),
                "case {c}: loss {k}: {a} against {e}"
            );
        }
        let expected = read_state_value(&run["state"]).unwrap();
        assert_close(
            &format!("case {c} trained embedding"),
            after.embedding(),
            expected.embedding(),
            1e-9,
        );
        for (h, (a, e)) in after.heads().iter().zip(expected.heads()).enumerate() {
            for p in Projection::ALL {
                assert_close(
                    &format!("case {c} trained head {h} {}", p.key()),
                    &a[p],
                    &e[p],
                    1e-9,
                );
            }
        }
    }
    assert!(trained_cases >= 10, "{trained_cases} training cases");
}

/// Central finite differences of the loss in every parameter, against the backward pass.
#[test]
fn the_backward_pass_matches_finite_differences() {
    let model = dog();
    for json in [
        r#"{"attend": [{"head": 0, "query": 6, "key": 4}, {"head": 0, "query": 8, "key": 2}]}"#,
        &format!(
            "{{\"output\": {}}}",
            serde_json::to_string(&vec![vec![0.5; 3]; 9]).unwrap()
        ),
    ] {
        let objective = Objective::read(json, &model).unwrap();
        let g = gradients(&model, &objective);
        let h = 1e-6;
        let targets = [
            Editable::Embedding,
            Editable::Weight(0, Projection::Query),
            Editable::Weight(0, Projection::Key),
            Editable::Weight(0, Projection::Value),
        ];
        for target in targets {
            let (rows, cols) = model.matrix(target).unwrap().shape();
            for i in 0..rows {
                for j in 0..cols {
                    let x = model.matrix(target).unwrap()[(i, j)];
                    let loss_at = |v: f64| {
                        let mut m = model.clone();
                        m.set(target, i, j, v);
                        gradients(&m, &objective).loss
                    };
                    let numeric = (loss_at(x + h) - loss_at(x - h)) / (2.0 * h);
                    let analytic = match target {
                        Editable::Embedding => g.embedding[(i, j)],
                        Editable::Weight(_, Projection::Query) => g.heads[0].w_query[(i, j)],
                        Editable::Weight(_, Projection::Key) => g.heads[0].w_key[(i, j)],
                        Editable::Weight(_, Projection::Value) => g.heads[0].w_value[(i, j)],
                        _ => unreachable!("the dog has no biases or output projection"),
                    };
                    assert!(
                        (numeric - analytic).abs() < 1e-6 * numeric.abs().max(1.0),
                        "{target:?} [{i}][{j}]: {analytic} against {numeric}"
                    );
                }
            }
        }
    }
}

#[test]
fn bad_objectives_are_refused_with_what_is_wrong() {
    let model = dog();
    let refused = |json: &str| Objective::read(json, &model).unwrap_err().english();
    assert!(refused(r#"{"attend": [{"head": 0, "query": 1, "key": 6}]}"#).contains("causal mask"));
    assert!(
        refused(r#"{"attend": [{"head": 1, "query": 1, "key": 0}]}"#)
            .contains("attend[0].head is 1")
    );
    assert!(
        refused(r#"{"attend": [{"head": 0, "query": 9, "key": 0}]}"#)
            .contains("attend[0].query is 9")
    );
    assert!(refused(r#"{"attend": []}"#).contains("no targets"));
    assert!(refused(r#"{"output": [[1, 2, 3]]}"#).contains("9 rows"));
    assert!(refused(&format!(
        "{{\"output\": {}}}",
        serde_json::to_string(&vec![vec![0.5; 2]; 9]).unwrap()
    ))
    .contains("output[0] must be 3 numbers"));
    assert!(refused(
        r#"{"output": [[1,2,3],[1,2,3],[1,2,3],[1,2,3],[1,2,3],[1,2,3],[1,2,3],[1,2,"x"],[1,2,3]]}"#
    )
    .contains("output[7][2]"));
    assert!(
        refused(r#"{"attend": [{"head": 0, "query": 1, "key": 0}], "train": ["w_q"]}"#)
            .contains("“w_q”")
    );
    assert!(
        refused(r#"{"attend": [{"head": 0, "query": 1, "key": 0}], "output": []}"#)
            .contains("not both")
    );
    assert!(refused(r#"{}"#).contains("\"attend\" or \"output\""));
    assert!(refused("[1]").contains("object"));
    assert!(refused("{").contains("not JSON"));
}

#[test]
fn training_moves_only_what_it_trains_and_she_learns_to_look_at_dog() {
    let mut model = dog();
    // From the dog's shapes with other numbers: she → dog is not there yet.
    model.set(Editable::Weight(0, Projection::Key), 1, 0, -2.0);
    let objective = Objective::read(
        r#"{"attend": [{"head": 0, "query": 6, "key": 1}], "train": ["w_query", "w_key"]}"#,
        &model,
    )
    .unwrap();
    let run = train(&model, &objective, Optimizer::Adam { lr: 0.05 }, 60);
    let (losses, after) = (run.losses, run.model);
    assert!(losses.last().unwrap() < &losses[0]);
    assert_eq!(after.embedding(), model.embedding());
    assert_eq!(after.heads()[0].w_value, model.heads()[0].w_value);
    let weight = (-losses.last().unwrap()).exp();
    assert!(weight >= 0.88, "she → dog {weight}");
    // A trained model saves and reads back like any other.
    assert_eq!(read_state_value(&state_value(&after)).unwrap(), after);
}

#[cfg(not(target_arch = "wasm32"))]
mod no_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any text as an objective: read or refused, never a panic.
        #[test]
        fn any_text_is_read_or_refused(text in ".{0,80}") {
            let _ = Objective::read(&text, &dog());
        }

        /// Targets anywhere, of either kind, with any training list: refused, or a loss and a
        /// step taken without a panic.
        #[test]
        fn any_target_is_refused_or_trained(
            head in 0u64..3, query in 0u64..12, key in 0u64..12,
            value in prop_oneof![Just(f64::MAX), -1e300f64..1e300, Just(0.0)],
            output in any::<bool>(), names in proptest::collection::vec("[a-z_]{0,10}", 0..3),
        ) {
            let model = dog();
            let json = if output {
                serde_json::json!({ "output": vec![vec![value; 3]; 9], "train": names })
            } else {
                serde_json::json!({ "attend": [{ "head": head, "query": query, "key": key }] })
            };
            if let Ok(objective) = Objective::from_value(&json, &model) {
                let _ = train(&model, &objective, Optimizer::Adam { lr: 0.1 }, 2);
            }
        }
    }
}

#[test]
fn a_target_fits_while_the_model_still_has_it_and_each_gradient_is_found_by_its_name() {
    let mut model = dog();
    let objective =
        Objective::read(r#"{"attend": [{"head": 0, "query": 6, "key": 4}]}"#, &model).unwrap();
    assert!(objective.fits(&model));
    let g = gradients(&model, &objective);
    use attention_explorer::core::model::Matrix;
    assert_eq!(Matrix::Embedding.gradient(&g, None), Some(&g.embedding));
    assert_eq!(
        Matrix::Scores.gradient(&g, Some(0)),
        Some(&g.heads[0].scores)
    );
    let w_value = Matrix::Weight(Projection::Value);
    assert_eq!(w_value.gradient(&g, Some(0)), Some(&g.heads[0].w_value));
    assert_eq!(w_value.gradient(&g, None), None, "a head's needs its head");
    assert_eq!(Matrix::Scores.gradient(&g, Some(1)), None);
    assert_eq!(Matrix::Embedded.gradient(&g, Some(0)), None);
    // Every matrix that says it has a gradient finds one, and no other does.
    for m in Matrix::ALL {
        let head = m.per_head().then_some(0);
        assert_eq!(
            m.gradient(&g, head).is_some(),
            m.has_gradient()
                && !matches!(
                    m,
                    Matrix::Positions
                        | Matrix::Bias(_)
                        | Matrix::OutputWeight
                        | Matrix::OutputBias
                        | Matrix::SourceEmbedding
                ),
            "{m:?}"
        );
    }
    // A shorter sentence loses "ball"'s place: the target no longer fits.
    let mut history = attention_explorer::core::document::history::History::default();
    let mut seed = 0;
    attention_explorer::core::document::edit::apply(
        (&mut model, &mut history, &mut seed),
        &mut Default::default(),
        attention_explorer::core::document::edit::Edit::Sentence("The dog".into()),
        None,
    )
    .unwrap();
    assert!(!objective.fits(&model));
}

#[test]
fn optimisers_are_named_one_way_and_a_target_starts_at_the_second_key() {
    use attention_explorer::core::model::presets::DOG_SHE;
    use attention_explorer::core::training::lab::dog_untrained;
    use attention_explorer::core::training::second_key;
    assert_eq!(Optimizer::named(None, 0.1), Ok(Optimizer::Adam { lr: 0.1 }));
    assert_eq!(
        Optimizer::named(Some("sgd"), 1.0),
        Ok(Optimizer::Sgd { lr: 1.0 })
    );
    assert!(Optimizer::named(Some("rmsprop"), 0.1)
        .unwrap_err()
        .english()
        .contains("unknown optimizer"));
    assert!(Optimizer::named(None, -1.0)
        .unwrap_err()
        .english()
        .contains("positive"));
    assert!(Optimizer::named(None, f64::NAN).is_err());
    // "she" looks at "dog" most and at "ball" (4) second; a query out of range gets 0.
    let t = attention_explorer::core::forward::trace::Trace::of(&dog());
    assert_eq!(second_key(&t.heads[0].weights, DOG_SHE, true), 4);
    assert_eq!(
        second_key(&t.heads[0].weights, 0, true),
        0,
        "the first token sees only itself"
    );
    assert_eq!(second_key(&t.heads[0].weights, 99, true), 0);
    // The dog story before training keeps the hand-made embedding.
    let untrained = dog_untrained(123);
    assert_eq!(untrained.embedding(), dog().embedding());
    assert_ne!(untrained.heads(), dog().heads());
}

/// The dog with its embedding `factor` times larger and no scaling: scores large enough that
/// some weights underflow to exactly 0.
fn dog_loud(factor: f64) -> Model {
    let dog = dog();
    Model::new(
        dog.sentence(),
        dog.embedding() * factor,
        dog.heads().to_vec(),
        false,
        attention_explorer::core::model::Scale::None,
    )
    .unwrap()
}

#[test]
fn a_weight_that_underflows_to_zero_trains_from_a_finite_loss() {
    let model = dog_loud(30.0);
    let trace = attention_explorer::core::forward::trace::Trace::of(&model);
    let weights = &trace.heads[0].weights;
    let (query, key) = (0..weights.nrows())
        .flat_map(|i| (0..weights.ncols()).map(move |j| (i, j)))
        .find(|&(i, j)| weights[(i, j)] == 0.0)
        .expect("a weight underflows to 0");
    let objective = Objective::from_value(
        &serde_json::json!({"attend": [{"head": 0, "query": query, "key": key}]}),
        &model,
    )
    .unwrap();
    // −ln 0 would be ∞; taken from the scores (log-sum-exp) it is their gap.
    let g = gradients(&model, &objective);
    let scores = &trace.heads[0].masked_scores;
    let gap = scores.row(query).max() - scores[(query, key)];
    assert!(
        g.loss.is_finite() && (g.loss - gap).abs() <= 1e-9 * gap,
        "{} {gap}",
        g.loss
    );
    assert_eq!(objective.loss(&trace), g.loss);
    for m in [
        &g.embedding,
        &g.heads[0].w_query,
        &g.heads[0].w_key,
        &g.heads[0].scores,
    ] {
        assert!(m.iter().all(|x| x.is_finite()), "{m}");
    }
    // Trained at a large rate, every step is taken or refused: the model always reads back.
    let run = train(&model, &objective, Optimizer::Sgd { lr: 10.0 }, 5);
    assert!(run.losses.iter().all(|l| l.is_finite()), "{:?}", run.losses);
    run.model.check_limits().unwrap();
    read_state_value(&state_value(&run.model)).expect("the trained model reads back");
}

#[test]
fn a_step_past_the_limits_is_refused_and_changes_nothing() {
    let model = dog();
    let objective = Objective::from_value(
        &serde_json::json!({"attend": [{"head": 0, "query": 6, "key": 4}]}),
        &model,
    )
    .unwrap();
    let mut trainer = attention_explorer::core::training::Trainer::new(Optimizer::Sgd { lr: 1e9 });
    let mut after = model.clone();
    let refused = trainer.step(&mut after, &objective).unwrap_err();
    assert_eq!(after, model, "no number changed");
    let (reason, message) = (refused.reason.english(), refused.message().english());
    assert!(reason.contains("past ±1e6"), "{reason}");
    assert!(message.contains("Lower the learning rate"), "{message}");
    let run = train(&model, &objective, Optimizer::Sgd { lr: 1e9 }, 10);
    assert_eq!((run.losses.len(), run.model), (1, model.clone()));
    assert!(run.refused.is_some());
    // A model past the limits is refused by the reducer too.
    let mut doc = attention_explorer::core::document::edit::Document::new(model.clone());
    let mut wild = model.clone();
    wild.set(Editable::Weight(0, Projection::Key), 0, 0, 2e6);
    let e = doc
        .apply(
            attention_explorer::core::document::edit::Edit::Train(Box::new(wild)),
            None,
        )
        .unwrap_err()
        .english();
    assert!(
        e.contains("w_key of head 1 would hold about 2e6, past ±1e6"),
        "{e}"
    );
    assert_eq!(doc.model, model);
}

#[test]
fn a_gradient_in_words_never_says_about_zero() {
    use attention_explorer::core::training::gradient_words;
    let zero = gradient_words("W_query", (0, 1), -0.0).english();
    assert!(
        zero.contains("= 0: raising this number a little does not change the loss"),
        "{zero}"
    );
    let tiny = gradient_words("W_query", (0, 1), 1.6e-5).english();
    assert!(
        tiny.contains(
            "= 1.60e-5: raising this number by 0.01 would raise the loss by about 1.60e-7,"
        ),
        "{tiny}"
    );
    let plain = gradient_words("W_query", (0, 1), -0.25).english();
    assert!(
        plain.contains("= -2.50e-1") && plain.contains("lower the loss by about 2.50e-3"),
        "{plain}"
    );
}

#[test]
fn one_call_trains_at_most_a_couple_of_seconds_of_steps() {
    use attention_explorer::core::model::Dims;
    use attention_explorer::core::training::max_steps;
    assert_eq!(max_steps(&dog()), 10_000);
    let at = |n_words: usize, heads: usize, d: usize, d_v: usize| {
        let sentence: Vec<String> = (0..n_words).map(|i| format!("w{i}")).collect();
        let dims = Dims {
            d_in: d,
            d_k: d,
            d_v,
            heads,
        };
        max_steps(
            &Model::seeded(
                &sentence.join(" "),
                dims,
                1,
                false,
                attention_explorer::core::model::Scale::SqrtDk,
            )
            .unwrap(),
        )
    };
    // The limits: 44 ms a step natively, about twice that in wasm.
    assert_eq!(at(64, 16, 128, 128), 22);
    assert_eq!(at(64, 8, 64, 16), 204);
}

#[test]
fn a_number_past_the_limits_is_named_in_four_figures() {
    let model = dog();
    let mut wild = model.clone();
    wild.set(Editable::Embedding, 1, 0, -9.791479891976453e12);
    assert_eq!(
        wild.check_limits().unwrap_err().english(),
        "embedding would hold about -9.791e12, past ±1e6"
    );
    wild.set(Editable::Embedding, 1, 0, f64::NAN);
    assert_eq!(
        wild.check_limits().unwrap_err().english(),
        "embedding would hold a number that is not finite"
    );
}
