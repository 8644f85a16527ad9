#!/usr/bin/env python3
"""Export the multi-GPU benchmark programs: a GPT block (width 4096, 32 heads,
Megatron tensor parallelism: q/k/v and the first MLP GEMM column-parallel, the
attention output and second MLP GEMM row-parallel) and a Llama MLP (4096 ->
11008 -> 4096, gate and up column-parallel, down row-parallel), each
unsharded (one device) and with `jax.jit` shardings over a mesh ("tp"=N).

Writes into DIR (default bench/multigpu/build): NAME_1.mlir, NAME_tpN.mlir,
and NAME.inK.npy (the global inputs, from fixed seeds). Lowering only: no
device runs anything, so it runs on any machine
(XLA_FLAGS=--xla_force_host_platform_device_count gives the CPU N devices).

    python3 bench/multigpu/export.py [--tp 2] [--dtype f32|bf16] [--out DIR]
"""

import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--tp", type=int, default=2)
ap.add_argument("--dtype", default="f32", choices=["f32", "bf16"])
ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "build"))
ap.add_argument("--tokens", type=int, default=2048, help="batch x sequence")
args = ap.parse_args()
os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={max(args.tp, 1)}"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import SEQ, gpt_block, gpt_inputs, gpt_specs, llama_inputs, llama_mlp, llama_specs  # noqa: E402

DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[args.dtype]
os.makedirs(args.out, exist_ok=True)
mesh = jax.make_mesh((args.tp,), ("tp",), axis_types=(AxisType.Auto,))

for name, f, inputs, specs in [
    ("gpt_block", gpt_block, gpt_inputs(args.tokens, DT), gpt_specs()),
    ("llama_mlp", llama_mlp, llama_inputs(args.tokens, DT), llama_specs()),
]:
    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in inputs]
    one = jax.jit(f, keep_unused=True).lower(*shapes).as_text()
    with open(os.path.join(args.out, f"{name}_1.mlir"), "w") as fh:
        fh.write(one)
    shard = lambda s: NamedSharding(mesh, s)  # noqa: E731
    tp = jax.jit(
        f,
        in_shardings=tuple(shard(s) for s in specs),
        out_shardings=shard(P()),
        keep_unused=True,
    ).lower(*shapes).as_text()
    with open(os.path.join(args.out, f"{name}_tp{args.tp}.mlir"), "w") as fh:
        fh.write(tp)
    for k, a in enumerate(inputs):
        np.save(os.path.join(args.out, f"{name}.in{k}.npy"), np.asarray(a))
    print(name, [tuple(a.shape) for a in inputs], f"seq {SEQ}", args.dtype)
