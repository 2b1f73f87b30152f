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

pub use catalogue::{slots, Catalogue};
pub use lang::{Lang, Plural};
pub use msg::{id_of, Arg, Entry, Key, Msg};

/// Declares an area's keys: `name = "text";` is a [`Key`] constant, and `name(a, b) = "… {a}
/// … {b} …";` a function from its arguments to a [`Msg`] (a wrong number of arguments does not
/// compile; `tests/i18n.rs` checks the text names exactly those). `ALL` lists them by name: the
/// page itself knows a key by its name's hash, so no name is in its code.
macro_rules! keys {
    ($area:literal; $($name:ident $(($($arg:ident),*))? = $en:literal;)*) => {
        #[allow(unused_imports)]
        use $crate::core::i18n::{Entry, Key, Msg};
        $( keys!(@one $area $name $(($($arg),*))? $en); )*
        /// Every key of this area by its name, for the tests.
        pub const ALL: &[(&str, Key)] = &[$((concat!($area, ".", stringify!($name)), Key(&Entry {
            id: $crate::core::i18n::id_of(concat!($area, ".", stringify!($name))),
            en: $en,
            args: &[$($(stringify!($arg)),*)?],
        }))),*];
    };
    (@one $area:literal $name:ident $en:literal) => {
        #[doc = $en]
        #[allow(non_upper_case_globals)]
        pub const $name: Key = Key(&Entry {
            id: $crate::core::i18n::id_of(concat!($area, ".", stringify!($name))),
            en: $en,
            args: &[],
        });
    };
    (@one $area:literal $name:ident ($($arg:ident),*) $en:literal) => {
        #[doc = $en]
        #[allow(clippy::too_many_arguments)]
        pub fn $name($($arg: impl Into<$crate::core::i18n::Arg>),*) -> Msg {
            const KEY: Key = Key(&Entry {
                id: $crate::core::i18n::id_of(concat!($area, ".", stringify!($name))),
                en: $en,
                args: &[$(stringify!($arg)),*],
            });
            Msg {
                key: KEY,
                args: vec![$($arg.into()),*],
            }
        }
    };
}

pub mod keys;
