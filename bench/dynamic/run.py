#!/usr/bin/env python3
"""Dynamic shapes on the GPU: one bundle compiled for bounds (batch and sequence
symbolic, `bench/dynamic/build.sh`) run at several sizes, against `jax.jit` at
each size, numerics first.

    python3 bench/dynamic/run.py --bundles DIR --aic-run PATH [--models bert_layer,gpt2_block]
                                 [--sizes BxS,...] [--out rows.json]

DIR holds `NAME.float16.bundle` (dynamic, from `export.py`'s StableHLO) and, when
present, `NAME.real.float16.bundle` (the static model suite's, at the bound) for
the same size. For each model and size: inputs drawn on the GPU from a seeded
generator as `bench/models/run.py` draws them, a float32 JAX run on the upcast
inputs is the reference, and each output's ||out - ref|| / ||ref|| is reported.
Times: `jax.jit` (median of back-to-back calls, as run.py times it) and the time
its first call at a new shape takes (jax.jit compiles once per shape), and
`aic-run --target=cuda --bench=N` of the one dynamic bundle (CUDA events around
the plan's graph replays, median) given arrays of that size.
"""
import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402
import jax  # noqa: E402
import jax_models as M  # noqa: E402
from run import bench_bundle, bench_jax, draw, load_npy, rel_err, to_jax, to_torch  # noqa: E402


# Per model: its real size first (the bound), then shorter batches and sequences,
# awkward ones included.
SIZES = {
    "bert_layer": "8x512,8x384,4x256,1x128,3x77",
    "gpt2_block": "8x1024,8x512,1x1024,2x300,1x64",
}


def specs_at(name, dt, b, s):
    """The model's function, activation and weight specs at batch `b`, sequence `s`."""
    fn, acts, weights, c = M.spec(name, "real", dt)
    acts = [jax.ShapeDtypeStruct((b, s) + tuple(a.shape[2:]), a.dtype) for a in acts]
    return fn, acts, weights


def aic_run(a, bundle, arrays, work, tag):
    """aic's median ms, result 0 and the copy (bucket) aic-run ran."""
    d = os.path.join(work, tag)
    ms, text = bench_bundle(a.aic_run, bundle, arrays, d, a.reps)
    bucket = re.search(r"runs as bucket @(\S+)", text)
    out = load_npy(os.path.join(d, "out", "result0.npy"), arrays[0].dtype)
    return ms, out, bucket.group(1) if bucket else "(bounds)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--aic-run", default="aic-run")
    ap.add_argument("--models", default="bert_layer,gpt2_block")
    ap.add_argument("--sizes", help="BxS,... for every model (default: each model's own)")
    ap.add_argument("--dtype", default="float16")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--work", default="/tmp/aic-dynamic")
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = []
    for name in a.models.split(","):
        dyn = os.path.join(a.bundles, f"{name}.{a.dtype}.bundle")
        static = os.path.join(a.bundles, f"{name}.real.{a.dtype}.bundle")
        for size in (a.sizes or SIZES[name]).split(","):
            b, s = (int(x) for x in size.split("x"))
            fn, acts_sd, w_sd = specs_at(name, a.dtype, b, s)
            g = torch.Generator(device="cuda").manual_seed(1234)
            acts = [draw(g, sd, "activation") for sd in acts_sd]
            weights = [draw(g, sd, "weight") for sd in w_sd]
            up = lambda t: to_jax(t.float().contiguous()) if t.is_floating_point() else to_jax(t)  # noqa: E731
            ref = to_torch(jax.jit(fn)(*[up(x) for x in acts], [up(w) for w in weights]))
            jf = jax.jit(fn)
            jargs = ([to_jax(x) for x in acts], [to_jax(w) for w in weights])
            t0 = time.perf_counter()
            jout = to_torch(jf(*jargs[0], jargs[1]))
            torch.cuda.synchronize()
            first = (time.perf_counter() - t0) * 1e3
            row = {"model": name, "b": b, "s": s, "dtype": a.dtype,
                   "jax_ms": round(bench_jax(jf, *jargs[0], jargs[1]), 4),
                   "jax_first_call_ms": round(first, 1), "jax_err": rel_err(jout, ref)}
            try:
                ms, out, bucket = aic_run(a, dyn, acts + weights, a.work, f"{name}.{b}x{s}")
                row.update(aic_ms=round(ms, 4), aic_err=rel_err(out.cuda(), ref), shape=list(out.shape), bucket=bucket)
            except Exception as e:  # noqa: BLE001
                row["aic_error"] = repr(e)[-600:]
            if os.path.exists(static) and (b, s) == tuple(M.SIZES[name]["real"][k] for k in ("b", "s")):
                try:
                    ms, out, _ = aic_run(a, static, acts + weights, a.work, f"{name}.static")
                    row.update(aic_static_ms=round(ms, 4), aic_static_err=rel_err(out.cuda(), ref))
                except Exception as e:  # noqa: BLE001
                    row["aic_static_error"] = repr(e)[-600:]
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("| model | b x s | aic (one bundle) | copy run | jax.jit | jax.jit first call | aic static | aic err | jax err |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['model']} | {r['b']}x{r['s']} | {r.get('aic_ms', r.get('aic_error', '')[:40])} | {r.get('bucket', '')} | {r['jax_ms']} | "
              f"{r['jax_first_call_ms']} | {r.get('aic_static_ms', '')} | {r.get('aic_err', '')} | {r['jax_err']:.2e} |")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
