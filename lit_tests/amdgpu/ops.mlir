// The amdgpu dialect: mfma, a wavefront's matrix fused multiply-add on CDNA
// matrix cores, in upstream MLIR 22's syntax (the shape written MxNxK, the
// default-valued blocks, cbsz and abid left out, blgp always written). Its
// text round-trips through aic-opt and through real mlir-opt, in both the
// custom and the generic form.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: mlir-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s | mlir-opt | aic-opt | FileCheck %s
// RUN: aic-opt --mlir-print-op-generic %s > %t.aic.generic
// RUN: mlir-opt --mlir-print-op-generic %s > %t.mlir.generic
// RUN: diff %t.aic.generic %t.mlir.generic
// RUN: aic-opt --mlir-print-op-generic %s | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @mfma16
// CHECK: %[[D:.*]] = amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %[[D]] blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
func.func @mfma16(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = amdgpu.mfma 16x16x16 %a * %b + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  %e = amdgpu.mfma 16x16x16 %a * %b + %d {blocks = 1 : i32, cbsz = 0 : i32, abid = 0 : i32} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %e : vector<4xf32>
}

// CHECK-LABEL: func.func @mfma32
// CHECK: amdgpu.mfma 32x32x8 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
func.func @mfma32(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<16xf32>) -> vector<16xf32> {
  %d = amdgpu.mfma 32x32x8 %a * %b + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
  return %d : vector<16xf32>
}
