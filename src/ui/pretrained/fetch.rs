//! A trained model's file fetched with its progress, Cancel and Try again, and read once it
//! arrives.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestInit, Response};

use crate::core::i18n::keys::models;
use crate::core::i18n::{Key, Msg};
use crate::ui::lang::{t, word};

/// Where the model is.
pub(super) enum Stage<T> {
    /// Coming (its bytes so far are a signal of their own, so that the line's Cancel button is
    /// not built again at each: a click on it held longer than that was lost).
    Fetching,
    /// Read from its bytes.
    Reading,
    Ready(Arc<T>),
    /// Why not, in words; the page keeps working.
    Failed(Msg),
}

impl<T> Clone for Stage<T> {
    fn clone(&self) -> Self {
        match self {
            Stage::Fetching => Stage::Fetching,
            Stage::Reading => Stage::Reading,
            Stage::Ready(model) => Stage::Ready(model.clone()),
            Stage::Failed(why) => Stage::Failed(why.clone()),
        }
    }
}

/// A model's file `file` of about `bytes` fetched (with its progress and Cancel), read by `read`,
/// then shown by `ready`; on failure why, and Try again. `key` names its `data-stat` and `data-action`
/// (`{key}-progress`, `cancel-{key}`, …); `what` is the model in the messages.
#[component]
pub(super) fn Fetched<T: Send + Sync + 'static>(
    file: &'static str,
    bytes: usize,
    key: &'static str,
    what: Key,
    read: fn(Vec<u8>) -> Result<T, Msg>,
    ready: fn(Arc<T>) -> AnyView,
) -> impl IntoView {
    let stage = RwSignal::new(Stage::Fetching);
    // Bytes received, of how many (when known).
    let got = RwSignal::new((0.0, None::<f64>));
    let request = StoredValue::new_local(None::<AbortController>);
    let start = move || {
        stage.set(Stage::Fetching);
        got.set((0.0, None));
        let fetched = fetch_with_progress(
            file,
            bytes,
            move |so_far, of| {
                got.try_set((so_far, of));
            },
            move |fetched| {
                // Nothing left to cancel.
                request.try_update_value(|r| *r = None);
                arrived(stage, fetched, what, read);
            },
        );
        match fetched {
            Ok(fetching) => request.set_value(Some(fetching)),
            Err(e) => stage.set(Stage::Failed(e)),
        }
    };
    start();
    let cancel = move || {
        if let Some(fetching) = request.try_get_value().flatten() {
            fetching.abort();
        }
    };
    on_cleanup(cancel);
    move || {
        match stage.get() {
        Stage::Fetching => view! {
            <p role="status" data-stat=format!("{key}-progress")>
                <progress value=move || got.get().0.to_string() max=move || got.get().1.unwrap_or(0.0).to_string()></progress>
                " "
                {move || match got.get() {
                    (so_far, Some(of)) => word(&models::fetching_of(megabytes(so_far), megabytes(of))),
                    (so_far, None) => word(&models::fetching(megabytes(so_far))),
                }}
                " "
                <button type="button" data-action=format!("cancel-{key}") on:click=move |_| cancel()>{t(models::cancel)}</button>
            </p>
        }.into_any(),
        Stage::Reading => view! { <p role="status" data-stat=format!("{key}-progress")>{t(models::reading)}</p> }.into_any(),
        Stage::Failed(why) => view! {
            <p class="field-error" role="alert" data-stat=format!("{key}-error")>
                {move || word(&why)}
                " "
                <button type="button" data-action=format!("retry-{key}") on:click=move |_| start()>{t(models::try_again)}</button>
            </p>
        }.into_any(),
        Stage::Ready(model) => ready(model),
    }
    }
}

/// Fetches `path` as bytes, saying the progress; `done` gets them, or why not (None: cancelled).
/// Each piece is copied into the model's bytes as it arrives, while the page waits for the next:
/// a whole response copied at the end took a task of 0.12 s (0.5 s on a school phone; measured).
/// The controller is returned so that the fetch can be cancelled.
fn fetch_with_progress(
    path: &str,
    bytes: usize,
    progress: impl Fn(f64, Option<f64>) + 'static,
    done: impl FnOnce(Result<Vec<u8>, Option<Msg>>) + 'static,
) -> Result<AbortController, Msg> {
    let failed = |_| models::not_requested(path);
    let window = web_sys::window().ok_or_else(|| models::not_requested(path))?;
    let controller = AbortController::new().map_err(failed)?;
    let init = RequestInit::new();
    init.set_signal(Some(&controller.signal()));
    let response = window.fetch_with_str_and_init(path, &init);
    let file = path.to_owned();
    let stop = controller.clone();
    leptos::task::spawn_local(async move {
        let read = read_body(response, &file, bytes, progress).await;
        // Refused (an error status, too large, no memory): the rest is not downloaded.
        if matches!(read, Err(Some(_))) {
            stop.abort();
        }
        done(read);
    });
    Ok(controller)
}

/// The response's body, piece by piece; Err(None) when cancelled.
async fn read_body(
    response: js_sys::Promise,
    file: &str,
    expected: usize,
    progress: impl Fn(f64, Option<f64>),
) -> Result<Vec<u8>, Option<Msg>> {
    // A cancel rejects with an AbortError; anything else is the connection.
    let why = |e: JsValue| {
        let cancelled = e
            .dyn_ref::<web_sys::DomException>()
            .is_some_and(|e| e.name() == "AbortError");
        (!cancelled).then(|| models::offline.into())
    };
    let response: Response = JsFuture::from(response)
        .await
        .map_err(why)?
        .unchecked_into();
    if !response.ok() {
        return Err(Some(models::server_answered(response.status(), file)));
    }
    let length = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|l| l.parse::<f64>().ok());
    let unreadable = || Some(models::unreadable(file));
    let reader: ReadableStreamDefaultReader = response
        .body()
        .ok_or_else(unreadable)?
        .get_reader()
        .unchecked_into();
    // Past twice the size it ships at, it is not the file the page ships (or not from its server).
    let most = 2 * expected;
    let too_large = || Some(models::too_large(file, megabytes(most as f64)));
    let no_room = || Some(models::no_memory(file));
    // Room for the whole file at once, so that the 98 MB are not grown into twice their room:
    // the length sent is the file's when not compressed, else the size it ships at (a little
    // more, for a packed file's label). Asked for, not assumed: a phone may not have it.
    let room = match length {
        Some(l) if l as usize > most => return Err(too_large()),
        Some(l) => (l as usize).max(expected),
        None => expected,
    } + expected / 1000;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(room).map_err(|_| no_room())?;
    let mut said = 0.0;
    loop {
        let read = JsFuture::from(reader.read()).await.map_err(why)?;
        if js_sys::Reflect::get(&read, &"done".into()).is_ok_and(|d| d.is_truthy()) {
            return Ok(bytes);
        }
        let piece: js_sys::Uint8Array = js_sys::Reflect::get(&read, &"value".into())
            .map_err(|_| unreadable())?
            .unchecked_into();
        let (at, more) = (bytes.len(), piece.length() as usize);
        let stop = if at + more > most {
            too_large()
        } else {
            bytes.try_reserve(more).err().and_then(|_| no_room())
        };
        if stop.is_some() {
            let _ = reader.cancel();
            return Err(stop);
        }
        bytes.resize(at + more, 0);
        piece.copy_to(&mut bytes[at..]);
        // A few times a second: each change of the line costs the page a frame.
        let now = js_sys::Date::now();
        if now - said >= 100.0 {
            said = now;
            let got = bytes.len() as f64;
            // Of the shipped size when the length sent is less (it counts compressed bytes).
            let of = length.map_or(expected as f64, |l| l.max(expected as f64));
            progress(got, Some(of).filter(|&of| got <= of));
        }
    }
}

/// Megabytes, as the progress line says them.
fn megabytes(bytes: f64) -> Msg {
    models::megabytes(format!("{:.1}", bytes / 1e6))
}

/// Where a finished fetch leaves the panel: reading the bytes (a frame later, so that "Reading"
/// shows before the work), or saying why not.
fn arrived<T: Send + Sync + 'static>(
    stage: RwSignal<Stage<T>>,
    fetched: Result<Vec<u8>, Option<Msg>>,
    what: Key,
    read: fn(Vec<u8>) -> Result<T, Msg>,
) {
    let why = match fetched {
        Ok(bytes) => {
            stage.try_set(Stage::Reading);
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
                                    Err(e) => Stage::Failed(models::not_read(what, e)),
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
        Err(None) => models::cancelled.into(),
        Err(Some(e)) => models::not_fetched(what, e),
    };
    stage.try_set(Stage::Failed(why));
}
