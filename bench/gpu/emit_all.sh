#!/usr/bin/env bash
# Emits the device code of every bench case and JAX fixture for every GPU target
# (PTX for sm_90a and sm_90, AMDGPU assembly for gfx942 and gfx90a) into OUT (a
# case as <case>.<arch>.s, a JAX fixture as fixture_<name>.<arch>.s), with
# the aic-translate given (default: this checkout's debug build). A redesign that
# must not change code generation compares two such folders with `diff -r`.
#   bench/gpu/emit_all.sh OUT [AIC_TRANSLATE]
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: emit_all.sh OUT [AIC_TRANSLATE]}
T=${2:-target/debug/aic-translate}
mkdir -p "$OUT"
for c in bench/gpu/cases/*.mlir tools/tests/fixtures/jax/*.mlir; do
    n=$(basename "$c" .mlir)
    # the fixtures' names (layernorm, softmax) must not overwrite the cases'
    case $c in tools/*) n=fixture_$n ;; esac
    for t in nvptx:sm_90a nvptx:sm_90 amdgpu:gfx942 amdgpu:gfx90a; do
        "$T" --target="${t%%:*}" --arch="${t#*:}" --emit=asm "$c" -o "$OUT/$n.${t#*:}.s" \
            2> "$OUT/$n.${t#*:}.err" || echo "exit $?" >> "$OUT/$n.${t#*:}.err"
    done
done
