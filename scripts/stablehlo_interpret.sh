#!/usr/bin/env bash
# StableHLO's own interpreter suite through aic's reference interpreter.
#
#   bash scripts/stablehlo_interpret.sh STABLEHLO_DIR [AIC_RUN]
#
# STABLEHLO_DIR is a checkout of openxla/stablehlo (or a folder holding its
# stablehlo/tests/interpret/*.mlir files directly); nothing of it is part of
# this repository, and scripts/test.sh runs this only when STABLEHLO_DIR is set
# in its environment. AIC_RUN defaults to target/debug/aic-run (build it first:
# cargo build -p aic-tools --bins).
#
# Every file runs with `aic-run --interpret --split-input-file`. A test
# function is a public function without arguments (what aic-run runs as a
# test); one whose chunk does not parse or verify counts as failed, with the
# first error line as its reason. Prints `PASS file:name` or
# `FAIL file:name: why` per test function, then `N of M test functions pass`;
# exits 1 when any fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 1 ]; then
    echo "usage: $0 STABLEHLO_DIR [AIC_RUN]" >&2
    exit 2
fi
dir="$1"
run="${2:-$here/target/debug/aic-run}"
if [ -d "$dir/stablehlo/tests/interpret" ]; then
    dir="$dir/stablehlo/tests/interpret"
fi
if [ ! -x "$run" ]; then
    echo "$run not found: cargo build -p aic-tools --bins" >&2
    exit 2
fi
files=$(cd "$dir" && find . -name '*.mlir' | sed 's|^\./||' | LC_ALL=C sort)
if [ -z "$files" ]; then
    echo "no .mlir files under $dir" >&2
    exit 2
fi
total=0
passed=0
for f in $files; do
    out=$(cd "$dir" && timeout "${AIC_INTERPRET_TIMEOUT:-600}" "$run" --interpret --split-input-file "$f" 2>&1)
    # One line per test function, in file order: `PASS name` or `FAIL name: why`.
    # Names defined more than once (one per chunk) match PASS lines by count.
    res=$(awk -v file="$f" -v out="$out" '
        BEGIN {
            n = split(out, lines, "\n")
            for (i = 1; i <= n; i++) {
                l = lines[i]
                if (l ~ /^PASS /) { pass[substr(l, 6)]++ }
                else if (l ~ /^FAIL /) {
                    r = substr(l, 6); nm = r; sub(/:.*/, "", nm)
                    why = r; sub(/^[^:]*: /, "", why)
                    fail[nm] = why
                } else if (err == "" && l ~ /error/) { err = l }
            }
            if (err == "") err = "not run"
        }
        {
            line = $0
            if (line !~ /func\.func (public )?@[A-Za-z0-9_.$-]+\([ \t]*\)/) next
            nm = line; sub(/.*func\.func (public )?@/, "", nm); sub(/\(.*/, "", nm)
            if (pass[nm] > 0) { pass[nm]--; print "PASS " file ":" nm }
            else if (nm in fail) print "FAIL " file ":" nm ": " fail[nm]
            else print "FAIL " file ":" nm ": " err
        }' "$dir/$f")
    if [ -n "$res" ]; then
        echo "$res"
        total=$((total + $(grep -c '' <<<"$res")))
        passed=$((passed + $(grep -c '^PASS' <<<"$res" || true)))
    fi
done
echo "$passed of $total test functions pass"
[ "$passed" -eq "$total" ]
