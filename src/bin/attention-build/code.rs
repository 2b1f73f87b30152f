//! Step 1, the app's code. The compiled wasm is split at its #[lazy] parts (the splitter as a
//! library, as cargo-leptos calls it), its main module bound to JavaScript (wasm-bindgen as a
//! library), every module put through binaryen's -Oz and every script through esbuild in a release
//! build, all in one folder named by the hash of its contents, `code-HASH/`. Its files name each
//! other by plain relative names (the glue imports `./__wasm_split.js`, which fetches
//! `./split_NAME.wasm` beside it), so no generated file is rewritten to point at hashed names.

use std::collections::BTreeMap;
use std::path::Path;

use wasm_bindgen_cli_support::Bindgen;
use wasm_split_cli_support::{transform, Options};

use crate::files::{hash, integrity, run, walk, Dist, Role};

/// The glue's name in the folder (and the module the split loader imports `initSync` from).
const GLUE: &str = "attention-explorer";
/// The split loader, imported by the glue.
const LOADER: &str = "__wasm_split.js";
/// The #[lazy] parts that are a trained model's panel (`NAME_panel => …` in src/ui/pretrained/):
/// their code is the model's, fetched when the learner opens it and kept once fetched.
pub const MODEL_PARTS: [&str; 2] = ["pretrained_panel", "language_panel"];

/// What the page loads of the code, as paths in the build, each with its integrity.
pub struct Code {
    /// The glue, imported by the page's loader.
    pub glue: (String, String),
    /// The main module the glue instantiates.
    pub wasm: (String, String),
    /// The scripts the glue imports at once (wasm-bindgen's snippets).
    pub snippets: Vec<(String, String)>,
    /// The opening page's live module (src/ui/live/): its glue and wasm, in a folder of their
    /// own; none under Trunk, whose pages have no opening page.
    pub live: Option<((String, String), (String, String))>,
}

pub fn build(
    dist: &mut Dist,
    input: &[u8],
    live: Option<&[u8]>,
    scratch: &Path,
    release: bool,
) -> Result<Code, String> {
    let split = scratch.join("split");
    let bound = scratch.join("bound");
    for dir in [&split, &bound] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let main = split.join("main.wasm");
    let glue_js = format!("./{GLUE}.js");
    let link = format!("./{LOADER}");
    let mut options = Options::new(input);
    options.output_dir = &split;
    options.main_out_path = &main;
    options.link_name = &link;
    options.main_module = &glue_js;
    let parts = transform(options).map_err(|e| format!("splitting the wasm: {e:#}"))?;

    let main_bytes = std::fs::read(&main).map_err(|e| format!("{}: {e}", main.display()))?;
    Bindgen::new()
        .input_bytes(GLUE, main_bytes)
        .web(true)
        .map_err(|e| e.to_string())?
        .typescript(false)
        // The chunks link to the main module's own exports (its memory, table, stack pointer).
        .keep_lld_exports(true)
        .generate(&bound)
        .map_err(|e| format!("wasm-bindgen: {e:#}"))?;

    // The folder's files before their hash is known: (name in the folder, source, kind).
    let mut files: Vec<(String, std::path::PathBuf)> = vec![
        (format!("{GLUE}.js"), bound.join(format!("{GLUE}.js"))),
        (
            format!("{GLUE}_bg.wasm"),
            bound.join(format!("{GLUE}_bg.wasm")),
        ),
        (LOADER.to_owned(), split.join(LOADER)),
    ];
    for module in &parts.split_modules {
        files.push((
            module
                .file_name()
                .expect("a chunk's file")
                .to_string_lossy()
                .into_owned(),
            module.clone(),
        ));
    }
    // wasm-bindgen's snippets, in a fixed order (the page preloads them in it).
    let mut snippets = Vec::new();
    if bound.join("snippets").exists() {
        walk(&bound, &bound.join("snippets"), &mut snippets)?;
    }
    snippets.sort();
    for name in &snippets {
        files.push((name.clone(), bound.join(name)));
    }

    let staged = scratch.join("code");
    if staged.exists() {
        std::fs::remove_dir_all(&staged).map_err(|e| format!("{}: {e}", staged.display()))?;
    }
    optimise(&files, &staged, release)?;

    let (folder, contents) = hashed("code", &files, &staged)?;
    // A chunk used only by trained models' panels is the model's; the other chunks come later;
    // the glue, the main module, the split loader and the snippets first.
    let chunks: Vec<String> = parts
        .split_modules
        .iter()
        .map(|m| {
            m.file_name()
                .expect("a chunk's file")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let role = |name: &String| -> Role {
        if !chunks.contains(name) {
            return Role::First;
        }
        let stem = name.trim_end_matches(".wasm");
        let users: Vec<&String> = parts
            .prefetch_map
            .iter()
            .filter(|(_, stems)| stems.iter().any(|s| s == stem))
            .map(|(part, _)| part)
            .collect();
        if !users.is_empty()
            && users
                .iter()
                .all(|part| MODEL_PARTS.contains(&part.as_str()))
        {
            Role::Model
        } else {
            Role::Later
        }
    };
    for (name, bytes) in &contents {
        dist.write(role(name), &format!("{folder}/{name}"), bytes)?;
    }
    let named = |name: &str| (format!("{folder}/{name}"), integrity(&contents[name]));
    Ok(Code {
        glue: named(&format!("{GLUE}.js")),
        wasm: named(&format!("{GLUE}_bg.wasm")),
        snippets: snippets.iter().map(|name| named(name)).collect(),
        live: live
            .map(|wasm| live_module(dist, wasm, scratch, release))
            .transpose()?,
    })
}

/// The opening page's live module, bound and optimised as the app's main module is, in a folder
/// `live-HASH/` fetched first: its glue and its wasm.
type Named = (String, String);
fn live_module(
    dist: &mut Dist,
    input: &[u8],
    scratch: &Path,
    release: bool,
) -> Result<(Named, Named), String> {
    const NAME: &str = "attention-live";
    let bound = scratch.join("live");
    let staged = scratch.join("live-staged");
    for dir in [&bound, &staged] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    Bindgen::new()
        .input_bytes(NAME, without_relocations(input)?)
        .web(true)
        .map_err(|e| e.to_string())?
        .typescript(false)
        .generate(&bound)
        .map_err(|e| format!("wasm-bindgen (the live module): {e:#}"))?;
    let mut names = vec![format!("{NAME}.js"), format!("{NAME}_bg.wasm")];
    if bound.join("snippets").exists() {
        walk(&bound, &bound.join("snippets"), &mut names)?;
    }
    let files: Vec<_> = names.iter().map(|n| (n.clone(), bound.join(n))).collect();
    optimise(&files, &staged, release)?;
    let (folder, contents) = hashed("live", &files, &staged)?;
    for (name, bytes) in &contents {
        dist.write(Role::First, &format!("{folder}/{name}"), bytes)?;
    }
    let named = |name: &str| (format!("{folder}/{name}"), integrity(&contents[name]));
    Ok((
        named(&format!("{NAME}.js")),
        named(&format!("{NAME}_bg.wasm")),
    ))
}

/// `wasm` without the linker's relocations and linking data (`--emit-relocs`, which the
/// splitter needs for the app's module: .cargo/config.toml), four fifths of the live module's
/// bytes, which nothing after the splitter would take out.
fn without_relocations(wasm: &[u8]) -> Result<Vec<u8>, String> {
    // A section's length or a name's: an unsigned LEB128 of at most 32 bits.
    fn leb(bytes: &[u8], at: &mut usize) -> Option<usize> {
        let mut value = 0usize;
        for shift in (0..35).step_by(7) {
            let byte = *bytes.get(*at)?;
            *at += 1;
            value |= usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }
    let broken = || "the live module: not a wasm module".to_owned();
    if !wasm.starts_with(b"\0asm") {
        return Err(broken());
    }
    let mut out = wasm.get(..8).ok_or_else(broken)?.to_vec();
    let mut at = 8;
    while at < wasm.len() {
        let start = at;
        let id = wasm[at];
        at += 1;
        let len = leb(wasm, &mut at).ok_or_else(broken)?;
        let body = at;
        at += len;
        let section = wasm.get(start..at).ok_or_else(broken)?;
        if id == 0 {
            let mut name_at = body;
            let name_len = leb(wasm, &mut name_at).ok_or_else(broken)?;
            let name = wasm.get(name_at..name_at + name_len).ok_or_else(broken)?;
            if name == b"linking" || name.starts_with(b"reloc.") {
                continue;
            }
        }
        out.extend_from_slice(section);
    }
    Ok(out)
}

/// The optimised `files` as staged, by name, and their folder's name: `prefix-` and the hash of
/// every file in it, by name.
fn hashed(
    prefix: &str,
    files: &[(String, std::path::PathBuf)],
    staged: &Path,
) -> Result<(String, BTreeMap<String, Vec<u8>>), String> {
    let mut all = Vec::new();
    let mut contents = BTreeMap::new();
    for (name, _) in files {
        let bytes = std::fs::read(staged.join(name)).map_err(|e| format!("{name}: {e}"))?;
        all.extend_from_slice(name.as_bytes());
        all.push(0);
        all.extend_from_slice(&hash(&bytes).into_bytes());
        contents.insert(name.clone(), bytes);
    }
    Ok((format!("{prefix}-{}", hash(&all)), contents))
}

/// Each file into `out` under its name: wasm through binaryen's `-Oz` (`www/optimise-wasm.mjs`)
/// and scripts through `esbuild --minify` in a release build, a tool per core at once (each
/// output depends on its input alone); copied as they are in a dev build.
fn optimise(
    files: &[(String, std::path::PathBuf)],
    out: &Path,
    release: bool,
) -> Result<(), String> {
    for (name, _) in files {
        let parent = out.join(name).parent().expect("in the folder").to_owned();
        std::fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The wasm in one binaryen process per core, their bytes shared evenly (largest first).
    let (mut wasm, rest): (Vec<_>, Vec<_>) = files
        .iter()
        .partition(|(name, _)| release && name.ends_with(".wasm"));
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
    wasm.sort_by_key(|(_, source)| std::cmp::Reverse(size(source)));
    let mut batches = vec![(0, vec!["www/optimise-wasm.mjs".to_owned()]); cores.min(wasm.len())];
    for (name, source) in wasm {
        let lightest = batches
            .iter_mut()
            .min_by_key(|b| b.0)
            .expect("a batch per core");
        lightest.0 += size(source);
        lightest.1.push(source.to_string_lossy().into_owned());
        lightest
            .1
            .push(out.join(name).to_string_lossy().into_owned());
    }
    let jobs: Vec<_> = batches
        .into_iter()
        .map(|(_, args)| Job::Wasm(args))
        .chain(rest.into_iter().map(Job::File))
        .collect();
    let work = std::sync::Mutex::new(jobs.iter());
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..cores)
            .map(|_| {
                s.spawn(|| -> Result<(), String> {
                    loop {
                        let Some(job) = work.lock().expect("a list").next() else {
                            return Ok(());
                        };
                        match job {
                            Job::Wasm(args) => {
                                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                                run("node", &args)?;
                            }
                            Job::File((name, source)) => {
                                let target = out.join(name);
                                if release && name.ends_with(".js") {
                                    run(
                                        "esbuild",
                                        &[
                                            "--minify",
                                            "--log-level=warning",
                                            &format!("--outfile={}", target.to_string_lossy()),
                                            &source.to_string_lossy(),
                                        ],
                                    )?;
                                } else {
                                    std::fs::copy(source, &target)
                                        .map_err(|e| format!("{}: {e}", source.display()))?;
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a worker"))
    })
}

/// A task of [`optimise`]: wasm files through one binaryen process (its arguments), or a file.
enum Job<'a> {
    Wasm(Vec<String>),
    File(&'a (String, std::path::PathBuf)),
}
