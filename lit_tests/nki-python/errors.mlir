// aic-translate --target=nki: what NKI Python cannot express is an error at
// the op (a special function the host would have to compute: the emitted
// host writes scalar arithmetic, comparisons, selects, constants and control
// flow around the kernels), and --emit must be python or bundle; exit 1.
// RUN: not aic-translate --target=nki --emit=python %s -o - 2>&1 | FileCheck %s
// RUN: not aic-translate --target=nki --emit=asm %s -o - 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not aic-translate --target=nki --arch=trn9 --emit=python %s -o - 2>&1 | FileCheck %s --check-prefix=ARCH

// CHECK: errors.mlir:[[@LINE+4]]:8: 'graph.erf' op cannot emit as NKI Python: graph.erf on the host: kernel launches, views, constants, scalar arithmetic and control flow are emitted
// EMIT: aic-translate: unsupported --emit 'asm' for --target=nki: expected python or bundle
// ARCH: aic-translate: {{.*}}trn9
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %e = chlo.erf %x : tensor<f32> -> tensor<f32>
  return %e : tensor<f32>
}
