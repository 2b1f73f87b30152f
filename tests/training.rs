//! The training lab's core: its settings in the link, its loss curves, and the race of the
//! scalings on the shipped example (issue 16).

use attention_explorer::core::formats::link::{read_link, write_fragment};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::i18n::Msg;
use attention_explorer::core::model::presets::{dog, DOG_SHE};
use attention_explorer::core::model::{Projection, Scale};
use attention_explorer::core::training::lab::curve::{loss_curves, MAX_POINTS};
use attention_explorer::core::training::lab::dog_untrained;
use attention_explorer::core::training::lab::race::{race, race_example, race_words, RACE_STEPS};
use attention_explorer::core::training::lab::{scrambled, Setup};
use attention_explorer::core::training::{gradients, train, Goal, Optimizer, Param, Target};

#[test]
fn the_lab_s_setting_goes_into_the_link_and_back() {
    let link = read_link(
        "?preset=dog",
        "#target=0:6,1;0:8,4&train=w_query,w_key&optimizer=sgd&lr=0.1",
    );
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    let t = &link.shown.training;
    assert_eq!(
        t.targets,
        vec![
            Target {
                head: 0,
                query: 6,
                key: 1
            },
            Target {
                head: 0,
                query: 8,
                key: 4
            }
        ]
    );
    assert_eq!(
        t.train,
        vec![
            Param::Weight(Projection::Query),
            Param::Weight(Projection::Key)
        ]
    );
    assert_eq!(t.optimizer, Optimizer::Sgd { lr: 0.1 });
    let written = write_fragment("M", &link.shown);
    assert_eq!(
        written,
        "m=M&target=0:6,1;0:8,4&train=w_query,w_key&optimizer=sgd&lr=0.1"
    );
    // The lr before the optimizer, and defaults left out; the four that were all before the
    // biases and the output projection are still those four.
    let link = read_link(
        "?preset=dog",
        "#lr=0.5&optimizer=adam&train=embedding,w_query,w_key,w_value",
    );
    assert_eq!(link.shown.training.optimizer, Optimizer::Adam { lr: 0.5 });
    assert_eq!(
        write_fragment("M", &link.shown),
        "m=M&train=embedding,w_query,w_key,w_value&lr=0.5"
    );
    let link = read_link("?preset=dog", "#lr=0.5&optimizer=adam");
    assert_eq!(write_fragment("M", &link.shown), "m=M&lr=0.5");
}

#[test]
fn a_bad_training_setting_in_the_link_is_refused_with_a_message_and_the_rest_opens() {
    for (hash, says) in [
        ("#target=0:2,5", "cannot see key 5"),
        ("#target=3:1,1", "head is 3"),
        ("#target=0:99,1", "query is 99"),
        ("#target=she,dog", "is not HEAD:QUERY,KEY"),
        ("#target=0:1", "is not HEAD:QUERY,KEY"),
        (
            "#train=w_out",
            "use embedding, w_query, w_key, w_value, w_output, positions",
        ),
        ("#optimizer=rmsprop", "unknown optimizer"),
        ("#lr=0", "not a learning rate"),
        ("#lr=11", "at most 10"),
        ("#lr=NaN", "not a learning rate"),
    ] {
        let link = read_link("?preset=dog", hash);
        assert!(
            link.messages.iter().any(|m| m.english().contains(says)),
            "{hash}: {:?}",
            link.messages
        );
        assert_eq!(link.shown.training, Setup::default(), "{hash}");
        assert_eq!(link.preset, Some("dog"));
    }
}

#[test]
fn the_default_target_is_the_followed_token_towards_its_second_key_and_the_loss_is_the_trace_s() {
    let model = dog();
    let trace = Trace::of(&model);
    let setup = Setup::default();
    assert_eq!(
        setup.targets_on(&model, &trace, DOG_SHE, 0),
        vec![Target {
            head: 0,
            query: DOG_SHE,
            key: 4
        }]
    );
    let objective = setup
        .objective(&model, &setup.targets_on(&model, &trace, DOG_SHE, 0))
        .unwrap();
    assert_eq!(objective.loss(&trace), gradients(&model, &objective).loss);
    // An output to match, of the output's shape; of another shape the targets are used.
    let output = Setup {
        output: Some(trace.output.clone()),
        ..Setup::default()
    };
    let objective = output.objective(&model, &[]).unwrap();
    assert!(matches!(objective.goal, Goal::Output(_)));
    assert_eq!(objective.loss(&trace), 0.0);
    let scrambled = scrambled(&model, 123);
    assert_eq!(scrambled.embedding(), model.embedding());
    assert_ne!(scrambled.heads(), model.heads());
    assert_eq!(scrambled, dog_untrained(123));
    let far = Trace::of(&scrambled);
    assert!(objective.loss(&far) > 0.1);
    assert_eq!(objective.loss(&far), gradients(&scrambled, &objective).loss);
}

#[test]
fn on_the_race_example_no_scaling_starves_w_query_and_learns_nothing_while_both_scalings_learn() {
    let (model, setup) = race_example();
    assert_eq!(model.dims().d_in, 64);
    assert_eq!(model.dims().d_k, 64);
    let objective = setup.objective(&model, &[]).unwrap();
    assert!(matches!(objective.goal, Goal::Output(_)));
    let lanes = race(&model, &objective, setup.optimizer, RACE_STEPS);
    let [none, sqrt, dk] = &lanes[..] else {
        panic!("three lanes")
    };
    assert_eq!(
        [none.scale, sqrt.scale, dk.scale],
        [Scale::None, Scale::SqrtDk, Scale::Dk]
    );
    assert!(lanes.iter().all(|l| l.losses.len() == RACE_STEPS + 1));
    // Measured (docs/learners.md, the race): ‖∂L/∂W_query‖ 2.7e-26, 0.306, 26.8; the loss 109 → 109, 37.4, 33.6.
    assert!(none.grad_w_query < 1e-20, "{}", none.grad_w_query);
    assert!(sqrt.grad_w_query > 0.1 && dk.grad_w_query > 0.1);
    assert!((none.progress() - 1.0).abs() < 1e-9, "{}", none.progress());
    assert!(sqrt.progress() < 0.4 && dk.progress() < 0.4);
    let words: Vec<String> = race_words(&lanes, &model, &objective)
        .iter()
        .map(Msg::english)
        .collect();
    assert!(
        words[0].starts_with("Without scaling the softmax is saturated"),
        "{words:?}"
    );
    assert!(words[1].contains("about as far"), "{words:?}");
    // On the dog with its attention target, no scaling learns too: the words say why.
    let model = dog();
    let trace = Trace::of(&model);
    let setup = Setup::default();
    let objective = setup
        .objective(&model, &setup.targets_on(&model, &trace, DOG_SHE, 0))
        .unwrap();
    let lanes = race(&model, &objective, Optimizer::Adam { lr: 0.05 }, 20);
    let words: Vec<String> = race_words(&lanes, &model, &objective)
        .iter()
        .map(Msg::english)
        .collect();
    assert!(
        words[0].starts_with("Without scaling it learns too"),
        "{words:?}"
    );
    // Each lane is what training under its scaling gives.
    for lane in &lanes {
        let mut start = model.clone();
        start.scale = lane.scale;
        let losses = train(&start, &objective, Optimizer::Adam { lr: 0.05 }, 20).losses;
        assert_eq!(lane.losses.len(), losses.len());
        for (a, b) in lane.losses.iter().zip(&losses) {
            assert!((a - b).abs() < 1e-12, "{:?}: {a} {b}", lane.scale);
        }
    }
}

#[test]
fn loss_curves_share_one_log_scale() {
    let (paths, decades) = loss_curves(&[&[1.0, 0.1, 0.01]], 200.0, 100.0).unwrap();
    assert_eq!(decades, vec![-2, -1, 0]);
    assert_eq!(paths, vec!["M0.0,0.0 L100.0,50.0 L200.0,100.0"]);
    // Non-positive or non-finite losses are left out; one loss still gets a decade to sit in.
    let (paths, decades) = loss_curves(&[&[f64::NAN, 0.5]], 200.0, 100.0).unwrap();
    assert_eq!(decades, vec![-1, 0]);
    assert!(paths[0].starts_with("M200.0,"), "{paths:?}");
    assert!(loss_curves(&[&[0.0, f64::INFINITY]], 10.0, 10.0).is_none());
    // Two curves: the scale spans both; the x axis the longer.
    let (paths, decades) = loss_curves(&[&[10.0, 1.0], &[1.0, 0.1, 0.01]], 200.0, 300.0).unwrap();
    assert_eq!(decades, vec![-2, -1, 0, 1]);
    assert_eq!(paths[0], "M0.0,0.0 L100.0,100.0");
    assert_eq!(paths[1], "M0.0,100.0 L100.0,200.0 L200.0,300.0");
    // A long run draws at most about MAX_POINTS points, its last included.
    let long: Vec<f64> = (0..10_001).map(|k| 1.0 / (k + 1) as f64).collect();
    let (paths, _) = loss_curves(&[&long], 320.0, 140.0).unwrap();
    let points = paths[0].split(' ').count();
    assert!(points <= MAX_POINTS + 1, "{points}");
    assert!(
        paths[0].ends_with("L320.0,140.0") || paths[0].contains("L320.0,"),
        "{}",
        &paths[0][paths[0].len() - 20..]
    );
}

#[test]
fn a_race_whose_steps_are_refused_says_so_in_words_of_finite_numbers() {
    let model = dog();
    let objective = attention_explorer::core::training::Objective::from_value(
        &serde_json::json!({"attend": [{"head": 0, "query": 6, "key": 4}]}),
        &model,
    )
    .unwrap();
    let lanes = race(&model, &objective, Optimizer::Sgd { lr: 1e9 }, 3);
    assert!(lanes.iter().all(|l| l.refused.is_some()), "{lanes:?}");
    let words = race_words(&lanes, &model, &objective)
        .iter()
        .map(Msg::english)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("With ÷√dₖ a step was not taken ("),
        "{words}"
    );
    assert!(
        !words.contains("NaN") && !words.contains("inf") && !words.contains("went further"),
        "{words}"
    );
}

#[test]
fn a_link_says_only_what_the_model_has_trains() {
    use attention_explorer::core::training::lab::Setup;
    let plain = dog();
    let mut setup = Setup::default();
    assert_eq!(
        setup.train_of(&plain),
        Param::ALL.to_vec(),
        "all: nothing written"
    );
    setup
        .train
        .retain(|p| *p != Param::Weight(Projection::Query));
    let train = setup.train_of(&plain);
    assert!(!train.contains(&Param::Output) && !train.contains(&Param::Positions));
    assert_eq!(train.len(), 3, "the embedding, W_key, W_value: {train:?}");
}

#[test]
fn a_loss_curve_is_said_as_it_fell() {
    use attention_explorer::core::training::lab::curve::how_it_fell;
    assert_eq!(how_it_fell(&[]), None);
    assert_eq!(how_it_fell(&[1.0, 0.5]), None);
    assert_eq!(
        how_it_fell(&[2.0, 0.5, 0.4, 0.3, 0.25]).map(|k| k.0.en),
        Some("It fell fast at first, then slowly.")
    );
    // From random weights the dog's curve starts flat, then drops.
    assert_eq!(
        how_it_fell(&[2.0, 1.98, 1.95, 1.0, 0.2]).map(|k| k.0.en),
        Some("It fell slowly at first, then faster.")
    );
    assert_eq!(how_it_fell(&[1.0, 1.2, 1.5]), None);
    // SGD at a rate of 10: an infinite loss (a weight of 0) or a climb is said, not "fell fast".
    assert!(how_it_fell(&[2.0, f64::INFINITY, 30.0, 0.5])
        .unwrap()
        .0
        .en
        .starts_with("It rose past where it started before it fell"));
    assert!(how_it_fell(&[2.0, 1.3e16])
        .unwrap()
        .0
        .en
        .starts_with("It rose: steps this large overshoot"));
    assert!(how_it_fell(&[2.0, 40.0, 8000.0])
        .unwrap()
        .0
        .en
        .starts_with("It rose: steps this large overshoot"));
    // The line stops at a loss it cannot draw rather than bridging it.
    let (paths, _) = loss_curves(&[&[1.0, f64::INFINITY, 0.1, 0.01]], 300.0, 100.0).unwrap();
    assert_eq!(paths, vec!["M0.0,0.0 M200.0,50.0 L300.0,100.0"]);
}

/// The lab's session, natively: the dog story backwards stops at the tutorial's weight, each step
/// is the trainer's, Reset gives back the start, and a model it did not make ends the curve.
#[test]
fn the_training_session_runs_until_its_stop_rule_and_resets() {
    use attention_explorer::core::model::presets::{DOG_DOG, DOG_SHE_WEIGHT_DOG};
    use attention_explorer::core::training::lab::session::{first_weight, Session};
    use attention_explorer::core::training::{Trainer, MAX_STEPS};

    let start = dog_untrained(123);
    let target = Target {
        head: 0,
        query: DOG_SHE,
        key: DOG_DOG,
    };
    let setup = Setup {
        targets: vec![target],
        ..Setup::default()
    };
    let objective = setup
        .objective(&start, &[target])
        .expect("an attention target");
    let optimizer = setup.optimizer;
    let mut session = Session::default();
    session.start_from(start.clone());
    session.stop_at(DOG_SHE_WEIGHT_DOG);
    let end = session.run(start.clone(), &objective, optimizer, MAX_STEPS);
    let steps = session.losses().len();
    let weight = first_weight(&Trace::of(&end), &objective);
    assert!(weight >= DOG_SHE_WEIGHT_DOG, "stopped at {weight}");
    assert!((2..MAX_STEPS).contains(&steps), "{steps} steps");
    // One step fewer has not reached it: the rule stopped the run at the first step that did.
    let mut again = (start.clone(), Trainer::new(optimizer));
    for _ in 0..steps - 1 {
        again.1.step(&mut again.0, &objective).unwrap();
    }
    assert!(first_weight(&Trace::of(&again.0), &objective) < DOG_SHE_WEIGHT_DOG);
    again.1.step(&mut again.0, &objective).unwrap();
    assert_eq!(
        again.0, end,
        "the session's steps are the trainer's, bit for bit"
    );
    let (first, last) = (session.losses()[0], *session.losses().last().unwrap());
    assert!(last < first, "the loss fell: {first} → {last}");

    // Stepping on from the model it made continues the curve; another model ends it.
    let next = session
        .step(&end, &Trace::of(&end), &objective, optimizer)
        .unwrap();
    assert_eq!(session.losses().len(), steps + 1);
    assert!(!session.follow(&next), "the page shows what it made");
    assert!(
        session.follow(&start),
        "an undo past the run ends the curve"
    );
    assert!(session.losses().is_empty());
    assert_eq!(
        session.reset(),
        Some(start),
        "Reset gives the numbers before training"
    );
    assert_eq!(session.reset(), None);
}

/// A step the trainer refuses leaves the model as it was and says why; a new objective starts
/// a new curve.
#[test]
fn a_refused_step_is_said_and_a_new_objective_starts_a_new_curve() {
    use attention_explorer::core::training::lab::session::Session;

    let model = dog();
    let targets = [Target {
        head: 0,
        query: DOG_SHE,
        key: 2,
    }];
    let objective = Setup::default().objective(&model, &targets).unwrap();
    let mut session = Session::default();
    let a = session
        .step(
            &model,
            &Trace::of(&model),
            &objective,
            Optimizer::Sgd { lr: 0.1 },
        )
        .unwrap();
    session
        .step(&a, &Trace::of(&a), &objective, Optimizer::Sgd { lr: 0.1 })
        .unwrap();
    assert_eq!(session.losses().len(), 2);
    let other = Setup::default()
        .objective(
            &model,
            &[Target {
                key: 3,
                ..targets[0]
            }],
        )
        .unwrap();
    session
        .step(
            &model,
            &Trace::of(&model),
            &other,
            Optimizer::Sgd { lr: 0.1 },
        )
        .unwrap();
    assert_eq!(session.losses().len(), 1, "a new target, a new curve");
    // A learning rate that throws the numbers past the limits a saved state keeps.
    assert_eq!(
        session.step(
            &model,
            &Trace::of(&model),
            &other,
            Optimizer::Sgd { lr: 1e300 }
        ),
        None
    );
    assert!(session
        .refused()
        .unwrap()
        .english()
        .starts_with("Step not taken"));
}
