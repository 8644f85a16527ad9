// A group whose reduction is broadcast back over rows longer than the
// general generator recomputes (256) splits into stages of consecutive ops
// whose loops do not nest, not into one kernel per op: int8-dynamic's
// per-row quantization of 512-wide rows is a rows kernel (the row's
// absolute maximum, clamped and divided) and one elementwise kernel (the
// division by the broadcast scale, rounding, clamping and the cast to i8);
// the splat constants join the stage that reads them. Compiled for the
// host, it computes what the interpreter does.
// RUN: aic-opt --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 total=true})' %s | FileCheck %s
// RUN: aic-run --target=host %s --entry=@main --args="[dense<1.5> : tensor<64x512xf32>]" --check 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK: tile.kernel @[[ROWS:rows_[0-9]+]]
// CHECK: tile.reduce
// CHECK: tile.kernel @[[EW:elementwise_[0-9]+]]
// CHECK-NOT: tile.reduce
// CHECK: tile.store {{.*}} : !tile.tile<{{.*}}xi8>, memref<64x512xi8>
// CHECK-NOT: tile.kernel
// CHECK: func.func @main
// CHECK: %[[S:.*]] = tile.launch @[[ROWS]](%arg0)
// CHECK: tile.launch @[[EW]](%[[S]], %arg0)
// CHECK-NOT: tile.launch
// HOST: dense<127> : tensor<64x512xi8>
// HOST: check: ok
func.func @main(%x: tensor<64x512xf32>) -> tensor<64x512xi8> {
  %a = graph.abs %x : tensor<64x512xf32>
  %m = graph.reduce max %a, axes = [1] : (tensor<64x512xf32>) -> tensor<64xf32>
  %eps = graph.constant dense<1.0e-05> : tensor<64xf32>
  %mm = graph.max %m, %eps : tensor<64xf32>
  %l = graph.constant dense<127.0> : tensor<64xf32>
  %s = graph.div %mm, %l : tensor<64xf32>
  %sb = graph.broadcast %s, dims = [0] : (tensor<64xf32>) -> tensor<64x512xf32>
  %d = graph.div %x, %sb : tensor<64x512xf32>
  %r = graph.round_even %d : tensor<64x512xf32>
  %lo = graph.constant dense<-127.0> : tensor<64x512xf32>
  %hi = graph.constant dense<127.0> : tensor<64x512xf32>
  %c1 = graph.max %r, %lo : tensor<64x512xf32>
  %c2 = graph.min %c1, %hi : tensor<64x512xf32>
  %q = graph.cast %c2 : (tensor<64x512xf32>) -> tensor<64x512xi8>
  return %q : tensor<64x512xi8>
}
