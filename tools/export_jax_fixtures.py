#!/usr/bin/env python3
"""Export small real JAX models as StableHLO fixtures for aic's importer tests.

For every model NAME below this script writes, into
``tools/tests/fixtures/jax/``:

  * ``NAME.mlir``     -- exactly ``jax.jit(f).lower(*inputs).as_text()``, the
                         StableHLO module text printed by JAX (unedited);
  * ``NAME.inK.npy``  -- the K-th input, in the argument order of the public
                         ``@main`` function (model weights are passed as
                         arguments, never closed over, so the .mlir stays small);
  * ``NAME.outK.npy`` -- the K-th output of ``jax.jit(f)(*inputs)`` (tuples /
                         pytrees flattened in order).

Everything is float32 (plus some int32), generated from fixed
``numpy.random.RandomState`` seeds, on the CPU backend, so re-running the
script regenerates identical files for a given JAX version.  It also writes
``tools/tests/fixtures/jax/README.md`` recording the JAX version used.

How to run (not run in CI; needs JAX, CPU build from PyPI):

    python3 -m venv /tmp/jaxvenv
    /tmp/jaxvenv/bin/pip install jax numpy
    /tmp/jaxvenv/bin/python tools/export_jax_fixtures.py

(or ``python3 tools/export_jax_fixtures.py`` with jax installed).  Optional
arguments: model names to export only a subset, e.g. ``mlp softmax``.
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", False)

OUT_DIR = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "tests", "fixtures", "jax"
)

F32 = np.float32


def _rand(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(F32)


def _layernorm(x, gamma, beta, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * gamma + beta


def _mha(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    """Multi-head self-attention on x[B, S, H]."""
    b, s, h = x.shape
    d = h // num_heads

    def split(t):  # [B,S,H] -> [B,nh,S,d]
        return jnp.transpose(t.reshape(b, s, num_heads, d), (0, 2, 1, 3))

    q = split(x @ wq + bq)
    k = split(x @ wk + bk)
    v = split(x @ wv + bv)
    scores = jnp.einsum("bnqd,bnkd->bnqk", q, k) / np.sqrt(d).astype(F32)
    probs = jax.nn.softmax(scores, axis=-1)
    ctx = jnp.einsum("bnqk,bnkd->bnqd", probs, v)
    ctx = jnp.transpose(ctx, (0, 2, 1, 3)).reshape(b, s, h)
    return ctx @ wo + bo


# --------------------------------------------------------------------------
# Models.  Each builder returns (function, list_of_numpy_inputs).
# --------------------------------------------------------------------------


def model_mlp():
    rng = np.random.RandomState(1)

    def f(x, w1, b1, w2, b2):
        h = jax.nn.relu(x @ w1 + b1)
        return h @ w2 + b2

    inputs = [
        _rand(rng, 4, 16),
        _rand(rng, 16, 32, scale=0.25),
        _rand(rng, 32, scale=0.1),
        _rand(rng, 32, 8, scale=0.18),
        _rand(rng, 8, scale=0.1),
    ]
    return f, inputs


def model_softmax():
    rng = np.random.RandomState(2)

    def f(x):
        return jax.nn.softmax(x, axis=-1)

    return f, [_rand(rng, 4, 10, scale=2.0)]


def model_layernorm():
    rng = np.random.RandomState(3)

    def f(x, gamma, beta):
        return _layernorm(x, gamma, beta, eps=1e-5)

    inputs = [
        _rand(rng, 4, 16, scale=3.0) + F32(1.5),
        (1.0 + _rand(rng, 16, scale=0.1)).astype(F32),
        _rand(rng, 16, scale=0.1),
    ]
    return f, inputs


def model_bert_layer():
    rng = np.random.RandomState(4)
    hidden, ffn, heads = 32, 64, 4

    def f(x, wq, bq, wk, bk, wv, bv, wo, bo, ln1_g, ln1_b,
          w_ff1, b_ff1, w_ff2, b_ff2, ln2_g, ln2_b):
        attn = _mha(x, wq, bq, wk, bk, wv, bv, wo, bo, heads)
        h = _layernorm(x + attn, ln1_g, ln1_b, eps=1e-5)
        ff = jax.nn.gelu(h @ w_ff1 + b_ff1, approximate=False)
        ff = ff @ w_ff2 + b_ff2
        return _layernorm(h + ff, ln2_g, ln2_b, eps=1e-5)

    s = 1.0 / np.sqrt(hidden)
    inputs = [_rand(rng, 2, 8, hidden)]
    for _ in range(4):  # Q, K, V, O
        inputs += [_rand(rng, hidden, hidden, scale=s),
                   _rand(rng, hidden, scale=0.02)]
    inputs += [(1.0 + _rand(rng, hidden, scale=0.05)).astype(F32),
               _rand(rng, hidden, scale=0.05)]
    inputs += [_rand(rng, hidden, ffn, scale=s), _rand(rng, ffn, scale=0.02),
               _rand(rng, ffn, hidden, scale=1.0 / np.sqrt(ffn)),
               _rand(rng, hidden, scale=0.02)]
    inputs += [(1.0 + _rand(rng, hidden, scale=0.05)).astype(F32),
               _rand(rng, hidden, scale=0.05)]
    return f, inputs


def model_vit_block():
    rng = np.random.RandomState(5)
    hidden, mlp, heads, patch = 32, 64, 2, 4

    def f(img, conv_w, conv_b, cls_tok, pos_emb,
          ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo,
          ln2_g, ln2_b, w1, b1, w2, b2):
        # img [1,3,16,16] NCHW, conv_w [32,3,4,4] OIHW -> [1,4,4,32] NHWC
        y = lax.conv_general_dilated(
            img, conv_w, window_strides=(patch, patch), padding="VALID",
            dimension_numbers=("NCHW", "OIHW", "NHWC"))
        y = y + conv_b
        n = y.shape[0]
        tokens = y.reshape(n, -1, hidden)                     # [1,16,32]
        cls = jnp.broadcast_to(cls_tok, (n, 1, hidden))        # [1,1,32]
        x = jnp.concatenate([cls, tokens], axis=1) + pos_emb   # [1,17,32]
        h = _layernorm(x, ln1_g, ln1_b, eps=1e-6)
        x = x + _mha(h, wq, bq, wk, bk, wv, bv, wo, bo, heads)
        h = _layernorm(x, ln2_g, ln2_b, eps=1e-6)
        h = jax.nn.gelu(h @ w1 + b1, approximate=True) @ w2 + b2
        return x + h

    s = 1.0 / np.sqrt(hidden)
    inputs = [
        _rand(rng, 1, 3, 16, 16),
        _rand(rng, hidden, 3, patch, patch, scale=1.0 / np.sqrt(3 * 16)),
        _rand(rng, hidden, scale=0.02),
        _rand(rng, 1, 1, hidden, scale=0.02),
        _rand(rng, 1, 17, hidden, scale=0.02),
        (1.0 + _rand(rng, hidden, scale=0.05)).astype(F32),
        _rand(rng, hidden, scale=0.05),
    ]
    for _ in range(4):  # Q, K, V, O
        inputs += [_rand(rng, hidden, hidden, scale=s),
                   _rand(rng, hidden, scale=0.02)]
    inputs += [(1.0 + _rand(rng, hidden, scale=0.05)).astype(F32),
               _rand(rng, hidden, scale=0.05),
               _rand(rng, hidden, mlp, scale=s), _rand(rng, mlp, scale=0.02),
               _rand(rng, mlp, hidden, scale=1.0 / np.sqrt(mlp)),
               _rand(rng, hidden, scale=0.02)]
    return f, inputs


def model_resnet_bottleneck():
    rng = np.random.RandomState(6)
    eps = 1e-5

    def conv(x, w, padding):
        return lax.conv_general_dilated(
            x, w, window_strides=(1, 1), padding=padding,
            dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(x, scale, bias, mean, var):
        c = (1, -1, 1, 1)
        inv = scale.reshape(c) * lax.rsqrt(var.reshape(c) + eps)
        return (x - mean.reshape(c)) * inv + bias.reshape(c)

    def f(x, w1, s1, b1, m1, v1, w2, s2, b2, m2, v2, w3, s3, b3, m3, v3):
        y = jax.nn.relu(bn(conv(x, w1, "VALID"), s1, b1, m1, v1))
        y = jax.nn.relu(bn(conv(y, w2, "SAME"), s2, b2, m2, v2))
        y = bn(conv(y, w3, "VALID"), s3, b3, m3, v3)
        return jax.nn.relu(y + x)

    def bn_params(c):
        return [(1.0 + _rand(rng, c, scale=0.1)).astype(F32),   # scale
                _rand(rng, c, scale=0.1),                        # bias
                _rand(rng, c, scale=0.1),                        # mean
                (0.5 + rng.uniform(size=c)).astype(F32)]         # var > 0

    inputs = [_rand(rng, 1, 16, 8, 8)]
    inputs += [_rand(rng, 4, 16, 1, 1, scale=0.25)] + bn_params(4)
    inputs += [_rand(rng, 4, 4, 3, 3, scale=1.0 / 6.0)] + bn_params(4)
    inputs += [_rand(rng, 16, 4, 1, 1, scale=0.5)] + bn_params(16)
    return f, inputs


def model_giou_loss():
    rng = np.random.RandomState(7)
    n, m = 8, 4
    eps = 1e-7

    def f(pred, target):
        px1, py1, px2, py2 = (pred[..., i] for i in range(4))
        tx1, ty1, tx2, ty2 = (target[..., i] for i in range(4))
        area_p = (px2 - px1) * (py2 - py1)
        area_t = (tx2 - tx1) * (ty2 - ty1)
        iw = jnp.maximum(jnp.minimum(px2, tx2) - jnp.maximum(px1, tx1), 0.0)
        ih = jnp.maximum(jnp.minimum(py2, ty2) - jnp.maximum(py1, ty1), 0.0)
        inter = iw * ih
        union = area_p + area_t - inter
        iou = inter / (union + eps)
        cw = jnp.maximum(px2, tx2) - jnp.minimum(px1, tx1)
        ch = jnp.maximum(py2, ty2) - jnp.minimum(py1, ty1)
        area_c = cw * ch
        giou = iou - (area_c - union) / (area_c + eps)
        return jnp.mean(1.0 - giou)

    def boxes():
        xy = rng.uniform(0.0, 10.0, size=(n, m, 2))
        wh = rng.uniform(0.5, 5.0, size=(n, m, 2))
        return np.concatenate([xy, xy + wh], axis=-1).astype(F32)

    pred = boxes()
    # Targets: perturbed predictions, so most pairs overlap partially.
    target = pred + rng.uniform(-1.0, 1.0, size=pred.shape).astype(F32)
    target[..., 2:] = np.maximum(target[..., 2:], target[..., :2] + 0.25)
    return f, [pred, target.astype(F32)]


def model_reductions_misc():
    rng = np.random.RandomState(8)

    def f(x, y, idx, k, start):
        # x: f32[6,5], y: f32[4,5], idx: i32[4], k: i32[6], start: i32[]
        mx = jnp.max(x, axis=1)                                  # reduce max
        am = jnp.argmax(x, axis=0).astype(jnp.int32)             # argmax
        cs = jnp.cumsum(x, axis=0)                               # reduce_window
        srt = jnp.sort(x, axis=1)                                # sort
        g = x[idx]                                               # gather
        sc = x.at[idx].add(y)                                    # scatter add
        w = jnp.where(x > 0.0, x, 0.1 * x)                       # select
        cl = jnp.clip(x, -0.5, 0.5)                              # clamp
        tc = jnp.concatenate([jnp.transpose(x), jnp.transpose(sc)], axis=1)
        pd = jnp.pad(x, ((1, 2), (0, 1)), constant_values=-1.0)  # pad
        ds = lax.dynamic_slice(x, (start, jnp.int32(1)), (3, 3))  # dyn slice
        ki = ((k * 3 + 7) // 2) % 5 - jnp.abs(k - 4)             # int ops
        ki = jnp.maximum(ki, 0) ^ (k & 3)
        return mx, am, cs, srt, g, sc, w, cl, tc, pd, ds, ki

    inputs = [
        _rand(rng, 6, 5),
        _rand(rng, 4, 5),
        np.array([3, 0, 5, 3], dtype=np.int32),  # repeated index for scatter
        rng.randint(-10, 10, size=6).astype(np.int32),
        np.array(2, dtype=np.int32),
    ]
    return f, inputs


def model_control_flow():
    rng = np.random.RandomState(9)

    def f(x, w, n, flag):
        # x: f32[4], w: f32[4,4], n: i32[] (trip count), flag: i32[]
        def body(i, carry):
            v, acc = carry
            v = jnp.tanh(w @ v) + 0.1 * i.astype(jnp.float32)
            return v, acc + jnp.sum(v)

        v, acc = lax.fori_loop(0, n, body, (x, jnp.float32(0.0)))
        out = lax.cond(flag > 0,
                       lambda a: a * 2.0 + 1.0,
                       lambda a: jnp.exp(-a),
                       v)
        return out, acc

    inputs = [
        _rand(rng, 4),
        _rand(rng, 4, 4, scale=0.5),
        np.array(5, dtype=np.int32),
        np.array(1, dtype=np.int32),
    ]
    return f, inputs


MODELS = {
    "mlp": model_mlp,
    "softmax": model_softmax,
    "layernorm": model_layernorm,
    "bert_layer": model_bert_layer,
    "vit_block": model_vit_block,
    "resnet_bottleneck": model_resnet_bottleneck,
    "giou_loss": model_giou_loss,
    "reductions_misc": model_reductions_misc,
    "control_flow": model_control_flow,
}


def export(name, builder):
    f, inputs = builder()
    inputs = [np.asarray(a) for a in inputs]
    jitted = jax.jit(f)
    text = jitted.lower(*inputs).as_text()
    outs = jax.tree_util.tree_leaves(jitted(*inputs))

    # Remove stale files of this fixture (e.g. if the input count shrank).
    prefix = name + "."
    for fn in os.listdir(OUT_DIR):
        if fn.startswith(prefix) and fn.endswith(".npy"):
            os.remove(os.path.join(OUT_DIR, fn))

    with open(os.path.join(OUT_DIR, name + ".mlir"), "w") as fh:
        fh.write(text)
    for i, a in enumerate(inputs):
        np.save(os.path.join(OUT_DIR, "%s.in%d.npy" % (name, i)), a)
    for i, a in enumerate(outs):
        np.save(os.path.join(OUT_DIR, "%s.out%d.npy" % (name, i)),
                np.asarray(a))
    print("%-18s %2d inputs, %2d outputs, %6d bytes of MLIR"
          % (name, len(inputs), len(outs), len(text)))


README = """\
# JAX StableHLO fixtures

Generated by `tools/export_jax_fixtures.py` with JAX {jax} (jaxlib {jaxlib},
numpy {numpy}, CPU backend); do not edit by hand. For each model `NAME`:
`NAME.mlir` is `jax.jit(f).lower(*inputs).as_text()` verbatim, `NAME.inK.npy`
are the `@main` arguments in order (weights included), `NAME.outK.npy` are
JAX's outputs (pytree leaves in order). To regenerate:
`python3 -m venv /tmp/jaxvenv && /tmp/jaxvenv/bin/pip install jax numpy &&
/tmp/jaxvenv/bin/python tools/export_jax_fixtures.py` (not run in CI; a
different JAX version may print different MLIR).
"""


def main(argv):
    names = argv[1:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit("unknown model(s): %s; known: %s"
                 % (", ".join(unknown), ", ".join(MODELS)))
    os.makedirs(OUT_DIR, exist_ok=True)
    print("JAX %s, jaxlib %s, numpy %s -> %s"
          % (jax.__version__, jax.lib.__version__, np.__version__, OUT_DIR))
    for n in names:
        export(n, MODELS[n])
    with open(os.path.join(OUT_DIR, "README.md"), "w") as fh:
        fh.write(README.format(jax=jax.__version__, jaxlib=jax.lib.__version__,
                               numpy=np.__version__))


if __name__ == "__main__":
    main(sys.argv)
