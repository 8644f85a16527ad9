#!/usr/bin/env python3
"""Figures of how typed the IR code is, for a source tree (default: the current directory):
op-name string literals, positional operand reads, the longest functions, files over
1,500 lines, and private op-building helpers in passes/backends (issue 21's figures).

    python3 scripts/ir_figures.py [TREE]
"""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else "."
LIT = re.compile(r'"(graph|tile|stablehlo|arith|gpu|nvgpu|coord|fusion|scf|math|memref|amdgpu|nvvm|vector|chlo|func|nki)\.[a-z_]+"')
IDX = re.compile(r'operands\([^()]*(\([^()]*\))?[^()]*\)\[\d')
def files(dirs):
    for d in dirs:
        for dp, dn, fn in os.walk(os.path.join(root, d)):
            dn[:] = [x for x in dn if x not in ("target",)]
            for f in fn:
                if f.endswith(".rs"):
                    yield os.path.join(dp, f)
def count(dirs, rx):
    return sum(len(rx.findall(open(f).read())) for f in files(dirs))
def fn_lengths(path):
    lines = open(path).read().split("\n")
    out = []
    fnre = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)')
    i = 0
    while i < len(lines):
        m = fnre.match(lines[i])
        if m:
            depth, started, j = 0, False, i
            while j < len(lines):
                l = re.sub(r'"([^"\\]|\\.)*"', '""', lines[j])
                l = re.sub(r"'([^'\\]|\\.)'", "''", l)
                l = l.split("//")[0]
                if not started and ";" in l and "{" not in l:
                    break
                depth += l.count("{") - l.count("}")
                if "{" in l: started = True
                if started and depth <= 0:
                    out.append((j - i + 1, m.group(5), path, i + 1))
                    break
                j += 1
            i += 1
        else:
            i += 1
    return out
tests = lambda p: "/tests/" not in p
print("op-name literals passes/backends/tools:", count(["passes", "backends", "tools"], LIT))
print("op-name literals dialects:", count(["dialects"], LIT))
print("operands(..)[N] in dialects/passes/backends:", count(["dialects", "passes", "backends"], IDX))
for d in ["dialects", "passes", "backends"]:
    fl = [x for f in files([d]) if tests(f) for x in fn_lengths(f)]
    fl.sort(reverse=True)
    print(f"longest fns in {d}:", ", ".join(f"{n} {name} ({os.path.relpath(p, root)}:{l})" for n, name, p, l in fl[:3]))
big = []
for f in files(["compiler", "dialects", "passes", "backends", "tools"]):
    n = open(f).read().count("\n")
    if n > 1500: big.append((n, os.path.relpath(f, root)))
print("files > 1500 lines:", len(big), sorted(big, reverse=True))
pb = []
for f in files(["passes", "backends"]):
    if not tests(f): continue
    src = open(f).read()
    for m in re.finditer(r'struct (\w+)<\'\w+>\s*\{[^}]*:\s*&\'\w+ mut (aic::ir::)?(Context|Builder)', src):
        pb.append(f"{m.group(1)} ({os.path.relpath(f, root)})")
print("private builders (structs holding &mut Context/Builder in passes/backends):", len(pb), pb)
