//! A language's texts and how a message is worded in it: its arguments put in, a count's
//! plural form chosen, and (right to left) each argument isolated so that a number or an
//! English token keeps its own direction.

use super::lang::{Lang, Plural};
use super::msg::{Arg, Key, Msg};

/// The texts of one language, falling back to English for a key it lacks or gets wrong.
#[derive(Clone, Debug, Default)]
pub struct Catalogue {
    lang: Lang,
    /// The file's texts by area and place (empty where it has none).
    texts: Vec<Vec<String>>,
}

/// A shipped language file's first line: what it is, in the format of this page (2: each
/// argument named by its place among English's, `{0}`, not its name).
pub const SHIPPED: &str = "attention-explorer language 2";

/// What parts two areas' texts in a shipped language file: a line holding a form feed.
pub const AREA_BREAK: &str = "\n\u{c}\n";

/// Unicode's first-strong isolate and its end: an argument inside right-to-left text.
const ISOLATE: (char, char) = ('\u{2068}', '\u{2069}');

/// Appends `text` with a left-to-right mark before each run of ÷ and √, so that in
/// right-to-left text "÷√dₖ" and "√3" read as written, not "dₖ√÷" (the symbols are neutral:
/// they would take the direction of the Arabic around them). Put in when worded, not shipped.
fn push_symbols_left_to_right(out: &mut String, text: &str) {
    let mut after_symbol = false;
    for c in text.chars() {
        let symbol = matches!(c, '÷' | '√');
        if symbol && !after_symbol {
            out.push('\u{200e}');
        }
        after_symbol = symbol;
        out.push(c);
    }
}

impl Catalogue {
    /// English, as compiled in.
    pub fn english() -> Catalogue {
        Catalogue::default()
    }

    /// The catalogue of `lang` with no file read: English, or for [`Lang::Pseudo`] English
    /// lengthened and accented.
    pub fn built_in(lang: Lang) -> Catalogue {
        Catalogue {
            lang,
            texts: Vec::new(),
        }
    }

    /// A language file as the page ships it ([`ship`]): [`SHIPPED`]'s line, then each area's
    /// texts a line each in order (an empty line where it has none), the areas apart by
    /// [`AREA_BREAK`]. A text naming other arguments than English's is not used.
    pub fn read(lang: Lang, file: &str) -> Result<Catalogue, String> {
        let Some(body) = file
            .strip_prefix(SHIPPED)
            .and_then(|f| f.strip_prefix('\n'))
        else {
            return Err(format!("the {} file is not a language file", lang.tag()));
        };
        let texts = body
            .split(AREA_BREAK)
            .map(|area| area.split('\n').map(str::to_owned).collect())
            .collect();
        Ok(Catalogue { lang, texts })
    }

    /// Its file's text for `key`, if it names the same arguments as English's.
    fn translated(&self, key: Key) -> Option<&str> {
        let area = self.texts.get(usize::from(key.0.area))?;
        let text = area.get(usize::from(key.0.place))?;
        // Its arguments by their places among English's ([`ship`]): each of them (`slots` are
        // distinct), no other.
        let english = named(key.0.en).count();
        let places = slots(text);
        let each =
            places.len() == english && places.iter().all(|s| place(s).is_some_and(|p| p < english));
        (!text.is_empty() && each).then_some(text.as_str())
    }

    /// Its language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Whether its file gives `key` a text that can be used (the same arguments as English).
    pub fn has(&self, key: Key) -> bool {
        self.translated(key).is_some()
    }

    /// The text of a key without arguments.
    pub fn text(&self, key: Key) -> String {
        self.render(&Msg::from(key))
    }

    /// `msg` worded in this language.
    pub fn render(&self, msg: &Msg) -> String {
        let entry = msg.key.0;
        let (template, lang) = match self.translated(msg.key) {
            Some(t) => (t, self.lang),
            // English's plural forms for English's text.
            // English lengthened, its arguments (a learner's words) left as they are.
            None if self.lang == Lang::Pseudo => {
                return self.fill(&pseudo(entry.en), msg, Lang::En)
            }
            None => (entry.en, Lang::En),
        };
        self.fill(template, msg, lang)
    }

    /// `template` with `msg`'s arguments put in (a message argument worded here), counts in
    /// `lang`'s plural forms.
    fn fill(&self, template: &str, msg: &Msg, lang: Lang) -> String {
        // The arguments' names in English's order, read once rather than at each slot.
        let names: Vec<&str> = named(msg.key.0.en).collect();
        // A name (English's texts) or a place among English's arguments (a shipped file's).
        let arg = |name: &str| {
            let at = place(name).or_else(|| names.iter().position(|&a| a == name));
            at.and_then(|i| msg.args.get(i))
        };
        let value = |name: &str| match arg(name) {
            Some(Arg::Text(text)) => text.clone(),
            Some(Arg::Msg(inner)) => self.render(inner),
            None => String::new(),
        };
        let mut out = String::with_capacity(template.len());
        for piece in pieces(template) {
            match piece {
                Piece::Text(run) if self.lang.rtl() => push_symbols_left_to_right(&mut out, run),
                Piece::Text(run) => out.push_str(run),
                // A value (a number, a token), not a sentence worded in this language.
                Piece::Slot(name, None)
                    if lang.rtl() && matches!(arg(name), Some(Arg::Text(_))) =>
                {
                    out.push(ISOLATE.0);
                    out.push_str(&value(name));
                    out.push(ISOLATE.1);
                }
                Piece::Slot(name, None) => out.push_str(&value(name)),
                Piece::Slot(name, Some(forms)) => {
                    let count = value(name);
                    let form = count.parse().map_or(Plural::Other, |n| lang.plural(n));
                    out.push_str(&choose_form(forms, form).replace('#', &count));
                }
            }
        }
        out
    }
}

/// A translator's language file (`www/i18n/<tag>.json`: one object of `"area.name": "text"`) as
/// the page ships it and [`Catalogue::read`] reads it: no names, no JSON, each argument by its
/// place among English's (`{0}`), each area's texts a line each in the page's order (an empty
/// line for a key it lacks or keeps as English's, a symbol or a formula: the page falls back to
/// English's own; a key the page does not have is left out). The build's step
/// (`attention-trace --ship-language`) and the tests write it so.
pub fn ship(source: &str) -> Result<String, String> {
    use super::keys::AREAS;
    use serde_json::Value;
    let Value::Object(texts) = serde_json::from_str(source).map_err(|e| e.to_string())? else {
        return Err("a language file is one JSON object".into());
    };
    let mut areas = Vec::new();
    for keys in AREAS {
        let mut lines = Vec::new();
        for (name, args, key) in keys.iter() {
            let text = match texts.get(*name) {
                Some(Value::String(text)) if text == key.0.en => "",
                Some(Value::String(text)) => text.as_str(),
                Some(_) => return Err(format!("{name} is not a text")),
                None => "",
            };
            if text.contains(['\n', '\r', '\u{c}']) {
                return Err(format!("{name} holds a line break"));
            }
            // An argument by its place among English's: a name is bytes every learner downloads.
            lines.push(renamed_slots(text, |n| {
                args.iter().position(|a| *a == n).map(|i| i.to_string())
            }));
        }
        areas.push(lines.join("\n"));
    }
    Ok(format!("{SHIPPED}\n{}", areas.join(AREA_BREAK)))
}

impl Msg {
    /// The message in English (the command line's and the scripting API's language).
    pub fn english(&self) -> String {
        Catalogue::english().render(self)
    }
}

/// The slots `{name}` and `{name:…}` of a text, by name.
fn slots(text: &str) -> Vec<&str> {
    let mut names: Vec<&str> = pieces(text)
        .filter_map(|p| match p {
            Piece::Slot(name, _) => Some(name),
            Piece::Text(_) => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The arguments a text names, in the order they first appear.
fn named(text: &str) -> impl Iterator<Item = &str> {
    let mut seen = Vec::new();
    pieces(text).filter_map(move |p| match p {
        Piece::Slot(name, _) if !seen.contains(&name) => {
            seen.push(name);
            Some(name)
        }
        _ => None,
    })
}

/// A shipped slot's place among English's arguments ("0", "1", …): none for a name.
fn place(slot: &str) -> Option<usize> {
    let digits = !slot.is_empty() && slot.len() < 3 && slot.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| slot.bytes().fold(0, |n, b| n * 10 + usize::from(b - b'0')))
}

/// `text` with each slot's name replaced by what `rename` gives for it (its forms kept); a slot
/// it gives nothing for keeps its name.
fn renamed_slots(text: &str, rename: impl Fn(&str) -> Option<String>) -> String {
    if !text.contains('{') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Text(run) => out.push_str(run),
            Piece::Slot(name, forms) => {
                out.push('{');
                out.push_str(&rename(name).unwrap_or_else(|| name.to_owned()));
                if let Some(forms) = forms {
                    out.push(':');
                    out.push_str(forms);
                }
                out.push('}');
            }
        }
    }
    out
}

enum Piece<'a> {
    Text(&'a str),
    /// A name and, for a count, its forms (`one=edit|other=edits`).
    Slot(&'a str, Option<&'a str>),
}

/// A text cut into plain runs and `{…}` slots (an unclosed `{` is text).
fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let slot = rest
            .find('{')
            .and_then(|open| Some((open, open + rest[open..].find('}')?)));
        match slot {
            Some((0, close)) => {
                let inner = &rest[1..close];
                rest = &rest[close + 1..];
                Some(match inner.split_once(':') {
                    Some((name, forms)) => Piece::Slot(name.trim(), Some(forms)),
                    None => Piece::Slot(inner.trim(), None),
                })
            }
            Some((open, _)) => {
                let (run, after) = rest.split_at(open);
                rest = after;
                Some(Piece::Text(run))
            }
            None => Some(Piece::Text(std::mem::take(&mut rest))),
        }
    })
}

/// The form named `form` among `one=…|other=…`, else `other`, else the first.
fn choose_form(forms: &str, form: Plural) -> &str {
    let named = |wanted: &str| {
        forms.split('|').find_map(|f| {
            let (name, text) = f.split_once('=')?;
            (name.trim() == wanted).then_some(text)
        })
    };
    named(form.name())
        .or_else(|| named("other"))
        .or_else(|| {
            forms
                .split('|')
                .next()
                .and_then(|f| f.split_once('=').map(|(_, t)| t))
        })
        .unwrap_or("")
}

/// English lengthened by 40 % and accented, its slots kept: what a longer language does to a
/// layout, and any text that does not go through the catalogue stands out unaccented.
fn pseudo(english: &str) -> String {
    let accent = |c| match c {
        'a' => 'á',
        'e' => 'é',
        'i' => 'í',
        'o' => 'ö',
        'u' => 'ü',
        'c' => 'ç',
        'n' => 'ñ',
        'A' => 'Å',
        'E' => 'É',
        'O' => 'Ø',
        'U' => 'Û',
        c => c,
    };
    let mut out = String::from("⟦");
    for piece in pieces(english) {
        match piece {
            Piece::Text(run) => out.extend(run.chars().map(accent)),
            Piece::Slot(name, None) => out.push_str(&format!("{{{name}}}")),
            Piece::Slot(name, Some(forms)) => out.push_str(&format!("{{{name}:{forms}}}")),
        }
    }
    let padding = (english.chars().count() * 2).div_ceil(5);
    out.push_str(&" ·".repeat(padding.div_ceil(2)));
    out.push('⟧');
    out
}
