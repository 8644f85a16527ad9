#!/usr/bin/env python3
"""jax.jit on the GPUs with the same shardings as aic's partitioned programs:
each model on 1 GPU and tensor-parallel over N ("tp"=N), median of REPS runs
after warm-up, in milliseconds. Needs JAX with CUDA (pip install "jax[cuda12]").

    python3 bench/multigpu/bench_jax.py [--tp 2] [--dtype f32|bf16] [--reps 50]
"""

import argparse
import os
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--tp", type=int, default=2)
ap.add_argument("--dtype", default="f32", choices=["f32", "bf16"])
ap.add_argument("--reps", type=int, default=50)
ap.add_argument("--tokens", type=int, default=2048)
args = ap.parse_args()

try:
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
except ImportError as e:
    sys.exit(f"bench_jax.py: JAX is not installed ({e}); pip install 'jax[cuda12]'")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import gpt_block, gpt_inputs, gpt_specs, llama_inputs, llama_mlp, llama_specs  # noqa: E402

gpus = [d for d in jax.devices() if d.platform == "gpu"]
if len(gpus) < args.tp:
    sys.exit(f"bench_jax.py: {args.tp} GPUs wanted, JAX sees {len(gpus)}: {jax.devices()}")
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[args.dtype]


def timed(f, xs):
    for _ in range(5):
        jax.block_until_ready(f(*xs))
    t = []
    for _ in range(args.reps):
        s = time.perf_counter()
        jax.block_until_ready(f(*xs))
        t.append((time.perf_counter() - s) * 1e3)
    t.sort()
    return t[len(t) // 2]


for name, f, make, specs in [
    ("gpt_block", gpt_block, gpt_inputs, gpt_specs()),
    ("llama_mlp", llama_mlp, llama_inputs, llama_specs()),
]:
    xs = [jax.device_put(a, gpus[0]) for a in make(args.tokens, DT)]
    one = timed(jax.jit(f), xs)
    mesh = jax.make_mesh((args.tp,), ("tp",), axis_types=(AxisType.Auto,), devices=gpus[: args.tp])
    sh = [NamedSharding(mesh, s) for s in specs]
    xs = [jax.device_put(a, s) for a, s in zip(xs, sh)]
    tp = timed(jax.jit(f, in_shardings=tuple(sh), out_shardings=NamedSharding(mesh, P())), xs)
    print(f"jax {name}: 1 GPU {one:.3f} ms, {args.tp} GPUs {tp:.3f} ms, "
          f"scaling efficiency {100 * one / (args.tp * tp):.1f}%")
