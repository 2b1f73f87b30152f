//! "Make an exercise": a teacher picks a cell in any computed table, asks it, sets a goal on it
//! or asks for its row to be predicted, ticks what to lock, and gets the link and the embed
//! snippet (the Embed dialog carries the exercise too). No parameter is written by hand. The
//! panel is a wasm chunk of its own: learners never open it.

use leptos::prelude::*;

use crate::core::model::Matrix;
use crate::core::teaching::exercise::Kind;
use crate::core::views::pipeline::in_order;
use crate::ui::lang::word;
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::state::use_app;
use crate::ui::steps::text as steps_text_of;

mod locks;
mod publish;

use locks::Locks;
use publish::Publish;

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
    let picked_text = move || {
        match picked.get() {
        Some(cell) => state.derived.trace.with(|t| format!("Picked: {}.", cell.describe(t))),
        None => "Click a number in any computed table below (Q, K, V, scores, weights, context, output) to pick it.".into(),
    }
    };
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
            <DraftList/>
            <Locks error=error/>
            <Publish/>
        </div>
    }
}

/// The exercise so far, each entry with its Remove button, and what the page's steps would give
/// away.
#[component]
fn DraftList() -> impl IntoView {
    let state = use_app();
    let draft = state.exercises.draft;
    let shape = state.derived.shape.get_untracked();
    let on_page = in_order(|s| s.on_page(shape));
    view! {
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
                {format!("The link shows every step, and step {} ({}) gives {} away: {how}. The embed leaves it out.", step.number(shape), word(&steps_text_of(step).short_title.into()), asked.id())}
            </p>
        }).collect_view()}
    }
}
