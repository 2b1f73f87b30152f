//! One home per fact: a name the page shares with JavaScript, Python, a server or the docs has
//! its home in core, and every copy another language needs is read here and checked equal to it
//! (the message prefix and the resize message, where saved work is kept, the content security
//! policy, the step keys, the presets, the trained model's file and chunk, the link's words
//! the notebook widget uses).

use std::fs;
use std::path::Path;

use attention_explorer::core::decoder::LANGUAGE_MODEL;
use attention_explorer::core::formats::contract::{
    embed_work_key, CSP, MESSAGE_PREFIX, RESIZE, WORK_KEY,
};
use attention_explorer::core::formats::link::{snippet, Controls, Theme};
use attention_explorer::core::model::presets::PRESETS;
use attention_explorer::core::pretrained::SHIPPED;
use attention_explorer::core::teaching::exercise::Kind;
use attention_explorer::core::views::pipeline::Step;

/// A file of the repository, as text.
fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Asserts `path` contains `text`.
fn says(path: &str, text: &str) {
    assert!(read(path).contains(text), "{path} does not say {text:?}");
}

/// The backticked words of `text`.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_messages_are_named_as_core_names_them() {
    assert!(RESIZE.starts_with(MESSAGE_PREFIX));
    says("www/boot.js", &format!("type: '{RESIZE}'"));
    says(
        "python/attention_explorer/widget.js",
        &format!("const P = '{MESSAGE_PREFIX}';"),
    );
    // The course page's listener is the snippet's, line for line.
    let script = snippet("x", 1);
    let script =
        &script[script.find("addEventListener").unwrap()..script.find("</script>").unwrap()];
    let example = read("www/embed-example.js");
    for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
        assert!(
            example.lines().any(|l| l.trim() == line),
            "www/embed-example.js lacks the snippet's line {line:?}"
        );
    }
}

#[test]
fn boot_js_reads_the_saved_work_where_the_app_keeps_it() {
    says("www/boot.js", &format!("'{WORK_KEY}'"));
    says(
        "www/boot.js",
        &format!("`{}`", embed_work_key("${location.search}")),
    );
}

#[test]
fn the_content_security_policy_is_one() {
    says(
        "docs/teachers.md",
        &format!("Content-Security-Policy: {CSP}\n"),
    );
    says(
        "tests/e2e/harness.mjs",
        &format!("export const CSP = \"{CSP}\";"),
    );
    // Python writes it as adjacent literals: joined, they are the policy.
    let server = read("python/attention_explorer/_server.py");
    let at = server.find("CSP = (").expect("_server.py defines CSP");
    let literals = &server[at..at + server[at..].find(')').unwrap()];
    let joined: String = literals.split('"').skip(1).step_by(2).collect();
    assert_eq!(joined, CSP, "python/attention_explorer/_server.py");
}

#[test]
fn the_teachers_guide_lists_every_step() {
    let guide = read("docs/teachers.md");
    let at = guide
        .find("STEP is one of")
        .expect("the guide lists the steps");
    let end = at + guide[at..].find(['(', '.']).unwrap();
    let listed = backticked(&guide[at..end]);
    let keys: Vec<&str> = Step::ALL.iter().map(|s| s.key()).collect();
    assert_eq!(listed, keys);
    // The opening page's snapshot finds a step by `id="step-([a-z_]+)"`.
    assert!(keys
        .iter()
        .all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
}

#[test]
fn the_presets_are_listed_as_core_lists_them() {
    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
    let quoted = |names: &[&str], quote: char| {
        names
            .iter()
            .map(|n| format!("{quote}{n}{quote}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    says(
        "www/prerender.mjs",
        &format!("const PRESETS = [{}];", quoted(&names, '\'')),
    );
    says(
        "python/tests/test_explorer.py",
        &format!("({})", quoted(&names, '"')),
    );
}

#[test]
fn the_trained_model_file_and_chunk_are_where_the_build_puts_them() {
    says(
        "www/pack-model.mjs",
        &format!("'target/pretrained/{}'", SHIPPED.name),
    );
    says(
        "www/pretrained.mjs",
        &format!("target/pretrained/{}", SHIPPED.name),
    );
    // Each model's file under its name in models/, and its panel's chunk, are what the manifest
    // and the service worker keep for when it is asked.
    for (model, panel, chunk) in [
        (SHIPPED, "src/ui/pretrained/mod.rs", "pretrained"),
        (
            LANGUAGE_MODEL,
            "src/ui/pretrained/language/mod.rs",
            "language",
        ),
    ] {
        let (folder, file) = model.file.split_once('/').unwrap();
        says("www/pack-model.mjs", &format!("'{file}'"));
        says("www/manifest.mjs", &format!("^{folder}\\/"));
        says("www/sw.js", &format!("\\/{folder}\\/"));
        says(panel, &format!("    {chunk}_panel => "));
    }
    says("www/manifest.mjs", "split_(pretrained|language)_panel-");
    says("www/sw.js", "split_(pretrained|language)_panel-");
}

#[test]
fn the_notebook_widget_uses_the_links_words() {
    let widget = read("python/attention_explorer/_widget.py");
    let exercises: Vec<String> = Kind::ALL
        .iter()
        .map(|k| format!("\"{}\"", k.key()))
        .collect();
    assert!(
        widget.contains(&format!(
            "EXERCISE_KEYS = ({}, \"lock\")",
            exercises.join(", ")
        )),
        "_widget.py's EXERCISE_KEYS"
    );
    let choices = |keys: Vec<&str>| {
        std::iter::once("\"\"".to_owned())
            .chain(keys.iter().map(|k| format!("\"{k}\"")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let controls = choices(Controls::ALL.iter().map(|c| c.key()).collect());
    assert!(widget.contains(&format!("traitlets.Enum(({controls}), \"\")")));
    let mut themes: Vec<&str> = Theme::ALL.iter().map(|t| t.key()).collect();
    themes.rotate_left(1);
    assert!(widget.contains(&format!("traitlets.Enum(({}), \"\")", choices(themes))));
}
