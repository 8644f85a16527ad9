// aic-translate --verbose reports each host function's planned arena against
// the sum of its tensors' bytes (views alias their source, dead buffers share
// bytes), and the bundle's manifest keeps both numbers and the plan.
// RUN: aic-translate --target=nvptx --emit=bundle --verbose --weights=1 %s -o %t.bundle 2>&1 | FileCheck %s
// RUN: python3 -c "import json,struct,sys; d=open(sys.argv[1],'rb').read(); (l,)=struct.unpack_from('<Q',d,8); m=json.loads(d[16:16+l]); p=m['plans'][0]; print(m['version'], p['kind'], p['arena_bytes'], p['tensor_bytes'], [s['kind'] for s in p['steps']], p['buffers'][1]['source'])" %t.bundle | FileCheck %s --check-prefix=MANIFEST
// RUN: not aic-translate --target=nvptx --emit=bundle --weights=x %s -o %t.bundle 2>&1 | FileCheck %s --check-prefix=BADWEIGHTS
// CHECK: remark: @views: planned arena 16384 bytes for 20480 bytes of tensors (80.0%): 5 buffers, 2 launches, 1 aliases
// MANIFEST: 2 planned 16384 20480 ['alias', 'launch', 'launch'] {'kind': 'input', 'arg': 1, 'kept': True}
// BADWEIGHTS: aic-translate: --weights
func.func @views(%x: tensor<1024xf32>, %w: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %r = graph.reshape %x : (tensor<1024xf32>) -> tensor<32x32xf32>
  %m = graph.matmul %r, %w : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = graph.softmax %m, axis = 1 : tensor<32x32xf32>
  %t = graph.softmax %s, axis = 0 : tensor<32x32xf32>
  return %t, %r : tensor<32x32xf32>, tensor<32x32xf32>
}
