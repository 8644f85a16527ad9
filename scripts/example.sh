#!/usr/bin/env bash
# The main job on the built-in examples: aic-opt parses examples/example.mlir and
# prints it back; aic-run interprets the StableHLO that JAX exported for a small
# MLP (tools/tests/fixtures/jax/mlp.mlir) on its saved inputs and prints the result.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (rustup) first" >&2
    exit 1
fi
cargo run -q -p aic-tools --bin aic-opt -- --allow-unregistered-dialect examples/example.mlir
j=tools/tests/fixtures/jax
cargo run -q -p aic-tools --bin aic-run -- --interpret $j/mlp.mlir --entry @main \
    --input $j/mlp.in0.npy --input $j/mlp.in1.npy --input $j/mlp.in2.npy \
    --input $j/mlp.in3.npy --input $j/mlp.in4.npy
