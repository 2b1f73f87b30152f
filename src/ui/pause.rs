//! Work that waits for a pause in a run of changes (typing, dragging): one timer per pause, not
//! one per change. (A timer set and cleared at each change left its callback to the JS collector,
//! and the wasm memory grew by them between collections: 5 % over 900 edits.)

use std::time::Duration;

use leptos::prelude::*;

/// When the last change came, while one waits for its pause.
#[derive(Clone, Copy)]
pub struct AfterPause {
    last_change: StoredValue<Option<f64>>,
    quiet: Duration,
}

impl AfterPause {
    /// Acts once `quiet` has passed with no change.
    pub fn new(quiet: Duration) -> Self {
        AfterPause {
            last_change: StoredValue::new(None),
            quiet,
        }
    }

    /// A change: `act` runs once the quiet time has passed since the last one (and is then no
    /// longer pending).
    pub fn changed(self, act: impl Fn() + Clone + 'static) {
        let waiting = self.pending();
        self.last_change.set_value(Some(js_sys::Date::now()));
        if !waiting {
            self.wait(act, self.quiet);
        }
    }

    /// Whether a change waits for its pause.
    pub fn pending(self) -> bool {
        self.last_change.try_get_value().flatten().is_some()
    }

    /// Nothing waits any more (it was done another way: a page hidden).
    pub fn done(self) {
        self.last_change.set_value(None);
    }

    fn wait(self, act: impl Fn() + Clone + 'static, wait: Duration) {
        set_timeout(
            move || {
                let Some(Some(at)) = self.last_change.try_get_value() else {
                    return;
                };
                let since = Duration::from_secs_f64(((js_sys::Date::now() - at) / 1000.0).max(0.0));
                match self.quiet.checked_sub(since) {
                    Some(left) if !left.is_zero() => self.wait(act, left),
                    _ => {
                        self.done();
                        act();
                    }
                }
            },
            wait,
        );
    }
}
