#!/usr/bin/env bash
# ncu of aic's attention kernels beside cuDNN's (on the GPU machine, after
# `CASES="attention attention_d128" VARIANTS=... bash bench/gpu/ring_variants.sh build`):
#   bash bench/gpu/ncu_attention.sh VARIANT_DIR   # writes $OUT/ncu-<case>.txt
# Each report: the SOL, pipe utilisation, instruction and warp-state sections
# of aic's kernel and cuDNN's, then aic's SASS opcodes by stall samples.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
OUT=${OUT:-/tmp/aic-ncu}
mkdir -p "$OUT"
for c in attention:64 attention_d128:128; do
    name=${c%%:*} d=${c#*:}
    rep=$OUT/$name
    ncu --set full --import-source no --kernel-name regex:'attention_0|cudnn|sm90|fmha' --launch-skip 1 --launch-count 1 \
        -f -o "$rep" python3 bench/gpu/ncu_attention.py "$dir/$name.bundle" "$d" > "$OUT/$name.log" 2>&1 || tail -5 "$OUT/$name.log"
    ncu --set full --kernel-name regex:'cudnn|sm90|fmha' --launch-skip 1 --launch-count 1 \
        -f -o "$rep-cudnn" python3 bench/gpu/ncu_attention.py "$dir/$name.bundle" "$d" >> "$OUT/$name.log" 2>&1 || tail -5 "$OUT/$name.log"
    for r in "$rep" "$rep-cudnn"; do
        ncu --import "$r.ncu-rep" --page details --section SpeedOfLight --section ComputeWorkloadAnalysis \
            --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy
        ncu --import "$r.ncu-rep" --page raw --csv --metrics \
            sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum
    done > "$OUT/ncu-$name.txt" 2>&1
    # aic's SASS: each opcode's count and stall samples
    ncu --import "$rep.ncu-rep" --page source --csv --print-source sass > "$OUT/$name-sass.csv" 2>&1 || true
done
ls -la "$OUT"
