#!/usr/bin/env python3
"""Threaded nested pipelines: `builtin.module(func.func(canonicalize,cse))` on a
module of many functions, with and without `--mlir-disable-threading`, for aic-opt
and (when present) mlir-opt-22, in one run; wall time, peak RSS and core count.

    cargo build --release -p aic-tools
    python3 bench/parallel_bench.py --funcs 2000 --ops 500
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from parse_bench import measure  # noqa: E402

OPS = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minui"]


def generate(path, funcs, ops, seed=7):
    rnd = random.Random(seed)
    with open(path, "w") as f:
        for i in range(funcs):
            f.write(f"func.func @f{i}(%a: i32, %b: i32) -> i32 {{\n")
            live = ["%a", "%b"]
            for j in range(ops):
                op = rnd.choice(OPS)
                if rnd.random() < 0.3:
                    f.write(f"  %k{j} = arith.constant {rnd.randint(-8, 8)} : i32\n")
                    rhs = f"%k{j}"
                else:
                    rhs = rnd.choice(live[-20:])
                f.write(f"  %v{j} = arith.{op} {rnd.choice(live[-20:])}, {rhs} : i32\n")
                live.append(f"%v{j}")
            f.write(f"  return {live[-1]} : i32\n}}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--funcs", type=int, default=2000)
    ap.add_argument("--ops", type=int, default=500)
    ap.add_argument("--aic", default="target/release/aic-opt")
    ap.add_argument("--mlir", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pipeline = "--pass-pipeline=builtin.module(func.func(canonicalize,cse))"
    tools = [("aic-opt", args.aic)]
    if os.path.exists(args.mlir):
        tools.append(("mlir-opt-22", args.mlir))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "funcs.mlir")
        generate(path, args.funcs, args.ops)
        size = os.path.getsize(path) / (1 << 20)
        outs = {}
        print(f"file: {args.funcs} functions x {args.ops} arith ops, {size:.1f} MiB; "
              f"cores: {os.cpu_count()}")
        for name, exe in tools:
            for threads, extra in [("threads", []), ("1 thread", ["--mlir-disable-threading"])]:
                cmd = [exe, *extra, pipeline, path]
                outs[(name, threads)] = subprocess.run(cmd, check=True, capture_output=True).stdout
                runs = [measure(cmd) for _ in range(args.repeat)]
                t, rss = min(r[0] for r in runs), max(r[1] for r in runs)
                print(f"{name:12s} {threads:9s} best of {args.repeat}: {t:7.3f} s   peak RSS {rss:8.1f} MiB")
        aic_same = outs[("aic-opt", "threads")] == outs[("aic-opt", "1 thread")]
        print(f"aic-opt threaded output identical to single-threaded: {aic_same}")
        if ("mlir-opt-22", "threads") in outs:
            a, m = outs[("aic-opt", "threads")], outs[("mlir-opt-22", "threads")]
            print(f"aic-opt output identical to mlir-opt-22's: {a == m}"
                  + ("" if a == m else f" (equal up to line order: {sorted(a.split()) == sorted(m.split())})"))


if __name__ == "__main__":
    main()
