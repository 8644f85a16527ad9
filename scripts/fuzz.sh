#!/usr/bin/env bash
# Fuzz aic's input surfaces with cargo-fuzz (libFuzzer):
#   bash scripts/fuzz.sh [SECONDS] [TARGET ...]
# runs each TARGET (default: all) for SECONDS (default 600) with a corpus seeded
# from the repository. Targets:
#   roundtrip  MLIR text: parser, verifier and printer (print(parse(x)) is a fixed point)
#   interpret  the reference interpreter on every argument-free function
#   pipeline   --pass-pipeline text: parse, print, parse again, run on a small module
#   rules      eqsat rule files (*.rules)
#   tuning     JSON tuning caches (--tuning=FILE)
#   bundle     compiled bundles (aic-run --target=cuda)
#   npy        .npy arguments (aic-run --input=FILE)
# FUZZ_JOBS=N runs N targets at once (default 1). Crashes land in
# fuzz/artifacts/TARGET/; each found one belongs in a regression test.
# Needs the nightly toolchain (rustup toolchain install nightly); installs
# cargo-fuzz when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(roundtrip interpret pipeline rules tuning bundle npy)
jobs="${FUZZ_JOBS:-1}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
python3 scripts/fuzz_seeds.py fuzz/corpus
# -a: debug assertions and overflow checks on, so that wrapped arithmetic shows.
cargo +nightly fuzz build -a
run() {
    local t=$1 dict=()
    case "$t" in roundtrip | interpret) dict=(-dict=fuzz/mlir.dict) ;; esac
    # -rss_limit_mb: the parser thread reserves a large (untouched) stack.
    cargo +nightly fuzz run -a "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "${dict[@]}" \
        >"fuzz/$t.log" 2>&1 || { echo "fuzz: $t found a failure (fuzz/$t.log, fuzz/artifacts/$t/)"; return 1; }
    echo "fuzz: $t: $(grep -h 'stat::number_of_executed_units' "fuzz/$t.log" | awk '{print $2}') executions in ${secs} s, no failure"
}
status=0
i=0
pids=()
for t in "${targets[@]}"; do
    run "$t" &
    pids+=($!)
    i=$((i + 1))
    if [ $((i % jobs)) -eq 0 ]; then
        for p in "${pids[@]}"; do wait "$p" || status=1; done
        pids=()
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
