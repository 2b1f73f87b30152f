//! The page's messages with a parent page (an embed's course page, a notebook): what it tells
//! (its height, its state, exercise results) and what it answers (the `postMessage` twin of
//! `window.attentionExplorer`, through the same functions). The message vocabulary is in
//! `embed`'s module comment.

use js_sys::{Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::formats::contract::{LISTENING, MESSAGE_PREFIX};
use crate::ui::api;
use crate::ui::share;
use crate::ui::state::AppState;

/// Posts `{type: "attention-explorer:result", exercise, kind, result, correct, finished, score,
/// attempts, response, expected?, statement, progress}` to the parent, and to this page itself (where a SCORM
/// adapter listens), each time an exercise's progress changes.
pub fn report_results(state: AppState) {
    let exercises = state.exercises;
    Effect::new(move |_| {
        exercises.changed.track();
        // Taken without a notice: this effect is their only reader.
        let changed = exercises
            .changed
            .try_update_untracked(std::mem::take)
            .unwrap_or_default();
        for index in changed {
            let Some(result) = state
                .derived
                .trace
                .with_untracked(|t| exercises.result(index, t, &share::activity()))
            else {
                continue;
            };
            let object = api::parsed(&result);
            let set = |k: &str, v: &JsValue| Reflect::set(&object, &JsValue::from_str(k), v).ok();
            set(
                "type",
                &JsValue::from_str(&format!("{MESSAGE_PREFIX}result")),
            );
            // Everything a course page needs to hand the progress back after a reload (a
            // sandboxed frame keeps none): `restore-progress`.
            set("progress", &JsValue::from_str(&exercises.progress_text()));
            post(&object);
            // A SCORM adapter in this page listens here too.
            if parent().is_some_and(|p| !Object::is(&p, &window())) {
                window().post_message(&object, "*").ok();
            }
        }
    });
}

/// Starts telling the parent the page's height and its state, and answering its messages.
pub fn install(state: AppState) {
    report_height();
    report_state(state);
    answer_messages(state);
    // The messages that came before: boot.js kept them and hands them over now.
    if let Ok(listening) = web_sys::Event::new(LISTENING) {
        window().dispatch_event(&listening).ok();
    }
}

/// Posts `{type: "attention-explorer:state", state}` on opening and after each change (the
/// changes of one task post once): a notebook's Python sees a typed number at once. A link's
/// trained model is the first state said.
pub(super) fn report_state(state: AppState) {
    Effect::new(move |_| {
        state.doc.model.track();
        // While the link's trained model loads, the example shown is not the embed's state.
        if state.doc.pretrained.with(Option::is_some) {
            return;
        }
        post(&message("state", &[("state", api::state_value(state))]));
    });
}

/// On a page with exercises (from their runtime's chunk): takes back the progress the parent
/// kept, `{type: "attention-explorer:restore-progress", progress, id?}` (answered as a `load`
/// is), after saying it can, `{type: "attention-explorer:ready"}`.
pub fn take_progress_back(state: AppState) {
    let _ = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        let data = ev.data();
        let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).unwrap_or_default();
        if !from_parent(&ev)
            || field("type").as_string().as_deref() != Some("attention-explorer:restore-progress")
        {
            return;
        }
        let result = api::restore_progress(state, &field("progress"));
        post(&message(
            "result",
            &[("id", field("id")), ("error", api::outcome(result))],
        ));
    });
    post(&message("ready", &[]));
}

/// Whether `ev` is a message object from the parent frame.
pub(super) fn from_parent(ev: &web_sys::MessageEvent) -> bool {
    let parent_sent = match (ev.source(), parent()) {
        (Some(source), Some(parent)) => Object::is(&source, &parent),
        _ => false,
    };
    parent_sent && ev.data().is_object()
}

pub(super) fn parent() -> Option<web_sys::Window> {
    window().parent().ok().flatten()
}

/// An object of `type` (after the prefix) and the given fields.
pub(super) fn message(kind: &str, fields: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    let set = |k: &str, v: &JsValue| {
        Reflect::set(&object, &JsValue::from_str(k), v).ok();
    };
    set(
        "type",
        &JsValue::from_str(&format!("{MESSAGE_PREFIX}{kind}")),
    );
    for (k, v) in fields {
        set(k, v);
    }
    object
}

pub(super) fn post(object: &JsValue) {
    if let Some(parent) = parent() {
        parent.post_message(object, "*").ok();
    }
}

/// Posts `{type: "attention-explorer:resize", height}` whenever the page's height changes.
pub(super) fn report_height() {
    let last = std::cell::Cell::new(-1.0);
    let on_resize = Closure::<dyn Fn()>::new(move || {
        let Some(body) = document().body() else {
            return;
        };
        let height = f64::from(body.offset_height());
        if height != last.replace(height) {
            post(&message("resize", &[("height", JsValue::from_f64(height))]));
        }
    });
    if let (Ok(observer), Some(body)) = (
        web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()),
        document().body(),
    ) {
        observer.observe(&body);
        // The observer lives as long as the page.
        std::mem::forget(observer);
    }
    // A frame out of view is not rendered, so its observer says nothing: measured a few times
    // as well, so that an Embed dialog's preview below the fold still sizes the snippet.
    for after in [0, 1000, 3000] {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                on_resize.as_ref().unchecked_ref(),
                after,
            )
            .ok();
    }
    on_resize.forget();
}

/// Answers the parent's messages; anything else (another sender, not an object, another type)
/// is ignored.
pub(super) fn answer_messages(state: AppState) {
    let _ = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        if !from_parent(&ev) {
            return;
        }
        let data = ev.data();
        let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).unwrap_or_default();
        let kind = field("type").as_string().unwrap_or_default();
        let id = field("id");
        let result = match kind.strip_prefix(MESSAGE_PREFIX) {
            Some("load") => api::load(state, &field("state")),
            Some("edit") => api::edit(
                state,
                &field("matrix"),
                &field("head"),
                &field("row"),
                &field("col"),
                &field("value"),
            ),
            Some("get-results") => {
                post(&message(
                    "results",
                    &[("id", id), ("results", api::results_value(state))],
                ));
                return;
            }
            Some("get-state") => {
                post(&message(
                    "state",
                    &[("id", id), ("state", api::state_value(state))],
                ));
                return;
            }
            Some("get-trace") => {
                post(&message(
                    "trace",
                    &[("id", id), ("trace", api::trace_value(state))],
                ));
                return;
            }
            Some("gradients") => {
                let result = api::gradients_value(state, &field("objective"));
                post(&message("gradients", &[("id", id), ("result", result)]));
                return;
            }
            Some("train") => {
                post(&message(
                    "trained",
                    &[("id", id), ("result", api::train_value(state, &data))],
                ));
                return;
            }
            _ => return,
        };
        post(&message(
            "result",
            &[("id", id), ("error", api::outcome(result))],
        ));
    });
}
