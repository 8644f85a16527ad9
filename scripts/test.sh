#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, unit and integration tests,
# and the lit/FileCheck tests in lit_tests/. Installs what is missing first, so it
# works on a fresh Debian 12 machine as root.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

LLVM_BIN=/usr/lib/llvm-22/bin
if [ ! -x "$LLVM_BIN/FileCheck" ] || [ ! -x "$LLVM_BIN/mlir-opt" ] || [ ! -x "$LLVM_BIN/not" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm-22-tools mlir-22-tools >/dev/null
fi
if ! python3 -c "import lit" >/dev/null 2>&1; then
    python3 -m pip install -q lit
fi

cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
cargo build -p aic-tools --bins
# lit ships no __main__; call its entry point directly.
python3 -c 'import sys; from lit.main import main; sys.exit(main())' -sv lit_tests
