//! `core::pipeline`: the one catalogue the URL, the report, the walk and the page read.

use attention_explorer::core::formats::report::trace_json;
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::positions::PositionKind;
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::Matrix;
use attention_explorer::core::views::pipeline::{
    head_matrices, lesson_length, stops, Axes, Lab, Shape, Step, Stop,
};

#[test]
fn steps_have_one_key_number_and_id_each_in_pipeline_order() {
    let keys: Vec<&str> = Step::ALL.iter().map(|s| s.key()).collect();
    assert_eq!(
        keys,
        [
            "sentence",
            "embedding",
            "positions",
            "projections",
            "qkv",
            "scores",
            "scale",
            "mask",
            "weights",
            "context",
            "output",
            "out_proj"
        ]
    );
    let all = Shape {
        heads: 2,
        projected: true,
        positions: true,
        source: false,
    };
    for (i, step) in Step::ALL.into_iter().enumerate() {
        assert_eq!(step.number(all), i + 1);
        assert_eq!(Step::from_key(step.key()), Some(step));
        assert_eq!(step.id(), format!("step-{}", step.key()));
    }
    assert_eq!(
        Step::from_key("softmax"),
        None,
        "the softmax step is named by its matrix"
    );
    let shape = |heads, projected| Shape {
        heads,
        projected,
        positions: false,
        source: false,
    };
    // A step only some models have numbers the later ones only while it is there.
    assert_eq!(Step::Projections.number(shape(1, false)), 3);
    assert_eq!(Step::Projections.number(all), 4);
    assert!(!Step::Positions.on_page(shape(4, true)));
    assert!(!Step::Output.on_page(shape(1, false)) && Step::Output.on_page(shape(2, false)));
    // With an output projection the concatenation is shown even for one head, then the projection.
    assert!(Step::Output.on_page(shape(1, true)) && Step::OutProj.on_page(shape(1, true)));
    assert!(!Step::OutProj.on_page(shape(4, false)));
}

#[test]
fn the_walk_teaches_the_lesson_first_then_goes_further() {
    let shape = |heads, projected| Shape {
        heads,
        projected,
        positions: false,
        source: false,
    };
    let one = stops(shape(1, false));
    assert_eq!(one.len(), 16, "nine steps and seven labs");
    // The weights within five stops, the context (the payoff) next.
    assert_eq!(one[4], Stop::Step(Step::Softmax));
    assert_eq!(one[5], Stop::Step(Step::Context));
    // Then why: the scaling, the mask, each with its lab; training ends the lesson.
    assert_eq!(one[6], Stop::Step(Step::Scale));
    assert_eq!(one[7], Stop::Lab(Lab::SqrtDk));
    assert_eq!(one[9], Stop::Lab(Lab::Mask));
    assert_eq!(one[10], Stop::Lab(Lab::Heads));
    assert_eq!(one[11], Stop::Lab(Lab::Train));
    assert_eq!(lesson_length(shape(1, false)), 12);
    // Further: the weights' own step, word order, the KV cache, the tiles.
    assert_eq!(one[12], Stop::Step(Step::Projections));
    assert_eq!(one[13], Stop::Lab(Lab::Order));
    assert_eq!(one[15], Stop::Lab(Lab::Flash));
    assert!(!one.contains(&Stop::Step(Step::Output)));
    // Several heads are in the lesson, before training.
    let four = stops(shape(4, false));
    assert_eq!(four[11], Stop::Step(Step::Output));
    assert_eq!(lesson_length(shape(4, false)), 13);
    assert_eq!(
        stops(shape(1, true)).last(),
        Some(&Stop::Step(Step::OutProj))
    );
    // Every step on the page and every lab is a stop, once.
    for s in [shape(1, false), shape(4, true)] {
        let all = stops(s);
        let steps = Step::ALL.iter().filter(|st| st.on_page(s)).count();
        assert_eq!(all.len(), steps + 7);
    }
    assert_eq!(Stop::Lab(Lab::KvCache).id(), "lab-kv-cache");
    assert_eq!(Stop::Lab(Lab::Train).id(), "lab-train");
    assert_eq!(Stop::Lab(Lab::Mask).id(), "lab-mask");
}

#[test]
fn every_matrix_is_named_once_and_each_head_s_are_the_trace_json_s() {
    let mut keys: Vec<&str> = Matrix::ALL.iter().map(|m| m.key()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), Matrix::ALL.len());
    for m in Matrix::ALL {
        assert_eq!(
            Matrix::named(m.key()),
            Some(m),
            "{m:?}: read back by its name"
        );
        if let Some(e) = m.editable(2) {
            assert_eq!(
                (Matrix::of(e), e.key(), e.head().is_some()),
                (m, m.key(), m.per_head())
            );
        }
    }
    assert_eq!(Matrix::Weights.axes(), Axes::QueryByKey);
    assert!(Matrix::Weights.greys_future());
    assert!(!Matrix::Scores.greys_future(), "before the mask");

    // The causal dog with RoPE (so d_k = 4): every head matrix there is.
    let model = dog()
        .resized(
            attention_explorer::core::model::Dims {
                d_in: 2,
                d_k: 4,
                d_v: 3,
                heads: 1,
            },
            1,
        )
        .unwrap()
        .with_positions_of(PositionKind::RopeHalf, 10_000.0, 1)
        .unwrap();
    let trace = Trace::of(&model);
    let json = trace_json(&trace);
    let head = json["heads"][0].as_object().unwrap();
    let named: Vec<&str> = head_matrices().map(|(m, _)| m.key()).collect();
    let mut in_json: Vec<&str> = head.keys().map(String::as_str).collect();
    in_json.sort_unstable();
    let mut sorted = named.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted, in_json,
        "the causal dog with RoPE has both masking methods and the rotations"
    );
    for (info, pick) in head_matrices() {
        let m = pick(&trace.heads[0]).unwrap();
        assert_eq!(
            head[info.key()][0][0].as_f64(),
            m.get((0, 0)).copied().filter(|x| x.is_finite()),
            "{}",
            info.key()
        );
    }
    let mut free = dog();
    free.causal = false;
    let t = Trace::of(&free);
    let simple = Matrix::MaskedWeightsSimple.pick().unwrap();
    assert!(
        simple(&t.heads[0]).is_none(),
        "no method 2 without a mask, not the weights instead"
    );
}
