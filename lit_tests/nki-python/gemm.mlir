// aic-translate --target=nki --emit=python: a bf16 GEMM with a bias and tanh
// epilogue (130 rows: a partial partition block; 600 columns: a partial
// moving block of 512) as one @nki.jit kernel and its host function.
// RUN: aic-translate --target=nki --arch=trn1 --emit=python %s -o - | FileCheck %s
// RUN: aic-translate --target=nki --arch=trn2 --emit=python %s -o - | FileCheck %s --check-prefix=TRN2
// RUN: aic-translate --target=nki --emit=bundle %s -o - | FileCheck %s --check-prefix=BUNDLE

// CHECK: import neuronxcc.nki as nki
// CHECK: import neuronxcc.nki.language as nl
// CHECK: import neuronxcc.nki.isa as nisa
// CHECK: @nki.jit
// CHECK-NEXT: def gemm_0(hbm0, hbm1, hbm2, hbm3):
// CHECK-NEXT: """Kernel gemm_0 for trn1, launched over a grid of [2, 2] programs.
// CHECK: The fused source ops: {{.*}}gemm.mlir:40:8, 42:8, 43:8.
// CHECK: [[ROW:i[0-9]+]] = [[PID:pid[0-9]+]] * 128
// CHECK: [[ACC:t[0-9]+]] = nl.full((128, 512), 0.0, dtype=nl.float32, buffer=nl.psum)
// CHECK: [[CARRY:acc[0-9]+]] = [[ACC]]
// CHECK: for [[K:k[0-9]+]] in nl.sequential_range(0, 200, 128):
// CHECK: [[A:t[0-9]+]] = nl.load(hbm0.reshape((26000,))[({{.*}}) * 200 + [[K]] + {{.*}}], mask=({{.*}} < 130) & ({{.*}} < 200))
// CHECK: [[B:t[0-9]+]] = nl.load(hbm1.reshape((120000,))
// CHECK: [[AT:t[0-9]+]] = nisa.nc_transpose([[A]])
// CHECK: [[S:t[0-9]+]] = nisa.tensor_copy([[AT]], dtype=nl.bfloat16)
// CHECK: [[CARRY]] += nisa.nc_matmul([[S]], [[B]])
// CHECK: nisa.tensor_tensor([[CARRY]], {{t[0-9]+}}, op=nl.add, dtype=nl.float32)
// CHECK: nisa.activation(op=nl.tanh, data={{t[0-9]+}}, bias=None, scale=1.0, dtype=nl.float32)
// CHECK: nl.store(hbm3.reshape((78000,))[{{.*}}], value={{t[0-9]+}}, mask=({{.*}} < 130) & ({{.*}} < 600))
// CHECK: def main(arg0, arg1, arg2):
// CHECK: [[OUT:out[0-9]+]] = np.zeros((130, 600), dtype=BF16)
// CHECK-NEXT: gemm_0[2, 2](arg0, arg1, arg2, [[OUT]])
// CHECK-NEXT: return [[OUT]]

// TRN2: """Kernel gemm_0 for trn2

// BUNDLE: "arch": "trn1"
// BUNDLE: "name": "gemm_0"
// BUNDLE: "note": "NKI Python written by aic; nothing of it has run on Trainium"
// BUNDLE: "python": "# NKI kernels written by aic-translate
// BUNDLE: "target": "nki"
func.func @main(%a: tensor<130x200xbf16>, %b: tensor<200x600xbf16>, %c: tensor<600xbf16>) -> tensor<130x600xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<130x200xbf16>, tensor<200x600xbf16>) -> tensor<130x600xbf16>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<600xbf16>) -> tensor<130x600xbf16>
  %2 = stablehlo.add %0, %1 : tensor<130x600xbf16>
  %3 = stablehlo.tanh %2 : tensor<130x600xbf16>
  return %3 : tensor<130x600xbf16>
}
