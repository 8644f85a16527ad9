#!/usr/bin/env python3
"""Export small sharded JAX programs as Shardy/StableHLO fixtures.

For every case NAME below this script writes, into
``tools/tests/fixtures/sharded/``:

  * ``NAME.mlir``     -- exactly ``jax.jit(f, ...).lower(*args).as_text()``:
                         ``jax.jit`` over a ``Mesh`` with ``NamedSharding``s
                         (Shardy's ``sdy.mesh`` / ``sdy.sharding``, partitioning
                         left to the compiler) or ``jax.shard_map``
                         (``sdy.manual_computation`` with explicit collectives);
  * ``NAME.inK.npy``  -- the K-th (global, unsharded) input of ``@main``;
  * ``NAME.outK.npy`` -- the K-th global output JAX computes.

The CPU backend is given 4 devices
(``XLA_FLAGS=--xla_force_host_platform_device_count=4``); meshes have 2 or 4
devices. Everything is float32 from fixed seeds. Run (not in CI):

    scripts/python.sh   # once, to make the venv
    ~/.cache/aic/python-venv/bin/python tools/export_sharded_fixtures.py
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

OUT_DIR = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "tests", "fixtures", "sharded"
)
F32 = np.float32


def rand(rng, *shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(F32)


def mesh(shape, names):
    return jax.make_mesh(shape, names, axis_types=(AxisType.Auto,) * len(names))


def layernorm(x, g, b, eps=1e-5):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean(jnp.square(x - m), axis=-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + eps) * g + b


def llama_mlp(x, wg, wu, wd):
    return (jax.nn.silu(x @ wg) * (x @ wu)) @ wd


def gpt_block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2, heads):
    bsz, s, d = x.shape
    h = layernorm(x, g1, b1)
    def split(t):
        return t.reshape(bsz, s, heads, d // heads).transpose(0, 2, 1, 3)
    q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
    att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d // heads).astype(F32)
    att = jax.nn.softmax(att, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(bsz, s, d)
    x = x + o @ wo
    h = layernorm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1) @ w2


def gpt_inputs(rng, b=2, s=8, d=32, ff=64):
    return [
        rand(rng, b, s, d, scale=1.0),
        1 + rand(rng, d, scale=0.1), rand(rng, d, scale=0.1),
        rand(rng, d, d, scale=0.2), rand(rng, d, d, scale=0.2), rand(rng, d, d, scale=0.2),
        rand(rng, d, d, scale=0.2),
        1 + rand(rng, d, scale=0.1), rand(rng, d, scale=0.1),
        rand(rng, d, ff, scale=0.2), rand(rng, ff, d, scale=0.2),
    ]


def gpt_specs(tp, dp=None):
    """Megatron: q/k/v and w1 column-parallel, wo and w2 row-parallel."""
    rep = P()
    return [
        P(dp, None, None), rep, rep,
        P(None, tp), P(None, tp), P(None, tp),
        P(tp, None),
        rep, rep,
        P(None, tp), P(tp, None),
    ]


def jit_case(m, f, specs, out_spec, inputs):
    shard = lambda s: NamedSharding(m, s)  # noqa: E731
    jf = jax.jit(
        f,
        in_shardings=tuple(shard(s) for s in specs),
        out_shardings=None if out_spec is None else shard(out_spec),
        keep_unused=True,
    )
    return jf, inputs


def case_llama_mlp_tp2():
    rng = np.random.RandomState(1)
    m = mesh((2,), ("tp",))
    xs = [rand(rng, 8, 32, scale=1.0), rand(rng, 32, 64), rand(rng, 32, 64), rand(rng, 64, 32)]
    return jit_case(m, llama_mlp, [P(), P(None, "tp"), P(None, "tp"), P("tp", None)], P(), xs)


def case_llama_mlp_dp2_tp2():
    rng = np.random.RandomState(2)
    m = mesh((2, 2), ("dp", "tp"))
    xs = [rand(rng, 8, 32, scale=1.0), rand(rng, 32, 64), rand(rng, 32, 64), rand(rng, 64, 32)]
    specs = [P("dp", None), P(None, "tp"), P(None, "tp"), P("tp", None)]
    return jit_case(m, llama_mlp, specs, P("dp", None), xs)


def case_gpt_block_tp2():
    rng = np.random.RandomState(3)
    m = mesh((2,), ("tp",))
    f = lambda *a: gpt_block(*a, heads=4)  # noqa: E731
    return jit_case(m, f, gpt_specs("tp"), P(), gpt_inputs(rng))


def case_gpt_block_tp4():
    rng = np.random.RandomState(4)
    m = mesh((4,), ("tp",))
    f = lambda *a: gpt_block(*a, heads=4)  # noqa: E731
    return jit_case(m, f, gpt_specs("tp"), None, gpt_inputs(rng))


def case_gpt_block_dp2_tp2():
    rng = np.random.RandomState(5)
    m = mesh((2, 2), ("dp", "tp"))
    f = lambda *a: gpt_block(*a, heads=4)  # noqa: E731
    return jit_case(m, f, gpt_specs("tp", "dp"), P("dp", None, None), gpt_inputs(rng))


def case_seq_layernorm_sp4():
    rng = np.random.RandomState(6)
    m = mesh((4,), ("sp",))
    xs = [rand(rng, 2, 16, 32, scale=1.0), 1 + rand(rng, 32, scale=0.1), rand(rng, 32, scale=0.1)]
    specs = [P(None, "sp", None), P(), P()]
    return jit_case(m, layernorm, specs, P(None, "sp", None), xs)


def case_data_parallel_loss_dp4():
    rng = np.random.RandomState(7)
    m = mesh((4,), ("dp",))

    def loss(x, w, y):
        return jnp.mean(jnp.square(jnp.tanh(x @ w) - y))

    xs = [rand(rng, 16, 8, scale=1.0), rand(rng, 8, 4), rand(rng, 16, 4)]
    return jit_case(m, loss, [P("dp", None), P(), P("dp", None)], P(), xs)


def shmap_case(m, body, in_specs, out_specs, inputs, **kw):
    f = jax.shard_map(body, mesh=m, in_specs=tuple(in_specs), out_specs=out_specs,
                      check_vma=False, **kw)
    shard = lambda s: NamedSharding(m, s)  # noqa: E731
    return jax.jit(f, in_shardings=tuple(shard(s) for s in in_specs)), inputs


def case_llama_mlp_shmap_tp2():
    rng = np.random.RandomState(8)
    m = mesh((2,), ("tp",))
    xs = [rand(rng, 8, 32, scale=1.0), rand(rng, 32, 64), rand(rng, 32, 64), rand(rng, 64, 32)]
    body = lambda x, wg, wu, wd: lax.psum(llama_mlp(x, wg, wu, wd), "tp")  # noqa: E731
    return shmap_case(m, body, [P(), P(None, "tp"), P(None, "tp"), P("tp", None)], P(), xs)


def case_gpt_block_shmap_tp4():
    rng = np.random.RandomState(9)
    m = mesh((4,), ("tp",))

    def body(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):
        # Each device has one head of q/k/v and its rows of wo: one psum per GEMM pair.
        bsz, s, d = x.shape
        dh = wq.shape[1]
        h = layernorm(x, g1, b1)
        q, k, v = h @ wq, h @ wk, h @ wv
        att = jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(dh).astype(F32), axis=-1)
        x = x + lax.psum(jnp.einsum("bqk,bkd->bqd", att, v) @ wo, "tp")
        h = layernorm(x, g2, b2)
        return x + lax.psum(jax.nn.gelu(h @ w1) @ w2, "tp")

    return shmap_case(m, body, gpt_specs("tp"), P(), gpt_inputs(rng))


def case_collectives_shmap_2x2():
    rng = np.random.RandomState(10)
    m = mesh((2, 2), ("x", "y"))

    def body(a, w):
        h = jax.nn.relu(a @ w)
        h = lax.all_gather(h, "y", axis=1, tiled=True)
        r = lax.psum_scatter(h, "x", scatter_dimension=0, tiled=True)
        r = r + lax.ppermute(r, "y", [(0, 1), (1, 0)])
        t = lax.all_to_all(r, "y", 0, 1, tiled=True)
        return t * (1 + lax.axis_index("x")).astype(F32)

    xs = [rand(rng, 8, 16, scale=1.0), rand(rng, 16, 32)]
    return shmap_case(m, body, [P("x", None), P(None, "y")], P(("x", "y"), None), xs)


CASES = {
    name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")
}


def main(names):
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in names or CASES:
        f, inputs = CASES[name]()
        text = f.lower(*inputs).as_text()
        with open(os.path.join(OUT_DIR, name + ".mlir"), "w") as fh:
            fh.write(text)
        outs = jax.tree_util.tree_leaves(f(*inputs))
        for k, a in enumerate(inputs):
            np.save(os.path.join(OUT_DIR, f"{name}.in{k}.npy"), np.asarray(a))
        for k, a in enumerate(outs):
            np.save(os.path.join(OUT_DIR, f"{name}.out{k}.npy"), np.asarray(a))
        print(name, [a.shape for a in inputs], "->", [np.shape(a) for a in outs])
    with open(os.path.join(OUT_DIR, "README.md"), "w") as fh:
        fh.write(
            "# Sharded JAX fixtures\n\n"
            f"Generated by `tools/export_sharded_fixtures.py` with JAX {jax.__version__} "
            "on 4 host CPU devices; do not edit by hand. `NAME.mlir` is the lowered text "
            "verbatim (Shardy shardings or `sdy.manual_computation`), `NAME.inK.npy` the "
            "global inputs, `NAME.outK.npy` JAX's global outputs.\n"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
