#!/usr/bin/env python3
"""What aic's Python package costs: import, each call against the same bundle run
from Rust, and compiling the model suite against jax.jit.

Writes one JSON object to ``--out`` (and a readable summary to stdout):

* ``import``: wall time of ``import aic`` (and of ``import numpy`` alone, which
  aic imports) in a fresh interpreter, the median of ``--import-reps``;
* ``calls``: per target (``--targets host,cuda``) and program (a 4x8 f32 add,
  then JAX fixtures whose ``@main`` runs as its plan), the median of
  ``--calls`` calls of the compiled ``aic.Function`` on NumPy arrays, PyTorch
  CPU tensors, JAX arrays on JAX's CPU device, and, where a GPU is there,
  PyTorch CUDA tensors and JAX GPU arrays, both as they are (read in place,
  results left on the GPU: ``torch_cuda``, ``jax_gpu``) and through host
  memory (``*_via_host``), against ``aic-run --bench`` on the bundle
  the function saves (Rust: on the host, the plan's median run over its arena;
  on CUDA, its median whole call: inputs copied in, the graph replayed,
  results copied back, which is what the Python call does). ``overhead_us`` is
  NumPy's call minus Rust's;
* ``compile``: per model of bench/models (``--models``, ``--size``,
  ``--dtype``): ``jax.jit(f).lower(...)`` (export), ``.compile()`` (XLA, for
  JAX's default backend: the GPU where there is one), and ``aic.compile`` of
  the exported text for ``--compile-target`` (default cuda, ``--arch``
  sm_90a, with ``--tuning``); compiling for CUDA needs no GPU. JAX's caches are
  cleared before each model, so each compile is a first one. Should aic reject
  JAX's export for this machine's backend, the committed export
  (bench/models/stablehlo, what build.sh compiles) is timed instead and
  ``aic_source`` says so.

Each program's results are checked (against NumPy, or the fixture's saved JAX
outputs) before it is timed. A part that cannot run (no GPU, no PyTorch, no
aic-run) is recorded with the reason, and the rest still runs.

On a machine with aic installed (``bash scripts/python.sh``, or the wheel of
``bash scripts/python_wheel.sh DIR``), from the repository root::

    python3 bench/python/overhead.py --out overhead.json [--targets host,cuda]
        [--calls 2000] [--aic-run PATH] [--models all|none|a,b] [--size real|small]

``--aic-run`` (default: ``$AIC_RUN``, else the newer of target/release's and
target/debug's) should come from the same cargo profile as the package; for
the host it compiles the program's source, so it needs LLVM, which a machine
without LLVM gets linked in. For a GPU machine without LLVM, build both here::

    bash scripts/python_wheel.sh dist          # dist/aic-0.1.0-cp311-abi3-linux_x86_64.whl
    cargo build --release -p aic-tools --no-default-features --features llvm-static --bin aic-run
    strip -o dist/aic-run target/release/aic-run && xz -T2 dist/aic-run   # 85 MiB -> 18 MiB

and there (from the repository root, ``dist/`` carried along)::

    python3 -m pip install -q --no-index --no-deps --target /tmp/site dist/aic-*.whl
    python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('dist/aic-run.xz'), open('/tmp/aic-run', 'wb'))"
    chmod +x /tmp/aic-run
    PYTHONPATH=/tmp/site python3 bench/python/overhead.py --aic-run /tmp/aic-run --out overhead.json
"""

import argparse
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

# JAX would otherwise take most of the GPU's memory at its first use there.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tools" / "tests" / "fixtures" / "jax"
MODELS = ROOT / "bench" / "models"
PROGRAMS = ["add_4x8", "softmax", "layernorm", "mlp", "giou_loss", "bert_layer"]

ADD = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = stablehlo.add %a, %b : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
"""


def log(*a):
    print(*a, flush=True)


def why(e):
    """An exception as one line for the JSON."""
    return f"{type(e).__name__}: {e}".splitlines()[0][:500]


def import_time(module, reps):
    """Median seconds of ``import module`` in a fresh interpreter."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = []
    for _ in range(reps):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"import {module} failed: {out.stderr.strip().splitlines()[-1:]}")
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(runs)


def per_call(fn, args, calls, sync=None):
    """Median seconds of one call of ``fn(*args)`` (then ``sync``), after warm-up."""
    for _ in range(min(50, calls)):
        r = fn(*args)
        if sync:
            sync(r)
    times = []
    for _ in range(calls):
        t = time.perf_counter_ns()
        r = fn(*args)
        if sync:
            sync(r)
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1e9


def find_aic_run(given):
    if given:
        return given
    if os.environ.get("AIC_RUN"):
        return os.environ["AIC_RUN"]
    cands = [ROOT / "target" / p / "aic-run" for p in ("release", "debug")]
    cands = [c for c in cands if c.is_file()]
    return str(max(cands, key=lambda c: c.stat().st_mtime)) if cands else None


def rust_call(aic_run, module, target, inputs, calls, tmp):
    """``aic-run --bench``'s median on ``module`` (a CUDA bundle, or a host
    program's source, which aic-run compiles to the same plan): (call seconds,
    graph-run seconds or None); the host plan's run is its call."""
    import numpy as np

    files = []
    for i, a in enumerate(inputs):
        p = pathlib.Path(tmp) / f"in{i}.npy"
        np.save(p, a)
        files.append(f"--input={p}")
    cmd = [aic_run, f"--target={target}", str(module), "--entry=@main", f"--bench={calls}", *files]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}: {(out.stderr or out.stdout).strip()[-400:]}")
    run = re.search(r"median ([0-9.]+) ms a run", out.stdout)
    call = re.search(r"call: median ([0-9.]+) ms a call", out.stdout)
    if not run:
        raise RuntimeError(f"no median in aic-run's output: {out.stdout[-400:]}")
    run_s = float(run.group(1)) / 1e3
    if target == "cuda":
        if not call:
            raise RuntimeError("this aic-run prints no whole-call median for CUDA (an older build?)")
        return float(call.group(1)) / 1e3, run_s
    return run_s, None


def program(name, target, arch, tmp):
    """(compiled function, its source file, inputs, expected outputs) of a program."""
    import numpy as np

    import aic

    if name == "add_4x8":
        rng = np.random.default_rng(0)
        a, b = (rng.standard_normal((4, 8)).astype(np.float32) for _ in range(2))
        src = pathlib.Path(tmp) / "add_4x8.mlir"
        src.write_text(ADD)
        return aic.compile(src, target=target, arch=arch), src, [a, b], [a + b]
    load = lambda kind: [  # noqa: E731
        np.load(p) for p in sorted(FIXTURES.glob(f"{name}.{kind}*.npy"), key=lambda p: int(p.stem.split(kind)[-1]))
    ]
    src = FIXTURES / f"{name}.mlir"
    return aic.compile(src, target=target, arch=arch), src, load("in"), load("out")


def check(got, want, what):
    import numpy as np

    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(want):
        raise RuntimeError(f"{what}: {len(got)} results, {len(want)} expected")
    for g, w in zip(got, want):
        g = np.asarray(g)
        if g.shape != w.shape or not np.allclose(g.astype(np.float64), w, rtol=1e-3, atol=1e-3):
            raise RuntimeError(f"{what}: results differ from the expected ones")


def array_kinds(gpu, target):
    """Per kind of array: (how to make the arguments from NumPy ones, how to call,
    what to wait for), for those installed. On CUDA, device arrays twice: passed
    as they are (read in place, results on the GPU) and through host memory (a
    caller copying them out and back)."""
    import numpy as np

    kinds = {"numpy": (lambda xs: xs, None, None)}
    device = gpu and target == "cuda"
    try:
        import torch

        kinds["torch_cpu"] = (lambda xs: [torch.from_numpy(x) for x in xs], None, None)
        if device and torch.cuda.is_available():
            cuda = lambda xs: [torch.from_numpy(x).cuda() for x in xs]  # noqa: E731
            kinds["torch_cuda"] = (cuda, None, lambda r: torch.cuda.synchronize())
            kinds["torch_cuda_via_host"] = (
                cuda,
                lambda f: lambda *a: torch.from_dlpack(f(*[t.cpu() for t in a])).cuda(),
                lambda r: torch.cuda.synchronize(),
            )
    except Exception:  # noqa: BLE001 - optional
        pass
    try:
        import jax

        cpu = jax.devices("cpu")[0]
        kinds["jax_cpu"] = (lambda xs: [jax.device_put(x, cpu) for x in xs], None, None)
        gpus = [d for d in jax.devices() if d.platform == "gpu"] if device else []
        if gpus:
            put = lambda xs: [jax.device_put(x, gpus[0]) for x in xs]  # noqa: E731
            ready = lambda r: jax.block_until_ready(r)  # noqa: E731
            kinds["jax_gpu"] = (put, None, ready)
            kinds["jax_gpu_via_host"] = (
                put,
                lambda f: lambda *a: jax.device_put(f(*[np.asarray(t) for t in a]), gpus[0]),
                ready,
            )
    except Exception:  # noqa: BLE001 - optional
        pass
    return kinds


def calls_for(target, o, aic_run, gpu):
    rows = []
    kinds = array_kinds(gpu, target)
    for name in o.programs.split(","):
        row = {"program": name, "target": target}
        rows.append(row)
        with tempfile.TemporaryDirectory() as tmp:
            one(row, name, target, o, aic_run, gpu, kinds, tmp)
        log("  " + json.dumps(row))
    return rows


def one(row, name, target, o, aic_run, gpu, kinds, tmp):
    """Fills ``row`` with program ``name``'s figures on ``target``."""
    try:
        f, src, ins, want = program(name, target, o.arch if target == "cuda" else None, tmp)
        row["kernels"] = len(f.kernels)
        if f.unplanned:
            row["skipped"] = f"no plan (the interpreter runs {f.unplanned})"
            return
        check(f(*ins), want, f"{name} on {target}")
    except Exception as e:  # noqa: BLE001
        row["error"] = why(e)
        return
    us = {}
    for kind, (make, wrap, sync) in kinds.items():
        try:
            args = make(ins)
            fn = wrap(f) if wrap else f
            check(tuple(_np(fn(*args))), want, f"{name} with {kind}")
            us[kind] = round(per_call(fn, args, o.calls, sync) * 1e6, 2)
        except Exception as e:  # noqa: BLE001
            us[kind] = why(e)
    row["python_us"] = us
    if not aic_run:
        row["rust_error"] = "no aic-run found: give --aic-run (or $AIC_RUN)"
        return
    try:
        # CUDA: the very bundle; the host: aic-run runs no host bundles, so
        # the source, compiled by the same pipeline to the same plan.
        module = src
        if target == "cuda":
            module = pathlib.Path(tmp) / f"{name}.bundle"
            f.save(module)
        call, run = rust_call(aic_run, module, target, ins, o.calls, tmp)
        row["rust_call_us"] = round(call * 1e6, 2)
        if run is not None:
            row["rust_graph_run_us"] = round(run * 1e6, 2)
        if isinstance(us.get("numpy"), float):
            row["overhead_us"] = round(us["numpy"] - call * 1e6, 2)
    except Exception as e:  # noqa: BLE001
        row["rust_error"] = why(e)


def _np(r):
    """A result (a torch tensor or JAX array) as NumPy arrays, for the check."""
    import numpy as np

    r = r if isinstance(r, tuple) else (r,)
    return [np.asarray(x.cpu() if hasattr(x, "detach") else x) for x in r]


def gpu_usable():
    """Whether a CUDA module runs here: None, else why not."""
    import numpy as np

    import aic

    try:
        f = aic.compile(ADD, target="cuda")
        a = np.ones((4, 8), np.float32)
        f(a, a)
        return None
    except aic.RunError as e:
        return why(e)


def compile_times(o):
    sys.path.insert(0, str(MODELS))
    import jax

    import aic

    try:
        import jax_models as M
    except Exception as e:  # noqa: BLE001
        return {"error": f"cannot import bench/models/jax_models.py: {why(e)}"}
    names = M.SUITE if o.models == "all" else o.models.split(",")
    tuning = o.tuning if o.tuning and os.path.isfile(o.tuning) else None
    out = {
        "target": o.compile_target,
        "arch": o.arch,
        "tuning": tuning,
        "size": o.size,
        "dtype": o.dtype,
        "jax_backend": jax.default_backend(),
        "repeats": o.compile_repeats,
        "models": [],
    }
    for name in names:
        row = {"model": name}
        out["models"].append(row)
        try:
            fn, acts, weights, _ = M.spec(name, o.size, o.dtype)
            lower, xla, ours, xla_cpu, ours_cpu = [], [], [], [], []
            for _ in range(o.compile_repeats):
                jax.clear_caches()
                t0 = time.perf_counter()
                lowered = jax.jit(fn).lower(*acts, weights)
                t1, c1 = time.perf_counter(), time.process_time()
                lowered.compile()
                t2, c2 = time.perf_counter(), time.process_time()
                text = lowered.as_text()
                t3, c3 = time.perf_counter(), time.process_time()
                try:
                    f = aic.compile(text, target=o.compile_target, arch=o.arch, tuning=tuning)
                except aic.CompileError as e:
                    # JAX's export for this machine's backend; the committed
                    # one (bench/models/stablehlo, exported on a CPU) is what
                    # build.sh compiles: time that instead, and say so.
                    committed = MODELS / "stablehlo" / f"{name}.{o.size}.{o.dtype}.mlir"
                    if not committed.is_file():
                        raise
                    row["aic_source"] = f"{committed.relative_to(ROOT)} ({why(e)[:200]})"
                    t3, c3 = time.perf_counter(), time.process_time()
                    f = aic.compile(committed, target=o.compile_target, arch=o.arch, tuning=tuning)
                t4, c4 = time.perf_counter(), time.process_time()
                lower.append(t1 - t0)
                xla.append(t2 - t1)
                ours.append(t4 - t3)
                xla_cpu.append(c2 - c1)
                ours_cpu.append(c4 - c3)
            row["kernels"] = len(f.kernels)
            row["jax_lower_s"] = round(statistics.median(lower), 4)
            row["jax_compile_s"] = round(statistics.median(xla), 4)
            row["aic_compile_s"] = round(statistics.median(ours), 4)
            # CPU time of this process (all its threads): against the wall
            # times, how busy the machine was.
            row["jax_compile_cpu_s"] = round(statistics.median(xla_cpu), 4)
            row["aic_compile_cpu_s"] = round(statistics.median(ours_cpu), 4)
            # Both from the Python function: one export, then each compiler.
            row["jax_total_s"] = round(row["jax_lower_s"] + row["jax_compile_s"], 4)
            row["aic_total_s"] = round(row["jax_lower_s"] + row["aic_compile_s"], 4)
            row["aic_over_jax"] = round(row["aic_total_s"] / row["jax_total_s"], 3)
        except Exception as e:  # noqa: BLE001
            row["error"] = why(e)
        log("  " + json.dumps(row))
    return out


def write_json(path, obj):
    """``obj`` written to ``path`` atomically (a temporary file renamed over it)."""
    path = pathlib.Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(obj, fh, indent=1)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def environment():
    env = {"python": sys.version.split()[0], "platform": platform.platform(), "machine": platform.node()}
    for mod in ("numpy", "aic", "torch", "jax"):
        try:
            m = __import__(mod)
            env[mod] = getattr(m, "__version__", "?")
            if mod == "aic":
                env["aic_path"] = os.path.dirname(m.__file__)
        except Exception as e:  # noqa: BLE001
            env[mod] = f"not importable: {why(e)}"
    try:
        import torch

        if torch.cuda.is_available():
            env["gpu"] = torch.cuda.get_device_name(0)
    except Exception:  # noqa: BLE001
        pass
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="the JSON file to write")
    ap.add_argument("--targets", default="host,cuda", help="the targets of the per-call part (host, cuda)")
    ap.add_argument("--arch", default="sm_90a", help="the GPU architecture compiled for")
    ap.add_argument("--calls", type=int, default=2000, help="calls timed per program and kind of array")
    ap.add_argument("--import-reps", type=int, default=7)
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--aic-run", help="aic-run for the Rust figures (default $AIC_RUN or target/*/aic-run)")
    ap.add_argument("--models", default="all", help="bench/models to compile: all, none, or names")
    ap.add_argument("--size", default="real", choices=["real", "small"])
    ap.add_argument("--dtype", default="float16")
    ap.add_argument("--compile-target", default="cuda", choices=["host", "cuda"])
    ap.add_argument("--compile-repeats", type=int, default=1)
    ap.add_argument("--tuning", default=str(MODELS / "tuning" / "h100.json"), help="aic's tuning cache (if present)")
    o = ap.parse_args()
    if o.calls < 1 or o.import_reps < 1 or o.compile_repeats < 1:
        ap.error("--calls, --import-reps and --compile-repeats must be at least 1")
    out_dir = pathlib.Path(o.out).resolve().parent
    if not out_dir.is_dir():
        ap.error(f"--out: no folder {out_dir}")
    try:
        import aic  # noqa: F401
    except Exception as e:  # noqa: BLE001
        sys.exit(f"overhead.py: cannot import aic ({why(e)}): install it (bash scripts/python.sh, or the wheel)")

    result = {"environment": environment(), "calls_timed": o.calls}
    log("environment:", json.dumps(result["environment"]))
    result["import"] = {"reps": o.import_reps}
    for mod in ("numpy", "aic"):
        try:
            result["import"][f"{mod}_ms"] = round(import_time(mod, o.import_reps) * 1e3, 2)
        except Exception as e:  # noqa: BLE001
            result["import"][f"{mod}_error"] = why(e)
    log("import:", json.dumps(result["import"]))

    aic_run = find_aic_run(o.aic_run)
    result["aic_run"] = aic_run
    result["calls"] = []
    for target in [t for t in o.targets.split(",") if t]:
        if target not in ("host", "cuda"):
            ap.error(f"--targets: unknown target '{target}' (host, cuda)")
        no_gpu = gpu_usable() if target == "cuda" else None
        log(f"per call on {target}:")
        if no_gpu:
            result["calls"].append({"target": target, "skipped": no_gpu})
            log(f"  skipped: {no_gpu}")
            continue
        result["calls"] += calls_for(target, o, aic_run, gpu=target == "cuda")

    if o.models != "none":
        log(f"compile ({o.size}, {o.dtype}) for {o.compile_target}:")
        result["compile"] = compile_times(o)
    write_json(o.out, result)
    log(f"wrote {o.out}")


if __name__ == "__main__":
    main()
