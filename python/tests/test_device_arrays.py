"""Arrays in CUDA memory through DLPack: a function compiled for
``target="cuda"`` reads PyTorch CUDA tensors and JAX GPU arrays in place and
returns its results on the GPU in the caller's library, equal to the same
function called on host arrays and to JAX; host and device arguments mixed;
dynamic shapes and buckets on device arrays; aic.DeviceArray exported twice and
outliving its consumer's first tensor; and bad device arguments raising
ArgumentError. Without a GPU only the checks before any device work run (a
fake CUDA producer): the rest is skipped.
"""


import numpy as np
import pytest

import aic

from fixtures_common import FIXTURES, NAMES, as_tuple, close, has_gpu, saved  # noqa: E402

ADD = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = stablehlo.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
"""


_has_gpu = has_gpu


class FakeCuda:
    """A DLPack producer that says it lives on cuda:0 (never read: the checks
    that come first reject it, or no GPU is there)."""

    def __init__(self, shape):
        self.shape = shape

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, **kw):
        raise AssertionError("must not be read")


def test_a_device_argument_of_the_wrong_shape_is_refused_before_any_device_work():
    f = aic.compile(ADD, target="cuda", arch="sm_90")
    with pytest.raises(aic.ArgumentError, match=r"argument 1 has shape \(3, 2\), the compiled function takes \(2, 3\)"):
        f(FakeCuda((2, 3)), FakeCuda((3, 2)))
    with pytest.raises(aic.ArgumentError, match="takes 2 arguments, 1 given"):
        f(FakeCuda((2, 3)))


def test_a_host_function_refuses_device_arrays_and_says_to_compile_for_cuda():
    f = aic.compile(ADD)
    with pytest.raises(aic.ArgumentError, match=r"lives on cuda:0; functions compiled for the host .*target='cuda'"):
        f(FakeCuda((2, 3)), np.ones((2, 3), np.float32))


@pytest.mark.skipif(_has_gpu(), reason="a GPU is here: the device tests below run instead")
def test_device_arrays_without_a_gpu_say_why():
    f = aic.compile(ADD, target="cuda", arch="sm_90")
    with pytest.raises(aic.RunError, match="CUDA"):
        f(FakeCuda((2, 3)), FakeCuda((2, 3)))


gpu = pytest.mark.skipif(not _has_gpu(), reason="no NVIDIA GPU on this machine")


def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here")
    return torch


@gpu
@pytest.mark.parametrize("name", NAMES)
def test_torch_cuda_tensors_in_and_out_equal_jax(name):
    torch = _torch_cuda()
    f = aic.compile(FIXTURES / f"{name}.mlir", target="cuda")
    ins, outs = saved(name, "in"), saved(name, "out")
    if any(a.dtype.name not in ("float16", "float32", "float64", "int32", "int64", "int8", "bool") for a in ins):
        pytest.skip("a dtype PyTorch cannot take from NumPy")
    dev = [torch.from_numpy(a.copy()).cuda() for a in ins]
    got = as_tuple(f(*dev))
    assert len(got) == len(outs)
    for g, w in zip(got, outs):
        assert isinstance(g, torch.Tensor) and g.is_cuda
        close(g.cpu().numpy(), w)
    # The device call and the host call run the same plan.
    for g, h in zip(got, as_tuple(f(*ins))):
        np.testing.assert_array_equal(g.cpu().numpy(), h)


@gpu
def test_jax_gpu_arrays_in_and_out():
    jax = pytest.importorskip("jax")
    if not jax.devices()[0].platform == "gpu":
        pytest.skip("JAX has no GPU here")
    jnp = jax.numpy

    def mlp(x, w):
        return jnp.tanh(x @ w)

    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 128)).astype(np.float32)
    w = (rng.standard_normal((128, 32)) * 0.1).astype(np.float32)
    f = aic.compile(mlp, x, w, target="cuda")
    xd, wd = jax.device_put(x), jax.device_put(w)
    got = f(xd, wd)
    assert isinstance(got, jax.Array) and got.devices() == xd.devices()
    # The reference in f64 on the host: JAX's own GPU matmul is TF32 by default.
    close(np.asarray(got), np.tanh(x.astype(np.float64) @ w).astype(np.float32))


@gpu
def test_host_and_device_arguments_mixed():
    torch = _torch_cuda()
    f = aic.compile(ADD, target="cuda")
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = torch.full((2, 3), 10.0, device="cuda")
    for args in ((a, b), (b, a)):
        got = f(*args)
        assert isinstance(got, torch.Tensor) and got.is_cuda
        close(got.cpu().numpy(), a + 10)


@gpu
def test_writes_pending_on_a_side_stream_are_seen():
    """An argument written on a PyTorch side stream still being busy (a
    sleeping kernel first) is read after the write: the producer orders it
    before the legacy default stream, which the plan's stream then waits for."""
    torch = _torch_cuda()
    f = aic.compile(ADD, target="cuda")
    x = torch.zeros((2, 3), device="cuda")
    side = torch.cuda.Stream()
    for k in range(1, 4):
        with torch.cuda.stream(side):
            torch.cuda._sleep(20_000_000)
            x.fill_(float(k))
            got = f(x, x)
        torch.cuda.synchronize()
        close(got.cpu().numpy(), np.full((2, 3), 2.0 * k, np.float32))


@gpu
def test_device_array_exports_twice_and_outlives_its_first_consumer():
    torch = _torch_cuda()
    f = aic.compile(ADD, target="cuda")
    a = torch.arange(6, dtype=torch.float32, device="cuda").reshape(2, 3)
    (out,) = f._owned().run_device([a, a], [True, True], [[2, 3], [2, 3]])
    assert isinstance(out, aic.DeviceArray)
    assert out.__dlpack_device__() == (2, 0) and out.shape == [2, 3] and out.elem == "f32"
    want = 2 * np.arange(6, dtype=np.float32).reshape(2, 3)
    close(out.numpy(), want)
    close(np.asarray(out), want)
    t1, t2 = torch.from_dlpack(out), torch.from_dlpack(out)
    assert t1.data_ptr() == t2.data_ptr()
    del out, t1
    torch.cuda.synchronize()
    close(t2.cpu().numpy(), want)
    # An unconsumed capsule frees its tensor when collected.
    (out,) = f._owned().run_device([a, a], [True, True], [[2, 3], [2, 3]])
    capsule = out.__dlpack__()
    del capsule, out


@gpu
def test_bad_device_arguments_raise_argument_error():
    torch = _torch_cuda()
    f = aic.compile(ADD, target="cuda")
    good = torch.ones((2, 3), device="cuda")
    with pytest.raises(aic.ArgumentError, match="argument 1 has dtype float64, the compiled function takes f32"):
        f(good, torch.ones((2, 3), dtype=torch.float64, device="cuda"))
    with pytest.raises(aic.ArgumentError, match="argument 0 is not C-contiguous"):
        f(torch.ones((3, 2), device="cuda").t(), good)
    with pytest.raises(aic.ArgumentError, match=r"argument 1 has shape \(3, 2\)"):
        f(good, torch.ones((3, 2), device="cuda"))
    # The function still runs after each refusal.
    close(f(good, good).cpu().numpy(), np.full((2, 3), 2, np.float32))


@gpu
def test_dynamic_shapes_and_buckets_on_device_arrays():
    torch = _torch_cuda()
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    from jax import export

    b, s = export.symbolic_shape("b, s")

    def attn(x, w):
        q = x @ w
        scores = jnp.einsum("bqd,bkd->bqk", q, x) / 4.0
        causal = jnp.arange(x.shape[1])[:, None] >= jnp.arange(x.shape[1])[None, :]
        return jax.nn.softmax(jnp.where(causal, scores, -jnp.inf), axis=-1) @ x

    specs = (jax.ShapeDtypeStruct((b, s, 16), jnp.float32), jax.ShapeDtypeStruct((16, 16), jnp.float32))
    f = aic.compile(attn, *specs, target="cuda", dim_bounds={"b": 4, "s": 64}, dim_buckets={"s": [16]})
    rng = np.random.default_rng(2)
    w = (rng.standard_normal((16, 16)) * 0.3).astype(np.float32)
    wd = torch.from_numpy(w).cuda()
    for bs in ((1, 1), (2, 7), (4, 16), (3, 17), (4, 64)):
        x = rng.standard_normal((*bs, 16)).astype(np.float32)
        got = f(torch.from_numpy(x).cuda(), wd)
        assert tuple(got.shape) == (*bs, 16)
        with jax.default_matmul_precision("highest"):  # not TF32 on a GPU
            want = np.asarray(jax.jit(attn)(x, w))
        close(got.cpu().numpy(), want)
        np.testing.assert_array_equal(got.cpu().numpy(), f(x, w))
