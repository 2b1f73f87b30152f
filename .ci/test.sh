#!/usr/bin/env bash
# Runs every test: native core tests, component tests in headless Chromium, then end-to-end tests
# of the release build with Playwright. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/tools.sh --browser

# Each stage says when it starts (minutes:seconds since this script began), so a slow CI shows where.
stage() { printf "== [%d:%02d] %s\n" $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

stage "native tests (core, and the import rule of tests/architecture.rs)"
cargo test

stage "the language model against transformers (release: its 135M weights run in 30 s, not 12 min)"
cargo test --release --test decoder
stage "formatting (rustfmt; view! bodies are kept by hand, see docs/developers/architecture.md)"
cargo fmt --check
# The kernels are a crate of their own (not a workspace member): `cargo fmt` at the root skips it.
cargo fmt --check --manifest-path src/kernels/Cargo.toml

stage "clippy, native and wasm (warnings are errors)"
cargo clippy --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo clippy --features build --bin attention-build -- -D warnings

stage "component tests (wasm-bindgen-test, headless Chromium)"
# Without wasm chunks (--no-default-features: no `split`): the test runner cannot load them.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -C target-feature=+simd128" \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=300 \
WASM_BINDGEN_TEST_WEBDRIVER_JSON=tests/webdriver.json \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$HOME/.cargo/bin/wasm-bindgen-test-runner" \
  cargo test --target wasm32-unknown-unknown --no-default-features --test web

stage "release build (the wasm, then the build program: src/bin/attention-build/)"
.ci/build.sh

stage "size budget (gzip -9 of dist/'s wasm, js, css and the HTML)"
node tests/size.mjs

stage "the notebook widget (python/): its wheel (the page and the core built in), pytest on it installed"
# Its own environment: JupyterLab for tests/e2e/notebook.test.mjs, at the versions tested.
[ -x target/notebook-env/bin/python ] || python3 -m venv target/notebook-env
target/notebook-env/bin/pip install -q --disable-pip-version-check -r python/requirements-test.txt
rm -rf target/wheel
target/notebook-env/bin/pip wheel -q --disable-pip-version-check --no-deps -w target/wheel ./python
target/notebook-env/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheel/*.whl
ATTENTION_EXPLORER_WHEEL="$(ls target/wheel/*.whl)" target/notebook-env/bin/python -m pytest -q -rs python/tests

stage "end-to-end tests (Playwright, headless Chromium; the widget in JupyterLab)"
# Two files at once (each its own server and Chromium): 15 minutes on two cores, not 19.
node --test --test-concurrency=2 tests/e2e/
stage "all passed"
