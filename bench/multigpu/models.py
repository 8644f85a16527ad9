"""The benchmark models and their Megatron shardings (shared by export.py
and bench_jax.py)."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

import os

# AIC_BENCH_SCALE=k divides the widths by k (a quick check of the scripts).
_K = int(os.environ.get("AIC_BENCH_SCALE", "1"))
WIDTH, HEADS, FF = 4096 // _K, max(32 // _K, 2), 16384 // _K
LLAMA_FF = 11008 // _K
SEQ = 512


def layernorm(x, g, b, eps=1e-5):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean(jnp.square(x - m), axis=-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + eps) * g + b


def gpt_block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):
    bsz, s, d = x.shape
    h = layernorm(x, g1, b1)

    def split(t):
        return t.reshape(bsz, s, HEADS, d // HEADS).transpose(0, 2, 1, 3)

    q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
    att = jnp.einsum("bhqd,bhkd->bhqk", q, k) * (1.0 / np.sqrt(d // HEADS))
    att = jax.nn.softmax(att.astype(jnp.float32), axis=-1).astype(x.dtype)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(bsz, s, d)
    x = x + o @ wo
    h = layernorm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1) @ w2


def llama_mlp(x, wg, wu, wd):
    return (jax.nn.silu(x @ wg) * (x @ wu)) @ wd


def _rand(rng, shape, scale, dt):
    return jnp.asarray((rng.standard_normal(shape) * scale).astype(np.float32), dtype=dt)


def gpt_inputs(tokens, dt):
    rng = np.random.RandomState(0)
    d = WIDTH
    w = 1 / np.sqrt(d)
    return [
        _rand(rng, (tokens // SEQ, SEQ, d), 1.0, dt),
        _rand(rng, (d,), 0.1, dt) + 1, _rand(rng, (d,), 0.1, dt),
        _rand(rng, (d, d), w, dt), _rand(rng, (d, d), w, dt), _rand(rng, (d, d), w, dt),
        _rand(rng, (d, d), w, dt),
        _rand(rng, (d,), 0.1, dt) + 1, _rand(rng, (d,), 0.1, dt),
        _rand(rng, (d, FF), w, dt), _rand(rng, (FF, d), 1 / np.sqrt(FF), dt),
    ]


def gpt_specs():
    rep = P()
    return [P(), rep, rep, P(None, "tp"), P(None, "tp"), P(None, "tp"), P("tp", None),
            rep, rep, P(None, "tp"), P("tp", None)]


def llama_inputs(tokens, dt):
    rng = np.random.RandomState(1)
    d = WIDTH
    return [
        _rand(rng, (tokens, d), 1.0, dt),
        _rand(rng, (d, LLAMA_FF), 1 / np.sqrt(d), dt),
        _rand(rng, (d, LLAMA_FF), 1 / np.sqrt(d), dt),
        _rand(rng, (LLAMA_FF, d), 1 / np.sqrt(LLAMA_FF), dt),
    ]


def llama_specs():
    return [P(), P(None, "tp"), P(None, "tp"), P("tp", None)]
