// Ops whose inherent attributes are all absent print no `<{}>` in generic form,
// also after reading aic's own generic output (found by fuzzing).
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt --mlir-print-op-generic > %t.aic
// RUN: mlir-opt %s --mlir-print-op-generic > %t.ref
// RUN: diff %t.aic %t.ref
func.func @f(%a: f32, %v: vector<4xf64>) -> (f64, vector<4xf16>) {
  %0 = "arith.extf"(%a) : (f32) -> f64
  %1 = arith.truncf %v : vector<4xf64> to vector<4xf16>
  return %0, %1 : f64, vector<4xf16>
}
