#!/usr/bin/env bash
# Build the precision benchmark's aic bundles for bench/precision/run.py --aic:
#   bash bench/precision/build.sh OUT_DIR [SIZE] [ARCH]
# (SIZE real or small, default real; ARCH default sm_90a). Exports the f32 BERT
# layer, GPT block and Llama block with bench/models/export.py (needs JAX: the
# virtualenv of scripts/python.sh, or $PYTHON), then compiles each
#   NAME.SIZE.float32          the f32 program as it is,
#   NAME.SIZE.float32.amp-f16  after auto-mixed-precision{dtype=f16},
#   NAME.SIZE.float32.amp-bf16 after auto-mixed-precision{dtype=bf16},
# and the GEMM programs of gen_gemms.py (f16, weight-only int8 and dynamic int8
# GEMM 4096^3 and Llama MLP, the bare int8 x int8 -> int32 GEMM, the 2:4
# sparse GEMM (graph.sparse_matmul of a compressed weight), and fp8: the
# bare e4m3 x e4m3 -> f32 GEMM, quantize{mode=fp8}'s GEMM and Llama MLP; these
# need sm_89 or newer, which the default sm_90a is). Uses
# $AIC_TRANSLATE / $AIC_OPT, else the newer of target/release's
# and target/debug's, and $TUNING (a tuning cache, as bench/models/build.sh
# takes) where set; a program that does not compile is reported and skipped.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build.sh OUT_DIR [SIZE] [ARCH]}
size=${2:-real}
arch=${3:-sm_90a}
pick() {
  local t=target/debug/$1
  [ target/release/$1 -nt "$t" ] && t=target/release/$1
  echo "$t"
}
tr=${AIC_TRANSLATE:-$(pick aic-translate)}
opt=${AIC_OPT:-$(pick aic-opt)}
py=${PYTHON:-${HOME:-/root}/.cache/aic/python-venv/bin/python}
mkdir -p "$out/src"
"$py" bench/models/export.py "$out/src" --size "$size" --dtype float32 \
  --models bert_layer,gpt2_block,llama_block || { echo "export failed (JAX?)"; exit 1; }
python3 bench/precision/gen_gemms.py "$out/src" >/dev/null
bundle() {  # bundle NAME SOURCE
  local b="$out/$1.bundle"
  if "$tr" --target=nvptx --arch="$arch" ${TUNING:+--tuning="$TUNING"} --emit=bundle "$2" -o "$b" 2>"$b.log"; then
    echo "built $b"
  else
    echo "FAILED $1 (see $b.log)"
  fi
}
for m in bert_layer gpt2_block llama_block; do
  f="$out/src/$m.$size.float32.mlir"
  bundle "$m.$size.float32" "$f"
  for dt in f16 bf16; do
    mixed="$out/src/$m.$size.float32.amp-$dt.mlir"
    if "$opt" "$f" --pass-pipeline="builtin.module(stablehlo-to-graph{raise=true},inline,canonicalize,auto-mixed-precision{dtype=$dt},canonicalize)" \
        -o "$mixed" 2>"$mixed.log"; then
      bundle "$m.$size.float32.amp-$dt" "$mixed"
    else
      echo "FAILED auto-mixed-precision on $m (see $mixed.log)"
    fi
  done
done
for g in gemm.f16 gemm.int8w gemm.int8 gemm.int8dyn gemm.sparse24 llama_mlp.f16 llama_mlp.int8w llama_mlp.int8dyn \
    gemm.fp8 gemm.fp8dyn llama_mlp.fp8; do
  bundle "$g" "$out/src/$g.mlir"
done
