//! The edit bar that sticks to the top of the page: undo, redo, reset, and the mask, the
//! scaling, the followed token and the head shown.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::document::history::History;
use crate::core::formats::link::Controls as Level;
use crate::core::i18n::keys::{page, settings};
use crate::core::i18n::Msg;
use crate::core::model::tokens::token_label;
use crate::core::model::Scale;
use crate::ui::fields::{apply_or_say, clause, refusal};
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

/// What an edit needs at hand at every step, so it sticks to the top of the page: undo, redo and
/// reset (in every embed too: a phone has no Ctrl+Z), and, unless `controls=none`, the mask,
/// the scaling, the followed token and the head shown.
#[component]
pub(super) fn EditBar(level: Level) -> impl IntoView {
    let state = use_app();
    // Why Reset changed nothing (an exercise's lock); gone with the next change of the model.
    let refused = RwSignal::new(None::<Msg>);
    let causal_refused = RwSignal::new(None::<Msg>);
    let scale_refused = RwSignal::new(None::<Msg>);
    view! {
        <div class="edit-bar" role="group" aria-label=t(settings::edit_and_follow)>
            <div class="field buttons">
                <button type="button" data-action="undo" title=t(settings::undo_title) disabled=move || !state.doc.history.with(History::can_undo) on:click=move |_| { state.apply(Edit::Undo).ok(); }>
                    {t(settings::undo)}
                </button>
                <button type="button" data-action="redo" title=t(settings::redo_title) disabled=move || !state.doc.history.with(History::can_redo) on:click=move |_| { state.apply(Edit::Redo).ok(); }>
                    {t(settings::redo)}
                </button>
                <button type="button" data-action="reset" title=t(settings::reset_title) on:click=move |_| refused.set(state.reset().err().map(|e| page::not_reset(clause(e))))>
                    {t(settings::reset)}
                </button>
                {refusal("reset-refused".into(), refused)}
            </div>
            {(level != Level::None).then(|| view! {
                <label class="field check">
                    <input
                        type="checkbox"
                        data-control="causal"
                        prop:checked=move || state.derived.causal.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            apply_or_say(state, Edit::Causal(on), settings::causal_mask, causal_refused, move || input.set_checked(!on));
                        }
                    />
                    <span>{t(settings::causal_mask)}</span>
                    {refusal("causal-refused".into(), causal_refused)}
                </label>
                <label class="field">
                    <span>{t(settings::scale_scores)}</span>
                    <select
                        data-control="scale"
                        prop:value=move || state.structure(|m| m.scale.key())
                        on:change=move |ev| {
                            if let Some(scale) = Scale::from_key(&event_target_value(&ev)) {
                                let select = event_target::<web_sys::HtmlSelectElement>(&ev);
                                let now = state.doc.model.with_untracked(|m| m.scale.key());
                                apply_or_say(state, Edit::Scale(scale), settings::scale_scores, scale_refused, move || select.set_value(now));
                            }
                        }
                    >
                        <option value="sqrt_dk">{Scale::SqrtDk.label()}</option>
                        <option value="dk">{Scale::Dk.label()}</option>
                        <option value="none">{t(settings::no_scaling)}</option>
                    </select>
                    {refusal("scale-refused".into(), scale_refused)}
                </label>
                <label class="field">
                    <span>{t(settings::following)}</span>
                    // Each option says whether it is the one: the list is rebuilt as the sentence is typed.
                    <select
                        data-control="follow"
                        on:change=move |ev| {
                            if let Ok(k) = event_target_value(&ev).parse() {
                                state.view.followed.set(Some(k));
                            }
                        }
                    >
                        // Named as the tables' rows are, by word; a word used twice by which one it is.
                        {move || {
                            let words = state.derived.words.get();
                            (0..words.len()).map(|k| view! {
                                <option value=k.to_string() prop:selected=move || state.derived.followed_or_last.get() == k>{let label = token_label(&words, k); move || label.as_ref().map(word).unwrap_or_default()}</option>
                            }).collect_view()
                        }}
                    </select>
                </label>
                <HeadPicker/>
            })}
        </div>
    }
}

/// Which head to show when they do not all fit; absent while every head is shown.
#[component]
pub(super) fn HeadPicker() -> impl IntoView {
    let state = use_app();
    let needed =
        move || state.derived.heads.get() > 1 && state.derived.visible_heads.with(|v| v.len() == 1);
    view! {
        <Show when=needed>
            <label class="field">
                <span>{t(settings::showing_head)}</span>
                <select
                    data-control="head"
                    prop:value=move || state.derived.visible_heads.with(|v| v[0].to_string())
                    on:change=move |ev| {
                        if let Ok(h) = event_target_value(&ev).parse() {
                            state.view.focused_head.set(h);
                        }
                    }
                >
                    {move || (0..state.derived.heads.get()).map(|h| view! { <option value=h.to_string()>{word(&settings::head_of(h, state.derived.heads.get()))}</option> }).collect_view()}
                </select>
            </label>
        </Show>
    }
}
