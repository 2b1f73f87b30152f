//! A sentence's key, and a message: a key with its arguments.

/// One sentence of the page: where a language file has it, and its English text (whose slots,
/// in the order they first appear, are its arguments).
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its area's place in [`AREAS`](super::keys::AREAS).
    pub area: u8,
    /// Its place in its area.
    pub place: u16,
    /// Its text in English.
    pub en: &'static str,
}

/// The areas, in [`AREAS`](super::keys::AREAS)' order.
const NAMES: [&str; 14] = [
    "intro",
    "page",
    "story",
    "steps",
    "labs",
    "frame",
    "walk",
    "settings",
    "views",
    "exercises",
    "models",
    "edits",
    "formats",
    "training",
];

/// An area's place among the areas, at compile time (an area missing from `NAMES` does not
/// compile).
pub const fn area_no(name: &str) -> u8 {
    let mut i = 0;
    while i < NAMES.len() {
        if same(NAMES[i].as_bytes(), name.as_bytes()) {
            return i as u8;
        }
        i += 1;
    }
    panic!("an area missing from i18n::msg::NAMES")
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A sentence without arguments, to look up in the catalogue in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(pub &'static Entry);

/// A sentence with its arguments (numbers, words, other messages), to be worded in the
/// learner's language.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    /// The sentence.
    pub key: Key,
    /// Its arguments' values, in the order its English first names them.
    pub args: Vec<Arg>,
}

/// A message's argument: a value as it is written in every language (a number, a token the
/// learner typed), or a message of its own, worded in the same language.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// Written as it is.
    Text(String),
    /// Worded in the message's language.
    Msg(Msg),
}

impl<T: std::fmt::Display> From<T> for Arg {
    fn from(value: T) -> Arg {
        Arg::Text(value.to_string())
    }
}

impl From<Msg> for Arg {
    fn from(msg: Msg) -> Arg {
        Arg::Msg(msg)
    }
}

impl From<Key> for Arg {
    fn from(key: Key) -> Arg {
        Arg::Msg(key.into())
    }
}

impl From<Key> for Msg {
    fn from(key: Key) -> Msg {
        Msg {
            key,
            args: Vec::new(),
        }
    }
}
