//! Step 1: the sentence becomes tokens, ids and a sorted vocabulary.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::i18n::keys::{steps, views};
use crate::core::i18n::Msg;
use crate::core::model::presets::{hand_made_rows, untaught_words};
use crate::core::model::tokens::invisible_characters;
use crate::core::model::Editable;
use crate::core::views::pipeline::Step;
use crate::ui::lang;
use crate::ui::lang::{figure, with_figures};
use crate::ui::pause::AfterPause;
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};

/// How long a trained model's sentence waits for the typing to pause.
const TRAINED_PAUSE: std::time::Duration = std::time::Duration::from_millis(150);

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::sentence_short_title,
    formula: steps::sentence_formula,
    explain: steps::sentence_explain,
    hint: steps::sentence_hint,
    dog: Some(steps::sentence_dog),
    lab: None,
};

#[component]
pub fn SentenceStep() -> impl IntoView {
    let state = use_app();
    let error = RwSignal::new(None::<Msg>);
    // Of the model's structure: an edit of a number rebuilds nothing here.
    let tokens = Memo::new(move |_| state.structure(|m| m.tokens().clone()));
    let sentence = Memo::new(move |_| state.structure(|m| m.sentence().to_owned()));
    // A trained model's pieces and their ids in its own vocabulary.
    let pieces = Memo::new(move |_| state.structure(|m| m.layered().map(|l| l.ids.clone())));

    // Each keystroke retokenises; words already known keep their embedding rows.
    let retokenise = move |text: String| match state.apply(Edit::Sentence(text)) {
        Ok(()) => error.set(None),
        Err(e) => error.set(Some(views::sentence_refused(e))),
    };
    // A trained model runs the layers below the page's on each new sentence (57 ms a keystroke
    // at layer 5): it waits for a pause in the typing.
    let typed = StoredValue::new(String::new());
    let pause = AfterPause::new(TRAINED_PAUSE);
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        if state.doc.model.with_untracked(|m| m.layered().is_none()) {
            return retokenise(text);
        }
        typed.set_value(text);
        pause.changed(move || retokenise(typed.get_value()));
    };

    view! {
        <StepSection step=Step::Sentence text=&TEXT>
            <label class="sentence-field">
                <span>{lang::t(views::sentence)}</span>
                <input
                    type="text"
                    dir="auto"
                    data-control="sentence"
                    prop:value=sentence
                    on:input=on_input
                    on:blur=move |ev| {
                        state.apply(Edit::Seal).ok();
                        // Leaving the field shows the sentence in use again, as a cell does its
                        // number: a refused one is dropped.
                        if error.get_untracked().is_some() {
                            error.set(None);
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            input.set_value(&sentence.get_untracked());
                        }
                    }
                    aria-invalid=move || error.with(|e| e.is_some().then_some("true"))
                    aria-describedby=move || error.with(|e| e.is_some().then_some("sentence-error"))
                />
            </label>
            {move || error.get().map(|e| view! { <p class="field-error" id="sentence-error" role="alert">{move || lang::word(&e)}</p> })}
            <Show when=move || pieces.with(Option::is_none)>
                <SourceField/>
            </Show>
            {move || {
                let hidden = sentence.with(|s| invisible_characters(s));
                (!hidden.is_empty()).then(|| view! {
                    <p class="note" data-note="invisible">
                        {move || lang::word(&views::invisible(hidden.join(", ")))}
                    </p>
                })
            }}
            <Untaught/>
            <ul class="tokens" aria-label=lang::t(views::tokens)>
                {move || tokens.with(|t| t.words.iter().zip(&t.ids).enumerate().map(|(i, (word, &id))| {
                    let id = pieces.with(|p| p.as_ref().map_or(id, |ids| ids[i] as usize));
                    let word = word.clone();
                    view! {
                        <li><button
                            type="button"
                            class="token"
                            data-token=i.to_string()
                            aria-pressed=move || (state.derived.followed_or_last.get() == i).to_string()
                            on:click=move |_| state.view.followed.update(|s| *s = if *s == Some(i) { None } else { Some(i) })
                        >
                            <span class="token-word" dir="auto">{word}</span>
                            <span class="token-id" title=lang::t(views::token_id_title)>{move || lang::word(&views::token_id(id))}</span>
                        </button></li>
                    }
                }).collect_view())}
            </ul>
            {move || pieces.with(Option::is_some).then(|| {
                let (name, note) = state.trained_in_page().map(|t| t.tokens_note()).unwrap_or_default();
                view! { <p class="note" data-note=name>{note}</p> }
            })}
            <p class="vocabulary" hidden=move || pieces.with(Option::is_some)>
                {move || tokens.with(|t| {
                    let words = t.vocabulary.iter().enumerate().map(|(i, w)| format!("{i} {w}")).collect::<Vec<_>>().join(" · ");
                    lang::word(&views::vocabulary(t.vocabulary.len(), words))
                })}
            </p>
        </StepSection>
    }
}

/// A word typed into the dog's sentence says it has random numbers, and offers another word's.
#[component]
fn Untaught() -> impl IntoView {
    let state = use_app();
    let words = Memo::new(move |_| state.doc.model.with(untaught_words));
    let give = move |word: String, from: String| {
        let numbers = hand_made_rows()
            .into_iter()
            .find(|(w, _)| *w == from)
            .map(|(_, r)| r);
        let row = state
            .doc
            .model
            .with_untracked(|m| m.tokens().vocabulary.iter().position(|w| *w == word));
        if let (Some(row), Some(numbers)) = (row, numbers) {
            state
                .apply(Edit::Paste {
                    target: Editable::Embedding,
                    row,
                    col: 0,
                    block: vec![numbers],
                })
                .ok();
        }
    };
    move || {
        words.get().into_iter().map(|word| {
            let hand_made: Vec<String> = hand_made_rows().into_iter().map(|(w, _)| w).collect();
            let for_word = word.clone();
            view! {
                <p class="note" data-note="untaught" data-word=word.clone()>
                    {let w = word.clone(); move || lang::word(&views::untaught(w.clone()))}" "
                    <label>
                        {let w = word.clone(); with_figures(move || views::give_numbers(w.clone(), figure(0)), move |_| {
                            let for_word = for_word.clone();
                            view! {
                                <select data-control="untaught-row" on:change=move |ev| give(for_word.clone(), event_target_value(&ev))>
                                    <option value="" selected>{lang::t(views::a_word)}</option>
                                    {hand_made.iter().map(|w| view! { <option value=w.clone()>{w.clone()}</option> }).collect_view()}
                                </select>
                            }.into_any()
                        })}
                    </label>
                </p>
            }
        }).collect_view()
    }
}

/// Cross-attention's second sentence: typed, the keys and values come from it (its words get
/// rows of their own table, a word of the sentence its row there); emptied, from the sentence.
#[component]
fn SourceField() -> impl IntoView {
    let state = use_app();
    let error = RwSignal::new(None::<Msg>);
    // A source the model refused stays in the box and waits: tried again whenever the model
    // changes shape (the causal mask turned off, as the message says), then used, its message
    // gone.
    let waiting = RwSignal::new(None::<String>);
    let try_source = move |text: String| {
        let source = (!text.trim().is_empty()).then(|| text.clone());
        match state.apply(Edit::Source(source)) {
            Ok(()) => {
                waiting.set(None);
                error.set(None);
            }
            Err(e) => {
                waiting.set(Some(text));
                error.set(Some(views::source_refused(e)));
            }
        }
    };
    Effect::new(move |_| {
        state.structure(|_| ());
        if let Some(text) = waiting.get_untracked() {
            try_source(text);
        }
    });
    let on_input = move |ev| try_source(event_target_value(&ev));
    view! {
        <label class="sentence-field">
            <span title=lang::t(views::source_title)>{lang::t(views::source)}</span>
            <input
                type="text"
                dir="auto"
                data-control="source"
                placeholder=lang::t(views::source_placeholder)
                prop:value=move || waiting.get().unwrap_or_else(|| state.structure(|m| m.source().map(|s| s.sentence().to_owned()).unwrap_or_default()))
                on:input=on_input
                on:blur=move |_| { state.apply(Edit::Seal).ok(); }
                aria-invalid=move || error.with(|e| e.is_some().then_some("true"))
                aria-describedby=move || error.with(|e| e.is_some().then_some("source-error"))
            />
        </label>
        {move || error.get().map(|e| view! { <p class="field-error" id="source-error" role="alert">{move || lang::word(&e)}</p> })}
    }
}
