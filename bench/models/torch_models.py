"""PyTorch modules equivalent to `jax_models.py`, written the way PyTorch users
write them (F.layer_norm / F.rms_norm / F.group_norm in the storage type, SDPA for
attention so that eager and torch.compile both reach FlashAttention or cuDNN,
channels-last convolutions, F.batch_norm in inference mode). They take the same
activations and flat weight list as the JAX functions (JAX layouts: NHWC
activations, HWIO kernels, (in, out) matrices); `prepare` turns those into what
each module wants once, outside the timed region.
"""
import torch
import torch.nn.functional as F


EPS = 1e-5


def heads(t, n):
    b, s, h = t.shape
    return t.view(b, s, n, h // n).transpose(1, 2)


def merge(t):
    b, n, s, d = t.shape
    return t.transpose(1, 2).reshape(b, s, n * d)


def bert_layer(x, add, p, c):
    wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2 = p
    n, h = c["heads"], c["hidden"]
    q, k, v = heads(x @ wq + bq, n), heads(x @ wk + bk, n), heads(x @ wv + bv, n)
    a = merge(F.scaled_dot_product_attention(q, k, v, attn_mask=add))
    x = F.layer_norm(x + a @ wo + bo, (h,), g1, b1, 1e-12)
    f = F.gelu(x @ w1 + c1) @ w2 + c2
    return F.layer_norm(x + f, (h,), g2, b2, 1e-12)


def bert_encoder(x, add, p, c):
    per = len(p) // c["layers"]
    for i in range(c["layers"]):
        x = bert_layer(x, add, p[i * per:(i + 1) * per], c)
    return x


def gpt2_block(x, p, c, causal=True, approximate="tanh", eps=1e-5):
    g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, c1, w2, c2 = p
    n, h = c["heads"], c["hidden"]
    q, k, v = (F.layer_norm(x, (h,), g1, b1, eps) @ wqkv + bqkv).split(h, dim=-1)
    a = F.scaled_dot_product_attention(heads(q, n), heads(k, n), heads(v, n), is_causal=causal)
    x = x + merge(a) @ wo + bo
    f = F.gelu(F.layer_norm(x, (h,), g2, b2, eps) @ w1 + c1, approximate=approximate) @ w2 + c2
    return x + f


def vit_block(x, p, c):
    return gpt2_block(x, p, c, causal=False, approximate="none", eps=1e-6)


def rope(t, cos, sin):
    d = t.shape[-1]
    tf = t.float()
    x1, x2 = tf[..., : d // 2], tf[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).to(t.dtype)


def llama_block(x, p, c):
    g1, wq, wk, wv, wo, g2, wg, wu, wd = p
    n, nkv, h = c["heads"], c["kv_heads"], c["hidden"]
    s, d = x.shape[1], h // n
    inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d))
    ang = torch.arange(s, device=x.device, dtype=torch.float32)[:, None] * inv[None, :]
    cos, sin = ang.cos(), ang.sin()
    y = F.rms_norm(x, (h,), g1, 1e-6)
    q, k, v = rope(heads(y @ wq, n), cos, sin), rope(heads(y @ wk, nkv), cos, sin), heads(y @ wv, nkv)
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    x = x + merge(a) @ wo
    y = F.rms_norm(x, (h,), g2, 1e-6)
    return x + (F.silu(y @ wg) * (y @ wu)) @ wd


def resnet_bottleneck(x, p, c):
    w1, s1, t1, w2, s2, t2, w3, s3, t3 = p

    def bn(y, s, t):
        # running mean 0 and variance 1 - eps: exactly the folded scale and shift
        return F.batch_norm(y, c["zero"][: s.numel()], c["one"][: s.numel()], s, t, False, 0.0, EPS)

    y = F.relu(bn(F.conv2d(x, w1), s1, t1))
    y = F.relu(bn(F.conv2d(y, w2, padding=1), s2, t2))
    return F.relu(bn(F.conv2d(y, w3), s3, t3) + x)


def sd_resblock(x, temb, p, c):
    g1, b1, w1, c1, wt, ct, g2, b2, w2, c2 = p
    y = F.conv2d(F.silu(F.group_norm(x, 32, g1, b1, 1e-5)), w1, c1, padding=1)
    y = y + (F.silu(temb) @ wt + ct)[:, :, None, None]
    y = F.conv2d(F.silu(F.group_norm(y, 32, g2, b2, 1e-5)), w2, c2, padding=1)
    return x + y


MODULES = {
    "bert_layer": bert_layer,
    "bert_encoder": bert_encoder,
    "gpt2_block": gpt2_block,
    "llama_block": llama_block,
    "vit_block": vit_block,
    "resnet_bottleneck": resnet_bottleneck,
    "sd_resblock": sd_resblock,
}


def prepare(name, acts, weights, c):
    """(module, activations, weights) in PyTorch's layouts, from JAX-layout tensors;
    and a function that turns the module's output back into the JAX layout."""
    fn = MODULES[name]
    c = dict(c)
    back = lambda y: y
    if name in ("bert_layer", "bert_encoder"):
        x, mask = acts
        add = ((1.0 - mask.to(x.dtype)) * -10000.0)[:, None, None, :]
        acts = [x, add]
    if name in ("resnet_bottleneck", "sd_resblock"):
        # NHWC storage seen as channels-last NCHW; HWIO kernels as OIHW
        acts = [acts[0].permute(0, 3, 1, 2)] + list(acts[1:])
        weights = [w.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
                   if w.dim() == 4 else w for w in weights]
        back = lambda y: y.permute(0, 2, 3, 1)
    if name == "resnet_bottleneck":
        n = max(w.numel() for w in weights if w.dim() == 1)
        c["zero"] = torch.zeros(n, device=acts[0].device)
        c["one"] = torch.full((n,), 1.0 - EPS, device=acts[0].device)
    if name == "sd_resblock":
        # F.group_norm wants its affine weights in the input's type
        weights = [w.to(acts[0].dtype) if w.dim() == 1 else w for w in weights]
    return (lambda *a: fn(*a, c)), acts, weights, back
