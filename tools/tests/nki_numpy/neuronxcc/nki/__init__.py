"""`nki.jit` for the NumPy stand-in: a kernel runs eagerly, program by
program, on NumPy arrays; `kernel[g0, g1](args)` runs it over a grid."""

import itertools

import numpy as np

from . import isa, language  # noqa: F401
from .language import _Hbm, _set_program


class _Kernel:
    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__

    def __getitem__(self, grid):
        grid = grid if isinstance(grid, tuple) else (grid,)

        def launch(*args):
            hbm = [_Hbm(a) if isinstance(a, np.ndarray) else a for a in args]
            for pid in itertools.product(*[range(g) for g in grid]):
                _set_program(pid)
                self.fn(*hbm)
            _set_program(())

        return launch

    def __call__(self, *args):
        return self[1](*args)


def jit(fn=None, **_kwargs):
    """The decorator: `@nki.jit` or `@nki.jit(...)`."""
    if fn is None:
        return lambda f: _Kernel(f)
    return _Kernel(fn)
