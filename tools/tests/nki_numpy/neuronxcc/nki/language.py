"""nki.language (nl) as NumPy: the subset aic's emitter uses.

Tiles are NumPy arrays holding their dtype's values: float32 and float16
arrays, bf16 values held in float32 (rounded to nearest even on the bits).
Instructions compute in float64 and round once to their result dtype, as
aic's nki dialect does."""

import builtins
import math

import numpy as np

# dtypes
float32 = np.float32
float16 = np.float16
int32 = np.int32
int16 = np.int16
int8 = np.int8
uint8 = np.uint8


class bfloat16:  # noqa: N801 - the name NKI gives it
    """bf16: held in float32 arrays, its values rounded to 8 mantissa bits."""


# memories (the stand-in keeps every tile in host memory)
sbuf = "sbuf"
psum = "psum"
shared_hbm = "shared_hbm"

_PROGRAM = [()]


def _set_program(pid):
    _PROGRAM[0] = pid


def program_id(axis):
    return _PROGRAM[0][axis]


def affine_range(*args):
    return range(*args)


def sequential_range(*args):
    return range(*args)


def arange(n):
    return np.arange(n, dtype=np.int64)


def _bf16(x):
    """float64 values rounded to bf16 (nearest even), held in float32."""
    f = np.asarray(x, dtype=np.float64).astype(np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    nan = np.isnan(f)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = bits.astype(np.uint32).view(np.float32)
    return np.where(nan, np.float32(np.nan), out).astype(np.float32)


def _round(x, dtype):
    """float64 values `x` as a tile of `dtype`."""
    x = np.asarray(x, dtype=np.float64)
    if dtype is bfloat16:
        return _bf16(x)
    if dtype in (np.float32, np.float16):
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(dtype)
    with np.errstate(invalid="ignore"):
        return np.trunc(np.nan_to_num(x)).astype(dtype)


def _f64(t):
    return np.asarray(t, dtype=np.float64)


class _Access:
    """`tensor[index]`: an HBM tensor and an index tile, read or written by
    nl.load / nl.store under a mask."""

    def __init__(self, array, index):
        self.array = array
        self.index = index


class _Hbm:
    """An HBM tensor: a NumPy array that kernels index into lazily (an
    index a mask excludes may be out of bounds)."""

    def __init__(self, array):
        self.array = array

    def reshape(self, shape):
        return _Hbm(self.array.reshape(shape))

    @property
    def shape(self):
        return self.array.shape

    @property
    def dtype(self):
        return self.array.dtype

    def __getitem__(self, index):
        return _Access(self.array, index)


def _where(access, mask):
    idx = np.asarray(access.index)
    if mask is None:
        mask = np.ones(idx.shape, dtype=bool)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), idx.shape)
    return idx, mask


def load(access, mask=None, dtype=None):
    """DMA of the indexed elements into a tile; masked-out ones read 0."""
    idx, mask = _where(access, mask)
    src = access.array
    safe = np.where(mask, idx, 0)
    vals = np.where(mask, src[safe].astype(np.float64), 0.0)
    if dtype is None:
        dtype = src.dtype.type
    return _round(vals, dtype)


def store(access, value, mask=None):
    """DMA of a tile to the indexed elements (where the mask holds)."""
    idx, mask = _where(access, mask)
    dst = access.array
    v = np.broadcast_to(np.asarray(value), idx.shape)
    dst[idx[mask]] = v[mask].astype(dst.dtype)


def full(shape, fill_value, dtype, buffer=None):
    return _round(np.full(shape, fill_value, dtype=np.float64), dtype)


def zeros(shape, dtype, buffer=None):
    return full(shape, 0.0, dtype, buffer)


def broadcast_to(x, shape):
    return np.broadcast_to(np.asarray(x), shape).copy()


def where(condition, x, y, dtype=None):
    out = np.where(np.asarray(condition) != 0, _f64(x), _f64(y))
    return _round(out, dtype if dtype is not None else np.float32)


def copy(x, dtype=None):
    return x if dtype is None else _round(_f64(x), dtype)


# Scalar-engine functions (float64 in, float64 out).
def exp(x):
    return np.exp(_f64(x))


def log(x):
    return np.log(_f64(x))


def tanh(x):
    return np.tanh(_f64(x))


def sqrt(x):
    return np.sqrt(_f64(x))


def rsqrt(x):
    return 1.0 / np.sqrt(_f64(x))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-_f64(x)))


def relu(x):
    x = _f64(x)
    return np.where(np.isnan(x), x, np.maximum(x, 0.0))


def abs(x):  # noqa: A001 - NKI's name
    return np.abs(_f64(x))


def sin(x):
    return np.sin(_f64(x))


def cos(x):
    return np.cos(_f64(x))


def square(x):
    x = _f64(x)
    return x * x


def reciprocal(x):
    return 1.0 / _f64(x)


def negative(x):
    return -_f64(x)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def erf(x):
    return _erf(_f64(x))


# ALU operators (float64 in, float64 out; comparisons give 1.0 or 0.0).
def add(a, b):
    return _f64(a) + _f64(b)


def subtract(a, b):
    return _f64(a) - _f64(b)


def multiply(a, b):
    return _f64(a) * _f64(b)


def divide(a, b):
    return _f64(a) / _f64(b)


def maximum(a, b):
    return np.maximum(_f64(a), _f64(b))


def minimum(a, b):
    return np.minimum(_f64(a), _f64(b))


def equal(a, b):
    return (_f64(a) == _f64(b)).astype(np.float64)


def not_equal(a, b):
    return (_f64(a) != _f64(b)).astype(np.float64)


def greater(a, b):
    return (_f64(a) > _f64(b)).astype(np.float64)


def greater_equal(a, b):
    return (_f64(a) >= _f64(b)).astype(np.float64)


def less(a, b):
    return (_f64(a) < _f64(b)).astype(np.float64)


def less_equal(a, b):
    return (_f64(a) <= _f64(b)).astype(np.float64)


def power(a, b):
    return np.power(_f64(a), _f64(b))


def _i64(t):
    return np.asarray(t).astype(np.int64)


def bitwise_and(a, b):
    return np.bitwise_and(_i64(a), _i64(b))


def bitwise_or(a, b):
    return np.bitwise_or(_i64(a), _i64(b))


def bitwise_xor(a, b):
    return np.bitwise_xor(_i64(a), _i64(b))


def left_shift(a, b):
    s = _i64(b)
    return np.where(s < 64, np.left_shift(_i64(a), np.minimum(s, 63)), 0)


def right_shift(a, b):
    x, s = _i64(a), _i64(b)
    return np.where(s < 64, np.right_shift(x, np.minimum(s, 63)), np.where(x < 0, -1, 0))


# Reductions named as NKI names them (nl.max / nl.min as reduce ops).
def max(x, axis, keepdims=False):  # noqa: A001
    return np.max(_f64(x), axis=axis, keepdims=keepdims)


def min(x, axis, keepdims=False):  # noqa: A001
    return np.min(_f64(x), axis=axis, keepdims=keepdims)


_ = builtins
