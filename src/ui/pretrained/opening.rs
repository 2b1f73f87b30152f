//! A trained model opened as the link, the saved work or a loaded state names it.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::formats::trained::read_trained;
use crate::core::i18n::keys::models;
use crate::core::i18n::{Arg, Msg};
use crate::core::model::layer_record::LayerOpening;
use crate::core::model::Model;
use crate::ui::state::use_app;

/// Opened, a model goes into the page: as a link, the saved work or a loaded state names it
/// (then, or whenever one does; `claims` says which names are this panel's), else
/// `put_first` unless the page shows it already (undo brings the page back). `open` opens a
/// layer of the model named; `ours` says whether the page shows one. `put_first` runs a task
/// after the panel shows: the panel and the page's steps redrawn for the language model's layer
/// were one task of 0.19 s, which no click could interrupt. (A named layer goes in at once: a
/// course page hears the link's state first, not the example's.)
pub(super) fn open_named(
    claims: fn(&str) -> bool,
    open: impl Fn(String, LayerOpening) -> Result<Model, Arg> + 'static,
    ours: fn(&Model) -> bool,
    error: RwSignal<Option<Msg>>,
    put_first: impl Fn() + 'static,
) {
    let state = use_app();
    let put_first = std::rc::Rc::new(put_first);
    Effect::new(move |first: Option<()>| {
        // Taken only when this panel's: taking notifies, and this effect watches it.
        let named = state
            .doc
            .pretrained
            .with(|p| p.as_deref().is_some_and(|p| claims(&named_model(p))))
            .then(|| state.doc.pretrained.try_update(Option::take).flatten())
            .flatten();
        match named {
            Some(named) => {
                // The link's or the saved work's model, opened before any edit, is where the
                // page starts: Undo does not go back to the example shown while it loaded.
                let starts = first.is_none() && state.doc.history.with_untracked(|h| !h.can_undo());
                let opened = read_trained(&named)
                    .map_err(Arg::from)
                    .and_then(|(name, opening)| {
                        open(name, opening)
                            .and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from))
                    });
                if starts && opened.is_ok() {
                    state.doc.history.set(Default::default());
                }
                error.set(opened.err().map(models::layer_not_opened));
            }
            None if first.is_none() && state.doc.model.with_untracked(|m| !ours(m)) => {
                let put_first = put_first.clone();
                // Unless, meanwhile, the panel closed or the page changed (a state came to it).
                let now = state.doc.model.get_untracked();
                let still = move || {
                    !error.is_disposed()
                        && state.doc.pretrained.with_untracked(Option::is_none)
                        && state.doc.model.with_untracked(|m| *m == now)
                };
                set_timeout(
                    move || {
                        if still() {
                            put_first();
                        }
                    },
                    std::time::Duration::ZERO,
                );
            }
            None => {}
        }
    });
}

/// The name a state's `pretrained` gives its model ("" when it cannot be read: the encoder's
/// panel says why).
pub(super) fn named_model(record: &str) -> String {
    crate::core::formats::trained::trained_name(record).unwrap_or_default()
}
