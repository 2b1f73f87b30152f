#!/usr/bin/env bash
# Fuzzes every parser a user's text or file reaches, each for a bounded time, from a corpus seeded
# by the presets and tiny models. Usage: .ci/fuzz.sh [SECONDS_EACH (default 600)] [TARGET...]
# A crash is saved under tests/fuzz/artifacts/TARGET/ and stops the script: make it a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(state cell block link torch gguf bpe packed folder wordpiece trained)

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
[ -x "$HOME/.cargo/bin/cargo-fuzz" ] || cargo install cargo-fuzz --locked

corpus=tests/fuzz/corpus
cargo run --quiet --manifest-path tests/fuzz/Cargo.toml --bin seeds -- "$corpus"
for target in "${targets[@]}"; do
  echo "== fuzz $target for ${seconds}s"
  cargo +nightly fuzz run --fuzz-dir tests/fuzz "$target" "$corpus/$target" -- \
    -max_total_time="$seconds" -max_len=65536 -print_final_stats=1
done
