//! "Save, load or share": the state as JSON, loaded back, or a link opening this exact model.

use leptos::prelude::*;

use crate::core::formats::link::LONG_LINK_CHARS;
use crate::core::formats::state::write_state;
use crate::core::i18n::keys::settings;
use crate::core::i18n::Msg;
use crate::ui::export::Files;
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::share::{fragment_now, page_url};
use crate::ui::state::use_app;

/// Export the state as JSON, load one back, or copy a link that opens this exact model: a
/// summary, and what it opens as code on demand (most visits never open it).
#[component]
pub(super) fn SaveAndShare() -> impl IntoView {
    let state = use_app();
    let fields = SaveFields {
        text: RwSignal::new(String::new()),
        message: RwSignal::new(None),
        link: RwSignal::new(String::new()),
    };
    provide_context(fields);
    let opened = RwSignal::new(false);
    view! {
        <details class="save">
            <summary on:click=move |_| {
                fields.text.set(state.doc.model.with_untracked(write_state));
                fields.link.set(page_url("", &fragment_now(state)));
                fields.message.set(None);
                opened.set(true);
            }>{t(settings::save_load_share)}</summary>
            {move || opened.get().then(|| view! { <Loaded load=save_panel what=settings::saving_and_loading/> })}
        </details>
    }
}

/// What the summary fills in each time it is opened, and the panel shows.
#[derive(Clone, Copy)]
pub(super) struct SaveFields {
    /// The state as JSON, as typed or pasted.
    text: RwSignal<String>,
    /// What the last load said (and whether it worked).
    message: RwSignal<Option<(bool, Msg)>>,
    /// A link to this exact model.
    link: RwSignal<String>,
}

chunk! {
    /// The save, load and share panel.
    save_panel => SavePanel().into_any()
}

#[component]
pub(super) fn SavePanel() -> impl IntoView {
    let state = use_app();
    let SaveFields {
        text,
        message,
        link,
    } = expect_context::<SaveFields>();
    let load = move |_| match state.load_state(&text.get_untracked()) {
        Ok(()) => message.set(Some((true, settings::loaded.into()))),
        Err(e) => message.set(Some((false, settings::not_loaded(e)))),
    };
    view! {
        <label class="field wide">
            <span>{t(settings::link_to_model)}</span>
            <input type="text" readonly data-control="link" prop:value=move || link.get() on:focus=|ev| {
                use wasm_bindgen::JsCast;
                if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                    input.select();
                }
            }/>
        </label>
        {move || link.with(|l| (l.len() > LONG_LINK_CHARS).then_some(l.len())).map(|n| view! {
            <p class="note" data-stat="long-link">
                {move || word(&settings::long_link(n))}
            </p>
        })}
        <label class="field wide">
            <span>{t(settings::state_json)}</span>
            <textarea
                data-control="state"
                rows="4"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                aria-describedby="state-message"
            ></textarea>
        </label>
        <button type="button" data-action="load-state" on:click=load>{t(settings::load_state)}</button>
        {move || message.get().map(|(ok, m)| view! { <p id="state-message" class=if ok { "field-ok" } else { "field-error" } role="status">{move || word(&m)}</p> })}
        <Files/>
    }
}
