// tile-early-loads: a kernel's loads move up to just after their operands'
// definitions, past effect-free ops, keeping their order. Layernorm's
// scale and shift (%arg1, %arg2), read after the mean and the variance,
// are read right after its input, before the first reduction. A load of a
// buffer the kernel writes stays where it is, as does a load after a loop
// (it moves up to the loop, not above it) and one whose origin is
// computed in the kernel (it moves up to the op computing it). The whole
// compile (the pass is in aic-translate's and aic-run's pipelines) runs
// on the host equal to the interpreter.
// RUN: aic-opt %s --tile-early-loads | FileCheck %s
// RUN: aic-opt %S/Inputs/layernorm.mlir --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 total=true},tile-early-loads)' | FileCheck %s --check-prefix=LN
// RUN: aic-run --target=host %S/Inputs/layernorm.mlir --entry=@main --args "[dense<[[1.0, 2.0, 3.0, 4.5], [0.5, -1.0, 2.0, 8.0]]> : tensor<2x4xf32>, dense<[1.0, 0.5, 2.0, -1.0]> : tensor<4xf32>, dense<[0.0, 1.0, -2.0, 0.25]> : tensor<4xf32>]" --check 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: tile.kernel @rows_0
// CHECK: %[[X:.*]] = tile.load %arg0
// CHECK-NEXT: tile.load %arg1
// CHECK-NEXT: tile.load %arg2
// CHECK: tile.reduce sum
// CHECK: tile.reduce sum
// CHECK-NOT: tile.load
// CHECK: tile.store

// CHECK-LABEL: tile.kernel @in_place
// CHECK: tile.store
// CHECK: tile.map
// CHECK: tile.load %arg0
// CHECK: tile.store

// CHECK-LABEL: tile.kernel @after_loop
// CHECK: tile.for
// CHECK: tile.yield %{{.*}} : !tile.tile<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = tile.load %arg1
// CHECK: tile.map

// CHECK-LABEL: tile.kernel @computed_origin
// CHECK: tile.load %arg0
// CHECK: %[[R:.*]] = arith.addi
// CHECK-NEXT: tile.load %arg1[%[[R]]]
// CHECK: tile.map

// LN-LABEL: tile.kernel @rows_0
// LN: tile.load %arg0
// LN-NEXT: tile.load %arg1
// LN-NEXT: tile.load %arg2
// LN: tile.reduce sum

// HOST: check: ok

module {
  tile.kernel @rows_0 grid = [1] {
  ^bb0(%arg0: memref<8x64xf16>, %arg1: memref<64xf16>, %arg2: memref<64xf16>, %arg3: memref<8x64xf16>):
    %0 = tile.program_id 0 : index
    %c8 = arith.constant 8 : index
    %1 = arith.muli %0, %c8 : index
    %c0 = arith.constant 0 : index
    %2 = tile.load %arg0[%1, %c0] : memref<8x64xf16> -> !tile.tile<8x64xf16>
    %3 = tile.map %2 : (!tile.tile<8x64xf16>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f16):
      %21 = arith.extf %arg4 : f16 to f32
      tile.yield %21 : f32
    }
    %4 = tile.reduce sum %3, axis = 1 : !tile.tile<8x64xf32> -> !tile.tile<8xf32>
    %5 = tile.map %4 : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
    ^bb0(%arg4: f32):
      %cst = arith.constant 1.562500e-02 : f32
      %21 = arith.mulf %arg4, %cst : f32
      tile.yield %21 : f32
    }
    %6 = tile.broadcast %5, dims = [0] : !tile.tile<8xf32> -> !tile.tile<8x64xf32>
    %7 = tile.map %3, %6 : (!tile.tile<8x64xf32>, !tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %21 = arith.subf %arg4, %arg5 : f32
      tile.yield %21 : f32
    }
    %8 = tile.map %7, %7 : (!tile.tile<8x64xf32>, !tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %21 = arith.mulf %arg4, %arg5 : f32
      tile.yield %21 : f32
    }
    %9 = tile.reduce sum %8, axis = 1 : !tile.tile<8x64xf32> -> !tile.tile<8xf32>
    %10 = tile.map %9 : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
    ^bb0(%arg4: f32):
      %cst = arith.constant 1.562500e-02 : f32
      %21 = arith.mulf %arg4, %cst : f32
      tile.yield %21 : f32
    }
    %11 = tile.map %10 : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
    ^bb0(%arg4: f32):
      %cst = arith.constant 9.99999974E-6 : f32
      %21 = arith.addf %arg4, %cst : f32
      %22 = math.rsqrt %21 : f32
      tile.yield %22 : f32
    }
    %12 = tile.broadcast %11, dims = [0] : !tile.tile<8xf32> -> !tile.tile<8x64xf32>
    %13 = tile.map %7, %12 : (!tile.tile<8x64xf32>, !tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %21 = arith.mulf %arg4, %arg5 : f32
      tile.yield %21 : f32
    }
    %14 = tile.load %arg1[%1, %c0] through #coord.desc<[8, 64] | broadcast [0] -> [], pass [1] -> [0]> : memref<64xf16> -> !tile.tile<8x64xf16>
    %15 = tile.map %14 : (!tile.tile<8x64xf16>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f16):
      %21 = arith.extf %arg4 : f16 to f32
      tile.yield %21 : f32
    }
    %16 = tile.map %13, %15 : (!tile.tile<8x64xf32>, !tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %21 = arith.mulf %arg4, %arg5 : f32
      tile.yield %21 : f32
    }
    %17 = tile.load %arg2[%1, %c0] through #coord.desc<[8, 64] | broadcast [0] -> [], pass [1] -> [0]> : memref<64xf16> -> !tile.tile<8x64xf16>
    %18 = tile.map %17 : (!tile.tile<8x64xf16>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f16):
      %21 = arith.extf %arg4 : f16 to f32
      tile.yield %21 : f32
    }
    %19 = tile.map %16, %18 : (!tile.tile<8x64xf32>, !tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %21 = arith.addf %arg4, %arg5 : f32
      tile.yield %21 : f32
    }
    %20 = tile.map %19 : (!tile.tile<8x64xf32>) -> !tile.tile<8x64xf16> {
    ^bb0(%arg4: f32):
      %21 = arith.truncf %arg4 : f32 to f16
      tile.yield %21 : f16
    }
    tile.store %20, %arg3[%1, %c0] : !tile.tile<8x64xf16>, memref<8x64xf16>
    tile.return
  } {aic.flops = 4097 : i64, aic.kind = "rows"}
  tile.kernel @in_place grid = [1] {
  ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %0 = tile.load %arg1[%c0] : memref<64xf32> -> !tile.tile<64xf32>
    tile.store %0, %arg0[%c0] : !tile.tile<64xf32>, memref<64xf32>
    %1 = tile.map %0 : (!tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32):
      %s = arith.mulf %a, %a : f32
      tile.yield %s : f32
    }
    %2 = tile.load %arg0[%c0] : memref<64xf32> -> !tile.tile<64xf32>
    %3 = tile.map %1, %2 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.yield %s : f32
    }
    tile.store %3, %arg1[%c0] : !tile.tile<64xf32>, memref<64xf32>
    tile.return
  }
  tile.kernel @after_loop grid = [1] {
  ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tile.broadcast %cst, dims = [] : f32 -> !tile.tile<64xf32>
    %1 = tile.for %c0 to %c4 step %c1 iter_args(%0 : !tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%i: index, %acc: !tile.tile<64xf32>):
      %x = tile.load %arg0[%c0] : memref<64xf32> -> !tile.tile<64xf32>
      %s = tile.map %acc, %x : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tile.yield %t : f32
      }
      tile.yield %s : !tile.tile<64xf32>
    }
    %2 = tile.load %arg1[%c0] : memref<64xf32> -> !tile.tile<64xf32>
    %3 = tile.map %1, %2 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.mulf %a, %b : f32
      tile.yield %t : f32
    }
    tile.store %3, %arg2[%c0] : !tile.tile<64xf32>, memref<64xf32>
    tile.return
  }
  tile.kernel @computed_origin grid = [2] {
  ^bb0(%arg0: memref<128xf32>, %arg1: memref<192xf32>, %arg2: memref<128xf32>):
    %0 = tile.program_id 0 : index
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.load %arg0[%1] : memref<128xf32> -> !tile.tile<64xf32>
    %3 = tile.map %2 : (!tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32):
      %t = arith.mulf %a, %a : f32
      tile.yield %t : f32
    }
    %4 = arith.addi %1, %c64 : index
    %5 = tile.map %3 : (!tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32):
      %t = arith.addf %a, %a : f32
      tile.yield %t : f32
    }
    %6 = tile.load %arg1[%4] : memref<192xf32> -> !tile.tile<64xf32>
    %7 = tile.map %5, %6 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tile.yield %t : f32
    }
    tile.store %7, %arg2[%1] : !tile.tile<64xf32>, memref<128xf32>
    tile.return
  }
  func.func @main(%arg0: tensor<8x64xf16>, %arg1: tensor<64xf16>, %arg2: tensor<64xf16>) -> tensor<8x64xf16> {
    %0 = tile.launch @rows_0(%arg0, %arg1, %arg2) : (tensor<8x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<8x64xf16>
    return %0 : tensor<8x64xf16>
  }
}

