//! The SCORM package (issue 17): the app's files are found from `index.html` as the page finds
//! them, the manifest names one SCO and every file, the launch page opens the exercise, and the
//! zip reads back entry for entry.

use attention_explorer::core::formats::scorm::{
    launch_page, manifest, references, with_adapter, zip,
};

#[test]
fn the_app_s_files_are_followed_from_index_html_and_its_scripts() {
    let html = r#"<script src="./boot-1.js"></script><link rel="stylesheet" href="./style-2.css"><link rel="preload" href="./app_bg.wasm" as="fetch"><a href="./other.html">"#;
    assert_eq!(
        references("index.html", html),
        ["boot-1.js", "style-2.css", "app_bg.wasm"]
    );
    let glue = r#"import { a } from './snippets/app-3/inline0.js'; import * as s from "./__wasm_split.js"; const imports = { "./app_bg.js": import0 }; fetch("../secret.wasm");"#;
    assert_eq!(
        references("app.js", glue),
        ["__wasm_split.js", "snippets/app-3/inline0.js"]
    );
    // Not the site's service worker: the LMS serves the package.
    assert_eq!(
        references(
            "boot-1.js",
            r#"navigator.serviceWorker.register('./sw.js')"#
        ),
        Vec::<String>::new()
    );
    // Both sides of a choice are files; only an object's key is not.
    assert_eq!(
        references(
            "a.js",
            r#"const u = wide ? "./wide.wasm" : "./narrow.wasm";"#
        ),
        ["wide.wasm", "narrow.wasm"]
    );
    // Relative to the file's folder.
    assert_eq!(
        references("snippets/app-3/inline0.js", r#"import "./inline1.js""#),
        ["snippets/app-3/inline1.js"]
    );
}

#[test]
fn the_manifest_launch_page_and_adapter() {
    let files = vec![
        "index.html".to_owned(),
        "launch.html".to_owned(),
        "a&b.js".to_owned(),
    ];
    let m = manifest("Week 5 <attention>", &files);
    assert!(m.contains(r#"<schemaversion>1.2</schemaversion>"#));
    assert!(m.contains(r#"<resource identifier="sco-1" type="webcontent" adlcp:scormtype="sco" href="launch.html">"#));
    assert!(m.contains(r#"<file href="a&amp;b.js"/>"#));
    assert!(m.contains("<title>Week 5 &lt;attention&gt;</title>"));
    assert_eq!(m.matches("<item ").count(), 1);
    let launch = launch_page("embed=1&ask=scores.0:6,1", "m=abc");
    assert!(
        launch.contains(r#"content="0; url=index.html?embed=1&amp;ask=scores.0:6,1#m=abc""#),
        "{launch}"
    );
    assert_eq!(
        with_adapter("<head><title>x</title></head><body></body>"),
        r#"<head><title>x</title><script src="./scorm-adapter.js" defer></script></head><body></body>"#
    );
}

#[test]
fn the_zip_reads_back_entry_for_entry_stored() {
    let files = vec![
        ("imsmanifest.xml".to_owned(), b"<manifest/>".to_vec()),
        ("snippets/x/inline0.js".to_owned(), vec![0u8, 1, 2, 255]),
        ("empty.css".to_owned(), Vec::new()),
    ];
    let bytes = zip(&files).unwrap();
    let archive = rawzip::ZipArchive::from_slice(&bytes).unwrap();
    let mut entries = archive.entries();
    let mut read = Vec::new();
    while let Some(entry) = entries.next_entry().unwrap() {
        assert_eq!(entry.compression_method(), rawzip::CompressionMethod::STORE);
        let name = entry
            .file_path()
            .try_normalize()
            .unwrap()
            .as_ref()
            .to_owned();
        let local = archive.get_entry(entry.wayfinder()).unwrap();
        read.push((name, local.data().to_vec()));
    }
    assert_eq!(read, files);
}
