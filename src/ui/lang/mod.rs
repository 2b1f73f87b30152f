//! The page's words in the learner's language: the catalogue in use, and its texts worded as the
//! page is built (the page root builds it again when the language changes: no text needs an
//! effect of its own).

pub mod picker;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::core::i18n::keys::page;
use crate::core::i18n::{Catalogue, Key, Lang, Msg};

thread_local! {
    static IN_USE: RefCell<Rc<Catalogue>> = RefCell::new(Rc::new(Catalogue::english()));
    /// Changes once the catalogue has: what every worded text tracks.
    static CHOSEN: RwSignal<Lang> = RwSignal::new(Lang::En);
}

/// The language the page is in (tracked: the page root builds the page again when it changes).
pub fn lang() -> Lang {
    CHOSEN.with(|c| c.get())
}

/// `msg` in the page's language, as the page is built.
pub fn word(msg: &Msg) -> String {
    IN_USE.with(|c| c.borrow().render(msg))
}

/// A text in the page's language, as the page is built (`{t(intro::lead)}`, `title=t(…)`).
pub fn t(key: Key) -> String {
    word(&key.into())
}

/// The language a teacher's snippet or exercise link asks for: the page's, unless English (a
/// link without `lang=` opens in each visitor's own).
pub fn course_lang() -> Option<Lang> {
    Some(lang()).filter(|l| *l != Lang::En)
}

/// Puts `catalogue` in use: `<html lang dir>`, the tab's title and every worded text follow.
pub fn put(catalogue: Catalogue) {
    let lang = catalogue.lang();
    document().set_title(&catalogue.text(page::tab_title));
    IN_USE.with(|c| *c.borrow_mut() = Rc::new(catalogue));
    if let Some(root) = document().document_element() {
        root.set_attribute("lang", lang.tag()).ok();
        root.set_attribute("dir", lang.dir()).ok();
    }
    CHOSEN.with(|c| c.set(lang));
}
