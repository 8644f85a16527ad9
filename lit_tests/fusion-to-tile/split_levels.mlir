// A group no generator takes whole is split around its contractions, by
// levels: the GEMM keeps the epilogue its template takes, and the rest of a
// level is one kernel of the general generator, not one kernel per op.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s

// A GEMM with a RoPE epilogue (slices, products with a table, a concat):
// the GEMM template declines the concat, so the GEMM (with the view of its
// result as heads) is one kernel and the rotation, broadcasts of the table
// included, another.
// CHECK-LABEL: tile.kernel @gemm_
// CHECK-NOT: graph.
// CHECK: aic.kind = "gemm"
// CHECK-LABEL: tile.kernel @general_
// CHECK: aic.kind = "general"
// CHECK-LABEL: func.func @rope
// CHECK-NEXT: %[[H:.*]] = tile.launch @gemm_{{.*}}(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = tile.launch @general_{{.*}}(%[[H]], %arg2, %arg3)
// CHECK-NEXT: return %[[R]]
func.func @rope(%x: tensor<256x1024xf16>, %w: tensor<1024x512xf16>, %cos: tensor<256x32xf32>, %sin: tensor<256x32xf32>) -> tensor<8x256x64xf16> {
  %0 = fusion.group vertical (%a = %x, %b = %w, %c = %cos, %s = %sin) : (tensor<256x1024xf16>, tensor<1024x512xf16>, tensor<256x32xf32>, tensor<256x32xf32>) -> tensor<8x256x64xf16> {
    %m = graph.matmul %a, %b : (tensor<256x1024xf16>, tensor<1024x512xf16>) -> tensor<256x512xf16>
    %r = graph.reshape %m : (tensor<256x512xf16>) -> tensor<256x8x64xf16>
    %t = graph.transpose %r, perm = [1, 0, 2] : (tensor<256x8x64xf16>) -> tensor<8x256x64xf16>
    %f = graph.cast %t : (tensor<8x256x64xf16>) -> tensor<8x256x64xf32>
    %x1 = graph.slice %f [0:8, 0:256, 0:32] : (tensor<8x256x64xf32>) -> tensor<8x256x32xf32>
    %x2 = graph.slice %f [0:8, 0:256, 32:64] : (tensor<8x256x64xf32>) -> tensor<8x256x32xf32>
    %cb = graph.broadcast %c, dims = [1, 2] : (tensor<256x32xf32>) -> tensor<8x256x32xf32>
    %sb = graph.broadcast %s, dims = [1, 2] : (tensor<256x32xf32>) -> tensor<8x256x32xf32>
    %p = graph.mul %x1, %cb : tensor<8x256x32xf32>
    %q = graph.mul %x2, %sb : tensor<8x256x32xf32>
    %lo = graph.sub %p, %q : tensor<8x256x32xf32>
    %u = graph.mul %x2, %cb : tensor<8x256x32xf32>
    %v = graph.mul %x1, %sb : tensor<8x256x32xf32>
    %hi = graph.add %u, %v : tensor<8x256x32xf32>
    %cat = graph.concat %lo, %hi, axis = 2 : (tensor<8x256x32xf32>, tensor<8x256x32xf32>) -> tensor<8x256x64xf32>
    %o = graph.cast %cat : (tensor<8x256x64xf32>) -> tensor<8x256x64xf16>
    fusion.yield %o : tensor<8x256x64xf16>
  }
  return %0 : tensor<8x256x64xf16>
}

// -----

// Sibling GEMMs sharing A (a K and a V projection) on warpgroup MMA: one
// GEMM kernel each, each with its own heads view as the store's addressing.
// CHECK-LABEL: tile.kernel @gemm_
// CHECK: aic.kind = "gemm", aic.tune = "h100/sm_90a/gemm/0x256x512x1024/f16"}
// CHECK-LABEL: tile.kernel @gemm_
// CHECK: aic.kind = "gemm", aic.tune = "h100/sm_90a/gemm/0x256x512x1024/f16"}
// CHECK-LABEL: func.func @siblings
// CHECK-NEXT: %[[K:.*]] = tile.launch @gemm_{{.*}}(%arg0, %arg1)
// CHECK-NEXT: %[[V:.*]] = tile.launch @gemm_{{.*}}(%arg0, %arg2)
// CHECK-NEXT: return %[[K]], %[[V]]
func.func @siblings(%x: tensor<256x1024xf16>, %wk: tensor<1024x512xf16>, %wv: tensor<1024x512xf16>) -> (tensor<8x256x64xf16>, tensor<8x256x64xf16>) {
  %0:2 = fusion.group horizontal (%a = %x, %b = %wk, %c = %wv) : (tensor<256x1024xf16>, tensor<1024x512xf16>, tensor<1024x512xf16>) -> (tensor<8x256x64xf16>, tensor<8x256x64xf16>) {
    %k = graph.matmul %a, %b : (tensor<256x1024xf16>, tensor<1024x512xf16>) -> tensor<256x512xf16>
    %kr = graph.reshape %k : (tensor<256x512xf16>) -> tensor<256x8x64xf16>
    %kt = graph.transpose %kr, perm = [1, 0, 2] : (tensor<256x8x64xf16>) -> tensor<8x256x64xf16>
    %v = graph.matmul %a, %c : (tensor<256x1024xf16>, tensor<1024x512xf16>) -> tensor<256x512xf16>
    %vr = graph.reshape %v : (tensor<256x512xf16>) -> tensor<256x8x64xf16>
    %vt = graph.transpose %vr, perm = [1, 0, 2] : (tensor<256x8x64xf16>) -> tensor<8x256x64xf16>
    fusion.yield %kt, %vt : tensor<8x256x64xf16>, tensor<8x256x64xf16>
  }
  return %0#0, %0#1 : tensor<8x256x64xf16>, tensor<8x256x64xf16>
}

// -----

// Without warpgroup MMA the siblings stay one kernel (A loaded once a K
// step).
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(fusion-to-tile{target=h100 arch=sm_80 total=true})' | FileCheck %s --check-prefix=SYNC
// SYNC-LABEL: func.func @rope
// SYNC-LABEL: func.func @siblings
// SYNC-NEXT: %{{.*}}:2 = tile.launch @gemm_
