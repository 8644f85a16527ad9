#!/usr/bin/env bash
# On a machine with TP GPUs (no LLVM needed), after bench/multigpu/build.sh:
# each model's bundle on 1 GPU and tensor-parallel on TP GPUs through NCCL
# (aic-run --bench: median run, and the share in collectives on device 0),
# the TP-GPU results checked against the 1-GPU ones, then jax.jit with the same
# shardings (bench_jax.py). NCCL comes from AIC_NCCL_LIBRARY, the loader's path,
# or PyTorch's wheel (site-packages/nvidia/nccl/lib/libnccl.so.2).
#   TP=2 REPS=50 bench/multigpu/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
B=bench/multigpu/build
TP=${TP:-2}
REPS=${REPS:-50}
OUT=${OUT:-/tmp/aic-multigpu}
mkdir -p "$OUT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
DEVICES=$(seq -s, 0 $((TP - 1)))
status=0
for n in gpt_block llama_mlp; do
    args=()
    for i in $(ls "$B/$n".in*.npy | sed 's/.*\.in\([0-9]*\)\.npy/\1/' | sort -n); do
        args+=(--input "$B/$n.in$i.npy")
    done
    "$B/aic-run" --target=cuda --entry=@main "${args[@]}" --bench="$REPS" \
        --output-dir "$OUT/${n}_1" "$B/${n}_1.bundle" > "$OUT/${n}_1.txt" 2>&1 || status=1
    "$B/aic-run" --target=cuda --devices="$DEVICES" --entry=@main "${args[@]}" --bench="$REPS" \
        --output-dir "$OUT/${n}_tp$TP" "$B/${n}_tp$TP.bundle" > "$OUT/${n}_tp$TP.txt" 2>&1 || status=1
    grep -h "median" "$OUT/${n}_1.txt" "$OUT/${n}_tp$TP.txt" | sed "s/^/aic $n: /"
    python3 - "$OUT/${n}_1" "$OUT/${n}_tp$TP" <<'PY' || status=1
import sys, numpy as np
def load(p):
    a = np.load(p)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:  # bf16 as ml_dtypes saves it
        import ml_dtypes
        a = a.view(ml_dtypes.bfloat16)
    return a.astype(np.float64)
a, b = (load(f"{d}/result0.npy") for d in sys.argv[1:])
err = float(np.max(np.abs(a - b)) / (np.max(np.abs(a)) + 1e-30))
print(f"  {sys.argv[2]} against 1 GPU: max relative difference {err:.2e}")
sys.exit(0 if err < 1e-2 else 1)
PY
done
python3 bench/multigpu/bench_jax.py --tp "$TP" --reps "$REPS" || echo "(jax.jit comparison skipped)"
exit $status
