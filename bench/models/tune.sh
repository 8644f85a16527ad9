#!/usr/bin/env bash
# Tunes the model suite's GEMM tiles with aic-tune, compiling where LLVM is and
# timing where the GPU is:
#   here:            bash bench/models/tune.sh emit ROUNDS_DIR [SIZE] [DTYPE] [ARCH]
#   on the GPU:      bash bench/models/tune.sh measure ROUNDS_DIR CACHE.json [AIC_TUNE]
# emit writes one folder of rounds per model (bert_encoder's kernels are
# bert_layer's, so it is not tuned apart); measure times every folder with an
# aic-tune built without LLVM (default target/gpu/aic-tune) into one cache,
# printing each model's summary table ($BUDGET: seconds a model, default 600). Then build with it:
#   TUNING=CACHE.json bash bench/models/build.sh OUT real
set -uo pipefail
cd "$(dirname "$0")/../.."
what=${1:?usage: tune.sh emit|measure DIR ...}
dir=${2:?usage: tune.sh emit|measure DIR ...}
models="bert_layer gpt2_block llama_block vit_block resnet_bottleneck sd_resblock"
case "$what" in
emit)
  size=${3:-real}; dtype=${4:-float16}; arch=${5:-sm_90a}
  tune=${AIC_TUNE:-target/release/aic-tune}
  for m in $models; do
    "$tune" "bench/models/stablehlo/$m.$size.$dtype.mlir" --target=cuda --arch="$arch" \
      --emit-rounds="$dir/$m" 2> "$dir.$m.log" || echo "FAILED $m (see $dir.$m.log)"
    tail -1 "$dir.$m.log"
  done
  ;;
measure)
  cache=${3:?usage: tune.sh measure DIR CACHE.json [AIC_TUNE]}
  tune=${4:-target/gpu/aic-tune}
  for m in $models; do
    [ -f "$dir/$m/rounds.json" ] || continue
    echo "== $m"
    "$tune" --measure="$dir/$m" -o "$cache" --budget="${BUDGET:-600}" || echo "FAILED $m"
  done
  ;;
*) echo "usage: tune.sh emit|measure DIR ..." >&2; exit 2 ;;
esac
