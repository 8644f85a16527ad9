#!/usr/bin/env python3
"""Run the model suite on the GPU: `jax.jit` (XLA), PyTorch eager and torch.compile
(default, with CUDA graphs: mode="reduce-overhead", and its default mode's
kernels captured by hand into one CUDA graph) on equivalent modules, in
one process on the same seeded inputs, numerics first.

    python3 bench/models/run.py [--models a,b] [--size real] [--dtype float16,bfloat16]
                                [--out FILE.json] [--no-compile]
                                [--aic DIR --aic-run PATH]

For each model, size and type: inputs are drawn on the GPU from a seeded
generator (never zeros); a float32 JAX run on the upcast inputs is the reference;
each implementation's output is compared with it by ||out - ref|| / ||ref||
(f16/bf16 pass under 2e-2); then each is timed: PyTorch with
`triton.testing.do_bench` (median ms, CUDA events), JAX as the median of
back-to-back asynchronous calls with one synchronisation per 50 (JAX runs on its own
stream, which torch's events do not see). Prints a table; `--out` keeps the rows.

With `--aic DIR`, aic runs too: DIR holds `NAME.SIZE.DTYPE.bundle`, compiled on
the build machine (`bench/models/build.sh`), and `--aic-run` the `aic-run` binary;
the inputs are written as `.npy` (bfloat16 as two-byte void, as ml_dtypes saves
it), `aic-run --target=cuda --bench=N` times the plan (CUDA events around graph
replays, median) and its result is checked against the same f32 reference.
"""
import argparse
import json
import math
import os
import re
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


NPY_DESCR = {torch.float16: "<f2", torch.bfloat16: "<V2", torch.float32: "<f4", torch.int32: "<i4"}


def save_npy(path, t):
    """`t` as .npy bytes, bfloat16 as two-byte void elements."""
    t = t.contiguous().cpu()
    raw = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()
    shape = str(tuple(t.shape))
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (NPY_DESCR[t.dtype], shape)
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode() + raw)


def load_npy(path, dtype):
    """A result .npy of aic-run as a float32 torch tensor."""
    data = open(path, "rb").read()
    n = int.from_bytes(data[8:10], "little")
    hdr = data[10:10 + n].decode()
    shape = tuple(int(x) for x in hdr.split("'shape': (")[1].split(")")[0].split(",") if x.strip())
    raw = np.frombuffer(data[10 + n:], dtype=np.int16 if dtype == torch.bfloat16 else
                        {torch.float16: np.float16, torch.float32: np.float32}[dtype])
    t = torch.from_numpy(raw.copy()).reshape(shape)
    return (t.view(torch.bfloat16) if dtype == torch.bfloat16 else t).float()


def kernel_count(text):
    """Launches in aic-run's per-kernel table (the lines between its header and total)."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("kernel ")), None)
    if start is None:
        return None
    n = 0
    for l in lines[start + 1:]:
        if l.startswith("total") or not l.strip():
            break
        n += 1
    return n


def bench_bundle(aic_run, bundle, arrays, d, reps, save=None, timeout=600):
    """`aic-run --target=cuda --bench=REPS` of `bundle`'s @main on `arrays`,
    written as .npy into directory `d` (by `save`, default `save_npy`): the
    median ms a run and aic-run's output (kept in `d/aic-run.log`; results in
    `d/out`). A failed run raises RuntimeError with the output's tail."""
    import subprocess
    os.makedirs(d, exist_ok=True)
    ins = []
    for i, t in enumerate(arrays):
        p = os.path.join(d, f"arg{i}.npy")
        (save or save_npy)(p, t)
        ins.append(f"--input={p}")
    cmd = [aic_run, "--target=cuda", f"--bench={reps}", "--entry=@main",
           f"--output-dir={d}/out", *ins, bundle]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    text = r.stdout + r.stderr
    with open(os.path.join(d, "aic-run.log"), "w") as f:
        f.write(text)
    m = re.search(r"median ([0-9.]+) ms a run", text)
    if r.returncode != 0 or not m:
        raise RuntimeError(text[-400:])
    return float(m.group(1)), text


def run_aic(key, acts, weights, ref, a, work):
    """aic's median ms and error, or an error row's message."""
    bundle = os.path.join(a.aic, key.replace(" ", ".") + ".bundle")
    if not os.path.exists(bundle):
        raise FileNotFoundError(bundle)
    d = os.path.join(work, key.replace(" ", "."))
    ms, text = bench_bundle(a.aic_run, bundle, list(acts) + list(weights), d, a.aic_reps)
    out = load_npy(os.path.join(d, "out", "result0.npy"), acts[0].dtype)
    return ms, rel_err(out.cuda(), ref), text


def run_one(name, size, dt, compile_, rows, a=None):
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
    if a is not None and a.aic:
        try:
            ms, err, text = run_aic(f"{name} {size} {dt}", acts, weights, ref, a, a.work)
            row("aic", ms, err)
            rows[-1]["kernels"] = kernel_count(text)
            arena = re.search(r"arena ([0-9]+) bytes", text)
            rows[-1]["arena_bytes"] = int(arena.group(1)) if arena else None
        except Exception as e:
            rows.append({"model": name, "size": size, "dtype": dt, "impl": "aic", "error": repr(e)[-400:]})
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
            # With CUDA graphs (mode="reduce-overhead"), as aic's plans replay
            # one: the small change a user makes for speed, and free of the
            # host's launch rate, which the default mode's times depend on.
            gf = torch.compile(tf, mode="reduce-overhead")

            def graphed():
                torch.compiler.cudagraph_mark_step_begin()
                return gf(*tacts, tw)

            t0 = time.perf_counter()
            for _ in range(3):
                go = back(graphed())
            torch.cuda.synchronize()
            ctime = time.perf_counter() - t0
            row("torch.compile graphs", bench_torch(graphed), rel_err(go, ref))
            rows[-1]["compile_s"] = round(ctime, 1)
            print(json.dumps(rows[-1]), flush=True)
            # torch.compile's own kernels captured by hand into one CUDA
            # graph and replayed: the GPU time of its kernels, free of the
            # host's launch rate (the default mode's times move with it by up
            # to 2x between runs) and of the copies mode="reduce-overhead"
            # makes of arguments that are not parameters (the weights here).
            try:
                side = torch.cuda.Stream()
                side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(side):
                    for _ in range(3):
                        cf(*tacts, tw)
                torch.cuda.current_stream().wait_stream(side)
                cg = torch.cuda.CUDAGraph()
                with torch.cuda.graph(cg):
                    cgo = cf(*tacts, tw)
                cg.replay()
                torch.cuda.synchronize()
                row("torch.compile captured", bench_torch(cg.replay), rel_err(back(cgo), ref))
            except Exception as e:
                rows.append({"model": name, "size": size, "dtype": dt,
                             "impl": "torch.compile captured", "error": repr(e)[-400:]})
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
    ap.add_argument("--aic", help="folder of NAME.SIZE.DTYPE.bundle files")
    ap.add_argument("--aic-run", default="aic-run")
    ap.add_argument("--aic-reps", type=int, default=50)
    ap.add_argument("--work", default="/tmp/aic-models")
    a = ap.parse_args()
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "jax": jax.__version__, "jax_device": str(jax.devices()[0])}), flush=True)
    rows = []
    for name in a.models.split(","):
        for dt in a.dtype.split(","):
            try:
                run_one(name, a.size, dt, not a.no_compile, rows, a)
            except Exception as e:  # keep going: one model's failure is a row, not the end
                rows.append({"model": name, "size": a.size, "dtype": dt, "error": repr(e)[:400]})
                print(json.dumps(rows[-1]), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"\n| model | size | dtype | impl | ms | TFLOP/s | rel. error |\n|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['model']} | {r['size']} | {r['dtype']} | {r.get('impl', '')} error | {r['error'][:80]} | | |")
        else:
            print(f"| {r['model']} | {r['size']} | {r['dtype']} | {r['impl']} | {r['ms']} | {r['tflops']} | {r['rel_err']:.1e} |")


if __name__ == "__main__":
    main()
