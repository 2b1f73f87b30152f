//! "Make an exercise": a teacher picks a cell in any computed table, asks it, sets a goal on it
//! or asks for its row to be predicted, ticks what to lock, and gets the link and the embed
//! snippet (the Embed dialog carries the exercise too). No parameter is written by hand. The
//! panel is a wasm chunk of its own: learners never open it.

use leptos::prelude::*;

use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::Msg;
use crate::core::model::Matrix;
use crate::core::teaching::exercise::Kind;
use crate::core::views::pipeline::in_order;
use crate::ui::lang::{t, word};
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
    view! { <PanelButton action="author" label=say::make load=author_panel what=say::the_maker open=open/> }
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
    let error = RwSignal::new(None::<Msg>);
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
            error.set(Some(say::pick_first.into()));
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
            Err(e) => error.set(Some(say::not_added(e))),
        }
    };
    let picked_text = move || {
        word(&match picked.get() {
            Some(cell) => state.derived.trace.with(|t| say::picked(cell.describe(t))),
            None => say::pick_hint.into(),
        })
    };
    let is_weights = move || picked.with(|p| p.is_some_and(|c| c.matrix == Matrix::Weights));
    view! {
        <div class="author-panel" role="region" aria-label=t(say::make)>
            <div class="author-head">
                <h2 class="author-title">{t(say::make)}</h2>
                <button type="button" class="author-close" data-action="author-close" aria-label=t(say::close_maker) on:click=move |_| close()>"×"</button>
            </div>
            <p data-stat="author_picked">{picked_text}</p>
            <div class="exercise-actions">
                <button type="button" data-action="author-ask" disabled=move || picked.with(Option::is_none) on:click=move |_| add(Kind::Ask)>{t(say::ask_this)}</button>
                <button type="button" data-action="author-predict" disabled=move || !is_weights() title=t(say::a_weights_row) on:click=move |_| add(Kind::Predict)>{t(say::predict_row)}</button>
            </div>
            <div class="exercise-actions">
                <label class="field">
                    <span>{t(say::goal_label)}</span>
                    <select data-control="author-bound-side" on:change=move |ev| side.set(event_target_value(&ev) == ">=")>
                        <option value=">=" selected>{t(say::at_least)}</option>
                        <option value="<=">{t(say::at_most)}</option>
                    </select>
                </label>
                <label class="field">
                    <span class="visually-hidden">{t(say::bound_label)}</span>
                    <input type="text" inputmode="decimal" size="6" data-control="author-bound" prop:value=move || bound.get() on:input=move |ev| bound.set(event_target_value(&ev))/>
                </label>
                <button type="button" data-action="author-goal" disabled=move || picked.with(Option::is_none) on:click=move |_| add(Kind::Goal)>{t(say::set_goal)}</button>
            </div>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert">{move || word(&e)}</p> })}
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
        <ul class="author-list" aria-label=t(say::so_far)>
            {move || draft.with(|d| d.list.iter().enumerate().map(|(k, e)| {
                let question = state.derived.trace.with_untracked(|t| e.question(t));
                view! {
                    <li data-draft=e.id()>
                        {move || word(&question)}
                        " "
                        <button type="button" data-action="author-remove" on:click=move |_| draft.update(|d| { if k < d.list.len() { d.list.remove(k); } })>{t(say::remove)}</button>
                    </li>
                }
            }).collect_view())}
        </ul>
        {move || draft.with(|d| d.leaked_by(&on_page)).into_iter().map(|(asked, step, how)| view! {
            <p class="note" data-stat="author-leak">
                {move || word(&say::author_leak(step.number(shape), steps_text_of(step).short_title, asked.id(), how))}
            </p>
        }).collect_view()}
    }
}
