#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, unit and integration tests,
# the lit/FileCheck tests in lit_tests/, and the Python package's pytest suite.
# Installs what is missing first, so it works on a fresh Debian 12 machine as root.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# Debian's LLVM/MLIR 22 packages and Python's lit, where missing.
bash scripts/deps.sh

cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
cargo build -p aic-tools --bins
# lit ships no __main__; call its entry point directly.
python3 -c 'import sys; from lit.main import main; sys.exit(main())' -sv lit_tests
# StableHLO's interpreter suite, only where a checkout of openxla/stablehlo is given.
if [ -n "${STABLEHLO_DIR:-}" ]; then
    bash scripts/stablehlo_interpret.sh "$STABLEHLO_DIR"
fi
# The Python package, built into a virtualenv, and its pytest suite.
bash scripts/python.sh
