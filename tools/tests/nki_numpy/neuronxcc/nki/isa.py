"""nki.isa (nisa) as NumPy: the instructions aic's emitter uses, each
computing in float64 and rounding once to its result dtype; nc_matmul
gives fp32 (its sum rounded once, added into the PSUM accumulator in fp32),
tensor_reduce accumulates in fp32 element by element."""

import numpy as np

from . import language as nl
from .language import _f64, _round


def nc_matmul(stationary, moving):
    """stationary.T @ moving on the Tensor engine, an fp32 PSUM tile."""
    return _round(_f64(stationary).T @ _f64(moving), np.float32)


def nc_transpose(data):
    """The tile with partitions and free axis swapped (Tensor engine)."""
    return np.ascontiguousarray(np.asarray(data).T)


def activation(op, data, bias=None, scale=1.0, dtype=None):
    """op(data * scale + bias) on the Scalar engine."""
    x = _f64(data) * _f64(scale)
    if bias is not None:
        x = x + _f64(bias)
    with np.errstate(all="ignore"):
        return _round(op(x), dtype or np.float32)


def tensor_tensor(x, y, op, dtype=None):
    with np.errstate(all="ignore"):
        return _round(op(x, y), dtype or np.float32)


def tensor_scalar(data, op0, operand0, reverse0=False, dtype=None):
    """data op0 operand0 (operand0 a constant or one column a partition)."""
    with np.errstate(all="ignore"):
        out = op0(operand0, data) if reverse0 else op0(data, operand0)
        return _round(out, dtype or np.float32)


_FOLD = {nl.add: np.add, nl.max: np.maximum, nl.min: np.minimum}


def tensor_reduce(op, data, axis, dtype=None, keepdims=False):
    """A reduction along the free axis, accumulated in fp32 in order."""
    f = _FOLD[op]
    x = np.asarray(data, dtype=np.float32)
    assert tuple(axis) == (1,) and x.ndim == 2, "the stand-in reduces axis 1 of 2-d tiles"
    acc = x[:, 0].copy()
    with np.errstate(all="ignore"):
        for j in range(1, x.shape[1]):
            acc = f(acc, x[:, j]).astype(np.float32)
    out = acc[:, None] if keepdims else acc
    return _round(out, dtype or np.float32)


def tensor_copy(src, dtype=None):
    return _round(_f64(src), dtype or np.asarray(src).dtype.type)


def iota(expr, dtype):
    return _round(np.asarray(expr), dtype)


def affine_select(pred, on_true_tile, on_false_value, dtype=None):
    out = np.where(np.asarray(pred), _f64(on_true_tile), on_false_value)
    return _round(out, dtype or np.float32)
