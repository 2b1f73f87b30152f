//! The page's languages: their tags, their direction, the plural forms their grammar needs, and
//! which one a visit gets.

/// A language the page is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English, compiled in: every other language falls back to it key by key.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
    /// Spanish.
    Es,
    /// Brazilian Portuguese.
    PtBr,
    /// French.
    Fr,
    /// Korean.
    Ko,
    /// Arabic, written right to left.
    Ar,
    /// English made 40 % longer and accented (`en-XA`), to find clipped or untranslated text;
    /// only from a link, never offered.
    Pseudo,
}

/// A plural form, as CLDR names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plural {
    /// Arabic's 0.
    Zero,
    /// 1 (in French and Portuguese, 0 and 1).
    One,
    /// Arabic's 2.
    Two,
    /// Arabic's 3–10 (by the last two digits).
    Few,
    /// Arabic's 11–99 (by the last two digits); Spanish's millions.
    Many,
    /// Every other count.
    Other,
}

impl Plural {
    /// Its name in a message's `{n:one=…|other=…}`.
    pub fn name(self) -> &'static str {
        match self {
            Plural::Zero => "zero",
            Plural::One => "one",
            Plural::Two => "two",
            Plural::Few => "few",
            Plural::Many => "many",
            Plural::Other => "other",
        }
    }
}

impl Lang {
    /// The languages a learner can pick, in the picker's order.
    pub const OFFERED: [Lang; 7] = [
        Lang::En,
        Lang::ZhCn,
        Lang::Es,
        Lang::PtBr,
        Lang::Fr,
        Lang::Ko,
        Lang::Ar,
    ];

    /// Its BCP 47 tag, as in `lang=` and `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
            Lang::Es => "es",
            Lang::PtBr => "pt-BR",
            Lang::Fr => "fr",
            Lang::Ko => "ko",
            Lang::Ar => "ar",
            Lang::Pseudo => "en-XA",
        }
    }

    /// Its name in itself, for the picker.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
            Lang::Es => "Español",
            Lang::PtBr => "Português (Brasil)",
            Lang::Fr => "Français",
            Lang::Ko => "한국어",
            Lang::Ar => "العربية",
            Lang::Pseudo => "Ƥşéûđô",
        }
    }

    /// Whether it is written right to left.
    pub fn rtl(self) -> bool {
        self == Lang::Ar
    }

    /// `<html dir>`.
    pub fn dir(self) -> &'static str {
        if self.rtl() {
            "rtl"
        } else {
            "ltr"
        }
    }

    /// Whether its text comes from a file fetched when chosen (English and the pseudo-language
    /// are made in the page).
    pub fn fetched(self) -> bool {
        !matches!(self, Lang::En | Lang::Pseudo)
    }

    /// The language a `lang=` tag names, exactly ([`Lang::tag`], any case).
    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::OFFERED
            .into_iter()
            .chain([Lang::Pseudo])
            .find(|l| l.tag().eq_ignore_ascii_case(tag))
    }

    /// Each offered language by a browser tag's first part (`pt` of `pt-PT`): [`Lang::preferred`]'s
    /// table, which www/boot.js reads too (the build's contract).
    pub const NEAR: [(&'static str, Lang); 7] = [
        ("en", Lang::En),
        ("es", Lang::Es),
        ("pt", Lang::PtBr),
        ("fr", Lang::Fr),
        ("ko", Lang::Ko),
        ("ar", Lang::Ar),
        ("zh", Lang::ZhCn),
    ];

    /// The parts of a `zh` tag that mean traditional Chinese, which the page does not offer.
    pub const TRADITIONAL: [&'static str; 4] = ["hant", "tw", "hk", "mo"];

    /// The offered language closest to a browser's preference (`navigator.languages`): `zh`,
    /// `zh-Hans` and `zh-SG` are simplified Chinese, `pt-PT` is Portuguese, `fr-CA` French;
    /// traditional Chinese is none of them.
    pub fn preferred(tag: &str) -> Option<Lang> {
        let tag = tag.to_ascii_lowercase();
        let mut parts = tag.split(['-', '_']);
        let base = parts.next()?;
        let (_, lang) = Lang::NEAR.into_iter().find(|(b, _)| *b == base)?;
        let traditional = lang == Lang::ZhCn && parts.any(|p| Lang::TRADITIONAL.contains(&p));
        (!traditional).then_some(lang)
    }

    /// A visit's language: the link's `lang=`, else the learner's last choice in this browser
    /// (a tag), else the first of the browser's preferred languages that the page offers, else
    /// English. `www/boot.js` decides the same before the page's code arrives, from the
    /// contract's words (core::formats::boot).
    pub fn choose<'a>(
        linked: Option<Lang>,
        stored: Option<&str>,
        preferred: impl IntoIterator<Item = &'a str>,
    ) -> Lang {
        linked
            .or_else(|| stored.and_then(Lang::from_tag))
            .or_else(|| preferred.into_iter().find_map(Lang::preferred))
            .unwrap_or_default()
    }

    /// The plural form of the count `n` in this language (CLDR's rules for whole numbers).
    pub fn plural(self, n: u64) -> Plural {
        match self {
            Lang::En | Lang::Pseudo => {
                if n == 1 {
                    Plural::One
                } else {
                    Plural::Other
                }
            }
            Lang::Es => match n {
                1 => Plural::One,
                n if n != 0 && n % 1_000_000 == 0 => Plural::Many,
                _ => Plural::Other,
            },
            Lang::Fr | Lang::PtBr => match n {
                0 | 1 => Plural::One,
                n if n != 0 && n % 1_000_000 == 0 => Plural::Many,
                _ => Plural::Other,
            },
            Lang::ZhCn | Lang::Ko => Plural::Other,
            Lang::Ar => match (n, n % 100) {
                (0, _) => Plural::Zero,
                (1, _) => Plural::One,
                (2, _) => Plural::Two,
                (_, 3..=10) => Plural::Few,
                (_, 11..=99) => Plural::Many,
                _ => Plural::Other,
            },
        }
    }

    /// The plural forms a message with a count must give in this language.
    pub fn plurals(self) -> &'static [Plural] {
        use Plural::*;
        match self {
            Lang::En | Lang::Pseudo => &[One, Other],
            Lang::Es | Lang::Fr | Lang::PtBr => &[One, Many, Other],
            Lang::ZhCn | Lang::Ko => &[Other],
            Lang::Ar => &[Zero, One, Two, Few, Many, Other],
        }
    }
}
