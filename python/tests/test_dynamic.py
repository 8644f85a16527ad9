"""Dynamic shapes through aic.compile on the host target: JAX functions given
``jax.ShapeDtypeStruct``s with symbolic dims (jax.export.symbolic_shape) compile
once and run at several sizes, each equal to JAX at that size; a saved bundle
keeps its dims; sizes above the bound and wrong static dims raise ArgumentError.
"""

import numpy as np
import pytest

import aic

jax = pytest.importorskip("jax")
jnp = jax.numpy
from jax import export  # noqa: E402

TOL = 1e-4


def close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    err = np.abs(got.astype(np.float64) - want) / (1 + np.abs(want.astype(np.float64)))
    assert np.max(err, initial=0.0) <= TOL, f"largest relative error {np.max(err)}"


def rand(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def mlp(x, w1, w2):
    return jnp.tanh(x @ w1) @ w2


def test_mlp_compiles_once_and_runs_batch_1_3_8():
    (b,) = export.symbolic_shape("b")
    f = aic.compile(
        mlp,
        jax.ShapeDtypeStruct((b, 128), jnp.float32),
        jax.ShapeDtypeStruct((128, 64), jnp.float32),
        jax.ShapeDtypeStruct((64, 32), jnp.float32),
    )
    assert f.dynamic["bounds"] == {"b": aic.DEFAULT_DIM_BOUND}
    assert f.dynamic["args"][0] == ["b", "128"]
    rng = np.random.default_rng(0)
    w1, w2 = rand(rng, 128, 64, scale=0.1), rand(rng, 64, 32, scale=0.1)
    for n in (1, 3, 8, 17):
        x = rand(rng, n, 128)
        got = f(x, w1, w2)
        assert got.shape == (n, 32)
        close(got, np.asarray(jax.jit(mlp)(x, w1, w2)))


def test_two_relu_layers_share_jaxs_one_relu_function():
    (b,) = export.symbolic_shape("b")

    def f(x, w1, w2):
        return jax.nn.relu(jax.nn.relu(x @ w1) @ w2)

    g = aic.compile(
        f,
        jax.ShapeDtypeStruct((b, 8), jnp.float32),
        jax.ShapeDtypeStruct((8, 8), jnp.float32),
        jax.ShapeDtypeStruct((8, 4), jnp.float32),
        dim_bounds={"b": 16},
    )
    rng = np.random.default_rng(3)
    w1, w2 = rand(rng, 8, 8), rand(rng, 8, 4)
    for n in (1, 5, 16):
        x = rand(rng, n, 8)
        close(g(x, w1, w2), np.asarray(jax.jit(f)(x, w1, w2)))


def test_layernorm_with_batch_and_sequence_bounds():
    b, s = export.symbolic_shape("b, s")

    def ln(x, g):
        m = jnp.mean(x, axis=-1, keepdims=True)
        v = jnp.mean(jnp.square(x - m), axis=-1, keepdims=True)
        return (x - m) * jax.lax.rsqrt(v + 1e-5) * g

    f = aic.compile(
        ln,
        jax.ShapeDtypeStruct((b, s, 16), jnp.float32),
        jax.ShapeDtypeStruct((16,), jnp.float32),
        dim_bounds={"b": 4, "s": 20},
    )
    assert f.dynamic["bounds"] == {"b": 4, "s": 32}
    rng = np.random.default_rng(1)
    g = rand(rng, 16)
    for bs in ((1, 1), (3, 5), (4, 32), (2, 17)):
        x = rand(rng, *bs, 16)
        close(f(x, g), np.asarray(jax.jit(ln)(x, g)))


def test_softmax_bundle_saved_and_loaded_keeps_its_dims(tmp_path):
    (b,) = export.symbolic_shape("b")
    sm = lambda x: jax.nn.softmax(x, axis=-1)  # noqa: E731
    f = aic.compile(sm, jax.ShapeDtypeStruct((b, 10), jnp.float32), dim_bounds={"b": 64})
    f.save(tmp_path / "sm.bundle")
    g = aic.load(tmp_path / "sm.bundle")
    assert g.dynamic == f.dynamic
    rng = np.random.default_rng(2)
    for n in (1, 3, 64):
        x = rand(rng, n, 10)
        close(g(x), np.asarray(jax.jit(sm)(x)))


def test_sizes_outside_the_bounds_and_wrong_static_dims_raise():
    (b,) = export.symbolic_shape("b")
    f = aic.compile(
        mlp,
        jax.ShapeDtypeStruct((b, 8), jnp.float32),
        jax.ShapeDtypeStruct((8, 4), jnp.float32),
        jax.ShapeDtypeStruct((4, 2), jnp.float32),
        dim_bounds={"b": 16},
    )
    w1, w2 = np.ones((8, 4), np.float32), np.ones((4, 2), np.float32)
    with pytest.raises(aic.ArgumentError, match="above its bound 16"):
        f(np.ones((17, 8), np.float32), w1, w2)
    with pytest.raises(aic.ArgumentError, match=r"shape \(3, 9\)"):
        f(np.ones((3, 9), np.float32), w1, w2)
    with pytest.raises(aic.ArgumentError, match="dtype"):
        f(np.ones((3, 8), np.float64), w1, w2)


def test_mlir_text_with_dynamic_dims_needs_bounds():
    text = "func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {\n  %b = stablehlo.add %a, %a : tensor<?x4xf32>\n  return %b : tensor<?x4xf32>\n}\n"
    with pytest.raises(aic.CompileError, match="dim_bounds"):
        aic.compile(text)
    with pytest.raises(aic.CompileError, match="dynamic dimension 'arg0.0' has no bound"):
        aic.compile(text, dim_bounds={"b": 4})
    f = aic.compile(text, dim_bounds={"arg0.0": 5})
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(f(x), x + x)


def test_attention_over_a_dynamic_sequence_compiles_once_and_runs_each_length():
    b, s = export.symbolic_shape("b, s")

    def attn(x, wq, wk, wv):
        q, k, v = x @ wq, x @ wk, x @ wv
        scores = jnp.einsum("bqd,bkd->bqk", q, k) / 4.0
        causal = jnp.arange(x.shape[1])[:, None] >= jnp.arange(x.shape[1])[None, :]
        p = jax.nn.softmax(jnp.where(causal, scores, -jnp.inf), axis=-1)
        return p @ v + x.mean(axis=1, keepdims=True)

    w = jax.ShapeDtypeStruct((16, 16), jnp.float32)
    f = aic.compile(attn, jax.ShapeDtypeStruct((b, s, 16), jnp.float32), w, w, w, dim_bounds={"b": 4, "s": 32})
    assert f.dynamic["bounds"] == {"b": 4, "s": 32}
    # The sizes the kernels read are the compiler's arguments, not the caller's.
    assert len(f.inputs) == 4
    rng = np.random.default_rng(4)
    ws = [rand(rng, 16, 16, scale=0.3) for _ in range(3)]
    for bs in ((1, 1), (2, 7), (4, 32), (3, 19)):
        x = rand(rng, *bs, 16)
        close(f(x, *ws), np.asarray(jax.jit(attn)(x, *ws)))


def test_buckets_run_the_smallest_copy_the_sizes_fit_and_survive_a_save(tmp_path):
    b, s = export.symbolic_shape("b, s")

    def f(x, w):
        return jax.nn.softmax(x @ w, axis=1)

    specs = (jax.ShapeDtypeStruct((b, s, 8), jnp.float32), jax.ShapeDtypeStruct((8, 8), jnp.float32))
    g = aic.compile(f, *specs, dim_bounds={"b": 4, "s": 64}, dim_buckets={"s": [8, 16]})
    # Three copies (s <= 8, 16, 64), all behind one function.
    assert sum(1 for k in g.kernels if k.startswith("general") or k.startswith("rows")) >= 3
    rng = np.random.default_rng(5)
    w = rand(rng, 8, 8)
    h = aic.load(g.to_bytes())
    for bs in ((1, 3), (2, 8), (4, 9), (3, 16), (2, 40), (4, 64)):
        x = rand(rng, *bs, 8)
        want = np.asarray(jax.jit(f)(x, w))
        close(g(x, w), want)
        close(h(x, w), want)


def test_a_function_needing_both_dynamic_layouts_is_a_compile_error():
    b, s = export.symbolic_shape("b, s")

    def f(x, w):
        rows = x.reshape(-1, 16) @ w
        return jax.nn.softmax(x, axis=1), rows

    with pytest.raises(aic.CompileError, match="packed at the front"):
        aic.compile(
            f,
            jax.ShapeDtypeStruct((b, s, 16), jnp.float32),
            jax.ShapeDtypeStruct((16, 16), jnp.float32),
            dim_bounds={"b": 4, "s": 8},
        )
