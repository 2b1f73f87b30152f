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
use crate::core::model::limits::MAX_HEADS;
use crate::ui::fields::{accept, IntegerField};
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::state::{use_app, AppState};

/// How a `.safetensors` file for this panel is written (the metadata names the heads).
const SAFETENSORS_SNIPPET: &str = "from safetensors.torch import save_file\n\
    save_file(mha.state_dict(), \"mha.safetensors\", metadata={\"num_heads\": str(mha.num_heads)})";

/// The button and, once opened, its panel.
#[component]
pub fn ImportTorchButton() -> impl IntoView {
    view! { <PanelButton action="import-torch" label="Import from PyTorch" load=import_panel what="the PyTorch import"/> }
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
    dict: Result<(StateDict, Option<usize>), String>,
    heads: RwSignal<u64>,
    from: &str,
) -> (bool, String) {
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
    });
    // A state dict does not say how many heads split it: the same weights in other heads
    // compute other numbers, so the number taken is said.
    let split = if named {
        format!("{heads} head(s) (as the file says)")
    } else {
        format!("{heads} head(s), the number in Heads above: a state dict does not say how many the module had, so if it was not {heads}, set Heads to its num_heads and import again")
    };
    match result.and_then(|m| state.apply(Edit::Open(Box::new(m)))) {
        Ok(()) => (
            true,
            format!("Imported {from} as {split}; the sentence and embedding are kept. Undo takes it back."),
        ),
        Err(e) => (false, format!("Not imported: {e}. The current model is unchanged.")),
    }
}

#[component]
fn ImportPanel() -> impl IntoView {
    let state = use_app();
    let text = RwSignal::new(String::new());
    let heads = RwSignal::new(state.derived.heads.get_untracked() as u64);
    let message = RwSignal::new(None::<(bool, String)>);
    let from_text = move |_| {
        let dict = read_state_dict_json(&text.get_untracked());
        message.set(Some(import(state, dict, heads, "the pasted state dict")));
    };
    // A dropped or chosen file: safetensors (the heads from its metadata when it says), or JSON.
    let from_file = move |file: web_sys::File| {
        let name = file.name();
        leptos::task::spawn_local(async move {
            let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                .await
                .map(|b| js_sys::Uint8Array::new(&b).to_vec());
            let Ok(bytes) = bytes else {
                message.set(Some((false, format!("“{name}” could not be read."))));
                return;
            };
            let dict = if bytes.first() == Some(&b'{') {
                String::from_utf8(bytes)
                    .map_err(|_| "it is not UTF-8 text".to_owned())
                    .and_then(|t| read_state_dict_json(&t))
            } else {
                read_safetensors(&bytes)
            };
            message.set(Some(import(state, dict, heads, &format!("“{name}”"))));
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
        <div class="import-torch" role="group" aria-label="Import from PyTorch"
            on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=dropped>
            <p>"Bring your own nn.MultiheadAttention(E, H, batch_first=True), or a layer with q_proj, k_proj, v_proj and out_proj (Hugging Face, fairseq). E must be this page's d_in; the sentence and embedding stay."</p>
            <p>"Print its state dict as JSON and paste it below:"</p>
            <pre class="snippet">{PYTHON_SNIPPET}</pre>
            <label class="field wide">
                <span>"State dict (JSON)"</span>
                <textarea data-control="torch-json" rows="4" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) aria-describedby="torch-message"></textarea>
            </label>
            <IntegerField control="torch-heads" label="Heads (num_heads)" min=1 max=MAX_HEADS as u64 value=heads.into() on_change=accept(move |n| heads.set(n))/>
            <button type="button" data-action="import-torch-apply" on:click=from_text>"Import"</button>
            <p>"Or drop a .safetensors file here (float32 or float64), saved with the number of heads:"</p>
            <pre class="snippet">{SAFETENSORS_SNIPPET}</pre>
            <label class="file">
                <span>"Open a .safetensors or .json file"</span>
                <input type="file" accept=".safetensors,.json,application/json" data-control="torch-file" on:change=chosen aria-describedby="torch-message"/>
            </label>
            {move || message.get().map(|(ok, m)| view! { <p id="torch-message" class=if ok { "field-ok" } else { "field-error" } role="status">{m}</p> })}
        </div>
    }
}
