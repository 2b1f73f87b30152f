//! An exercise page's part of the document: the locks that refuse an edit, and the count of
//! edits a goal reads.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use crate::core::model::{Editable, Matrix, Model, Projection};

use super::edits::Edit;
/// What an exercise page adds to the document, kept by the reducer: the matrices the learner may
/// not edit, and the edits made so far (a goal counts them: the keystrokes of one number, a
/// sentence or a training run are one edit; any other change is one of its own; what changes
/// nothing is none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Session {
    /// The locked matrices (`Weight(Value)`: every head's).
    pub locks: Vec<Matrix>,
    /// The edits made.
    pub edits: u32,
    /// The model changed since the last sealed step.
    editing: bool,
}

impl Session {
    /// A session with `locks`, no edit made.
    pub fn new(locks: Vec<Matrix>) -> Session {
        Session {
            locks,
            ..Session::default()
        }
    }

    /// Whether `matrix` is locked.
    pub fn locked(&self, matrix: Matrix) -> bool {
        self.locks.contains(&matrix)
    }

    /// Why `edit` of `model` is refused, if it would change a locked matrix. Retyping the
    /// sentence is allowed: the rows there are stay, and a new word's row is a new number, not
    /// an edit of a locked one.
    pub fn refusal(&self, edit: &Edit, model: &Model) -> Option<Msg> {
        if self.locks.is_empty() {
            return None;
        }
        // What these turn on, off or draw again.
        let touched: &[Matrix] = match edit {
            Edit::Biases(_) => &Projection::ALL.map(Matrix::Bias),
            Edit::OutputProjection(_) => &[Matrix::OutputWeight, Matrix::OutputBias],
            Edit::Positions { .. } => &[Matrix::Positions],
            _ => &[],
        };
        if let Some(&matrix) = touched.iter().find(|&&m| self.locked(m)) {
            return Some(self.locked_message(matrix, model));
        }
        let target = match edit {
            Edit::Cell { target, .. } | Edit::Set { target, .. } | Edit::Paste { target, .. } => {
                Some(*target)
            }
            // A whole new model (a step, a preset, a loaded state): whatever it changes.
            Edit::Train(next) | Edit::Open(next) => Editable::EVERY
                .into_iter()
                .flat_map(|e| (0..model.heads().len()).map(move |h| e.in_head(h)))
                .find(|&e| self.locked(Matrix::of(e)) && model.matrix(e) != next.matrix(e)),
            // Every matrix drawn again or resized: the locked ones too.
            Edit::Reinitialise | Edit::Resize(_) => {
                return Some(self.locked_message(self.locks[0], model))
            }
            _ => None,
        }?;
        let matrix = Matrix::of(target);
        self.locked(matrix)
            .then(|| self.locked_message(matrix, model))
    }

    /// What a learner who types into the locked `matrix` of `model` is told: what is free.
    pub fn locked_message(&self, matrix: Matrix, model: &Model) -> Msg {
        let free: Vec<&str> = Editable::EVERY
            .into_iter()
            .filter(|&e| model.matrix(e).is_some() && !self.locked(Matrix::of(e)))
            .map(Editable::key)
            .collect();
        edits::locked(matrix.key(), free.join(", "))
    }

    /// Counts an edit once applied (`changed`: it changed the model); a `sealing` one is an
    /// edit of its own, sealed on both sides.
    pub(super) fn count(&mut self, sealing: bool, changed: bool) {
        if sealing {
            self.editing = false;
        }
        if changed && !self.editing {
            self.editing = true;
            self.edits += 1;
        }
        if sealing {
            self.editing = false;
        }
    }
}
