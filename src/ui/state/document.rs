//! The store's one write path (through the core's reducer) and what opens a model: a preset,
//! the example, a saved state, a link.

use std::sync::Arc;

use leptos::prelude::*;

use super::{AppState, TrainedModel};
use crate::core::document::edit::{self, Edit};
use crate::core::formats::link::Link;
use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use crate::core::model::presets::preset_named;

impl AppState {
    /// The trained model whose layer the page shows, while its panel holds it.
    pub fn trained_in_page(self) -> Option<Arc<dyn TrainedModel>> {
        let name = self
            .doc
            .model
            .with_untracked(|m| m.layered().map(|l| l.name.clone()))?;
        self.doc
            .trained
            .with_value(|t| t.iter().find(|t| t.name() == name).cloned())
    }

    /// Lends the page `trained` while the calling view lives.
    pub fn lend(self, trained: Arc<dyn TrainedModel>) {
        let name = trained.name();
        self.doc.trained.update_value(|t| {
            t.retain(|t| t.name() != name);
            t.push(trained);
        });
        on_cleanup(move || {
            self.doc
                .trained
                .try_update_value(|t| t.retain(|t| t.name() != name));
        });
    }

    /// Applies one change to the document through the core's reducer: the one write path of
    /// the page, the scripting API and its postMessage twin. A refused edit changes nothing
    /// (no signal is touched) and says why. Each signal is notified only if it changed.
    pub fn apply(self, edit: Edit) -> Result<(), Msg> {
        let (model, history, seed, session) = (
            self.doc.model,
            self.doc.history,
            self.doc.seed,
            self.doc.session,
        );
        // A trained model's sentence is cut by its own tokenizer, which its panel holds.
        let edit = match edit {
            Edit::Sentence(text) if model.with_untracked(|m| m.layered().is_some()) => {
                match self.trained_in_page() {
                    Some(trained) => Edit::Retyped(Box::new(
                        model.with_untracked(|m| trained.retype(m, &text))?,
                    )),
                    None => Edit::Sentence(text),
                }
            }
            other => other,
        };
        let followed = self.view.followed.get_untracked();
        let numbers_only = matches!(
            edit,
            Edit::Cell { .. } | Edit::Set { .. } | Edit::Paste { .. } | Edit::Seal
        );
        let mut outcome = Ok(Default::default());
        // Untracked writes, then a notice to each signal that changed: a refused edit (or one
        // that changed only the history) wakes nothing else. None of them is gone while the page
        // lives; a callback that outlived it changes nothing.
        history.try_update_untracked(|h| {
            model.try_update_untracked(|m| {
                seed.try_update_untracked(|s| {
                    session.try_update_value(|session| {
                        outcome = edit::apply((m, h, s), session, edit, followed);
                    })
                })
            })
        });
        let outcome = outcome?;
        if outcome.history {
            history.notify();
        }
        if outcome.seed {
            seed.notify();
        }
        if outcome.model {
            model.notify();
            if !numbers_only {
                self.doc.structure.notify();
            }
            if outcome.followed != followed {
                self.view.followed.set(outcome.followed);
            }
        }
        Ok(())
    }

    /// Opens the preset called `name`, undoably; refused (an exercise's lock) with why.
    pub fn open_preset(self, name: &str) -> Result<(), Msg> {
        let p = preset_named(name).ok_or_else(|| edits::no_example(name))?;
        self.apply(Edit::Open(Box::new((p.build)())))
    }

    /// Opens the example again, undoably; refused with why. An embed of a trained layer opens
    /// its link's layer again (the model's panel takes it, as it took the link's).
    pub fn reset(self) -> Result<(), Msg> {
        if let Some(trained) = self.page.trained_example {
            self.doc.pretrained.set(Some(trained.to_owned()));
            return Ok(());
        }
        self.open_preset(self.page.example)
    }

    /// Loads a saved state (JSON text), undoably; when it is refused nothing changes and the
    /// message says why. Every way a state comes in (the load box, a file, the scripting API
    /// and its postMessage twin) goes through here.
    pub fn load_state(self, json: &str) -> Result<(), Msg> {
        // A trained model's layer opens once the model's panel has the model.
        if let Some(trained) = serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|v| v.get("pretrained").map(ToString::to_string))
        {
            self.doc.pretrained.set(Some(trained));
            return Ok(());
        }
        let model = crate::core::formats::state::read_state(json)
            .map_err(|e| edits::at_field(e.field, e.message))?;
        self.apply(Edit::Open(Box::new(model)))
    }

    /// Opens a model and what to show of it (from a link or the saved work), undoably; refused
    /// with why, and then nothing changes.
    pub fn open(self, link: &Link) -> Result<(), Msg> {
        self.apply(Edit::Open(Box::new(link.model.clone())))?;
        self.doc.pretrained.set(link.pretrained.clone());
        self.show_as(&link.shown);
        Ok(())
    }
}
