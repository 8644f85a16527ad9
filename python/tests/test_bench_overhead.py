"""bench/python/overhead.py, the figures script a GPU machine runs, on a small
scale here: every part it can run on this machine gives numbers (and its
results were checked before timing), and what it cannot run (CUDA without a
GPU) is recorded with the reason rather than failing the run."""

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "python" / "overhead.py"


def _has_gpu():
    return os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")


def test_overhead_script_host_parts(tmp_path):
    out = tmp_path / "overhead.json"
    aic_run = ROOT / "target" / "debug" / "aic-run"
    cmd = [sys.executable, str(SCRIPT), "--out", str(out), "--calls", "5", "--import-reps", "1",
           "--programs", "add_4x8,mlp", "--models", "resnet_bottleneck", "--size", "small"]
    if aic_run.is_file():
        cmd += ["--aic-run", str(aic_run)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads(out.read_text())
    assert res["import"]["aic_ms"] > 0 and res["import"]["numpy_ms"] > 0
    host = [c for c in res["calls"] if c["target"] == "host"]
    assert [c["program"] for c in host] == ["add_4x8", "mlp"]
    for c in host:
        assert "error" not in c, c
        assert c["python_us"]["numpy"] > 0, c
        if aic_run.is_file():
            assert c.get("rust_call_us", 0) > 0 and "overhead_us" in c, c
    cuda = [c for c in res["calls"] if c["target"] == "cuda"]
    if not _has_gpu():
        assert len(cuda) == 1 and "CUDA driver" in cuda[0]["skipped"], cuda
    (model,) = res["compile"]["models"]
    assert "error" not in model, model
    assert model["aic_compile_s"] > 0 and model["jax_compile_s"] > 0 and model["kernels"] > 0
