"""Typed stubs of aic's native module (built from python/src/lib.rs by maturin).
Use the ``aic`` package's wrappers; these are what they call."""

from typing import Any, Optional

class Error(Exception):
    """Any error of aic: the base of CompileError and RunError."""

class CompileError(Error):
    """The compiler rejected the module: the message holds its diagnostics."""

class RunError(Error):
    """A compiled function could not run (no CUDA driver, a kernel failed, ...)."""

class DeviceArray:
    """A result in CUDA memory that aic allocated. ``torch.from_dlpack``,
    ``jax.numpy.from_dlpack`` and ``cupy.from_dlpack`` take it without a copy;
    ``numpy()`` (or ``np.asarray``) copies it to the host."""

    @property
    def shape(self) -> list[int]: ...
    @property
    def elem(self) -> str:
        """aic's element type (``f16``, ``f32``, ...)."""
    def __dlpack__(
        self,
        *,
        stream: Optional[int] = None,
        max_version: Optional[tuple[int, int]] = None,
        dl_device: Optional[tuple[int, int]] = None,
        copy: Optional[bool] = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def to_bytes(self) -> bytearray: ...
    def numpy(self) -> Any: ...
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> Any: ...

class Compiled:
    """A compiled module, ready to run one function. Only the thread that
    compiled or loaded it may run it."""

    @property
    def inputs(self) -> list[tuple[str, list[int]]]: ...
    @property
    def outputs(self) -> list[tuple[str, list[int]]]: ...
    @property
    def entry(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def arch(self) -> str: ...
    @property
    def kernels(self) -> list[str]: ...
    @property
    def unplanned(self) -> Optional[str]: ...
    @property
    def host_ir(self) -> str: ...
    @property
    def nki_model(self) -> Optional[str]:
        """For target nki-sim, the cost model's schedule; else None."""
    def run(self, args: list[object]) -> list[bytearray]:
        """Runs the function on one C-contiguous buffer per argument (exactly
        its bytes) and returns each result's bytes."""
    @property
    def dynamic(self) -> Optional[tuple[list[tuple[str, int]], list[list[str]], list[list[str]]]]:
        """None, or the dynamic dimensions: each size's (name, bound), each
        argument's and result's dims as text (``"b"``, ``"16"``, ``"4*b*s"``)."""
    def bind(self, shapes: list[list[int]]) -> list[list[int]]:
        """The results' shapes for arguments of ``shapes``; RunError when a
        static dim differs or a size is outside 1..bound."""
    def run_shaped(self, args: list[object], shapes: list[list[int]]) -> tuple[list[bytearray], list[list[int]]]:
        """Runs a function of dynamic dimensions on buffers of ``shapes``:
        each result's bytes and shape."""
    def run_device(
        self, args: list[object], on_device: list[bool], shapes: list[list[int]], streams: list[int] = ...
    ) -> list[DeviceArray]:
        """Runs the function on the GPU with each argument where it is: read
        through DLPack in CUDA memory where ``on_device`` (an object with
        ``__dlpack__``, or a capsule whose writes are on ``streams``), else a
        host buffer; the results stay on the GPU. ValueError for an argument
        it cannot take."""
    def to_bytes(self) -> bytes: ...
    def save(self, path: str) -> None: ...

def compile(
    text: str,
    target: str = "host",
    arch: Optional[str] = None,
    tuning: Optional[str] = None,
    entry: Optional[str] = None,
    name: str = "<input>",
    dim_bounds: Optional[list[str]] = None,
    dim_buckets: Optional[list[str]] = None,
) -> Compiled: ...
def load(data: bytes, entry: Optional[str] = None) -> Compiled: ...
def opt(text: str, pipeline: str, eqsat_report: bool = False, name: str = "<input>") -> tuple[str, str, str]:
    """The printed module, the passes' remarks, and the eqsat report."""
def default_pipeline(target: str = "host", arch: Optional[str] = None) -> str: ...
