#!/usr/bin/env bash
# Builds aic's Python package as one wheel that runs where no LLVM is installed:
# LLVM's static libraries (Debian's /usr/lib/llvm-22/lib/libLLVM*.a) linked
# into the extension (aic-python's cargo feature `llvm-static`), release
# profile, stripped, for CPython's stable ABI from 3.11 on (abi3). The CUDA
# driver is opened at run time, as aic-run opens it, so the wheel needs no CUDA
# either. Then checks the module: no libLLVM among what it needs.
#
#   bash scripts/python_wheel.sh OUT_DIR      # writes OUT_DIR/aic-*-cp311-abi3-linux_x86_64.whl
#
# Slow (a release build of the workspace and a link against all of LLVM): CI
# does not run it; scripts/python.sh builds the quick, dynamically linked
# package that the tests use. Takes maturin from the virtualenv python.sh
# makes ($AIC_PYTHON_VENV, default ~/.cache/aic/python-venv), or from PATH.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR (the folder the wheel is written to)" >&2
    exit 2
fi
# Absolute: maturin runs from python/, and a relative OUT_DIR means the caller's.
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
LLVM=${LLVM_SYS_221_PREFIX:-/usr/lib/llvm-22}
if [ ! -f "$LLVM/lib/libLLVMCore.a" ]; then
    echo "$0: $LLVM/lib/libLLVMCore.a not found: LLVM 22's static libraries come with Debian's llvm-22-dev (bash scripts/deps.sh)" >&2
    exit 1
fi
VENV=${AIC_PYTHON_VENV:-${HOME:-/root}/.cache/aic/python-venv}
if [ -x "$VENV/bin/maturin" ]; then
    MATURIN="$VENV/bin/maturin"
elif command -v maturin >/dev/null 2>&1; then
    MATURIN=maturin
else
    echo "$0: maturin not found: run bash scripts/python.sh first (it makes $VENV), or pip install 'maturin>=1.5,<2'" >&2
    exit 1
fi
mkdir -p "$OUT"
# The tag says plain linux_x86_64: the module needs the C++ runtime of the
# machine that built it (a manylinux repair would want an older one).
(cd python && "$MATURIN" build --release --strip --no-default-features --features llvm-static \
    --auditwheel skip -o "$OUT")
whl=$(ls -t "$OUT"/aic-*-abi3-*.whl | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$whl" "$tmp"
so=$(find "$tmp" -name '_aic*.so' | head -1)
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "$whl: $(du -m "$whl" | cut -f1) MiB; the module needs: $needed"
if echo "$needed" | grep -qi llvm; then
    echo "$0: the module still links LLVM dynamically" >&2
    exit 1
fi
