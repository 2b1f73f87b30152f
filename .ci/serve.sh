#!/usr/bin/env bash
# Builds the app and serves it at http://127.0.0.1:8080, rebuilding on change.
# Installs what is missing first. Pass --release for an optimised build.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/tools.sh
# www/split first: its wasm-bindgen splits off the code loaded on demand (see its comment).
export PATH="$PWD/www/split:$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# Trunk refuses to watch with an ignored path that does not exist yet (a fresh clone).
mkdir -p .split
exec trunk serve "$@"
