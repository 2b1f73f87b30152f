//! The document a learner edits: every change as a value and the one reducer that applies it
//! ([`edit`]), undo and redo ([`history`]), typed numbers ([`numbers`]) and the scripting API's
//! checks ([`script`]).

pub mod edit;
pub mod history;
pub mod numbers;
pub mod script;
