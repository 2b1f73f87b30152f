#!/usr/bin/env bash
# Builds the optimised app into dist/ (what the notebook widget's wheel carries, and what a host
# serves): the wasm, then the build program (src/bin/attention-build/) writes everything else.
# Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/tools.sh
cargo build --release --target wasm32-unknown-unknown --bin attention-explorer
# The opening page's live module, without the app's chunks (Cargo.toml, `split`).
cargo build --release --target wasm32-unknown-unknown --no-default-features --bin attention-live
cargo run --quiet --features build --bin attention-build -- --release
