#!/usr/bin/env python3
"""torch.compile's kernels for a model of the suite, one by one: the default
mode's kernels captured into one CUDA graph (as `run.py`'s "torch.compile
captured" row), replayed under `torch.profiler`, each kernel's median time
over the replays, to set beside `aic-run --bench`'s kernel table.

    python3 bench/models/torch_kernels.py [--models bert_layer] [--size real]
                                          [--dtype float16] [--reps 50]

Prints, per model, the graph's median replay time (`triton.testing.do_bench`,
from a cold cache) and a table: kernel name (shortened), median time in
microseconds, share of the kernels' sum. Kernel times here come from the
profiler's device timestamps with the graph replayed back to back (a warm
cache), so the sum can fall below the cold replay time.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import jax_models as M  # noqa: E402
import torch_models as T  # noqa: E402
from run import bench_torch, draw  # noqa: E402


def captured(name, size, dt):
    _, acts_sd, w_sd, c = M.spec(name, size, dt)
    g = torch.Generator(device="cuda").manual_seed(1234)
    acts = [draw(g, s, "activation") for s in acts_sd]
    weights = [draw(g, s, "weight") for s in w_sd]
    tf, tacts, tw, _ = T.prepare(name, acts, weights, c)
    cf = torch.compile(tf)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.no_grad(), torch.cuda.stream(side):
        for _ in range(3):
            cf(*tacts, tw)
    torch.cuda.current_stream().wait_stream(side)
    cg = torch.cuda.CUDAGraph()
    with torch.no_grad(), torch.cuda.graph(cg):
        cf(*tacts, tw)
    cg.replay()
    torch.cuda.synchronize()
    return cg


def kernels(cg, reps):
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            cg.replay()
        torch.cuda.synchronize()
    # Kernels in launch order; a kernel name may recur within one replay.
    events = sorted(
        (e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
        key=lambda e: e.time_range.start,
    )
    per = len(events) // reps
    table = []
    for i in range(per):
        times = [events[r * per + i].time_range.elapsed_us() for r in range(reps)]
        table.append((events[i].name, statistics.median(times)))
    return table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="bert_layer")
    ap.add_argument("--size", default="real")
    ap.add_argument("--dtype", default="float16")
    ap.add_argument("--reps", type=int, default=50)
    a = ap.parse_args()
    for name in a.models.split(","):
        if name not in M.SIZES or a.size not in M.SIZES[name]:
            ap.error(f"no model {name!r} of size {a.size!r} (models: {', '.join(M.SIZES)})")
    if a.reps < 1:
        ap.error("--reps must be at least 1")
    print(torch.cuda.get_device_name(), torch.__version__)
    for name in a.models.split(","):
        cg = captured(name, a.size, a.dtype)
        ms = bench_torch(cg.replay)
        table = kernels(cg, a.reps)
        total = sum(t for _, t in table)
        print(f"== {name} {a.size} {a.dtype}: torch.compile captured, median {ms:.4f} ms a replay (cold)")
        print(f"{'kernel':60s} {'time (us)':>10s} {'share':>7s}")
        for k, t in table:
            print(f"{k[:60]:60s} {t:10.3f} {100 * t / total:6.1f}%")
        print(f"{'total':60s} {total:10.3f} 100.0%  ({len(table)} kernels)")


if __name__ == "__main__":
    main()
