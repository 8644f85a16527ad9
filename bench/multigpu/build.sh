#!/usr/bin/env bash
# Builds, here (with LLVM and the Python venv), what bench/multigpu/run.sh runs on
# a machine with several GPUs: the JAX programs (export.py), their per-device
# programs (spmd-partition) and PTX bundles for 1 GPU and for TP GPUs, the global
# inputs, and aic-run without LLVM, into bench/multigpu/build/ (carry it over).
#   TP=2 DTYPE=f32 ARCH=sm_90a bench/multigpu/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/multigpu/build
TP=${TP:-2}
DTYPE=${DTYPE:-f32}
ARCH=${ARCH:-sm_90a}
PY=${PY:-$HOME/.cache/aic/python-venv/bin/python}
mkdir -p "$OUT"
"$PY" bench/multigpu/export.py --tp "$TP" --dtype "$DTYPE" --out "$OUT"
cargo build -q --release -p aic-tools --no-default-features --bin aic-run
cp target/release/aic-run "$OUT/aic-run"
cargo build -q -p aic-tools --bin aic-translate --bin aic-opt
for n in gpt_block llama_mlp; do
    target/debug/aic-opt --pass-pipeline='builtin.module(inline,spmd-partition,canonicalize)' \
        "$OUT/${n}_tp$TP.mlir" -o "$OUT/${n}_tp${TP}_partitioned.mlir"
    target/debug/aic-translate --target=nvptx --arch="$ARCH" --emit=bundle --verbose \
        "$OUT/${n}_1.mlir" -o "$OUT/${n}_1.bundle"
    target/debug/aic-translate --target=nvptx --arch="$ARCH" --emit=bundle --verbose \
        "$OUT/${n}_tp${TP}_partitioned.mlir" -o "$OUT/${n}_tp$TP.bundle"
done
ls -la "$OUT"
