//! "Import from PyTorch": an `nn.MultiheadAttention` (or Hugging Face style q/k/v/out_proj)
//! state dict, pasted as the JSON a Python snippet prints or dropped as a `.safetensors` file,
//! becomes the page's heads, biases and output projection (`core::formats::multihead`). Its own wasm
//! chunk: the safetensors reader is not in the first download.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::document::edit::Edit;
use crate::core::formats::multihead::{
    import_into, read_safetensors, read_state_dict_json, StateDict, PYTHON_SNIPPET,
};
use crate::core::i18n::keys::settings;
use crate::core::i18n::{Arg, Msg};
use crate::core::model::limits::MAX_HEADS;
use crate::ui::fields::{accept, IntegerField};
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::state::{use_app, AppState};

/// How a `.safetensors` file for this panel is written (the metadata names the heads).
const SAFETENSORS_SNIPPET: &str = "from safetensors.torch import save_file\n\
    save_file(mha.state_dict(), \"mha.safetensors\", metadata={\"num_heads\": str(mha.num_heads)})";

/// The button and, once opened, its panel.
#[component]
pub fn ImportTorchButton() -> impl IntoView {
    view! { <PanelButton action="import-torch" label=settings::import_from_pytorch load=import_panel what=settings::the_pytorch_import/> }
}

chunk! {
    /// The import panel, in its own wasm chunk.
    import_panel => ImportPanel().into_any()
}

/// Imports `dict` into the page (one undo step) with the heads it names, else `heads` (which
/// then shows the number used); the message says what happened or what does not fit, and a
/// refused import changes nothing.
fn import(
    state: AppState,
    dict: Result<(StateDict, Option<usize>), Arg>,
    heads: RwSignal<u64>,
    from: Msg,
) -> (bool, Msg) {
    let mut named = false;
    let dict = dict.map(|(d, h)| {
        if let Some(h) = h {
            heads.set(h as u64);
            named = true;
        }
        d
    });
    let heads = heads.get_untracked() as usize;
    let result = dict.and_then(|d| {
        state
            .doc
            .model
            .with_untracked(|m| import_into(m, &d, heads))
            .map_err(Arg::from)
    });
    // A state dict does not say how many heads split it: the same weights in other heads
    // compute other numbers, so the number taken is said.
    let imported = if named {
        settings::imported_heads_named
    } else {
        settings::imported_heads_above
    };
    match result.and_then(|m| state.apply(Edit::Open(Box::new(m))).map_err(Arg::from)) {
        Ok(()) => (true, imported(from, heads)),
        Err(e) => (false, settings::not_imported(e)),
    }
}

#[component]
fn ImportPanel() -> impl IntoView {
    let state = use_app();
    let text = RwSignal::new(String::new());
    let heads = RwSignal::new(state.derived.heads.get_untracked() as u64);
    let message = RwSignal::new(None::<(bool, Msg)>);
    let from_text = move |_| {
        let dict = read_state_dict_json(&text.get_untracked()).map_err(Arg::from);
        message.set(Some(import(
            state,
            dict,
            heads,
            settings::pasted_state_dict.into(),
        )));
    };
    // A dropped or chosen file: safetensors (the heads from its metadata when it says), or JSON.
    let from_file = move |file: web_sys::File| {
        let name = file.name();
        leptos::task::spawn_local(async move {
            let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                .await
                .map(|b| js_sys::Uint8Array::new(&b).to_vec());
            let Ok(bytes) = bytes else {
                message.set(Some((false, settings::not_readable(name))));
                return;
            };
            let dict = if bytes.first() == Some(&b'{') {
                String::from_utf8(bytes)
                    .map_err(|_| Arg::from(settings::not_utf8))
                    .and_then(|t| read_state_dict_json(&t).map_err(Arg::from))
            } else {
                read_safetensors(&bytes).map_err(Arg::from)
            };
            message.set(Some(import(state, dict, heads, settings::quoted(name))));
        });
    };
    let chosen = move |ev: leptos::ev::Event| {
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|input| input.files())
            .and_then(|files| files.get(0));
        if let Some(file) = file {
            from_file(file);
        }
    };
    let dropped = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            from_file(file);
        }
    };
    view! {
        <div class="import-torch" role="group" aria-label=t(settings::import_from_pytorch)
            on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=dropped>
            <p>{t(settings::bring_your_own)}</p>
            <p>{t(settings::paste_state_dict)}</p>
            <pre class="snippet">{PYTHON_SNIPPET}</pre>
            <label class="field wide">
                <span>{t(settings::state_dict_json)}</span>
                <textarea data-control="torch-json" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) aria-describedby="torch-message"></textarea>
            </label>
            <IntegerField control="torch-heads" label=settings::heads_num_heads min=1 max=MAX_HEADS as u64 value=heads.into() on_change=accept(move |n| heads.set(n))/>
            <button type="button" data-action="import-torch-apply" on:click=from_text>{t(settings::import)}</button>
            <p>{t(settings::drop_safetensors)}</p>
            <pre class="snippet">{SAFETENSORS_SNIPPET}</pre>
            <label class="file">
                <span>{t(settings::open_file)}</span>
                <input type="file" accept=".safetensors,.json,application/json" data-control="torch-file" on:change=chosen aria-describedby="torch-message"/>
            </label>
            {move || message.get().map(|(ok, m)| view! { <p id="torch-message" class=if ok { "field-ok" } else { "field-error" } role="status">{move || word(&m)}</p> })}
        </div>
    }
}
