//! One home per fact: a name the page shares with JavaScript, Python, a server or the docs has
//! its home in core. The build hands the page's scripts and the notebook widget the core's words
//! in the contract (core::formats::boot), and the tools beside the page (the notebook widget's
//! server, the tests' server) read it from `contract.json`; what is still copied (the policy and
//! the steps in the teachers' guide, the trained models' files and chunks) is read here and
//! checked equal to it, and the scripts are checked to read the contract rather than spell its
//! words.

use std::fs;
use std::path::Path;

use attention_explorer::core::formats::boot::contract_file;
use attention_explorer::core::formats::contract::{CSP, MESSAGE_PREFIX, RESIZE};
use attention_explorer::core::model::presets::PRESETS;
use attention_explorer::core::pretrained::SHIPPED;
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
fn the_scripts_read_the_messages_and_keys_from_the_contract() {
    assert!(RESIZE.starts_with(MESSAGE_PREFIX));
    // The page's scripts and the widget's name no message or storage key of their own: the
    // build hands them the core's (core::formats::boot), and the course page's script is the
    // snippet's, written by the build.
    for script in [
        "www/boot.js",
        "www/sw.js",
        "python/attention_explorer/widget.js",
        "python/attention_explorer/_widget.py",
    ] {
        assert!(
            !read(script).contains(MESSAGE_PREFIX),
            "{script} spells {MESSAGE_PREFIX}: read it from the contract"
        );
    }
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www/embed-example.js")
        .exists());
}

#[test]
fn the_content_security_policy_is_one() {
    says(
        "docs/teachers.md",
        &format!("Content-Security-Policy: {CSP}\n"),
    );
    assert_eq!(contract_file()["csp"], CSP);
    // The servers beside the page send the build's.
    for (server, reads) in [
        (
            "tests/e2e/harness.mjs",
            "readFileSync(join(dist, 'contract.json'), 'utf8')).csp",
        ),
        (
            "python/attention_explorer/_server.py",
            "(folder / \"contract.json\").read_text())[\"csp\"]",
        ),
    ] {
        says(server, reads);
        assert!(
            !read(server).contains("default-src"),
            "{server} spells the policy"
        );
    }
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
    assert_eq!(contract_file()["presets"], serde_json::json!(names));
    says(
        "python/tests/test_explorer.py",
        "for name in attention_explorer._widget.CONTRACT[\"presets\"]:",
    );
}

#[test]
fn the_trained_model_file_and_chunk_are_where_the_build_puts_them() {
    // The build program packs what www/pretrained.mjs unpacks, and links the GGUF file it fetched.
    says(
        "www/pretrained.mjs",
        &format!("target/pretrained/{}", SHIPPED.name),
    );
    says("www/pretrained.mjs", "SmolLM2-135M-Instruct.Q4_1.gguf");
    says(
        "src/bin/attention-build/models.rs",
        "\"SmolLM2-135M-Instruct.Q4_1.gguf\"",
    );
    // Each model's panel is a chunk the build lists as the model's (kept when it is asked).
    for (panel, chunk) in [
        ("src/ui/pretrained/mod.rs", "pretrained"),
        ("src/ui/pretrained/language/mod.rs", "language"),
    ] {
        says(panel, &format!("    {chunk}_panel => "));
        says(
            "src/bin/attention-build/code.rs",
            &format!("\"{chunk}_panel\""),
        );
    }
}

#[test]
fn the_notebook_widget_uses_the_links_words() {
    // Its choices are the contract's (contract.json in its copy of the page), not a list of its own.
    let widget = read("python/attention_explorer/_widget.py");
    for words in [
        "tuple(CONTRACT[\"exercises\"])",
        "traitlets.Enum((\"\", *CONTRACT[\"controls\"]), \"\")",
        "traitlets.Enum((\"\", *CONTRACT[\"themes\"]), \"\")",
        "traitlets.Enum((\"\", *CONTRACT[\"languages\"][\"offered\"]), \"\")",
    ] {
        assert!(widget.contains(words), "_widget.py does not read {words}");
    }
}
