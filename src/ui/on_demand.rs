//! Code loaded on demand: a view whose code is its own wasm chunk (split off by
//! `www/split/wasm-bindgen`), fetched the first time it is shown, with a line saying so
//! meanwhile and a message if it cannot be fetched (the rest of the page keeps working).
//!
//! A chunk is a function marked `#[cfg_attr(not(no_split), wasm_split(NAME, …, fallible))]`
//! returning `Result<AnyView, SplitLoaderError>`; [`chunk!`] writes it. The component tests
//! build with `--cfg no_split` (their runner cannot fetch chunks), which calls it directly.

use std::future::Future;
use std::pin::Pin;

use leptos::__reexports::send_wrapper::SendWrapper;
use leptos::prelude::*;
pub use leptos::wasm_split::SplitLoaderError;

use crate::ui::in_view::in_view;

/// A view on its way: its chunk's code, or the error of fetching it.
pub type Loading = Pin<Box<dyn Future<Output = Result<AnyView, SplitLoaderError>>>>;

/// Declares `$name() -> Loading`: `$body` (an `AnyView`) in the wasm chunk `$name`.
macro_rules! chunk {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        $(#[$doc])*
        pub fn $name() -> $crate::ui::on_demand::Loading {
            #[cfg(not(no_split))]
            #[leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible)]
            fn code() -> Result<AnyView, $crate::ui::on_demand::SplitLoaderError> {
                Ok($body)
            }
            #[cfg(no_split)]
            async fn code() -> Result<AnyView, $crate::ui::on_demand::SplitLoaderError> {
                Ok($body)
            }
            Box::pin(code())
        }
    };
}
pub(crate) use chunk;

/// What `load` gives, once fetched; `what` names it in the lines shown meanwhile or on failure
/// ("the lab", "the Embed dialog").
#[component]
pub fn Loaded(load: fn() -> Loading, what: &'static str) -> impl IntoView {
    view! {
        <Suspense fallback=move || view! { <p class="loading" role="status">{format!("Loading {what}…")}</p> }>
            // Send only in name: the page has one thread.
            {Suspend::new(SendWrapper::new(async move {
                load().await.unwrap_or_else(|_| view! {
                    <p class="field-error" role="alert">{format!("Could not load {what} (the connection may be down): reload the page to try again. The rest of the page works.")}</p>
                }.into_any())
            }))}
        </Suspense>
    }
}

/// As [`Loaded`], fetched when its place comes near the screen, and kept once fetched.
#[component]
pub fn LoadedNear(load: fn() -> Loading, what: &'static str) -> impl IntoView {
    let place = NodeRef::<leptos::html::Div>::new();
    let near = in_view(place);
    let wanted = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || near.get());
    view! {
        <div class="on-demand" node_ref=place>
            {move || wanted.get().then(|| view! { <Loaded load=load what=what/> })}
        </div>
    }
}
