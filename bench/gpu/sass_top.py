import csv, sys, io
# usage: sass_top.py file.csv N
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
# find header row containing 'Source'
hi = next(i for i, r in enumerate(rows) if "Source" in r)
h = rows[hi]
def col(name):
    for i, c in enumerate(h):
        if c.startswith(name):
            return i
    return None
src = col("Source"); st = col("Warp Stall Sampling (All"); ex = col("Instructions Executed")
data = rows[hi + 1:]
tot = sum(float(r[st] or 0) for r in data if len(r) > st)
print("total samples", tot, "cols", h[:12])
top = sorted((r for r in data if len(r) > st), key=lambda r: -float(r[st] or 0))[: int(sys.argv[2])]
for r in top:
    print(f"{float(r[st] or 0) / tot * 100:5.1f}%  {r[src][:110]}")
