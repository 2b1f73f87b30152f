//! Scrolling to a section. Sections out of sight skip rendering (`content-visibility: auto`), so
//! the browser knows their real height only once they come near the screen: one scroll lands
//! where the estimates put the section, and the page then moves under it (on a busy machine for
//! many frames, as maps paint and parts load). So the scroll is made again on each frame the
//! section has moved, until it has stayed put a while, or the reader scrolls for themselves.

use std::cell::Cell;

use leptos::prelude::*;

/// How long after the last move of the layout the scroll is still kept (sections render as they
/// come near, maps paint and parts load over a few hundred milliseconds).
const QUIET_MS: f64 = 600.0;
/// The longest the scroll is kept after the jump.
const MOST_MS: f64 = 4000.0;

thread_local! {
    /// Bumped by each new scroll and by the reader's own wheel, touch, press or key: an older loop
    /// stops.
    static TURN: Cell<u32> = const { Cell::new(0) };
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

fn bump() -> u32 {
    TURN.with(|t| {
        t.set(t.get().wrapping_add(1));
        t.get()
    })
}

/// The reader's own scrolling ends any correcting under way.
fn listen_once() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let _ = window_event_listener(leptos::ev::wheel, |_| {
        bump();
    });
    let _ = window_event_listener(leptos::ev::touchstart, |_| {
        bump();
    });
    // A press anywhere, the scrollbar included (a jump's own click scrolls after it).
    let _ = window_event_listener(leptos::ev::mousedown, |_| {
        bump();
    });
    let _ = window_event_listener(leptos::ev::keydown, |e| {
        if matches!(
            e.key().as_str(),
            "PageUp" | "PageDown" | "Home" | "End" | "ArrowUp" | "ArrowDown" | " "
        ) {
            bump();
        }
    });
}

/// Where the section is on the screen, to the pixel: after the reader's own scrolling is ruled
/// out, a change means the layout moved under it.
fn place(id: &str) -> Option<i32> {
    Some(
        document()
            .get_element_by_id(id)?
            .get_bounding_client_rect()
            .top()
            .round() as i32,
    )
}

/// Scrolls the element `id` into view, and keeps it there while the sections around it render.
pub fn scroll_to(id: String) {
    let Some(section) = document().get_element_by_id(&id) else {
        return;
    };
    listen_once();
    let turn = bump();
    section.scroll_into_view();
    let now = js_sys::Date::now();
    let at = place(&id);
    again(id, turn, at, now + QUIET_MS, now + MOST_MS);
}

/// On each frame until `quiet` (pushed on by each move, never past `last`): the section moved,
/// so it is scrolled back.
fn again(id: String, turn: u32, at: Option<i32>, quiet: f64, last: f64) {
    request_animation_frame(move || {
        let now = js_sys::Date::now();
        if TURN.with(Cell::get) != turn || now > quiet {
            return;
        }
        let Some(section) = document().get_element_by_id(&id) else {
            return;
        };
        if place(&id) == at {
            again(id, turn, at, quiet, last);
        } else {
            section.scroll_into_view();
            let at = place(&id);
            again(id, turn, at, (now + QUIET_MS).min(last), last);
        }
    });
}
