// eqsat-fusion's result depends on work limits only: a long chain that stops at
// the node limit gives byte-identical output run after run, and the report says
// the node limit stopped it (the time limit is only a safety net, told by a
// remark when reached).
// RUN: python3 %S/Inputs/add_mul_chain.py 1000 > %t.mlir
// RUN: aic-opt %t.mlir --pass-pipeline='builtin.module(eqsat-fusion{node-limit=3000})' --eqsat-report > %t.1 2> %t.report
// RUN: aic-opt %t.mlir --pass-pipeline='builtin.module(eqsat-fusion{node-limit=3000})' > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.report
// RUN: aic-opt %t.mlir --pass-pipeline='builtin.module(eqsat-fusion{node-limit=3000 time-limit-ms=0})' --aic-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME

// CHECK: eqsat-fusion: 1000 ops, {{.*}} stop: node limit (3000 e-nodes)
// TIME: remark: eqsat-fusion: saturation stopped at the time limit (0 ms) before its work limits; the result may differ between runs
