// Elementwise blocks per target: on a NeuronCore (target=trn1) a block is a
// row a partition, 128 rows of up to 512 columns, so each Vector
// instruction works on all 128 lanes; on the H100 a block holds about 2048
// elements (two rows of 1024). Through tile-to-nki the trn1 block is one
// [128, 512] SBUF tile an instruction.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{target=trn1},fusion-to-tile{target=trn1})' | FileCheck %s --check-prefix=TRN
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100})' | FileCheck %s --check-prefix=GPU
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{target=trn1},fusion-to-tile{target=trn1},tile-to-nki)' | FileCheck %s --check-prefix=NKI

// TRN: tile.kernel @elementwise_0 grid = [2, 2] {
// TRN: tile.load %arg0[%{{.*}}, %{{.*}}] : memref<256x1024xf32> -> !tile.tile<128x512xf32>
// TRN: tile.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : !tile.tile<128x512xf32>, memref<256x1024xf32>
// GPU: tile.kernel @elementwise_0 grid = [128] {
// GPU: tile.load %arg0[%{{.*}}, %{{.*}}] : memref<256x1024xf32> -> !tile.tile<2x1024xf32>
// NKI: nki.kernel @elementwise_0 grid = [2, 2] arch = trn1 {
// NKI: nki.tensor_tensor add %{{.*}}, %{{.*}} : !nki.tile<128x512xf32, sbuf>, !nki.tile<128x512xf32, sbuf> -> !nki.tile<128x512xf32, sbuf>
// NKI: nki.activation tanh
func.func @ew(%x: tensor<256x1024xf32>, %y: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %a = graph.add %x, %y : tensor<256x1024xf32>
  %t = graph.tanh %a : tensor<256x1024xf32>
  return %t : tensor<256x1024xf32>
}
