//! What a result message and `results()` say of an exercise, with its xAPI statement.

use super::kinds::{Bound, Exercise, Kind};
use super::progress::{Outcome, Progress};

/// What a result message and `results()` say of an exercise: `finished` once its result is
/// final (answered right or revealed, predicted, the goal met), `expected` only once it is
/// shown (right, revealed or predicted), and the same as an xAPI statement whose object is
/// `activity` (the page's address) with the exercise's id. Written with one `format!` (strings
/// escaped by serde_json): less code in the page than serde's derive or JSON values.
pub fn result_json(
    exercise: &Exercise,
    progress: &Progress,
    expected: Option<Expected>,
    activity: &str,
) -> String {
    let text = |t: &str| serde_json::to_string(t).unwrap_or_default();
    let kind = exercise.kind();
    let correct = progress.outcome == Outcome::Correct;
    let verb = if kind == Kind::Goal {
        "completed"
    } else {
        "answered"
    };
    let id = exercise.id();
    let response = progress.response.as_deref().map_or("null".into(), text);
    let expected = match expected.filter(|_| exercise.shown(progress)) {
        Some(Expected::Number(x)) if x.is_finite() => format!(r#","expected":{x}"#),
        Some(Expected::Number(_)) => r#","expected":null"#.into(),
        Some(Expected::Word(w)) => format!(r#","expected":{}"#, text(&w)),
        None => String::new(),
    };
    let interaction = match kind {
        Kind::Ask => "numeric",
        Kind::Predict => "choice",
        Kind::Goal => "performance",
    };
    // An IRI has no `<` or `>`: a goal's bound is written %3E= or %3C=.
    let iri_id = match exercise {
        Exercise::Goal(cell, Bound::AtLeast(x)) => format!("{}%3E={x}", cell.text()),
        Exercise::Goal(cell, Bound::AtMost(x)) => format!("{}%3C={x}", cell.text()),
        _ => id.clone(),
    };
    let object = text(&format!("{activity}#exercise={iri_id}"));
    let score = exercise.score(progress);
    format!(
        r#"{{"exercise":{id},"kind":"{kind}","result":"{result}","correct":{correct},"finished":{finished},"score":{score},"attempts":{attempts},"response":{response}{expected},"statement":{{"verb":{{"id":"http://adlnet.gov/expapi/verbs/{verb}","display":{{"en-US":"{verb}"}}}},"object":{{"objectType":"Activity","id":{object},"definition":{{"name":{{"en-US":"Attention Explorer: {kind} {plain}"}},"type":"http://adlnet.gov/expapi/activities/cmi.interaction","interactionType":"{interaction}"}}}},"result":{{"success":{correct},"completion":{finished},"score":{{"scaled":{score}}},"response":{statement_response}}}}}}}"#,
        id = text(&id),
        plain = id,
        kind = kind.key(),
        result = progress.outcome.key(),
        attempts = progress.attempts,
        finished = exercise.finished(progress),
        statement_response = text(progress.response.as_deref().unwrap_or("")),
    )
}

/// An exercise's answer: a number, or the word a row attends to most.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// A cell's value.
    Number(f64),
    /// A word.
    Word(String),
}
