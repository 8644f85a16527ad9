// A tuning-cache entry whose warpgroup tile a thread's registers cannot
// hold (192 x 256 on three warpgroups: half a row of the f32 accumulator,
// 128 floats, and the loop's ~48 registers, where 384 threads leave each
// 170) is an error naming the file and the entry, before any kernel is
// made (ptxas would reject it only when the driver loads it). The same
// tile on two warpgroups' rows (128 x 256 of 256 threads) is fine.
// RUN: printf '{"h100/sm_90a/gemm/0x384x512x128/f16": {"bm": 192, "bn": 256, "bk": 64, "stages": 3, "threads": 384}}' > %t.bad.json
// RUN: not aic-translate --target=nvptx --arch=sm_90a --tuning=%t.bad.json --emit=llvm-ir %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.ll
// BAD: bad.json: entry 'h100/sm_90a/gemm/0x384x512x128/f16': a 192 x 256 warpgroup tile of 384 threads needs about 176 registers a thread (half a row of its f32 accumulator, and the loop's), more than the 170 a block of 384 threads leaves each
// RUN: printf '{"h100/sm_90a/gemm/0x384x512x128/f16": {"bm": 128, "bn": 256, "bk": 64, "stages": 3, "threads": 256}}' > %t.ok.json
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.ok.json})' | FileCheck %s --check-prefix=OK
// OK: tile.kernel @gemm_0 grid = [3, 2] threads = 256 {

func.func @main(%a: tensor<384x128xf16>, %w: tensor<128x512xf16>) -> tensor<384x512xf16> {
  %m = graph.matmul %a, %w : (tensor<384x128xf16>, tensor<128x512xf16>) -> tensor<384x512xf16>
  return %m : tensor<384x512xf16>
}
