//! The build program: everything after the app's wasm is compiled, top to bottom, each step
//! recording the files it writes with their role (`dist/build.json`).
//!
//! attention-build [--release]
//!     after `cargo build --target wasm32-unknown-unknown --bin attention-explorer [--release]`
//!     and `… --no-default-features --bin attention-live`:
//!     writes `dist/` (`.ci/build.sh`)
//! attention-build   as Trunk's post-build hook (`trunk serve`, Trunk.toml): writes Trunk's
//!     staging folder instead (`TRUNK_STAGING_DIR`), in Trunk's profile (`TRUNK_PROFILE`)
//!
//! Needs binaryen and esbuild (npm's, in node_modules: `.ci/tools.sh`) for a release build, and for the
//! opening pages Node, playwright-core and Chromium (without them the page opens with its
//! loading line, and the build says so).

mod code;
mod files;
mod languages;
mod models;
mod page;
mod prerender;
mod worker;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use attention_explorer::core::formats::contract::EMBED_PAGE;
use files::{Dist, Role};
use page::Entry;

fn main() -> ExitCode {
    match build() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("attention-build: {e}");
            ExitCode::FAILURE
        }
    }
}

fn build() -> Result<(), String> {
    let trunk = std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from);
    let release = match &trunk {
        Some(_) => std::env::var("TRUNK_PROFILE").is_ok_and(|p| p == "release"),
        None => std::env::args().skip(1).any(|a| a == "--release"),
    };
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let profile = if release { "release" } else { "debug" };
    let wasm_file = target
        .join("wasm32-unknown-unknown")
        .join(profile)
        .join("attention-explorer.wasm");
    let wasm = std::fs::read(&wasm_file).map_err(|e| {
        format!("{}: {e} (build it first: cargo build --target wasm32-unknown-unknown --bin attention-explorer)", wasm_file.display())
    })?;
    // The opening page's live module, beside it (`.ci/build.sh` builds both); Trunk builds the
    // app alone, and its pages have no opening page to make live.
    let live_file = wasm_file.with_file_name("attention-live.wasm");
    let live = match trunk {
        Some(_) => None,
        None => Some(std::fs::read(&live_file).map_err(|e| format!("{}: {e} (build it first: cargo build --target wasm32-unknown-unknown --no-default-features --bin attention-live)", live_file.display()))?),
    };
    // Straight into Trunk's staging folder (Trunk moves it to dist/); else beside dist/, which
    // is replaced only once the build is whole.
    let out = trunk.clone().unwrap_or_else(|| target.join("dist-staging"));
    let mut dist = Dist::new(&out)?;
    let scratch = target.join("attention-build");

    // 1. The app's code: split at its #[lazy] parts, bound to JavaScript, optimised, in one
    //    folder named by its contents (code-HASH/).
    let code = code::build(&mut dist, &wasm, live.as_deref(), &scratch, release)?;
    // 2. The page's own files: its stylesheet, boot script and loader (and under Trunk, a
    //    script that reloads it once rebuilt); the teachers' files.
    let assets = page::assets(&mut dist, release.then_some(&*scratch), trunk.is_some())?;
    // 3. The trained models' files, fetched when the learner opens one, from where
    //    www/pretrained.mjs put them (the repository's target/, whatever CARGO_TARGET_DIR).
    models::place(&mut dist, Path::new("target"))?;
    // 4. Each language's texts, fetched when a visit is in it.
    let languages = languages::ship(&mut dist)?;
    // 5. The page, index.html, from its template.
    let mut page = page::Page {
        code,
        assets,
        languages,
        snapshot: None,
    };
    dist.write(Role::Page, "index.html", page.html(Entry::Full)?)?;
    //    and the embeds' entry page, the same without the default opening page, and each
    //    embed's page of its own (as the entry page until step 6 writes its steps in).
    dist.write(Role::Embeds, EMBED_PAGE, page.html(Entry::Embeds)?)?;
    for own in page::own_embeds(None, &dist.dir)? {
        dist.write(Role::Embeds, &own.file, page.html(Entry::Own(&own))?)?;
    }
    // 6. The opening pages, rendered by that page itself in Chromium (release builds), and
    //    written into them, the embeds' steps into their pages of their own.
    if release {
        page.snapshot = prerender::run(&mut dist, &scratch)?;
        if let Some(snapshot) = &page.snapshot {
            for own in page::own_embeds(Some(snapshot), &dist.dir)? {
                dist.rewrite(&own.file, page.html(Entry::Own(&own))?)?;
            }
            dist.rewrite("index.html", page.html(Entry::Full)?)?;
            dist.rewrite(EMBED_PAGE, page.html(Entry::Embeds)?)?;
        }
    }
    // 7. The service worker, holding the lists of what it keeps; 8. the build's list.
    worker::write(&mut dist)?;
    dist.finish()?;
    if trunk.is_none() {
        replace(&out, Path::new("dist"))?;
    }
    Ok(())
}

/// `dist` replaced by the whole new build.
fn replace(built: &Path, dist: &Path) -> Result<(), String> {
    if dist.exists() {
        std::fs::remove_dir_all(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    }
    std::fs::rename(built, dist)
        .map_err(|e| format!("{} → {}: {e}", built.display(), dist.display()))
}
