//! The guided walk: the lesson's stops in teaching order (the core's [`stops`]), one at a time,
//! each scrolled into view and marked `aria-current="step"`, with one short paragraph of what to
//! try there; at the lesson's end the learner may go further (the labs and the variants). End
//! keeps the place, and Start resumes there.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use crate::core::i18n::keys::{page, walk};
use crate::core::i18n::{Key, Msg};
use crate::core::views::pipeline::{lesson_length, stops, Stop};
use crate::ui::lang::{t, word};
use crate::ui::scroll::scroll_to;
use crate::ui::state::use_app;
use crate::ui::{labs, steps};

/// The step's or the lab's title, for the walk's panel (its place is the walk's "3 of 13", one
/// numbering: the step's own badge is beside it on the page).
fn title(stop: Stop) -> Key {
    match stop {
        Stop::Step(step) => step.title(),
        Stop::Lab(lab) => labs::text(lab).title,
    }
}

/// What the walk suggests trying at `stop`; on the dog example as it opens, with its numbers.
fn hint(stop: Stop, dog: bool) -> Msg {
    match stop {
        Stop::Step(step) => {
            let text = steps::text(step);
            match text.dog.filter(|_| dog) {
                Some(numbers) => page::sentences(text.hint, numbers),
                None => text.hint.into(),
            }
        }
        Stop::Lab(lab) => labs::text(lab).hint.into(),
    }
}

/// Focuses a button once the walk's panel has been shown (signals update the page after this
/// handler returns).
fn focus_later(button: NodeRef<html::Button>) {
    request_animation_frame(move || {
        // The button may have left the page by the next frame.
        if let Some(b) = button.try_get_untracked().flatten() {
            let _ = b.focus();
        }
    });
}

/// "Start the walk", and the walk's panel: Back, Next, End and the paragraph (read aloud by
/// screen readers as it changes). Esc leaves the walk from anywhere.
#[component]
pub fn Walk() -> impl IntoView {
    let state = use_app();
    let start_button = NodeRef::<html::Button>::new();
    let next_button = NodeRef::<html::Button>::new();
    let total = Memo::new(move |_| stops(state.derived.shape.get()).len());
    let lesson = Memo::new(move |_| lesson_length(state.derived.shape.get()));
    let index = move || state.derived.walk_at.get();
    // Where End left the walk: Start resumes there.
    let resume = RwSignal::new(0usize);

    // The page's scroll position is outside the reactive system: move it to each new stop.
    Effect::new(move |_| {
        if let Some(stop) = state.derived.walk_stop.get() {
            scroll_to(stop.id());
        }
    });
    // The reader stays where the walk left them (the Start button is at the top of the page).
    let leave = move |at: usize| {
        resume.set(at);
        state.view.walk.set(None);
        request_animation_frame(move || {
            if let Some(b) = start_button.try_get_untracked().flatten() {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = b.focus_with_options(&options);
            }
        });
    };
    let end = move || leave(state.derived.walk_at.get_untracked().unwrap_or(0));
    let finish = move || leave(0);
    // Unless a field or editor already used this Esc for itself.
    let _ = window_event_listener(ev::keydown, move |e| {
        if e.key() == "Escape"
            && !e.default_prevented()
            && state.view.walk.get_untracked().is_some()
        {
            end();
        }
    });
    if state.view.walk.get_untracked().is_some() {
        focus_later(next_button);
    }
    // From the place shown, which may be short of the one last set (see `walk_at`).
    let go = move |forward: bool| {
        if let Some(here) = state.derived.walk_at.get_untracked() {
            let next = if forward {
                (here + 1).min(total.get_untracked() - 1)
            } else {
                here.saturating_sub(1)
            };
            state.view.walk.set(Some(next));
        }
    };
    let at_first = move || index() == Some(0);
    let at_lesson_end = move || index() == Some(lesson.get().saturating_sub(1));
    let at_last = move || index() == Some(total.get() - 1);
    let finishing = move || at_lesson_end() || at_last();
    let dog = move || state.preset() == Some("dog");
    // The lesson's end tells the followed token's story from the numbers, then where to go.
    let summary = move || {
        if at_lesson_end() {
            let story = state.story().map(|s| word(&s));
            Some(
                view! {
                    <p class="walk-story" data-stat="walk-story">{story}</p>
                    <p class="walk-summary">{t(walk::lesson_summary)}</p>
                }
                .into_any(),
            )
        } else if at_last() {
            Some(view! { <p class="walk-summary">{t(walk::further_summary)}</p> }.into_any())
        } else {
            None
        }
    };

    view! {
        <button
            type="button"
            class="walk-start"
            data-action="walk-start"
            node_ref=start_button
            on:click=move |_| {
                state.view.walk.set(Some(resume.get_untracked()));
                focus_later(next_button);
            }
        >
            {move || match resume.get() {
                0 => word(&walk::start.into()),
                at => word(&walk::resume(at + 1, total.get())),
            }}
        </button>
        <aside class="walk" aria-label=t(walk::label) hidden=move || state.view.walk.get().is_none()>
            // Read out whole at each move: where the walk is, then what to try.
            // Focusable: on a phone it scrolls (the last stop's summary).
            <div id="walk-status" aria-live="polite" aria-atomic="true" tabindex="0">
                <p class="walk-where">
                    {move || {
                        let stop = state.derived.walk_stop.get()?;
                        let i = index()?;
                        let place = if i < lesson.get() { walk::where_ } else { walk::where_further };
                        Some(word(&place(i + 1, total.get(), title(stop))))
                    }}
                </p>
                <p class="walk-hint">{move || state.derived.walk_stop.get().map(|s| word(&hint(s, dog())))}</p>
                {summary}
            </div>
            <div class="walk-buttons">
                // aria-disabled rather than disabled: a disabled button would drop the focus.
                <button
                    type="button"
                    data-action="walk-prev"
                    aria-disabled=move || at_first().to_string()
                    on:click=move |_| go(false)
                >
                    {t(walk::back)}
                </button>
                <button
                    type="button"
                    data-action="walk-next"
                    node_ref=next_button
                    aria-describedby="walk-status"
                    on:click=move |_| if finishing() { finish() } else { go(true) }
                >
                    {move || word(&if finishing() { walk::finish } else { walk::next }.into())}
                </button>
                <Show when=move || at_lesson_end() && !at_last()>
                    <button type="button" data-action="walk-further" on:click=move |_| go(true)>
                        {t(walk::further)}
                    </button>
                </Show>
                <button type="button" class="walk-end" data-action="walk-end" on:click=move |_| end()>
                    {t(walk::end)}
                </button>
            </div>
        </aside>
    }
}
