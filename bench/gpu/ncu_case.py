"""Launches of one bench.py case for ncu: each aic bundle given, then each of
the case's references, twice each (a warm-up and the profiled launch), on the
case's inputs.

    python3 bench/gpu/ncu_case.py CASE [BUNDLE...]

CASE is a case of bench.py (`gemm_bias_gelu`, `attention_causal_d64`, ...);
see ncu_case.sh, which profiles these launches. torch.compile's references
are left out (their autotuning launches hundreds of kernels) unless
NCU_COMPILE=1.
"""
import os
import sys

if len(sys.argv) < 2:
    sys.exit("usage: ncu_case.py CASE [BUNDLE...]")
import torch  # noqa: E402
sys.path.insert(0, os.path.dirname(__file__))
from bench import Compiled, cases  # noqa: E402

case = next((c for c in cases() if c.name == sys.argv[1]), None)
if case is None:
    sys.exit(f"ncu_case.py: no case named {sys.argv[1]!r} in bench.py")
args = case.make()
for b in sys.argv[2:]:
    run, _ = Compiled(b).prepare(list(args))
    for _ in range(2):
        run()
for label, fn, _ in case.refs:
    if "torch.compile" in label and os.environ.get("NCU_COMPILE") != "1":
        continue
    for _ in range(2):
        fn(*args)
torch.cuda.synchronize()
