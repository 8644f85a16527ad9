// A researcher's rule set, one rule per line in a .rules file, joins the
// built-in ones through `rule-files`; a broken rule is an error naming the
// file and line, not a crash.
// RUN: echo 'relu-abs: (graph.relu (graph.abs ?x)) => (graph.abs ?x)' > %t.rules
// RUN: aic-opt %s --eqsat-fusion="rules=algebraic rule-files=%t.rules" | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion="rules=algebraic" | FileCheck %s --check-prefix=BUILTIN
// RUN: printf '# ok\nbad: (graph.abs ?x) => ?y\n' > %t.bad.rules
// RUN: not aic-opt %s --eqsat-fusion="rule-files=%t.bad.rules" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not aic-opt %s --eqsat-fusion="rule-files=%t.missing.rules" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '# ok\nok: (graph.abs ?x) => ?x\nfold-foo: (graph.frobnicate ?x) => ?x\n' > %t.unknown.rules
// RUN: not aic-opt %s --eqsat-fusion="rule-files=%t.unknown.rules" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[A:.*]] = graph.abs %arg0
// CHECK-NEXT: return %[[A]]
// BUILTIN: graph.relu
// BAD: error: {{.*}}.bad.rules: line 2: bad: Rewrite bad refers to unbound var ?y
// MISSING: error: cannot read rule file '{{.*}}.missing.rules'
// UNKNOWN: error: {{.*}}.unknown.rules: line 3: rule 'fold-foo': unknown op 'graph.frobnicate'
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.abs %x : tensor<4xf32>
  %r = graph.relu %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
