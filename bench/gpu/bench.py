"""aic's kernels on the GPU next to PyTorch, in one run.

    python3 bench/gpu/bench.py bench                 # the cases: numerics and times
    python3 bench/gpu/bench.py table ROWS.json       # the markdown table of a run's rows
    python3 bench/gpu/bench.py compare OUTDIR FIXTURE # aic-run's result<i>.npy against FIXTURE.out<i>.npy
    python3 bench/gpu/bench.py math                  # accuracy of the GPU math expansions (ulp)

`bench` loads each case's bundle (bench/gpu/build/<case>.bundle, made by
build.sh), launches its kernels through CuPy in the order of the manifest's
launches, checks the output (poisoned with NaN first) against a float32
truth, and times aic and each reference a user would compare with (SDPA's
default and each backend forced, torch.compile of the form Inductor rewrites
to SDPA, cuBLASLt's fused GeLU epilogue, the bare cuBLAS GEMM, torch.compile,
a device-to-device copy of the same bytes for the memory-bound cases) with
triton's do_bench (median ms, L2 flushed before each run). Prints one JSON
line per (case, implementation), writes them to $OUT/bench.json as they
come, and prints a markdown table last. $BUNDLES names other folders of bundles
(comma-separated: variants built with other settings, each timed against
the same PyTorch run) and $CASES a comma-separated subset of the cases.
"""
import json, math, os, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import aic_bundle  # noqa: E402


def compare(outdir, fixture):
    ok = True
    i = 0
    while os.path.exists(f"{fixture}.out{i}.npy"):
        want = np.load(f"{fixture}.out{i}.npy").astype(np.float64)
        got = np.load(os.path.join(outdir, f"result{i}.npy")).astype(np.float64)
        err = float(np.max(np.abs(got - want) / (1.0 + np.abs(want)))) if want.size else 0.0
        good = got.shape == want.shape and err <= 1e-3
        ok &= good
        print(f"  {os.path.basename(fixture)} out{i} {list(want.shape)}: {'ok' if good else 'MISMATCH'} vs JAX, largest difference {err:.2e}")
        i += 1
    return ok


DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32", "i64": "int64", "i1": "bool"}


def splat(text):
    """A tensor from a splat constant as MLIR writes it: `dense<1.0> : tensor<4xf32>`."""
    import torch
    value, ty = text.split(" : ")
    value = value.strip()[len("dense<"):-1]
    dims = ty.strip()[len("tensor<"):-1].split("x")
    shape, elem = [int(d) for d in dims[:-1]], dims[-1]
    dtype = getattr(torch, DTYPES[elem])
    v = {"true": 1, "false": 0}.get(value, None)
    v = float(value) if v is None else v
    return torch.full(shape, v, dtype=dtype, device="cuda")


class Compiled:
    """A bundle's kernels, launched in the manifest's order on torch tensors."""

    def __init__(self, path):
        import cupy as cp
        import torch
        self.man, ptx = aic_bundle.read(path)
        f = tempfile.NamedTemporaryFile(suffix=".ptx", delete=False)
        f.write(ptx)
        f.close()
        self.mod = cp.RawModule(path=f.name)
        self.kernels = {k["name"]: k for k in self.man["kernels"]}
        self.fns = {}
        for k in self.man["kernels"]:
            fn = self.mod.get_function(k["name"])
            if k["shared_bytes"] > 48 * 1024:
                fn.max_dynamic_shared_size_bytes = k["shared_bytes"]
            self.fns[k["name"]] = fn
        self.torch, self.cp = torch, cp

    def prepare(self, args):
        """Allocates every launch's outputs once; returns a function that runs
        the launch sequence and the final outputs."""
        torch, cp = self.torch, self.cp
        values = {f"arg{i}": a.contiguous() for i, a in enumerate(args)}
        plan = []
        for li, l in enumerate(self.man["launches"]):
            k = self.kernels[l["kernel"]]
            ins = []
            for name in l["inputs"]:
                if name.startswith("const:") and name not in values:
                    values[name] = splat(name[len("const:"):])
                if name not in values:
                    raise RuntimeError(f"launch {li} reads {name}: only launch sequences run here")
                ins.append(values[name])
            outs = []
            for p, name in zip(k["params"][len(ins):], l["outputs"]):
                t = torch.zeros(p["shape"], dtype=getattr(torch, DTYPES[p["elem"]]), device="cuda")
                values[name] = t
                outs.append(t)
            fn = self.fns[k["name"]]
            if k.get("tensor_maps"):
                # CuPy passes no 128-byte by-value parameters: the driver's
                # own launch, with the tensor maps encoded as aic-run does.
                plan.append(tma_launch(fn, k, [t.data_ptr() for t in ins + outs]))
                continue
            ptrs = tuple(cp.uint64(t.data_ptr()) for t in ins + outs)
            plan.append(lambda fn=fn, k=k, ptrs=ptrs: fn(tuple(k["grid"]), tuple(k["block"]), ptrs,
                                                         shared_mem=k["shared_bytes"]))
        finals = [values[o] for o in self.man["launches"][-1]["outputs"]]

        def run():
            for launch in plan:
                launch()
        return run, finals


def tma_launch(fn, k, pointers):
    """A launch of kernel `k` (CuPy function `fn`) whose parameters are its
    buffers' device pointers and then its TMA tensor maps (the manifest's
    `tensor_maps`, encoded by cuTensorMapEncodeTiled as backends/runtime's
    cuda.rs does: 2-D, innermost dimension first, zeros out of bounds, L2
    promotion of 128 bytes), through cuLaunchKernel on the legacy stream."""
    import ctypes
    cuda = ctypes.CDLL("libcuda.so.1")
    u64, u32 = ctypes.c_uint64, ctypes.c_uint32
    keep = []
    params = [u64(p) for p in pointers]
    for t in k["tensor_maps"]:
        raw = ctypes.create_string_buffer(256)
        at = (ctypes.addressof(raw) + 63) // 64 * 64  # CUtensorMap is 64-byte aligned
        dtype = {1: 0, 2: 1, 4: 2, 8: 4}[t["elem_bytes"]]
        swizzle = {0: 0, 32: 1, 64: 2, 128: 3}[t["swizzle"]]
        dims = (u64 * 2)(t["shape"][1], t["shape"][0])
        strides = (u64 * 1)(t["row_stride"] * t["elem_bytes"])
        boxes = (u32 * 2)(t["box_shape"][1], t["box_shape"][0])
        steps = (u32 * 2)(1, 1)
        r = cuda.cuTensorMapEncodeTiled(ctypes.c_void_p(at), dtype, 2, ctypes.c_void_p(pointers[t["buffer"]]),
                                        dims, strides, boxes, steps, 0, swizzle, 2, 0)
        if r != 0:
            raise RuntimeError(f"cuTensorMapEncodeTiled: CUresult {r} for {k['name']}")
        keep.append(raw)
        params.append(ctypes.c_void_p(at))
    # kernelParams: a pointer to each parameter's value (a tensor map's is its bytes).
    argv = (ctypes.c_void_p * len(params))(*[p.value if isinstance(p, ctypes.c_void_p) else ctypes.addressof(p)
                                              for p in params])
    keep += [params, argv]
    gx, gy, gz = k["grid"]
    bx, by, bz = k["block"]
    f = ctypes.c_void_p(fn.kernel.ptr)  # the RawKernel's cupy.cuda.function.Function

    def launch():
        r = cuda.cuLaunchKernel(f, gx, gy, gz, bx, by, bz, k["shared_bytes"], None, argv, None)
        if r != 0:
            raise RuntimeError(f"cuLaunchKernel: CUresult {r} for {k['name']}")
    launch.keep = keep
    return launch


def kernel_names(fn):
    """The CUDA kernels one call of `fn` launches (PyTorch's profiler): which
    library kernel a reference ran (cuDNN, FlashAttention, a cuBLASLt epilogue)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as p:
            fn()
            torch.cuda.synchronize()
        names = []
        for e in p.events():
            if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in names:
                names.append(e.name)
        return [n[:100] for n in names[:4]]
    except Exception as e:  # the profiler is a nicety: report and go on
        return [f"profiler failed: {e!r}"[:100]]


def rel_err(got, want):
    """Largest |got - want| / (1 + |want|), in f32 (NaN counts as infinite)."""
    d = ((got.float() - want).abs() / (1 + want.abs())).max().item()
    return float("inf") if math.isnan(d) else d


class Case:
    """One benchmark case: aic's bundle `name`, the inputs, a float32 truth
    every implementation is checked against, and the references timed beside
    aic (impl label, function of the same inputs, whether it computes the
    whole case: a bare GEMM does not, so its error is not reported)."""

    def __init__(self, name, label, make, truth, refs, flops=None, nbytes=None, tol=2e-2, copy=False):
        self.name, self.label, self.make, self.truth, self.refs = name, label, make, truth, refs
        self.flops, self.nbytes, self.tol, self.copy = flops, nbytes, tol, copy


def cases():
    """The cases: references chosen as a user would compare (issue 24, item 5)."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dev = "cuda"
    h, bf = torch.float16, torch.bfloat16

    def compiled(fn):
        return torch.compile(fn, dynamic=False)

    def forced(backend, **kw):
        def run(q, k, v, *_):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, **kw)
        return run

    def giou(b1, b2):
        eps = 1e-7
        px1, py1, px2, py2 = (b1[..., i] for i in range(4))
        tx1, ty1, tx2, ty2 = (b2[..., i] for i in range(4))
        area_p = (px2 - px1) * (py2 - py1)
        area_t = (tx2 - tx1) * (ty2 - ty1)
        iw = torch.clamp(torch.minimum(px2, tx2) - torch.maximum(px1, tx1), min=0.0)
        ih = torch.clamp(torch.minimum(py2, ty2) - torch.maximum(py1, ty1), min=0.0)
        inter = iw * ih
        union = area_p + area_t - inter
        iou = inter / (union + eps)
        cw = torch.maximum(px2, tx2) - torch.minimum(px1, tx1)
        ch = torch.maximum(py2, ty2) - torch.minimum(py1, ty1)
        area_c = cw * ch
        g = iou - (area_c - union) / (area_c + eps)
        return torch.mean(1.0 - g)

    def boxes(n, m):
        tl = torch.randint(0, 255, (n, m, 2), device=dev).float()
        sz = torch.randint(1, 256, (n, m, 2), device=dev).float()
        return torch.cat([tl, (tl + sz).clamp(max=255)], -1)

    def f32(*xs):
        return [x.float() for x in xs]

    def gelu_bias(a, w, b):
        return F.gelu(F.linear(a, w, b), approximate="tanh")

    def ck(a, b, d0, d1):
        return F.gelu(a @ b + d0 + d1, approximate="tanh")

    out = [
        Case("gemm_bias_gelu", "gemm_bias_gelu_4096x1024x4096_f16",
             lambda: (torch.randn(4096, 1024, dtype=h, device=dev), torch.randn(4096, 1024, dtype=h, device=dev) * 0.02,
                      torch.randn(4096, dtype=h, device=dev)),
             lambda a, w, b: gelu_bias(*f32(a, w, b)),
             [("cuBLASLt GELU_BIAS epilogue (torch._addmm_activation)", lambda a, w, b: torch._addmm_activation(b, a, w.t(), use_gelu=True), True),
              ("cuBLAS GEMM alone (torch.mm, no bias/GeLU)", lambda a, w, b: torch.mm(a, w.t()), False),
              ("eager", gelu_bias, True),
              ("torch.compile", compiled(gelu_bias), True)],
             flops=2 * 4096 * 4096 * 1024),
        # gemm_bias_gelu's GEMM alone: what aic's epilogue costs there.
        Case("gemm_nt_4096x4096x1024", "gemm_nt_4096x4096x1024_f16",
             lambda: (torch.randn(4096, 1024, dtype=h, device=dev), torch.randn(4096, 1024, dtype=h, device=dev) * 0.02),
             lambda a, w: a.float() @ w.float().t(),
             [("cuBLAS (torch.mm)", lambda a, w: torch.mm(a, w.t()), True)],
             flops=2 * 4096 * 4096 * 1024),
        Case("gemm_add_add_fastgelu", "gemm_add_add_fastgelu_3840x4096x4096_f16",
             lambda: (torch.randn(3840, 4096, dtype=h, device=dev), torch.randn(4096, 4096, dtype=h, device=dev) * 0.02,
                      torch.randn(3840, 4096, dtype=h, device=dev), torch.randn(3840, 4096, dtype=h, device=dev)),
             lambda *x: ck(*f32(*x)),
             [("torch.compile", compiled(ck), True),
              ("cuBLAS GEMM alone (torch.mm, no epilogue)", lambda a, b, d0, d1: torch.mm(a, b), False),
              ("eager", ck, True)],
             flops=2 * 3840 * 4096 * 4096),
    ]
    # Skinny and long-K GEMMs, whose tiles leave SMs idle (split-K).
    out += [
        Case("gemm_splitk_64x4096x4096", "gemm_splitk_64x4096x4096_f16",
             lambda: (torch.randn(64, 4096, dtype=h, device=dev), torch.randn(4096, 4096, dtype=h, device=dev) * 0.02),
             lambda a, w: a.float() @ w.float().t(),
             [("cuBLAS (torch.mm)", lambda a, w: torch.mm(a, w.t()), True)],
             flops=2 * 64 * 4096 * 4096, nbytes=2 * (64 * 4096 * 2 + 4096 * 4096)),
        *[Case(f"gemm_splitk_{m}x4096x4096", f"gemm_splitk_{m}x4096x4096_f16",
               lambda m=m: (torch.randn(m, 4096, dtype=h, device=dev), torch.randn(4096, 4096, dtype=h, device=dev) * 0.02),
               lambda a, w: a.float() @ w.float().t(),
               [("cuBLAS (torch.mm)", lambda a, w: torch.mm(a, w.t()), True)],
               flops=2 * m * 4096 * 4096, nbytes=2 * (m * 4096 * 2 + 4096 * 4096))
          for m in (1, 8, 16, 32)],
        Case("gemm_splitk_1024x1024x16384", "gemm_splitk_1024x1024x16384_f16",
             lambda: (torch.randn(1024, 16384, dtype=h, device=dev), torch.randn(16384, 1024, dtype=h, device=dev) * 0.02),
             lambda a, b: a.float() @ b.float(),
             [("cuBLAS (torch.mm)", torch.mm, True)],
             flops=2 * 1024 * 1024 * 16384),
        Case("gemm_splitk_bias_gelu_256x4096x8192", "gemm_splitk_bias_gelu_256x4096x8192_f16",
             lambda: (torch.randn(256, 8192, dtype=h, device=dev), torch.randn(4096, 8192, dtype=h, device=dev) * 0.02,
                      torch.randn(4096, dtype=h, device=dev)),
             lambda a, w, b: gelu_bias(*f32(a, w, b)),
             [("cuBLASLt GELU_BIAS epilogue (torch._addmm_activation)", lambda a, w, b: torch._addmm_activation(b, a, w.t(), use_gelu=True), True),
              ("cuBLAS GEMM alone (torch.mm, no bias/GeLU)", lambda a, w, b: torch.mm(a, w.t()), False),
              ("torch.compile", compiled(gelu_bias), True)],
             flops=2 * 256 * 4096 * 8192),
    ]
    # Transformers' linear layers (BERT-base, GPT-2 medium, ViT-B at 6304
    # tokens, a Llama block), bias and, on the FFN's first, GeLU: against
    # cuBLASLt's fused epilogue (with GeLU) or cuBLAS's addmm.
    for m, n, k, gelu in ((4096, 3072, 768, True), (4096, 768, 768, False), (4096, 768, 3072, False),
                          (8192, 1024, 1024, False), (8192, 4096, 1024, True), (6304, 768, 768, False),
                          (6304, 2304, 768, False), (6304, 3072, 768, True), (2048, 1024, 4096, False)):
        name = f"linear_{m}x{n}x{k}" + ("_gelu" if gelu else "")
        lin = gelu_bias if gelu else (lambda a, w, b: F.linear(a, w, b))
        ref = ((lambda a, w, b: torch._addmm_activation(b, a, w.t(), use_gelu=True)) if gelu
               else (lambda a, w, b: torch.addmm(b, a, w.t())))
        out.append(Case(name, f"{name}_f16",
                        lambda m=m, n=n, k=k: (torch.randn(m, k, dtype=h, device=dev),
                                               torch.randn(n, k, dtype=h, device=dev) * 0.02,
                                               torch.randn(n, dtype=h, device=dev)),
                        lambda a, w, b, lin=lin: lin(*f32(a, w, b)),
                        [("cuBLASLt GELU_BIAS epilogue (torch._addmm_activation)" if gelu
                          else "cuBLAS addmm (bias in the GEMM)", ref, True),
                         ("cuBLAS GEMM alone (torch.mm, no epilogue)", lambda a, w, b: torch.mm(a, w.t()), False),
                         ("torch.compile", compiled(lin), True)],
                        flops=2 * m * n * k))
    for dt, tn in ((h, "f16"), (bf, "bf16")):
        out.append(Case(f"gemm_8192_{tn}", f"gemm_8192x8192x8192_{tn}",
                        lambda dt=dt: (torch.randn(8192, 8192, dtype=dt, device=dev), torch.randn(8192, 8192, dtype=dt, device=dev)),
                        lambda a, b: a.float() @ b.float(),
                        [("cuBLAS (torch.mm)", torch.mm, True)],
                        flops=2 * 8192 ** 3))

    def attn_truth(scale, causal):
        def truth(q, k, v, *_):
            o = torch.empty(q.shape, dtype=torch.float32, device=dev)
            s = q.shape[-2]
            mask = torch.ones(s, s, dtype=torch.bool, device=dev).tril() if causal else None
            for b in range(q.shape[0]):  # one batch at a time: 16 x S x S floats
                x = (q[b].float() @ k[b].float().transpose(-1, -2)) * scale
                if causal:
                    x = x.masked_fill(~mask, float("-inf"))
                o[b] = torch.softmax(x, -1) @ v[b].float()
            return o
        return truth

    for d in (64, 128):
        # the cases' scale: 1/√d rounded to f16 (exactly 1/8 at d 64)
        s = torch.tensor(1 / math.sqrt(d), dtype=h, device=dev)
        sf = float(s)

        def plain(q, k, v, s=None, d=d):
            return torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), -1) @ v

        def tensor_scale(q, k, v, s):
            return torch.softmax((q @ k.transpose(-1, -2)) * s, -1) @ v
        refs = [("SDPA default", lambda q, k, v, *_, sf=sf: F.scaled_dot_product_attention(q, k, v, scale=sf), True),
                ("SDPA cuDNN", forced(SDPBackend.CUDNN_ATTENTION, scale=sf), True),
                ("SDPA FlashAttention-2", forced(SDPBackend.FLASH_ATTENTION, scale=sf), True),
                ("SDPA efficient", forced(SDPBackend.EFFICIENT_ATTENTION, scale=sf), True),
                ("torch.compile of softmax(q@kT/sqrt(d))@v (Inductor -> SDPA)", compiled(plain), True),
                ("eager math", plain, True)]
        # The scale a constant (as JAX exports it, as SDPA takes it), and the
        # same attention with the scale an f16 input (`*_scale_input`).
        name = "attention" if d == 64 else f"attention_d{d}"
        out.append(Case(name, f"attention_b4h16s4096d{d}_f16",
                        lambda d=d: tuple(torch.randn(4, 16, 4096, d, dtype=h, device=dev) for _ in range(3)),
                        attn_truth(sf, False), refs, flops=4 * 4 * 16 * 4096 * 4096 * d))
        out.append(Case(f"{name}_scale_input", f"attention_b4h16s4096d{d}_f16_scale_input",
                        lambda d=d, s=s: tuple(torch.randn(4, 16, 4096, d, dtype=h, device=dev) for _ in range(3)) + (s,),
                        attn_truth(sf, False), refs[:2] + [
                            ("extra: torch.compile, tensor scale (not rewritten to SDPA)", compiled(tensor_scale), True)],
                        flops=4 * 4 * 16 * 4096 * 4096 * d))
    for d in (64, 128):
        # the case divides by √d rounded to f16 (8 and 11.3125)
        sf = 1 / float(torch.tensor(math.sqrt(d), dtype=h))
        refs = [("SDPA default", lambda q, k, v, sf=sf: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=sf), True),
                ("SDPA cuDNN", forced(SDPBackend.CUDNN_ATTENTION, is_causal=True, scale=sf), True),
                ("SDPA FlashAttention-2", forced(SDPBackend.FLASH_ATTENTION, is_causal=True, scale=sf), True),
                ("SDPA efficient", forced(SDPBackend.EFFICIENT_ATTENTION, is_causal=True, scale=sf), True)]
        # FLOPs of the unmasked half (the convention of FlashAttention's and cuDNN's figures)
        out.append(Case(f"attention_causal_d{d}", f"attention_causal_b4h16s4096d{d}_f16",
                        lambda d=d: tuple(torch.randn(4, 16, 4096, d, dtype=h, device=dev) for _ in range(3)),
                        attn_truth(sf, True), refs, flops=4 * 4 * 16 * 4096 * 4096 * d // 2))

    def ln(x, g, b):
        return F.layer_norm(x, (1024,), g, b)

    def sm(x):
        return torch.softmax(x, -1)
    out += [
        Case("layernorm", "layernorm_32768x1024_f16",
             lambda: (torch.randn(32768, 1024, dtype=h, device=dev), torch.randn(1024, dtype=h, device=dev), torch.randn(1024, dtype=h, device=dev)),
             lambda *x: ln(*f32(*x)), [("eager", ln, True), ("torch.compile", compiled(ln), True)],
             nbytes=2 * 32768 * 1024 * 2, copy=True),
        Case("softmax", "softmax_65536x1024_f16", lambda: (torch.randn(65536, 1024, dtype=h, device=dev),),
             lambda x: sm(x.float()), [("eager", sm, True), ("torch.compile", compiled(sm), True)],
             nbytes=2 * 65536 * 1024 * 2, copy=True),
        Case("giou", "giou_1024x256_f32", lambda: (boxes(1024, 256), boxes(1024, 256)), giou,
             [("eager", giou, True), ("torch.compile", compiled(giou), True)], nbytes=(2 * 4 + 1) * 1024 * 256 * 4, tol=1e-4),
    ]
    return out


def bench():
    """Every case: aic's kernels and each reference, numerics against a float32
    truth, median times (do_bench) in one process; one JSON row per (case,
    implementation), then a table."""
    import torch
    from triton.testing import do_bench
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False  # the float32 truths in full f32
    out_dir = os.environ.get("OUT", "/tmp/aic-gpu")
    os.makedirs(out_dir, exist_ok=True)
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cudnn": torch.backends.cudnn.version(), "timing": "triton do_bench median, L2 flushed before each run"}
    print(json.dumps(info), flush=True)
    rows = [info]
    dirs = os.environ.get("BUNDLES", os.path.join(HERE, "build")).split(",")
    only = [c for c in os.environ.get("CASES", "").split(",") if c]

    def timed(fn):
        fn()
        torch.cuda.synchronize()
        return do_bench(fn, warmup=10, rep=200, return_mode="median")

    def emit(row):
        print(json.dumps(row), flush=True)
        rows.append(row)
        json.dump(rows, open(os.path.join(out_dir, "bench.json"), "w"), indent=1)

    def rates(row, c, ms):
        row["ms"] = round(ms, 4)
        if c.flops:
            row["tflops"] = round(c.flops / ms / 1e9, 1)
        if c.nbytes:
            row["gbps"] = round(c.nbytes / ms / 1e6, 1)

    # The copy bandwidth of a large transfer (2 GiB each way, the figure the
    # anchors quote), beside each memory-bound case's copy of its own bytes.
    if not only or {"layernorm", "softmax"} & set(only):
        x = torch.empty(1 << 30, dtype=torch.float16, device="cuda")
        y = torch.empty_like(x)
        ms = timed(lambda: y.copy_(x))
        emit({"case": "copy_2GiB", "impl": "copy (device-to-device, 2 GiB)", "ms": round(ms, 4),
              "gbps": round(2 * x.numel() * 2 / ms / 1e6, 1)})
        del x, y
        torch.cuda.empty_cache()
    for c in cases():
        if only and c.name not in only:
            continue
        args = c.make()
        truth = c.truth(*args)
        copy_gbps = None
        if c.copy:
            # copy bandwidth: a device-to-device copy of the case's input bytes
            x = args[0]
            y = torch.empty_like(x)
            row = {"case": c.label, "impl": "copy (device-to-device, same bytes)"}
            rates(row, c, timed(lambda: y.copy_(x)))
            row["pct_of_copy"] = 100.0
            copy_gbps = row["gbps"]
            emit(row)
            del y
        aic_ms = None
        for d in dirs:
            row = {"case": c.label, "impl": "aic" if len(dirs) == 1 else f"aic [{os.path.basename(os.path.normpath(d))}]"}
            try:
                comp = Compiled(os.path.join(d, f"{c.name}.bundle"))
                run, outs = comp.prepare(list(args))
                for o in outs:
                    o.fill_(float("nan"))  # poison: every element must be written
                run()
                torch.cuda.synchronize()
                err = rel_err(outs[0].reshape(truth.shape), truth)
                row.update({"err": err, "numerics": "ok" if err <= c.tol else "MISMATCH"})
                ms = timed(run)
                rates(row, c, ms)
                row["kernels"] = len(comp.man["launches"])
                if aic_ms is None:
                    aic_ms = ms
                if copy_gbps:
                    row["pct_of_copy"] = round(100 * row["gbps"] / copy_gbps, 1)
                del outs, run, comp
            except Exception as e:  # report and go on with the next case
                row["error"] = repr(e)[:400]
            emit(row)
        for impl, fn, whole in c.refs:
            row = {"case": c.label, "impl": impl}
            try:
                got = fn(*args)
                torch.cuda.synchronize()
                if whole:
                    row["err"] = rel_err(got.reshape(truth.shape), truth)
                if "cuBLASLt" in impl:
                    # which GeLU the epilogue computes: error against the erf form too
                    a, w, b = (x.float() for x in args)
                    row["err_vs_erf_gelu"] = rel_err(got, torch.nn.functional.gelu(torch.nn.functional.linear(a, w, b)))
                del got
                ms = timed(lambda: fn(*args))
                rates(row, c, ms)
                if aic_ms:
                    row["ref/aic"] = round(ms / aic_ms, 3)
                if copy_gbps:
                    row["pct_of_copy"] = round(100 * row["gbps"] / copy_gbps, 1)
                if not impl.startswith(("eager", "torch.compile", "extra")):
                    row["device_kernels"] = kernel_names(lambda: fn(*args))
            except Exception as e:  # a backend that refuses the shape: report, go on
                row["error"] = repr(e)[:400]
            emit(row)
        args = truth = None  # free the case's tensors before the next
        torch.cuda.empty_cache()
    print_table(rows[1:])
    return all(r.get("numerics") == "ok" for r in rows[1:] if r["impl"].startswith("aic"))


def print_table(rows):
    """A markdown table of the rows: ref/aic above 1 means aic is faster."""
    print("\n| case | implementation | ms | rate | ref ms / aic ms | max error |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['case']} | {r['impl']} | failed: {r['error'][:80]} | | | |")
            continue
        rate = f"{r['tflops']} TFLOP/s" if "tflops" in r else f"{r.get('gbps')} GB/s"
        if "pct_of_copy" in r:
            rate += f" ({r['pct_of_copy']}% of copy)"
        err = f"{r['err']:.1e}" if "err" in r else "—"
        print(f"| {r['case']} | {r['impl']} | {r['ms']} | {rate} | {r.get('ref/aic', '')} | {err} |")


# The functions build.sh compiles one bundle each of (math_<name>.bundle, f32
# over 2^20 elements): PyTorch's float64 result, and the inputs' spread.
MATH = {
    "exp": (lambda x: x.exp(), "any"),
    "log": (lambda x: x.log(), "positive"),
    "tanh": (lambda x: x.tanh(), "any"),
    "erf": (lambda x: x.erf(), "any"),
    "sigmoid": (lambda x: x.sigmoid(), "any"),
    "rsqrt": (lambda x: x.rsqrt(), "positive"),
    "gelu_tanh": (lambda x: 0.5 * x * (1 + (math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)).tanh()), "any"),
}


# The functions whose error is reported in ulp too (not the composites).
ULP = ("exp", "log", "tanh", "erf", "sigmoid", "rsqrt")


def math_accuracy():
    """Largest error of each math_<name> bundle against float64, in ulp of the
    f32-rounded reference and relative to 1 + |reference|."""
    import torch
    torch.manual_seed(0)
    n = 1 << 20
    q = n // 4
    spread = {
        # half moderate, a quarter near zero, a quarter wide (exp's whole range)
        "any": torch.cat([torch.rand(2 * q) * 20 - 10, torch.randn(q) * 1e-2, torch.rand(q) * 160 - 80]),
        "positive": torch.exp(torch.rand(n) * 160 - 80),
    }
    rows = []
    for name, (ref_fn, dom) in MATH.items():
        path = os.path.join(HERE, "build", f"math_{name}.bundle")
        x = spread[dom].to("cuda", torch.float32)
        run, outs = Compiled(path).prepare([x])
        run()
        torch.cuda.synchronize()
        got = outs[0].reshape(-1).double()
        ref = ref_fn(x.double())
        r32 = ref.float()
        ulp = (torch.nextafter(r32.abs(), torch.tensor(float("inf"), device="cuda")) - r32.abs()).double()
        ok = torch.isfinite(ref)
        rel = ((got - ref).abs() / (1 + ref.abs()))[ok]
        row = {"math": name, "max_rel_err": float(rel.max()), "worst_rel_input": float(x[ok][int(torch.argmax(rel))])}
        if name in ULP:
            # ulp in f32's normal range (a composite such as GeLU cancels:
            # there only the error relative to 1 + |reference| means much)
            ok &= r32.abs() >= torch.finfo(torch.float32).tiny
            ulps = ((got - ref).abs() / ulp)[ok]
            row.update({"max_ulp": round(float(ulps.max()), 2), "worst_ulp_input": float(x[ok][int(torch.argmax(ulps))])})
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["math"]:
        math_accuracy()
        sys.exit(0)
    if sys.argv[1:2] == ["table"]:
        print_table(json.load(open(sys.argv[2]))[1:])
        sys.exit(0)
    if sys.argv[1:2] == ["compare"]:
        sys.exit(0 if compare(sys.argv[2], sys.argv[3]) else 1)
    sys.exit(0 if bench() else 1)
