//! Step 2 and the page: the stylesheet, boot script and loader beside the page (each named by
//! its hash), the teachers' files, and `index.html` and the embeds' entry page from its template (the top-level index.html),
//! each double-braced name filled in.

use std::collections::BTreeMap;
use std::path::Path;

use attention_explorer::core::formats::boot::{contract, contract_file};
use attention_explorer::core::formats::link::snippet_script;
use serde_json::json;

use crate::code::Code;
use crate::files::{hashed, integrity, run, Dist, Role};
use crate::languages::Language;
use crate::prerender::Snapshot;

/// The files for teachers' pages, copied as they are: the embed example and the SCORM
/// package's adapter (core::formats::scorm::ADAPTER).
const TEACHERS: [&str; 3] = [
    "embed-example.html",
    "embed-example.css",
    "scorm-adapter.js",
];

/// The page's own files: their names in the build, and the stylesheet's integrity.
pub struct Assets {
    style: (String, String),
    boot: String,
    /// The loader, and under `trunk serve` the script that reloads the page once Trunk rebuilt it.
    modules: Vec<String>,
}

/// `minify_in`: a release build's scratch folder, where esbuild writes (a dev build copies).
pub fn assets(dist: &mut Dist, minify_in: Option<&Path>, trunk: bool) -> Result<Assets, String> {
    for name in TEACHERS {
        dist.write(Role::Teachers, name, read(&format!("www/{name}"))?)?;
    }
    // The embed example's script is the snippet's (the Embed dialog writes it under each frame).
    let script = format!(
        "// The Embed dialog's snippet's script (core::formats::link::snippet_script).\n{}\n",
        snippet_script()
    );
    dist.write(Role::Teachers, "embed-example.js", script)?;
    // The contract for the tools beside the page (the notebook widget reads its copy in the
    // wheel; the end-to-end tests' server, the policy).
    dist.write(
        Role::Teachers,
        "contract.json",
        format!("{:#}\n", contract_file()),
    )?;
    let mut own = |source: &str, prefix: &str, ext: &str| -> Result<(String, String), String> {
        let bytes = minified(&format!("www/{source}"), minify_in)?;
        let name = hashed(prefix, &bytes, ext);
        let sri = integrity(&bytes);
        dist.write(Role::First, &name, bytes)?;
        Ok((name, sri))
    };
    let mut modules = vec![own("loader.js", "loader", "js")?.0];
    if trunk {
        modules.push(own("dev-reload.js", "dev-reload", "js")?.0);
    }
    Ok(Assets {
        style: own("style.css", "style", "css")?,
        boot: own("boot.js", "boot", "js")?.0,
        modules,
    })
}

/// A script or stylesheet of www/ through esbuild in a release build (its comments stay in the
/// source: the page downloads only the code), as it is in a dev build.
fn minified(source: &str, minify_in: Option<&Path>) -> Result<Vec<u8>, String> {
    let Some(scratch) = minify_in else {
        return read(source);
    };
    let out = scratch.join("min").join(source);
    std::fs::create_dir_all(out.parent().expect("a folder")).map_err(|e| e.to_string())?;
    run(
        "esbuild",
        &[
            "--minify",
            "--log-level=warning",
            &format!("--outfile={}", out.display()),
            source,
        ],
    )?;
    read(&out.to_string_lossy())
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

/// Everything `index.html` and the embeds' entry page name.
pub struct Page {
    pub code: Code,
    pub assets: Assets,
    pub languages: BTreeMap<String, Language>,
    pub snapshot: Option<Snapshot>,
}

/// The two pages made from the template.
#[derive(Clone, Copy)]
pub enum Entry {
    /// `index.html`, with the default opening page in it.
    Full,
    /// The embeds' entry page (`contract::EMBED_PAGE`): the same without the default opening
    /// page, which an embed's frame would download and never show (it fetches its own).
    Embeds,
}

impl Page {
    /// The page `entry`: the template with the build's names.
    pub fn html(&self, entry: Entry) -> Result<String, String> {
        let template = String::from_utf8(read("index.html")?)
            .map_err(|_| "index.html is not UTF-8".to_owned())?;
        let mut root = String::new();
        if let Some(snapshot) = &self.snapshot {
            let files = match entry {
                Entry::Full => snapshot.files.clone(),
                Entry::Embeds => without_inline(&snapshot.files)?,
            };
            root += &format!(" data-prerendered=\"{}\"", attribute(&files));
        }
        let languages = serde_json::to_string(&self.languages).expect("names and texts");
        root += &format!(" data-languages=\"{}\"", attribute(&languages));
        let mut styles = vec![stylesheet(&self.assets.style)];
        if let Some(snapshot) = &self.snapshot {
            styles.push(stylesheet(&snapshot.style));
        }
        fill(
            &template,
            &[
                ("root", root),
                ("boot", self.boot()),
                ("styles", styles.join("\n    ")),
                (
                    "loader",
                    self.assets
                        .modules
                        .iter()
                        .map(|name| format!("<script type=\"module\" src=\"./{name}\"></script>"))
                        .collect::<Vec<_>>()
                        .join("\n    "),
                ),
                (
                    "opening",
                    match (entry, &self.snapshot) {
                        (Entry::Full, Some(snapshot)) => snapshot.main.clone(),
                        _ => String::new(),
                    },
                ),
            ],
        )
    }

    /// www/boot.js's tag, after the contract it reads (the core's words: steps, languages,
    /// storage keys, the opening page's rule), with the app's code it starts fetching
    /// (`data-code`, each preload's attributes: the glue, its snippets, the wasm) and what the
    /// loader imports (`data-app`).
    fn boot(&self) -> String {
        let module = |(name, sri): &(String, String)| json!({"rel": "modulepreload", "href": format!("./{name}"), "crossorigin": "anonymous", "integrity": sri});
        let mut code = vec![module(&self.code.glue)];
        code.extend(self.code.snippets.iter().map(module));
        // Chromium ignores integrity on a preload for fetch, and says so in the console.
        code.push(json!({"rel": "preload", "href": format!("./{}", self.code.wasm.0), "crossorigin": "anonymous", "as": "fetch", "type": "application/wasm"}));
        let app = json!({"glue": format!("./{}", self.code.glue.0), "wasm": format!("./{}", self.code.wasm.0)});
        // JSON in a script element: `</` would end it.
        let words = contract().to_string().replace("</", "<\\/");
        format!(
            "<script type=\"application/json\" id=\"contract\">{words}</script>\n    <script src=\"./{}\" data-code=\"{}\" data-app=\"{}\"></script>",
            self.assets.boot,
            attribute(&serde_json::Value::from(code).to_string()),
            attribute(&app.to_string())
        )
    }
}

/// `data-prerendered` (www/prerender.mjs's JSON) without the page written into index.html
/// (its file is ""), for a page that does not hold it.
fn without_inline(files: &str) -> Result<String, String> {
    let mut files: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(files).map_err(|e| format!("the opening pages' list: {e}"))?;
    files.retain(|_, file| file != "");
    Ok(serde_json::Value::from(files).to_string())
}

fn stylesheet((name, sri): &(String, String)) -> String {
    format!(
        "<link rel=\"stylesheet\" href=\"./{name}\" integrity=\"{sri}\" crossorigin=\"anonymous\">"
    )
}

/// `text` inside a double-quoted attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;")
}

/// `template` with each `{{name}}` given its value; a name without one, or a value the template
/// does not ask for, is refused.
fn fill(template: &str, values: &[(&str, String)]) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    let mut used = Vec::new();
    while let Some(open) = rest.find("{{") {
        let close = rest[open..]
            .find("}}")
            .ok_or("index.html has a {{ without }}")?
            + open;
        let name = &rest[open + 2..close];
        let (_, value) = values.iter().find(|(n, _)| *n == name).ok_or_else(|| {
            format!("index.html asks for {{{{{name}}}}}, which the build does not fill")
        })?;
        out += &rest[..open];
        out += value;
        used.push(name.to_owned());
        rest = &rest[close + 2..];
    }
    out += rest;
    match values.iter().find(|(n, _)| !used.iter().any(|u| u == n)) {
        Some((name, _)) => Err(format!("index.html has no {{{{{name}}}}}")),
        None => Ok(out),
    }
}
