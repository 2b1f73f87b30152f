//! A panic must not leave a silently dead page: show what happened and how to recover.

use wasm_bindgen::JsCast;

use crate::core::i18n::keys::page;
use crate::ui::lang::word_now;

/// Replaces the default hook with one that logs the panic and shows a banner over the page.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&format!("Attention Explorer crashed: {message}").into());
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(banner) = document.create_element("div") else {
            return;
        };
        banner.set_class_name("panic-banner");
        banner.set_attribute("role", "alert").ok();
        banner.set_text_content(Some(&word_now(&page::crashed(message))));
        if let Some(body) = document.body() {
            body.prepend_with_node_1(banner.unchecked_ref()).ok();
        }
    }));
}
