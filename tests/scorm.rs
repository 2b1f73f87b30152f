//! The SCORM package (issue 17): the app's files are the build's own list (build.json), the
//! manifest names one SCO and every file, the launch page opens the exercise, and the
//! zip reads back entry for entry.

use attention_explorer::core::formats::scorm::{
    app_files, launch_page, manifest, with_adapter, zip,
};
use attention_explorer::core::i18n::keys::exercises;
use attention_explorer::core::i18n::{Catalogue, Lang};

#[test]
fn the_app_s_files_are_the_build_s_own_list() {
    let list = br#"{"first": ["app-1.js", "app-1_bg.wasm", "snippets/app-3/inline0.js"],
        "later": ["split_train_lab-2.wasm"], "worker": ["sw.js"], "teachers": ["embed-example.js"]}"#;
    assert_eq!(
        app_files(list).unwrap(),
        [
            "app-1.js",
            "app-1_bg.wasm",
            "snippets/app-3/inline0.js",
            "split_train_lab-2.wasm"
        ]
    );
    // Not the site's service worker (the LMS serves the package), nor a way out of the folder.
    for bad in [
        &br#"{"first": ["sw.js"], "later": []}"#[..],
        br#"{"first": ["../secret.wasm"], "later": []}"#,
        br#"{"first": []}"#,
        b"<html>",
    ] {
        assert!(app_files(bad).is_err(), "{}", String::from_utf8_lossy(bad));
    }
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
    let english = Catalogue::english();
    let (title, open) = (
        english.text(exercises::package_title),
        english.text(exercises::open_exercise),
    );
    let launch = launch_page("embed=1&ask=scores.0:6,1", "m=abc", Lang::En, &title, &open);
    assert!(
        launch.contains(r#"content="0; url=index.html?embed=1&amp;ask=scores.0:6,1#m=abc""#),
        "{launch}"
    );
    assert!(launch.contains("<html lang=\"en\">\n"), "{launch}");
    assert!(launch.contains("<title>Attention Explorer exercise</title>"));
    assert!(launch.contains(">Open the exercise</a>"));
    // The teacher's language, its direction and its words (escaped).
    let arabic = launch_page("ask=scores.0:6,1", "m=abc", Lang::Ar, "<تمرين>", "افتح");
    assert!(arabic.contains(r#"<html lang="ar" dir="rtl">"#), "{arabic}");
    assert!(arabic.contains("<title>&lt;تمرين&gt;</title>"));
    assert_eq!(
        with_adapter("<head><title>x</title></head><body></body>", 80),
        r#"<head><title>x</title><script src="./scorm-adapter.js" data-package data-pass-mark="80" defer></script></head><body></body>"#
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
