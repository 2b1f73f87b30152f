//! The trained model's file fetched with its progress, and read once it arrives.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{ProgressEvent, XmlHttpRequest, XmlHttpRequestResponseType};

use crate::core::pretrained::{read_packed, Encoder};

/// Where the model is.
#[derive(Clone)]
pub(super) enum Stage {
    /// Bytes received, of how many (when the server says).
    Fetching(f64, Option<f64>),
    /// Read from its bytes.
    Reading,
    Ready(Arc<Encoder>),
    /// Why not, in words; the page keeps working.
    Failed(String),
}

/// Fetches `path` as bytes, saying the progress; `done` gets them, or why not (None: cancelled).
/// The request is returned so that it can be cancelled.
pub(super) fn fetch_with_progress(
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
    let request = xhr.clone();
    let file = path.to_owned();
    // One of load, error and abort ends the request: the first to come answers.
    let done = std::rc::Rc::new(std::cell::Cell::new(Some(done)));
    let answer = move |result: Result<Vec<u8>, Option<String>>| {
        if let Some(done) = done.take() {
            done(result);
        }
    };
    let on_end = Closure::<dyn Fn(ProgressEvent)>::new(move |e: ProgressEvent| {
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
pub(super) fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

/// Where a finished fetch leaves the panel: reading the bytes (a frame later, so that "Reading"
/// shows before the work), or saying why not.
pub(super) fn arrived(stage: RwSignal<Stage>, fetched: Result<Vec<u8>, Option<String>>) {
    let why = match fetched {
        Ok(bytes) => {
            stage.set(Stage::Reading);
            request_animation_frame(move || {
                set_timeout(
                    move || {
                        stage.set(match read_packed(&bytes) {
                            Ok(encoder) => Stage::Ready(Arc::new(encoder)),
                            Err(e) => {
                                Stage::Failed(format!("The trained model could not be read: {e}."))
                            }
                        })
                    },
                    std::time::Duration::ZERO,
                )
            });
            return;
        }
        Err(None) => "Cancelled: nothing was kept.".to_owned(),
        Err(Some(e)) => {
            format!("The trained model could not be fetched: {e}; try again when you are online.")
        }
    };
    stage.set(Stage::Failed(format!("{why} The rest of the page works.")));
}
