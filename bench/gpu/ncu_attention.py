"""One launch of aic's attention kernel and of SDPA's cuDNN kernel, for ncu.

    ncu --kernel-name regex:"attention_0|cudnn" python3 bench/gpu/ncu_attention.py BUNDLE D

BUNDLE is an attention bundle of bench/gpu/cases (b4 h16 s4096, head dim D);
each is run twice (a warm-up launch and the profiled one) on random inputs.
"""
import math, sys

if len(sys.argv) != 3 or not sys.argv[2].isdigit():
    sys.exit("usage: ncu_attention.py BUNDLE HEAD_DIM")
import torch  # noqa: E402
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
sys.path.insert(0, __import__("os").path.dirname(__file__))
from bench import Compiled  # noqa: E402

bundle, d = sys.argv[1], int(sys.argv[2])
q, k, v = (torch.randn(4, 16, 4096, d, dtype=torch.float16, device="cuda") for _ in range(3))
s = torch.tensor(1 / math.sqrt(d), dtype=torch.float16, device="cuda")
run, (o,) = Compiled(bundle).prepare((q, k, v, s))
for _ in range(2):
    run()
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    for _ in range(2):
        ref = F.scaled_dot_product_attention(q, k, v, scale=float(s))
torch.cuda.synchronize()
print("max |aic - cuDNN|:", (o.reshape(ref.shape).float() - ref.float()).abs().max().item())
