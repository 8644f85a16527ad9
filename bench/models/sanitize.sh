#!/usr/bin/env bash
# compute-sanitizer memcheck over compiled models, on the GPU machine, with the
# inputs bench/models/run.py wrote for them (run it first with the same --work):
#   bash bench/models/sanitize.sh BUNDLE_DIR WORK_DIR AIC_RUN [PATTERN]
# PATTERN selects bundles (default '*.small.*'); prints one line per model:
# its name and "clean" or the sanitizer's error summary; exit 1 if any is not clean.
set -uo pipefail
bundles=${1:?usage: sanitize.sh BUNDLE_DIR WORK_DIR AIC_RUN [PATTERN]}
work=${2:?}
run=${3:?}
pat=${4:-*.small.*}
bad=0
for b in "$bundles"/$pat.bundle; do
  key=$(basename "${b%.bundle}")
  d="$work/$key"
  if [ ! -d "$d" ]; then
    echo "$key: no inputs in $d (run bench/models/run.py --work $work first)"
    bad=1
    continue
  fi
  ins=()
  for f in $(ls "$d"/arg*.npy | sort -V); do ins+=("--input=$f"); done
  log="$d/sanitize.log"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$run" --target=cuda --entry=@main \
    --output-dir="$d/sanitized" "${ins[@]}" "$b" >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$log"; then
    echo "$key: clean"
  else
    echo "$key: rc $rc, $(grep -m1 'ERROR SUMMARY' "$log" || tail -1 "$log")"
    bad=1
  fi
done
exit $bad
