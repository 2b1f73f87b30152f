//! The page's URL and the learner's saved work: the only code that touches `location`, `history`
//! and `localStorage`. What a link means is [`crate::core::formats::link`]'s business; this reads the
//! address, and writes the state back into its fragment (and into storage) a moment after the
//! last change, so typing costs nothing per keystroke.

use std::time::Duration;

use leptos::prelude::*;

use crate::core::formats::contract::{
    self, embed_work_key, full_page_path, page_folder, LANG_KEY, WORK_KEY,
};
use crate::core::formats::link::snapshot::embed_page;
use crate::core::formats::link::{
    self, encode_model, linked_lang as linked_lang_of, plain_opening, read_link, write_fragment,
    Opening, MAX_LINK_CHARS,
};
use crate::core::i18n::Lang;
use crate::core::model::{Dims, Model};
use crate::core::teaching::exercise::{read_progress, Progress};
use crate::ui::on_demand::SplitLoaderError;
use crate::ui::pause::AfterPause;
use crate::ui::state::AppState;

/// How long the page waits after the last change before writing the URL and saving.
const WRITE_DELAY: Duration = Duration::from_millis(400);

/// What this visit opens: its link, and the learner's saved work. A visit to the page's plain
/// address or a preset's, with no saved work, opens without the link's reader: that is a chunk
/// of its own (with the saved state's reader, the JSON and the deflate they use), fetched when a
/// link or saved work needs it. `None` when it cannot be fetched (offline before the page was
/// kept, a connection cut).
pub async fn opening() -> Option<Opening> {
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    if saved_work(WORK_KEY).is_none() {
        if let Some(plain) = plain_opening(&search, &hash) {
            return Some(plain);
        }
    }
    read_opening(search, hash).await.ok()
}

/// The link's opening, read.
fn read_now(search: &str, hash: &str) -> Opening {
    let link = read_link(search, hash);
    let saved = saved_work(&work_key(link.embed));
    link::opening(link, saved.as_deref())
}

#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(link_reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn read_opening(search: String, hash: String) -> Result<Opening, SplitLoaderError> {
    Ok(read_now(&search, &hash))
}

#[cfg(not(feature = "split"))]
async fn read_opening(search: String, hash: String) -> Result<Opening, SplitLoaderError> {
    Ok(read_now(&search, &hash))
}

/// The language the page's URL asks for.
pub fn linked_lang() -> Option<Lang> {
    let location = window().location();
    linked_lang_of(
        &location.search().unwrap_or_default(),
        &location.hash().unwrap_or_default(),
    )
}

/// The learner's last choice of language in this browser (a tag).
pub fn stored_lang() -> Option<String> {
    storage()?.get_item(LANG_KEY).ok().flatten()
}

/// Keeps the learner's choice of language: in this browser, and in the URL's `lang=` when it
/// has one (which would otherwise win on a reload).
pub fn keep_lang(tag: &str) {
    if let Some(s) = storage() {
        s.set_item(LANG_KEY, tag).ok();
    }
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    if params.has("lang") {
        params.set("lang", tag);
        let url = format!(
            "{}?{}{}",
            location.pathname().unwrap_or_default(),
            String::from(params.to_string()),
            location.hash().unwrap_or_default()
        );
        if let Ok(history) = window().history() {
            history
                .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                .ok();
        }
    }
}

/// Where this page keeps the learner's work: one place for the full page, one per embed (its
/// query names it), so an embedded exercise does not restore the full page's work.
pub fn work_key(embed: bool) -> String {
    if embed {
        embed_work_key(&window().location().search().unwrap_or_default())
    } else {
        WORK_KEY.into()
    }
}

/// Where the learner's progress in the link's exercises is kept: one place per exercise link
/// (its query names the exercises).
fn progress_key() -> String {
    contract::progress_key(&window().location().search().unwrap_or_default())
}

/// The progress saved for this link's exercises (none where storage is forbidden).
pub fn saved_progress() -> Vec<(String, Progress)> {
    saved_work(&progress_key()).map_or_else(Vec::new, |text| read_progress(&text))
}

/// Saves the exercises' progress whenever it changes.
pub fn keep_progress(state: AppState) {
    let exercises = state.exercises;
    let key = progress_key();
    Effect::new(move |first: Option<()>| {
        exercises.progress.track();
        if first.is_some() {
            save_work(&key, &exercises.progress_text());
        }
    });
}

/// The page's address without its fragment: the activity an exercise's xAPI statement names.
pub fn activity() -> String {
    let href = window().location().href().unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_owned()
}

/// `localStorage`, where the browser allows it (a sandboxed frame throws: then there is none).
fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The fragment saved under `key`, if any.
pub fn saved_work(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Saves `fragment` under `key`; a full or forbidden storage is ignored.
fn save_work(key: &str, fragment: &str) {
    if let Some(storage) = storage() {
        storage.set_item(key, fragment).ok();
    }
}

/// The full page's address with `query` (without its `?`, may be empty) and `fragment`.
pub fn page_url(query: &str, fragment: &str) -> String {
    let pathname = window().location().pathname().unwrap_or_default();
    url_of(full_page_path(&pathname), query, fragment)
}

/// The address of the page an embed with `query` and `fragment` opens on, beside the full page
/// (the embeds' entry page, or the embed's page of its own).
pub fn embed_page_url(query: &str, fragment: &str) -> String {
    let pathname = window().location().pathname().unwrap_or_default();
    let path = format!("{}{}", page_folder(&pathname), embed_page(query));
    url_of(&path, query, fragment)
}

fn url_of(path: &str, query: &str, fragment: &str) -> String {
    let mut url = format!("{}{path}", window().location().origin().unwrap_or_default());
    if !query.is_empty() {
        url.push('?');
        url.push_str(query);
    }
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(fragment);
    }
    url
}

/// Replaces the fragment without a history entry (refused in some sandboxed frames: ignored).
fn replace_fragment(fragment: &str) {
    let location = window().location();
    let url = format!(
        "{}{}#{fragment}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    if let Ok(history) = window().history() {
        history
            .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            .ok();
    }
}

/// What a seeded base is drawn for: the sentence, the sizes, the seed.
type SeededKey = (String, Dims, u64);

thread_local! {
    /// The seeded base of the last model written (see `core::formats::link`): it only changes with the
    /// sentence, the sizes or the seed, and drawing it at the limits takes a while.
    static SEEDED: std::cell::RefCell<Option<(SeededKey, Model)>> = const { std::cell::RefCell::new(None) };
}

/// The model as `m=` writes it now, against the base sharing most of its numbers.
pub fn model_code(state: AppState) -> String {
    let seed = state.doc.seed.get_untracked();
    state.doc.model.with_untracked(|m| {
        // A trained model's layer is written as what opens it again.
        if m.layered().is_some() {
            return encode_model(m, None);
        }
        SEEDED.with_borrow_mut(|cache| {
            let key = (m.sentence().to_owned(), m.dims(), seed);
            if cache.as_ref().map(|(k, _)| k) != Some(&key) {
                *cache = Model::seeded(&key.0, key.1, seed, m.causal, m.scale)
                    .ok()
                    .map(|b| (key, b));
            }
            encode_model(m, cache.as_ref().map(|(_, b)| (seed, b)))
        })
    })
}

/// The fragment that opens the page as it is now: the model (`m=`) and what is shown.
pub fn fragment_now(state: AppState) -> String {
    write_fragment(&model_code(state), &untrack(|| state.shown()))
}

/// Keeps the URL's fragment and the saved work (under `work_key`) in step with the page:
/// written [`WRITE_DELAY`] after the last change, never on opening (an edit made before this is
/// installed, typed into the opening page, is a change).
pub fn keep_in_url(state: AppState, work_key: String) {
    let pause = AfterPause::new(WRITE_DELAY);
    let write = move || {
        pause.done();
        // While the link's (or the saved work's) trained model has not opened (offline, a fetch
        // cut), the page shows another model: writing it would lose the learner's layer.
        if state.doc.pretrained.with_untracked(Option::is_some) {
            return;
        }
        let fragment = fragment_now(state);
        // Beyond a URL's limit the link keeps no model; the saved work still does.
        replace_fragment(if fragment.len() <= MAX_LINK_CHARS {
            &fragment
        } else {
            ""
        });
        save_work(&work_key, &fragment);
        state.page.written.notify();
    };
    let flush = write.clone();
    let edited = state.doc.history.with_untracked(|h| h.can_undo());
    Effect::new(move |first: Option<()>| {
        state.doc.model.track();
        state.shown();
        if first.is_some() || edited {
            pause.changed(write.clone());
        }
    }); // A reload or a closed tab within the delay: the change is saved all the same (the reload
        // itself asked for the URL from before it, so the page offers the saved work back).
    let _ = window_event_listener(leptos::ev::pagehide, move |_| {
        if pause.pending() {
            flush();
        }
    });
}
