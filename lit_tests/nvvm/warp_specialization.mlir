// The nvvm ops of warp-specialised kernels in upstream's syntax
// (mlir-opt-22 parses the same ops): a block of two warpgroups whose
// second gives registers back (setmaxregister decrease) and ends, while
// the first takes more (increase) and meets on named barrier 1 of its 128
// threads, reversing x through shared memory; then the block barrier,
// which the second warpgroup's ended threads no longer hold up. Round
// trip in pretty and generic form, and the PTX.
// (backends/llvm/tests/llvm.rs runs this kernel on the host.)
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: not aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: gpu.kernel @ws
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PTX: .reqntid 256, 1, 1
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX: bar.sync 1, 128;
// PTX: bar.sync 0;
// SM90: 'nvvm.setmaxregister' needs --arch=sm_90a, not sm_90

// Two warpgroups taking turns on named barriers 2 and 3 (ping-pong):
// the second arrives on the first's barrier (2) without waiting, the first
// waits there, writes 7 to shared memory and arrives on the second's (3),
// where the second waits before it reads the 7: y = x + 7.
// CHECK-LABEL: gpu.kernel @turns
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PTX-LABEL: .entry turns
// PTX: bar.arrive 2, 256;
// PTX: bar.sync 2, 256;
// PTX: bar.arrive 3, 256;
// PTX: bar.sync 3, 256;
gpu.kernel @ws grid = [1, 1, 1] block = [256, 1, 1] shared = 512 {
^bb0(%x: memref<128xf32>, %y: memref<128xf32>):
  %tid = gpu.thread_id x
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %id = arith.constant 1 : i32
  %n = arith.constant 128 : i32
  %s = gpu.shared offset = 0 : memref<128xf32, #gpu.address_space<workgroup>>
  %producer = arith.cmpi uge, %tid, %c128 : index
  scf.if %producer {
    nvvm.setmaxregister decrease 40
  }
  %consumer = arith.cmpi ult, %tid, %c128 : index
  scf.if %consumer {
    nvvm.setmaxregister increase 232
    %v = memref.load %x[%tid] : memref<128xf32>
    memref.store %v, %s[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    nvvm.barrier id = %id number_of_threads = %n
    %r = arith.subi %c127, %tid : index
    %w = memref.load %s[%r] : memref<128xf32, #gpu.address_space<workgroup>>
    memref.store %w, %y[%tid] : memref<128xf32>
  }
  gpu.barrier
  gpu.return
}

gpu.kernel @turns grid = [1, 1, 1] block = [256, 1, 1] shared = 16 {
^bb0(%x: memref<128xf32>, %y: memref<128xf32>):
  %tid = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %first_turn = arith.constant 2 : i32
  %second_turn = arith.constant 3 : i32
  %n = arith.constant 256 : i32
  %seven = arith.constant 7.0 : f32
  %s = gpu.shared offset = 0 : memref<4xf32, #gpu.address_space<workgroup>>
  %second = arith.cmpi uge, %tid, %c128 : index
  scf.if %second {
    nvvm.barrier.arrive id = %first_turn number_of_threads = %n
  }
  %first = arith.cmpi ult, %tid, %c128 : index
  scf.if %first {
    nvvm.barrier id = %first_turn number_of_threads = %n
    %lead = arith.cmpi eq, %tid, %c0 : index
    scf.if %lead {
      memref.store %seven, %s[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    nvvm.barrier.arrive id = %second_turn number_of_threads = %n
  }
  scf.if %second {
    nvvm.barrier id = %second_turn number_of_threads = %n
    %i = arith.subi %tid, %c128 : index
    %v = memref.load %x[%i] : memref<128xf32>
    %w = memref.load %s[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %r = arith.addf %v, %w : f32
    memref.store %r, %y[%i] : memref<128xf32>
  }
  gpu.return
}
