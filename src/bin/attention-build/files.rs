//! The folder a build writes and its one list, `build.json`: every file with its role, recorded
//! by the step that wrote it. The service worker, the SCORM packer (core/formats/scorm.rs) and
//! tests/size.mjs read the list; nothing classifies files by their names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use sha2::{Digest, Sha256, Sha384};

/// When the page needs a file: `build.json`'s keys, in its order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// The page itself (index.html).
    Page,
    /// What the page fetches before its first screen.
    First,
    /// The code on demand, and the other presets' opening pages.
    Later,
    /// The presets' embeds written at build time: fetched by an embed's frame (whose opaque
    /// origin has no service worker), so not kept offline.
    Embeds,
    /// The service worker, registered once the page is ready.
    Worker,
    /// The examples for course pages and the SCORM package's adapter: never by the page.
    Teachers,
    /// The trained models' files and code: when the learner opens one (kept once fetched).
    Model,
    /// A language's texts and opening page: when a visit is in it (kept once fetched).
    Language,
}

impl Role {
    pub const ALL: [Role; 8] = [
        Role::Page,
        Role::First,
        Role::Later,
        Role::Embeds,
        Role::Worker,
        Role::Teachers,
        Role::Model,
        Role::Language,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Role::Page => "page",
            Role::First => "first",
            Role::Later => "later",
            Role::Embeds => "embeds",
            Role::Worker => "worker",
            Role::Teachers => "teachers",
            Role::Model => "model",
            Role::Language => "language",
        }
    }

    pub fn from_key(key: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.key() == key)
    }
}

/// The list's own name (core::formats::scorm::BUILD_LIST).
const LIST: &str = "build.json";

pub struct Dist {
    pub dir: PathBuf,
    files: BTreeMap<String, Role>,
}

impl Dist {
    /// `dir`, emptied (Trunk's staging folder holds Trunk's own output, which this build replaces).
    pub fn new(dir: &Path) -> Result<Dist, String> {
        if dir.exists() {
            for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
                let path = entry.map_err(|e| e.to_string())?.path();
                let gone = if path.is_dir() {
                    std::fs::remove_dir_all(&path)
                } else {
                    std::fs::remove_file(&path)
                };
                gone.map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Dist {
            dir: dir.to_owned(),
            files: BTreeMap::new(),
        })
    }

    /// Writes `name` (a path in the folder, with `/`) as `role`; a name written twice is a
    /// mistake of the build's.
    pub fn write(&mut self, role: Role, name: &str, bytes: impl AsRef<[u8]>) -> Result<(), String> {
        let path = self.dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        self.record(role, name)
    }

    /// Writes a file already listed again (index.html with its opening page).
    pub fn rewrite(&mut self, name: &str, bytes: impl AsRef<[u8]>) -> Result<(), String> {
        if !self.files.contains_key(name) {
            return Err(format!("{name} is rewritten but was never written"));
        }
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Lists a file another program wrote into the folder (the opening pages, a linked model).
    pub fn record(&mut self, role: Role, name: &str) -> Result<(), String> {
        if !self.dir.join(name).is_file() {
            return Err(format!(
                "{name} is listed but not in {}",
                self.dir.display()
            ));
        }
        match self.files.insert(name.to_owned(), role) {
            Some(_) => Err(format!("{name} is written twice")),
            None => Ok(()),
        }
    }

    /// The names listed as any of `roles`, sorted.
    pub fn listed(&self, roles: &[Role]) -> Vec<&str> {
        self.files
            .iter()
            .filter(|(_, r)| roles.contains(r))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// Writes `build.json`, once every file in the folder is listed (and only those).
    pub fn finish(&mut self) -> Result<(), String> {
        let mut on_disk = Vec::new();
        walk(&self.dir, &self.dir, &mut on_disk)?;
        for name in &on_disk {
            if !self.files.contains_key(name) {
                return Err(format!(
                    "{name} is in {} but no step listed it",
                    self.dir.display()
                ));
            }
        }
        // By hand, for the roles' order (serde_json's maps sort their keys).
        let lists: Vec<String> = Role::ALL
            .iter()
            .map(|&role| {
                let names: Vec<String> = self
                    .listed(&[role])
                    .iter()
                    .map(|n| format!("\n  {}", serde_json::Value::from(*n)))
                    .collect();
                format!("\n \"{}\": [{}\n ]", role.key(), names.join(","))
            })
            .collect();
        let text = format!("{{{}\n}}", lists.join(","));
        let path = self.dir.join(LIST);
        std::fs::write(&path, format!("{text}\n")).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Every file under `dir`, as names relative to `root` with `/`.
pub fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else {
            let name = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push(name);
        }
    }
    Ok(())
}

/// A hash of `bytes` for a name: 16 hex digits of its SHA-256 (a cached copy is the one asked for).
pub fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `PREFIX-HASH.EXT`.
pub fn hashed(prefix: &str, bytes: &[u8], ext: &str) -> String {
    format!("{prefix}-{}.{ext}", hash(bytes))
}

/// The Subresource Integrity of `bytes` (`integrity=` on a script or stylesheet).
pub fn integrity(bytes: &[u8]) -> String {
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(Sha384::digest(bytes))
    )
}

/// Runs a tool the build needs (npm's copy in node_modules/.bin first), saying which and how it
/// failed.
pub fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let npm = Path::new("node_modules/.bin").join(program);
    let done = std::process::Command::new(if npm.exists() {
        npm.as_os_str()
    } else {
        program.as_ref()
    })
    .args(args)
    .output()
    .map_err(|e| format!("{program}: {e} (.ci/tools.sh installs it)"))?;
    // What it says on success is noise (wasm-opt warns of the chunks' name sections it skips).
    if done.status.success() {
        print!("{}", String::from_utf8_lossy(&done.stdout));
        Ok(())
    } else {
        Err(format!(
            "{program} {} failed ({}): {}",
            args.join(" "),
            done.status,
            String::from_utf8_lossy(&done.stderr)
        ))
    }
}
