"""The hottest SASS instructions of one kernel in an ncu report, by warp-stall
samples: where its warps wait.

    ncu --set full -k regex:gemm_0 --launch-skip 1 --launch-count 1 -o REP python3 ...
    ncu --import REP.ncu-rep --page source --csv --print-source sass > REP.csv
    python3 bench/gpu/sass_top.py REP.csv [N]

prints the total of samples, then the N (default 30) instructions with the
most, each with its share (results/h200-2026-11-28-ncu-8192.txt).
"""
import csv
import sys

if len(sys.argv) < 2:
    sys.exit("usage: sass_top.py REPORT.csv [N]")
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
# The header is the row naming the source column.
hi = next((i for i, r in enumerate(rows) if "Source" in r), None)
if hi is None:
    sys.exit(f"{sys.argv[1]}: no 'Source' column (ncu --page source --csv --print-source sass)")
h = rows[hi]


def col(name):
    return next((i for i, c in enumerate(h) if c.startswith(name)), None)


src, st = col("Source"), col("Warp Stall Sampling (All")
if st is None:
    sys.exit(f"{sys.argv[1]}: no warp-stall sampling column (profile with --set full)")
data = [r for r in rows[hi + 1:] if len(r) > st]
samples = lambda r: float(r[st] or 0)  # noqa: E731
tot = sum(map(samples, data)) or 1.0
print("total samples", tot)
for r in sorted(data, key=samples, reverse=True)[: int(sys.argv[2]) if len(sys.argv) > 2 else 30]:
    print(f"{samples(r) / tot * 100:5.1f}%  {r[src][:110]}")
