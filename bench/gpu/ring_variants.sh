#!/usr/bin/env bash
# Issue 24's GEMM (and attention: CASES="attention ...") cases with each way a wgmma K loop may fill its ring
# (aic-translate --copy: cp_async, tma, tma_empty, tma_ws; `tma_ws:N` adds
# --persistent=N, a persistent kernel on N blocks; `@FILE` adds
# --tuning=FILE, a tuning cache's tiles and stages), timed by
# bench.py beside its cuBLAS(Lt) and torch.compile references in one run.
#   bash bench/gpu/ring_variants.sh build   # here, with LLVM: bench/gpu/rings/
#   bash bench/gpu/ring_variants.sh run     # on the GPU machine (carry bench/gpu/rings)
# Each variant is first checked by aic-run against the reference
# interpreter on small awkward shapes (bench/gpu/rings/check_*.mlir:
# partial tiles, a K loop shorter than the ring, more tiles than a wave
# (grouped), attention over three
# key blocks, causal attention).
set -euo pipefail
cd "$(dirname "$0")/../.."
D=bench/gpu/rings
VARIANTS=${VARIANTS:-cp_async tma tma_empty tma_ws tma_ws:132}
CASES=${CASES:-gemm_bias_gelu gemm_add_add_fastgelu gemm_8192_f16}
CHECKS=${CHECKS:-check_nt check_short check_group check_splitk check_rows check_tiny check_attn check_attn64 check_causal}
# A variant's folder: cp_async, tma_ws_p132, tma_ws_tune3 (a tuning
# cache's name after @).
dirname_of() {
    local n=${1/:/_p}
    [[ -n ${2:-} ]] && n="${n}_$(basename "$2" .json)"
    echo "$n"
}
case "${1:-}" in
build)
    mkdir -p "$D"
    cargo build -q --release -p aic-tools --bin aic-translate
    CARGO_TARGET_DIR=target/gpubuild cargo build -q --release -p aic-tools --no-default-features --bin aic-run
    strip -o "$D/aic-run" target/gpubuild/release/aic-run
    T=target/release/aic-translate
    cat > "$D/check_nt.mlir" <<'M'
func.func @main(%a: tensor<520x776xf16>, %w: tensor<520x776xf16>, %b: tensor<520xf16>) -> tensor<520x520xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<520x776xf16>, tensor<520x776xf16>) -> tensor<520x520xf16>
  %y = graph.bias_add %m, %b : (tensor<520x520xf16>, tensor<520xf16>) -> tensor<520x520xf16>
  %g = graph.gelu_tanh %y : tensor<520x520xf16>
  return %g : tensor<520x520xf16>
}
M
    cat > "$D/check_short.mlir" <<'M'
func.func @main(%a: tensor<384x128xf16>, %w: tensor<128x512xf16>) -> tensor<384x512xf16> {
  %m = graph.matmul %a, %w : (tensor<384x128xf16>, tensor<128x512xf16>) -> tensor<384x512xf16>
  return %m : tensor<384x512xf16>
}
M
    # More tiles than a wave (17 rows of 128, the last short, by 11 columns
    # of 192): the heuristic's tiles in groups of 16 rows, the last group
    # of one row.
    cat > "$D/check_group.mlir" <<'M'
func.func @main(%a: tensor<2168x128xf16>, %w: tensor<128x2048xf16>) -> tensor<2168x2048xf16> {
  %m = graph.matmul %a, %w : (tensor<2168x128xf16>, tensor<128x2048xf16>) -> tensor<2168x2048xf16>
  return %m : tensor<2168x2048xf16>
}
M
    # Split-K (the heuristic's, 4 slices of 512 for 2 x 4 tiles of 64 x
    # 64): partial tiles, the epilogue in the kernel summing the slices.
    cat > "$D/check_splitk.mlir" <<'M'
func.func @main(%a: tensor<72x2048xf16>, %w: tensor<200x2048xf16>, %b: tensor<200xf16>) -> tensor<72x200xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<72x2048xf16>, tensor<200x2048xf16>) -> tensor<72x200xf16>
  %y = graph.bias_add %m, %b : (tensor<72x200xf16>, tensor<200xf16>) -> tensor<72x200xf16>
  %g = graph.gelu_tanh %y : tensor<72x200xf16>
  return %g : tensor<72x200xf16>
}
M
    # A few rows (24 of a warpgroup's 64) by 1000 columns (31 tiles of 32
    # and a partial one), the bias in the epilogue.
    cat > "$D/check_rows.mlir" <<'M'
func.func @main(%a: tensor<24x1024xf16>, %w: tensor<1000x1024xf16>, %b: tensor<1000xf16>) -> tensor<24x1000xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<24x1024xf16>, tensor<1000x1024xf16>) -> tensor<24x1000xf16>
  %y = graph.bias_add %m, %b : (tensor<24x1000xf16>, tensor<1000xf16>) -> tensor<24x1000xf16>
  return %y : tensor<24x1000xf16>
}
M
    # A decode step of 3 tokens by 4000 columns: one warpgroup's 64 x 32
    # tiles (125, the last partial) where they fill the SMs.
    cat > "$D/check_tiny.mlir" <<'M'
func.func @main(%a: tensor<3x1024xf16>, %w: tensor<4000x1024xf16>) -> tensor<3x4000xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<3x1024xf16>, tensor<4000x1024xf16>) -> tensor<3x4000xf16>
  return %m : tensor<3x4000xf16>
}
M
    # Attention, 2 batches of 4 heads, 384 tokens (three key blocks of 128,
    # more than the ring's stages), head dim 128, scale 1/sqrt(128).
    cat > "$D/check_attn.mlir" <<'M'
func.func @main(%q: tensor<2x4x384x128xf16>, %k: tensor<2x4x384x128xf16>, %v: tensor<2x4x384x128xf16>) -> tensor<2x4x384x128xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<2x4x384x128xf16>, tensor<2x4x384x128xf16>) -> tensor<2x4x384x384xf16>
  %c = graph.constant dense<8.837890e-02> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<2x4x384x384xf16>
  %x = graph.mul %s, %cb : tensor<2x4x384x384xf16>
  %p = graph.softmax %x, axis = 3 : tensor<2x4x384x384xf16>
  %o = graph.matmul %p, %v : (tensor<2x4x384x384xf16>, tensor<2x4x384x128xf16>) -> tensor<2x4x384x128xf16>
  return %o : tensor<2x4x384x128xf16>
}
M
    # The same at head dim 64, scale 1/8 (three consumer warpgroups' 192
    # query rows where a tuning cache asks for them: two query blocks).
    cat > "$D/check_attn64.mlir" <<'M'
func.func @main(%q: tensor<2x4x384x64xf16>, %k: tensor<2x4x384x64xf16>, %v: tensor<2x4x384x64xf16>) -> tensor<2x4x384x64xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<2x4x384x64xf16>, tensor<2x4x384x64xf16>) -> tensor<2x4x384x384xf16>
  %c = graph.constant dense<1.250000e-01> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<2x4x384x384xf16>
  %x = graph.mul %s, %cb : tensor<2x4x384x384xf16>
  %p = graph.softmax %x, axis = 3 : tensor<2x4x384x384xf16>
  %o = graph.matmul %p, %v : (tensor<2x4x384x384xf16>, tensor<2x4x384x64xf16>) -> tensor<2x4x384x64xf16>
  return %o : tensor<2x4x384x64xf16>
}
M
    # Causal attention as JAX writes it, 2 batches of 4 heads, 384 tokens
    # (query blocks of 128 with 0, 1 and 2 unmasked key blocks before
    # their diagonal), head dim 64.
    cat > "$D/check_causal.mlir" <<'M'
func.func @main(%q: tensor<2x4x384x64xf16>, %k: tensor<2x4x384x64xf16>, %v: tensor<2x4x384x64xf16>) -> tensor<2x4x384x64xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<2x4x384x64xf16>, tensor<2x4x384x64xf16>) -> tensor<2x4x384x384xf16>
  %c = graph.constant dense<8.000000e+00> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<2x4x384x384xf16>
  %x = graph.div %s, %cb : tensor<2x4x384x384xf16>
  %i = graph.iota dim = 0 : tensor<384x384xi32>
  %j = graph.iota dim = 1 : tensor<384x384xi32>
  %p = graph.compare GE, %i, %j : (tensor<384x384xi32>, tensor<384x384xi32>) -> tensor<384x384xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<384x384xi1>) -> tensor<2x4x384x384xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<2x4x384x384xf16>
  %z = graph.select %pb, %x, %nb : (tensor<2x4x384x384xi1>, tensor<2x4x384x384xf16>, tensor<2x4x384x384xf16>) -> tensor<2x4x384x384xf16>
  %zf = graph.cast %z : (tensor<2x4x384x384xf16>) -> tensor<2x4x384x384xf32>
  %sm = graph.softmax %zf, axis = 3 : tensor<2x4x384x384xf32>
  %ph = graph.cast %sm : (tensor<2x4x384x384xf32>) -> tensor<2x4x384x384xf16>
  %o = graph.matmul %ph, %v : (tensor<2x4x384x384xf16>, tensor<2x4x384x64xf16>) -> tensor<2x4x384x64xf16>
  return %o : tensor<2x4x384x64xf16>
}
M
    for v in $VARIANTS; do
        # copy[:persistent][@tuning cache]
        t=""
        [[ $v == *@* ]] && t=${v#*@} && v=${v%%@*}
        flags=(--copy="${v%%:*}")
        [[ $v == *:* ]] && flags+=(--persistent="${v#*:}")
        [[ -n $t ]] && flags+=(--tuning="$t")
        dir="$D/$(dirname_of "$v" "$t")"
        mkdir -p "$dir"
        for c in $CASES; do
            "$T" --target=nvptx --arch=sm_90a "${flags[@]}" --emit=bundle bench/gpu/cases/$c.mlir -o "$dir/$c.bundle"
        done
        for c in $CHECKS; do
            "$T" --target=nvptx --arch=sm_90a "${flags[@]}" --emit=bundle "$D/$c.mlir" -o "$dir/$c.bundle"
        done
    done
    du -sh "$D"
    ;;
run)
    OUT=${OUT:-/tmp/aic-rings}
    mkdir -p "$OUT"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    # Random f16 arguments (normal, the weights scaled by 0.02) for every
    # program, from the shapes of its @main.
    python3 - "$D" "$OUT" <<'P'
import glob, os, re, sys
import numpy as np
d, out = sys.argv[1:]
rng = np.random.default_rng(0)
for f in glob.glob(os.path.join(d, "check_*.mlir")):
    n = os.path.basename(f)[:-5]
    sig = re.search(r"func\.func @main\((.*?)\)\s*->", open(f).read()).group(1)
    for i, shape in enumerate(re.findall(r"tensor<([0-9x]+)xf16>", sig)):
        dims = [int(x) for x in shape.split("x")]
        x = rng.standard_normal(dims, dtype=np.float32) * (0.02 if i == 1 and "attn" not in n and "causal" not in n else 1.0)
        np.save(os.path.join(out, f"{n}.in{i}.npy"), x.astype(np.float16))
P
    inputs() { for f in $(ls "$OUT/$1".in*.npy | sort); do printf -- '--input=%s ' "$f"; done; }
    for v in $VARIANTS; do
        t=""
        [[ $v == *@* ]] && t=${v#*@} && v=${v%%@*}
        v=$(dirname_of "$v" "$t")
        for c in $CHECKS; do
            printf '%s %s: ' "$v" "$c"
            "$D/aic-run" --target=cuda "$D/$v/$c.bundle" --entry=@main $(inputs $c) --check > "$OUT/$v.$c.log" 2>&1 \
                && echo "ok: $(grep -h "check" "$OUT/$v.$c.log" | head -2 | tr '\n' ' ')" \
                || echo "FAILED: $(tail -3 "$OUT/$v.$c.log" | tr '\n' ' ')"
        done
    done
    # Every variant and the references in one process: numerics against a
    # float32 truth, do_bench medians with L2 flushed (bench.py).
    bundles=$(for v in $VARIANTS; do t=""; [[ $v == *@* ]] && t=${v#*@}; printf '%s,' "$D/$(dirname_of "${v%%@*}" "$t")"; done)
    OUT=$OUT CASES=$(echo $CASES | tr ' ' ',') BUNDLES=${bundles%,} python3 bench/gpu/bench.py bench | sed -n '/^| case/,$p'
    ;;
*)
    echo "usage: $0 build|run" >&2
    exit 2
    ;;
esac
