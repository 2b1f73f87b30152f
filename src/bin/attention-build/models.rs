//! Step 3, the trained models beside the app, the files the page fetches when the learner opens
//! one (never in the first download): BERT as one float16 file, packed once from the folder
//! www/pretrained.mjs unpacks (the core's `pack`); the language model as the package's GGUF file
//! unchanged. Each is linked into the build; without it the build goes on and the page says the
//! model cannot be fetched.

use std::path::Path;

use attention_explorer::core::decoder::LANGUAGE_MODEL;
use attention_explorer::core::pretrained::{pack_folder, SHIPPED};

use crate::files::{Dist, Role};

pub fn place(dist: &mut Dist, target: &Path) -> Result<(), String> {
    let folder = target.join("pretrained").join(SHIPPED.name);
    // Named by the packed format (read.rs's FORMAT): a new format packs again.
    let packed = target
        .join("pretrained")
        .join(format!("{}.packed-1.safetensors", SHIPPED.name));
    if !folder.join("model.safetensors").exists() {
        eprintln!("attention-build: no {}/ (node www/pretrained.mjs fetches it): the build has no trained model", folder.display());
    } else {
        if !packed.exists() {
            let file = pack_folder(&folder)?;
            std::fs::write(&packed, file).map_err(|e| format!("{}: {e}", packed.display()))?;
        }
        link(dist, &packed, SHIPPED.file)?;
    }
    let gguf = target
        .join("decoder")
        .join("SmolLM2-135M-Instruct.Q4_1.gguf");
    if gguf.exists() {
        link(dist, &gguf, LANGUAGE_MODEL.file)?;
    } else {
        eprintln!("attention-build: no {} (node www/pretrained.mjs fetches it): the build has no language model", gguf.display());
    }
    Ok(())
}

/// `file` at `name` in the build: a hard link (100 MB not copied), else a copy.
fn link(dist: &mut Dist, file: &Path, name: &str) -> Result<(), String> {
    let to = dist.dir.join(name);
    std::fs::create_dir_all(to.parent().expect("in models/")).map_err(|e| e.to_string())?;
    if std::fs::hard_link(file, &to).is_err() {
        std::fs::copy(file, &to).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    dist.record(Role::Model, name)
}
