"""The model suite, written in JAX the way users write these models: f16/bf16
storage, layernorm/RMSNorm/softmax/GroupNorm computed in f32 through casts,
exact-erf GeLU where the original model uses it, causal masks by select, a fused
QKV projection split by slices, RoPE computed in the graph, grouped-query
attention, SwiGLU, NHWC convolutions with inference-mode batch norm.

Each model is a function of its activations and a flat list of weights, so the
exported StableHLO takes weights as arguments (nothing large is committed; the
benchmark seeds them on the GPU machine). `SUITE` lists every model with its real
size ("real") and a small size ("small") for host tests; `spec(name, size, dtype)`
returns the function and the argument shapes.
"""
import math

import jax
import jax.numpy as jnp
from jax import lax

F32 = jnp.float32


# ---------------------------------------------------------------- building blocks
def layernorm(x, g, b, eps=1e-5):
    xf = x.astype(F32)
    m = xf.mean(-1, keepdims=True)
    v = ((xf - m) ** 2).mean(-1, keepdims=True)
    y = (xf - m) * lax.rsqrt(v + eps) * g.astype(F32) + b.astype(F32)
    return y.astype(x.dtype)


def rmsnorm(x, g, eps=1e-6):
    xf = x.astype(F32)
    y = xf * lax.rsqrt((xf * xf).mean(-1, keepdims=True) + eps)
    return (y * g.astype(F32)).astype(x.dtype)


def softmax_f32(s):
    return jax.nn.softmax(s.astype(F32), axis=-1).astype(s.dtype)


def heads(t, n):
    b, s, h = t.shape
    return t.reshape(b, s, n, h // n).transpose(0, 2, 1, 3)


def merge(t):
    b, n, s, d = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, s, n * d)


def attention(q, k, v, mask=None, causal=False):
    d = q.shape[-1]
    s = (q @ k.swapaxes(-1, -2)) / math.sqrt(d)
    if causal:
        n = s.shape[-1]
        keep = jnp.tril(jnp.ones((n, n), bool))
        s = jnp.where(keep, s, jnp.asarray(-jnp.inf, s.dtype))
    if mask is not None:
        s = s + mask
    return softmax_f32(s) @ v


# ---------------------------------------------------------------- models
def bert_layer(x, mask, p, c):
    """HuggingFace BertLayer (post-LN), padding mask (B, S) of 0/1."""
    wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2 = p
    n = c["heads"]
    add = ((1.0 - mask.astype(x.dtype)) * jnp.asarray(-10000.0, x.dtype))[:, None, None, :]
    q, k, v = heads(x @ wq + bq, n), heads(x @ wk + bk, n), heads(x @ wv + bv, n)
    a = merge(attention(q, k, v, mask=add))
    x = layernorm(x + a @ wo + bo, g1, b1, 1e-12)
    f = jax.nn.gelu(x @ w1 + c1, approximate=False) @ w2 + c2
    return layernorm(x + f, g2, b2, 1e-12)


def bert_encoder(x, mask, p, c):
    per = len(p) // c["layers"]
    for i in range(c["layers"]):
        x = bert_layer(x, mask, p[i * per:(i + 1) * per], c)
    return x


def gpt2_block(x, p, c):
    """GPT-2 block (pre-LN), fused QKV split by slices, causal, tanh GeLU."""
    g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, c1, w2, c2 = p
    n = c["heads"]
    h = layernorm(x, g1, b1)
    q, k, v = jnp.split(h @ wqkv + bqkv, 3, axis=-1)
    a = merge(attention(heads(q, n), heads(k, n), heads(v, n), causal=True))
    x = x + a @ wo + bo
    f = jax.nn.gelu(layernorm(x, g2, b2) @ w1 + c1, approximate=True) @ w2 + c2
    return x + f


def rope(t, pos, theta=10000.0):
    d = t.shape[-1]
    inv = 1.0 / (theta ** (jnp.arange(0, d, 2, dtype=F32) / d))
    ang = pos[:, None].astype(F32) * inv[None, :]
    cos, sin = jnp.cos(ang), jnp.sin(ang)
    tf = t.astype(F32)
    x1, x2 = tf[..., : d // 2], tf[..., d // 2:]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).astype(t.dtype)


def llama_block(x, p, c):
    """Llama-style decoder block: RMSNorm, RoPE, grouped-query causal attention, SwiGLU."""
    g1, wq, wk, wv, wo, g2, wg, wu, wd = p
    n, nkv = c["heads"], c["kv_heads"]
    b, s, _ = x.shape
    h = rmsnorm(x, g1)
    pos = jnp.arange(s)
    q = rope(heads(h @ wq, n), pos)
    k = rope(heads(h @ wk, nkv), pos)
    v = heads(h @ wv, nkv)
    k, v = jnp.repeat(k, n // nkv, axis=1), jnp.repeat(v, n // nkv, axis=1)
    x = x + merge(attention(q, k, v, causal=True)) @ wo
    h = rmsnorm(x, g2)
    return x + (jax.nn.silu(h @ wg) * (h @ wu)) @ wd


def vit_block(x, p, c):
    """ViT-B/16 encoder block (pre-LN), exact GeLU."""
    g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, c1, w2, c2 = p
    n = c["heads"]
    q, k, v = jnp.split(layernorm(x, g1, b1, 1e-6) @ wqkv + bqkv, 3, axis=-1)
    x = x + merge(attention(heads(q, n), heads(k, n), heads(v, n))) @ wo + bo
    f = jax.nn.gelu(layernorm(x, g2, b2, 1e-6) @ w1 + c1, approximate=False) @ w2 + c2
    return x + f


def conv(x, w, stride=1, pad="SAME"):
    return lax.conv_general_dilated(x, w, (stride, stride), pad,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def batchnorm(x, scale, shift):
    """Inference-mode batch norm folded to a per-channel scale and shift (f32)."""
    return (x.astype(F32) * scale + shift).astype(x.dtype)


def resnet_bottleneck(x, p, c):
    """ResNet-50 bottleneck (NHWC): 1x1, 3x3, 1x1 convolutions, batch norm, ReLU, residual."""
    w1, s1, t1, w2, s2, t2, w3, s3, t3 = p
    h = jax.nn.relu(batchnorm(conv(x, w1), s1, t1))
    h = jax.nn.relu(batchnorm(conv(h, w2), s2, t2))
    return jax.nn.relu(batchnorm(conv(h, w3), s3, t3) + x)


def groupnorm(x, g, b, groups=32, eps=1e-5):
    n, hh, ww, c = x.shape
    xf = x.astype(F32).reshape(n, hh, ww, groups, c // groups)
    m = xf.mean((1, 2, 4), keepdims=True)
    v = ((xf - m) ** 2).mean((1, 2, 4), keepdims=True)
    y = ((xf - m) * lax.rsqrt(v + eps)).reshape(n, hh, ww, c)
    return (y * g + b).astype(x.dtype)


def sd_resblock(x, temb, p, c):
    """Stable-Diffusion UNet ResnetBlock2D (NHWC): GroupNorm, SiLU, 3x3 conv, time embedding."""
    g1, b1, w1, c1, wt, ct, g2, b2, w2, c2 = p
    h = conv(jax.nn.silu(groupnorm(x, g1, b1)), w1) + c1
    h = h + (jax.nn.silu(temb) @ wt + ct)[:, None, None, :]
    h = conv(jax.nn.silu(groupnorm(h, g2, b2)), w2) + c2
    return x + h


# ---------------------------------------------------------------- sizes and weights
BERT = {"hidden": 768, "heads": 12, "ffn": 3072}
GPT2 = {"hidden": 1024, "heads": 16, "ffn": 4096}
LLAMA = {"hidden": 4096, "heads": 32, "kv_heads": 8, "ffn": 14336}
VIT = {"hidden": 768, "heads": 12, "ffn": 3072}


def bert_layer_weights(h, f):
    return [(h, h), (h,), (h, h), (h,), (h, h), (h,), (h, h), (h,), (h,), (h,),
            (h, f), (f,), (f, h), (h,), (h,), (h,)]


def gpt_weights(h, f):
    return [(h,), (h,), (h, 3 * h), (3 * h,), (h, h), (h,), (h,), (h,), (h, f), (f,), (f, h), (h,)]


SIZES = {
    # name: {size: (activation shapes, weight shapes, config overrides)}
    "bert_layer": {"real": dict(b=8, s=512, **BERT), "small": dict(b=2, s=16, hidden=64, heads=2, ffn=128)},
    "bert_encoder": {"real": dict(b=8, s=512, layers=12, **BERT),
                     "small": dict(b=2, s=16, layers=2, hidden=64, heads=2, ffn=128)},
    "gpt2_block": {"real": dict(b=8, s=1024, **GPT2), "small": dict(b=2, s=16, hidden=64, heads=2, ffn=128)},
    "llama_block": {"real": dict(b=1, s=2048, **LLAMA),
                    "small": dict(b=1, s=16, hidden=128, heads=4, kv_heads=2, ffn=192)},
    "vit_block": {"real": dict(b=32, s=197, **VIT), "small": dict(b=2, s=17, hidden=64, heads=2, ffn=128)},
    "resnet_bottleneck": {"real": dict(b=32, hw=56, c=256, mid=64), "small": dict(b=2, hw=8, c=32, mid=8)},
    "sd_resblock": {"real": dict(b=2, hw=64, c=320, temb=1280), "small": dict(b=1, hw=8, c=64, temb=32)},
}


def spec(name, size="real", dtype="float16"):
    """(function of (*activations, weights), activation ShapeDtypeStructs, weight
    ShapeDtypeStructs, config)."""
    c = dict(SIZES[name][size])
    dt = jnp.dtype(dtype)
    S = lambda shape, d=dt: jax.ShapeDtypeStruct(tuple(shape), d)
    if name in ("bert_layer", "bert_encoder"):
        w = bert_layer_weights(c["hidden"], c["ffn"]) * c.get("layers", 1)
        acts = [S((c["b"], c["s"], c["hidden"])), S((c["b"], c["s"]), jnp.int32)]
        fn = bert_layer if name == "bert_layer" else bert_encoder
    elif name == "gpt2_block":
        w, acts, fn = gpt_weights(c["hidden"], c["ffn"]), [S((c["b"], c["s"], c["hidden"]))], gpt2_block
    elif name == "vit_block":
        w, acts, fn = gpt_weights(c["hidden"], c["ffn"]), [S((c["b"], c["s"], c["hidden"]))], vit_block
    elif name == "llama_block":
        h, f, kv = c["hidden"], c["ffn"], c["hidden"] // c["heads"] * c["kv_heads"]
        w = [(h,), (h, h), (h, kv), (h, kv), (h, h), (h,), (h, f), (h, f), (f, h)]
        acts, fn = [S((c["b"], c["s"], h))], llama_block
    elif name == "resnet_bottleneck":
        ch, m = c["c"], c["mid"]
        w = [(1, 1, ch, m), (m,), (m,), (3, 3, m, m), (m,), (m,), (1, 1, m, ch), (ch,), (ch,)]
        acts, fn = [S((c["b"], c["hw"], c["hw"], ch))], resnet_bottleneck
        # batch-norm scale and shift stay f32, as frameworks keep them
        wd = [dt, F32, F32] * 3
        return bind(fn, c), acts, [S(s, d) for s, d in zip(w, wd)], c
    elif name == "sd_resblock":
        ch, t = c["c"], c["temb"]
        w = [(ch,), (ch,), (3, 3, ch, ch), (ch,), (t, ch), (ch,), (ch,), (ch,), (3, 3, ch, ch), (ch,)]
        acts = [S((c["b"], c["hw"], c["hw"], ch)), S((c["b"], t))]
        fn = sd_resblock
        wd = [F32, F32, dt, dt, dt, dt, F32, F32, dt, dt]
        return bind(fn, c), acts, [S(s, d) for s, d in zip(w, wd)], c
    else:
        raise KeyError(name)
    return bind(fn, c), acts, [S(s) for s in w], c


def bind(fn, c):
    return lambda *args: fn(*args, c)


def flops(name, c):
    """Matrix-multiply FLOPs of one call (2 per multiply-add), for achieved-rate columns."""
    if name in ("bert_layer", "bert_encoder", "gpt2_block", "vit_block"):
        b, s, h, f = c["b"], c["s"], c["hidden"], c["ffn"]
        one = 2 * b * s * (4 * h * h + 2 * h * f) + 4 * b * s * s * h
        return one * c.get("layers", 1)
    if name == "llama_block":
        b, s, h, f = c["b"], c["s"], c["hidden"], c["ffn"]
        kv = h // c["heads"] * c["kv_heads"]
        return 2 * b * s * (2 * h * h + 2 * h * kv + 3 * h * f) + 4 * b * s * s * h
    if name == "resnet_bottleneck":
        px, ch, m = c["b"] * c["hw"] ** 2, c["c"], c["mid"]
        return 2 * px * (ch * m + 9 * m * m + m * ch)
    if name == "sd_resblock":
        px, ch = c["b"] * c["hw"] ** 2, c["c"]
        return 2 * px * 9 * ch * ch * 2 + 2 * c["b"] * c["temb"] * ch
    raise KeyError(name)


SUITE = list(SIZES)
