//! The page's colours for what the browser does not paint from CSS itself (the heat maps' canvas):
//! read from the stylesheet's custom properties, and again whenever light or dark mode changes.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::heatmap::Palette;

const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

fn prefers_dark() -> bool {
    window()
        .match_media(DARK_QUERY)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// The colours in use now; `style.css`'s own values where a property cannot be read.
pub fn current_palette() -> Palette {
    let fallback = if prefers_dark() {
        Palette::DARK
    } else {
        Palette::LIGHT
    };
    let style = document()
        .document_element()
        .and_then(|root| window().get_computed_style(&root).ok().flatten());
    match style {
        Some(style) => Palette::from_css(
            |name| style.get_property_value(name).unwrap_or_default(),
            fallback,
        ),
        None => fallback,
    }
}

/// Keeps `palette` in step with the system's light or dark mode.
pub fn follow_colour_scheme(palette: RwSignal<Palette>) {
    let Some(query) = window().match_media(DARK_QUERY).ok().flatten() else {
        return;
    };
    let on_change = Closure::<dyn Fn()>::new(move || palette.set(current_palette()));
    query
        .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
        .ok();
    on_change.forget();
}
