//! A SCORM 1.2 package of the page with an exercise: the app's own files (the build's list,
//! `build.json`: what the page fetches), its `index.html` with the adapter that reports to the
//! LMS, a launch page opening the exercise's link, and `imsmanifest.xml` naming one SCO. Entries
//! are stored, not compressed: the wasm is compressed already, and an LMS unzips it once.

use std::io::Write;

use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::{Lang, Msg};

/// The adapter script beside the app (`www/scorm-adapter.js`): finds the LMS's `API`, reports
/// the score and status, and finishes when the page closes.
pub const ADAPTER: &str = "scorm-adapter.js";
/// The page the manifest launches: it opens the exercise's link.
pub const LAUNCH: &str = "launch.html";
/// The site's service worker (offline use after a first visit): not in a package, whose files
/// the LMS serves.
pub const SERVICE_WORKER: &str = "sw.js";

/// The build's list of its files (the build program writes it: src/bin/attention-build/files.rs).
pub const BUILD_LIST: &str = "build.json";

/// The files a package holds, from the build's list (`bytes`, as served): what the page
/// fetches, first and later, and the languages' texts (a build before them had none); not the
/// service worker or the teachers' files.
pub fn app_files(bytes: &[u8]) -> Result<Vec<String>, Msg> {
    let list: serde_json::Value = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| serde_json::from_str(text).ok())
        .ok_or_else(|| say::not_a_list(BUILD_LIST))?;
    let mut files = Vec::new();
    for when in ["first", "later", "language"] {
        let names = match list[when].as_array() {
            Some(names) => names,
            None if when == "language" => continue,
            None => return Err(say::list_lacks(BUILD_LIST, when)),
        };
        for name in names {
            let name = name.as_str().unwrap_or_default();
            // Names the build wrote: never a way out of the app's folder.
            if name.is_empty() || name.contains("..") || name == SERVICE_WORKER {
                return Err(say::list_names(BUILD_LIST, name));
            }
            files.push(name.to_owned());
        }
    }
    Ok(files)
}

/// The pass mark a package reports `passed` at when the teacher sets none: every answer right.
pub const DEFAULT_PASS_MARK: u8 = 100;

/// `index.html` with the adapter loaded before the app, passing at `pass_mark` % of the score
/// (`data-package` also tells the page it registers no service worker: the package has none).
pub fn with_adapter(index_html: &str, pass_mark: u8) -> String {
    index_html.replacen(
        "</head>",
        &format!(
            "<script src=\"./{ADAPTER}\" data-package data-pass-mark=\"{}\" defer></script></head>",
            pass_mark.min(100)
        ),
        1,
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The launch page: it goes on to `index.html?{query}#{fragment}` at once (an LMS may drop a
/// query from the manifest's launch address). Its words are `words`' (the teacher's language,
/// `lang`): `title` and the link's `open`.
pub fn launch_page(query: &str, fragment: &str, lang: Lang, title: &str, open: &str) -> String {
    let target = escape(&format!("index.html?{query}#{fragment}"));
    let (title, open) = (escape(title), escape(open));
    // `dir` only where it is not the default, so English's page stays as it was.
    let dir = if lang.rtl() { " dir=\"rtl\"" } else { "" };
    // An icon of its own, or the browser may ask the LMS for /favicon.ico before it goes on: a
    // 404 in the console (it made a test flaky).
    format!(
        "<!doctype html>\n<html lang=\"{}\"{dir}>\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"refresh\" content=\"0; url={target}\">\n<link rel=\"icon\" href=\"data:,\">\n<title>{title}</title>\n</head>\n<body><p><a href=\"{target}\">{open}</a></p></body>\n</html>\n",
        lang.tag()
    )
}

/// `imsmanifest.xml`: one organization, one SCO launching [`LAUNCH`], every file listed.
pub fn manifest(title: &str, files: &[String]) -> String {
    let title = escape(title);
    let listed: String = files
        .iter()
        .map(|f| format!("      <file href=\"{}\"/>\n", escape(f)))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attention-explorer-exercise" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="exercise">
    <organization identifier="exercise">
      <title>{title}</title>
      <item identifier="item-1" identifierref="sco-1">
        <title>{title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-1" type="webcontent" adlcp:scormtype="sco" href="{LAUNCH}">
{listed}    </resource>
  </resources>
</manifest>
"#
    )
}

/// The zip of `files` (path, bytes), each stored.
pub fn zip(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, Msg> {
    let fail = |e: rawzip::Error| say::not_written(e);
    let mut out = Vec::new();
    let mut archive = rawzip::ZipArchiveWriter::new(&mut out);
    for (path, bytes) in files {
        let (mut entry, config) = archive.new_file(path).start().map_err(fail)?;
        let mut writer = config.wrap(&mut entry);
        writer.write_all(bytes).map_err(say::not_written)?;
        let (_, descriptor) = writer.finish().map_err(fail)?;
        entry.finish(descriptor).map_err(fail)?;
    }
    archive.finish().map_err(fail)?;
    Ok(out)
}
