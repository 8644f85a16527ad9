#!/usr/bin/env python3
"""`--canonicalize --cse` benchmark: aic-opt against mlir-opt-22 on the same file.

Generates one function of N arith ops mixing foldable parts (constant arithmetic,
x+0, x*1, duplicate constants and expressions) with non-foldable ones (arithmetic
on the function's arguments), then times both tools in the same run and reports
wall time, peak RSS, the ratio, and whether their outputs are identical.

    cargo build --release -p aic-tools
    python3 bench/canon_bench.py --ops 1000000
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


def generate(path, n_ops, seed=1):
    rnd = random.Random(seed)
    with open(path, "w") as f:
        f.write("func.func @f(%a: i32, %b: i32) -> i32 {\n")
        live = ["%a", "%b"]
        consts = []
        for i in range(n_ops):
            k = rnd.randrange(10)
            if k < 3 or not consts:
                line = f"%v{i} = arith.constant {rnd.randrange(-50, 50)} : i32"
                consts.append(f"%v{i}")
            elif k < 5:
                x, y = rnd.choice(consts), rnd.choice(consts)
                line = f"%v{i} = arith.{rnd.choice(OPS)} {x}, {y} : i32"
                consts.append(f"%v{i}")
            else:
                x, y = rnd.choice(live), rnd.choice(live + consts[-8:])
                line = f"%v{i} = arith.{rnd.choice(OPS)} {x}, {y} : i32"
                live.append(f"%v{i}")
                if len(live) > 32:
                    live.pop(2)
            f.write("  " + line + "\n")
        f.write(f"  return {live[-1]} : i32\n}}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--aic", default="target/release/aic-opt")
    ap.add_argument("--mlir", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    flags = ["--canonicalize", "--cse"]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "canon.mlir")
        generate(path, args.ops)
        size = os.path.getsize(path) / (1 << 20)
        aic_out = subprocess.run([args.aic, *flags, path], check=True, capture_output=True).stdout
        ref_out = subprocess.run([args.mlir, *flags, path], check=True, capture_output=True).stdout
        rows = {}
        for name, cmd in [("aic-opt", [args.aic, *flags, path]), ("mlir-opt-22", [args.mlir, *flags, path])]:
            runs = [measure(cmd) for _ in range(args.repeat)]
            rows[name] = (min(r[0] for r in runs), max(r[1] for r in runs))
        print(f"file: {args.ops} arith ops, {size:.1f} MiB; outputs identical: {aic_out == ref_out}")
        nl = b"\n"
        print(f"output lines: aic {aic_out.count(nl)}, mlir {ref_out.count(nl)}")
        for name, (t, rss) in rows.items():
            print(f"{name:12s} best of {args.repeat}: {t:7.3f} s   peak RSS {rss:8.1f} MiB")
        ta, tm = rows["aic-opt"][0], rows["mlir-opt-22"][0]
        print(f"time ratio aic/mlir: {ta / tm:.2f}   memory ratio aic/mlir: {rows['aic-opt'][1] / rows['mlir-opt-22'][1]:.2f}")


if __name__ == "__main__":
    main()
