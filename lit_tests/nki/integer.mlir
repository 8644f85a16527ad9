// The nki dialect's integer work: bitwise and/or/xor and shifts on the
// Vector engine, an i32 immediate where fp32 cannot hold it, booleans (i1
// tiles, bytes of 0 or 1), and nki.bitcast seeing f32 bits as i32. The text
// round-trips, and launched on tensors the kernel gives the total-order key
// of each float (its bits, the magnitude bits flipped for negatives), its
// sign bit by an arithmetic shift, and the flags copied to integers.
// RUN: aic-opt %s | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-run --interpret %s | FileCheck %s

// ROUND-LABEL: nki.kernel @keys grid = [1] arch = trn1 {
// ROUND: nki.bitcast %{{.*}} : !nki.tile<1x4xf32, sbuf> -> !nki.tile<1x4xi32, sbuf>
// ROUND: nki.tensor_scalar right_shift %{{.*}}, 3.100000e+01 : f32 : !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
// ROUND: nki.tensor_scalar bitwise_and %{{.*}}, 2147483647 : i32 : !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
// ROUND: nki.tensor_tensor bitwise_xor %{{.*}}, %{{.*}} : !nki.tile<1x4xi32, sbuf>, !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
// ROUND: nki.tensor_scalar left_shift %{{.*}}, 1.000000e+00 : f32
// ROUND: nki.tensor_tensor bitwise_or %{{.*}}, %{{.*}} : !nki.tile<1x4xi1, sbuf>, !nki.tile<1x4xi1, sbuf> -> !nki.tile<1x4xi1, sbuf>
nki.kernel @keys grid = [1] arch = trn1 {
^bb0(%x: memref<4xf32>, %key: memref<4xi32>, %twice: memref<4xi32>, %flag: memref<4xi32>):
  %c0 = arith.constant 0 : index
  %t = nki.load %x[%c0, %c0] through #coord.desc<[1, 4] | unmerge [0, 1] -> [0]> : memref<4xf32> -> !nki.tile<1x4xf32, sbuf>
  %b = nki.bitcast %t : !nki.tile<1x4xf32, sbuf> -> !nki.tile<1x4xi32, sbuf>
  %s = nki.tensor_scalar right_shift %b, 31.0 : f32 : !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
  %m = nki.tensor_scalar bitwise_and %s, 2147483647 : i32 : !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
  %k = nki.tensor_tensor bitwise_xor %b, %m : !nki.tile<1x4xi32, sbuf>, !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
  nki.store %k, %key[%c0, %c0] through #coord.desc<[1, 4] | unmerge [0, 1] -> [0]> : !nki.tile<1x4xi32, sbuf>, memref<4xi32>
  %one = nki.memset 3.0 : f32 : !nki.tile<1x4xi32, sbuf>
  %two = nki.tensor_scalar left_shift %one, 1.0 : f32 : !nki.tile<1x4xi32, sbuf> -> !nki.tile<1x4xi32, sbuf>
  nki.store %two, %twice[%c0, %c0] through #coord.desc<[1, 4] | unmerge [0, 1] -> [0]> : !nki.tile<1x4xi32, sbuf>, memref<4xi32>
  %neg = nki.tensor_scalar is_lt %t, 0.0 : f32 : !nki.tile<1x4xf32, sbuf> -> !nki.tile<1x4xi1, sbuf>
  %big = nki.tensor_scalar is_gt %t, 1.0 : f32 : !nki.tile<1x4xf32, sbuf> -> !nki.tile<1x4xi1, sbuf>
  %either = nki.tensor_tensor bitwise_or %neg, %big : !nki.tile<1x4xi1, sbuf>, !nki.tile<1x4xi1, sbuf> -> !nki.tile<1x4xi1, sbuf>
  %f = nki.copy %either : !nki.tile<1x4xi1, sbuf> -> !nki.tile<1x4xi32, sbuf>
  nki.store %f, %flag[%c0, %c0] through #coord.desc<[1, 4] | unmerge [0, 1] -> [0]> : !nki.tile<1x4xi32, sbuf>, memref<4xi32>
  nki.return
}

// CHECK: PASS total_order_keys
func.func @total_order_keys() {
  %x = stablehlo.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
  %k:3 = nki.launch @keys(%x) : (tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  // 1.0 = 0x3F800000; -1.0 = 0xBF800000 whose key is 0xC07FFFFF.
  %want = stablehlo.constant dense<[1065353216, -1065353217, 1056964608, 1073741824]> : tensor<4xi32>
  check.expect_eq %k#0, %want : tensor<4xi32>
  %six = stablehlo.constant dense<6> : tensor<4xi32>
  check.expect_eq %k#1, %six : tensor<4xi32>
  // Booleans are 0 or 1, also copied to integers.
  %flags = stablehlo.constant dense<[0, 1, 0, 1]> : tensor<4xi32>
  check.expect_eq %k#2, %flags : tensor<4xi32>
  return
}
