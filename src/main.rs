//! The browser entry point: mounts the app (built by Trunk for wasm32).

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_explorer::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The app runs in the browser: build it with `trunk serve` (see README). For numbers, use `cargo run --bin attention-trace`.");
}
