//! The maker's locks: the matrices of this model a learner may not edit.

use leptos::prelude::*;

use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::Msg;
use crate::core::model::{Editable, Matrix};
use crate::core::teaching::exercise::lockable;
use crate::ui::lang::t;
use crate::ui::state::use_app;

/// A box per lockable matrix the model has; a lock the draft refuses is said in `error`.
#[component]
pub(super) fn Locks(error: RwSignal<Option<Msg>>) -> impl IntoView {
    let state = use_app();
    let draft = state.exercises.draft;
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
            Err(e) => error.set(Some(say::not_locked(e))),
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

    view! {
        <fieldset class="author-locks">
            <legend>{t(say::lock_legend)}</legend>
            {lockable_here.into_iter().map(|matrix| view! {
                <label class="field check">
                    <input type="checkbox" data-control="author-lock" value=matrix.key()
                        prop:checked=move || draft.with(|d| d.locked(matrix))
                        on:change=move |ev| toggle_lock(matrix, event_target_checked(&ev))/>
                    <span>{matrix.key()}</span>
                </label>
            }).collect_view()}
        </fieldset>
    }
}
