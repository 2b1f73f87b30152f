//! The opening page made live before the app arrives (`attention_explorer::ui::live`): a module
//! of its own, a fifth of the app's, fetched first by `www/boot.js`; the build program binds it
//! beside the app's code (`src/bin/attention-build/code.rs`).

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_explorer::ui::live::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The opening page's live module runs in the browser: see `bash .ci/build.sh`.");
}
