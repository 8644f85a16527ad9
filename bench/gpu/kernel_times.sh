# Per-kernel times (aic-run --bench) of the bundles in bench/gpu/rings/$V (V=default) for
# bench/gpu/cases/$CASES, on random inputs (the second scaled by 0.02, as bench.py's weights):
#   OUT=/tmp/k CASES="gemm_splitk_64x4096x4096" bash bench/gpu/kernel_times.sh   # on the GPU machine
set -u
V=${V:-default}
mkdir -p $OUT/in
for c in $CASES; do
  python3 - bench/gpu/cases/$c.mlir $OUT/in/$c <<'P'
import re, sys, numpy as np
src, out = sys.argv[1:]
sig = re.search(r"func\.func @main\((.*?)\)\s*->", open(src).read(), re.S).group(1)
rng = np.random.default_rng(0)
for i, shape in enumerate(re.findall(r"tensor<([0-9x]+)xf16>", sig)):
    dims = [int(x) for x in shape.split("x")]
    x = rng.standard_normal(dims, dtype=np.float32) * (0.02 if i == 1 else 1.0)
    np.save(f"{out}.in{i}.npy", x.astype(np.float16))
P
  args=$(for f in $(ls $OUT/in/$c.in*.npy | sort); do printf -- '--input=%s ' $f; done)
  echo "== $c ($V)"
  bench/gpu/rings/aic-run --target=cuda bench/gpu/rings/$V/$c.bundle --entry=@main $args --bench=50 --output-dir=$OUT/in/o 2>&1 | grep -v "^  *\[" | tail -12
done
rm -rf $OUT/in
