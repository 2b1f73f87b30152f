//! The maker's outputs: the exercise's link, "Try it as a learner", the Embed dialog, and the
//! SCORM package built from the app's own files.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::core::formats::link::{params, Embed, Page, Part};
use crate::core::formats::scorm;
use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::Msg;
use crate::core::teaching::exercise::Exercises;
use crate::ui::export::download_bytes;
use crate::ui::fields::{accept, IntegerField};
use crate::ui::lang::{course_lang, lang, t, word};
use crate::ui::scroll::scroll_to;
use crate::ui::share::{fragment_now, page_url};
use crate::ui::state::{use_app, AppState};

/// The query that opens `draft`, embedded or not.
fn exercise_query(state: AppState, draft: &Exercises, embedded: bool) -> String {
    let shown = untrack(|| state.shown());
    let embed = Embed::default();
    params::write(
        &Page {
            model: "",
            preset: None,
            shown: &shown,
            embed: embedded.then_some(&embed),
            at: None,
            exercises: Some(draft),
            lang: course_lang(),
        },
        Part::Query,
    )
}

/// The bytes at `path` (beside the page).
async fn fetch_bytes(path: &str) -> Result<Vec<u8>, Msg> {
    use wasm_bindgen::JsCast;
    let failed = || say::not_fetched(path);
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(path))
        .await
        .map_err(|_| failed())?
        .dyn_into()
        .map_err(|_| failed())?;
    if !response.ok() {
        return Err(say::server_said(path, response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|_| failed())?)
        .await
        .map_err(|_| failed())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The SCORM 1.2 package of `draft`: the app's files as this server has them (the build's own
/// list, `build.json`: what the page fetches, first and later; not the service worker, which
/// an LMS cannot serve), with the adapter, a launch page and the manifest.
async fn scorm_package(
    query: String,
    fragment: String,
    pass_mark: u8,
) -> Result<(Vec<u8>, usize), Msg> {
    let index = String::from_utf8(fetch_bytes("index.html").await?)
        .map_err(|_| say::not_text("index.html"))?;
    let list = scorm::app_files(&fetch_bytes(scorm::BUILD_LIST).await?)?;
    let mut files = vec![(
        "index.html".to_owned(),
        scorm::with_adapter(&index, pass_mark).into_bytes(),
    )];
    for path in list {
        let bytes = fetch_bytes(&path).await?;
        files.push((path, bytes));
    }
    files.push((
        scorm::ADAPTER.to_owned(),
        fetch_bytes(scorm::ADAPTER).await?,
    ));
    files.push((
        scorm::LAUNCH.to_owned(),
        scorm::launch_page(
            &query,
            &fragment,
            untrack(lang),
            &word(&say::package_title.into()),
            &word(&say::open_exercise.into()),
        )
        .into_bytes(),
    ));
    let names: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let manifest = scorm::manifest(&word(&say::package_title.into()), &names);
    files.insert(0, ("imsmanifest.xml".to_owned(), manifest.into_bytes()));
    Ok((scorm::zip(&files)?, files.len()))
}

/// The SCORM package's file name.
const PACKAGE: &str = "attention-explorer-exercise.zip";

/// The link, the embed button and the SCORM package of the exercise being made.
#[component]
pub(super) fn Publish() -> impl IntoView {
    let state = use_app();
    let draft = state.exercises.draft;
    // The model's code once per edit, for both addresses.
    let fragment = Memo::new(move |_| {
        state.doc.model.track();
        fragment_now(state)
    });
    let link = Memo::new(move |_| {
        draft.with(|d| page_url(&exercise_query(state, d, false), &fragment.get()))
    });
    let packing = RwSignal::new(None::<(bool, Msg)>);
    let pass_mark = RwSignal::new(u64::from(scorm::DEFAULT_PASS_MARK));
    let scorm = move |_| {
        let query = draft.with_untracked(|d| exercise_query(state, d, true));
        let fragment = fragment_now(state);
        let pass = pass_mark.get_untracked() as u8;
        packing.set(Some((true, say::packing.into())));
        leptos::task::spawn_local(async move {
            let said = match scorm_package(query, fragment, pass).await {
                Ok((zip, count)) => {
                    download_bytes(PACKAGE, "application/zip", &zip);
                    (true, say::downloaded(PACKAGE, count, zip.len() / 1024))
                }
                Err(e) => (false, say::no_package(e)),
            };
            packing.set(Some(said));
        });
    };
    let empty = move || draft.with(|d| d.list.is_empty());
    // A package holds the app's files, not a trained model's (tens of MB): it could not run.
    let trained = Memo::new(move |_| state.doc.model.with(|m| m.layered().is_some()));
    view! {
            <label class="field wide">
                <span>{t(say::link)}</span>
                <input type="text" readonly data-export="exercise-link" prop:value=move || link.get()/>
            </label>
            <p><a href=move || link.get() target="_blank" rel="noopener" data-action="author-try">{t(say::try_it)}</a></p>
            // One snippet writer: the Embed dialog's, which measures the frame's height in its
            // preview and starts from the steps the exercise needs.
            <p>
                <button type="button" data-action="author-embed" disabled=empty on:click=move |_| {
                    state.page.embedding.set(true);
                    request_animation_frame(|| scroll_to("embed-dialog".into()));
                }>{t(say::embed_exercise)}</button>
            </p>
            <div class="exercise-actions">
                <IntegerField control="scorm-pass-mark" label=say::pass_mark min=0 max=100 value=pass_mark.into() on_change=accept(move |n| pass_mark.set(n))/>
                <button type="button" data-action="scorm" disabled=move || empty() || trained.get() aria-describedby="scorm-refused" on:click=scorm>
                    {t(say::download_scorm)}
                </button>
            </div>
            <p class="note" id="scorm-refused" data-stat="scorm-refused" hidden=move || !trained.get()>
                {t(say::scorm_refused)}
            </p>
            <p class="note" data-stat="progress-where">
                {move || with_code(word(&say::progress_where(CODE[0].0, CODE[1].0)))}
            </p>
            {move || packing.get().map(|(ok, said)| view! { <p class=if ok { "field-ok" } else { "field-error" } role="status">{move || word(&said)}</p> })}
    }
}

/// The code words of the note on progress, each with the mark that stands for it in the worded
/// sentence (a translation places them).
const CODE: [(char, &str); 2] = [('\u{1}', "progress"), ('\u{2}', "restore-progress")];

/// `text` with each mark of [`CODE`] shown as its code word.
fn with_code(text: String) -> impl IntoView {
    text.split_inclusive(CODE.map(|(mark, _)| mark))
        .map(|piece| {
            let code = CODE.iter().find(|(mark, _)| piece.ends_with(*mark));
            let words = code.map_or(piece, |(mark, _)| piece.trim_end_matches(*mark));
            view! { {words.to_owned()} {code.map(|(_, c)| view! { <code>{*c}</code> })} }
        })
        .collect_view()
}
