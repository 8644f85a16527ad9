// aic-translate --target=nki: what NKI Python cannot express is an error at
// the op (a constant the host would have to make: only kernel launches and
// reshapes run there), and --emit must be python or bundle; exit 1.
// RUN: not aic-translate --target=nki --emit=python %s -o - 2>&1 | FileCheck %s
// RUN: not aic-translate --target=nki --emit=asm %s -o - 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not aic-translate --target=nki --arch=trn9 --emit=python %s -o - 2>&1 | FileCheck %s --check-prefix=ARCH

// CHECK: errors.mlir:[[@LINE+4]]:8: 'graph.constant' op cannot emit as NKI Python: graph.constant on the host: only kernel launches and reshapes are emitted
// EMIT: aic-translate: unsupported --emit 'asm' for --target=nki: expected python or bundle
// ARCH: aic-translate: {{.*}}trn9
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
