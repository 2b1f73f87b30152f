//! The URL is the app's public interface for links and embeds; this is the only code that reads
//! or writes it. `?preset=NAME`, `?view=STEP`, `?walk=1`, and a saved state (v1) as `#state=JSON` (or
//! `?state=JSON`). Share links put the state in the fragment: it never reaches a server, so a big
//! model is not refused for a long URL.

use leptos::prelude::window;

use crate::core::model::Model;
use crate::core::presets::PRESETS;
use crate::core::state::{read_state, write_state};
use crate::ui::steps::Step;

/// What the page opens with.
pub struct Start {
    /// The model the URL names, or the default preset.
    pub model: Model,
    /// The preset it came from (none for a saved state).
    pub preset: Option<&'static str>,
    /// The one step to show, for embeds.
    pub view: Option<Step>,
    /// `?walk=1`: open in the guided walk.
    pub walk: bool,
    /// Why the URL's model or view was not used.
    pub message: Option<String>,
}

fn params() -> Option<web_sys::UrlSearchParams> {
    web_sys::UrlSearchParams::new_with_str(&window().location().search().ok()?).ok()
}

/// `#state=…` from the fragment, decoded.
fn fragment_state() -> Option<String> {
    let hash = window().location().hash().ok()?;
    web_sys::UrlSearchParams::new_with_str(hash.strip_prefix('#')?)
        .ok()?
        .get("state")
}

/// Reads the page's URL. Nothing in it can panic the app: a bad value becomes a message.
pub fn start() -> Start {
    let default = &PRESETS[0];
    let Some(params) = params() else {
        return Start {
            model: (default.build)(),
            preset: Some(default.name),
            view: None,
            walk: false,
            message: None,
        };
    };
    let mut messages = Vec::new();
    let from_url = if let Some(json) = fragment_state().or_else(|| params.get("state")) {
        read_state(&json)
            .map(|model| (model, None))
            .map_err(|e| {
                messages.push(format!(
                    "The link's state could not be read ({e}); showing the default example."
                ))
            })
            .ok()
    } else if let Some(name) = params.get("preset") {
        let found = PRESETS.iter().find(|p| p.name == name);
        if found.is_none() {
            let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
            messages.push(format!(
                "There is no preset “{name}” (try {}); showing the default example.",
                names.join(", ")
            ));
        }
        found.map(|p| ((p.build)(), Some(p.name)))
    } else {
        None
    };
    let (model, preset) = from_url.unwrap_or_else(|| ((default.build)(), Some(default.name)));
    let view = params.get("view").and_then(|v| {
        let step = Step::from_key(&v);
        if step.is_none() {
            messages.push(format!("There is no step “{v}” to show; showing them all."));
        }
        step
    });
    Start {
        model,
        preset,
        view,
        walk: params.get("walk").is_some_and(|w| w == "1"),
        message: (!messages.is_empty()).then(|| messages.join(" ")),
    }
}

/// A link to this page that opens `model` exactly.
pub fn link_to(model: &Model) -> String {
    let location = window().location();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    format!(
        "{base}#state={}",
        String::from(js_sys::encode_uri_component(&write_state(model)))
    )
}

/// Makes the address bar name the preset just picked, so reloading keeps it.
pub fn show_preset_in_url(name: &str) {
    let Some(params) = params() else { return };
    params.delete("state");
    params.set("preset", name);
    // Dropping the fragment too: a preset replaces any shared state.
    let url = format!(
        "{}?{}",
        window().location().pathname().unwrap_or_default(),
        String::from(params.to_string())
    );
    window()
        .history()
        .and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)))
        .ok();
}
