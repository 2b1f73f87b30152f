//! What the live page installs once it is on screen, in a wasm chunk of its own (fetched as the
//! page starts, counted in its opening, so `data-ready` waits for it): the scripting API, the
//! link and the saved work kept in step with the model, a course page's messages, and the undo
//! keys. None of it draws anything, so the opening page and the first edit do not wait for it.

use leptos::prelude::*;

use crate::ui::on_demand::chunk;
use crate::ui::state::use_app;
use crate::ui::{api, embed, share, undo_keys};

chunk! {
    /// The page's tools, installed on the page's store.
    page_tools => {
        let state = use_app();
        api::install(state);
        // The exercises' progress, which their engine adds to the API: it may have come first.
        if state.exercises.any() {
            api::install_progress(state);
        }
        if !state.page.link_unread {
            share::keep_in_url(state, share::work_key(state.page.embedded));
        }
        if state.page.embedded {
            embed::install(state);
        }
        undo_keys::install(state);
        ().into_any()
    }
}
