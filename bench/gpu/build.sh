#!/usr/bin/env bash
# Builds, here (with LLVM), what bench/gpu/run.sh runs on a GPU machine (without
# LLVM): aic-run without LLVM, and one PTX bundle per case and JAX fixture, into
# bench/gpu/build/ (ignored by git; carry it to the GPU machine). The default ARCH=sm_90a
# (the H100's own target) runs the f16 GEMMs on Hopper's warpgroup MMA (wgmma);
# ARCH=sm_90 keeps mma.sync.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/gpu/build
ARCH=${ARCH:-sm_90a}
mkdir -p "$OUT"
cargo build -q --release -p aic-tools --no-default-features --bin aic-run
cp target/release/aic-run "$OUT/aic-run"
cargo build -q -p aic-tools --bin aic-translate
T=target/debug/aic-translate
# GIOU on 1024 x 256 box pairs: the JAX fixture's program at that size.
sed -e 's/8x4x4x/1024x256x4x/g; s/8x4x/1024x256x/g; s/8x4x1x/1024x256x1x/g' \
    -e 's/\[0:8, 0:4, /[0:1024, 0:256, /g' -e 's/dense<3.200000e+01>/dense<2.621440e+05>/' \
    tools/tests/fixtures/jax/giou_loss.mlir > "$OUT/giou.mlir"
for c in bench/gpu/cases/*.mlir "$OUT/giou.mlir"; do
    n=$(basename "$c" .mlir)
    "$T" --target=nvptx --arch="$ARCH" --emit=bundle "$c" -o "$OUT/$n.bundle"
done
# One f32 function over 2^20 elements per bundle, for bench.py math.
for m in exp log tanh erf sigmoid rsqrt gelu_tanh; do
    echo "func.func @main(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %r = graph.$m %x : tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}" > "$OUT/math_$m.mlir"
    "$T" --target=nvptx --arch="$ARCH" --emit=bundle "$OUT/math_$m.mlir" -o "$OUT/math_$m.bundle"
done
for f in tools/tests/fixtures/jax/*.mlir; do
    n=$(basename "$f" .mlir)
    [ "$n" = control_flow ] && continue
    "$T" --target=nvptx --arch="$ARCH" --emit=bundle "$f" -o "$OUT/fixture_$n.bundle"
done
ls -la "$OUT"
