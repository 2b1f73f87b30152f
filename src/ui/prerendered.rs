//! The opening page written at build time (`www/prerender.mjs`), shown while the wasm arrives
//! and while the live page is built behind it, then handed over: the two are the same DOM (the snapshot
//! is the app's own first frame), so element N of one is element N of the other. What the
//! learner did meanwhile comes along: numbers typed (applied as if typed now), the focus, and
//! how far each box was scrolled (the page's own scroll stays as it is).

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, EventInit, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
};

use crate::ui::on_demand::Opening;
use crate::ui::tasks::each_task;

/// The live page's parts (its head, then each step with its labs) built so far. When the snapshot
/// is on screen, the live page is built behind it one part per task, so the wasm never holds the
/// browser for the whole build: a click, a keystroke, a script or another frame of the course page
/// waits one part at most. Without a snapshot it is built whole, as it is shown at once.
#[derive(Clone, Copy)]
pub struct Handover {
    built: RwSignal<usize>,
}

thread_local! {
    /// Set while the live page is built behind the snapshot: [`take_over`] then waits for it.
    static BEHIND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Handover {
    /// For a page of `parts` parts; called by the page root as it is built. What the page loads
    /// once painted, and so `data-ready`, waits for the hand-over.
    pub fn new(parts: usize, opening: Opening) -> Self {
        if !snapshot_on_screen() {
            opening.shown();
            return Handover {
                built: RwSignal::new(usize::MAX),
            };
        }
        BEHIND.set(true);
        let handover = Handover {
            built: RwSignal::new(1),
        };
        handover.build_after(parts, opening);
        handover
    }

    /// In a task of its own (after the browser has answered what waits): the next part, or,
    /// once the last part's own effects have run, the hand-over.
    fn build_after(self, parts: usize, opening: Opening) {
        each_task((), move |()| {
            let built = self.built.get_untracked();
            if built < parts {
                self.built.set(built + 1);
                return Some(());
            }
            BEHIND.set(false);
            if let Ok(Some(live)) = document().query_selector("body > main:not(#prerendered)") {
                take_over(&live);
            }
            opening.shown();
            None
        });
    }

    /// Whether part `part` (from 0) is built; tracked.
    pub fn built(self, part: usize) -> bool {
        self.built.get() > part
    }
}

/// Whether the snapshot is on screen (www/boot.js showed it, and is not still fetching it).
fn snapshot_on_screen() -> bool {
    let document = document();
    document.get_element_by_id("prerendered").is_some()
        && document
            .document_element()
            .is_some_and(|r| r.has_attribute("data-snapshot") && !r.has_attribute("data-fetching"))
}

/// What the learner changed in a field of the snapshot.
pub enum Changed {
    Text(String),
    Ticked,
    Picked(String),
}

/// What the learner changed in `el`, if it is a field they changed: its text, its tick or its
/// choice, against the one the page was written with.
pub fn changed(el: &Element) -> Option<Changed> {
    if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
        if matches!(input.type_().as_str(), "checkbox" | "radio") {
            (input.checked() != input.default_checked()).then_some(Changed::Ticked)
        } else {
            (input.value() != input.default_value()).then(|| Changed::Text(input.value()))
        }
    } else if let Some(area) = el.dyn_ref::<HtmlTextAreaElement>() {
        (Ok(area.value()) != area.default_value()).then(|| Changed::Text(area.value()))
    } else if let Some(select) = el.dyn_ref::<HtmlSelectElement>() {
        let picked = select.selected_index();
        let default = (0..select.length()).find(|&k| {
            select
                .item(k)
                .and_then(|o| o.get_attribute("selected"))
                .is_some()
        });
        default
            .is_some_and(|d| d as i32 != picked)
            .then(|| Changed::Picked(select.value()))
    } else {
        None
    }
}

/// Replaces `#prerendered` (when there is one) by `live`, the app's `<main>` just mounted after
/// it (hidden by style.css until then). Called in the task that mounted it, or that built its last
/// part ([`Handover`]), so the browser never paints between the two.
pub fn take_over(live: &Element) {
    if BEHIND.get() {
        return;
    }
    let document = document();
    let Some(snapshot) = document.get_element_by_id("prerendered") else {
        return;
    };
    let root = document.document_element();
    // Shown, not still on its way (www/boot.js fetches a preset's).
    let shown = root
        .as_ref()
        .is_some_and(|r| r.has_attribute("data-snapshot") && !r.has_attribute("data-fetching"));
    let old = snapshot.query_selector_all("*").ok();
    let new = live.query_selector_all("*").ok();
    let pairs = match (shown, old, &new) {
        (true, Some(old), Some(new)) if old.length() == new.length() => (0..old.length())
            .filter_map(|i| Some((old.item(i)?.dyn_into::<Element>().ok()?, i as usize)))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let focused = document.active_element();
    let mut typed = Vec::new();
    let mut scrolled = Vec::new();
    let mut focus = None;
    for (el, i) in &pairs {
        // Only boxes the learner scrolled (www/boot.js marks them): reading any box's offset
        // would lay out both pages at once.
        if el.has_attribute("data-scrolled") {
            scrolled.push((*i, el.scroll_left(), el.scroll_top()));
        }
        if focused.as_ref() == Some(el) {
            focus = Some(*i);
        }
        if let Some(change) = changed(el) {
            typed.push((*i, change));
        }
    }
    // A step out of sight is laid out at its last painted height, else at a guess
    // (`contain-intrinsic-size` in style.css): the live page's steps have painted none yet. Scrolled
    // down, the steps above would then move what is on screen; given the snapshot's heights, the
    // live page is laid out as it was.
    let heights: Vec<(usize, f64)> = if window().scroll_y().unwrap_or(0.0) > 0.0 {
        pairs
            .iter()
            .filter(|(el, _)| el.class_list().contains("step"))
            .filter_map(|(el, i)| {
                // The content box's, as `contain-intrinsic-size` takes it (style.css sizes
                // border boxes).
                let style = window().get_computed_style(el).ok()??;
                let px = |name: &str| -> Option<f64> {
                    let value = style.get_property_value(name).ok()?;
                    value.trim_end_matches("px").parse().ok()
                };
                let content = px("height")?
                    - px("padding-top")?
                    - px("padding-bottom")?
                    - px("border-top-width")?
                    - px("border-bottom-width")?;
                Some((*i, content))
            })
            .collect()
    } else {
        Vec::new()
    };
    snapshot.remove();
    if let Some(all) = new {
        for (i, height) in heights {
            if let Some(el) = all
                .item(i as u32)
                .and_then(|n| n.dyn_into::<HtmlElement>().ok())
            {
                el.style()
                    .set_property("contain-intrinsic-size", &format!("auto {height}px")) // not words: a CSS value
                    .ok();
            }
        }
    }
    if let Some(root) = root {
        root.remove_attribute("data-snapshot").ok();
    }
    if typed.is_empty() && scrolled.is_empty() && focus.is_none() {
        return;
    }
    // Once the live page's own first effects have run (its cells' numbers written), before it
    // is painted.
    let live = live.clone();
    leptos::task::spawn_local(async move {
        let Ok(all) = live.query_selector_all("*") else {
            return;
        };
        let at = |i: usize| {
            all.item(i as u32)
                .and_then(|n| n.dyn_into::<HtmlElement>().ok())
        };
        for (i, left, top) in scrolled {
            if let Some(el) = at(i) {
                el.set_scroll_left(left);
                el.set_scroll_top(top);
            }
        }
        for (i, change) in typed {
            match change {
                Changed::Ticked => at(i).inspect(|el| el.click()),
                Changed::Text(text) => at(i).inspect(|el| {
                    el.focus().ok();
                    if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
                        input.set_value(&text);
                    } else if let Some(area) = el.dyn_ref::<HtmlTextAreaElement>() {
                        area.set_value(&text);
                    }
                    fire(el, "input");
                    if focus != Some(i) {
                        el.blur().ok();
                    }
                }),
                Changed::Picked(value) => at(i).inspect(|el| {
                    if let Some(select) = el.dyn_ref::<HtmlSelectElement>() {
                        select.set_value(&value);
                        fire(el, "change");
                    }
                }),
            };
        }
        if let Some(el) = focus.and_then(at) {
            el.focus().ok();
            // The caret after what was typed, as it was.
            if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
                let end = input.value().encode_utf16().count() as u32;
                input.set_selection_range(end, end).ok();
            }
        }
    });
}

/// Dispatches a bubbling `kind` event on `el`, as the browser does for the learner's input.
fn fire(el: &HtmlElement, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    if let Ok(event) = web_sys::Event::new_with_event_init_dict(kind, &init) {
        el.dispatch_event(&event).ok();
    }
}
