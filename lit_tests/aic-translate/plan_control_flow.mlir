// A function with a loop and a choice compiles to one plan: the loop is a
// `while` step holding its test's and body's steps (the test and counter are
// one-element kernels), the initial values and the body's results are copied
// into the carried buffers, and each branch of the `case` copies its result
// into the choice's buffer. --verbose counts the nested steps; the bundle's
// manifest keeps the nested step lists.
// RUN: aic-translate --target=nvptx --emit=bundle --verbose %s -o %t.bundle 2>&1 | FileCheck %s
// RUN: python3 -c "import json,struct,sys; d=open(sys.argv[1],'rb').read(); (l,)=struct.unpack_from('<Q',d,8); m=json.loads(d[16:16+l]); p=m['plans'][0]; show=lambda ss: ' '.join('while(' + show(s['cond']) + ' | ' + show(s['body']) + ')' if s['kind'] == 'while' else 'case(' + ' | '.join(show(b) for b in s['branches']) + ')' if s['kind'] == 'case' else s['kind'] for s in ss); print(p['kind'], show(p['steps']))" %t.bundle | FileCheck %s --check-prefix=MANIFEST
// CHECK: remark: @loop: planned arena {{[0-9]+}} bytes for {{[0-9]+}} bytes of tensors ({{.*}}): {{[0-9]+}} buffers, 5 launches, 0 aliases, 6 copies, 1 loops, 1 choices
// MANIFEST: planned copy copy while(launch | launch launch copy copy) case(launch copy | launch copy)
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>, %k: tensor<i32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.tanh %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %y = "stablehlo.case"(%k) ({
    %a = stablehlo.negate %r#1 : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %b = stablehlo.multiply %r#1, %r#1 : tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
