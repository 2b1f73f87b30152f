//! Light and dark: `<html data-theme>` picks the stylesheet's colours (from `theme=`, else the
//! system's mode, followed as it changes), and the heat maps' canvas reads the same colours.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::formats::link::Theme;
use crate::core::views::heatmap::Palette;

const DARK_QUERY: &str = "(prefers-color-scheme: dark)"; // not words: a media query

fn prefers_dark() -> bool {
    window()
        .match_media(DARK_QUERY)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

fn is_dark() -> bool {
    document()
        .document_element()
        .and_then(|root| root.get_attribute("data-theme"))
        .map_or_else(prefers_dark, |t| t == "dark")
}

/// Sets `<html data-theme="light|dark">` as `theme` asks (the system's mode for `Auto`).
pub fn apply(theme: Theme) {
    let dark = match theme {
        Theme::Auto => prefers_dark(),
        Theme::Light => false,
        Theme::Dark => true,
    };
    if let Some(root) = document().document_element() {
        root.set_attribute("data-theme", if dark { "dark" } else { "light" })
            .ok();
    }
}

/// The colours in use now; `style.css`'s own values where a property cannot be read.
pub fn current_palette() -> Palette {
    let fallback = if is_dark() {
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

/// Keeps the page's theme (for `Auto`) and `palette` in step with the system's light or dark mode.
pub fn follow_colour_scheme(palette: RwSignal<Palette>, theme: Theme) {
    let Some(query) = window().match_media(DARK_QUERY).ok().flatten() else {
        return;
    };
    let on_change = Closure::<dyn Fn()>::new(move || {
        apply(theme);
        palette.set(current_palette());
    });
    query
        .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
        .ok();
    on_change.forget();
}
