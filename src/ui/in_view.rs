//! Which parts of the page are in sight, so that work for the rest can wait.

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::ui::tasks::chains_running;

/// An observer and the callback it calls. Dropping it stops the observer first (queued
/// notifications included), so the callback is never called after it is freed.
struct Watch {
    observer: web_sys::IntersectionObserver,
    _on_change: Closure<dyn Fn(js_sys::Array)>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.observer.take_records();
        self.observer.disconnect();
    }
}

/// Whether `node` is on screen or within 300 px of it, kept up to date by an
/// `IntersectionObserver`. Work for what is out of sight waits until it comes into view: a heat
/// map is not repainted on every edit (at 64 tokens most of the page's two dozen maps are out of
/// sight).
pub fn in_view<E>(node: NodeRef<E>) -> ReadSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    near(node, "300px")
}

/// As [`in_view`], within `margin` of the screen (a CSS margin; percentages are of the screen's
/// size): work that takes a while starts that far ahead, so it is done when it is scrolled to.
pub fn near<E>(node: NodeRef<E>, margin: &'static str) -> ReadSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let (visible, set_visible) = signal(false);
    // The observer and its callback live exactly as long as the view.
    let watch = StoredValue::new_local(None::<Watch>);
    let stop = move || {
        watch.try_update_value(Option::take);
    };
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        stop();
        let on_change = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(entry) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            {
                // The view may have been removed since the browser queued this.
                set_visible.try_set(entry.is_intersecting());
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(margin);
        match web_sys::IntersectionObserver::new_with_options(
            on_change.as_ref().unchecked_ref(),
            &options,
        ) {
            Ok(observer) => {
                observer.observe(el.unchecked_ref());
                watch.set_value(Some(Watch {
                    observer,
                    _on_change: on_change,
                }));
            }
            // No observer (very old browsers): always in view.
            Err(_) => set_visible.set(true),
        }
    });
    on_cleanup(stop);
    visible
}

/// Calls `f` once, when the browser is next idle or after half a second, whichever comes first:
/// for work that may wait until the page has answered. (Safari has no `requestIdleCallback`,
/// and in a sandboxed frame Chromium may never call it.) Past the half second, it waits up to
/// [`LONGEST_WAIT`] more for work done a task at a time (`tasks::each_task`) to end: the
/// language model's heat maps, painted during its first run, held it up by a second on a school
/// phone (measured).
pub fn when_idle(f: impl Fn() + 'static) {
    let f = std::rc::Rc::new(std::cell::RefCell::new(Some(f)));
    let once = {
        let f = f.clone();
        move || {
            let pending = f.borrow_mut().take();
            if let Some(f) = pending {
                f();
            }
        }
    };
    let _ = request_idle_callback_with_handle(once.clone());
    after_tasks(once, move || f.borrow().is_some(), LONGEST_WAIT);
}

/// How long idle work waits for a chain of tasks past its half second, in half seconds: what
/// waits for it (`<html data-ready>`, the labs fetched after the first screen) waits no longer.
const LONGEST_WAIT: u32 = 5;

/// Calls `f` half a second from now while `waiting`, or later while a chain of tasks is under
/// way, `left` half seconds at most.
fn after_tasks(
    f: impl Fn() + Clone + 'static,
    waiting: impl Fn() -> bool + Clone + 'static,
    left: u32,
) {
    set_timeout(
        move || match (waiting(), chains_running() && left > 0) {
            (false, _) => {}
            (true, true) => after_tasks(f.clone(), waiting.clone(), left - 1),
            (true, false) => f(),
        },
        std::time::Duration::from_millis(500),
    );
}

/// When a picture drawn outside the reactive system (a canvas) should be painted: while it is in
/// view, and (made by [`Painting::of`]) once, when the browser is next idle after it is made,
/// wherever it is, so that one scrolled or jumped to shows at once (at worst one edit behind
/// until the observer catches up).
#[derive(Clone, Copy)]
pub struct Painting {
    visible: ReadSignal<bool>,
    first: RwSignal<bool>,
}

impl Painting {
    pub fn of<E>(node: NodeRef<E>) -> Self
    where
        E: ElementType,
        E::Output: JsCast + Clone + 'static,
    {
        let painting = Painting::in_sight(node);
        when_idle(move || {
            painting.first.try_set(true);
        });
        painting
    }

    /// Painted only while in view, for small pictures by the hundred (a model's thumbnails): the
    /// language model's 270, painted when idle, held its first run up by 0.8 s on a school
    /// phone (measured), and each is painted within a frame of being scrolled to.
    pub fn in_sight<E>(node: NodeRef<E>) -> Self
    where
        E: ElementType,
        E::Output: JsCast + Clone + 'static,
    {
        Painting {
            visible: in_view(node),
            first: RwSignal::new(false),
        }
    }

    /// Whether to paint now (tracked: read it first in the painting effect); never once gone.
    pub fn wanted(self) -> bool {
        self.visible.try_get().unwrap_or(false) || self.first.try_get().unwrap_or(false)
    }

    /// Says the picture is painted: out of view, it waits for the view again.
    pub fn painted(self) {
        self.first.update_untracked(|f| *f = false);
    }
}

/// A memo of `compute` that waits while `seen` is false: out of view it keeps the value it last
/// had (no work per edit), and catches up when `seen` turns true. The first value is computed
/// at once, so the view is complete when it is first drawn.
pub fn memo_in_view<T>(
    seen: ReadSignal<bool>,
    compute: impl Fn() -> T + Send + Sync + 'static,
) -> Memo<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new_owning(move |previous: Option<T>| match previous {
        // Reading `seen` only here: while it is false, nothing else is tracked.
        Some(shown) if !seen.get() => (shown, false),
        previous => {
            let now = compute();
            let changed = previous.as_ref() != Some(&now);
            (now, changed)
        }
    })
}

/// `compute`'s value, recomputed only while `seen`: out of sight the last one stays (the first
/// is always computed).
pub fn while_seen<T>(
    seen: ReadSignal<bool>,
    compute: impl Fn() -> T + Send + Sync + 'static,
) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |last: Option<&T>| match last {
        Some(last) if !seen.get() => last.clone(),
        _ => compute(),
    })
}
