//! Why a saved state was refused: one type for every check, naming the field and the problem.

use std::fmt;
/// Why a state was refused: the field (a JSON path such as `heads[0].w_query[1]`) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// Where: a JSON path, or empty for the whole state.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for StateError {}

pub(super) fn error(field: impl Into<String>, message: impl Into<String>) -> StateError {
    StateError {
        field: field.into(),
        message: message.into(),
    }
}
