"""aic's Python package on the host target: every JAX fixture through
aic.compile (as saved StableHLO text and as the JAX function that made it)
against JAX; DLPack round trips with NumPy, PyTorch (CPU) and JAX; bundles saved
and loaded; aic.jit; aic.opt and the eqsat report; and bad input raising
exceptions that carry the compiler's diagnostics.

Run: ``bash scripts/python.sh`` (builds and installs the package into a
virtualenv, then runs pytest on this folder).
"""

import importlib.util
import os
import pathlib
import threading

import numpy as np
import pytest

import aic

from fixtures_common import FIXTURES, NAMES, ROOT, as_tuple, close, has_gpu, saved  # noqa: E402


def test_every_fixture_is_tested():
    assert len(NAMES) >= 9, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_fixture_text_equals_saved_jax_outputs(name):
    f = aic.compile(FIXTURES / f"{name}.mlir")
    ins, outs = saved(name, "in"), saved(name, "out")
    got = as_tuple(f(*ins))
    assert len(got) == len(outs)
    for g, w in zip(got, outs):
        close(g, w)


def _models():
    spec = importlib.util.spec_from_file_location("export_jax_fixtures", ROOT / "tools" / "export_jax_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.MODELS


jax = pytest.importorskip("jax", reason="JAX is not installed")
MODELS = _models()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jax_function_equals_jax(name):
    fun, inputs = MODELS[name]()
    f = aic.compile(fun, *inputs)
    want = jax.tree_util.tree_leaves(jax.jit(fun)(*inputs))
    got = jax.tree_util.tree_leaves(f(*inputs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        close(g, np.asarray(w))


def test_jit_compiles_once_per_signature_and_keeps_pytrees():
    import jax.numpy as jnp

    calls = []

    @aic.jit
    def f(x, y):
        calls.append(1)
        return {"sum": x + y, "prod": (x * y, jnp.tanh(x))}

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.full((2, 3), 0.5, np.float32)
    r = f(x, y)
    assert set(r) == {"sum", "prod"}
    close(r["sum"], x + y)
    close(r["prod"][0], x * y)
    close(r["prod"][1], np.tanh(x))
    f(x + 1, y)
    assert len(calls) == 1, "the same signature traced again"
    r = f(np.ones((4,), np.float32), np.ones((4,), np.float32))
    close(r["sum"], np.full((4,), 2, np.float32))
    assert len(calls) == 2


def test_jit_with_options():
    @aic.jit(target="host")
    def g(x):
        return x * 2

    close(g(np.ones(3, np.float32)), np.full(3, 2, np.float32))


ADD = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = stablehlo.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
"""


@pytest.fixture(scope="module")
def add():
    return aic.compile(ADD)


def test_signature_and_plan(add):
    assert add.inputs == [("f32", (2, 3)), ("f32", (2, 3))]
    assert add.outputs == [("f32", (2, 3))]
    assert add.entry == "main" and add.target == "host"
    assert add.unplanned is None
    assert len(add.kernels) >= 1
    assert "gpu.kernel" in add.host_ir


def test_numpy_round_trip(add):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = add(a, a)
    assert isinstance(r, np.ndarray) and r.flags.c_contiguous and r.flags.writeable
    close(r, 2 * a)
    # The result is a DLPack producer NumPy reads back without a copy.
    back = np.from_dlpack(r)
    assert np.shares_memory(back, r)


def test_jax_round_trip(add):
    import jax.numpy as jnp

    a = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
    r = add(a, a)
    j = jnp.from_dlpack(r)
    np.testing.assert_array_equal(np.asarray(j), 2 * np.asarray(a))


def _torch():
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - an install without its libraries fails to import too
        pytest.skip(f"PyTorch cannot be imported here ({type(e).__name__}: {e}); scripts/python.sh installs it when PyPI's wheel is reachable")
    return torch


def test_torch_round_trip(add):
    torch = _torch()
    a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    r = add(a, a)
    t = torch.from_dlpack(r)
    assert torch.equal(t, 2 * a)
    # Zero-copy: the tensor shares the NumPy result's memory.
    t[0, 0] = 42.0
    assert r[0, 0] == 42.0


def test_torch_errors(add):
    torch = _torch()
    a = torch.arange(6, dtype=torch.float32).reshape(3, 2)
    with pytest.raises(aic.ArgumentError, match="not C-contiguous"):
        add(a.t(), a.t())
    with pytest.raises(aic.ArgumentError, match="dtype float64"):
        add(a.reshape(2, 3).double(), a.reshape(2, 3).double())
    g = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(aic.ArgumentError, match="DLPack"):
        add(g, g)


BF16 = """
func.func @main(%a: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %c = stablehlo.add %a, %a : tensor<2x3xbf16>
  return %c : tensor<2x3xbf16>
}
"""


def test_bf16_from_numpy_jax_and_torch():
    import jax.numpy as jnp
    import ml_dtypes

    f = aic.compile(BF16)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    want = (2 * a).astype(ml_dtypes.bfloat16)
    r = f(a.astype(ml_dtypes.bfloat16))
    assert r.dtype == want.dtype and np.array_equal(r, want)
    assert np.array_equal(f(jnp.asarray(a, dtype=jnp.bfloat16)), want)
    with pytest.raises(aic.ArgumentError, match="dtype float32"):
        f(a)
    torch = _torch()
    t = torch.from_numpy(a).to(torch.bfloat16)
    assert np.array_equal(f(t), want)


def test_wrong_shape_dtype_count_and_kind(add):
    a = np.ones((2, 3), np.float32)
    with pytest.raises(aic.ArgumentError, match=r"argument 1 has shape \(3, 2\), the compiled function takes \(2, 3\)"):
        add(a, np.ones((3, 2), np.float32))
    with pytest.raises(aic.ArgumentError, match="argument 0 has dtype int32"):
        add(np.ones((2, 3), np.int32), a)
    with pytest.raises(aic.ArgumentError, match="takes 2 arguments, 1 given"):
        add(a)
    with pytest.raises(aic.ArgumentError, match="is a list, not an array"):
        add([[1.0] * 3] * 2, a)
    # ArgumentError is a ValueError, so generic handlers catch it too.
    with pytest.raises(ValueError):
        add(a, a.T)


def test_non_contiguous_numpy(add):
    a = np.ones((3, 2), np.float32)
    with pytest.raises(aic.ArgumentError, match="not C-contiguous"):
        add(a.T, a.T)


class OnGpu:
    """A DLPack producer that says its memory is on a CUDA device."""

    def __dlpack_device__(self):
        return (2, 1)

    def __dlpack__(self, **kw):
        raise AssertionError("must not be read")


def test_wrong_device(add):
    with pytest.raises(aic.ArgumentError, match="lives on cuda:1"):
        add(OnGpu(), np.ones((2, 3), np.float32))


def test_compile_errors_carry_diagnostics():
    bad = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %b = stablehlo.add %a, %a : tensor<3xf32>\n  return %b : tensor<2xf32>\n}\n"
    with pytest.raises(aic.CompileError) as e:
        aic.compile(bad)
    msg = str(e.value)
    assert "<input>:2:" in msg and "error" in msg, msg
    with pytest.raises(aic.CompileError, match=r"error: expected non-function type\n  --> <input>:1:18"):
        aic.compile("func.func @main( {")
    with pytest.raises(aic.CompileError, match="unsupported target 'tpu': expected 'host', 'cuda', 'amdgpu' or 'nki-sim'"):
        aic.compile(ADD, target="tpu")
    with pytest.raises(aic.CompileError, match="no public function named '@nope'"):
        aic.compile(ADD, entry="nope")
    with pytest.raises(aic.CompileError, match="no such file"):
        aic.compile(ADD, tuning="/nonexistent/tuning.json")
    # An op no code generator lowers is named with its location.
    dyn = "func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n  %b = stablehlo.add %a, %a : tensor<?xf32>\n  return %b : tensor<?xf32>\n}\n"
    with pytest.raises(aic.CompileError, match="<input>:1:"):
        aic.compile(dyn)


def test_example_args_of_text_are_checked():
    with pytest.raises(aic.ArgumentError, match="has shape"):
        aic.compile(ADD, np.ones((2, 3), np.float32), np.ones(3, np.float32))


def test_jax_export_errors():
    def branchy(x):
        if x.sum() > 0:  # Python control flow on a traced value
            return x
        return -x

    with pytest.raises(aic.ExportError, match="JAX could not export branchy") as e:
        aic.compile(branchy, np.ones(3, np.float32))
    assert e.value.__cause__ is not None
    with pytest.raises(aic.ExportError):
        aic.compile(lambda x: x, object())


def test_save_and_load(add, tmp_path):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    p = tmp_path / "add.bundle"
    add.save(p)
    g = aic.load(p)
    assert g.inputs == add.inputs and g.kernels == add.kernels
    close(g(a, a), 2 * a)
    close(aic.load(add.to_bytes())(a, a), 2 * a)
    with pytest.raises(aic.CompileError):
        aic.load(b"not a bundle")
    data = bytearray(add.to_bytes())
    with pytest.raises(aic.CompileError):
        aic.load(bytes(data[: len(data) // 2]))


def test_loops_and_switches_run_as_plans():
    # The loop and the switch are steps of the plan, their scalar tests
    # kernels: nothing is left to the interpreter.
    f = aic.compile(FIXTURES / "control_flow.mlir")
    assert f.unplanned is None
    got = as_tuple(f(*saved("control_flow", "in")))
    for g, w in zip(got, saved("control_flow", "out")):
        close(g, w)


def test_unplanned_function_names_its_host_ops():
    f = aic.compile(
        "func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {\n"
        "  %e = stablehlo.exponential %x : tensor<4xf32>\n"
        "  %c = stablehlo.custom_call @mystery(%n) : (tensor<i32>) -> tensor<i32>\n"
        "  return %e, %c : tensor<4xf32>, tensor<i32>\n"
        "}\n"
    )
    assert f.unplanned is not None and "stablehlo.custom_call" in f.unplanned


def test_opt_and_eqsat_report():
    text = (FIXTURES / "mlp.mlir").read_text()
    out = aic.opt(text, "builtin.module(stablehlo-to-graph,canonicalize)")
    assert "graph.matmul" in out and "stablehlo.dot_general" not in out
    report = aic.eqsat_report(text)
    assert report.startswith("eqsat-fusion: 8 ops") and "kernels: 7 before, 2 after" in report, report
    assert "fused vertical [matmul bias_add relu]" in report
    with pytest.raises(aic.CompileError, match="nope"):
        aic.opt(text, "builtin.module(nope)")
    assert "eqsat-fusion" in aic.default_pipeline("host")


def test_other_thread_gets_an_error_not_a_crash(add):
    a = np.ones((2, 3), np.float32)
    seen = []

    def call():
        try:
            add(a, a)
            seen.append(None)
        except aic.RunError as e:
            seen.append(e)

    t = threading.Thread(target=call)
    t.start()
    t.join()
    assert len(seen) == 1 and "on another thread" in str(seen[0]), seen
    assert add.inputs == [("f32", (2, 3))] * 2  # what it says of itself, any thread
    # The module still works on its own thread afterwards.
    close(add(a, a), 2 * a)


def _has_gpu():
    return has_gpu()


def test_cuda_compiles_without_a_gpu():
    f = aic.compile(ADD, target="cuda", arch="sm_90")
    assert f.target == "cuda" and f.arch == "sm_90"
    assert b".target sm_90" in f.to_bytes()
    if not _has_gpu():
        with pytest.raises(aic.RunError, match="CUDA"):
            f(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))


def test_cuda_sm_90a_bundle_saves_loads_and_runs_or_says_why(tmp_path):
    """What the wheel is for: a Hopper bundle compiled here, saved, loaded back
    (aic.load) and run. Without a GPU each call raises RunError naming the CUDA
    driver, and the module keeps working (the next call says the same)."""
    f = aic.compile(ADD, target="cuda", arch="sm_90a")
    assert f.arch == "sm_90a" and b".target sm_90a" in f.to_bytes()
    f.save(tmp_path / "add.bundle")
    g = aic.load(tmp_path / "add.bundle")
    assert (g.target, g.arch, g.inputs) == ("cuda", "sm_90a", [("f32", (2, 3))] * 2)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for fn in (f, g, g):
        if _has_gpu():
            close(fn(a, a), 2 * a)
        else:
            with pytest.raises(aic.RunError, match=r"cannot run a CUDA module: .*target='host'"):
                fn(a, a)


@pytest.mark.skipif(not _has_gpu(), reason="no NVIDIA GPU on this machine")
@pytest.mark.parametrize("name", NAMES)
def test_cuda_fixture_equals_saved_jax_outputs(name):
    f = aic.compile(FIXTURES / f"{name}.mlir", target="cuda")
    ins, outs = saved(name, "in"), saved(name, "out")
    for g, w in zip(as_tuple(f(*ins)), outs):
        close(g, w)


@pytest.mark.parametrize("name", NAMES)
def test_nki_sim_fixture_equals_saved_jax_outputs(name):
    """target='nki-sim': NKI kernels for Trainium, run by the nki dialect's
    semantics (the simulator), equal to JAX; the cost model's schedule comes
    with it."""
    f = aic.compile(FIXTURES / f"{name}.mlir", target="nki-sim")
    assert (f.target, f.arch, f.kernels) == ("nki-sim", "trn1", [])
    ins, outs = saved(name, "in"), saved(name, "out")
    got = as_tuple(f(*ins))
    assert len(got) == len(outs)
    for g, w in zip(got, outs):
        close(g, w)
    assert f.nki_model.startswith("nki-sim (trn1): MODELLED time")


def test_nki_sim_bundle_holds_the_nki_python_and_loads_back(tmp_path):
    f = aic.compile(FIXTURES / "mlp.mlir", target="nki-sim", arch="trn2")
    assert f.arch == "trn2" and b"import neuronxcc.nki" in f.to_bytes()
    f.save(tmp_path / "mlp.bundle")
    g = aic.load(tmp_path / "mlp.bundle")
    assert (g.target, g.arch) == ("nki-sim", "trn2")
    assert g.nki_model.startswith("nki-sim (trn2)")
    ins, outs = saved("mlp", "in"), saved("mlp", "out")
    close(g(*ins), outs[0])
    assert aic.compile(ADD).nki_model is None
    with pytest.raises(aic.CompileError, match="unsupported arch 'trn9' for target 'nki-sim'"):
        aic.compile(ADD, target="nki-sim", arch="trn9")
    assert "tile-to-nki" in aic.default_pipeline("nki-sim")


def test_amdgpu_compiles_a_code_object_saves_it_and_says_why_it_does_not_run(tmp_path):
    f = aic.compile(FIXTURES / "mlp.mlir", target="amdgpu", arch="gfx90a")
    assert (f.target, f.arch) == ("amdgpu", "gfx90a") and f.kernels
    data = f.to_bytes()
    assert b"\x7fELF" in data and b"amdgpu" in data
    f.save(tmp_path / "mlp.hsaco.bundle")
    g = aic.load(tmp_path / "mlp.hsaco.bundle")
    assert (g.target, g.arch, g.kernels) == ("amdgpu", "gfx90a", f.kernels)
    for fn in (f, g):
        with pytest.raises(aic.RunError, match="compiled for an AMD GPU .* which aic's runtime does not drive"):
            fn(*saved("mlp", "in"))
    assert "mma=amdgpu" in aic.default_pipeline("amdgpu", "gfx942")
