//! The page's small scheduler: long work done a piece at a time, so that the browser answers
//! clicks and typing between the pieces. A piece per task for work nobody watches (the live page
//! built behind the opening snapshot, a trained model's layers); a piece per frame for work
//! watched as it moves (a training run, the race of the scalings).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::{request_animation_frame, set_timeout};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessageChannel;

/// Calls `step` on `value` in a task of its own, and again on what it returns a task later,
/// until it returns `None`. The tasks are messages the chain posts itself: a chain of
/// `setTimeout(0)` waits 4 ms a link after the fifth (the HTML standard's clamp), which was 120 ms
/// of the 30 layers a language model's token runs.
pub fn each_task<T: 'static>(value: T, step: impl Fn(T) -> Option<T> + Clone + 'static) {
    CHAINS.with(|c| c.set(c.get() + 1));
    let step = move |value| {
        let next = step(value);
        if next.is_none() {
            CHAINS.with(|c| c.set(c.get() - 1));
        }
        next
    };
    match MessageChannel::new() {
        Ok(channel) => next_message(Rc::new(channel), value, step),
        Err(_) => each_timeout(value, step),
    }
}

thread_local! {
    /// How many chains of [`each_task`] are under way.
    static CHAINS: Cell<usize> = const { Cell::new(0) };
}

/// Whether a chain of [`each_task`] is under way: work that waits for an idle page waits for it
/// too (`in_view::when_idle`).
pub fn chains_running() -> bool {
    CHAINS.with(|c| c.get() > 0)
}

/// The next link of [`each_task`]'s chain on `channel`.
fn next_message<T: 'static>(
    channel: Rc<MessageChannel>,
    value: T,
    step: impl Fn(T) -> Option<T> + Clone + 'static,
) {
    let again = channel.clone();
    let run = Closure::once_into_js(move || {
        if let Some(next) = step(value) {
            next_message(again, next, step);
        }
    });
    channel.port1().set_onmessage(Some(run.unchecked_ref()));
    // Posting null cannot fail (only data that cannot be copied can).
    let _ = channel.port2().post_message(&JsValue::NULL);
}

/// [`each_task`] by timeouts, where a message channel cannot be made.
fn each_timeout<T: 'static>(value: T, step: impl Fn(T) -> Option<T> + Clone + 'static) {
    set_timeout(
        move || {
            if let Some(next) = step(value) {
                each_timeout(next, step);
            }
        },
        Duration::ZERO,
    );
}

/// Calls `step` on `value` before the next frame, and again on what it returns a frame later,
/// until it returns `None`.
pub fn each_frame<T: 'static>(value: T, step: impl Fn(T) -> Option<T> + Clone + 'static) {
    request_animation_frame(move || {
        if let Some(next) = step(value) {
            each_frame(next, step);
        }
    });
}
