//! The training lab's core: its settings in the link, its loss curves, and the race of the
//! scalings on the shipped example (issue 16).

use attention_explorer::core::formats::link::{read_link, write_fragment};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::presets::{dog, DOG_SHE};
use attention_explorer::core::model::{Projection, Scale};
use attention_explorer::core::training::lab::dog_untrained;
use attention_explorer::core::training::lab::{
    loss_curves, race, race_example, race_words, scrambled, Setup, MAX_POINTS, RACE_STEPS,
};
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
            link.messages.iter().any(|m| m.contains(says)),
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
    let words = race_words(&lanes, &model, &objective);
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
    let words = race_words(&lanes, &model, &objective);
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
    let words = race_words(&lanes, &model, &objective).join(" ");
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
    use attention_explorer::core::training::lab::how_it_fell;
    assert_eq!(how_it_fell(&[]), None);
    assert_eq!(how_it_fell(&[1.0, 0.5]), None);
    assert_eq!(
        how_it_fell(&[2.0, 0.5, 0.4, 0.3, 0.25]),
        Some("It fell fast at first, then slowly.")
    );
    // From random weights the dog's curve starts flat, then drops.
    assert_eq!(
        how_it_fell(&[2.0, 1.98, 1.95, 1.0, 0.2]),
        Some("It fell slowly at first, then faster.")
    );
    assert_eq!(how_it_fell(&[1.0, 1.2, 1.5]), None);
}
