// Causal attention as JAX writes it at GPT-2's real length (1024 keys; the
// iota mask's 1024x1024 elements are past constant folding, so the mask is
// computed from iotas): the softmax runs in f32 between casts, so the
// GEMM + softmax step ends in the cast back to f16. That step's rows
// (64 x 1024 floats) do not fit an H100 block, yet it is kept as a step
// of the search and the second GEMM makes the softmax online: ONE
// back-to-back group, which fusion-to-tile lowers to one attention kernel
// with the causal mask computed from indices and the key blocks past a
// block's last query skipped (the loop's bound min(m0 + BM, 1024)).
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s --check-prefix=GROUP
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=TILE
// GROUP-LABEL: func.func @main
// GROUP: fusion.group b2b_gemm
// GROUP: graph.compare GE
// GROUP: graph.softmax
// GROUP: graph.matmul
// GROUP-NOT: fusion.group
// GROUP: return
// TILE-LABEL: tile.kernel @attention_{{[0-9]+}}
// TILE: %[[END:.*]] = arith.addi %{{.*}}, %c{{[0-9]+}}
// TILE: %[[HI:.*]] = arith.minsi %[[END]], %c1024
// TILE: tile.for %c0 to %[[HI]] step
// TILE: arith.cmpi sge
// TILE-NOT: tile.kernel
// TILE-LABEL: func.func @main
// TILE-NOT: fusion.group
// TILE: tile.launch @attention_
// TILE-NOT: tile.launch
func.func @main(%q: tensor<1x2x1024x64xf16>, %k: tensor<1x2x1024x64xf16>, %v: tensor<1x2x1024x64xf16>) -> tensor<1x2x1024x64xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<1x2x1024x64xf16>, tensor<1x2x1024x64xf16>) -> tensor<1x2x1024x1024xf16>
  %c = graph.constant dense<8.0> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<1x2x1024x1024xf16>
  %x = graph.div %s, %cb : tensor<1x2x1024x1024xf16>
  %i = graph.iota dim = 0 : tensor<1024x1024xi32>
  %j = graph.iota dim = 1 : tensor<1024x1024xi32>
  %p = graph.compare GE, %i, %j : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<1x2x1024x1024xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<1x2x1024x1024xf16>
  %z = graph.select %pb, %x, %nb : (tensor<1x2x1024x1024xi1>, tensor<1x2x1024x1024xf16>, tensor<1x2x1024x1024xf16>) -> tensor<1x2x1024x1024xf16>
  %zf = graph.cast %z : (tensor<1x2x1024x1024xf16>) -> tensor<1x2x1024x1024xf32>
  %sm = graph.softmax %zf, axis = 3 : tensor<1x2x1024x1024xf32>
  %ph = graph.cast %sm : (tensor<1x2x1024x1024xf32>) -> tensor<1x2x1024x1024xf16>
  %o = graph.matmul %ph, %v : (tensor<1x2x1024x1024xf16>, tensor<1x2x1024x64xf16>) -> tensor<1x2x1024x64xf16>
  return %o : tensor<1x2x1024x64xf16>
}
