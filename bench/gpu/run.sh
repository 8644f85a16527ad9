#!/usr/bin/env bash
# On a GPU machine (no LLVM needed), after bench/gpu/build.sh ran where LLVM is:
# 1. every JAX fixture's bundle runs through aic-run --target=cuda, checked
#    against the reference interpreter (--check) and against JAX's outputs;
# 2. compute-sanitizer's memcheck runs each of them once more;
# 3. bench.py math measures the GPU math expansions' errors in ulp;
# 4. bench.py compares the cases with the references a user would pick (SDPA and its backends,
#    cuBLAS(Lt), torch.compile, copy bandwidth)
#    (numerics and times, in one run). Results go to $OUT (default /tmp/aic-gpu).
set -uo pipefail
cd "$(dirname "$0")/../.."
B=bench/gpu/build
OUT=${OUT:-/tmp/aic-gpu}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for b in "$B"/fixture_*.bundle; do
    n=$(basename "$b" .bundle); n=${n#fixture_}
    fx=tools/tests/fixtures/jax/$n
    args=()
    for i in $(ls "$fx".in*.npy 2>/dev/null | sed 's/.*\.in\([0-9]*\)\.npy/\1/' | sort -n); do
        args+=(--input "$fx.in$i.npy")
    done
    if "$B/aic-run" --target=cuda "$b" --entry @main "${args[@]}" --check --output-dir "$OUT/$n" 2> "$OUT/$n.log"; then
        python3 bench/gpu/bench.py compare "$OUT/$n" "$fx" || status=1
    else
        echo "FAIL $n: $(tail -3 "$OUT/$n.log")"; status=1
    fi
    grep -h "check:" "$OUT/$n.log" | sed "s/^/  $n /"
    if command -v compute-sanitizer >/dev/null; then
        compute-sanitizer --tool memcheck --error-exitcode 3 "$B/aic-run" --target=cuda "$b" --entry @main "${args[@]}" --output-dir "$OUT/memcheck_$n" > "$OUT/memcheck_$n.log" 2>&1
        echo "  $n memcheck: exit $? ($(grep -h 'ERROR SUMMARY' "$OUT/memcheck_$n.log" | tail -1))"
    fi
done
python3 bench/gpu/bench.py math || status=1
python3 bench/gpu/bench.py bench || status=1
exit $status
