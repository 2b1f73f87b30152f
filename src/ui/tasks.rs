//! The page's small task scheduler: long work (the live page built behind the opening snapshot,
//! a trained model's layers) done a piece per task, so that the browser answers clicks and
//! typing between the pieces.

/// Calls `step` with `value` in a task of its own; `step` hands the next piece on with its
/// second argument, which runs it a task later, or stops by not calling it.
pub fn each_task<T: 'static>(value: T, step: impl Fn(T, &dyn Fn(T)) + Clone + 'static) {
    leptos::prelude::set_timeout(
        move || {
            let again = step.clone();
            step(value, &move |next| each_task(next, again.clone()))
        },
        std::time::Duration::ZERO,
    );
}
