// aic-translate compiles a module at any level through the default pipeline:
// one kernel per generator here (GEMM + epilogue, attention, rows,
// elementwise, convolution). NVPTX: one PTX file with every kernel
// (ptx_kernel entries, dynamic shared memory, barriers), and the LLVM IR
// passes llc for sm_80 and sm_90; AMDGPU: linked code objects whose notes
// list every kernel with its LDS size; host: an object with each kernel's
// grid entry; bundle: the binary with its manifest.
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=LLC
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=llvm-ir %s -o %t90.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90a %t90.ll -o - | FileCheck %s --check-prefix=LLC
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=obj %s -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=AMD
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=obj %s -o %t90a.hsaco
// RUN: llvm-readelf --notes %t90a.hsaco | FileCheck %s --check-prefix=AMD
// RUN: aic-translate --target=host --emit=obj %s -o %t.o
// RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=HOST
// RUN: aic-translate --target=nvptx --emit=bundle %s -o %t.bundle
// RUN: head -c 8 %t.bundle | FileCheck %s --check-prefix=BUNDLE

// PTX: .target sm_90
// PTX-DAG: .entry gemm_0
// PTX-DAG: .entry attention_
// PTX-DAG: .entry rows_
// PTX-DAG: .entry elementwise_
// PTX-DAG: .extern .shared
// PTX-DAG: bar.sync
// LLC: .entry
// AMD: amdhsa.kernels
// AMD-DAG: .name: gemm_0
// AMD-DAG: .name: attention_
// AMD-DAG: .group_segment_fixed_size: {{[1-9][0-9]*}}
// HOST-DAG: gemm_0.grid
// HOST-DAG: rows_{{[0-9]+}}.grid
// BUNDLE: AICBNDL1

func.func @dense(%x: tensor<5x70xf16>, %w: tensor<70x33xf16>, %b: tensor<33xf16>) -> tensor<5x33xf16> {
  %m = graph.matmul %x, %w : (tensor<5x70xf16>, tensor<70x33xf16>) -> tensor<5x33xf16>
  %a = graph.bias_add %m, %b : (tensor<5x33xf16>, tensor<33xf16>) -> tensor<5x33xf16>
  %r = graph.gelu_tanh %a : tensor<5x33xf16>
  return %r : tensor<5x33xf16>
}

func.func @attn(%q: tensor<2x5x8xf32>, %k: tensor<2x70x8xf32>, %v: tensor<2x70x3xf32>, %s: tensor<f32>) -> tensor<2x5x3xf32> {
  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> tensor<2x5x70xf32>
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x5x8xf32>, tensor<2x70x8xf32>) -> tensor<2x5x70xf32>
  %x = graph.mul %qk, %sb : tensor<2x5x70xf32>
  %p = graph.softmax %x, axis = 2 : tensor<2x5x70xf32>
  %o = graph.matmul %p, %v : (tensor<2x5x70xf32>, tensor<2x70x3xf32>) -> tensor<2x5x3xf32>
  return %o : tensor<2x5x3xf32>
}

func.func @norm(%x: tensor<7x37xf32>, %g: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<7x37xf32> {
  %y = graph.layernorm %x, %g, %b : (tensor<7x37xf32>, tensor<37xf32>, tensor<37xf32>) -> tensor<7x37xf32>
  return %y : tensor<7x37xf32>
}

func.func @ew(%x: tensor<3x50xf32>, %y: tensor<3x50xf32>) -> tensor<3x50xf32> {
  %a = graph.mul %x, %y : tensor<3x50xf32>
  %b = graph.tanh %a : tensor<3x50xf32>
  %c = graph.sub %b, %x : tensor<3x50xf32>
  return %c : tensor<3x50xf32>
}

func.func @conv(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %c = graph.conv2d %x, %w, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %c : tensor<1x3x3x4xf32>
}
