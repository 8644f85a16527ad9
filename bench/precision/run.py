#!/usr/bin/env python3
"""Precision and sparsity on the GPU (issue 25's figures), in one process on
seeded inputs, numerics first:

    python3 bench/precision/run.py [--sections models,gemm,mlp,sparse] [--size real]
                                   [--models bert_layer,gpt2_block,llama_block] [--out FILE.json]
                                   [--aic DIR --aic-run PATH]

- models: the f32 BERT layer, GPT block and Llama block (bench/models/jax_models.py): jax.jit in
  f32 (the reference), aic on the f32 program, aic after auto-mixed-precision f16
  and bf16 (bundles NAME.SIZE.float32[.amp-f16|.amp-bf16] of build.sh), and
  jax.jit of the same model in bf16 on the inputs cast to bf16.
- gemm: 4096^3 against an f32 product of the same f16 inputs: cuBLAS f16,
  torch._int_mm (int8 x int8 -> int32, per-row activation and per-channel weight
  scales applied after), torch._scaled_mm fp8 e4m3 (per-tensor and per-row scales,
  cuBLASLt), aic f16, aic weight-only int8 and aic dynamic int8 (gemm.f16 /
  gemm.int8w / gemm.int8dyn bundles); and the bare int8 x int8 -> int32 GEMM,
  aic's (mma.sync s8, gemm.int8) against torch._int_mm alone on the same bytes,
  whose result it must equal exactly.
- mlp: Llama's MLP down(silu(gate(x)) * up(x)), 4096 tokens, hidden 4096, FFN
  14336, in the same forms (llama_mlp.f16 / llama_mlp.int8w / llama_mlp.int8dyn
  bundles).
- sparse: a 2:4-pruned f16 weight, 4096^3: dense cuBLAS against PyTorch's
  to_sparse_semi_structured (cuSPARSELt / CUTLASS sparse tensor cores), aic's
  dense f16 GEMM of the same pruned weight (gemm.f16) and aic's
  graph.sparse_matmul of it compressed (gemm.sparse24: values and positions
  [N, K/2], as sparsify stores them), run on sparse tensor cores (mma.sp).

aic's fp8 GEMMs run on wgmma e4m3 on sm_90a (mma.sync e4m3 elsewhere; gemm.fp8 / gemm.fp8dyn / llama_mlp.fp8
bundles, quantize{mode=fp8}'s scheme) and are compared with torch._scaled_mm
with the same scales; their weights are [N, K] under transpose_b. aic's 2:4
product compiles, but its GEMM generator does not lower it to mma.sp yet:
eqsat-fusion expands the weight and a dense GEMM runs (the row says so).

Errors: the largest absolute difference from the reference, that difference
relative to the reference's largest magnitude, and ||out - ref|| / ||ref||.
Times: PyTorch by triton.testing.do_bench (median ms), JAX by back-to-back calls,
aic by `aic-run --target=cuda --bench=N` (CUDA events around graph replays), as
bench/models/run.py does (whose helpers this script uses).
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402
import jax  # noqa: E402

import jax_models as M  # noqa: E402
import run as R  # noqa: E402  (bench/models/run.py)

R.NPY_DESCR[torch.int8] = "|i1"
NOT_BUILT = "not built in aic yet (issue 25)"


def errors(out, ref):
    o, r = out.float(), ref.float()
    if not torch.isfinite(o).all():
        return {"max_abs_err": float("nan"), "max_rel_err": float("nan"), "rel_err": float("nan")}
    d = (o - r).abs()
    return {"max_abs_err": float(d.max()), "max_rel_err": float(d.max() / r.abs().max()),
            "rel_err": float((o - r).norm() / r.norm())}


class Rows:
    def __init__(self):
        self.rows = []

    def add(self, section, case, impl, ms=None, flops=None, out=None, ref=None, **extra):
        row = {"section": section, "case": case, "impl": impl}
        if ms is not None:
            row["ms"] = round(ms, 4)
            if flops:
                row["tflops"] = round(flops / ms / 1e9, 1)
        if out is not None:
            row.update(errors(out, ref))
        row.update(extra)
        self.rows.append(row)
        print(json.dumps(row), flush=True)

    def fail(self, section, case, impl, e):
        self.add(section, case, impl, error=repr(e)[-400:])


def save_npy(path, t):
    """bench/models/run.py's save_npy, and fp8 tensors as their bytes in
    one-byte void elements (how ml_dtypes saves float8 and aic reads it)."""
    if t.dtype != F8:
        return R.save_npy(path, t)
    t = t.contiguous().cpu()
    raw = t.view(torch.int8).numpy().tobytes()
    hdr = "{'descr': '|V1', 'fortran_order': False, 'shape': %s, }" % (tuple(t.shape),)
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode() + raw)


def aic_run(a, name, inputs, out_dtype):
    """aic's median ms and result 0 (float32, on the GPU) for bundle `name`."""
    bundle = os.path.join(a.aic, name + ".bundle")
    if not os.path.exists(bundle):
        raise FileNotFoundError(bundle)
    d = os.path.join(a.work, name)
    ms, _ = R.bench_bundle(a.aic_run, bundle, inputs, d, a.aic_reps, save=save_npy, timeout=900)
    out = os.path.join(d, "out", "result0.npy")
    if out_dtype == torch.int32:
        return ms, load_i32(out).cuda()
    return ms, R.load_npy(out, out_dtype).cuda()


def load_i32(path):
    """An int32 result .npy of aic-run as a torch tensor (bench/models/run.py's
    load_npy reads floats)."""
    import numpy as np
    data = open(path, "rb").read()
    n = int.from_bytes(data[8:10], "little")
    hdr = data[10:10 + n].decode()
    assert "<i4" in hdr, hdr
    shape = tuple(int(x) for x in hdr.split("'shape': (")[1].split(")")[0].split(",") if x.strip())
    return torch.from_numpy(np.frombuffer(data[10 + n:], dtype=np.int32).copy()).reshape(shape)


def with_aic(rows, a, section, case, impl, name, inputs, out_dtype, ref, flops):
    if not a.aic:
        return
    try:
        ms, out = aic_run(a, name, inputs, out_dtype)
        rows.add(section, case, impl, ms, flops, out, ref)
    except Exception as e:  # a missing or failing bundle is a row, not the end
        rows.fail(section, case, impl, e)


def models(a, rows):
    for name in a.models.split(","):
        case = f"{name} {a.size}"
        try:
            fn, acts_sd, w_sd, c = M.spec(name, a.size, "float32")
            g = torch.Generator(device="cuda").manual_seed(1234)
            acts = [R.draw(g, s, "activation") for s in acts_sd]
            weights = [R.draw(g, s, "weight") for s in w_sd]
            flops = M.flops(name, c)
            jf = jax.jit(fn)
            jargs = ([R.to_jax(x) for x in acts], [R.to_jax(w) for w in weights])
            ref = R.to_torch(jf(*jargs[0], jargs[1])).float()
            rows.add("models", case, "jax.jit f32", R.bench_jax(jf, *jargs[0], jargs[1]), flops, ref, ref)
            key = f"{name}.{a.size}.float32"
            for impl, suffix in [("aic f32", ""), ("aic amp f16", ".amp-f16"), ("aic amp bf16", ".amp-bf16")]:
                with_aic(rows, a, "models", case, impl, key + suffix, acts + weights, torch.float32, ref, flops)
            fb, _, _, _ = M.spec(name, a.size, "bfloat16")
            down = lambda t: R.to_jax(t.to(torch.bfloat16).contiguous()) if t.is_floating_point() else R.to_jax(t)
            jb = jax.jit(fb)
            bargs = ([down(x) for x in acts], [down(w) for w in weights])
            out = R.to_torch(jb(*bargs[0], bargs[1])).float()
            rows.add("models", case, "jax.jit bf16", R.bench_jax(jb, *bargs[0], bargs[1]), flops, out, ref)
        except Exception as e:
            rows.fail("models", case, "", e)
        torch.cuda.empty_cache()


def quantize_rows(x):
    """Per-row symmetric int8 of x (activations): int8 values and f32 scales
    [rows, 1], torchao's per-token scheme (amax clamped at 1e-5, / 127, round
    half to even), which quantize{mode=int8-dynamic} computes too."""
    s = x.float().abs().amax(1, keepdim=True).clamp(min=1e-5) / 127.0
    return (x.float() / s).round().clamp(-127, 127).to(torch.int8), s


def quantize_cols(w):
    """Per-output-channel (column) symmetric int8 of w [K, N]."""
    s = (w.float().abs().amax(0, keepdim=True) / 127.0).clamp(min=1e-12)
    return (w.float() / s).round().clamp(-127, 127).to(torch.int8), s


def int8_mm(x, wq, sw):
    """torch._int_mm with dynamic per-row activation scales, dequantized after."""
    xq, sx = quantize_rows(x)
    return (torch._int_mm(xq, wq).float() * sx * sw).to(x.dtype)


F8 = torch.float8_e4m3fn
F8_MAX = 448.0


def fp8_weight(w, rowwise):
    """w [K, N] as e4m3 in column-major layout (what _scaled_mm takes) and its scale."""
    s = (w.float().abs().amax(0, keepdim=True) if rowwise else w.float().abs().max()) / F8_MAX
    s = s.clamp(min=1e-12)
    return (w.float() / s).to(F8).t().contiguous().t(), s.float()


def fp8_mm(x, wf8, sw, rowwise):
    """torch._scaled_mm of x (scaled to e4m3 per row or per tensor) by an e4m3 weight."""
    sx = (x.float().abs().amax(1, keepdim=True) if rowwise else x.float().abs().max()) / F8_MAX
    sx = sx.clamp(min=1e-12).float()
    xf8 = (x.float() / sx).to(F8)
    if not rowwise:
        sx, sw = sx.reshape(()), sw.reshape(())
    return torch._scaled_mm(xf8, wf8, scale_a=sx, scale_b=sw, out_dtype=torch.bfloat16)


def fp8_mm_rowwise_a(x, wf8, sw_row):
    """quantize{mode=fp8}'s scheme in torch: x scaled to e4m3 per row
    (max(amax, 1e-5) / 448, saturated), the weight's per-tensor scale as a
    [1, N] rowwise scale_b."""
    sx = (x.float().abs().amax(1, keepdim=True).clamp(min=1e-5) / F8_MAX).float()
    xf8 = (x.float() / sx).clamp(-F8_MAX, F8_MAX).to(F8)
    return torch._scaled_mm(xf8, wf8, scale_a=sx, scale_b=sw_row, out_dtype=torch.bfloat16)


def gemm(a, rows):
    m = n = k = 4096
    flops = 2 * m * n * k
    case = "gemm 4096^3"
    g = torch.Generator(device="cuda").manual_seed(1234)
    x = torch.randn(m, k, generator=g, device="cuda").half()
    w = (torch.randn(k, n, generator=g, device="cuda") / math.sqrt(k)).half()
    ref = x.float() @ w.float()
    rows.add("gemm", case, "torch f16 (cuBLAS)", R.bench_torch(lambda: x @ w), flops, x @ w, ref)
    wq, sw = quantize_cols(w)
    try:
        xq, _ = quantize_rows(x)
        rows.add("gemm", case, "torch._int_mm alone", R.bench_torch(lambda: torch._int_mm(xq, wq)), flops)
        rows.add("gemm", case, "torch._int_mm dynamic int8", R.bench_torch(lambda: int8_mm(x, wq, sw)), flops,
                 int8_mm(x, wq, sw), ref)
    except Exception as e:
        rows.fail("gemm", case, "torch._int_mm", e)
    for rowwise in (False, True):
        impl = f"torch._scaled_mm fp8 e4m3 {'per-row' if rowwise else 'per-tensor'}"
        try:
            wf8, s8 = fp8_weight(w, rowwise)
            rows.add("gemm", case, impl, R.bench_torch(lambda: fp8_mm(x, wf8, s8, rowwise)), flops,
                     fp8_mm(x, wf8, s8, rowwise), ref)
        except Exception as e:
            rows.fail("gemm", case, impl, e)
    with_aic(rows, a, "gemm", case, "aic f16", "gemm.f16", [x, w], torch.float16, ref, flops)
    with_aic(rows, a, "gemm", case, "aic int8 weight-only", "gemm.int8w", [x, wq, sw.reshape(-1).half()],
             torch.float16, ref, flops)
    with_aic(rows, a, "gemm", case, "aic dynamic int8 (mma.sync s8)", "gemm.int8dyn",
             [x, wq, sw.reshape(-1).float()], torch.float16, ref, flops)
    # The bare int8 x int8 -> int32 product: aic's must equal torch._int_mm's
    # exactly (the error columns are against _int_mm's result).
    try:
        xq, _ = quantize_rows(x)
        exact = torch._int_mm(xq, wq)
        with_aic(rows, a, "gemm", case + " int8 x int8 -> int32", "aic int8 x int8 (mma.sync s8)", "gemm.int8",
                 [xq, wq], torch.int32, exact.float(), flops)
        rows.add("gemm", case + " int8 x int8 -> int32", "torch._int_mm alone",
                 R.bench_torch(lambda: torch._int_mm(xq, wq)), flops, exact, exact.float())
    except Exception as e:
        rows.fail("gemm", case + " int8 x int8 -> int32", "aic int8 x int8", e)
    # fp8: quantize{mode=fp8}'s scheme (per-row activation scales at run time,
    # one per-tensor weight scale) against torch._scaled_mm with the same
    # scales (rowwise scale_a, the weight's scale repeated as scale_b), and
    # the bare e4m3 x e4m3 -> f32 product, aic's (mma.sync e4m3) against
    # _scaled_mm's with unit scales on the same bytes.
    try:
        wf8, s8 = fp8_weight(w, False)
        sw_row = s8.reshape(1, 1).expand(1, n).contiguous()
        same = lambda: fp8_mm_rowwise_a(x, wf8, sw_row)
        rows.add("gemm", case, "torch._scaled_mm fp8 e4m3 (aic's scales)", R.bench_torch(same), flops, same(), ref)
        # aic's fp8 weights are [N, K] under transpose_b (K-major, as
        # quantize{mode=fp8} stores them): wf8's column-major [K, N] bytes.
        with_aic(rows, a, "gemm", case, "aic fp8 e4m3 (wgmma e4m3 on sm_90a)", "gemm.fp8dyn",
                 [x, wf8.t().contiguous(), sw_row.reshape(-1).float()], torch.float16, ref, flops)
        xf8 = (x.float() / (x.float().abs().max() / F8_MAX)).to(F8)
        one = torch.ones((), device="cuda")
        bare = lambda: torch._scaled_mm(xf8, wf8, scale_a=one, scale_b=one, out_dtype=torch.float32)
        exact = bare()
        rows.add("gemm", case + " e4m3 x e4m3 -> f32", "torch._scaled_mm alone",
                 R.bench_torch(bare), flops, exact, exact)
        with_aic(rows, a, "gemm", case + " e4m3 x e4m3 -> f32", "aic e4m3 x e4m3 (wgmma e4m3 on sm_90a)", "gemm.fp8",
                 [xf8, wf8.t().contiguous()], torch.float32, exact, flops)
    except Exception as e:
        rows.fail("gemm", case, "fp8 e4m3", e)


def mlp(a, rows):
    t, h, f = 4096, 4096, 14336
    flops = 2 * t * h * f * 3
    case = "llama mlp 4096x4096x14336"
    g = torch.Generator(device="cuda").manual_seed(1234)
    x = torch.randn(t, h, generator=g, device="cuda").half()
    wg, wu = [(torch.randn(h, f, generator=g, device="cuda") / math.sqrt(h)).half() for _ in range(2)]
    wd = (torch.randn(f, h, generator=g, device="cuda") / math.sqrt(f)).half()
    silu = torch.nn.functional.silu
    ref = (silu(x.float() @ wg.float()) * (x.float() @ wu.float())) @ wd.float()
    dense = lambda: (silu(x @ wg) * (x @ wu)) @ wd
    rows.add("mlp", case, "torch f16 (cuBLAS)", R.bench_torch(dense), flops, dense(), ref)
    q = [quantize_cols(w) for w in (wg, wu, wd)]
    try:
        def int8():
            p = silu(int8_mm(x, *q[0])) * int8_mm(x, *q[1])
            return int8_mm(p, *q[2])
        rows.add("mlp", case, "torch._int_mm dynamic int8", R.bench_torch(int8), flops, int8(), ref)
    except Exception as e:
        rows.fail("mlp", case, "torch._int_mm", e)
    try:
        f8 = [fp8_weight(w, True) for w in (wg, wu, wd)]

        def fp8():
            p = (silu(fp8_mm(x, *f8[0], True)) * fp8_mm(x, *f8[1], True)).half()
            return fp8_mm(p, *f8[2], True)
        rows.add("mlp", case, "torch._scaled_mm fp8 e4m3 per-row", R.bench_torch(fp8), flops, fp8(), ref)
    except Exception as e:
        rows.fail("mlp", case, "torch._scaled_mm", e)
    with_aic(rows, a, "mlp", case, "aic f16", "llama_mlp.f16", [x, wg, wu, wd], torch.float16, ref, flops)
    ins = [x]
    for wq, s in q:
        ins += [wq, s.reshape(-1).half()]
    with_aic(rows, a, "mlp", case, "aic int8 weight-only", "llama_mlp.int8w", ins, torch.float16, ref, flops)
    ins = [x]
    for wq, s in q:
        ins += [wq, s.reshape(-1).float()]
    with_aic(rows, a, "mlp", case, "aic dynamic int8 (mma.sync s8)", "llama_mlp.int8dyn", ins, torch.float16,
             ref, flops)
    try:
        f8t = [fp8_weight(w, False) for w in (wg, wu, wd)]
        ins = [x]
        for wf8, s8 in f8t:
            ins += [wf8.t().contiguous(), s8.reshape(1).expand(wf8.shape[1]).contiguous().float()]
        with_aic(rows, a, "mlp", case, "aic fp8 e4m3 (wgmma e4m3 on sm_90a)", "llama_mlp.fp8", ins, torch.float16,
                 ref, flops)
    except Exception as e:
        rows.fail("mlp", case, "aic fp8", e)


def prune_2_4(w):
    """w [N, K] with the two smallest of every four along K zeroed."""
    groups = w.reshape(w.shape[0], -1, 4)
    keep = groups.abs().topk(2, dim=-1).indices
    mask = torch.zeros_like(groups, dtype=torch.bool).scatter_(-1, keep, True)
    return (groups * mask).reshape(w.shape)


def compress_2_4(w):
    """w [N, K] (at most two nonzeros in every four along K) as sparsify
    stores it: the two kept values of each group and their positions (in
    increasing order), [N, K/2] each."""
    groups = w.reshape(w.shape[0], -1, 4)
    keep = groups.abs().topk(2, dim=-1).indices.sort(dim=-1).values
    values = groups.gather(-1, keep).reshape(w.shape[0], -1)
    return values.contiguous(), keep.to(torch.int8).reshape(w.shape[0], -1).contiguous()


def sparse(a, rows):
    m = n = k = 4096
    flops = 2 * m * n * k
    case = "2:4 sparse gemm 4096^3"
    g = torch.Generator(device="cuda").manual_seed(1234)
    w = prune_2_4((torch.randn(n, k, generator=g, device="cuda") / math.sqrt(k)).half())
    xt = torch.randn(k, m, generator=g, device="cuda").half()
    ref = w.float() @ xt.float()
    rows.add("sparse", case, "torch dense f16 (cuBLAS)", R.bench_torch(lambda: w @ xt), flops, w @ xt, ref)
    try:
        from torch.sparse import to_sparse_semi_structured
        ws = to_sparse_semi_structured(w)
        rows.add("sparse", case, "torch to_sparse_semi_structured", R.bench_torch(lambda: ws @ xt), flops,
                 ws @ xt, ref)
    except Exception as e:
        rows.fail("sparse", case, "torch to_sparse_semi_structured", e)
    # aic computes y[M, N] = x[M, K] · W^T: the transposed problem of w @ xt.
    x = xt.t().contiguous()
    ref_t = ref.t().contiguous()
    with_aic(rows, a, "sparse", case, "aic dense f16", "gemm.f16", [x, w.t().contiguous()], torch.float16,
             ref_t, flops)
    v, m = compress_2_4(w)
    with_aic(rows, a, "sparse", case, "aic graph.sparse_matmul (mma.sp)",
             "gemm.sparse24", [x, v, m], torch.float16, ref_t, flops)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sections", default="models,gemm,mlp,sparse")
    ap.add_argument("--models", default="bert_layer,gpt2_block,llama_block")
    ap.add_argument("--size", default="real")
    ap.add_argument("--out")
    ap.add_argument("--aic", help="folder of the bundles bench/precision/build.sh made")
    ap.add_argument("--aic-run", default="aic-run")
    ap.add_argument("--aic-reps", type=int, default=50)
    ap.add_argument("--work", default="/tmp/aic-precision")
    a = ap.parse_args()
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "jax": jax.__version__}), flush=True)
    rows = Rows()
    for s in a.sections.split(","):
        {"models": models, "gemm": gemm, "mlp": mlp, "sparse": sparse}[s](a, rows)
        torch.cuda.empty_cache()
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows.rows, f, indent=1)
    print("\n| section | case | impl | ms | TFLOP/s | max abs err | max rel err | ||err||/||ref|| |")
    print("|---|---|---|---|---|---|---|---|")
    fmt = lambda r, k: f"{r[k]:.2e}" if k in r else ""
    for r in rows.rows:
        note = r.get("error", r.get("note", ""))[:80]
        print(f"| {r['section']} | {r['case']} | {r['impl']} | {r.get('ms', note)} | {r.get('tflops', '')} | "
              f"{fmt(r, 'max_abs_err')} | {fmt(r, 'max_rel_err')} | {fmt(r, 'rel_err')} |")


if __name__ == "__main__":
    main()
