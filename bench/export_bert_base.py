#!/usr/bin/env python3
"""Export a 12-layer BERT-base encoder (hidden 768, 12 heads, FFN 3072, sequence
128, batch 1) from JAX to StableHLO text, weights as arguments, for the
eqsat-fusion benchmark (`bench/eqsat_bench.py`). Needs JAX for CPU:

    python3 -m venv /tmp/jaxvenv && /tmp/jaxvenv/bin/pip install jax
    /tmp/jaxvenv/bin/python bench/export_bert_base.py > /tmp/bert_base.mlir
"""
import jax
import jax.numpy as jnp

L, H, HEADS, FF, S = 12, 768, 12, 3072, 128


def layernorm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-12) * g + b


def layer(x, p):
    wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2 = p
    def heads(t):
        return t.reshape(1, S, HEADS, H // HEADS).transpose(0, 2, 1, 3)
    q, k, v = heads(x @ wq + bq), heads(x @ wk + bk), heads(x @ wv + bv)
    a = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / (H // HEADS) ** 0.5, axis=-1)
    ctx = (a @ v).transpose(0, 2, 1, 3).reshape(1, S, H)
    x = layernorm(x + ctx @ wo + bo, g1, b1)
    f = jax.nn.gelu(x @ w1 + c1, approximate=False) @ w2 + c2
    return layernorm(x + f, g2, b2)


def model(x, params):
    for p in params:
        x = layer(x, p)
    return x


def shapes():
    one = [(H, H), (H,), (H, H), (H,), (H, H), (H,), (H, H), (H,), (H,), (H,),
           (H, FF), (FF,), (FF, H), (H,), (H,), (H,)]
    return [[jax.ShapeDtypeStruct(s, jnp.float32) for s in one] for _ in range(L)]


if __name__ == "__main__":
    x = jax.ShapeDtypeStruct((1, S, H), jnp.float32)
    print(jax.jit(model).lower(x, shapes()).as_text())
