"""Sharded programs through aic's Python package: JAX's sharded exports (jit
over a mesh with NamedShardings, and shard_map) compiled from their saved
text, and a JAX function compiled with in_shardings, each partitioned into
per-device programs, against JAX's outputs; on the host target every device
runs in this process, on the cuda target one GPU per device of the mesh
(where the GPUs are; elsewhere the call's error is checked).

Run: ``bash scripts/python.sh``.
"""

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import aic

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARDED = ROOT / "tools" / "tests" / "fixtures" / "sharded"
NAMES = ["llama_mlp_tp2", "llama_mlp_dp2_tp2", "gpt_block_tp4", "gpt_block_shmap_tp4"]


@pytest.mark.parametrize("name", NAMES)
def test_sharded_fixture_text_equals_jax(name):
    fn = aic.compile(SHARDED / f"{name}.mlir")
    ins = [np.load(SHARDED / f"{name}.in{k}.npy") for k in range(len(list(SHARDED.glob(f"{name}.in*.npy"))))]
    got = fn(*ins)
    want = np.load(SHARDED / f"{name}.out0.npy")
    got = got[0] if isinstance(got, tuple) else got
    assert got.shape == want.shape
    err = np.abs(np.asarray(got, np.float64) - want) / (1 + np.abs(want))
    assert err.max() <= 1e-4, err.max()


def _gpus():
    return len([d for d in os.listdir("/dev") if d.startswith("nvidia") and d[6:].isdigit()]) if os.path.isdir("/dev") else 0


@pytest.mark.parametrize("name", ["llama_mlp_tp2", "gpt_block_tp4"])
def test_sharded_fixture_on_gpus_equals_jax(name):
    # One GPU per device of the mesh, collectives through NCCL; without the
    # GPUs the call says what is missing.
    fn = aic.compile(SHARDED / f"{name}.mlir", target="cuda", arch="sm_90")
    ins = [np.load(SHARDED / f"{name}.in{k}.npy") for k in range(len(list(SHARDED.glob(f"{name}.in*.npy"))))]
    need = 2 if name.endswith("tp2") else 4
    if _gpus() < need:
        with pytest.raises(aic.RunError, match="CUDA|GPU|NCCL"):
            fn(*ins)
        return
    got = fn(*ins)
    want = np.load(SHARDED / f"{name}.out0.npy")
    got = got[0] if isinstance(got, tuple) else got
    assert got.shape == want.shape
    err = np.abs(np.asarray(got, np.float64) - want) / (1 + np.abs(want))
    assert err.max() <= 1e-3, err.max()


def test_jax_function_with_in_shardings():
    # JAX needs its CPU devices before it starts: a fresh interpreter.
    code = textwrap.dedent(
        """
        import numpy as np, jax, jax.numpy as jnp, aic
        from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
        mesh = jax.make_mesh((2,), ("tp",), axis_types=(AxisType.Auto,))
        def mlp(x, w1, w2):
            return jnp.tanh(x @ w1) @ w2
        rng = np.random.RandomState(0)
        x, w1, w2 = (rng.standard_normal(s).astype(np.float32) for s in [(8, 16), (16, 32), (32, 16)])
        sh = lambda s: NamedSharding(mesh, s)
        fn = aic.compile(mlp, x, w1, w2, in_shardings=(sh(P()), sh(P(None, "tp")), sh(P("tp", None))))
        got = np.asarray(fn(x, w1, w2))
        want = np.asarray(mlp(x, w1, w2))
        assert got.shape == want.shape, (got.shape, want.shape)
        assert np.max(np.abs(got - want) / (1 + np.abs(want))) <= 1e-4
        try:
            aic.compile("func.func @f() { return }", in_shardings=(sh(P()),))
        except TypeError as e:
            assert "JAX function" in str(e)
        else:
            raise AssertionError("shardings on text were accepted")
        print("ok")
        """
    )
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2", JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
