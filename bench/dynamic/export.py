#!/usr/bin/env python3
"""Export model-suite models (`bench/models/jax_models.py`) with a symbolic batch
and sequence, as users export them for variable-length serving:

    python3 bench/dynamic/export.py OUT_DIR [--models bert_layer,gpt2_block] [--dtype float16]

Each `NAME.DTYPE.mlir` is `jax.export.export(jax.jit(f))(*specs).mlir_module()`
where the activations' batch and sequence are `jax.export.symbolic_shape("b, s")`
and the weights are the real size's. Needs JAX (CPU is enough).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import jax  # noqa: E402
from jax import export  # noqa: E402
import jax_models as M  # noqa: E402


def symbolic(name, dtype):
    """The function and its specs with activations' leading (b, s) symbolic."""
    fn, acts, weights, c = M.spec(name, "real", dtype)
    b, s = export.symbolic_shape("b, s")
    acts = [jax.ShapeDtypeStruct((b, s) + tuple(a.shape[2:]), a.dtype) for a in acts]
    return fn, acts, weights


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--models", default="bert_layer,gpt2_block")
    ap.add_argument("--dtype", default="float16")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in a.models.split(","):
        fn, acts, weights = symbolic(name, a.dtype)
        text = export.export(jax.jit(fn))(*acts, weights).mlir_module()
        path = os.path.join(a.out, f"{name}.{a.dtype}.mlir")
        with open(path, "w") as f:
            f.write(text)
        print(path, len(text), "bytes", flush=True)


if __name__ == "__main__":
    main()
