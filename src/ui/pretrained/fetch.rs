//! A trained model's file fetched with its progress, Cancel and Try again, and read once it
//! arrives.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{ProgressEvent, XmlHttpRequest, XmlHttpRequestResponseType};

/// Where the model is.
pub(super) enum Stage<T> {
    /// Bytes received, of how many (when the server says).
    Fetching(f64, Option<f64>),
    /// Read from its bytes.
    Reading,
    Ready(Arc<T>),
    /// Why not, in words; the page keeps working.
    Failed(String),
}

impl<T> Clone for Stage<T> {
    fn clone(&self) -> Self {
        match self {
            Stage::Fetching(got, of) => Stage::Fetching(*got, *of),
            Stage::Reading => Stage::Reading,
            Stage::Ready(model) => Stage::Ready(model.clone()),
            Stage::Failed(why) => Stage::Failed(why.clone()),
        }
    }
}

/// A model's file `file` fetched (with its progress and Cancel), read by `read`, then shown by
/// `ready`; on failure why, and Try again. `key` names its `data-stat` and `data-action`
/// (`{key}-progress`, `cancel-{key}`, …); `what` is the model in the messages.
#[component]
pub(super) fn Fetched<T: Send + Sync + 'static>(
    file: &'static str,
    key: &'static str,
    what: &'static str,
    read: fn(Vec<u8>) -> Result<T, String>,
    ready: fn(Arc<T>) -> AnyView,
) -> impl IntoView {
    let stage = RwSignal::new(Stage::Fetching(0.0, None));
    let request = StoredValue::new_local(None::<XmlHttpRequest>);
    let start = move || {
        stage.set(Stage::Fetching(0.0, None));
        let fetched = fetch_with_progress(
            file,
            move |got, of| {
                stage.try_set(Stage::Fetching(got, of));
            },
            move |fetched| {
                // Done with the request: its response can go.
                request.try_update_value(|r| *r = None);
                arrived(stage, fetched, what, read);
            },
        );
        match fetched {
            Ok(xhr) => request.set_value(Some(xhr)),
            Err(e) => stage.set(Stage::Failed(format!("{e}."))),
        }
    };
    start();
    let cancel = move || {
        if let Some(xhr) = request.try_get_value().flatten() {
            let _ = xhr.abort();
        }
    };
    on_cleanup(cancel);
    move || {
        match stage.get() {
        Stage::Fetching(got, of) => view! {
            <p role="status" data-stat=format!("{key}-progress")>
                <progress value=got.to_string() max=of.unwrap_or(0.0).to_string()></progress>
                " "
                {match of {
                    Some(of) => format!("Fetching the model: {} of {}", megabytes(got), megabytes(of)),
                    None => format!("Fetching the model: {}", megabytes(got)),
                }}
                " "
                <button type="button" data-action=format!("cancel-{key}") on:click=move |_| cancel()>"Cancel"</button>
            </p>
        }.into_any(),
        Stage::Reading => view! { <p role="status" data-stat=format!("{key}-progress")>"Reading the model…"</p> }.into_any(),
        Stage::Failed(why) => view! {
            <p class="field-error" role="alert" data-stat=format!("{key}-error")>
                {why}
                " "
                <button type="button" data-action=format!("retry-{key}") on:click=move |_| start()>"Try again"</button>
            </p>
        }.into_any(),
        Stage::Ready(model) => ready(model),
    }
    }
}

/// Fetches `path` as bytes, saying the progress; `done` gets them, or why not (None: cancelled).
/// The request is returned so that it can be cancelled.
fn fetch_with_progress(
    path: &str,
    progress: impl Fn(f64, Option<f64>) + 'static,
    done: impl FnOnce(Result<Vec<u8>, Option<String>>) + 'static,
) -> Result<XmlHttpRequest, String> {
    let failed = |_| format!("{path} could not be requested");
    let xhr = XmlHttpRequest::new().map_err(failed)?;
    xhr.open("GET", path).map_err(failed)?;
    xhr.set_response_type(XmlHttpRequestResponseType::Arraybuffer);
    let on_progress = Closure::<dyn Fn(ProgressEvent)>::new(move |e: ProgressEvent| {
        progress(e.loaded(), e.length_computable().then(|| e.total()));
    });
    xhr.set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    on_progress.forget();
    let file = path.to_owned();
    // One of load, error and abort ends the request: the first to come answers.
    let done = std::rc::Rc::new(std::cell::Cell::new(Some(done)));
    let answer = move |result: Result<Vec<u8>, Option<String>>| {
        if let Some(done) = done.take() {
            done(result);
        }
    };
    // The request is the event's, not kept here: a closure that held it would keep its 98 MB
    // response alive for as long as the page.
    let on_end = Closure::<dyn Fn(ProgressEvent)>::new(move |e: ProgressEvent| {
        let Some(request) = e.target().and_then(|t| t.dyn_into::<XmlHttpRequest>().ok()) else {
            return;
        };
        let result = match e.type_().as_str() {
            "load" if request.status().unwrap_or(0) == 200 => request
                .response()
                .map(|b| js_sys::Uint8Array::new(&b).to_vec())
                .map_err(|_| Some(format!("{file} could not be read"))),
            "load" => Err(Some(format!(
                "the server answered {} for {file}",
                request.status().unwrap_or(0)
            ))),
            "abort" => Err(None),
            _ => Err(Some(format!(
                "{file} could not be fetched (the connection may be down)"
            ))),
        };
        answer(result);
    });
    for event in ["load", "error", "abort"] {
        let _ = xhr.add_event_listener_with_callback(event, on_end.as_ref().unchecked_ref());
    }
    on_end.forget();
    xhr.send().map_err(failed)?;
    Ok(xhr)
}

/// Megabytes, as the progress line says them.
fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

/// Where a finished fetch leaves the panel: reading the bytes (a frame later, so that "Reading"
/// shows before the work), or saying why not.
fn arrived<T: Send + Sync + 'static>(
    stage: RwSignal<Stage<T>>,
    fetched: Result<Vec<u8>, Option<String>>,
    what: &'static str,
    read: fn(Vec<u8>) -> Result<T, String>,
) {
    let why = match fetched {
        Ok(bytes) => {
            stage.set(Stage::Reading);
            // The read, then the panel it opens, each a task of its own: together one task of
            // 0.3 s for the language model (measured), which no click could interrupt.
            request_animation_frame(move || {
                set_timeout(
                    move || {
                        let read = read(bytes);
                        set_timeout(
                            move || {
                                stage.try_set(match read {
                                    Ok(model) => Stage::Ready(Arc::new(model)),
                                    Err(e) => {
                                        Stage::Failed(format!("{what} could not be read: {e}."))
                                    }
                                });
                            },
                            std::time::Duration::ZERO,
                        );
                    },
                    std::time::Duration::ZERO,
                )
            });
            return;
        }
        Err(None) => "Cancelled: nothing was kept.".to_owned(),
        Err(Some(e)) => {
            format!("{what} could not be fetched: {e}; try again when you are online.")
        }
    };
    stage.try_set(Stage::Failed(format!("{why} The rest of the page works.")));
}
