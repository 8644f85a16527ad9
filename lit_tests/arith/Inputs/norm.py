"""Normalise canonicalized IR for comparing aic-opt with mlir-opt when only the
order of hoisted constants differs: within each `// -----` chunk, constant SSA
names become their values and the lines are sorted. Reads stdin, writes stdout."""
import re
import sys


def norm(chunk):
    names = dict(re.findall(r"^\s*(%[\w.-]+) = arith\.constant (.*)$", chunk, re.M))
    for name in sorted(names, key=len, reverse=True):
        chunk = re.sub(re.escape(name) + r"(?![\w.-])", "<" + names[name] + ">", chunk)
    return "\n".join(sorted(l for l in chunk.splitlines() if l.strip()))


print("\n// -----\n".join(norm(c) for c in sys.stdin.read().split("// -----")))
