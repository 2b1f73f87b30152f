//! Exercises in a link (issue 17): `ask=`, `predict=`, `goal=` and `lock=` are read, written and
//! read back; every bad form is refused with a message naming it; answers are checked with the
//! tolerance, tries and reveal; locks refuse the edits that would change them; results carry
//! their xAPI statement.

use attention_explorer::core::document::edit::{Document, Edit, Session};
use attention_explorer::core::formats::link::{params, read_link, Page, Part, Shown};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::i18n::Msg;
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::Matrix;
use attention_explorer::core::model::{Editable, Projection, Scale};
use attention_explorer::core::teaching::exercise::{
    check, hint, is_right, predict, read_progress, result_json, write_progress, Bound, CellRef,
    Exercise, Exercises, Expected, Kind, Outcome, Progress, Verdict,
};

const SHE: usize = 6;
const DOG: usize = 1;
const BALL: usize = 4;

fn parse(json: String) -> serde_json::Value {
    serde_json::from_str(&json).unwrap()
}

fn scores_she_dog() -> CellRef {
    CellRef {
        matrix: Matrix::Scores,
        head: Some(0),
        row: SHE,
        col: DOG,
    }
}

/// The query a page with `exercises` writes.
fn query_of(exercises: &Exercises) -> String {
    params::write(
        &Page {
            model: "",
            preset: None,
            shown: &Shown::default(),
            embed: None,
            at: None,
            exercises: Some(exercises),
            lang: None,
        },
        Part::Query,
    )
}

/// The exercises a query reads, with the messages it gave.
fn read(query: &str) -> (Exercises, Vec<String>) {
    let link = read_link(query, "#preset=dog");
    (
        link.exercises,
        link.messages.iter().map(Msg::english).collect(),
    )
}

#[test]
fn the_three_kinds_and_locks_read_write_and_read_back() {
    let query = "ask=scores.0:6,1;context:6,2&predict=weights:6&goal=weights.0:6,4>=0.5&lock=embedding,w_value";
    let (exercises, messages) = read(query);
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(
        exercises.list,
        vec![
            Exercise::Ask(scores_she_dog()),
            Exercise::Ask(CellRef {
                matrix: Matrix::Context,
                head: Some(0),
                row: SHE,
                col: 2
            }),
            Exercise::Predict { head: 0, row: SHE },
            Exercise::Goal(
                CellRef {
                    matrix: Matrix::Weights,
                    head: Some(0),
                    row: SHE,
                    col: BALL
                },
                Bound::AtLeast(0.5)
            ),
        ]
    );
    assert_eq!(
        exercises.locks,
        vec![Matrix::Embedding, Matrix::Weight(Projection::Value)]
    );
    let written = query_of(&exercises);
    // The head is always written, for one name per exercise.
    assert_eq!(
        written,
        "ask=scores.0:6,1;context.0:6,2&predict=weights.0:6&goal=weights.0:6,4>=0.5&lock=embedding,w_value"
    );
    assert_eq!(read(&written).0, exercises);
    // A top-level matrix has no head; `<=` reads too.
    let (e, m) = read("ask=output:0,1&goal=scores.0:6,1<=2");
    assert!(m.is_empty(), "{m:?}");
    assert_eq!(e.list[0].id(), "output:0,1");
    assert_eq!(e.list[1].id(), "scores.0:6,1<=2");
}

#[test]
fn every_bad_form_is_refused_with_a_message_naming_it_and_the_rest_is_read() {
    let cases = [
        ("ask=nothing:0,0", "The link's ask=“nothing:0,0” was ignored: there is no matrix “nothing” (use one the page computes, as queries, scores, weights, context)."),
        ("ask=scores.0:9,1", "The link's ask=“scores.0:9,1” was ignored: the cell is outside the 9 × 9 matrix."),
        ("ask=scores.3:0,0", "The link's ask=“scores.3:0,0” was ignored: use a head from 0 to 0."),
        ("ask=scores:6", "The link's ask=“scores:6” was ignored: it is not MATRIX[.HEAD]:ROW,COL (as scores.0:6,1)."),
        ("ask=w_query:0,0", "The link's ask=“w_query:0,0” was ignored: w_query is a number the learner sets, not one to compute (use one the page computes, as queries, scores, weights, context)."),
        ("ask=positioned:0,0", "The link's ask=“positioned:0,0” was ignored: this model does not compute positioned."),
        ("predict=scores.0:6", "The link's predict=“scores.0:6” was ignored: it is not weights[.HEAD]:ROW (as weights.0:6)."),
        ("predict=weights.0:12", "The link's predict=“weights.0:12” was ignored: use a row from 0 to 8."),
        ("goal=weights.0:6,4>=lots", "The link's goal=“weights.0:6,4>=lots” was ignored: the bound is not a number."),
        ("goal=weights.0:6,4", "The link's goal=“weights.0:6,4” was ignored: it is not MATRIX[.HEAD]:ROW,COL>=X or <=X (as weights.0:6,4>=0.5)."),
        ("goal=weights.0:6,4>=1.5", "The link's goal=“weights.0:6,4>=1.5” was ignored: a weight is between 0 and 1, so this bound cannot be met."),
        ("goal=weights.0:6,1>=0.5", "The link's goal=“weights.0:6,1>=0.5” was ignored: the model meets it already, so there is nothing to reach."),
        ("lock=w_quey", "The link's lock=“w_quey” was ignored: it is not a matrix the learner edits (use embedding, w_query, w_key, w_value, b_query, b_key, b_value, w_output, b_output, positions, source_embedding)."),
        ("ask=", "The link's ask=“” was ignored: it names nothing (as ask=scores.0:6,1)."),
        ("lock=", "The link's lock=“” was ignored: it names nothing (as lock=embedding,w_value)."),
        ("ask=scores.0:6,1;scores.0:9,1", "The link's ask=“scores.0:6,1;scores.0:9,1” was ignored: scores.0:9,1: the cell is outside the 9 × 9 matrix."),
        ("lock=embedding,w_quey", "The link's lock=“embedding,w_quey” was ignored: “w_quey” is not a matrix the learner edits (use embedding, w_query, w_key, w_value, b_query, b_key, b_value, w_output, b_output, positions, source_embedding)."),
        ("lock=embedding,w_query,w_key,w_value", "The link's lock=“embedding,w_query,w_key,w_value” was ignored: it locks every matrix of the model: leave one free (as lock=embedding,w_value)."),
    ];
    for (query, message) in cases {
        let (exercises, messages) = read(&format!("{query}&ask=weights.0:6,1"));
        assert_eq!(messages, vec![message.to_owned()], "{query}");
        assert_eq!(
            exercises.list.len(),
            1,
            "the good parameter is still read: {query}"
        );
    }
    // Under the causal mask: a masked score, and the first row's prediction.
    let masked = read_link(
        "ask=masked_scores.0:2,5&predict=weights.0:0&goal=weights.0:2,5>=0.1",
        "#preset=dog",
    );
    assert!(
        masked.messages[0].english().ends_with(
            "the cell is masked (its key comes after its query): use one on or below the diagonal."
        ),
        "{:?}",
        masked.messages
    );
    assert!(masked.messages[1]
        .english()
        .ends_with("under the causal mask the first word sees only itself; predict a later row."));
    assert!(masked.messages[2].english().ends_with(
        "the cell is masked (its key comes after its query): use one on or below the diagonal."
    ));
}

#[test]
fn an_answer_is_right_within_half_a_unit_of_the_decimals_shown_or_a_thousandth() {
    // Four decimals shown count as two: a learner rounds what they computed.
    assert!(is_right(13.83, 13.8325, 4));
    assert!(is_right(0.12, 0.1234, 4));
    assert!(!is_right(0.13, 0.1234, 4));
    // One decimal shown: half a unit of it.
    assert!(is_right(0.1, 0.1234, 1));
    assert!(!is_right(0.2, 0.1234, 1));
    // 0.1 % of a large value.
    assert!(is_right(1001.0, 1000.0, 4));
    assert!(!is_right(1002.0, 1000.0, 4));
    assert!(is_right(f64::NEG_INFINITY, f64::NEG_INFINITY, 4));
}

#[test]
fn three_wrong_answers_reveal_with_hints_on_the_way_and_a_right_one_scores_by_tries() {
    let trace = Trace::of(&dog());
    let cell = scores_she_dog();
    let mut progress = Progress::default();
    // A typo costs no try and says what a cell would.
    assert_eq!(
        check(&cell, &trace, 4, "1,5", &mut progress).map_err(|e| e.english()),
        Err("“1,5” is not a number here: write decimals with a point, as in 1.5".into())
    );
    assert_eq!(progress.attempts, 0);
    let Ok(Verdict::NotYet(hint)) = check(&cell, &trace, 4, "13", &mut progress) else {
        panic!("not yet")
    };
    let hint = hint.english();
    // The dot product's factors from the Q and K tables, without their sum.
    assert_eq!(hint, "A score is the dot product of the query row of “she” and the key row of “dog”: multiply them component by component and add: 2.6400 × 2.8770 + 1.4600 × 3.0570 + 0.9400 × 1.8870.");
    assert!(!hint.contains("13.83"));
    assert_eq!(progress.outcome, Outcome::Incorrect);
    assert_eq!(
        check(&cell, &trace, 4, "13.83", &mut progress),
        Ok(Verdict::Right)
    );
    assert_eq!(
        (progress.attempts, Exercise::Ask(cell).score(&progress)),
        (2, 0.75)
    );
    assert!(
        check(&cell, &trace, 4, "13.83", &mut progress).is_err(),
        "done"
    );

    let mut progress = Progress::default();
    for _ in 0..2 {
        assert!(matches!(
            check(&cell, &trace, 4, "1", &mut progress),
            Ok(Verdict::NotYet(_))
        ));
    }
    assert_eq!(
        check(&cell, &trace, 4, "1", &mut progress),
        Ok(Verdict::Revealed)
    );
    assert_eq!(
        (progress.outcome, Exercise::Ask(cell).score(&progress)),
        (Outcome::Revealed, 0.0)
    );
}

#[test]
fn hints_name_the_formula_and_the_visible_numbers_only() {
    let trace = Trace::of(&dog());
    let value = |c: &CellRef| c.value(&trace).unwrap();
    for matrix in [
        Matrix::ScaledScores,
        Matrix::Weights,
        Matrix::Queries,
        Matrix::Context,
        Matrix::Output,
    ] {
        let cell = CellRef {
            matrix,
            head: (matrix != Matrix::Output).then_some(0),
            row: SHE,
            col: DOG,
        };
        let hint = hint(&cell, &trace, 4).english();
        assert!(!hint.is_empty(), "{matrix:?}");
        assert!(
            !hint.contains(&format!("{:.4}", value(&cell))),
            "{matrix:?}: {hint}"
        );
    }
}

#[test]
fn the_scaled_score_hint_names_the_scaling_chosen() {
    let cell = CellRef {
        matrix: Matrix::ScaledScores,
        head: Some(0),
        row: SHE,
        col: DOG,
    };
    let hint_under = |scale| {
        let mut model = dog();
        model.scale = scale;
        hint(&cell, &Trace::of(&model), 4).english()
    };
    let sqrt = hint_under(Scale::SqrtDk);
    assert!(sqrt.contains("by √dₖ") && sqrt.contains("dₖ = 3"), "{sqrt}");
    let dk = hint_under(Scale::Dk);
    assert!(dk.contains("by dₖ (") && !dk.contains('√'), "{dk}");
    let none = hint_under(Scale::None);
    assert!(none.contains("no scaling") && !none.contains('√'), "{none}");
    // With no scaling the scaled score is the score: the hint does not print it.
    let score = Trace::of(&dog()).heads[0].scores[(SHE, DOG)];
    assert!(!none.contains(&format!("{score:.4}")), "{none}");
}

#[test]
fn a_prediction_is_right_when_it_names_the_largest_weight() {
    let trace = Trace::of(&dog());
    let mut progress = Progress::default();
    assert_eq!(predict(0, SHE, &trace, BALL, &mut progress), Ok(false));
    assert_eq!(
        (progress.outcome, progress.response.as_deref()),
        (Outcome::Incorrect, Some("ball"))
    );
    assert!(
        predict(0, SHE, &trace, DOG, &mut progress).is_err(),
        "one prediction"
    );
    // A row the model no longer has (the sentence got shorter) is a message, not a panic.
    assert!(predict(0, 40, &trace, DOG, &mut Progress::default()).is_err());
    let mut progress = Progress::default();
    assert_eq!(predict(0, SHE, &trace, DOG, &mut progress), Ok(true));
    assert!(Exercise::Predict { head: 0, row: SHE }.shown(&progress));
}

#[test]
fn a_lock_refuses_the_edits_that_would_change_it() {
    let (exercises, _) = read("goal=weights.0:6,4>=0.5&lock=embedding,w_value");
    let model = dog();
    let w_value = Editable::Weight(0, Projection::Value);
    let set = |target| Edit::Set {
        target,
        row: 0,
        col: 0,
        value: 2.0,
    };
    assert_eq!(
        Session::new(exercises.locks.clone())
            .refusal(&set(w_value), &model)
            .map(|m| m.english()),
        Some("w_value is locked in this exercise: reach it by editing w_query, w_key.".into())
    );
    assert_eq!(
        Session::new(exercises.locks.clone())
            .refusal(&set(Editable::Weight(0, Projection::Query)), &model),
        None
    );
    assert!(Session::new(exercises.locks.clone())
        .refusal(&Edit::Reinitialise, &model)
        .is_some());
    assert_eq!(
        Session::new(exercises.locks.clone()).refusal(&Edit::Sentence("The dog".into()), &model),
        None
    );
    // A training step that moved W_value is refused; one that moved only W_query is not.
    let moved = |target| {
        let mut doc = Document::new(model.clone());
        doc.apply(set(target), None).unwrap();
        Edit::Train(Box::new(doc.model))
    };
    assert!(Session::new(exercises.locks.clone())
        .refusal(&moved(w_value), &model)
        .is_some());
    // Another model, or another part drawn, is refused the same way.
    assert!(Session::new(exercises.locks.clone())
        .refusal(
            &Edit::Open(Box::new(attention_explorer::core::model::presets::raschka())),
            &model
        )
        .is_some());
    assert_eq!(
        Session::new(exercises.locks.clone()).refusal(&Edit::Open(Box::new(dog())), &model),
        None
    );
    let (biased, _) = read("goal=weights.0:6,4>=0.5&lock=b_key");
    assert_eq!(
        Session::new(biased.locks.clone())
            .refusal(&Edit::Biases(true), &model)
            .map(|m| m.english()),
        Some("b_key is locked in this exercise: reach it by editing embedding, w_query, w_key, w_value.".into())
    );
    assert_eq!(
        Session::new(exercises.locks.clone())
            .refusal(&moved(Editable::Weight(0, Projection::Query)), &model),
        None
    );
}

#[test]
fn a_result_says_what_was_done_and_as_an_xapi_statement() {
    let exercise = Exercise::Ask(scores_she_dog());
    let open = parse(result_json(
        &exercise,
        &Progress::default(),
        Some(Expected::Number(13.8325)),
        "https://example.org/app/",
    ));
    assert_eq!(open["result"], "open");
    assert!(open.get("expected").is_none(), "not before it is shown");
    let progress = Progress {
        outcome: Outcome::Correct,
        attempts: 1,
        response: Some("13.83".into()),
    };
    let done = parse(result_json(
        &exercise,
        &progress,
        Some(Expected::Number(13.8325)),
        "https://example.org/app/",
    ));
    assert_eq!(done["exercise"], "scores.0:6,1");
    assert_eq!(done["kind"], "ask");
    assert_eq!(done["correct"], true);
    assert_eq!(done["score"], 1.0);
    assert_eq!(done["expected"], 13.8325);
    let s = &done["statement"];
    assert_eq!(s["verb"]["id"], "http://adlnet.gov/expapi/verbs/answered");
    assert_eq!(
        s["object"]["id"],
        "https://example.org/app/#exercise=scores.0:6,1"
    );
    assert_eq!(s["result"]["success"], true);
    assert_eq!(s["result"]["score"]["scaled"], 1.0);
    assert_eq!(s["result"]["response"], "13.83");
    let goal = Exercise::Goal(scores_she_dog(), Bound::AtMost(2.0));
    assert_eq!(
        parse(result_json(&goal, &progress, None, "x"))["statement"]["verb"]["display"]["en-US"],
        "completed"
    );
    assert_eq!(Kind::Goal.key(), "goal");
    // A word, and a number JSON has no way to write (a masked score's −∞).
    let predicted = Progress {
        outcome: Outcome::Incorrect,
        attempts: 1,
        response: Some("b\"all".into()),
    };
    let said = parse(result_json(
        &Exercise::Predict { head: 0, row: SHE },
        &predicted,
        Some(Expected::Word("dog".into())),
        "x",
    ));
    assert_eq!(
        (said["expected"].as_str(), said["response"].as_str()),
        (Some("dog"), Some("b\"all"))
    );
    let masked = parse(result_json(
        &exercise,
        &progress,
        Some(Expected::Number(f64::NEG_INFINITY)),
        "x",
    ));
    assert!(masked["expected"].is_null());
    // Edits towards a goal, unlike wrong answers, cost nothing.
    let reached = Progress {
        outcome: Outcome::Correct,
        attempts: 5,
        response: None,
    };
    assert_eq!(goal.score(&reached), 1.0);
    // An IRI has no `<`: the bound is percent-encoded in the statement's object.
    assert_eq!(
        parse(result_json(&goal, &reached, None, "https://x/"))["statement"]["object"]["id"],
        "https://x/#exercise=scores.0:6,1%3C=2"
    );
    assert_eq!(exercise.score(&reached), 0.0);
}

#[test]
fn the_maker_adds_exercises_as_a_link_reads_them() {
    let model = dog();
    let mut made = Exercises::default();
    made.add(Kind::Ask, "scores.0:6,1", &model).unwrap();
    made.add(Kind::Ask, "scores.0:6,1", &model).unwrap();
    made.add(Kind::Goal, "weights.0:6,4>=0.5", &model).unwrap();
    assert_eq!(made.list.len(), 2, "one of each, once");
    assert_eq!(
        made.add(Kind::Goal, "weights.0:6,4>=2", &model)
            .map_err(|e| e.english()),
        Err("a weight is between 0 and 1, so this bound cannot be met".into())
    );
    made.read_locks("w_value", &model).unwrap();
    let query = query_of(&made);
    assert_eq!(
        query,
        "ask=scores.0:6,1&goal=weights.0:6,4>=0.5&lock=w_value"
    );
    assert_eq!(read(&query).0, made);
}

#[test]
fn progress_is_saved_as_lines_and_read_back() {
    let progress = vec![
        (
            "scores.0:6,1".to_owned(),
            Progress {
                outcome: Outcome::Incorrect,
                attempts: 2,
                response: Some("1\t2\n3".into()),
            },
        ),
        ("weights.0:6".to_owned(), Progress::default()),
    ];
    let text = write_progress(&progress);
    let back = read_progress(&text);
    assert_eq!(
        back[0].1.response.as_deref(),
        Some("1 2 3"),
        "tabs and newlines become spaces"
    );
    assert_eq!(
        (back[0].1.outcome, back[0].1.attempts),
        (Outcome::Incorrect, 2)
    );
    assert_eq!(back[1], progress[1]);
    // What cannot be read starts over.
    assert_eq!(
        read_progress("scores.0:6,1\tmaybe\t1\t\n{not this}"),
        vec![]
    );
}

#[test]
fn a_link_with_exercises_opens_its_own_model_not_the_saved_work() {
    use attention_explorer::core::formats::link::{encode_model, opening};
    let saved = format!(
        "m={}",
        encode_model(&attention_explorer::core::model::presets::raschka(), None)
    );
    let opened = opening(read_link("ask=scores.0:6,1", ""), Some(&saved));
    assert!(!opened.restored);
    assert_eq!(opened.start.model, dog());
    assert_eq!(opened.start.exercises.list.len(), 1);
}

#[test]
fn a_question_on_a_word_the_sentence_lost_says_so() {
    let (exercises, _) = read("ask=scores.0:6,1");
    let mut doc = attention_explorer::core::document::edit::Document::new(dog());
    doc.apply(Edit::Sentence("The dog fetched".into()), None)
        .unwrap();
    let question = exercises.list[0].question(&Trace::of(&doc.model)).english();
    assert_eq!(
        question,
        "Compute scores Q·Kᵀ, head 0, word 6 → dog by hand, and type it in its cell."
    );
}

#[test]
fn what_an_open_exercise_hides_is_core_s_rule() {
    use attention_explorer::core::teaching::exercise::Cover;
    let model = dog();
    let mut exercises = Exercises::default();
    exercises
        .read(Kind::Ask, "scaled_scores.0:6,1;context.0:6,0", &model)
        .unwrap();
    exercises
        .read(Kind::Predict, "weights.0:5", &model)
        .unwrap();
    let mut progress = vec![Progress::default(); exercises.list.len()];
    let cover = |p: &[Progress], m, head| exercises.cover(p, m, head);
    // The asked cell is an answer field; its twin hides the same cell.
    assert_eq!(
        cover(&progress, Matrix::ScaledScores, Some(0)).answers,
        [(6, 1, 0)]
    );
    assert_eq!(
        cover(&progress, Matrix::MaskedScores, Some(0)).cells,
        [(6, 1)]
    );
    // An asked context row is a block of the concatenation's and the output's row.
    assert_eq!(cover(&progress, Matrix::Output, None).rows, [6]);
    // A predicted row, in every matrix that gives it away.
    for m in [
        Matrix::Weights,
        Matrix::MaskedWeightsSimple,
        Matrix::MaskedWeightsRenormalized,
    ] {
        assert_eq!(cover(&progress, m, Some(0)).rows, [5], "{m:?}");
    }
    // A score is the scaled score times √dₖ (shown beside): one step from the answer.
    assert_eq!(cover(&progress, Matrix::Scores, Some(0)).cells, [(6, 1)]);
    assert_eq!(cover(&progress, Matrix::Queries, Some(0)), Cover::default());
    assert!(exercises.hides_row(&progress, 0, 5) && !exercises.hides_row(&progress, 0, 4));
    assert!(exercises.predicting(&progress));
    // Answered or predicted: shown.
    progress[2].attempts = 1;
    progress[0].outcome = Outcome::Correct;
    assert!(!exercises.predicting(&progress));
    assert!(cover(&progress, Matrix::Weights, Some(0)).is_empty());
    assert!(cover(&progress, Matrix::MaskedScores, Some(0)).is_empty());
}

#[test]
fn an_asked_weight_hides_its_row_wherever_it_shows_and_a_lab_table_has_no_answer_field() {
    let model = dog();
    let mut exercises = Exercises::default();
    exercises.read(Kind::Ask, "weights.0:6,1", &model).unwrap();
    let progress = vec![Progress::default()];
    // The other weights of the row sum to 1 minus the answer.
    let asked = exercises.cover(&progress, Matrix::Weights, Some(0));
    assert_eq!(
        (asked.answers.clone(), asked.rows.clone()),
        (vec![(6, 1, 0)], vec![6])
    );
    let renormalized = exercises.cover(&progress, Matrix::MaskedWeightsRenormalized, Some(0));
    assert_eq!(renormalized.rows, [6]);
    let lab = asked.without_answers();
    assert!(lab.answers.is_empty() && lab.covers(6, 1) && lab.covers(6, 0) && !lab.covers(5, 1));
    // Another head's weights are other numbers.
    assert!(exercises
        .cover(&progress, Matrix::Weights, Some(1))
        .is_empty());
}

#[test]
fn an_embed_of_exercises_needs_their_steps_those_before_and_where_a_goal_is_reached() {
    use attention_explorer::core::views::pipeline::{Shape, Step};
    let model = dog();
    let mut exercises = Exercises::default();
    exercises.read(Kind::Ask, "scores.0:6,1", &model).unwrap();
    exercises
        .read(Kind::Goal, "weights.0:6,4>=0.5", &model)
        .unwrap();
    exercises.read_locks("embedding,w_value", &model).unwrap();
    let shape = Shape::of(&model);
    let goal = exercises.list[1];
    // W_query and W_key are free: the projections step; the embedding is locked.
    assert_eq!(exercises.reached_through(&goal, shape), [Step::Projections]);
    assert_eq!(
        exercises.steps(shape),
        [
            Step::Projections,
            Step::Qkv,
            Step::Scores,
            Step::Mask,
            Step::Softmax
        ]
    );
    assert!(exercises
        .reached_through(&exercises.list[0], shape)
        .is_empty());
}

#[test]
fn an_asked_score_is_given_away_by_its_rows_weights_and_a_query_by_the_scores() {
    use attention_explorer::core::views::pipeline::{Shape, Step};
    let model = dog();
    let mut exercises = Exercises::default();
    exercises
        .read(Kind::Ask, "scores.0:6,1;queries.0:6,1", &model)
        .unwrap();
    // The embed an exercise of scores needs shows Q, K and the scores, not the weights.
    let scores_only = Exercises {
        list: exercises.list[..1].to_vec(),
        ..Exercises::default()
    };
    assert!(scores_only
        .leaked_by(&scores_only.steps(Shape::of(&model)))
        .is_empty());
    let leaked: Vec<(String, Step)> = exercises
        .leaked_by(&[Step::Scores, Step::Softmax])
        .into_iter()
        .map(|(e, step, _)| (e.id(), step))
        .collect();
    assert_eq!(
        leaked,
        [
            ("scores.0:6,1".to_owned(), Step::Softmax),
            ("queries.0:6,1".to_owned(), Step::Scores)
        ]
    );
}

/// Goals followed natively: a goal is reached once a trace meets it, with the edits it took said.
#[test]
fn a_goal_the_trace_meets_is_reached_with_its_edits_counted() {
    use attention_explorer::core::teaching::exercise::{Outcome, Progress};
    use attention_explorer::core::training::lab::Setup;
    use attention_explorer::core::training::{train, Optimizer, Target};
    let model = dog();
    let mut exercises = Exercises::default();
    // She → ball at least a half: not met by the dog's weights (0.087).
    exercises
        .read(Kind::Goal, "weights.0:6,4>=0.5", &model)
        .unwrap();
    assert_eq!(exercises.goals_met(&Trace::of(&model)).count(), 0);
    let target = Target {
        head: 0,
        query: 6,
        key: 4,
    };
    let objective = Setup::default().objective(&model, &[target]).unwrap();
    let trained = train(&model, &objective, Optimizer::Adam { lr: 0.1 }, 200).model;
    let met: Vec<(usize, f64)> = exercises.goals_met(&Trace::of(&trained)).collect();
    assert_eq!(met.len(), 1);
    assert!(met[0].1 >= 0.5, "{}", met[0].1);
    let (progress, words) = Progress::reached(met[0].1, 3);
    assert_eq!((progress.outcome, progress.attempts), (Outcome::Correct, 3));
    assert_eq!(words.english(), "Reached in 3 edits.");
    assert_eq!(Progress::reached(0.9, 1).1.english(), "Reached in 1 edit.");
}
