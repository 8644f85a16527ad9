// Horizontal fusion: sibling kernels whose GEMMs read the same value (the
// Q/K/V projections of attention, each with its bias) become one
// multi-result fusion.group of kind horizontal, launched once; a sibling
// that reads another's result, or GEMMs of different operands, stay apart.
// RUN: aic-opt %s --split-input-file --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --split-input-file --eqsat-fusion --eqsat-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @qkv
// CHECK: %[[G:.*]]:3 = fusion.group horizontal (%{{.*}} = %arg0,
// CHECK-COUNT-3: graph.matmul
// CHECK: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return %[[G]]#0, %[[G]]#1, %[[G]]#2
// REPORT: kernels: 6 before, 1 after
// REPORT: fused horizontal [matmul bias_add matmul bias_add matmul bias_add]: {{[0-9.]+}} us, as 3 kernels {{[0-9.]+}} us, saving {{[0-9.]+}} us
func.func @qkv(%x: tensor<128x256xf32>, %wq: tensor<256x256xf32>, %bq: tensor<256xf32>, %wk: tensor<256x256xf32>, %bk: tensor<256xf32>, %wv: tensor<256x256xf32>, %bv: tensor<256xf32>) -> (tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>) {
  %q = graph.matmul %x, %wq : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
  %qb = graph.bias_add %q, %bq : (tensor<128x256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %k = graph.matmul %x, %wk : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
  %kb = graph.bias_add %k, %bk : (tensor<128x256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %v = graph.matmul %x, %wv : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
  %vb = graph.bias_add %v, %bv : (tensor<128x256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  return %qb, %kb, %vb : tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>
}

// -----

// The second GEMM reads the first's result: a chain, not siblings.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: fusion.group horizontal
// CHECK: return
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = graph.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = graph.relu %a : tensor<64x64xf32>
  %b = graph.matmul %x, %r : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r, %b : tensor<64x64xf32>, tensor<64x64xf32>
}

// GEMMs of different left operands share nothing.
// CHECK-LABEL: func.func @unrelated
// CHECK-NOT: fusion.group horizontal
// CHECK: return
func.func @unrelated(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = graph.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = graph.matmul %y, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Reductions of one tensor (its maximum, its mean) are batched into one
// kernel that reads it once.
// CHECK-LABEL: func.func @statistics
// CHECK: %[[G:.*]]:2 = fusion.group horizontal (%{{.*}} = %arg0)
// CHECK-DAG: graph.reduce max
// CHECK-DAG: graph.reduce mean
// CHECK: return %[[G]]#0, %[[G]]#1
// REPORT: fused horizontal [reduce reduce]
func.func @statistics(%x: tensor<64x256xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %m = graph.reduce max %x, axes = [1] : (tensor<64x256xf32>) -> tensor<64xf32>
  %a = graph.reduce mean %x, axes = [1] : (tensor<64x256xf32>) -> tensor<64xf32>
  return %m, %a : tensor<64xf32>, tensor<64xf32>
}

// -----

// Independent layernorms of the same form over different tensors batch into
// one launch.
// CHECK-LABEL: func.func @sibling_layernorms
// CHECK: %[[G:.*]]:2 = fusion.group horizontal
// CHECK-COUNT-2: graph.layernorm
// CHECK: return %[[G]]#0, %[[G]]#1
// REPORT: fused horizontal [layernorm layernorm]
func.func @sibling_layernorms(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %a = graph.layernorm %x, %g, %b : (tensor<64x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %c = graph.layernorm %y, %g, %b : (tensor<64x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  return %a, %c : tensor<64x256xf32>, tensor<64x256xf32>
}

// -----

// Siblings each of which fills the H100 on its own (4096 x 768 outputs,
// BERT-base's Q/K/V) stay apart: a joint kernel would run them on smaller
// tiles, without the single GEMM's matrix-unit pipeline. On a target where
// nothing was measured (mi300) they still join.
// RUN: aic-opt %s --split-input-file --eqsat-fusion=target=mi300 | FileCheck %s --check-prefix=MI300
// CHECK-LABEL: func.func @bert_qkv
// CHECK-NOT: fusion.group horizontal
// CHECK: return
// MI300-LABEL: func.func @bert_qkv
// MI300: fusion.group horizontal
func.func @bert_qkv(%x: tensor<4096x768xf16>, %wq: tensor<768x768xf16>, %bq: tensor<768xf16>, %wk: tensor<768x768xf16>, %bk: tensor<768xf16>, %wv: tensor<768x768xf16>, %bv: tensor<768xf16>) -> (tensor<4096x768xf16>, tensor<4096x768xf16>, tensor<4096x768xf16>) {
  %q = graph.matmul %x, %wq : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %qb = graph.bias_add %q, %bq : (tensor<4096x768xf16>, tensor<768xf16>) -> tensor<4096x768xf16>
  %k = graph.matmul %x, %wk : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %kb = graph.bias_add %k, %bk : (tensor<4096x768xf16>, tensor<768xf16>) -> tensor<4096x768xf16>
  %v = graph.matmul %x, %wv : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %vb = graph.bias_add %v, %bv : (tensor<4096x768xf16>, tensor<768xf16>) -> tensor<4096x768xf16>
  return %qb, %kb, %vb : tensor<4096x768xf16>, tensor<4096x768xf16>, tensor<4096x768xf16>
}
