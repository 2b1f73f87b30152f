//! The learner's numbers out of the page and back: downloads (state and trace as JSON, any
//! matrix as CSV) made in the page itself (a Blob, no request anywhere), a state file loaded
//! back, and "Copy as PyTorch".

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::formats::pytorch::{pytorch_script, Script, NUMBERS_FILE};
use crate::core::formats::report::trace_json;
use crate::core::formats::state::write_state;
use crate::core::i18n::keys::settings;
use crate::core::i18n::{Arg, Msg};
use crate::ui::lang::{figure, t, with_figures, word};
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::state::use_app;

/// Offers `text` as a file called `name`.
pub fn download(name: &str, mime: &str, text: &str) {
    offer(name, mime, &wasm_bindgen::JsValue::from_str(text));
}

/// Offers `bytes` as a file called `name`.
pub fn download_bytes(name: &str, mime: &str, bytes: &[u8]) {
    offer(name, mime, &js_sys::Uint8Array::from(bytes));
}

fn offer(name: &str, mime: &str, part: &wasm_bindgen::JsValue) {
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // The download reads the Blob after this click returns.
    set_timeout(
        move || {
            web_sys::Url::revoke_object_url(&url).ok();
        },
        std::time::Duration::from_secs(10),
    );
}

/// Download the state or the trace, or load a state file (a bad one changes nothing).
#[component]
pub fn Files() -> impl IntoView {
    let state = use_app();
    let message = RwSignal::new(None::<(bool, Msg)>);
    let import = move |ev: leptos::ev::Event| {
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|input| input.files())
            .and_then(|files| files.get(0))
        else {
            return;
        };
        let name = file.name();
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|t| t.as_string());
            let result = match text {
                None => Err(Arg::from(settings::not_text)),
                Some(text) => state.load_state(&text).map_err(Arg::from),
            };
            message.set(Some(match result {
                Ok(()) => (true, settings::file_loaded(name)),
                Err(e) => (false, settings::file_not_loaded(name, e)),
            }));
        });
    };
    view! {
        <div class="field buttons">
            <button type="button" data-action="download-state" on:click=move |_| {
                download("attention-state.json", "application/json", &state.doc.model.with_untracked(write_state));
            }>{t(settings::download_state)}</button>
            <button type="button" data-action="download-trace" on:click=move |_| {
                download("attention-trace.json", "application/json", &state.derived.trace.with_untracked(|t| trace_json(t).to_string()));
            }>{t(settings::download_trace)}</button>
            <label class="file">
                <span>{t(settings::load_state_file)}</span>
                <input type="file" accept=".json,application/json" data-control="import" on:change=import aria-describedby="import-message"/>
            </label>
        </div>
        {move || message.get().map(|(ok, m)| view! { <p id="import-message" class=if ok { "field-ok" } else { "field-error" } role="status">{move || word(&m)}</p> })}
    }
}

/// "Copy as PyTorch": the script goes to the clipboard (where the browser allows) and is shown.
/// Its writer is a wasm chunk of its own, fetched on the first click; each click writes the
/// script of the model as it is then.
#[component]
pub fn CopyPytorch() -> impl IntoView {
    let clicks = RwSignal::new(0u32);
    view! {
        <button type="button" data-action="copy-pytorch" on:click=move |_| clicks.update(|c| *c += 1) title=t(settings::copy_pytorch_title)>
            {t(settings::copy_pytorch)}
        </button>
        {move || (clicks.get() > 0).then(|| view! { <Loaded load=pytorch_panel what=settings::the_script/> })}
    }
}

chunk! {
    /// The PyTorch script's writer and its panel.
    pytorch_panel => PytorchPanel().into_any()
}

#[component]
fn PytorchPanel() -> impl IntoView {
    let state = use_app();
    // With the training lab's target, the script also takes the loss's gradients.
    let objective = state.view.objective.get_untracked();
    let Script { text, numbers } = state
        .doc
        .model
        .with_untracked(|m| pytorch_script(m, objective.as_ref()));
    let written = window().navigator().clipboard().write_text(&text);
    // Refused without focus or in a sandboxed frame: the script is shown to copy by hand.
    leptos::task::spawn_local(async move {
        wasm_bindgen_futures::JsFuture::from(written).await.ok();
    });
    // A large model's numbers are a file saved beside the script.
    let numbers = numbers.map(|bytes| {
        let size = format!("{:.1} MB", bytes.len() as f64 / 1e6);
        view! {
            <p class="note">
                {with_code(settings::numbers_in_file, NUMBERS_FILE)} " "
                <button type="button" data-action="download-numbers" on:click=move |_| download_bytes(NUMBERS_FILE, "application/octet-stream", &bytes)>
                    {move || word(&settings::save_numbers(NUMBERS_FILE, &size))}
                </button>
            </p>
        }
    });
    view! {
        <div class="pytorch">
            <p class="note">{with_code(settings::copied, "output")}</p>
            {numbers}
            <pre data-export="pytorch" tabindex="0">{text}</pre>
        </div>
    }
}

/// The sentence `msg(code)` with `code` set as `<code>`: one key for the whole sentence, so a
/// translator puts the code where the language wants it.
fn with_code(msg: fn(Arg) -> Msg, code: &'static str) -> impl IntoView {
    with_figures(
        move || msg(figure(0)),
        move |_| view! { <code>{code}</code> }.into_any(),
    )
}
