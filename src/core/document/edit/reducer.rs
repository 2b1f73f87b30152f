//! The one reducer every edit goes through, and the document it applies to: the session's
//! refusal, the trained layer's, the change, the count and the token followed, in that order.

use crate::core::document::history::History;
use crate::core::i18n::Msg;
use crate::core::model::presets::DEFAULT_SEED;
use crate::core::model::Model;

use super::change::{change, kept_by_a_trained_layer, Changed};
use super::edits::Edit;
use super::followed::{followed_after, followed_before};
use super::session::Session;
/// What undo covers, and the seed new numbers are drawn from.
#[derive(Clone, Debug)]
pub struct Document {
    /// The model everything on the page is computed from.
    pub model: Model,
    /// The steps before and after it.
    pub history: History,
    /// The seed of re-initialising and of the numbers a resize or a new word adds.
    pub seed: u64,
    /// An exercise page's locks and the edits made.
    pub session: Session,
}

impl Document {
    /// A document of `model`, with nothing to undo, the default seed and no locks.
    pub fn new(model: Model) -> Document {
        Document {
            model,
            history: History::default(),
            seed: DEFAULT_SEED,
            session: Session::default(),
        }
    }

    /// Applies `edit`; `followed` is the token followed before it, and the result the token
    /// followed after it. A refused edit changes nothing and says why.
    pub fn apply(&mut self, edit: Edit, followed: Option<usize>) -> Result<Option<usize>, Msg> {
        let parts = (&mut self.model, &mut self.history, &mut self.seed);
        Ok(apply(parts, &mut self.session, edit, followed)?.followed)
    }
}

/// [`Document::apply`] over the document's parts, as a page holds them in separate signals:
/// the model, the history and the seed (what undo covers), and the session (locks, edits made).
/// An edit a lock refuses, or one past the limits, changes nothing and says why.
pub fn apply(
    (model, history, seed): (&mut Model, &mut History, &mut u64),
    session: &mut Session,
    edit: Edit,
    followed: Option<usize>,
) -> Result<Changed, Msg> {
    if let Some(refusal) = session.refusal(&edit, model) {
        return Err(refusal);
    }
    // Typing (a number, the sentence) and a training run go on until sealed; the rest seal.
    let sealing = !matches!(
        edit,
        Edit::Cell { .. }
            | Edit::Sentence(_)
            | Edit::Source(Some(_))
            | Edit::Retyped(_)
            | Edit::Train(_)
    );
    if model.layered().is_some() {
        if let Some(why) = kept_by_a_trained_layer(&edit) {
            return Err(why.into());
        }
    }
    let typed = matches!(edit, Edit::Sentence(_) | Edit::Retyped(_))
        .then(|| followed_before(followed, model))
        .flatten();
    let opened = matches!(edit, Edit::Open(_))
        .then(|| followed_before(followed, model))
        .flatten();
    let mut changed = change(model, history, seed, edit)?;
    session.count(sealing, changed.model);
    changed.followed = followed_after(followed, typed.as_ref(), opened.as_ref(), model);
    Ok(changed)
}
