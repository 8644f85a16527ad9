#!/usr/bin/env python3
"""Fusion figures of `eqsat-fusion` on the JAX-exported fixtures and a 12-layer
BERT-base encoder (`bench/fixtures/bert_base_12.mlir`, from
`bench/export_bert_base.py`): kernels and modelled HBM bytes before and after,
e-graph size, and the pass's own time (saturation, fusion growth and
extraction), from the pass's report.

    cargo build --release -p aic-tools --bin aic-opt
    python3 bench/eqsat_bench.py [--target h100]
"""
import argparse
import glob
import os
import re
import subprocess

PIPELINE = "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion{{report=true target={t}}},canonicalize)"


def run(aic, path, target):
    out = subprocess.run(
        [aic, f"--pass-pipeline={PIPELINE.format(t=target)}", path, "-o", os.devnull],
        capture_output=True, text=True, check=True,
    ).stderr
    tot = dict(ops=0, kb=0, ka=0, bb=0.0, ba=0.0, nodes=0, classes=0, ms=0.0)
    for line in out.splitlines():
        m = re.search(
            r"eqsat-fusion: (\d+) ops, \d+ iterations, (\d+) e-nodes .*?, (\d+) e-classes, .*?, ([\d.]+) ms .*"
            r"kernels: (\d+) before, (\d+) after; HBM bytes: ([\d.e+]+) before, ([\d.e+]+) after", line)
        if not m:
            continue
        tot["ops"] += int(m[1]); tot["nodes"] += int(m[2]); tot["classes"] += int(m[3])
        tot["ms"] += float(m[4]); tot["kb"] += int(m[5]); tot["ka"] += int(m[6])
        tot["bb"] += float(m[7]); tot["ba"] += float(m[8])
    return tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aic", default="target/release/aic-opt")
    ap.add_argument("--target", default="h100")
    a = ap.parse_args()
    files = sorted(glob.glob("tools/tests/fixtures/jax/*.mlir")) + ["bench/fixtures/bert_base_12.mlir"]
    print(f"target {a.target}")
    print(f"{'model':22s} {'ops':>6s} {'kernels':>15s} {'HBM MB':>19s} {'e-nodes':>8s} {'e-classes':>9s} {'eqsat ms':>9s}")
    for f in files:
        t = run(a.aic, f, a.target)
        name = os.path.basename(f)[:-5]
        print(f"{name:22s} {t['ops']:6d} {t['kb']:6d} -> {t['ka']:5d} {t['bb']/1e6:8.3f} -> {t['ba']/1e6:7.3f} "
              f"{t['nodes']:8d} {t['classes']:9d} {t['ms']:9.1f}")


if __name__ == "__main__":
    main()
