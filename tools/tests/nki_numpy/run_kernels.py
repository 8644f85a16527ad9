"""Runs NKI Python that aic-translate --target=nki --emit=python wrote and
compares its results with the reference interpreter's.

usage: python3 run_kernels.py KERNELS.py ENTRY TOLERANCE --inputs A.npy ... --expect R0.npy ...

Uses the real `neuronxcc.nki` where it is importable; otherwise the NumPy
stand-in beside this script (the choice is printed). bf16 arrays (.npy
'<V2', as aic writes them) are held in float32. Prints the largest
difference relative to 1 + |reference| and exits 1 when it is over the
tolerance."""

import importlib.util
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
# Python puts this script's folder first on the path: take it off, so that
# only the real package answers the first import.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
try:
    import neuronxcc.nki  # noqa: F401

    print("nki: the real neuronxcc.nki")
except ImportError:
    sys.path.insert(0, here)
    print("nki: the NumPy stand-in (tools/tests/nki_numpy)")


def read(path):
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        bits = a.view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32)
    return a


def main():
    args = sys.argv[1:]
    src, entry, tol = args[0], args[1], float(args[2])
    i, e = args.index("--inputs"), args.index("--expect")
    inputs = [read(p) for p in args[i + 1 : e]]
    expect = [read(p) for p in args[e + 1 :]]
    spec = importlib.util.spec_from_file_location("kernels", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    got = getattr(mod, entry)(*inputs)
    if not isinstance(got, tuple):
        got = (got,)
    if len(got) != len(expect):
        print(f"{len(got)} results, the interpreter gave {len(expect)}")
        return 1
    worst = 0.0
    for k, (g, w) in enumerate(zip(got, expect)):
        g = np.asarray(g, dtype=np.float64)
        w = np.asarray(w, dtype=np.float64)
        if g.shape != w.shape:
            print(f"result {k}: shape {g.shape}, the interpreter's {w.shape}")
            return 1
        both_nan = np.isnan(g) & np.isnan(w)
        d = np.where(both_nan, 0.0, np.abs(g - w) / (1.0 + np.abs(w)))
        d = np.where(np.isnan(d), np.inf, d)
        if d.size:
            worst = max(worst, float(d.max()))
    verdict = "ok" if worst <= tol else "MISMATCH"
    print(f"check: {verdict}: largest difference {worst:.3e} (tolerance {tol:e})")
    return 0 if worst <= tol else 1


sys.exit(main())
