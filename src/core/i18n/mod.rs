//! Every sentence the page shows, through one catalogue: each key's English text is written
//! here, beside its name and the arguments it takes ([`keys!`]); another language is a file of
//! the same keys fetched when chosen (`www/i18n/<tag>.json`), read into a [`Catalogue`] that
//! falls back to English key by key. The core's own messages reach the page as a [`Msg`] (a key
//! and its arguments), so the page words them in the learner's language.
//!
//! A message's text holds its arguments as `{name}`, and a count's forms as
//! `{n:one=edit|other=edits}` (`#` in a form is the count), in the plural forms of
//! [`Lang::plurals`].

pub mod catalogue;
pub mod lang;
pub mod msg;

pub use catalogue::Catalogue;
pub use lang::{Lang, Plural};
pub use msg::{area_no, Arg, Entry, Key, Msg};

/// Declares an area's keys: `name = "text";` is a [`Key`] constant, and `name(a, b) = "… {a}
/// … {b} …";` a function from its arguments to a [`Msg`] (a wrong number of arguments does not
/// compile; `tests/i18n.rs` checks the text names exactly those). A key is known by its area's
/// place and its own (as a shipped language file lists its texts), and its arguments by their
/// order in its English (the constructor takes them so), so no name is in the page's code;
/// `ALL` lists them with their names and arguments for the tests and the build.
macro_rules! keys {
    ($area:literal; $($name:ident $(($($arg:ident),*))? = $en:literal;)*) => {
        #[allow(unused_imports)]
        use $crate::core::i18n::{Entry, Key, Msg};
        /// Each key's place in this area.
        #[allow(non_camel_case_types, dead_code)]
        enum Place { $($name),* }
        #[allow(dead_code)]
        const AREA: u8 = $crate::core::i18n::area_no($area);
        $( keys!(@one $name $(($($arg),*))? $en); )*
        /// Every key of this area with its name and arguments, in order.
        pub const ALL: &[(&str, &[&str], Key)] = &[$((
            concat!($area, ".", stringify!($name)),
            &[$($(stringify!($arg)),*)?],
            Key(&Entry { area: AREA, place: Place::$name as u16, en: $en }),
        )),*];
    };
    (@one $name:ident $en:literal) => {
        #[doc = $en]
        #[allow(non_upper_case_globals)]
        pub const $name: Key = Key(&Entry {
            area: AREA,
            place: Place::$name as u16,
            en: $en,
        });
    };
    (@one $name:ident ($($arg:ident),*) $en:literal) => {
        #[doc = $en]
        #[allow(clippy::too_many_arguments)]
        pub fn $name($($arg: impl Into<$crate::core::i18n::Arg>),*) -> Msg {
            const KEY: Key = Key(&Entry {
                area: AREA,
                place: Place::$name as u16,
                en: $en,
            });
            Msg {
                key: KEY,
                args: vec![$($arg.into()),*],
            }
        }
    };
}

pub mod keys;
