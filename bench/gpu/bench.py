"""aic's kernels on the GPU next to PyTorch, in one run.

    python3 bench/gpu/bench.py bench                 # the six cases: numerics and times
    python3 bench/gpu/bench.py compare OUTDIR FIXTURE # aic-run's result<i>.npy against FIXTURE.out<i>.npy
    python3 bench/gpu/bench.py math                  # accuracy of the GPU math expansions (ulp)

`bench` loads each case's bundle (bench/gpu/build/<case>.bundle, made by
build.sh), launches its kernels through CuPy in the order of the manifest's
launches, checks the output against PyTorch, and times aic, PyTorch eager and
torch.compile with triton's do_bench (median ms). Prints one JSON line per
case and writes $OUT/bench.json. $BUNDLES names other folders of bundles
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
            ptrs = tuple(cp.uint64(t.data_ptr()) for t in ins + outs)
            plan.append((self.fns[k["name"]], tuple(k["grid"]), tuple(k["block"]), ptrs, k["shared_bytes"]))
        finals = [values[o] for o in self.man["launches"][-1]["outputs"]]

        def run():
            for fn, grid, block, ptrs, shared in plan:
                fn(grid, block, ptrs, shared_mem=shared)
        return run, finals


def bench():
    import torch
    import torch.nn.functional as F
    from triton.testing import do_bench
    torch.manual_seed(0)
    dev = "cuda"
    out_dir = os.environ.get("OUT", "/tmp/aic-gpu")
    os.makedirs(out_dir, exist_ok=True)
    h = torch.float16

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

    s = torch.tensor(0.125, dtype=h, device=dev)
    cases = [
        ("gemm_bias_gelu", "gemm_bias_gelu_4096x1024x4096_f16", lambda a, w, b: F.gelu(F.linear(a, w, b), approximate="tanh"),
         lambda: (torch.randn(4096, 1024, dtype=h, device=dev), torch.randn(4096, 1024, dtype=h, device=dev) * 0.02, torch.randn(4096, dtype=h, device=dev)),
         2 * 4096 * 4096 * 1024, None),
        ("gemm_add_add_fastgelu", "gemm_add_add_fastgelu_3840x4096x4096_f16", lambda a, b, d0, d1: F.gelu(a @ b + d0 + d1, approximate="tanh"),
         lambda: (torch.randn(3840, 4096, dtype=h, device=dev), torch.randn(4096, 4096, dtype=h, device=dev) * 0.02,
                  torch.randn(3840, 4096, dtype=h, device=dev), torch.randn(3840, 4096, dtype=h, device=dev)),
         2 * 3840 * 4096 * 4096, None),
        ("attention", "attention_b4h16s4096d64_f16", lambda q, k, v, s: torch.softmax((q @ k.transpose(-1, -2)) * s, -1) @ v,
         lambda: tuple(torch.randn(4, 16, 4096, 64, dtype=h, device=dev) for _ in range(3)) + (s,),
         4 * 4 * 16 * 4096 * 4096 * 64, None),
        ("layernorm", "layernorm_32768x1024_f16", lambda x, g, b: F.layer_norm(x, (1024,), g, b),
         lambda: (torch.randn(32768, 1024, dtype=h, device=dev), torch.randn(1024, dtype=h, device=dev), torch.randn(1024, dtype=h, device=dev)),
         None, 2 * 32768 * 1024 * 2),
        ("softmax", "softmax_65536x1024_f16", lambda x: torch.softmax(x, -1),
         lambda: (torch.randn(65536, 1024, dtype=h, device=dev),), None, 2 * 65536 * 1024 * 2),
        ("giou", "giou_1024x256_f32", giou, lambda: (boxes(1024, 256), boxes(1024, 256)), None, (2 * 4 + 1) * 1024 * 256 * 4),
    ]
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__}
    print(json.dumps(info), flush=True)
    rows = [info]
    dirs = os.environ.get("BUNDLES", os.path.join(HERE, "build")).split(",")
    only = [c for c in os.environ.get("CASES", "").split(",") if c]
    for name, case, fn, make, flops, nbytes in cases:
        if only and name not in only:
            continue
        args = make()
        ref = fn(*args)
        t_eager = do_bench(lambda: fn(*args), warmup=10, rep=200)
        cfn = torch.compile(fn, dynamic=False)
        cfn(*args)
        t_comp = do_bench(lambda: cfn(*args), warmup=10, rep=200)
        for d in dirs:
            row = {"case": case}
            if len(dirs) > 1:
                row["bundles"] = os.path.basename(os.path.normpath(d))
            try:
                c = Compiled(os.path.join(d, f"{name}.bundle"))
                run, outs = c.prepare(list(args))
                run()
                torch.cuda.synchronize()
                got = outs[0].reshape(ref.shape).float()
                want = ref.float()
                err = ((got - want).abs() / (1 + want.abs())).max().item()
                tol = 2e-2 if ref.dtype == h else 1e-4
                row["max_rel_err"] = err
                row["numerics"] = "ok" if err <= tol else "MISMATCH"
                t_aic = do_bench(run, warmup=10, rep=200)
                row.update({"aic_ms": round(t_aic, 4), "eager_ms": round(t_eager, 4), "compile_ms": round(t_comp, 4),
                            "eager/aic": round(t_eager / t_aic, 3), "compile/aic": round(t_comp / t_aic, 3),
                            "kernels": len(c.man["launches"])})
                if flops:
                    row["aic_tflops"] = round(flops / t_aic / 1e9, 1)
                if nbytes:
                    row["aic_gbps"] = round(nbytes / t_aic / 1e6, 1)
            except Exception as e:  # report and go on with the next case
                row["error"] = repr(e)[:400]
            print(json.dumps(row), flush=True)
            rows.append(row)
    json.dump(rows, open(os.path.join(out_dir, "bench.json"), "w"), indent=1)
    return all(r.get("numerics") == "ok" for r in rows[1:])


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
    if sys.argv[1:2] == ["compare"]:
        sys.exit(0 if compare(sys.argv[2], sys.argv[3]) else 1)
    sys.exit(0 if bench() else 1)
