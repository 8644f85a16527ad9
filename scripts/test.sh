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
# LLVM/MLIR 22 from Debian: FileCheck and mlir-opt for lit, and the static libraries,
# headers, TableGen and libclang that melior (backends/) builds against.
PACKAGES="llvm-22-tools mlir-22-tools llvm-22-dev libmlir-22-dev libclang-22-dev libpolly-22-dev
    lld-22 libzstd-dev libz3-dev libxml2-dev zlib1g-dev libffi-dev libedit-dev libncurses-dev"
missing=""
for p in $PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
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
