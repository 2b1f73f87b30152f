//! "Make an exercise": a teacher picks a cell in any computed table, asks it, sets a goal on it
//! or asks for its row to be predicted, ticks what to lock, and gets the link and the embed
//! snippet (the Embed dialog carries the exercise too). No parameter is written by hand. The
//! panel is a wasm chunk of its own: learners never open it.

use leptos::prelude::*;

use crate::core::formats::link::{params, Embed, Page, Part};
use crate::core::formats::scorm;
use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::teaching::exercise::{lockable, Exercises, Kind};
use crate::core::views::pipeline::in_order;
use crate::ui::export::download_bytes;
use crate::ui::fields::{accept, IntegerField};
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::scroll::scroll_to;
use crate::ui::share::{fragment_now, page_url};
use crate::ui::state::{use_app, AppState};
use crate::ui::steps::text as steps_text_of;
use wasm_bindgen_futures::JsFuture;

/// The button that opens the panel.
#[component]
pub fn AuthorButton() -> impl IntoView {
    let open = use_app().exercises.authoring;
    view! { <PanelButton action="author" label="Make an exercise" load=author_panel what="the exercise maker" open=open/> }
}

chunk! {
    /// The exercise maker.
    author_panel => AuthorPanel().into_any()
}

/// The query that opens `draft`, embedded or not.
fn exercise_query(state: AppState, draft: &Exercises, embedded: bool) -> String {
    let shown = untrack(|| state.shown());
    let embed = Embed::default();
    params::write(
        &Page {
            model: "",
            shown: &shown,
            embed: embedded.then_some(&embed),
            at: None,
            exercises: Some(draft),
        },
        Part::Query,
    )
}

/// The bytes at `path` (beside the page).
async fn fetch_bytes(path: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    let failed = || format!("{path} could not be fetched");
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(path))
        .await
        .map_err(|_| failed())?
        .dyn_into()
        .map_err(|_| failed())?;
    if !response.ok() {
        return Err(format!("{path}: the server said {}", response.status()));
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
) -> Result<(Vec<u8>, usize), String> {
    let index = String::from_utf8(fetch_bytes("index.html").await?)
        .map_err(|_| "index.html is not text")?;
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
        scorm::launch_page(&query, &fragment).into_bytes(),
    ));
    let names: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let manifest = scorm::manifest("Attention Explorer exercise", &names);
    files.insert(0, ("imsmanifest.xml".to_owned(), manifest.into_bytes()));
    Ok((scorm::zip(&files)?, files.len()))
}

/// The SCORM package's file name.
const PACKAGE: &str = "attention-explorer-exercise.zip";

#[component]
fn AuthorPanel() -> impl IntoView {
    let state = use_app();
    let exercises = state.exercises;
    let (draft, picked) = (exercises.draft, exercises.picked);
    let error = RwSignal::new(None::<String>);
    // A new pick answers "Pick a cell first" (and any message about the last one).
    Effect::new(move |_| {
        picked.track();
        error.set(None);
    });
    let close = move || exercises.authoring.set(false);
    // Esc closes the maker (unless a field used it), as it closes the walk.
    let esc = window_event_listener(leptos::ev::keydown, move |e| {
        if e.key() == "Escape" && !e.default_prevented() {
            close();
        }
    });
    on_cleanup(move || esc.remove());
    let side = RwSignal::new(true);
    let bound = RwSignal::new("0.5".to_owned());
    let add = move |kind: Kind| {
        let Some(cell) = picked.get_untracked() else {
            error.set(Some(
                "Pick a cell first: click a number in a table below.".into(),
            ));
            return;
        };
        let entry = match kind {
            Kind::Ask => cell.text(),
            Kind::Predict => format!("weights.{}:{}", cell.head.unwrap_or(0), cell.row),
            Kind::Goal => format!(
                "{}{}{}",
                cell.text(),
                if side.get_untracked() { ">=" } else { "<=" },
                bound.get_untracked().trim()
            ),
        };
        let mut next = draft.get_untracked();
        let added = state
            .doc
            .model
            .with_untracked(|m| next.add(kind, &entry, m));
        match added {
            Ok(()) => {
                draft.set(next);
                error.set(None);
            }
            Err(e) => error.set(Some(format!("{e}."))),
        }
    };
    let toggle_lock = move |matrix: Matrix, on: bool| {
        let mut next = draft.get_untracked();
        let mut names: Vec<&str> = next.locks.iter().map(|m| m.key()).collect();
        names.retain(|n| *n != matrix.key());
        if on {
            names.push(matrix.key());
        }
        let read = state
            .doc
            .model
            .with_untracked(|m| next.read_locks(&names.join(","), m));
        match read {
            Ok(()) => {
                draft.set(next);
                error.set(None);
            }
            Err(e) => error.set(Some(format!("Not locked: {e}."))),
        }
    };
    let lockable_here: Vec<Matrix> = state.doc.model.with_untracked(|m| {
        lockable()
            .filter(|&k| {
                Editable::EVERY
                    .into_iter()
                    .any(|e| Matrix::of(e) == k && m.matrix(e).is_some())
            })
            .collect()
    });
    // The model's code once per edit, for both addresses.
    let fragment = Memo::new(move |_| {
        state.doc.model.track();
        fragment_now(state)
    });
    let link = Memo::new(move |_| {
        draft.with(|d| page_url(&exercise_query(state, d, false), &fragment.get()))
    });

    let picked_text = move || {
        match picked.get() {
        Some(cell) => state.derived.trace.with(|t| format!("Picked: {}.", cell.describe(t))),
        None => "Click a number in any computed table below (Q, K, V, scores, weights, context, output) to pick it.".into(),
    }
    };
    let packing = RwSignal::new(None::<(bool, String)>);
    let pass_mark = RwSignal::new(u64::from(scorm::DEFAULT_PASS_MARK));
    let scorm = move |_| {
        let query = draft.with_untracked(|d| exercise_query(state, d, true));
        let fragment = fragment_now(state);
        let pass = pass_mark.get_untracked() as u8;
        packing.set(Some((true, "Packing the app and the exercise…".into())));
        leptos::task::spawn_local(async move {
            let said = match scorm_package(query, fragment, pass).await {
                Ok((zip, count)) => {
                    download_bytes(PACKAGE, "application/zip", &zip);
                    (true, format!("Downloaded {PACKAGE} ({count} files, {} KB): upload it to the course as a SCORM package.", zip.len() / 1024))
                }
                Err(e) => (false, format!("No package: {e}.")),
            };
            packing.set(Some(said));
        });
    };
    let shape = state.derived.shape.get_untracked();
    let on_page = in_order(|s| s.on_page(shape));
    let is_weights = move || picked.with(|p| p.is_some_and(|c| c.matrix == Matrix::Weights));
    view! {
        <div class="author-panel" role="region" aria-label="Make an exercise">
            <div class="author-head">
                <h2 class="author-title">"Make an exercise"</h2>
                <button type="button" class="author-close" data-action="author-close" aria-label="Close the exercise maker" on:click=move |_| close()>"×"</button>
            </div>
            <p data-stat="author_picked">{picked_text}</p>
            <div class="exercise-actions">
                <button type="button" data-action="author-ask" disabled=move || picked.with(Option::is_none) on:click=move |_| add(Kind::Ask)>"Ask this"</button>
                <button type="button" data-action="author-predict" disabled=move || !is_weights() title="A row of the weights" on:click=move |_| add(Kind::Predict)>"Predict this row"</button>
            </div>
            <div class="exercise-actions">
                <label class="field">
                    <span>"Goal"</span>
                    <select data-control="author-bound-side" on:change=move |ev| side.set(event_target_value(&ev) == ">=")>
                        <option value=">=" selected>"at least"</option>
                        <option value="<=">"at most"</option>
                    </select>
                </label>
                <label class="field">
                    <span class="visually-hidden">"Bound"</span>
                    <input type="text" inputmode="decimal" size="6" data-control="author-bound" prop:value=move || bound.get() on:input=move |ev| bound.set(event_target_value(&ev))/>
                </label>
                <button type="button" data-action="author-goal" disabled=move || picked.with(Option::is_none) on:click=move |_| add(Kind::Goal)>"Set a goal here"</button>
            </div>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <ul class="author-list" aria-label="The exercise so far">
                {move || draft.with(|d| d.list.iter().enumerate().map(|(k, e)| {
                    let words = state.derived.trace.with_untracked(|t| e.question(t));
                    view! {
                        <li data-draft=e.id()>
                            {words}
                            " "
                            <button type="button" data-action="author-remove" on:click=move |_| draft.update(|d| { if k < d.list.len() { d.list.remove(k); } })>"Remove"</button>
                        </li>
                    }
                }).collect_view())}
            </ul>
            {move || draft.with(|d| d.leaked_by(&on_page)).into_iter().map(|(asked, step, how)| view! {
                <p class="note" data-stat="author-leak">
                    {format!("The link shows every step, and step {} ({}) gives {} away: {how}. The embed leaves it out.", step.number(shape), steps_text_of(step).short_title, asked.id())}
                </p>
            }).collect_view()}
            <fieldset class="author-locks">
                <legend>"Lock (the learner may not edit)"</legend>
                {lockable_here.into_iter().map(|matrix| view! {
                    <label class="field check">
                        <input type="checkbox" data-control="author-lock" value=matrix.key()
                            prop:checked=move || draft.with(|d| d.locked(matrix))
                            on:change=move |ev| toggle_lock(matrix, event_target_checked(&ev))/>
                        <span>{matrix.key()}</span>
                    </label>
                }).collect_view()}
            </fieldset>
            <label class="field wide">
                <span>"Link"</span>
                <input type="text" readonly data-export="exercise-link" prop:value=move || link.get()/>
            </label>
            <p><a href=move || link.get() target="_blank" rel="noopener" data-action="author-try">"Try it as a learner"</a></p>
            // One snippet writer: the Embed dialog's, which measures the frame's height in its
            // preview and starts from the steps the exercise needs.
            <p>
                <button type="button" data-action="author-embed" disabled=move || draft.with(|d| d.list.is_empty()) on:click=move |_| {
                    state.page.embedding.set(true);
                    request_animation_frame(|| scroll_to("embed-dialog".into()));
                }>"Embed this exercise…"</button>
            </p>
            <div class="exercise-actions">
                <IntegerField control="scorm-pass-mark" label="Pass mark (% of the score)" min=0 max=100 value=pass_mark.into() on_change=accept(move |n| pass_mark.set(n))/>
                <button type="button" data-action="scorm" disabled=move || draft.with(|d| d.list.is_empty()) on:click=scorm>
                    "Download as SCORM package"
                </button>
            </div>
            <p class="note" data-stat="progress-where">
                "Where a learner's progress lives: on a page of your own site, in their browser, per exercise link; in a sandboxed frame, only if your course page keeps the "
                <code>"progress"</code>
                " each result message carries and sends it back ("
                <code>"restore-progress"</code>
                ", docs/teachers.md); in the SCORM package, in the LMS, so a relaunch resumes. The package reports passed or failed once every exercise has a final result."
            </p>
            {move || packing.get().map(|(ok, words)| view! { <p class=if ok { "field-ok" } else { "field-error" } role="status">{words}</p> })}
        </div>
    }
}
