#!/usr/bin/env bash
# Compile the model suite to CUDA bundles for bench/models/run.py --aic:
#   bash bench/models/build.sh OUT_DIR [SIZE] [ARCH]
# (SIZE real or small, default real; ARCH default sm_90a). Uses $AIC_TRANSLATE, else
# the newer of target/release's and target/debug's aic-translate; a model that
# does not compile is reported and skipped. $TUNING names a tuning cache
# (aic-tune's, e.g. bench/models/tuning/h100.json) the bundles are compiled with.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build.sh OUT_DIR [SIZE] [ARCH]}
size=${2:-real}
arch=${3:-sm_90a}
tr=${AIC_TRANSLATE:-}
if [ -z "$tr" ]; then
  tr=target/debug/aic-translate
  [ target/release/aic-translate -nt "$tr" ] && tr=target/release/aic-translate
fi
tuning=()
[ -n "${TUNING:-}" ] && tuning=(--tuning="$TUNING")
mkdir -p "$out"
for f in bench/models/stablehlo/*."$size".*.mlir; do
  b="$out/$(basename "${f%.mlir}").bundle"
  if "$tr" --target=nvptx --arch="$arch" "${tuning[@]}" --emit=bundle "$f" -o "$b" 2>"$b.log"; then
    echo "built $b"
  else
    echo "FAILED $f (see $b.log)"
  fi
done
