//! The browser entry point: mounts the app (compiled for wasm32, then made into the page by the
//! build program: `bash .ci/build.sh`, or `bash .ci/serve.sh` to serve it).

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_explorer::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The app runs in the browser: serve it with `bash .ci/serve.sh` (see README). For numbers, use `cargo run --bin attention-trace`.");
}
