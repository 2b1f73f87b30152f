//! The page's words in the learner's language: the catalogue in use, and texts that follow it (a
//! view built once rewords itself when the language changes, keeping what it holds: rebuilding
//! the page instead would drop the work its tasks and observers still hold).

pub mod picker;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::core::i18n::keys::page;
use crate::core::i18n::{Arg, Catalogue, Key, Lang, Msg};

thread_local! {
    static IN_USE: RefCell<Rc<Catalogue>> = RefCell::new(Rc::new(Catalogue::english()));
    /// Changes once the catalogue has: what every worded text tracks. Reference-counted, so that
    /// no view that happens to read it first owns it (and disposes of it with itself).
    static CHOSEN: ArcRwSignal<Lang> = ArcRwSignal::new(Lang::En);
}

/// The language the page is in (tracked).
pub fn lang() -> Lang {
    CHOSEN.with(|c| c.get())
}

/// `msg` in the page's language, tracked: inside a view's closure, reworded on a change.
pub fn word(msg: &Msg) -> String {
    CHOSEN.with(|c| c.track());
    IN_USE.with(|c| c.borrow().render(msg))
}

/// `msg` in the page's language, or in English when the catalogue is in use (a panic's words,
/// said from inside any code): never panics itself.
pub fn word_now(msg: &Msg) -> String {
    IN_USE
        .try_with(|c| c.try_borrow().ok().map(|c| c.render(msg)))
        .ok()
        .flatten()
        .unwrap_or_else(|| msg.english())
}

/// A text that follows the page's language, for a view (`{t(intro::lead)}`, `title=t(…)`).
pub fn t(key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || word(&key.into())
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

/// A field's, a button's, a panel's or a matrix's name: words in the page's language (a key), or
/// a symbol kept as it is (`dₖ`, `W_query`, `Q·Kᵀ`).
#[derive(Clone, Copy)]
pub enum Label {
    /// Worded in the page's language.
    Key(Key),
    /// A symbol, shown as it is.
    Text(&'static str),
}

impl From<Key> for Label {
    fn from(key: Key) -> Label {
        Label::Key(key)
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Label {
        Label::Text(text)
    }
}

impl From<Label> for Arg {
    fn from(label: Label) -> Arg {
        match label {
            Label::Key(key) => key.into(),
            Label::Text(text) => text.into(),
        }
    }
}

impl Label {
    /// In the page's language (tracked).
    pub fn word(self) -> String {
        match self {
            Label::Key(key) => word(&key.into()),
            Label::Text(text) => text.to_owned(),
        }
    }
}

/// A symbol (÷√dₖ, ÷dₖ) as a view: left to right in any page, where a right-to-left one would
/// read "dₖ√÷" (its signs take the direction of the text around them).
pub fn symbol(text: &'static str) -> impl IntoView {
    view! { <bdi dir="ltr">{text}</bdi> }
}

/// First of the private-use characters that stand for a sentence's figures (a number in its own
/// element, a menu, code) while it is worded: no language's text holds them.
const FIGURE: u32 = 0xE000;

/// The `i`th figure of a sentence given to [`with_figures`], as the message's argument.
pub fn figure(i: usize) -> Arg {
    Arg::Text(char::from_u32(FIGURE + i as u32).map_or_else(String::new, String::from))
}

/// A sentence with figures (a number in its own element, a menu, code) in it: worded whole in the page's language, then
/// `figure(i)` drawn wherever the language put that argument, so a translation may reorder them.
pub fn with_figures(
    msg: impl Fn() -> Msg + Send + Sync + 'static,
    figure: impl Fn(usize) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        let text = word(&msg());
        let mut parts = Vec::new();
        let mut rest = text.as_str();
        while let Some((at, c)) = rest
            .char_indices()
            .find(|&(_, c)| (FIGURE..FIGURE + 0x100).contains(&(c as u32)))
        {
            parts.push(rest[..at].to_owned().into_any());
            parts.push(figure((c as u32 - FIGURE) as usize));
            rest = &rest[at + c.len_utf8()..];
        }
        parts.push(rest.to_owned().into_any());
        parts.collect_view()
    }
}
