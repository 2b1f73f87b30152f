//! Scrolling to a section. Sections out of sight skip rendering (`content-visibility: auto`), so
//! the browser knows their real height only once they come near the screen: one scroll lands
//! where the estimates put the section, and the page then moves under it (on a busy machine for
//! many frames, as maps paint and parts load). So the scroll is made again on each frame the
//! section has moved, until it stays put, or the reader scrolls for themselves.

use std::cell::Cell;

use leptos::prelude::*;

/// Frames the section must keep its place before the scroll is left alone.
const STILL_FRAMES: u32 = 3;
/// At most this many frames of correcting (about two seconds).
const MOST_FRAMES: u32 = 120;

thread_local! {
    /// Bumped by each new scroll and by the reader's own wheel, touch or key: an older loop stops.
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
    let at = place(&id);
    again(id, turn, at, 0, 0);
}

fn again(id: String, turn: u32, at: Option<i32>, still: u32, frames: u32) {
    if still >= STILL_FRAMES || frames >= MOST_FRAMES {
        return;
    }
    request_animation_frame(move || {
        if TURN.with(Cell::get) != turn {
            return;
        }
        let Some(section) = document().get_element_by_id(&id) else {
            return;
        };
        let now = place(&id);
        if now == at {
            again(id, turn, now, still + 1, frames + 1);
        } else {
            section.scroll_into_view();
            again(id, turn, now, 0, frames + 1);
        }
    });
}
