#!/usr/bin/env python3
"""Run the model suite on the GPU: `jax.jit` (XLA), PyTorch eager and torch.compile
on equivalent modules, in one process on the same seeded inputs, numerics first.

    python3 bench/models/run.py [--models a,b] [--size real] [--dtype float16,bfloat16]
                                [--out FILE.json] [--no-compile]

For each model, size and type: inputs are drawn on the GPU from a seeded
generator (never zeros); a float32 JAX run on the upcast inputs is the reference;
each implementation's output is compared with it by ||out - ref|| / ||ref||
(f16/bf16 pass under 2e-2); then each is timed: PyTorch with
`triton.testing.do_bench` (median ms, CUDA events), JAX as the median of
back-to-back asynchronous calls with one synchronisation per 50 (JAX runs on its own
stream, which torch's events do not see). Prints a table; `--out` keeps the rows.
"""
import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave memory to PyTorch too
import numpy as np  # noqa: E402
import torch  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.dlpack  # noqa: E402
import triton.testing  # noqa: E402

import jax_models as M  # noqa: E402
import torch_models as T  # noqa: E402

TORCH = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "int32": torch.int32}


def draw(g, sd, role):
    """A seeded input of the given ShapeDtypeStruct on the GPU (never zeros)."""
    shape, dt = tuple(sd.shape), TORCH[str(sd.dtype)]
    if dt == torch.int32:  # a padding mask: the last quarter of every other sequence masked
        m = torch.ones(shape, dtype=dt, device="cuda")
        m[1::2, shape[-1] * 3 // 4:] = 0
        return m
    x = torch.randn(shape, generator=g, device="cuda", dtype=torch.float32)
    if role == "weight":
        if len(shape) == 1:
            x = 1.0 + 0.1 * x  # gains, biases, norm shifts
        else:
            x = x / math.sqrt(math.prod(shape[:-1]))  # (in, out) matrices, HWIO kernels
    return x.to(dt)


def to_jax(t):
    return jax.dlpack.from_dlpack(t)


def to_torch(a):
    return torch.from_dlpack(a)


def rel_err(out, ref):
    o, r = out.float(), ref.float()
    if not torch.isfinite(o).all():
        return float("nan")
    return float((o - r).norm() / r.norm())


def bench_jax(f, *args, inner=50):
    out = f(*args)
    out.block_until_ready()
    for _ in range(3):
        f(*args).block_until_ready()
    ts = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(inner):
            out = f(*args)
        out.block_until_ready()
        ts.append((time.perf_counter() - t) * 1e3 / inner)
    return float(np.median(ts))


def bench_torch(f):
    return float(triton.testing.do_bench(f, warmup=50, rep=300, return_mode="median"))


def run_one(name, size, dt, compile_, rows):
    fn, acts_sd, w_sd, c = M.spec(name, size, dt)
    g = torch.Generator(device="cuda").manual_seed(1234)
    acts = [draw(g, s, "activation") for s in acts_sd]
    weights = [draw(g, s, "weight") for s in w_sd]
    flops = M.flops(name, c)
    key = f"{name} {size} {dt}"

    # reference: float32 JAX on the upcast inputs
    up = lambda t: to_jax(t.float().contiguous()) if t.is_floating_point() else to_jax(t)
    ref = to_torch(jax.jit(fn)(*[up(a) for a in acts], [up(w) for w in weights]))

    jf = jax.jit(fn)
    jargs = ([to_jax(a) for a in acts], [to_jax(w) for w in weights])
    jout = to_torch(jf(*jargs[0], jargs[1]))
    row = lambda impl, ms, err: rows.append(
        {"model": name, "size": size, "dtype": dt, "impl": impl, "ms": round(ms, 4),
         "tflops": round(flops / ms / 1e9, 1), "rel_err": err})
    row("jax.jit", bench_jax(jf, *jargs[0], jargs[1]), rel_err(jout, ref))
    print(json.dumps(rows[-1]), flush=True)

    tf, tacts, tw, back = T.prepare(name, acts, weights, c)
    with torch.no_grad():
        eo = back(tf(*tacts, tw))
        row("eager", bench_torch(lambda: tf(*tacts, tw)), rel_err(eo, ref))
        print(json.dumps(rows[-1]), flush=True)
        if compile_:
            cf = torch.compile(tf)
            t0 = time.perf_counter()
            co = back(cf(*tacts, tw))
            torch.cuda.synchronize()
            ctime = time.perf_counter() - t0
            row("torch.compile", bench_torch(lambda: cf(*tacts, tw)), rel_err(co, ref))
            rows[-1]["compile_s"] = round(ctime, 1)
            print(json.dumps(rows[-1]), flush=True)
    del acts, weights, jargs, tacts, tw
    torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=",".join(M.SUITE))
    ap.add_argument("--size", default="real")
    ap.add_argument("--dtype", default="float16")
    ap.add_argument("--out")
    ap.add_argument("--no-compile", action="store_true")
    a = ap.parse_args()
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "jax": jax.__version__, "jax_device": str(jax.devices()[0])}), flush=True)
    rows = []
    for name in a.models.split(","):
        for dt in a.dtype.split(","):
            try:
                run_one(name, a.size, dt, not a.no_compile, rows)
            except Exception as e:  # keep going: one model's failure is a row, not the end
                rows.append({"model": name, "size": a.size, "dtype": dt, "error": repr(e)[:400]})
                print(json.dumps(rows[-1]), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"\n| model | size | dtype | impl | ms | TFLOP/s | rel. error |\n|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['model']} | {r['size']} | {r['dtype']} | error | {r['error'][:80]} | | |")
        else:
            print(f"| {r['model']} | {r['size']} | {r['dtype']} | {r['impl']} | {r['ms']} | {r['tflops']} | {r['rel_err']:.1e} |")


if __name__ == "__main__":
    main()
