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
