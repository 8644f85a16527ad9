#!/usr/bin/env bash
# The main job on the built-in example: aic-opt parses examples/example.mlir and
# prints it back in MLIR's generic form.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi
cargo run -q -p aic-tools --bin aic-opt -- --allow-unregistered-dialect examples/example.mlir
