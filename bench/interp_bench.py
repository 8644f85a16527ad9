#!/usr/bin/env python3
"""Reference-interpreter benchmark: `aic-run --interpret` against NumPy on the same
StableHLO computations and inputs, in one run.

Each case is a StableHLO function (matmul, convolution, a reduction, an elementwise
chain, softmax) run by `aic-run --entry @main` on `.npy` inputs; its outputs are
checked against NumPy's, and the wall time of the whole `aic-run` process (parse,
verify, read inputs, interpret, write outputs) is compared with NumPy's time for the
computation alone. NumPy is a yardstick, not a peer: it calls optimised BLAS, while
the interpreter is a clear reference implementation with typed inner loops.

    cargo build --release -p aic-tools --bin aic-run
    python3 bench/interp_bench.py
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def conv_nhwc(x, k):
    n, h, w, c = x.shape
    kh, kw, _, o = k.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, w, o), np.float32)
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nhwc,co->nhwo", p[:, i:i + h, j:j + w, :], k[i, j])
    return out


def cases(size):
    m = size
    rnd = np.random.RandomState(0)
    a = rnd.randn(m, m).astype(np.float32)
    b = rnd.randn(m, m).astype(np.float32)
    x = rnd.randn(1, 32, 32, 16).astype(np.float32)
    k = rnd.randn(3, 3, 16, 32).astype(np.float32) * 0.1
    big = rnd.randn(4 * m, 4 * m).astype(np.float32)
    t = f"tensor<{m}x{m}xf32>"
    tb = f"tensor<{4 * m}x{4 * m}xf32>"
    yield (
        f"dot_general {m}x{m}x{m}",
        f"""func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}
  return %0 : {t}
}}""",
        [a, b],
        lambda: a @ b,
    )
    yield (
        "convolution 1x32x32x16 * 3x3x16x32",
        """func.func @main(%x: tensor<1x32x32x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  return %0 : tensor<1x32x32x32xf32>
}""",
        [x, k],
        lambda: conv_nhwc(x, k),
    )
    n = 4 * m
    yield (
        f"reduce add {n}x{n} -> {n}",
        f"""func.func @main(%x: {tb}) -> tensor<{n}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : ({tb}, tensor<f32>) -> tensor<{n}xf32>
  return %0 : tensor<{n}xf32>
}}""",
        [big],
        lambda: big.sum(axis=1),
    )
    yield (
        f"tanh(x*x+x) on {n}x{n}",
        f"""func.func @main(%x: {tb}) -> {tb} {{
  %0 = stablehlo.multiply %x, %x : {tb}
  %1 = stablehlo.add %0, %x : {tb}
  %2 = stablehlo.tanh %1 : {tb}
  return %2 : {tb}
}}""",
        [big],
        lambda: np.tanh(big * big + big),
    )
    yield (
        f"softmax {n}x{n}",
        f"""func.func @main(%x: {tb}) -> {tb} {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({tb}, tensor<f32>) -> tensor<{n}xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<{n}xf32>) -> {tb}
  %d = stablehlo.subtract %x, %mb : {tb}
  %e = stablehlo.exponential %d : {tb}
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : ({tb}, tensor<f32>) -> tensor<{n}xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<{n}xf32>) -> {tb}
  %r = stablehlo.divide %e, %sb : {tb}
  return %r : {tb}
}}""",
        [big],
        lambda: softmax(big),
    )


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aic-run", default="target/release/aic-run")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'case':40s} {'aic-run':>10s} {'numpy':>10s} {'ratio':>8s}  max rel err")
    with tempfile.TemporaryDirectory() as d:
        for name, text, inputs, ref in cases(args.size):
            src = os.path.join(d, "case.mlir")
            with open(src, "w") as f:
                f.write(text + "\n")
            cmd = [args.aic_run, "--interpret", src, "--entry", "@main", "--output-dir", d]
            for i, x in enumerate(inputs):
                p = os.path.join(d, f"in{i}.npy")
                np.save(p, x)
                cmd += ["--input", p]
            run = lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            t_aic = best(run, args.repeat)
            t_np = best(ref, args.repeat)
            got = np.load(os.path.join(d, "result0.npy"))
            want = ref()
            err = float(np.max(np.abs(got - want) / (np.abs(want) + 1e-3)))
            print(f"{name:40s} {t_aic * 1e3:8.1f}ms {t_np * 1e3:8.1f}ms {t_aic / t_np:8.1f}  {err:.2e}")


if __name__ == "__main__":
    sys.exit(main())
