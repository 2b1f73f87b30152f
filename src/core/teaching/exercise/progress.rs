//! Where each exercise stands (its outcome, tries, last response) and how a browser keeps it:
//! one line of text per exercise.

use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::Msg;

/// Where an exercise stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// Not answered yet (or a goal not met yet).
    #[default]
    Open,
    /// Answered right, predicted right, or the goal met.
    Correct,
    /// Answered wrong (tries remain) or predicted wrong.
    Incorrect,
    /// Shown after three wrong answers or "Show me".
    Revealed,
}

impl Outcome {
    /// `open`, `correct`, `incorrect`, `revealed`: `data-result`.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Open => "open",
            Outcome::Correct => "correct",
            Outcome::Incorrect => "incorrect",
            Outcome::Revealed => "revealed",
        }
    }

    /// The outcome called `key`.
    pub fn from_key(key: &str) -> Option<Outcome> {
        [
            Outcome::Open,
            Outcome::Correct,
            Outcome::Incorrect,
            Outcome::Revealed,
        ]
        .into_iter()
        .find(|o| o.key() == key)
    }
}

/// One exercise's progress: what the page shows and reports, and what the saved work keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Where it stands.
    pub outcome: Outcome,
    /// Answers checked (ask), 1 once predicted, edits made until the goal was met.
    pub attempts: u32,
    /// The last answer, the predicted word's index, or the goal's value when met.
    pub response: Option<String>,
}

impl Progress {
    /// A goal reached at `value` after `edits` edits (the reducer's count), and the card's words.
    pub fn reached(value: f64, edits: u32) -> (Progress, Msg) {
        let progress = Progress {
            outcome: Outcome::Correct,
            attempts: edits,
            response: Some(value.to_string()),
        };
        (progress, say::reached(edits))
    }

    /// Whether an answer is over (right or revealed): no more tries.
    pub fn done(&self) -> bool {
        matches!(self.outcome, Outcome::Correct | Outcome::Revealed)
    }
}

/// The progress the saved work keeps: a line per exercise, `id TAB result TAB attempts TAB
/// response` (plain text: a JSON reader would cost the page more code than this).
pub fn write_progress(progress: &[(String, Progress)]) -> String {
    progress
        .iter()
        .map(|(id, p)| {
            let response = p
                .response
                .as_deref()
                .unwrap_or("")
                .replace(['\t', '\n'], " ");
            format!("{id}\t{}\t{}\t{response}\n", p.outcome.key(), p.attempts)
        })
        .collect()
}

/// Reads what [`write_progress`] wrote; a line it cannot read is left out (that exercise
/// starts over).
pub fn read_progress(text: &str) -> Vec<(String, Progress)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\t');
            let id = parts.next()?.to_owned();
            let outcome = Outcome::from_key(parts.next()?)?;
            let attempts = parts.next()?.parse().ok()?;
            let response = parts.next().filter(|r| !r.is_empty()).map(str::to_owned);
            Some((
                id,
                Progress {
                    outcome,
                    attempts,
                    response,
                },
            ))
        })
        .collect()
}
