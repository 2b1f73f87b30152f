//! The view the URL carries besides the model: shown as a link asks, and read back.

use leptos::prelude::*;

use super::AppState;
use crate::core::formats::link::{Shown, DEFAULT_DECIMALS};
use crate::core::model::presets::DEFAULT_SEED;
use crate::core::training::lab::Setup;

impl AppState {
    /// Shows what a link or the saved work asks to see.
    pub fn show_as(self, shown: &Shown) {
        self.doc.seed.set(shown.seed.unwrap_or(DEFAULT_SEED));
        self.view.followed.set(shown.followed);
        self.view.focused_head.set(shown.head.unwrap_or(0));
        self.view
            .look
            .precision
            .set(shown.decimals.unwrap_or(DEFAULT_DECIMALS));
        self.view.hidden.set(shown.hidden.clone());
        self.view.look.faces.set(
            shown
                .faces
                .iter()
                .map(|&(name, head, face)| ((name, head), face))
                .collect(),
        );
        self.view.training.set(shown.training.clone());
        self.view.choosing.set(shown.choosing);
    }

    /// What the URL carries besides the model, from the view's signals (defaults left out):
    /// the one mapping from the signals to the link, as [`AppState::show_as`] is the one back.
    /// Tracked: call it in `untrack` outside an effect.
    pub fn shown(self) -> Shown {
        let (seed, head, decimals) = (
            self.doc.seed.get(),
            self.view.focused_head.get(),
            self.view.look.precision.get(),
        );
        let mut faces: Vec<_> = self.view.look.faces.with(|f| {
            f.iter()
                .map(|(&(name, head), &face)| (name, head, face))
                .collect()
        });
        faces.sort_unstable_by_key(|&(matrix, head, _)| (matrix.key(), head));
        Shown {
            seed: (seed != DEFAULT_SEED).then_some(seed),
            // A place the sentence being typed does not reach yet is not in the link.
            followed: self
                .view
                .followed
                .get()
                .filter(|&i| i < self.derived.words.with(Vec::len)),
            head: (head != 0).then_some(head),
            decimals: (decimals != DEFAULT_DECIMALS).then_some(decimals),
            hidden: self.view.hidden.get(),
            faces,
            training: self.view.training.with(|t| Setup {
                output: None,
                targets: t.targets.clone(),
                train: self.doc.model.with(|m| t.train_of(m)),
                optimizer: t.optimizer,
            }),
            choosing: self.view.choosing.get(),
        }
    }
}
