// What a kernel may hold caps fusion (passes/src/legality.rs, shared with
// fusion-to-tile's generators): a GEMM feeding a layernorm keeps 64 whole
// rows of fp32 accumulators in registers. 256-wide rows fit (64 x 256 x 4 B
// = 64 KiB, 128 a lane over 4 warps); 768-wide rows would spill, so that
// GEMM and its layernorm stay two kernels on every target.
// RUN: aic-opt %s --eqsat-fusion=target=h100 | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion=target=mi300 | FileCheck %s

// CHECK-LABEL: func.func @narrow
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.matmul
// CHECK: graph.layernorm
// CHECK: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return %[[G]]
func.func @narrow(%x: tensor<512x256xf32>, %w: tensor<256x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<512x256xf32> {
  %m = graph.matmul %x, %w : (tensor<512x256xf32>, tensor<256x256xf32>) -> tensor<512x256xf32>
  %l = graph.layernorm %m, %g, %b : (tensor<512x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  return %l : tensor<512x256xf32>
}

// CHECK-LABEL: func.func @wide
// CHECK: graph.matmul %arg0, %arg1
// CHECK: graph.layernorm
// CHECK-NOT: fusion.group vertical
func.func @wide(%x: tensor<512x768xf32>, %w: tensor<768x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<512x768xf32> {
  %m = graph.matmul %x, %w : (tensor<512x768xf32>, tensor<768x768xf32>) -> tensor<512x768xf32>
  %l = graph.layernorm %m, %g, %b : (tensor<512x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<512x768xf32>
  return %l : tensor<512x768xf32>
}
