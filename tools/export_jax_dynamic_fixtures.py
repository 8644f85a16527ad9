#!/usr/bin/env python3
"""Export JAX models with symbolic (dynamic) dimensions as StableHLO fixtures.

For every model NAME below this script writes ``tools/tests/fixtures/jax_dynamic/NAME.mlir``:
exactly ``jax.export.export(jax.jit(f))(*specs).mlir_module()``, where the specs are
``jax.ShapeDtypeStruct``s whose batch (and, for some, sequence) dimensions are
symbolic (``jax.export.symbolic_shape("b")``). JAX prints such dimensions as
``?``, passes the dimension variables to an inner function as
``jax.global_constant`` arguments, computes them with
``stablehlo.get_dimension_size``, checks them with ``shape_assertion`` custom
calls and sizes broadcasts and reshapes with ``dynamic_broadcast_in_dim`` and
``dynamic_reshape``. The tests (tools/tests/dynamic_shapes.rs) make their inputs
at several sizes and compare compiled runs with the interpreter, so no inputs are
stored.

Run with the package venv: ``scripts/python.sh`` makes it, then
``~/.cache/aic/python-venv/bin/python tools/export_jax_dynamic_fixtures.py``.
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import export  # noqa: E402

from export_jax_fixtures import _layernorm, _mha  # noqa: E402

OUT_DIR = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "tests", "fixtures", "jax_dynamic"
)
F32 = jnp.float32


def spec(shape):
    return jax.ShapeDtypeStruct(shape, F32)


def model_mlp():
    (b,) = export.symbolic_shape("b")

    def f(x, w1, b1, w2, b2):
        h = jax.nn.relu(x @ w1 + b1)
        return h @ w2 + b2

    return f, [spec((b, 16)), spec((16, 32)), spec((32,)), spec((32, 8)), spec((8,))]


def model_softmax():
    (b,) = export.symbolic_shape("b")
    return (lambda x: jax.nn.softmax(x, axis=-1)), [spec((b, 10))]


def model_layernorm():
    # Batch and sequence both symbolic: rows = b * s.
    b, s = export.symbolic_shape("b, s")

    def f(x, gamma, beta):
        return _layernorm(x, gamma, beta, eps=1e-5)

    return f, [spec((b, s, 16)), spec((16,)), spec((16,))]


def _bert_specs(b, s, hidden=32, ffn=64):
    specs = [spec((b, s, hidden))]
    for _ in range(4):
        specs += [spec((hidden, hidden)), spec((hidden,))]
    specs += [spec((hidden,)), spec((hidden,))]
    specs += [spec((hidden, ffn)), spec((ffn,)), spec((ffn, hidden)), spec((hidden,))]
    specs += [spec((hidden,)), spec((hidden,))]
    return specs


def _bert(x, wq, bq, wk, bk, wv, bv, wo, bo, ln1_g, ln1_b,
          w_ff1, b_ff1, w_ff2, b_ff2, ln2_g, ln2_b):
    attn = _mha(x, wq, bq, wk, bk, wv, bv, wo, bo, 4)
    h = _layernorm(x + attn, ln1_g, ln1_b, eps=1e-5)
    ff = jax.nn.gelu(h @ w_ff1 + b_ff1, approximate=False)
    ff = ff @ w_ff2 + b_ff2
    return _layernorm(h + ff, ln2_g, ln2_b, eps=1e-5)


def model_attention():
    # Softmax attention with a symbolic batch and a static sequence of 8.
    (b,) = export.symbolic_shape("b")
    specs = [spec((b, 8, 32))]
    for _ in range(4):
        specs += [spec((32, 32)), spec((32,))]
    return (lambda x, *w: _mha(x, *w, 4)), specs


def model_bert_layer():
    (b,) = export.symbolic_shape("b")
    return _bert, _bert_specs(b, 8)


def model_attention_seq():
    # A symbolic sequence: attention reduces over it, so its keys past the
    # sequence's length are masked.
    (s,) = export.symbolic_shape("s")
    specs = [spec((2, s, 32))]
    for _ in range(4):
        specs += [spec((32, 32)), spec((32,))]
    return (lambda x, *w: _mha(x, *w, 4)), specs


def model_bert_layer_seq():
    # Batch and sequence both symbolic: attention over the sequence, layer
    # norms and the FFN over its rows.
    b, s = export.symbolic_shape("b, s")
    return _bert, _bert_specs(b, s)


def model_causal_seq():
    # GPT-style causal self-attention over a symbolic sequence, written with
    # einsums over [B, S, heads, d] (batch dims that do not lead) and a
    # causal mask from iotas; a mean over the sequence (its length read as a
    # value) is added back.
    b, s = export.symbolic_shape("b, s")
    heads, d = 2, 8

    def f(x, wq, wk, wv):
        n, t, _ = x.shape
        q = (x @ wq).reshape(n, t, heads, d)
        k = (x @ wk).reshape(n, t, heads, d)
        v = (x @ wv).reshape(n, t, heads, d)
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(float(d)).astype(F32)
        causal = jnp.arange(t)[:, None] >= jnp.arange(t)[None, :]
        scores = jnp.where(causal, scores, -jnp.inf)
        p = jax.nn.softmax(scores, axis=-1)
        o = jnp.einsum("bhqk,bkhd->bqhd", p, v).reshape(n, t, heads * d)
        return o + x.mean(axis=1, keepdims=True)

    w = spec((heads * d, heads * d))
    return f, [spec((b, s, heads * d)), w, w, w]


def _suite(name):
    # The model suite's small size (bench/models/jax_models.py) in f32, batch
    # and sequence symbolic: fused QKV split by slices (real_dynamic_slice),
    # causal masks, RoPE positions and grouped-query attention over them.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "models"))
    import jax_models as M

    fn, acts, weights, _ = M.spec(name, "small", "float32")
    b, s = export.symbolic_shape("b, s")
    acts = [spec((b, s) + tuple(a.shape[2:])) for a in acts]
    return (lambda x, *w: fn(x, list(w))), acts + [spec(w.shape) for w in weights]


def model_gpt2_block_seq():
    return _suite("gpt2_block")


def model_llama_block_seq():
    return _suite("llama_block")


MODELS = {
    "mlp": model_mlp,
    "softmax": model_softmax,
    "layernorm": model_layernorm,
    "attention": model_attention,
    "bert_layer": model_bert_layer,
    "attention_seq": model_attention_seq,
    "bert_layer_seq": model_bert_layer_seq,
    "causal_seq": model_causal_seq,
    "gpt2_block_seq": model_gpt2_block_seq,
    "llama_block_seq": model_llama_block_seq,
}


def main(argv):
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in argv or MODELS:
        f, specs = MODELS[name]()
        text = export.export(jax.jit(f))(*specs).mlir_module()
        with open(os.path.join(OUT_DIR, name + ".mlir"), "w") as out:
            out.write(text)
        print(name, len(text))
    with open(os.path.join(OUT_DIR, "README.md"), "w") as out:
        out.write(
            "# JAX StableHLO fixtures with symbolic dimensions\n\n"
            "Generated by `tools/export_jax_dynamic_fixtures.py` with JAX "
            f"{jax.__version__}; do not edit by hand. Each `NAME.mlir` is "
            "`jax.export.export(jax.jit(f))(*specs).mlir_module()` for specs with "
            "symbolic batch (and for some sequence) dimensions. The tests make "
            "their inputs, so none are stored.\n"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
