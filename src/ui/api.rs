//! `window.attentionExplorer`: the scripting API for course pages ("now set W_query[0][0] to 2")
//! and for tests. Each function goes through the same path as the page: `edit` is a typed
//! number (undo included), `load` a loaded state.

use js_sys::{Object, Reflect, JSON};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::document::script::locate_edit;
use crate::core::formats::report::{gradients_json, trace_json};
use crate::core::formats::state::write_state;
use crate::core::teaching::exercise::read_progress;
use crate::core::training::{
    gradients, max_steps, train, Objective, Optimizer, DEFAULT_LR, MAX_STEPS,
};
use crate::ui::share;
use crate::ui::state::AppState;

/// JSON text as a JavaScript value (the writers here produce valid JSON).
pub fn parsed(json: &str) -> JsValue {
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

/// Every intermediate, as `attention-trace --format json` writes it; with a trained model's
/// layer in the page, its `layer` and `ids`, and the language model's `next`.
pub fn trace_value(state: AppState) -> JsValue {
    let mut trace = state.derived.trace.with_untracked(trace_json);
    state.doc.model.with_untracked(|m| {
        if let (Some(l), Some(out)) = (m.layered(), trace.as_object_mut()) {
            out.insert("layer".into(), l.layer.into());
            out.insert("ids".into(), l.ids.clone().into());
            if let Some(next) = state.doc.next.get_value() {
                out.insert("next".into(), next);
            }
        }
    });
    parsed(&trace.to_string())
}

/// Every exercise's state: `[{exercise, kind, result, correct, score, attempts, response,
/// expected?, statement}]`.
pub fn results_value(state: AppState) -> JsValue {
    parsed(
        &state
            .derived
            .trace
            .with_untracked(|t| state.exercises.results(t, &share::activity())),
    )
}

/// JSON text given as itself or as an object.
fn json_text(value: &JsValue) -> Option<String> {
    value
        .as_string()
        .or_else(|| JSON::stringify(value).ok().and_then(|s| s.as_string()))
}

/// Loads a saved state given as an object or as JSON text; nothing changes when it is refused.
pub fn load(state: AppState, value: &JsValue) -> Result<(), String> {
    let text = json_text(value).ok_or("load needs a saved state: an object or JSON text")?;
    state.load_state(&text).map_err(|e| e.english())
}

fn objective(state: AppState, value: &JsValue) -> Result<Objective, String> {
    let text = json_text(value).ok_or("give an objective: an object or JSON text")?;
    state
        .doc
        .model
        .with_untracked(|m| Objective::read(&text, m))
        .map_err(|e| e.english())
}

/// `{loss, grad}` as `attention-trace --objective` prints them, or the message.
pub fn gradients_value(state: AppState, value: &JsValue) -> JsValue {
    match objective(state, value) {
        Ok(o) => {
            let g = state.doc.model.with_untracked(|m| gradients(m, &o));
            parsed(&serde_json::json!({ "loss": g.loss, "grad": gradients_json(&g) }).to_string())
        }
        Err(e) => JsValue::from_str(&e),
    }
}

/// Trains the page's model `{objective, steps, optimizer: "sgd"|"adam", lr}` as one undo step;
/// the losses (steps + 1 of them), or the message.
pub fn train_value(state: AppState, options: &JsValue) -> JsValue {
    let field = |k: &str| Reflect::get(options, &JsValue::from_str(k)).unwrap_or_default();
    let run = || -> Result<Vec<f64>, String> {
        let o = objective(state, &field("objective"))?;
        let steps = field("steps").as_f64().unwrap_or(1.0);
        let most = state.doc.model.with_untracked(max_steps);
        if !(steps.fract() == 0.0 && (0.0..=most as f64).contains(&steps)) {
            let why = if most < MAX_STEPS {
                " at this model's size (one call runs on the page's thread and may not freeze it; call again to train on)"
            } else {
                ""
            };
            return Err(format!(
                "steps must be a whole number from 0 to {most}{why}"
            ));
        }
        let lr = field("lr");
        let lr = if lr.is_undefined() {
            DEFAULT_LR
        } else {
            number(&lr)
        };
        let optimizer = Optimizer::named(field("optimizer").as_string().as_deref(), lr)
            .map_err(|e| e.english())?;
        let trained = state
            .doc
            .model
            .with_untracked(|m| train(m, &o, optimizer, steps as usize));
        // The steps before a refused one are kept (one undo step); the message says so.
        if trained.losses.len() > 1 {
            state
                .apply(Edit::Train(Box::new(trained.model)))
                .map_err(|e| e.english())?;
            state.apply(Edit::Seal).map_err(|e| e.english())?;
        }
        match trained.refused {
            Some(r) => Err(format!(
                "{} The {} steps before it were taken.",
                r.message().english(),
                trained.losses.len() - 1
            )),
            None => Ok(trained.losses),
        }
    };
    match run() {
        Ok(losses) => parsed(&serde_json::json!(losses).to_string()),
        Err(e) => JsValue::from_str(&e),
    }
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
        .doc
        .model
        .with_untracked(|m| locate_edit(m, &name, number(head), number(row), number(col), x))?;
    // One call is one undo step, like a number typed and then left.
    state
        .apply(Edit::Set {
            target,
            row: i,
            col: j,
            value: x,
        })
        .map_err(|e| e.english())
}

/// Gives the exercises back the progress `progress()` wrote (a course page keeping it for a
/// sandboxed frame, a SCORM package's suspend data).
pub fn restore_progress(state: AppState, text: &JsValue) -> Result<(), String> {
    let text = text
        .as_string()
        .ok_or("progress must be the text progress() gave")?;
    let lines = read_progress(&text);
    if state.exercises.restore(&lines) == 0 && !text.trim().is_empty() {
        return Err("none of it is an exercise of this page (it is the text progress() gave, a line per exercise)".into());
    }
    Ok(())
}

/// Adds `progress()` and `restoreProgress(text)` to the API: by the exercises' runtime, on a
/// page with exercises (in its chunk).
pub fn install_progress(state: AppState) {
    let Ok(api) = Reflect::get(&window(), &JsValue::from_str("attentionExplorer")) else {
        return;
    };
    let progress = Closure::<dyn Fn() -> JsValue>::new(move || {
        JsValue::from_str(&state.exercises.progress_text())
    });
    Reflect::set(&api, &JsValue::from_str("progress"), progress.as_ref()).ok();
    progress.forget();
    let restore = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |text: JsValue| {
        outcome(restore_progress(state, &text))
    });
    Reflect::set(
        &api,
        &JsValue::from_str("restoreProgress"),
        restore.as_ref(),
    )
    .ok();
    restore.forget();
}

/// The saved state as a JavaScript object (`state()`).
pub fn state_value(state: AppState) -> JsValue {
    parsed(&state.doc.model.with_untracked(write_state))
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

    let saved = Closure::<dyn Fn() -> JsValue>::new(move || state_value(state));
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

    let results = Closure::<dyn Fn() -> JsValue>::new(move || results_value(state));
    set("results", results.as_ref());
    results.forget();

    let grads =
        Closure::<dyn Fn(JsValue) -> JsValue>::new(move |o: JsValue| gradients_value(state, &o));
    set("gradients", grads.as_ref());
    grads.forget();

    let trainer =
        Closure::<dyn Fn(JsValue) -> JsValue>::new(move |o: JsValue| train_value(state, &o));
    set("train", trainer.as_ref());
    trainer.forget();

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
