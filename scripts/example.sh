#!/usr/bin/env bash
# The main job on the built-in examples: aic-opt parses examples/example.mlir and
# prints it back; aic-run interprets the StableHLO that JAX exported for a small
# MLP (tools/tests/fixtures/jax/mlp.mlir) on its saved inputs and prints the result,
# then compiles it (eqsat fusion, tile and gpu kernels, LLVM) for this CPU, runs the
# kernels and checks them against the interpreter; aic-translate prints the PTX of
# its kernels for an H100.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi
bash scripts/deps.sh
cargo run -q -p aic-tools --bin aic-opt -- --allow-unregistered-dialect examples/example.mlir
j=tools/tests/fixtures/jax
cargo run -q -p aic-tools --bin aic-run -- --interpret $j/mlp.mlir --entry @main \
    --input $j/mlp.in0.npy --input $j/mlp.in1.npy --input $j/mlp.in2.npy \
    --input $j/mlp.in3.npy --input $j/mlp.in4.npy
cargo run -q -p aic-tools --bin aic-run -- --target=host --check $j/mlp.mlir --entry @main \
    --input $j/mlp.in0.npy --input $j/mlp.in1.npy --input $j/mlp.in2.npy \
    --input $j/mlp.in3.npy --input $j/mlp.in4.npy
cargo run -q -p aic-tools --bin aic-translate -- --target=nvptx --arch=sm_90 --emit=asm $j/mlp.mlir -o - | grep -E "^\.(version|target)|\.entry"
