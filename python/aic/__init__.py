"""aic: compile StableHLO (or a JAX function) and call it on your arrays.

Quick start::

    import aic, jax.numpy as jnp, numpy as np

    def mlp(x, w):
        return jnp.maximum(x @ w, 0.0)

    x = np.ones((4, 8), np.float32)
    w = np.ones((8, 16), np.float32)
    f = aic.compile(mlp, x, w)             # or aic.compile(stablehlo_text)
    y = f(x, w)                            # a NumPy array (it implements __dlpack__)

    @aic.jit                               # compiled per argument shape and dtype
    def g(x, w):
        return jnp.tanh(x @ w)

Arguments are anything that speaks DLPack (``__dlpack__``): NumPy arrays,
PyTorch tensors, JAX arrays, CuPy arrays, ... C-contiguous, of the dtype and
shape the function was compiled for. Host arrays give NumPy results, which
``torch.from_dlpack`` and ``jax.numpy.from_dlpack`` take without a copy. A
function compiled for ``target="cuda"`` also takes arrays in CUDA memory
(PyTorch CUDA tensors, JAX GPU arrays, CuPy arrays) without a copy through the
host, and then returns its results on the GPU in the same library's type
(a :class:`DeviceArray` for other producers).

Errors: :class:`CompileError` (the compiler's diagnostics, with file, line and
column), :class:`ExportError` (JAX could not export the function),
:class:`ArgumentError` (an argument of the wrong dtype, shape or device, or not
contiguous; also a :class:`ValueError`) and :class:`RunError`; all derive from
:class:`Error`.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _aic
from ._aic import CompileError, DeviceArray, Error, RunError

__all__ = [
    "ArgumentError",
    "CompileError",
    "DeviceArray",
    "Error",
    "ExportError",
    "Function",
    "RunError",
    "compile",
    "default_pipeline",
    "eqsat_report",
    "export_jax",
    "jit",
    "load",
    "opt",
]

__version__ = "0.1.0"


class ArgumentError(Error, ValueError):
    """An argument the compiled function cannot take: not an array, of the wrong
    dtype or shape, on a device other than the host, or not C-contiguous."""


class ExportError(Error):
    """JAX could not export the function to StableHLO (or JAX is not installed)."""


#: The bound of a dynamic dimension ``dim_bounds`` does not name.
DEFAULT_DIM_BOUND = 1024

#: Fusion up to eqsat-fusion: what :func:`eqsat_report` runs by default.
FUSION_PIPELINE = "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion)"

_DTYPES = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}

# DLPack device types that are host memory: CPU, CUDA pinned host, ROCm host.
_HOST_DEVICES = {1, 3, 11}
# kDLCUDA: a CUDA device's memory, which functions compiled for CUDA read in place.
_CUDA_DEVICE = 2
_DEVICE_NAMES = {2: "cuda", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi", 10: "rocm", 13: "cuda_managed", 14: "oneapi"}


def _numpy_dtype(elem: str) -> np.dtype:
    """The NumPy dtype of aic's element type ``elem`` (``bf16`` needs ml_dtypes,
    which JAX installs)."""
    if elem in _DTYPES:
        return _DTYPES[elem]
    if elem == "bf16":
        try:
            import ml_dtypes
        except ImportError as e:  # pragma: no cover - JAX brings ml_dtypes
            raise ArgumentError("bf16 arrays need the ml_dtypes package (pip install ml_dtypes)") from e
        return np.dtype(ml_dtypes.bfloat16)
    raise ArgumentError(f"aic's Python package has no NumPy dtype for element type {elem}")


def _result_dtype(elem: str) -> Optional[np.dtype]:
    """The NumPy dtype of a result of element type ``elem`` (None: none, which
    calling the function reports)."""
    try:
        return _numpy_dtype(elem)
    except ArgumentError:
        return None


def _dlpack_device(x: Any) -> Optional[Tuple[int, int]]:
    """The DLPack device of ``x`` (type, ordinal), or None where it has none."""
    if not hasattr(x, "__dlpack_device__"):
        return None
    try:
        dev, ordinal = x.__dlpack_device__()
    except Exception:  # noqa: BLE001 - a producer's own failure: let __dlpack__ say
        return None
    return int(dev), int(ordinal)


def _on_cuda(x: Any) -> bool:
    """Whether ``x`` lives in CUDA memory (by DLPack)."""
    if type(x) is np.ndarray:
        return False
    dev = _dlpack_device(x)
    return dev is not None and dev[0] == _CUDA_DEVICE


def _host_array(x: Any, what: str) -> np.ndarray:
    """``x`` as a NumPy array in host memory, through DLPack where it is not one."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (bool, int, float, np.generic)):
        return np.asarray(x)
    dev = _dlpack_device(x)
    if dev is not None and dev[0] not in _HOST_DEVICES:
        name = _DEVICE_NAMES.get(dev[0], f"DLPack device type {dev[0]}")
        where = "functions compiled for the host take" if dev[0] == _CUDA_DEVICE else "aic's compiled functions take"
        raise ArgumentError(
            f"{what} lives on {name}:{dev[1]}; {where} arrays in host memory "
            "(copy it first: tensor.cpu(), jax.device_get(x), ...; or compile with target='cuda')"
        )
    if hasattr(x, "__dlpack__"):
        try:
            return np.from_dlpack(x)
        except Exception as e:  # noqa: BLE001 - any producer error becomes ours
            # NumPy has no bfloat16: a PyTorch bf16 tensor crosses as int16 bits,
            # JAX arrays of it convert through __array__ (to ml_dtypes' bfloat16).
            if str(getattr(x, "dtype", "")) == "torch.bfloat16":
                import torch

                return np.from_dlpack(x.view(torch.int16)).view(_numpy_dtype("bf16"))
            if hasattr(x, "__array__"):
                try:
                    return np.asarray(x)
                except Exception:  # noqa: BLE001
                    pass
            raise ArgumentError(f"{what}: cannot read {type(x).__name__} through DLPack: {e}") from e
    if hasattr(x, "__array__"):
        return np.asarray(x)
    raise ArgumentError(
        f"{what} is a {type(x).__name__}, not an array: pass NumPy arrays, PyTorch tensors, "
        "JAX arrays or anything else that implements __dlpack__"
    )


def _check(a: np.ndarray, elem: str, shape: Sequence[int], what: str) -> np.ndarray:
    """``a`` checked against the element type and shape of one argument."""
    want = _numpy_dtype(elem)
    if a.dtype != want:
        raise ArgumentError(f"{what} has dtype {a.dtype}, the compiled function takes {want} ({elem})")
    if tuple(a.shape) != tuple(shape):
        raise ArgumentError(f"{what} has shape {tuple(a.shape)}, the compiled function takes {tuple(shape)}")
    if not a.flags.c_contiguous:
        raise ArgumentError(
            f"{what} is not C-contiguous (strides {a.strides}): pass np.ascontiguousarray(x), "
            "tensor.contiguous(), ..."
        )
    return a


def _torch_stream(t: Any) -> int:
    """The ``CUstream`` handle PyTorch's work on ``t``'s device goes to now (0:
    the legacy default stream)."""
    import torch

    dev = t.get_device()
    get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return int(get(dev)) if get is not None else int(torch.cuda.current_stream(dev).cuda_stream)


def _torch_capsule(t: Any) -> Any:
    """A DLPack capsule of PyTorch tensor ``t``, taken without ordering any
    stream (the caller waits for :func:`_torch_stream` instead)."""
    import torch.utils.dlpack

    return torch.utils.dlpack.to_dlpack(t)


def _like(model: Any, out: "DeviceArray") -> Any:
    """``out`` as an array of ``model``'s library, without a copy: a PyTorch
    tensor, a JAX array or a CuPy array; a :class:`DeviceArray` otherwise.
    ``out`` is ready (the call waited for it), so no stream need wait."""
    lib = type(model).__module__.split(".")[0]
    if lib == "torch":
        import torch

        return torch.from_dlpack(out.__dlpack__())
    if lib in ("jax", "jaxlib"):
        import jax.numpy as jnp

        return jnp.from_dlpack(out)
    if lib == "cupy":
        import cupy

        return cupy.from_dlpack(out)
    return out


class Function:
    """A compiled function: call it on arrays (anything with ``__dlpack__`` in host
    memory) to run it on aic's runtime. One result comes back as a NumPy array,
    several as a tuple (or the pytree a JAX function returned)."""

    def __init__(self, native: "_aic.Compiled", out_tree: Any = None) -> None:
        self._native = native
        self._thread = threading.get_ident()
        self._out_tree = out_tree
        self._inputs = [(e, tuple(s)) for e, s in native.inputs]
        self._outputs = [(e, tuple(s)) for e, s in native.outputs]
        self._results = [(_result_dtype(e), s) for e, s in self._outputs]
        self._unreadable = any(dt is None for dt, _ in self._results)
        # Per argument: its dtype and shape (None where NumPy has no dtype for it,
        # which _check then reports) and whether it travels as raw bytes (bf16).
        self._specs = [(_result_dtype(e), s, e == "bf16") for e, s in self._inputs]
        self._info = {k: getattr(native, k) for k in ("entry", "target", "arch", "kernels", "unplanned", "host_ir")}
        # Dynamic dimensions: per argument, which dims are sizes (None: static).
        self._dynamic = native.dynamic
        if self._dynamic is not None:
            _, arg_dims, _ = self._dynamic
            self._specs = [
                (dt, tuple(None if not d.isdigit() else n for d, n in zip(dims, s)), raw)
                for (dt, s, raw), dims in zip(self._specs, arg_dims)
            ]

    @property
    def inputs(self) -> list[tuple[str, tuple[int, ...]]]:
        """The arguments: (aic element type, shape) each."""
        return list(self._inputs)

    @property
    def outputs(self) -> list[tuple[str, tuple[int, ...]]]:
        """The results: (aic element type, shape) each."""
        return list(self._outputs)

    @property
    def dynamic(self) -> Optional[dict[str, Any]]:
        """None for static shapes; else ``{"bounds": {name: bound}, "args": [[dim, ...], ...],
        "results": [...]}``, each dim a size's name (``"b"``), a number or a product
        (``"4*b"``). Such a function takes any sizes from 1 to their bounds."""
        if self._dynamic is None:
            return None
        bounds, args, results = self._dynamic
        return {"bounds": dict(bounds), "args": args, "results": results}

    @property
    def entry(self) -> str:
        """The MLIR function that runs (``main`` for JAX's exports)."""
        return self._info["entry"]

    @property
    def target(self) -> str:
        """``host``, ``cuda``, ``amdgpu`` or ``nki-sim``."""
        return self._info["target"]

    @property
    def arch(self) -> str:
        """The architecture compiled for (``native``, ``sm_90``, ...)."""
        return self._info["arch"]

    @property
    def kernels(self) -> list[str]:
        """The compiled kernels' names."""
        return list(self._info["kernels"])

    @property
    def unplanned(self) -> Optional[str]:
        """None when the function runs as its executable plan (kernels only);
        otherwise which ops still run on the host interpreter."""
        return self._info["unplanned"]

    @property
    def host_ir(self) -> str:
        """The compiled module's host program (MLIR text)."""
        return self._info["host_ir"]

    @property
    def nki_model(self) -> Optional[str]:
        """For ``target="nki-sim"``: the cost model's schedule of one run on the
        NeuronCore compiled for (modelled time per engine and kernel, what
        ``aic-run --target=nki-sim`` prints); None for other targets."""
        return self._owned().nki_model

    def _owned(self) -> "_aic.Compiled":
        """The native module, which only the thread that made it may use (LLVM's
        JIT and the CUDA context are bound to it)."""
        if threading.get_ident() != self._thread:
            raise RunError(
                f"@{self.entry} was compiled or loaded on another thread: a compiled function "
                "runs on the thread that made it (compile or load it again on this one)"
            )
        return self._native

    def to_bytes(self) -> bytes:
        """The compiled bundle's bytes (what :meth:`save` writes)."""
        return self._owned().to_bytes()

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the compiled bundle to ``path`` (read it back with :func:`load`).
        A JAX function's output pytree is not saved: the loaded function returns
        one array or a tuple."""
        self._owned().save(os.fspath(path))

    def check_args(self, *args: Any) -> list[np.ndarray]:
        """``args`` as the arrays the native module takes, or :class:`ArgumentError`."""
        return self._arrays(args)[0]

    def _arrays(self, args: Sequence[Any], on_cuda: Optional[Sequence[bool]] = None) -> tuple[list[Any], list[list[int]]]:
        """The arrays the native module takes and the arguments' shapes; a function
        of dynamic dimensions takes each size up to its bound. Arguments in CUDA
        memory (``on_cuda``) stay as they are (their dtypes are checked by the
        native module, through DLPack)."""
        if len(args) != len(self._inputs):
            raise ArgumentError(f"@{self.entry} takes {len(self._inputs)} arguments, {len(args)} given")
        arrays, shapes = [], []
        for i, (x, (dt, shape, raw)) in enumerate(zip(args, self._specs)):
            if on_cuda is not None and on_cuda[i]:
                # Sizes (None in `shape`) are checked against the bounds below.
                got = tuple(int(n) for n in x.shape)
                if len(got) != len(shape) or any(n is not None and n != m for n, m in zip(shape, got)):
                    want = self._dynamic[1][i] if self._dynamic is not None else shape
                    raise ArgumentError(f"argument {i} has shape {got}, the compiled function takes {tuple(want)}")
                shapes.append(list(got))
                arrays.append(x)
                continue
            a = x if type(x) is np.ndarray else _host_array(x, f"argument {i}")
            if self._dynamic is not None:
                # Sizes (None in `shape`) are checked against the bounds below.
                elem, _ = self._inputs[i]
                dims = self._dynamic[1][i]
                fits = len(a.shape) == len(shape) and all(n is None or n == m for n, m in zip(shape, a.shape))
                _check(a, elem, a.shape if fits else [d if n is None else n for d, n in zip(dims, shape)], f"argument {i}")
            elif a.dtype != dt or a.shape != shape or not a.flags.c_contiguous:
                elem, shape = self._inputs[i]
                _check(a, elem, shape, f"argument {i}")
            shapes.append(list(a.shape))
            arrays.append(a.reshape(-1).view(np.uint8) if raw else a)
        if self._dynamic is not None:
            try:
                self._native.bind(shapes)
            except RunError as e:
                raise ArgumentError(str(e)) from e
        return arrays, shapes

    def __call__(self, *args: Any) -> Any:
        if self._info["target"] == "cuda":
            on_cuda = [_on_cuda(x) for x in args]
            if any(on_cuda):
                return self._call_device(args, on_cuda)
        arrays, shapes = self._arrays(args)
        if self._unreadable:
            raise RunError(f"@{self.entry} returns element types {[e for e, _ in self._outputs]}, some of which NumPy cannot hold")
        if self._dynamic is not None:
            outs, out_shapes = self._owned().run_shaped(arrays, shapes)
            results = [(dt, tuple(s)) for (dt, _), s in zip(self._results, out_shapes)]
        else:
            outs = self._owned().run(arrays)
            results = self._results
        arrays = [np.frombuffer(b, dtype=dt).reshape(shape) for b, (dt, shape) in zip(outs, results)]
        return self._tree(arrays)

    def _call_device(self, args: Sequence[Any], on_cuda: Sequence[bool]) -> Any:
        """A call with arrays in CUDA memory (``on_cuda``): they are read in
        place, host arguments uploaded, and the results come back on the GPU as
        arrays of the first device argument's library (PyTorch, JAX, CuPy;
        otherwise :class:`DeviceArray`)."""
        arrays, shapes = self._arrays(args, on_cuda)
        first = next(a for a, d in zip(arrays, on_cuda) if d)
        # PyTorch tensors cross as capsules (``to_dlpack``, no stream logic),
        # with the streams they are written on: its ``__dlpack__(stream=...)``
        # costs several times the call's own overhead.
        streams: list[int] = []
        for i, d in enumerate(on_cuda):
            if d and type(arrays[i]).__module__ == "torch":
                s = _torch_stream(arrays[i])
                if s not in streams:
                    streams.append(s)
                arrays[i] = _torch_capsule(arrays[i])
        try:
            outs = self._owned().run_device(arrays, list(on_cuda), shapes, streams)
        except (ValueError, TypeError) as e:
            raise ArgumentError(str(e)) from e
        return self._tree([_like(first, o) for o in outs])

    def _tree(self, arrays: list[Any]) -> Any:
        """The results as the function returns them: its JAX pytree, one array, or
        a tuple."""
        if self._out_tree is not None:
            import jax

            return jax.tree_util.tree_unflatten(self._out_tree, arrays)
        return arrays[0] if len(arrays) == 1 else tuple(arrays)

    def __repr__(self) -> str:
        sig = ", ".join(f"{e}{list(s)}" for e, s in self._inputs)
        return f"<aic.Function @{self.entry}({sig}) on {self.target}/{self.arch}, {len(self.kernels)} kernels>"


def jax_specs(example_args: Sequence[Any]) -> Any:
    """The example arguments as ``jax.ShapeDtypeStruct``s."""
    import jax

    return jax.tree_util.tree_map(_spec, tuple(example_args))


def _symbolic(specs: Any) -> bool:
    """Whether any ``jax.ShapeDtypeStruct`` among ``specs`` has a symbolic dim."""
    import jax

    return any(
        not isinstance(d, int) for s in jax.tree_util.tree_leaves(specs) for d in getattr(s, "shape", ())
    )


def export_jax(
    fun: Callable[..., Any], *example_args: Any, in_shardings: Any = None, out_shardings: Any = None
) -> Tuple[str, Any]:
    """``fun`` exported by ``jax.jit(fun, keep_unused=True).lower(*example_args)``:
    its StableHLO text and the pytree of its outputs. Example arguments may be
    arrays or ``jax.ShapeDtypeStruct``s (with a ``sharding``, or give
    ``in_shardings``/``out_shardings`` as ``jax.jit`` takes them: the export then
    carries Shardy shardings over the mesh); pytrees of them are flattened into
    ``@main``'s arguments in order."""
    try:
        import jax
    except ImportError as e:
        raise ExportError("compiling a Python function needs JAX (pip install 'jax[cpu]')") from e
    name = getattr(fun, "__name__", type(fun).__name__)
    kw = {}
    if in_shardings is not None:
        kw["in_shardings"] = in_shardings
    if out_shardings is not None:
        kw["out_shardings"] = out_shardings
    try:
        specs = jax.tree_util.tree_map(_spec, example_args)
        if _symbolic(specs):
            # Symbolic dims (jax.export.symbolic_shape): jax.export's module,
            # whose @main takes the arrays only and computes the sizes.
            exported = jax.export.export(jax.jit(fun, keep_unused=True, **kw))(*specs)
            return exported.mlir_module(), exported.out_tree
        lowered = jax.jit(fun, keep_unused=True, **kw).lower(*specs)
        return lowered.as_text(), lowered.out_tree
    except Exception as e:  # noqa: BLE001 - whatever JAX raises, say it was the export
        raise ExportError(f"JAX could not export {name}: {type(e).__name__}: {e}") from e


def _spec(x: Any) -> Any:
    """An example argument as JAX's ``ShapeDtypeStruct`` (arrays through DLPack)."""
    import jax

    if isinstance(x, jax.ShapeDtypeStruct):
        return x
    a = _host_array(x, "an example argument")
    return jax.ShapeDtypeStruct(a.shape, a.dtype)


def compile(
    source: Union[str, os.PathLike, Callable[..., Any]],
    *example_args: Any,
    target: str = "host",
    arch: Optional[str] = None,
    tuning: Optional[Union[str, os.PathLike]] = None,
    entry: Optional[str] = None,
    in_shardings: Any = None,
    out_shardings: Any = None,
    dim_bounds: Optional[dict[str, int]] = None,
    dim_buckets: Optional[dict[str, Sequence[int]]] = None,
) -> Function:
    """Compiles ``source`` for ``target`` and returns the callable :class:`Function`.

    ``source`` is MLIR text (StableHLO as JAX exports it, or any level of aic's
    lowering), a path to such a file, or a JAX-traceable Python function, which
    is exported with ``example_args`` (arrays or ``jax.ShapeDtypeStruct``s) first.
    ``target``: ``"host"`` (LLVM JIT on this CPU), ``"cuda"`` (PTX in a bundle,
    run through the CUDA driver at the first call; ``arch`` such as ``"sm_90a"``),
    ``"amdgpu"`` (an HSACO code object for ``arch`` ``"gfx942"`` or
    ``"gfx90a"``, saved for a HIP host: aic's runtime drives no AMD GPU, so
    calling it raises :class:`RunError`) or ``"nki-sim"`` (NKI kernels for
    AWS Trainium, ``arch`` ``"trn1"`` or ``"trn2"``, run on aic's NeuronCore
    simulator; :attr:`Function.nki_model` is the cost model's schedule and the
    bundle holds the NKI Python).
    ``tuning``: a JSON tuning cache written by ``aic-tune``. ``entry``: the
    function to run (default ``main``, or the only public one).
    ``in_shardings``/``out_shardings`` (a JAX function only): ``NamedSharding``s
    over a ``Mesh``, as ``jax.jit`` takes them. The export is then partitioned
    (``spmd-partition``) into one program per device with collectives; on the
    host every device of the mesh runs in this process and the function still
    takes and returns whole arrays.

    Dynamic shapes: ``jax.ShapeDtypeStruct``s with symbolic dims
    (``b, = jax.export.symbolic_shape("b")``; ``?`` dims in MLIR text) compile
    once into kernels for every size up to the dim's bound: ``dim_bounds``
    (``{"b": 64}``; each rounded up to a power of two, the tuning bucket; for a
    JAX function, :data:`DEFAULT_DIM_BOUND` for dims it does not name, while
    MLIR text must name every bound). The function then takes arguments of any
    sizes up to the bounds. The kernels run the bounds' grids (masking what lies
    past the sizes), so a call far below them pays for the bounds:
    ``dim_buckets`` (``{"s": [128, 256]}``) compiles copies for smaller bounds
    too, one per combination with the bounds, in the same compiled function,
    and each call runs the smallest copy its sizes fit.

    Raises :class:`CompileError` with the compiler's diagnostics,
    :class:`ExportError` when JAX cannot export the function, and
    :class:`ArgumentError` when example arguments do not fit a text module.
    """
    tuning = os.fspath(tuning) if tuning is not None else None
    out_tree = None
    if callable(source) and not isinstance(source, (str, os.PathLike)):
        text, out_tree = export_jax(
            source, *example_args, in_shardings=in_shardings, out_shardings=out_shardings
        )
        name = f"<jax:{getattr(source, '__name__', 'function')}>"
    elif isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.endswith(".mlir") and os.path.isfile(source)
    ):
        name = os.fspath(source)
        with open(name, encoding="utf-8") as fh:
            text = fh.read()
    elif isinstance(source, str):
        text, name = source, "<input>"
    else:
        raise TypeError(f"aic.compile takes MLIR text, a path or a JAX function, not {type(source).__name__}")
    if out_tree is None and (in_shardings is not None or out_shardings is not None):
        raise TypeError("in_shardings and out_shardings apply to a JAX function, not to MLIR text")
    bounds = [f"{k}={int(v)}" for k, v in (dim_bounds or {}).items()]
    if out_tree is not None and _symbolic(jax_specs(example_args)):
        bounds.append(f"*={DEFAULT_DIM_BOUND}")
    buckets = [f"{k}={int(v)}" for k, vs in (dim_buckets or {}).items() for v in vs]
    fn = Function(_aic.compile(text, target, arch, tuning, entry, name, bounds, buckets), out_tree)
    if example_args and out_tree is None:
        fn.check_args(*example_args)
    return fn


def load(path_or_bytes: Union[str, os.PathLike, bytes], entry: Optional[str] = None) -> Function:
    """Loads a bundle that :meth:`Function.save` (or ``aic-translate
    --emit=bundle``) wrote: a path or the bundle's bytes."""
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
    else:
        with open(os.fspath(path_or_bytes), "rb") as fh:
            data = fh.read()
    return Function(_aic.load(data, entry))


class _Jit:
    """A JAX function compiled by aic on first call for each argument signature."""

    def __init__(self, fun: Callable[..., Any], target: str, arch: Optional[str], tuning: Any) -> None:
        self._fun = fun
        self._options = dict(target=target, arch=arch, tuning=tuning)
        self._cache: dict[Any, Function] = {}
        self.__wrapped__ = fun
        self.__name__ = getattr(fun, "__name__", "function")
        self.__doc__ = getattr(fun, "__doc__", None)

    def lower(self, *args: Any) -> Function:
        """The compiled function for ``args`` (compiled now if not yet)."""
        import jax

        leaves, tree = jax.tree_util.tree_flatten(args)
        arrays = [_host_array(x, f"argument {i}") for i, x in enumerate(leaves)]
        key = (tree, tuple((a.shape, a.dtype.str) for a in arrays))
        fn = self._cache.get(key)
        if fn is None:
            example = jax.tree_util.tree_unflatten(tree, arrays)
            fn = compile(self._fun, *example, **self._options)
            self._cache[key] = fn
        return fn

    def __call__(self, *args: Any) -> Any:
        import jax

        return self.lower(*args)(*jax.tree_util.tree_leaves(args))


def jit(
    fun: Optional[Callable[..., Any]] = None,
    *,
    target: str = "host",
    arch: Optional[str] = None,
    tuning: Optional[Union[str, os.PathLike]] = None,
) -> Any:
    """Decorates a JAX function so that calls run it compiled by aic: the first
    call with each set of argument shapes and dtypes exports it
    (``jax.jit(f).lower``) and compiles it, later ones reuse that. Use as
    ``@aic.jit`` or ``@aic.jit(target="cuda", arch="sm_90a")``. Arguments are
    arrays (or pytrees of them); other values should be closed over."""
    if fun is None:
        return lambda f: _Jit(f, target, arch, tuning)
    return _Jit(fun, target, arch, tuning)


def opt(text: str, pipeline: str) -> str:
    """Runs pass ``pipeline`` (``aic-opt``'s ``--pass-pipeline`` syntax, e.g.
    ``"builtin.module(stablehlo-to-graph,canonicalize)"``) on MLIR ``text`` and
    returns the printed result. Raises :class:`CompileError` with the diagnostics."""
    return _aic.opt(text, pipeline, False)[0]


def eqsat_report(text: str, pipeline: str = FUSION_PIPELINE) -> str:
    """What every ``eqsat-fusion`` run of ``pipeline`` on ``text`` reports (as
    ``aic-opt --eqsat-report`` prints it): e-graph size, why it stopped, kernels
    and HBM bytes before and after, each chosen fusion."""
    return _aic.opt(text, pipeline, True)[2]


def default_pipeline(target: str = "host", arch: Optional[str] = None) -> str:
    """The pass pipeline :func:`compile` runs for ``target``."""
    return _aic.default_pipeline(target, arch)
