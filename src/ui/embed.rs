//! Embed mode, for course pages: the page tells its parent how tall it is, answers the parent's
//! messages (the `postMessage` twin of `window.attentionExplorer`, through the same functions),
//! links to the full explorer, and writes the snippet an author pastes.
//!
//! Messages in: `{type: "attention-explorer:load", state, id?}`,
//! `{type: "attention-explorer:edit", matrix, head, row, col, value, id?}`,
//! `{type: "attention-explorer:get-trace", id}`. Out: `{type: "attention-explorer:resize",
//! height}`, `{type: "attention-explorer:trace", id, trace}` and, after a load or an edit,
//! `{type: "attention-explorer:result", id, error}` (`error` is `null` or the message).

use js_sys::{Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::link::{params, snippet, Embed, Page, Part, Shown};
use crate::core::pipeline::Step;
use crate::ui::api;
use crate::ui::share::{fragment_now, model_code, page_url};
use crate::ui::state::{use_app, AppState};

const PREFIX: &str = "attention-explorer:";

/// Starts telling the parent the page's height and answering its messages.
pub fn install(state: AppState) {
    report_height();
    answer_messages(state);
}

fn parent() -> Option<web_sys::Window> {
    window().parent().ok().flatten()
}

/// An object of `type` (after the prefix) and the given fields.
fn message(kind: &str, fields: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    let set = |k: &str, v: &JsValue| {
        Reflect::set(&object, &JsValue::from_str(k), v).ok();
    };
    set("type", &JsValue::from_str(&format!("{PREFIX}{kind}")));
    for (k, v) in fields {
        set(k, v);
    }
    object
}

fn post(object: &Object) {
    if let Some(parent) = parent() {
        parent.post_message(object, "*").ok();
    }
}

/// Posts `{type: "attention-explorer:resize", height}` whenever the page's height changes.
fn report_height() {
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
    on_resize.forget();
}

/// Answers the parent's messages; anything else (another sender, not an object, another type)
/// is ignored.
fn answer_messages(state: AppState) {
    let _ = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        let from_parent = match (ev.source(), parent()) {
            (Some(source), Some(parent)) => Object::is(&source, &parent),
            _ => false,
        };
        let data = ev.data();
        if !from_parent || !data.is_object() {
            return;
        }
        let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).unwrap_or_default();
        let kind = field("type").as_string().unwrap_or_default();
        let id = field("id");
        let result = match kind.strip_prefix(PREFIX) {
            Some("load") => api::load(state, &field("state")),
            Some("edit") => api::edit(
                state,
                &field("matrix"),
                &field("head"),
                &field("row"),
                &field("col"),
                &field("value"),
            ),
            Some("get-trace") => {
                post(&message(
                    "trace",
                    &[("id", id), ("trace", api::trace_value(state))],
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

/// The full explorer's address for the page as it is now: the model and what is shown, but no
/// embed options and no hidden steps (the full page shows everything), opening at `first`.
fn full_url(state: AppState, first: Option<Step>) -> String {
    let shown = Shown {
        hidden: Vec::new(),
        ..untrack(|| state.shown())
    };
    let fragment = params::write(
        &Page {
            model: &model_code(state),
            shown: &shown,
            embed: None,
            at: first,
        },
        Part::Fragment,
    );
    page_url("", &fragment)
}

/// "Open in the full explorer": a link carrying the state, opening at the embed's first step
/// (`first`). Its address is real from the start, and brought up to date when a button is
/// pressed on it (a click, a middle click, the menu to copy it) or the focus comes to it.
#[component]
pub fn OpenFull(first: Option<Step>) -> impl IntoView {
    let state = use_app();
    let refresh = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        if let Some(a) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&full_url(state, first));
        }
    };
    view! {
        <p class="open-full">
            <a
                href=full_url(state, first)
                target="_blank"
                rel="noopener"
                data-action="open-full"
                on:pointerdown=move |ev| refresh(ev.into())
                on:focus=move |ev| refresh(ev.into())
            >
                "Open in the full explorer"
            </a>
        </p>
    }
}

/// The snippet that embeds the page as it is now: the steps shown (all but the hidden ones) and
/// the model, in a sandboxed frame, with the script that fits its height.
pub fn embed_snippet(state: AppState) -> String {
    let hidden = state.hidden.get_untracked();
    let embed = Embed {
        steps: (!hidden.is_empty()).then(|| {
            Step::ALL
                .into_iter()
                .filter(|s| !hidden.contains(s))
                .collect()
        }),
        ..Embed::default()
    };
    let query = params::write(
        &Page {
            model: "",
            shown: &untrack(|| state.shown()),
            embed: Some(&embed),
            at: None,
        },
        Part::Query,
    );
    snippet(&page_url(&query, &fragment_now(state)))
}

/// The "Embed" button: shows the snippet for the page as it is now, ready to copy.
#[component]
pub fn EmbedButton() -> impl IntoView {
    let state = use_app();
    let text = RwSignal::new(None::<String>);
    view! {
        <button
            type="button"
            data-action="embed"
            aria-expanded=move || text.with(Option::is_some).to_string()
            on:click=move |_| text.update(|t| *t = if t.is_some() { None } else { Some(embed_snippet(state)) })
        >
            "Embed"
        </button>
        {move || text.get().map(|t| view! {
            <label class="field wide embed-snippet">
                <span>"Paste this into a course page (the frame fits its height by the script)"</span>
                <textarea readonly rows="8" data-export="embed" prop:value=t></textarea>
            </label>
        })}
    }
}
