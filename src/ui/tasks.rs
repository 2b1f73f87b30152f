//! The page's small scheduler: long work done a piece at a time, so that the browser answers
//! clicks and typing between the pieces. A piece per task for work nobody watches (the live page
//! built behind the opening snapshot, a trained model's layers); a piece per frame for work
//! watched as it moves (a training run, the race of the scalings).

use std::time::Duration;

use leptos::prelude::{request_animation_frame, set_timeout};

/// Calls `step` on `value` in a task of its own, and again on what it returns a task later,
/// until it returns `None`.
pub fn each_task<T: 'static>(value: T, step: impl Fn(T) -> Option<T> + Clone + 'static) {
    set_timeout(
        move || {
            if let Some(next) = step(value) {
                each_task(next, step);
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
