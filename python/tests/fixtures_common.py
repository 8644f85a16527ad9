"""What the package's tests share: the JAX fixtures (StableHLO text with
saved inputs and JAX's outputs), the comparison against them, and whether a
GPU is here."""

import os
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tools" / "tests" / "fixtures" / "jax"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.mlir"))

# Compiled kernels against JAX: f32 to a few units in the fourth place
# relative to 1 + |reference| (what aic-run --check allows), integers exactly.
TOL = 1e-4


def close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want)
    else:
        err = np.abs(got.astype(np.float64) - want) / (1 + np.abs(want.astype(np.float64)))
        assert np.nanmax(err, initial=0.0) <= TOL, f"largest relative error {np.nanmax(err)}"
        assert np.array_equal(np.isnan(got), np.isnan(want))


def saved(name, kind):
    """Fixture ``name``'s saved arrays: ``kind`` ``in`` (inputs) or ``out``
    (JAX's outputs), in order."""
    files = sorted(FIXTURES.glob(f"{name}.{kind}*.npy"), key=lambda p: int(p.stem.split(kind)[-1]))
    return [np.load(p) for p in files]


def as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def has_gpu():
    return os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")
