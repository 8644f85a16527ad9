#!/usr/bin/env python3
"""Parse + verify + print benchmark: aic-opt against mlir-opt-22 on the same generated file.

Generates a module of N generic-form ops in nested functions with varied types and
attributes, then times `aic-opt` and `mlir-opt-22` (both `--allow-unregistered-dialect
--mlir-print-op-generic`; both verify before printing) on it in the same run, checks
that their outputs are identical, and reports wall time and peak RSS.

    cargo build --release -p aic-tools
    python3 bench/parse_bench.py --ops 1000000
"""
import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

TYPES = ["i32", "i64", "f32", "f16", "index", "tensor<4x?xf32>", "vector<8xi8>", "memref<16x16xbf16>", "complex<f64>"]


def generate(path, n_ops, ops_per_func=1000, seed=1):
    rnd = random.Random(seed)
    written = 0
    fn = 0
    with open(path, "w") as f:
        while written < n_ops:
            ty = rnd.choice(TYPES)
            f.write(f'"func.func"() <{{function_type = ({ty}) -> {ty}, sym_name = "f{fn}"}}> ({{\n')
            f.write(f"^bb0(%arg0: {ty}):\n")
            live = ["%arg0"]
            body = min(ops_per_func, n_ops - written)
            for i in range(body - 1):
                k = rnd.randrange(6)
                a = rnd.choice(live)
                b = rnd.choice(live)
                if k == 0:
                    line = f'%v{i} = "t.add"({a}, {b}) : ({ty}, {ty}) -> {ty}'
                elif k == 1:
                    line = f'%v{i} = "t.scale"({a}) {{factor = {rnd.random():.6f} : f32, mode = "fast"}} : ({ty}) -> {ty}'
                elif k == 2:
                    line = f'%v{i} = "t.const"() {{value = {rnd.randrange(-1000, 1000)} : i32, tags = [1, 2, 3]}} : () -> {ty}'
                elif k == 3:
                    line = f'%v{i}:2 = "t.split"({a}) : ({ty}) -> ({ty}, {ty})'
                    live.append(f"%v{i}#1")
                elif k == 4:
                    line = f'%v{i} = "t.mix"({a}, {b}) {{flag, dims = array<i64: {rnd.randrange(8)}, 1>}} : ({ty}, {ty}) -> {ty}'
                else:
                    line = f'%v{i} = "t.cast"({a}) {{to = {rnd.choice(TYPES)}}} : ({ty}) -> {ty}'
                f.write("  " + line + "\n")
                if k != 3:
                    live.append(f"%v{i}")
                if len(live) > 16:
                    live.pop(1)
            f.write(f'  "func.return"({live[-1]}) : ({ty}) -> ()\n')
            f.write("}) : () -> ()\n")
            written += body + 1
            fn += 1




def measure(cmd):
    code = (
        "import resource,subprocess,sys,time,os\n"
        "t=time.perf_counter()\n"
        "subprocess.run(sys.argv[1:],check=True,stdout=open(os.devnull,'w'))\n"
        "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024.0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code] + cmd, check=True, capture_output=True, text=True).stdout
    t, rss = out.split()
    return float(t), float(rss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--aic", default="target/release/aic-opt")
    ap.add_argument("--mlir", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="also write the generated file here (for profiling)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.mlir")
        generate(path, args.ops)
        if args.keep:
            import shutil
            shutil.copy(path, args.keep)
        size = os.path.getsize(path) / (1 << 20)
        # Same output on both sides is the precondition for comparing times.
        aic_out = subprocess.run([args.aic, "--allow-unregistered-dialect", "--mlir-print-op-generic", path], check=True, capture_output=True).stdout
        ref_out = subprocess.run(
            [args.mlir, "--allow-unregistered-dialect", "--mlir-print-op-generic", path], check=True, capture_output=True
        ).stdout
        same = aic_out == ref_out
        rows = {}
        for name, cmd in [
            ("aic-opt", [args.aic, "--allow-unregistered-dialect", "--mlir-print-op-generic", path]),
            ("mlir-opt-22", [args.mlir, "--allow-unregistered-dialect", "--mlir-print-op-generic", path]),
        ]:
            runs = [measure(cmd) for _ in range(args.repeat)]
            rows[name] = (min(r[0] for r in runs), max(r[1] for r in runs))
        print(f"file: {args.ops} ops, {size:.1f} MiB; outputs identical: {same}")
        for name, (t, rss) in rows.items():
            print(f"{name:12s} best of {args.repeat}: {t:7.3f} s   peak RSS {rss:8.1f} MiB")
        ta, tm = rows["aic-opt"][0], rows["mlir-opt-22"][0]
        print(f"time ratio aic/mlir: {ta / tm:.2f}   memory ratio aic/mlir: {rows['aic-opt'][1] / rows['mlir-opt-22'][1]:.2f}")


if __name__ == "__main__":
    main()
