//! The guided walk: the steps and their labs in pipeline order, one at a time, each scrolled into
//! view and marked `aria-current="step"`, with one short paragraph of what to try there.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use crate::core::views::pipeline::{stops, Stop};
use crate::ui::scroll::scroll_to;
use crate::ui::state::use_app;
use crate::ui::{labs, steps};

/// The step's or the lab's title, for the walk's panel (its place is the walk's "3 of 13", one
/// numbering: the step's own badge is beside it on the page).
fn title(stop: Stop) -> &'static str {
    match stop {
        Stop::Step(step) => steps::text(step).title,
        Stop::Lab(lab) => labs::text(lab).title,
    }
}

/// What the walk suggests trying at `stop`.
fn hint(stop: Stop) -> &'static str {
    match stop {
        Stop::Step(step) => steps::text(step).hint,
        Stop::Lab(lab) => labs::text(lab).hint,
    }
}

/// What the walk's last stop adds: what the learner has now seen, and where to go next.
const SUMMARY: &str = "That is the whole of self-attention: tokens, embeddings, three projections, scores, ÷√dₖ, the mask, softmax and the weighted sum of values, the labs showed why √dₖ and why −∞, training moved the weights towards a target, and shuffling the words showed that attention alone is blind to order until positions put it back; the KV cache and the tiles computed the same numbers as decoders and FlashAttention do. Where next: type a sentence of your own, edit a weight and watch every weight move, or open another example.";

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
    let total = Memo::new(move |_| stops(state.shape.get()).len());
    let index = move || state.walk_at.get();

    // The page's scroll position is outside the reactive system: move it to each new stop.
    Effect::new(move |_| {
        if let Some(stop) = state.walk_stop.get() {
            scroll_to(stop.id());
        }
    });
    let end = move || {
        state.walk.set(None);
        focus_later(start_button);
    };
    // Unless a field or editor already used this Esc for itself.
    let _ = window_event_listener(ev::keydown, move |e| {
        if e.key() == "Escape" && !e.default_prevented() && state.walk.get_untracked().is_some() {
            end();
        }
    });
    if state.walk.get_untracked().is_some() {
        focus_later(next_button);
    }
    // From the place shown, which may be short of the one last set (see `walk_at`).
    let go = move |forward: bool| {
        if let Some(here) = state.walk_at.get_untracked() {
            let next = if forward {
                (here + 1).min(total.get_untracked() - 1)
            } else {
                here.saturating_sub(1)
            };
            state.walk.set(Some(next));
        }
    };
    let at_first = move || index() == Some(0);
    let at_last = move || index() == Some(total.get() - 1);
    // The last stop says what the walk showed and where to go from here; Next finishes.
    let summary = move || at_last().then(|| view! { <p class="walk-summary">{SUMMARY}</p> });

    view! {
        <button
            type="button"
            class="walk-start"
            data-action="walk-start"
            node_ref=start_button
            on:click=move |_| {
                state.walk.set(Some(0));
                focus_later(next_button);
            }
        >
            "Start the walk"
        </button>
        <aside class="walk" aria-label="Guided walk" hidden=move || state.walk.get().is_none()>
            // Read out whole at each move: where the walk is, then what to try.
            // Focusable: on a phone it scrolls (the last stop's summary).
            <div id="walk-status" aria-live="polite" aria-atomic="true" tabindex="0">
                <p class="walk-where">
                    {move || {
                        let stop = state.walk_stop.get()?;
                        Some(format!("{} of {} · {}", index()? + 1, total.get(), title(stop)))
                    }}
                </p>
                <p class="walk-hint">{move || state.walk_stop.get().map(hint)}</p>
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
                    "Back"
                </button>
                <button
                    type="button"
                    data-action="walk-next"
                    node_ref=next_button
                    aria-describedby="walk-status"
                    on:click=move |_| if at_last() { end() } else { go(true) }
                >
                    {move || if at_last() { "Finish" } else { "Next" }}
                </button>
                <button type="button" class="walk-end" data-action="walk-end" on:click=move |_| end()>
                    "End"
                </button>
            </div>
        </aside>
    }
}
