// aic-tune on the host target, end to end: it compiles rounds of candidate
// tiles for each GEMM signature, times them, and writes the fastest to the
// tuning cache with what it measured; aic-run reads the cache back and its
// results still equal the interpreter's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: aic-tune %s --target=host --entry=@mlp -o %t/cache.json --reps=2 > %t/summary.txt 2> %t/progress.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/summary.txt
// RUN: FileCheck %s --check-prefix=PROGRESS < %t/progress.txt
// RUN: FileCheck %s --check-prefix=CACHE < %t/cache.json
// SUMMARY: kernel signature{{.*}}heuristic us{{.*}}best us speedup tried failed
// SUMMARY-DAG: cpu/native/gemm/0x64x48x32/f32 {{.*}}x {{ *}}{{[1-9][0-9]*}} {{ *}}0
// SUMMARY-DAG: cpu/native/gemm/0x64x16x48/f32 {{.*}}x {{ *}}{{[1-9][0-9]*}} {{ *}}0
// PROGRESS: aic-tune: 2 kernels, 2 signatures to tune, {{[0-9]+}} rounds
// PROGRESS: aic-tune: round 1/{{[0-9]+}} (2 kernel signatures): timed: {{[0-9.]+}} us for {{[0-9]+ [0-9]+ [0-9]+ 1 0}}; {{[0-9.]+}} us for
// PROGRESS: aic-tune: wrote 2 tuned kernel signatures to {{.*}}cache.json
// CACHE: "cpu/native/gemm/0x64x16x48/f32": {"bm": {{[0-9]+}}, "bn": {{[0-9]+}}, "bk": {{[0-9]+}}, "stages": 1, "threads": 0, "us": {{[0-9.]+}}, "heuristic_us": {{[0-9.]+}}, "tried": {{[0-9]+}}}
// CACHE: "cpu/native/gemm/0x64x48x32/f32":

// The cache's measured entries are reused: nothing is tuned again, unless
// --retune; the cache is kept as it was.
// RUN: cp %t/cache.json %t/before.json
// RUN: aic-tune %s --target=host --entry=@mlp -o %t/cache.json 2>&1 | FileCheck %s --check-prefix=REUSE
// RUN: cmp %t/cache.json %t/before.json
// REUSE: aic-tune: 2 kernels, 0 signatures to tune, 0 rounds

// Compiled with the cache, the program still computes what the interpreter does.
// RUN: aic-run %s --target=host --tuning=%t/cache.json --entry @mlp --check --args "[dense<0.5> : tensor<64x32xf32>, dense<0.25> : tensor<32x48xf32>, dense<-0.125> : tensor<48x16xf32>]" 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=target=cpu arch=native tuning=%t/cache.json' | FileCheck %s --check-prefix=TILES
// RAN: check: ok
// TILES: aic.tune = "cpu/native/gemm/0x64x48x32/f32"

// A corrupt or foreign cache is an error naming the file and the entry; it
// is left as it was.
// RUN: printf '{"cpu/native/gemm/0x64x48x32/f32": {"bm": 16, "bn": 16}}' > %t/bad.json
// RUN: not aic-tune %s --target=host -o %t/bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: aic-tune: {{.*}}bad.json: entry 'cpu/native/gemm/0x64x48x32/f32': needs bm, bn and bk
// RUN: printf '{"name": "resnet", "layers": 50}' > %t/foreign.json
// RUN: not aic-tune %s --target=host -o %t/foreign.json 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: grep -q resnet %t/foreign.json
// FOREIGN: aic-tune: {{.*}}foreign.json: entry 'layers': not a tuning key
// RUN: printf '{"cpu/native/gemm/0x64x48x32/f32": ' > %t/cut.json
// RUN: not aic-tune %s --target=host -o %t/cut.json 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: aic-tune: {{.*}}cut.json: not a JSON tuning cache

// Usage errors; a function with no plan to time.
// RUN: not aic-tune %s --target=host -o %t/x.json 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: aic-tune: the bundle has no plan for @main
// RUN: not aic-tune %s -o %t/x.json 2>&1 | FileCheck %s --check-prefix=NOTARGET
// NOTARGET: aic-tune: --target is required (cuda, host or nki-sim)
// RUN: not aic-tune %s --target=host --emit-rounds=%t/rounds 2>&1 | FileCheck %s --check-prefix=EMITHOST
// EMITHOST: aic-tune: --emit-rounds is for --target=cuda
// RUN: not aic-tune --measure=%t/nowhere -o %t/x.json 2>&1 | FileCheck %s --check-prefix=NOROUNDS
// NOROUNDS: aic-tune: {{.*}}nowhere/rounds.json
// RUN: mkdir -p %t/full && touch %t/full/keep && not aic-tune %s --target=cuda --emit-rounds=%t/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: test -f %t/full/keep
// FULL: aic-tune: --emit-rounds: {{.*}}full is not empty

func.func @mlp(%x: tensor<64x32xf32>, %w1: tensor<32x48xf32>, %w2: tensor<48x16xf32>) -> tensor<64x16xf32> {
  %h = graph.matmul %x, %w1 : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %r = graph.relu %h : tensor<64x48xf32>
  %y = graph.matmul %r, %w2 : (tensor<64x48xf32>, tensor<48x16xf32>) -> tensor<64x16xf32>
  return %y : tensor<64x16xf32>
}
