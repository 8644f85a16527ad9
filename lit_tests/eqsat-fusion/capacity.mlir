// On-chip capacity caps what a kernel may hold: a GEMM feeding a layernorm
// keeps 64 whole rows of its output on chip (64 x 768 x 4 B = 192 KiB). That
// fits an H100's 228 KiB of shared memory, not an MI300's 64 KiB of LDS, so
// the same program fuses differently per target.
// RUN: aic-opt %s --eqsat-fusion=target=h100 | FileCheck %s --check-prefix=H100
// RUN: aic-opt %s --eqsat-fusion=target=mi300 | FileCheck %s --check-prefix=MI300

// H100: %[[G:.*]] = fusion.group vertical
// H100: graph.matmul
// H100: graph.layernorm
// H100: fusion.yield
// H100-NOT: fusion.group
// H100: return %[[G]]

// MI300: graph.matmul %arg0, %arg1
// MI300: graph.layernorm
// MI300-NOT: fusion.group vertical
func.func @gemm_layernorm(%x: tensor<512x768xf32>, %w: tensor<768x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<512x768xf32> {
  %m = graph.matmul %x, %w : (tensor<512x768xf32>, tensor<768x768xf32>) -> tensor<512x768xf32>
  %l = graph.layernorm %m, %g, %b : (tensor<512x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<512x768xf32>
  return %l : tensor<512x768xf32>
}
