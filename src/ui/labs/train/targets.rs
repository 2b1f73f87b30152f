//! The training lab's targets, as a learner thinks of them: "make this token attend to that
//! one" (in this head), one row each; or "match an output". Every choice is written to the
//! store's [`Setup`], which the link carries.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::model::tokens::token_label;
use crate::core::model::Matrix;
use crate::core::training::lab::{start_target, Setup, MAX_TARGETS};
use crate::core::training::{Param, Target};
use crate::core::views::lines::visible;
use crate::ui::lang::{self, word, Label};
use crate::ui::matrix::caption;
use crate::ui::state::use_app;

/// The rows of targets, with Add and Remove.
#[component]
pub fn Targets(
    /// The targets trained towards now (the learner's, else the lab's default one).
    targets: Memo<Vec<Target>>,
) -> impl IntoView {
    let state = use_app();
    // The key a query starts at: the one it attends to second most.
    let key_for = move |head: usize, query: usize| {
        state.doc.model.with_untracked(|m| {
            state
                .derived
                .trace
                .with_untracked(|t| start_target(m, t, head, query).key)
        })
    };
    // Any change writes the whole list, so the default target becomes the learner's.
    let write = move |list: Vec<Target>| state.view.training.update(|s| s.targets = list);
    let set = move |k: usize, change: &dyn Fn(&mut Target)| {
        let mut list = targets.get_untracked();
        if let Some(t) = list.get_mut(k) {
            change(t);
            if !visible(state.derived.causal.get_untracked(), t.query, t.key) {
                t.key = key_for(t.head, t.query);
            }
        }
        write(list);
    };
    let add = move |_: leptos::ev::MouseEvent| {
        let mut list = targets.get_untracked();
        let n = state.derived.words.with_untracked(Vec::len);
        // The next query not yet in the list, from the end of the sentence.
        let query = (0..n)
            .rev()
            .find(|q| list.iter().all(|t| t.query != *q))
            .unwrap_or(0);
        let head = list.first().map_or(0, |t| t.head);
        list.push(Target {
            head,
            query,
            key: key_for(head, query),
        });
        write(list);
    };
    let options = move |words: Memo<Vec<String>>, chosen: usize, shown: &dyn Fn(usize) -> bool| {
        (0..words.with(Vec::len))
            .filter(|&j| shown(j))
            .map(|j| view! { <option value=j.to_string() selected=j == chosen>{let label = words.with(|w| token_label(w, j)); move || label.as_ref().map(word).unwrap_or_default()}</option> })
            .collect_view()
    };
    let row = move |(k, t): (usize, Target)| {
        state.derived.key_words.track();
        let heads = state.derived.heads.get();
        let causal = state.derived.causal.get();
        let number =
            move |ev: leptos::ev::Event| event_target_value(&ev).parse::<usize>().unwrap_or(0);
        view! {
            <li class="train-target">
                {(heads > 1).then(|| view! {
                    <label class="field"><span>{lang::t(labs::target_head)}</span>
                        <select data-control="train-head" on:change=move |ev| { let h = number(ev); set(k, &|t| t.head = h) }>
                            {(0..heads).map(|h| view! { <option value=h.to_string() selected=h == t.head>{h}</option> }).collect_view()}
                        </select>
                    </label>
                })}
                <label class="field"><span>{lang::t(labs::target_make)}</span>
                    <select data-control="train-query" on:change=move |ev| {
                        let q = number(ev);
                        set(k, &|t| { t.query = q; t.key = key_for(t.head, q); })
                    }>{options(state.derived.words, t.query, &|_| true)}</select>
                </label>
                <label class="field"><span>{lang::t(labs::target_attend_to)}</span>
                    <select data-control="train-key" on:change=move |ev| { let j = number(ev); set(k, &|t| t.key = j) }>
                        {options(state.derived.key_words, t.key, &|j| visible(causal, t.query, j))}
                    </select>
                </label>
                {(targets.with(Vec::len) > 1).then(|| view! {
                    <button type="button" class="remove" data-action="train-remove" aria-label=move || word(&labs::remove_target(k + 1)) on:click=move |_| {
                        let mut list = targets.get_untracked();
                        list.remove(k);
                        write(list);
                    }>"✕"</button>
                })}
            </li>
        }
    };
    view! {
        <ul class="train-targets">{move || targets.get().into_iter().enumerate().map(row).collect_view()}</ul>
        <button type="button" data-action="train-add" disabled={move || targets.with(Vec::len) >= MAX_TARGETS} on:click=add>{lang::t(labs::another_target)}</button>
    }
}

/// The checkboxes of what trains.
#[component]
pub fn Trains() -> impl IntoView {
    let state = use_app();
    let names = Param::ALL.map(|p| {
        let key = p.key();
        (p, Matrix::named(key).map_or(Label::Text(key), caption))
    });
    view! {
        <fieldset class="field trains">
            <legend>{lang::t(labs::trains)}</legend>
            {names.into_iter().map(|(param, title)| view! {
                // Only what the model has: biases and W_output while they are on.
                <label hidden=move || state.doc.model.with(|m| !param.in_model(m))>
                    <input type="checkbox" data-control="train-param" value=param.key()
                        prop:checked=move || state.view.training.with(|s| s.train.contains(&param))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            state.view.training.update(|s: &mut Setup| {
                                s.train.retain(|p| *p != param);
                                if on {
                                    s.train.push(param);
                                }
                            });
                        }/>
                    {move || title.word()}
                </label>
            }).collect_view()}
            {move || state.view.training.with(|s| s.train.is_empty()).then(|| view! {
                <span class="field-error" role="alert">{lang::t(labs::nothing_trains)}</span>
            })}
        </fieldset>
    }
}
