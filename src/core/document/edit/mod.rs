//! Every change a learner or a script can make to the document, as a value ([`Edit`]), and the
//! one function that applies it ([`Document::apply`]): it checks the limits, decides what undo
//! keeps and merges, and says whether the followed token is still there. The page, the
//! scripting API and its postMessage twin all go through it. Which preset the model is follows
//! from the model ([`crate::core::model::presets::matching`]), so any edit clears it and undo brings
//! it back.

mod change;
mod edits;
mod followed;
mod reducer;
mod session;

pub use change::Changed;
pub use edits::Edit;
pub use reducer::{apply, Document};
pub use session::Session;
