#!/usr/bin/env bash
# Builds the dynamic bundles bench/dynamic/run.py runs: `export.py`'s StableHLO
# (batch and sequence symbolic) compiled once for bounds: b <= 8 and s <= 512
# (BERT's longest) or s <= 1024 (GPT-2's), with buckets (copies for smaller
# bounds, every combination, picked per call) around run.py's sizes:
#   bash bench/dynamic/build.sh STABLEHLO_DIR OUT_DIR [ARCH]
# Uses $AIC_TRANSLATE (else target/debug's aic-translate) and $TUNING if set.
set -euo pipefail
src=$1; out=$2; arch=${3:-sm_90a}
tr=${AIC_TRANSLATE:-target/debug/aic-translate}
tuning=()
[ -n "${TUNING:-}" ] && tuning=(--tuning="$TUNING")
mkdir -p "$out"
for f in "$src"/*.mlir; do
  b="$out/$(basename "${f%.mlir}").bundle"
  case $(basename "$f") in
    gpt2*) bounds=b=8,s=1024 buckets=b=1,b=2,s=64,s=512 ;;
    *) bounds=b=8,s=512 buckets=b=1,b=4,s=128,s=256 ;;
  esac
  if "$tr" --target=nvptx --arch="$arch" --dim-bounds=$bounds --dim-buckets=$buckets "${tuning[@]}" --emit=bundle "$f" -o "$b" 2>"$b.log"; then
    echo "built $b"
  else
    echo "FAILED $f (see $b.log)"
  fi
done
