//! Step 2 and the page: the stylesheet, boot script and loader beside the page (each named by
//! its hash), the teachers' files, and `index.html` and the embeds' entry page from its template (the top-level index.html),
//! each double-braced name filled in.

use std::collections::BTreeMap;
use std::path::Path;

use attention_explorer::core::formats::boot::{contract, contract_file};
use attention_explorer::core::formats::link::snapshot::{embed_steps, own_embed_page};
use attention_explorer::core::formats::link::snippet_script;
use attention_explorer::core::model::presets::PRESETS;
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

/// The pages made from the template.
#[derive(Clone, Copy)]
pub enum Entry<'a> {
    /// `index.html`, with the default opening page in it.
    Full,
    /// The embeds' entry page (`contract::EMBED_PAGE`): the same without the default opening
    /// page, which an embed's frame would download and never show (it fetches its own).
    Embeds,
    /// An embed's page of its own, with its steps written in.
    Own(&'a OwnEmbed),
}

/// An embed of a preset's every step, or of one, as a page of its own
/// (`link::snapshot::own_embed_page`): a frame shows it in one download, as a static page.
pub struct OwnEmbed {
    /// Its file, `embed-dog-weights.html`.
    pub file: String,
    /// The embed's snapshot (`embed-dog`), and the steps written in.
    embed: String,
    here: Vec<String>,
    /// Its `<main>`: the embed's shell with those steps, numbered as `boot.js` numbers them;
    /// none in a build without the opening pages (the page is then as `embed.html`).
    main: Option<String>,
}

/// Every embed's pages of its own, one for each preset's every step and each of its steps, as
/// the Embed dialog names them; with their steps written in from the embeds' files
/// www/prerender.mjs wrote into `dir`, when the build made them.
pub fn own_embeds(snapshot: Option<&Snapshot>, dir: &Path) -> Result<Vec<OwnEmbed>, String> {
    let files: serde_json::Map<String, serde_json::Value> = match snapshot {
        Some(s) => {
            serde_json::from_str(&s.files).map_err(|e| format!("the opening pages' list: {e}"))?
        }
        None => serde_json::Map::new(),
    };
    let text = |file: &str| -> Result<String, String> {
        String::from_utf8(read(&dir.join(file).to_string_lossy())?)
            .map_err(|_| format!("{file} is not UTF-8"))
    };
    let mut pages = Vec::new();
    for preset in PRESETS {
        let embed = format!("embed-{}", preset.name);
        let steps = embed_steps(preset.name).ok_or("a preset without a model")?;
        let built = files.get(&embed);
        let shell = built.and_then(|e| e["shell"].as_str());
        let shell_html = shell.map(text).transpose()?;
        if let Some(written) = built {
            let keys: Vec<&str> = steps.iter().map(|s| s.key()).collect();
            if written["steps"] != json!(keys) {
                return Err(format!(
                    "www/prerender.mjs wrote {embed}'s steps as {}, the page has {keys:?}",
                    written["steps"]
                ));
            }
        }
        let one = steps.iter().map(|&step| (Some(step), vec![step]));
        for (named, here) in std::iter::once((None, steps.clone())).chain(one) {
            let main = match (shell, &shell_html) {
                (Some(shell), Some(html)) => {
                    let mut sections = String::new();
                    for (i, step) in here.iter().enumerate() {
                        let file =
                            format!("{}-{}.html", shell.trim_end_matches(".html"), step.key());
                        sections += &numbered(&text(&file)?, i + 1);
                    }
                    Some(html.replace("<template data-steps=\"\"></template>", &sections))
                }
                _ => None,
            };
            pages.push(OwnEmbed {
                file: own_embed_page(&embed, named),
                embed: embed.clone(),
                here: here.iter().map(|s| s.key().to_owned()).collect(),
                main,
            });
        }
    }
    Ok(pages)
}

/// A step's section with `number` on its badge (the first `step-number`), as `boot.js` numbers
/// an embed's steps.
fn numbered(section: &str, number: usize) -> String {
    const BADGE: &str = "<span class=\"step-number\">";
    let Some(at) = section.find(BADGE).map(|i| i + BADGE.len()) else {
        return section.to_owned();
    };
    let digits = section[at..].len()
        - section[at..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    format!("{}{number}{}", &section[..at], &section[at + digits..])
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
                Entry::Embeds => without_inline(&snapshot.files, None)?,
                Entry::Own(own) => without_inline(&snapshot.files, Some(own))?,
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
                        (Entry::Own(own), _) => own.main.clone().unwrap_or_default(),
                        _ => String::new(),
                    },
                ),
            ],
        )
    }

    /// www/boot.js's tag, after the contract it reads (the core's words: steps, languages,
    /// storage keys, the opening page's rule), with the app's code it starts fetching
    /// (`data-code`, each preload's attributes: the glue, its snippets, the wasm), what the
    /// loader imports (`data-app`) and the opening page's live module (`data-live`).
    fn boot(&self) -> String {
        let module = |(name, sri): &(String, String)| json!({"rel": "modulepreload", "href": format!("./{name}"), "crossorigin": "anonymous", "integrity": sri});
        let mut code = vec![module(&self.code.glue)];
        code.extend(self.code.snippets.iter().map(module));
        // Chromium ignores integrity on a preload for fetch, and says so in the console.
        code.push(json!({"rel": "preload", "href": format!("./{}", self.code.wasm.0), "crossorigin": "anonymous", "as": "fetch", "type": "application/wasm"}));
        let app = json!({"glue": format!("./{}", self.code.glue.0), "wasm": format!("./{}", self.code.wasm.0)});
        // The opening page's live module: boot.js fetches it first, when it shows an opening page.
        let live = self
            .code
            .live
            .as_ref()
            .map_or(String::new(), |(glue, wasm)| {
                format!(
                    " data-live=\"{}\"",
                    attribute(
                        &json!({"glue": format!("./{}", glue.0), "wasm": format!("./{}", wasm.0)})
                            .to_string()
                    )
                )
            });
        // JSON in a script element: `</` would end it.
        let words = contract().to_string().replace("</", "<\\/");
        format!(
            "<script type=\"application/json\" id=\"contract\">{words}</script>\n    <script src=\"./{}\" data-code=\"{}\" data-app=\"{}\"{live}></script>",
            self.assets.boot,
            attribute(&serde_json::Value::from(code).to_string()),
            attribute(&app.to_string())
        )
    }
}

/// `data-prerendered` (www/prerender.mjs's JSON) without the page written into index.html
/// (its file is ""), for a page that does not hold it; on an embed's page of its own, the
/// steps written into it (`here`).
fn without_inline(files: &str, own: Option<&OwnEmbed>) -> Result<String, String> {
    let mut files: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(files).map_err(|e| format!("the opening pages' list: {e}"))?;
    files.retain(|_, file| file != "");
    if let Some(own) = own.filter(|own| own.main.is_some()) {
        files[&own.embed]["here"] = json!(own.here);
    }
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
