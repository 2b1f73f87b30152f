#!/usr/bin/env bash
# Builds the app and serves it at http://127.0.0.1:8080, rebuilding on change (Trunk, whose hook
# runs the same build program as .ci/build.sh). Installs what is missing first. Pass --release
# for an optimised build.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/tools.sh --serve
exec "$HOME/.cargo/bin/trunk" serve "$@"
