//! The core's refusals of an edit, a size, a link or a saved state: what the model, the document and the link's reader say when they cannot take what they were given.

keys! { "edits";
}
