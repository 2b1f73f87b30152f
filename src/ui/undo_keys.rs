//! Ctrl+Z / Ctrl+Shift+Z (or Cmd) undo and redo model edits anywhere on the page, except inside
//! a text field, where the browser's own undo of the text applies.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::document::edit::Edit;
use crate::ui::state::AppState;

/// Listens for the undo and redo keys for as long as the page lives.
pub fn install(state: AppState) {
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        let in_field = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if in_field || !(ev.ctrl_key() || ev.meta_key()) {
            return;
        }
        let edit = match (ev.key().as_str(), ev.shift_key()) {
            ("z" | "Z", false) => Edit::Undo,
            ("z" | "Z", true) | ("y", false) => Edit::Redo,
            _ => return,
        };
        state.apply(edit).ok();
        ev.prevent_default();
    });
}
