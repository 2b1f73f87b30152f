//! Why a saved state was refused: one type for every check, naming the field and the problem.

use std::fmt;

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;
/// Why a state was refused: the field (a JSON path such as `heads[0].w_query[1]`) and the problem.
#[derive(Clone, Debug, PartialEq)]
pub struct StateError {
    /// Where: a JSON path, or empty for the whole state.
    pub field: String,
    /// What is wrong.
    pub message: Msg,
}

impl StateError {
    /// The field and the problem, to word in the learner's language.
    pub fn msg(&self) -> Msg {
        formats::at(&self.field, self.message.clone())
    }
}

/// In English, for the command line and the tests.
impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg().english())
    }
}

impl std::error::Error for StateError {}

pub(super) fn error(field: impl Into<String>, message: impl Into<Msg>) -> StateError {
    StateError {
        field: field.into(),
        message: message.into(),
    }
}
