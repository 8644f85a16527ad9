#!/usr/bin/env bash
# Installs what building and testing aic needs on Debian 12, where missing: LLVM/MLIR 22
# (FileCheck and mlir-opt for lit; the static libraries, headers, TableGen and libclang
# that melior builds against; libLLVM and ld.lld for the inkwell backend), Python's
# lit, and NumPy (which runs the NKI Python aic emits). Run as root; scripts/test.sh
# and scripts/example.sh call it.
set -euo pipefail
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
# NumPy runs the NKI Python aic-translate --target=nki emits (tools/tests/nki_python.rs).
if ! python3 -c "import numpy" >/dev/null 2>&1; then
    python3 -m pip install -q numpy
fi

