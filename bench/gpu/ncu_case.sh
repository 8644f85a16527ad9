#!/usr/bin/env bash
# ncu of one bench.py case: every kernel aic's bundles and the case's
# references launch (on the GPU machine, after building the bundles):
#   bash bench/gpu/ncu_case.sh CASE DIR...   # writes $OUT/ncu-CASE.txt
# The report: per kernel, its time, tensor-pipe activity, instructions,
# registers and local-memory traffic, then the details sections (speed of
# light, warp states, launch, occupancy) of each. Only kernels whose names
# match $KERNELS (a regex; by default aic's and the libraries' GEMM and
# attention kernels) are profiled: the inputs' random fills are not.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 2 ]] || { echo "usage: $0 CASE DIR..." >&2; exit 2; }
case=$1
shift
OUT=${OUT:-/tmp/aic-ncu}
mkdir -p "$OUT"
bundles=()
for d in "$@"; do bundles+=("$d/$case.bundle"); done
rep=$OUT/$case
KERNELS=${KERNELS:-'attention|gemm|cudnn|nvjet|sm90|flash|fmha|cutlass|gelu|fused'}
ncu --set full --import-source no --kernel-name "regex:$KERNELS" -f -o "$rep" python3 bench/gpu/ncu_case.py "$case" "${bundles[@]}" > "$OUT/$case.log" 2>&1 \
    || { tail -5 "$OUT/$case.log"; exit 1; }
{
    ncu --import "$rep.ncu-rep" --page raw --csv --metrics \
        gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes.sum,lts__t_bytes.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum
    ncu --import "$rep.ncu-rep" --page details --section SpeedOfLight --section WarpStateStats \
        --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis
} > "$OUT/ncu-$case.txt" 2>&1
ls -la "$OUT"
