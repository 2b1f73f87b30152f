//! `www/boot.js` decides before the page's code arrives which opening page a visit shows, and
//! in which language, from the core's words (the contract the build writes before it). Here it
//! runs in Node, in a stand-in for a browser, on a table of links, and must decide as the core's
//! rule does (`link::snapshot`, `Lang::choose`). Needs Node (the tests' tools install it).

use std::io::Write;
use std::process::{Command, Stdio};

use attention_explorer::core::formats::boot::contract;
use attention_explorer::core::formats::contract::{embed_work_key, LANG_KEY, WORK_KEY};
use attention_explorer::core::formats::link::page::Theme;
use attention_explorer::core::formats::link::snapshot::snapshot;
use attention_explorer::core::formats::link::{linked_lang, read_link};
use attention_explorer::core::i18n::Lang;
use attention_explorer::core::model::presets::PRESETS;
use serde_json::{json, Value};

/// Runs boot.js once per visit: `location`, the browser's storage and languages, and the
/// page's `data-prerendered` and `data-languages` as the build writes them; gives back what it
/// set on `<html>` (the snapshot it shows, the language).
const RUN: &str = r#"
const vm = require('node:vm');
const { contract, boot, built, languages, visits } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const noop = () => {};
const out = visits.map(({ search, hash, storage, browser }) => {
  const root = { dataset: { prerendered: JSON.stringify(built), languages: JSON.stringify(languages) }, lang: 'en', dir: '' };
  const element = () => ({ setAttribute: noop, dataset: {} });
  const document = {
    documentElement: root,
    readyState: 'complete',
    currentScript: { dataset: { code: '[]' } },
    head: { append: noop },
    getElementById: (id) => (id === 'contract' ? { textContent: JSON.stringify(contract) } : null),
    querySelector: () => null,
    createElement: element,
    addEventListener: noop,
  };
  class Observer { observe() {} disconnect() {} }
  const window = {
    document, URL, URLSearchParams, Promise, JSON, WebAssembly, Uint8Array,
    location: { search, hash, pathname: '/', href: `http://x/${search}${hash}` },
    localStorage: { getItem: (key) => storage[key] ?? null },
    navigator: { languages: browser },
    matchMedia: () => ({ matches: false }),
    addEventListener: noop,
    setTimeout: noop,
    requestAnimationFrame: noop,
    fetch: () => new Promise(noop),
    MutationObserver: Observer, ResizeObserver: Observer, PerformanceObserver: Observer,
  };
  window.parent = window;
  window.window = window;
  vm.runInNewContext(boot, window);
  return { snapshot: root.dataset.snapshot ?? null, lang: root.lang, theme: root.dataset.theme };
});
process.stdout.write(JSON.stringify(out));
"#;

/// Links a visit may open with: the default page, presets, themes, languages, embeds and their
/// steps and controls, keys given twice, the query against the fragment, unknown and broken
/// keys, exercises and models.
const LINKS: &[(&str, &str)] = &[
    ("", ""),
    ("?preset=raschka", ""),
    ("?preset=raschka-multihead", ""),
    ("?preset=dog", ""),
    ("?preset=nope", ""),
    ("?preset=", ""),
    ("", "#preset=raschka"),
    ("?preset=raschka", "#preset=dog"),
    ("?preset=dog&preset=raschka", ""),
    ("?theme=dark", ""),
    ("?theme=light&preset=raschka", ""),
    ("?theme=auto", ""),
    ("?theme=blue", ""),
    ("", "#theme=dark"),
    ("?theme=dark", "#theme=nope"),
    ("?theme=nope", "#theme=dark"),
    ("?theme=dark&theme=light", ""),
    ("?theme=light", "#theme=auto"),
    ("?lang=fr", ""),
    ("?lang=ar&preset=raschka", ""),
    ("?lang=xx", ""),
    ("?lang=zh-cn", ""),
    ("", "#lang=ko"),
    ("?lang=en-XA", ""),
    ("?embed=1", ""),
    ("?embed=1&preset=raschka", ""),
    ("?embed=1&preset=nope", ""),
    ("?embed=1&steps=weights", ""),
    ("?embed=1&steps=weights,scores", ""),
    ("?embed=1&steps=weights,,scores", ""),
    ("?embed=1&steps=", ""),
    ("?embed=1&steps=weights,nope", ""),
    ("?embed=1&steps=out_proj", ""),
    ("?view=weights", ""),
    ("?view=weights&steps=scores", ""),
    ("?embed=1&view=weights", ""),
    ("?embed=1&controls=none", ""),
    ("?embed=1&controls=dims", ""),
    ("?embed=1&controls=all&preset=dog", ""),
    ("?embed=0", ""),
    ("?embed=1&theme=dark&lang=fr", ""),
    ("?embed=1&steps=scores,weights&focus=2", ""),
    ("?embed=1&ask=scores.0:6,1", ""),
    ("?embed=1", "#m=q1ZKSixOVbJSSslPV9JRKkstKs7Mz1OyMqwFAA"),
    ("", "#m=q1ZKSixOVbJSSslPV9JRKkstKs7Mz1OyMqwFAA"),
    ("?walk=1", ""),
    ("?at=weights", ""),
    ("?unknown=1", ""),
    ("", "#step-weights"),
    ("", "#"),
    ("?", ""),
    ("?preset=raschka", "#lang=fr"),
    ("?lang=fr&lang=ar", ""),
    ("?ask=scores.0:6,1&preset=dog", ""),
    ("?preset=dog%20", ""),
    ("?pre%73et=raschka", ""),
    ("?preset=raschka&theme=dark&lang=es", ""),
];

/// What a visit's browser holds: saved work, a chosen language, its preferred languages.
fn browsers() -> Vec<(bool, Option<&'static str>, Vec<&'static str>)> {
    vec![
        (false, None, vec!["en-US"]),
        (true, None, vec!["en-US"]),
        (false, Some("ko"), vec!["en-US"]),
        (false, Some("xx"), vec!["fr-CA", "en"]),
        (false, None, vec!["zh-TW", "zh-Hans-SG", "en"]),
        (false, None, vec!["zh-HK", "de"]),
        (false, None, vec!["pt_PT"]),
        (false, None, vec![]),
    ]
}

#[test]
fn boot_js_opens_what_the_core_opens() {
    // The snapshots a build makes: each preset, the default page in each language, each embed.
    let default = PRESETS[0].name;
    let mut built = serde_json::Map::new();
    built.insert(default.to_owned(), Value::from(""));
    for preset in &PRESETS[1..] {
        built.insert(
            preset.name.to_owned(),
            Value::from(format!("{}.html", preset.name)),
        );
    }
    for lang in Lang::OFFERED.iter().filter(|l| l.fetched()) {
        built.insert(format!("{default}.{}", lang.tag()), Value::from("x.html"));
    }
    for preset in PRESETS {
        built.insert(
            format!("embed-{}", preset.name),
            json!({"shell": "x.html", "steps": []}),
        );
    }
    let shown = decide_as_the_core(&built);
    // The table reaches every kind of decision.
    for kind in ["dog", "raschka", "dog.fr", "embed-dog", "embed-raschka"] {
        assert!(
            shown.iter().any(|s| s == kind),
            "no visit in the table opens {kind}"
        );
    }
    // The embeds' entry page (embed.html): the same list without the default page, which is
    // not in it; an embed of the default preset still opens on its own page.
    built.remove(default);
    let shown = decide_as_the_core(&built);
    assert!(shown.iter().any(|s| s == "embed-dog"));
    assert!(!shown.iter().any(|s| s == "dog"));
    // An embed's page of its own (embed-dog-weights.html): the same, its steps written in.
    built[&format!("embed-{default}")] =
        json!({"shell": "x.html", "steps": ["scores", "weights"], "here": ["weights"]});
    let shown = decide_as_the_core(&built);
    assert!(shown.iter().any(|s| s == "embed-dog"));
}

/// Runs boot.js on every link of the table in every browser, with `built` as the page's
/// `data-prerendered`; checks it decides as the core does, and gives back the pages it opens.
fn decide_as_the_core(built: &serde_json::Map<String, Value>) -> Vec<String> {
    let languages: serde_json::Map<String, Value> = Lang::OFFERED
        .iter()
        .filter(|l| l.fetched())
        .map(|l| (l.tag().to_owned(), json!({"file": "x.txt"})))
        .collect();

    let mut visits = Vec::new();
    let mut expected = Vec::new();
    for (search, hash) in LINKS {
        for (saved, stored, browser) in browsers() {
            let lang = Lang::choose(linked_lang(search, hash), stored, browser.iter().copied());
            let embed_key = embed_work_key(search);
            let mut storage = serde_json::Map::new();
            if saved {
                // The work of the page the link opens: an embed's own, or the full page's.
                storage.insert(WORK_KEY.to_owned(), Value::from("m=x"));
                storage.insert(embed_key, Value::from("m=x"));
            }
            if let Some(tag) = stored {
                storage.insert(LANG_KEY.to_owned(), Value::from(tag));
            }
            let shown = snapshot(search, hash, lang, saved).filter(|name| built.contains_key(name));
            // The system's mode is light here.
            let theme = if read_link(search, hash).theme == Theme::Dark {
                "dark"
            } else {
                "light"
            };
            visits.push(
                json!({"search": search, "hash": hash, "storage": storage, "browser": browser}),
            );
            expected.push((
                format!("{search}{hash} (saved {saved}, stored {stored:?}, browser {browser:?})"),
                shown,
                lang.tag(),
                theme,
            ));
        }
    }
    let input = json!({
        "contract": contract(),
        "boot": std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/boot.js")).unwrap(),
        "built": built,
        "languages": languages,
        "visits": visits,
    });
    let mut node = Command::new("node")
        .args(["-e", RUN])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node (npm's tools: .ci/tools.sh)");
    node.stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let done = node.wait_with_output().unwrap();
    assert!(done.status.success(), "boot.js failed in Node");
    let decided: Vec<Value> = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(decided.len(), expected.len());
    let mut wrong = Vec::new();
    for ((visit, shown, lang, theme), boot) in expected.iter().zip(&decided) {
        let boot_shown = boot["snapshot"].as_str().map(str::to_owned);
        let (boot_lang, boot_theme) = (&boot["lang"], &boot["theme"]);
        if &boot_shown != shown || boot_lang != lang || boot_theme != theme {
            wrong.push(format!(
                "{visit}: core {shown:?} in {lang}, {theme}; boot.js {boot_shown:?} in {boot_lang}, {boot_theme}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "boot.js decides otherwise than the core:\n{}",
        wrong.join("\n")
    );
    decided
        .iter()
        .filter_map(|d| d["snapshot"].as_str().map(str::to_owned))
        .collect()
}
