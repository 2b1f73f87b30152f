//! A card's buttons: an asked cell's Check and Show me (with the page's own breakdown once
//! revealed), a prediction's choice and its check.

use leptos::prelude::*;

use crate::core::forward::softmax::is_future;
use crate::core::i18n::keys::exercises as say;
use crate::core::model::Matrix;
use crate::core::teaching::exercise::{Exercise, Outcome, Progress};
use crate::ui::lang::{t, word};
use crate::ui::state::{AppState, Detail};

/// An asked cell's Check and Show me; once shown, the page's own breakdown of the cell.
pub(super) fn ask_actions(
    state: AppState,
    index: usize,
    progress: Memo<Progress>,
) -> impl IntoView {
    let exercises = state.exercises;
    let open = move || !progress.with(|p| p.done());
    // Once revealed, the page's own breakdown of a score or a context row shows it worked out.
    let explain = move || {
        let revealed = progress.with_untracked(|p| p.outcome == Outcome::Revealed);
        if let (true, Some(Exercise::Ask(cell))) = (revealed, exercises.exercise(index)) {
            let (head, query) = (cell.head.unwrap_or(0), cell.row);
            match cell.matrix {
                Matrix::Scores => state.view.detail.set(Some(Detail::Score {
                    head,
                    query,
                    key: cell.col,
                })),
                Matrix::Context => state.view.detail.set(Some(Detail::Context { head, query })),
                _ => {}
            }
        }
    };
    let check = move || {
        state.derived.trace.with_untracked(|t| {
            exercises.check(index, t, state.view.look.precision.get_untracked())
        });
        explain();
    };
    // Enter in the cell's answer field.
    Effect::new(move |_| {
        if exercises.submitted.get() == Some(index) {
            exercises.submitted.set(None);
            check();
        }
    });
    let reveal = move |_| {
        state.derived.trace.with_untracked(|t| {
            exercises.reveal(index, t, state.view.look.precision.get_untracked())
        });
        explain();
    };
    view! {
        <p class="exercise-actions" hidden=move || !open()>
            <button type="button" data-action="check" on:click=move |_| check()>{t(say::check)}</button>
            <button type="button" data-action="reveal" on:click=reveal>{t(say::show_me)}</button>
        </p>
    }
}

/// A prediction's choices and its check.
pub(super) fn predict_actions(
    state: AppState,
    index: usize,
    head: usize,
    row: usize,
    progress: Memo<Progress>,
) -> impl IntoView {
    let exercises = state.exercises;
    let choice = RwSignal::new(None::<usize>);
    // A new sentence rebuilds the options: the choice made among the old ones is gone.
    Effect::new(move |_| {
        state.derived.key_words.track();
        choice.set(None);
    });
    let confirm = move |_| match choice.get_untracked() {
        Some(k) => state
            .derived
            .trace
            .with_untracked(|t| exercises.predict(index, k, t)),
        None => exercises.say(index, Some(say::choose_first.into())),
    };
    // The words the row may attend to (under the mask, those up to it).
    let options = move || {
        let causal = state.derived.causal.get();
        state
            .derived
            .key_words
            .get()
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| !(causal && is_future(row, k)))
            .map(|(k, w)| view! { <option value=k.to_string()>{w}</option> })
            .collect_view()
    };
    let id = format!("predict-{index}");
    view! {
        <p class="exercise-actions" hidden=move || progress.with(|p| p.attempts > 0)>
            <label for=id.clone()>{move || word(&say::attends_most(head))}</label>
            <select
                id=id
                data-control="predict"
                on:change=move |ev| choice.set(event_target_value(&ev).parse().ok())
            >
                <option value="" selected>{t(say::choose_word)}</option>
                {options}
            </select>
            <button type="button" data-action="predict" on:click=confirm>{t(say::confirm)}</button>
        </p>
        <p class="note" hidden=move || progress.with(|p| p.attempts > 0 || p.outcome != Outcome::Open)>
            {t(say::weights_hidden)}
        </p>
    }
}
