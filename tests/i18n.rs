//! The page's words in every language: each key's English names exactly its arguments; each
//! language file (`www/i18n/<tag>.json`) gives every key, with the same arguments and the
//! plural forms its grammar needs, within its size; messages are worded as each language's
//! grammar asks; and no English sentence is written into a view or the core outside the catalogue.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use attention_explorer::core::i18n::catalogue::ship;
use attention_explorer::core::i18n::keys::{page, steps, story, AREAS};
use attention_explorer::core::i18n::{Catalogue, Key, Lang, Plural};

/// Every key with its name and arguments.
fn all_keys() -> Vec<(&'static str, &'static [&'static str], Key)> {
    AREAS.iter().flat_map(|a| a.iter().copied()).collect()
}

/// A translator's file read as the page reads it once shipped.
fn read(lang: Lang, source: &str) -> Catalogue {
    Catalogue::read(lang, &ship(source).unwrap()).unwrap()
}

#[test]
fn each_key_is_where_its_area_and_place_say() {
    for (area, keys) in AREAS.iter().enumerate() {
        for (place, (name, _, key)) in keys.iter().enumerate() {
            assert_eq!(
                (usize::from(key.0.area), usize::from(key.0.place)),
                (area, place),
                "{name}"
            );
        }
    }
}

fn file_of(lang: Lang) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("www/i18n/{}.json", lang.tag()))
}

/// A text's `{n:one=…|other=…}` forms, by argument.
fn forms(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if let Some((name, forms)) = rest[open + 1..open + close].split_once(':') {
            let names = forms
                .split('|')
                .filter_map(|f| f.split_once('=').map(|(n, _)| n.trim().to_owned()));
            out.insert(name.trim().to_owned(), names.collect());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

#[test]
fn every_key_has_one_name_and_names_its_arguments() {
    let keys = all_keys();
    assert!(keys.len() > 30, "{} keys", keys.len());
    let mut names = BTreeSet::new();
    for &(name, args, key) in &keys {
        let entry = key.0;
        assert!(names.insert(name), "{name} twice");
        // The page finds an argument by where its English first names it.
        let mut named = Vec::new();
        for slot in entry
            .en
            .split('{')
            .skip(1)
            .filter_map(|s| s.split(['}', ':']).next())
        {
            if !named.contains(&slot.trim()) {
                named.push(slot.trim());
            }
        }
        assert_eq!(
            named, args,
            "{name}'s English names its arguments in their order"
        );
        assert!(!entry.en.trim().is_empty(), "{name} is empty");
        for (arg, named) in forms(entry.en) {
            assert_eq!(
                named,
                BTreeSet::from(["one".to_owned(), "other".to_owned()]),
                "{name}'s {arg}"
            );
        }
    }
}

#[test]
fn every_language_file_gives_every_key_with_its_arguments_and_forms() {
    let keys = all_keys();
    for lang in Lang::OFFERED.into_iter().filter(|l| l.fetched()) {
        let path = file_of(lang);
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let texts: BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
        let known: BTreeSet<&str> = keys.iter().map(|(name, ..)| *name).collect();
        let given: BTreeSet<&str> = texts.keys().map(String::as_str).collect();
        let missing: Vec<_> = known.difference(&given).collect();
        let unknown: Vec<_> = given.difference(&known).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", lang.tag());
        assert!(
            unknown.is_empty(),
            "{} has keys the page does not: {unknown:?}",
            lang.tag()
        );
        let catalogue = read(lang, &text);
        let wanted: BTreeSet<String> = lang.plurals().iter().map(|p| p.name().to_owned()).collect();
        for &(name, _, key) in &keys {
            let t = &texts[name];
            assert!(!t.trim().is_empty(), "{} {} is empty", lang.tag(), name);
            assert!(
                catalogue.has(key) || t == key.0.en,
                "{} {}: other arguments than English's",
                lang.tag(),
                name
            );
            for (arg, named) in forms(t) {
                assert_eq!(
                    named,
                    wanted,
                    "{} {}'s {arg}: {}'s forms",
                    lang.tag(),
                    name,
                    lang.tag()
                );
            }
            // English's counts are counts here too.
            for arg in forms(key.0.en).keys() {
                assert!(
                    forms(t).contains_key(arg) || lang.plurals() == [Plural::Other],
                    "{} {}: {arg} has no forms",
                    lang.tag(),
                    name
                );
            }
        }
    }
}

#[test]
fn each_language_file_is_at_most_30_kb_gzipped() {
    for lang in Lang::OFFERED.into_iter().filter(|l| l.fetched()) {
        let text = fs::read_to_string(file_of(lang)).unwrap();
        // As the build ships it: its texts without names or spacing; a gzip header is 18 bytes.
        let packed = miniz_oxide::deflate::compress_to_vec(ship(&text).unwrap().as_bytes(), 9);
        let gz = packed.len() + 18;
        // As tests/size.mjs counts it (a KB is 1000 bytes).
        assert!(gz <= 30_000, "{}: {gz} bytes gzipped", lang.tag());
    }
}

#[test]
fn counts_take_each_languages_plural_forms() {
    use Plural::*;
    let table: [(Lang, [Plural; 9]); 6] = [
        // 0, 1, 2, 3, 11, 100, 101, 102, 1 000 000
        (
            Lang::En,
            [Other, One, Other, Other, Other, Other, Other, Other, Other],
        ),
        (
            Lang::Fr,
            [One, One, Other, Other, Other, Other, Other, Other, Many],
        ),
        (
            Lang::PtBr,
            [One, One, Other, Other, Other, Other, Other, Other, Many],
        ),
        (
            Lang::Es,
            [Other, One, Other, Other, Other, Other, Other, Other, Many],
        ),
        (Lang::Ko, [Other; 9]),
        (
            Lang::Ar,
            [Zero, One, Two, Few, Many, Other, Other, Other, Other],
        ),
    ];
    for (lang, expected) in table {
        let got = [0, 1, 2, 3, 11, 100, 101, 102, 1_000_000].map(|n| lang.plural(n));
        assert_eq!(got, expected, "{}", lang.tag());
    }
    assert_eq!(Lang::Ar.plural(103), Few);
    assert_eq!(Lang::Ar.plural(111), Many);
    assert_eq!(Lang::ZhCn.plural(1), Other);
}

#[test]
fn a_message_is_worded_in_its_language_with_its_arguments() {
    let fr = read(
        Lang::Fr,
        r#"{"page.not_reset": "Non réinitialisé : {why}.",
            "page.sentences": "{first} {second}",
            "story.gap": "{gap:one=un écart de #|many=# d'écart|other=un écart de #}"}"#,
    );
    assert_eq!(
        fr.render(&page::not_reset("trop long")),
        "Non réinitialisé : trop long."
    );
    assert_eq!(fr.render(&story::gap(1)), "un écart de 1");
    // A key the file lacks is English; a message inside another is worded in the same language.
    assert_eq!(fr.text(page::title), "Attention Explorer");
    assert_eq!(
        fr.render(&page::sentences(page::not_reset("x"), page::contents)),
        "Non réinitialisé : x. Contents: every step and lab"
    );
    // A text naming other arguments than English's is not used.
    let wrong = read(Lang::Fr, r#"{"page.not_reset": "Non : {pourquoi}."}"#);
    assert!(!wrong.has(page::title) && !wrong.has(Key(page::not_reset("").key.0)));
    assert_eq!(wrong.render(&page::not_reset("x")), "Not reset: x.");
    assert!(Catalogue::read(Lang::Fr, "not json").is_err());
    assert!(Catalogue::read(Lang::Fr, r#"{"page.title": "Explorateur"}"#).is_err());
    assert!(ship("[]").is_err());
    assert!(ship(r#"{"page.title": "Deux\nlignes"}"#).is_err());
    // Right to left: each argument isolated, so that a number or a Latin token keeps its order.
    let ar = read(Lang::Ar, r#"{"page.not_reset": "لم تُعَد: {why}."}"#);
    assert_eq!(
        ar.render(&page::not_reset("x 2")),
        "لم تُعَد: \u{2068}x 2\u{2069}."
    );
    // The symbols ÷ and √ read left to right in it: a mark before each run of them.
    let scaled = read(Lang::Ar, r#"{"steps.scale_short_title": "÷√dₖ"}"#);
    assert_eq!(scaled.text(steps::scale_short_title), "\u{200e}÷√dₖ");
    // English's counts.
    let en = Catalogue::english();
    assert_eq!(en.render(&story::gap("2.3")), "the gap of 2.3");
}

#[test]
fn the_pseudo_language_is_longer_and_accented() {
    let pseudo = Catalogue::built_in(Lang::Pseudo);
    for (.., key) in all_keys()
        .into_iter()
        .filter(|(_, args, _)| args.is_empty())
    {
        let english = key.0.en.chars().count();
        let text = pseudo.text(key);
        assert!(text.chars().count() * 10 >= english * 14, "{text}");
        assert!(text.starts_with('⟦') && text.ends_with('⟧'), "{text}");
    }
    // Its arguments (a learner's words) are kept as they are, its counts' forms chosen.
    assert_eq!(
        pseudo.render(&page::not_reset("ant")),
        "⟦Nöt rését: ant. · · · ·⟧"
    );
    assert!(pseudo.render(&story::gap(2)).starts_with("⟦thé gáp öf 2"));
}

#[test]
fn a_visit_gets_the_link_then_the_choice_then_the_browser() {
    assert_eq!(Lang::choose(Some(Lang::Ar), Some("fr"), ["es"]), Lang::Ar);
    assert_eq!(Lang::choose(None, Some("fr"), ["es"]), Lang::Fr);
    assert_eq!(
        Lang::choose(None, Some("xx"), ["de-DE", "zh-Hans-CN", "es"]),
        Lang::ZhCn
    );
    assert_eq!(Lang::choose(None, None, ["zh-TW", "pt-PT"]), Lang::PtBr);
    assert_eq!(Lang::choose(None, None, ["de"]), Lang::En);
    assert_eq!(Lang::choose(None, None, ["en-GB", "fr"]), Lang::En);
    for lang in Lang::OFFERED {
        assert_eq!(Lang::from_tag(lang.tag()), Some(lang));
        assert_eq!(Lang::preferred(lang.tag()), Some(lang));
    }
    assert_eq!(Lang::from_tag("ZH-cn"), Some(Lang::ZhCn));
    assert_eq!(Lang::from_tag("zh"), None);
    assert_eq!(Lang::from_tag("en-XA"), Some(Lang::Pseudo));
    assert_eq!(Lang::Ar.dir(), "rtl");
    assert_eq!(Lang::Fr.dir(), "ltr");
}

/// The English sentences written straight into the page's code, outside the catalogue: string
/// literals of two words or more (`"Hide the step"`), in views and messages alike. Attributes
/// that are not words (`class`, `data-*`, `style`), console lines, panics and comments are not
/// read; formulas and code are allowed by a marker on their line (`// not words`).
fn english_literals(text: &str) -> Vec<String> {
    let words = |t: &str| {
        t.split(' ')
            .filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2)
            .count()
    };
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//")
            || code.starts_with("#[")
            || [
                "console::",
                "expect(",
                "assert",
                "panic!(",
                "unreachable!(",
                "// not words",
                "query_selector",
                "class=",
                "style=",
            ]
            .iter()
            .any(|skip| line.contains(skip))
        {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else {
                break;
            };
            let literal = &after[..close];
            let before = rest[..open].trim_end();
            let attribute = before.ends_with('=')
                && [
                    "data-", "type=", "href=", "id=", "role=", "for=", "name=", "lang=",
                ]
                .iter()
                .any(|a| before.rsplit(' ').next().is_some_and(|w| w.starts_with(a)));
            if !attribute && words(literal) >= 2 && literal.chars().any(|c| c.is_ascii_lowercase())
            {
                found.push(literal.to_owned());
            }
            rest = &after[close + 1..];
        }
    }
    found
}

/// Files whose English is not the page's words, and why.
const ENGLISH_BY_DESIGN: &[(&str, &str)] = &[
    (
        "ui/api.rs",
        "the scripting API answers a teacher's script in English, as its JSON keys",
    ),
    (
        "core/document/script.rs",
        "the scripting API's edits, read by a script",
    ),
    ("core/formats/pytorch", "PyTorch code and its comments"),
    (
        "core/formats/report.rs",
        "the command line's Markdown report",
    ),
    (
        "core/formats/scorm.rs",
        "the SCORM package's HTML markup (its words are keys)",
    ),
    ("core/formats/contract.rs", "the Content-Security-Policy"),
    (
        "core/formats/link/mod.rs",
        "the embed snippet's sandbox permissions",
    ),
    (
        "core/model/presets.rs",
        "the examples' English sentences, the models' input",
    ),
    (
        "core/pretrained/read.rs",
        "the command line's folder reader and the packed file's tag",
    ),
    (
        "core/pretrained/pack.rs",
        "the command line's and the build's folder packer",
    ),
    ("core/pretrained/encoder.rs", "the command line's --ablate"),
    (
        "core/i18n/",
        "the catalogue itself and the languages' own names",
    ),
    ("core/views/figure.rs", "SVG markup"),
    ("core/decoder/model.rs", "a shape written [cols, rows]"),
];

#[test]
fn no_english_sentence_is_written_into_the_page_outside_the_catalogue() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.join("ui"), src.join("core")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut report = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if ENGLISH_BY_DESIGN.iter().any(|(f, _)| name.starts_with(f)) {
            continue;
        }
        // A module's unit tests are not the page.
        let text = fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let found = english_literals(code);
        if !found.is_empty() {
            report.push(format!("src/{name}: {found:?}"));
        }
    }
    assert!(
        report.is_empty(),
        "English outside the catalogue:\n{}",
        report.join("\n")
    );
}
