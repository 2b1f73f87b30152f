#!/usr/bin/env bash
# Builds the optimised app into dist/ (what the notebook widget's wheel carries, and what a host
# serves). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/tools.sh
# www/split first: its wasm-bindgen splits off the code loaded on demand (see its comment).
export PATH="$PWD/www/split:$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
trunk build --release
