#!/usr/bin/env python3
"""What aic's Python package costs over calling the same compiled module from Rust.

Reports:

* ``import aic``: wall time of the import in a fresh interpreter (median of 7),
  against ``import numpy`` alone (which aic imports);
* per call, on the host target, for JAX fixtures whose ``@main`` runs as its
  executable plan: the median of N calls of the compiled ``aic.Function`` on
  NumPy arrays (and on PyTorch CPU tensors and JAX arrays through DLPack, where
  installed), against ``aic-run --target=host --bench=N``'s median run of the
  same plan (Rust: ``Plan::run_host`` with the same JIT-compiled kernels). The
  difference is the Python package's overhead per call: argument conversion and
  checks, the native call, and wrapping the results as NumPy arrays.

Both sides must come from the same cargo profile (``scripts/python.sh`` builds
the package in the debug profile, as ``cargo build -p aic-tools --bins`` builds
``aic-run``). Run from the repository root, with the virtualenv that has aic::

    bash scripts/python.sh   # builds and installs the package (and tests it)
    ~/.cache/aic/python-venv/bin/python bench/python_overhead.py [--calls N] [--aic-run PATH]
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tools" / "tests" / "fixtures" / "jax"
CASES = ["softmax", "layernorm", "mlp", "giou_loss", "bert_layer"]


def import_time(module, reps=7):
    """Median seconds of ``import module`` in a fresh interpreter."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(reps)]
    return statistics.median(runs)


def per_call(fn, args, calls):
    """Median seconds of one call of ``fn(*args)`` (after 20 warm-up calls)."""
    for _ in range(20):
        fn(*args)
    times = []
    for _ in range(calls):
        t = time.perf_counter_ns()
        fn(*args)
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1e9


def rust_median(aic_run, name, n_in, calls):
    """``aic-run --bench``'s median run of fixture ``name``'s plan, in seconds."""
    cmd = [aic_run, "--target=host", str(FIXTURES / f"{name}.mlir"), "--entry=@main", f"--bench={calls}"]
    cmd += [f"--input={FIXTURES / f'{name}.in{i}.npy'}" for i in range(n_in)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"median ([0-9.]+) ms a run", out)
    if not m:
        raise RuntimeError(f"no median in aic-run's output:\n{out[-2000:]}")
    return float(m.group(1)) / 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--aic-run", default=str(ROOT / "target" / "debug" / "aic-run"))
    o = ap.parse_args()

    numpy_s = import_time("numpy")
    aic_s = import_time("aic")
    print(f"import numpy: {numpy_s * 1e3:.1f} ms; import aic: {aic_s * 1e3:.1f} ms (median of 7 fresh interpreters)")

    import numpy as np

    import aic

    try:
        import torch
    except Exception:  # noqa: BLE001 - optional
        torch = None
    try:
        import jax.numpy as jnp
    except Exception:  # noqa: BLE001 - optional
        jnp = None

    print(f"\nper call on the host, median of {o.calls} (us); overhead = Python (NumPy) - Rust")
    head = f"{'fixture':<12} {'kernels':>7} {'Rust plan':>10} {'NumPy':>9} {'overhead':>9}"
    head += f" {'torch':>9}" if torch else ""
    head += f" {'JAX':>9}" if jnp else ""
    print(head)
    for name in CASES:
        f = aic.compile(FIXTURES / f"{name}.mlir")
        if f.unplanned:
            continue
        args = [np.load(FIXTURES / f"{name}.in{i}.npy") for i in range(len(f.inputs))]
        rust = rust_median(o.aic_run, name, len(args), o.calls)
        py = per_call(f, args, o.calls)
        row = f"{name:<12} {len(f.kernels):>7} {rust * 1e6:>10.1f} {py * 1e6:>9.1f} {(py - rust) * 1e6:>9.1f}"
        if torch:
            row += f" {per_call(f, [torch.from_numpy(a) for a in args], o.calls) * 1e6:>9.1f}"
        if jnp:
            row += f" {per_call(f, [jnp.asarray(a) for a in args], o.calls) * 1e6:>9.1f}"
        print(row)


if __name__ == "__main__":
    main()
