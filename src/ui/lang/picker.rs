//! Which language a visit gets (the link's `lang=`, the learner's last choice here, the
//! browser's preferred languages), its file fetched before the page is built, and the picker
//! beside the page's title.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::core::i18n::keys::page;
use crate::core::i18n::{Catalogue, Lang};
use crate::ui::lang::{lang, put, t, word};
use crate::ui::share;

thread_local! {
    /// The language whose file could not be fetched, for the picker's message.
    static FAILED: ArcRwSignal<Option<Lang>> = ArcRwSignal::new(None);
}

/// The visit's language (see [`Lang::choose`]).
pub fn chosen() -> Lang {
    let preferred: Vec<String> = window()
        .navigator()
        .languages()
        .iter()
        .filter_map(|l| l.as_string())
        .collect();
    Lang::choose(
        share::linked_lang(),
        share::stored_lang().as_deref(),
        preferred.iter().map(String::as_str),
    )
}

/// Puts `lang` in use once its file is fetched (the page is built in its language from the
/// start). A file that cannot be fetched leaves the page in English, with a message beside the
/// picker.
pub async fn switch(lang: Lang) {
    let Some(path) = file_of(lang) else {
        put(Catalogue::built_in(if lang.fetched() {
            Lang::En
        } else {
            lang
        }));
        FAILED.with(|f| f.set(lang.fetched().then_some(lang)));
        return;
    };
    match fetch_text(&path)
        .await
        .and_then(|json| Catalogue::read(lang, &json))
    {
        Ok(catalogue) => {
            put(catalogue);
            FAILED.with(|f| f.set(None));
        }
        Err(why) => {
            web_sys::console::warn_1(&why.into());
            FAILED.with(|f| f.set(Some(lang)));
        }
    }
}

/// The built file of `lang`'s texts, as the build lists them on `<html data-languages>`
/// (src/bin/attention-build/languages.rs).
fn file_of(lang: Lang) -> Option<String> {
    if !lang.fetched() {
        return None;
    }
    let listed = document()
        .document_element()?
        .get_attribute("data-languages")?;
    let files: serde_json::Value = serde_json::from_str(&listed).ok()?;
    Some(files[lang.tag()]["file"].as_str()?.to_owned())
}

async fn fetch_text(path: &str) -> Result<String, String> {
    let failed = |_: JsValue| format!("{path} could not be fetched"); // not words: for the console
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(path))
        .await
        .map_err(failed)?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("{path}: {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    text.as_string()
        .ok_or_else(|| format!("{path} is not text")) // not words: for the console
}

/// The picker: every offered language in its own name; the choice is kept in this browser
/// (and in the link's `lang=`, when it has one).
#[component]
pub fn LangPicker() -> impl IntoView {
    let change = move |ev: web_sys::Event| {
        let Some(chosen) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
            .and_then(|s| Lang::from_tag(&s.value()))
        else {
            return;
        };
        share::keep_lang(chosen.tag());
        leptos::task::spawn_local(switch(chosen));
    };
    let failed = move || {
        FAILED
            .with(|f| f.get())
            .map(|l| word(&page::language_failed(l.name())))
    };
    view! {
        <label class="lang-picker">
            <span class="visually-hidden">{t(page::language)}</span>
            <select data-control="lang" on:change=change prop:value=move || lang().tag()>
                {Lang::OFFERED
                    .into_iter()
                    .map(|l| view! { <option value=l.tag() lang=l.tag() dir=l.dir()>{l.name()}</option> })
                    .collect_view()}
            </select>
        </label>
        {move || failed().map(|m| view! { <p class="field-error" role="alert" data-stat="lang-failed">{m}</p> })}
    }
}
