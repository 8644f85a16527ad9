// aic-tune tunes attention kernels as it tunes GEMMs: fusion-to-tile names
// an attention's tuning-cache key (template, heads x queries x keys x head
// dim x value head dim, element type, /causal under a causal mask), aic-tune
// times its candidate query and key blocks on the host and keeps the
// fastest; compiled with the cache, the kernel takes those tiles and still
// computes what the interpreter does. An entry under an older cache's
// target/attention/SQxSKxD key is read where the new key has none.
// RUN: rm -rf %t && mkdir -p %t
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=target=cpu arch=native' | FileCheck %s --check-prefix=KEY
// KEY: tile.kernel @attention_0 grid = [2, 1, 8] {
// KEY: aic.kind = "attention", aic.tune = "cpu/native/attention/8x48x40x16x16/f32"
// RUN: aic-tune %s --target=host --entry=@attn -o %t/cache.json --reps=2 > %t/summary.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/summary.txt
// RUN: FileCheck %s --check-prefix=CACHE < %t/cache.json
// SUMMARY: kernel signature{{.*}}heuristic us{{.*}}best us speedup tried failed
// SUMMARY: cpu/native/attention/8x48x40x16x16/f32 {{.*}}x {{ *}}{{[2-9]}} {{ *}}0
// CACHE: "cpu/native/attention/8x48x40x16x16/f32": {"bm": {{[0-9]+}}, "bn": {{[0-9]+}}, "bk": 16, "stages": 1, "threads": 0, "us": {{[0-9.]+}}, "heuristic_us": {{[0-9.]+}}, "tried": {{[2-9]}}}
// RUN: aic-run %s --target=host --tuning=%t/cache.json --entry @attn --check --args "[dense<0.5> : tensor<2x4x48x16xf32>, dense<0.25> : tensor<2x4x40x16xf32>, dense<-0.125> : tensor<2x4x40x16xf32>]" 2>&1 | FileCheck %s --check-prefix=RAN
// RAN: check: ok
// RUN: printf '{"cpu/native/attention/8x48x40x16x16/f32": {"bm": 16, "bn": 8, "bk": 16}, "cpu/attention/48x40x16": {"bm": 32, "bn": 32, "bk": 16}}' > %t/pinned.json
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=target=cpu arch=native tuning=%t/pinned.json' | FileCheck %s --check-prefix=PINNED
// PINNED: tile.kernel @attention_0 grid = [3, 1, 8] {
// PINNED: tile.for {{.*}} step %c8
// RUN: printf '{"cpu/attention/48x40x16": {"bm": 32, "bn": 32, "bk": 16}}' > %t/legacy.json
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=target=cpu arch=native tuning=%t/legacy.json' | FileCheck %s --check-prefix=LEGACY
// LEGACY: tile.kernel @attention_0 grid = [2, 1, 8] {
// LEGACY: tile.load {{.*}} -> !tile.tile<32x16xf32>

func.func @attn(%q: tensor<2x4x48x16xf32>, %k: tensor<2x4x40x16xf32>, %v: tensor<2x4x40x16xf32>) -> tensor<2x4x48x16xf32> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x4x48x16xf32>, tensor<2x4x40x16xf32>) -> tensor<2x4x48x40xf32>
  %p = graph.softmax %qk, axis = 3 : tensor<2x4x48x40xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x48x40xf32>, tensor<2x4x40x16xf32>) -> tensor<2x4x48x16xf32>
  return %o : tensor<2x4x48x16xf32>
}
