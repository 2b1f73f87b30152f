//! `window.attentionExplorer`: the scripting API for course pages ("now set W_query[0][0] to 2")
//! and for tests. Each function goes through the same path as the page: `edit` is a typed
//! number (undo included), `load` a loaded state.

use js_sys::{Object, Reflect, JSON};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::edit::Edit;
use crate::core::report::trace_json;
use crate::core::script::locate_edit;
use crate::core::state::write_state;
use crate::ui::state::AppState;

/// JSON text as a JavaScript value (both writers below produce valid JSON).
fn parsed(json: &str) -> JsValue {
    JSON::parse(json).unwrap_or(JsValue::NULL)
}

/// `null` for success, else the message.
pub fn outcome(result: Result<(), String>) -> JsValue {
    result
        .err()
        .map_or(JsValue::NULL, |m| JsValue::from_str(&m))
}

fn number(v: &JsValue) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// Every intermediate, as `attention-trace --format json` writes it.
pub fn trace_value(state: AppState) -> JsValue {
    parsed(&state.trace.with_untracked(|t| trace_json(t).to_string()))
}

/// Loads a saved state given as an object or as JSON text; nothing changes when it is refused.
pub fn load(state: AppState, value: &JsValue) -> Result<(), String> {
    let text = value
        .as_string()
        .or_else(|| JSON::stringify(value).ok().and_then(|s| s.as_string()))
        .ok_or("load needs a saved state: an object or JSON text")?;
    state.load_state(&text)
}

/// Sets one number of `embedding`, `w_query`, `w_key` or `w_value` as a typed number would,
/// as one undo step.
pub fn edit(
    state: AppState,
    matrix: &JsValue,
    head: &JsValue,
    row: &JsValue,
    col: &JsValue,
    value: &JsValue,
) -> Result<(), String> {
    let x = value.as_f64().ok_or("value must be a number")?;
    let name = matrix.as_string().unwrap_or_default();
    let (target, i, j) = state
        .model
        .with_untracked(|m| locate_edit(m, &name, number(head), number(row), number(col), x))?;
    // One call is one undo step, like a number typed and then left.
    state.apply(Edit::Set {
        target,
        row: i,
        col: j,
        value: x,
    })
}

/// Puts the API on `window`. The closures live as long as the page.
pub fn install(state: AppState) {
    let api = Object::new();
    let set = |name: &str, f: &JsValue| {
        Reflect::set(&api, &JsValue::from_str(name), f).ok();
    };

    let trace = Closure::<dyn Fn() -> JsValue>::new(move || trace_value(state));
    set("trace", trace.as_ref());
    trace.forget();

    let saved = Closure::<dyn Fn() -> JsValue>::new(move || {
        parsed(&state.model.with_untracked(write_state))
    });
    set("state", saved.as_ref());
    saved.forget();

    let loader = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |value: JsValue| {
        outcome(load(state, &value))
    });
    set("load", loader.as_ref());
    loader.forget();

    let editor = Closure::<dyn Fn(JsValue, JsValue, JsValue, JsValue, JsValue) -> JsValue>::new(
        move |matrix: JsValue, head: JsValue, row: JsValue, col: JsValue, value: JsValue| {
            outcome(edit(state, &matrix, &head, &row, &col, &value))
        },
    );
    set("edit", editor.as_ref());
    editor.forget();

    // The module's linear memory in bytes (it only grows): what a long session must keep flat.
    let memory = Closure::<dyn Fn() -> JsValue>::new(|| {
        Reflect::get(&wasm_bindgen::memory(), &JsValue::from_str("buffer"))
            .and_then(|buffer| Reflect::get(&buffer, &JsValue::from_str("byteLength")))
            .unwrap_or(JsValue::NULL)
    });
    set("memoryBytes", memory.as_ref());
    memory.forget();

    Reflect::set(&window(), &JsValue::from_str("attentionExplorer"), &api).ok();
}
