//! Code loaded on demand: a view whose code is its own wasm chunk (split off by
//! the build program, src/bin/attention-build/code.rs), fetched the first time it is shown, with a line saying so
//! meanwhile and a message if it cannot be fetched (the rest of the page keeps working).
//!
//! A chunk is a function marked `#[cfg_attr(feature = "split", wasm_split(NAME, …, fallible))]`
//! returning `Result<AnyView, SplitLoaderError>`; [`chunk!`] writes it. The component tests
//! build without the `split` feature (their runner cannot fetch chunks), which calls it directly.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
pub use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;

use crate::core::i18n::keys::settings;
use crate::ui::in_view::{in_view, when_idle};
use crate::ui::lang::{word, Label};

/// A view on its way: its chunk's code, or the error of fetching it.
pub type Loading = Pin<Box<dyn Future<Output = Result<AnyView, SplitLoaderError>>>>;

/// Declares `$name() -> Loading`: `$body` (an `AnyView`) in the wasm chunk `$name`.
macro_rules! chunk {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        $(#[$doc])*
        pub fn $name() -> $crate::ui::on_demand::Loading {
            #[cfg(feature = "split")]
            #[leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible)]
            fn code() -> Result<AnyView, $crate::ui::on_demand::SplitLoaderError> {
                Ok($body)
            }
            #[cfg(not(feature = "split"))]
            async fn code() -> Result<AnyView, $crate::ui::on_demand::SplitLoaderError> {
                Ok($body)
            }
            Box::pin(code())
        }
    };
}
pub(crate) use chunk;

/// How long after its first paint the page starts fetching what it loads `soon`.
const AFTER_PAINT: std::time::Duration = std::time::Duration::from_millis(600);

/// How far the page is in opening: `painted` once its first screen is on screen and the browser
/// is idle, `pending` the views on their way. When both are done, `<html data-ready="true">`
/// tells scripts and tests that every table the page opens with is there.
#[derive(Clone, Copy)]
pub struct Opening {
    painted: RwSignal<bool>,
    pending: RwSignal<usize>,
    ready: RwSignal<bool>,
}

impl Opening {
    /// Provided by the page root; the page is marked painted after [`Opening::shown`].
    pub fn provide() -> Self {
        let opening = Opening {
            painted: RwSignal::new(false),
            pending: RwSignal::new(0),
            ready: RwSignal::new(false),
        };
        provide_context(opening);
        let ready = opening.ready;
        Effect::new(move |_| {
            if ready.get_untracked() || !opening.painted.get() || opening.pending.get() > 0 {
                return;
            }
            // Asked again a task later: the views that `painted` starts have counted themselves.
            set_timeout(
                move || {
                    if !ready.get_untracked() && opening.pending.get_untracked() == 0 {
                        let _ = document()
                            .document_element()
                            .map(|html| html.set_attribute("data-ready", "true"));
                        ready.set(true);
                    }
                },
                Default::default(),
            );
        });
        opening
    }

    /// The live page is on screen: marked painted after its next frame, once the browser is
    /// idle (what loads `soon` then comes into the page as shown, not into one being built).
    pub fn shown(self) {
        // A task queued from a frame's callback runs once that frame is painted; the moment
        // after it is the learner's (a first click or scroll answered at once).
        request_animation_frame(move || {
            set_timeout(
                move || when_idle(move || self.painted.set(true)),
                AFTER_PAINT,
            )
        });
    }

    /// Calls `f` once the page is ready.
    pub fn when_ready(self, f: impl FnOnce() + 'static) {
        let mut f = Some(f);
        Effect::new(move |_| {
            if self.ready.get() {
                if let Some(f) = f.take() {
                    f();
                }
            }
        });
    }
}

/// One view on its way, counted in `Opening::pending` until it arrives or leaves the page.
struct Waiting(Option<Opening>);

impl Waiting {
    fn new(opening: Option<Opening>) -> Self {
        if let Some(o) = opening {
            o.pending.update(|n| *n += 1);
        }
        Waiting(opening)
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Some(o) = self.0 {
            o.pending.try_update(|n| *n -= 1);
        }
    }
}

/// What `load` gives, once fetched; `what` names it in the lines shown meanwhile or on failure
/// ("the lab", "the Embed dialog"). `quiet`: nothing shown meanwhile (what installs and draws
/// nothing, as the page's tools).
#[component]
pub fn Loaded(
    load: fn() -> Loading,
    #[prop(into)] what: Label,
    #[prop(optional)] quiet: bool,
) -> impl IntoView {
    let waiting = Waiting::new(use_context::<Opening>());
    let meanwhile = move || {
        (!quiet).then(|| view! { <p class="loading" role="status">{move || word(&settings::loading(what))}</p> })
    };
    view! {
        <Suspense fallback=meanwhile>
            // Send only in name: the page has one thread.
            {Suspend::new(SendWrapper::new(async move {
                let view = load().await.unwrap_or_else(|_| view! {
                    <p class="field-error" role="alert">{move || word(&settings::could_not_load(what))}</p>
                }.into_any());
                drop(waiting);
                view
            }))}
        </Suspense>
    }
}

/// A button that opens and closes a panel fetched on demand (`data-action=action`,
/// `aria-expanded`); `open` is the page's when others open or close it too.
#[component]
pub fn PanelButton(
    action: &'static str,
    #[prop(into)] label: Label,
    load: fn() -> Loading,
    #[prop(into)] what: Label,
    #[prop(optional)] open: Option<RwSignal<bool>>,
) -> impl IntoView {
    let open = open.unwrap_or_else(|| RwSignal::new(false));
    view! {
        <button type="button" data-action=action aria-expanded=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
            {move || label.word()}
        </button>
        {move || open.get().then(|| view! { <Loaded load=load what=what/> })}
    }
}

/// As [`Loaded`], fetched when its place comes near the screen, and kept once fetched; `soon`,
/// also once the page's first screen is painted and the browser idle (a lab whose figures
/// scripts read, and find-in-page finds, without scrolling to it).
#[component]
pub fn LoadedNear(
    load: fn() -> Loading,
    #[prop(into)] what: Label,
    #[prop(optional)] soon: bool,
) -> impl IntoView {
    let place = NodeRef::<leptos::html::Div>::new();
    let near = in_view(place);
    // `soon` with no page opening around it (a view mounted on its own): at once.
    let painted = soon.then(|| use_context::<Opening>().map(|o| o.painted));
    let wanted = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false)
            || near.get()
            || painted.is_some_and(|p| p.is_none_or(|p| p.get()))
    });
    view! {
        <div class="on-demand" node_ref=place>
            {move || wanted.get().then(|| view! { <Loaded load=load what=what/> })}
        </div>
    }
}
