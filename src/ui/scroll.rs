//! Scrolling to a section. Sections out of sight skip rendering (`content-visibility: auto`), so
//! the browser knows their real height only once they come near the screen: one scroll lands
//! where the estimates put the section, and the page then moves under it. So the scroll is made
//! again on the next frames, until the section stays put.

use leptos::prelude::*;

/// Frames over which the scroll is repeated while the layout settles.
const SETTLING_FRAMES: u32 = 4;

/// Scrolls the element `id` into view, and keeps it there while the sections around it render.
pub fn scroll_to(id: String) {
    let Some(section) = document().get_element_by_id(&id) else {
        return;
    };
    section.scroll_into_view();
    again(id, SETTLING_FRAMES);
}

fn again(id: String, frames: u32) {
    if frames == 0 {
        return;
    }
    request_animation_frame(move || {
        if let Some(section) = document().get_element_by_id(&id) {
            section.scroll_into_view();
            again(id, frames - 1);
        }
    });
}
