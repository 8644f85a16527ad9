#!/usr/bin/env python3
"""Export the model suite (`jax_models.py`) from JAX to StableHLO text, weights as
arguments: one `NAME.SIZE.DTYPE.mlir` per model, size and type, and a
`manifest.json` naming each file's arguments (shape, type, role).

    python3 bench/models/export.py OUT_DIR [--size real|small|both] [--dtype float16,bfloat16] [--models a,b]

Needs JAX (CPU is enough): `pip install jax`.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax  # noqa: E402
import jax_models as M  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--size", default="both")
    ap.add_argument("--dtype", default="float16,bfloat16")
    ap.add_argument("--models", default=",".join(M.SUITE))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sizes = ["real", "small"] if a.size == "both" else [a.size]
    manifest = {}
    for name in a.models.split(","):
        for size in sizes:
            for dt in a.dtype.split(","):
                fn, acts, weights, c = M.spec(name, size, dt)
                text = jax.jit(fn).lower(*acts, weights).as_text()
                key = f"{name}.{size}.{dt}"
                with open(os.path.join(a.out, key + ".mlir"), "w") as f:
                    f.write(text)
                manifest[key] = {
                    "config": {k: v for k, v in c.items()},
                    "flops": M.flops(name, c),
                    "args": [{"shape": list(s.shape), "dtype": str(s.dtype), "role": r}
                             for s, r in [(s, "activation") for s in acts] + [(s, "weight") for s in weights]],
                }
                print(key, len(text), "bytes", flush=True)
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
