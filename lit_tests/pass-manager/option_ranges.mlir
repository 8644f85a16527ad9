// Numeric pass options are checked against their ranges when the pipeline is
// parsed (not by the backend much later), and so are the tools' flags that feed
// them: the error names the option, the value and the allowed range.
// RUN: not aic-opt %s --pass-pipeline='builtin.module(tile-to-gpu{threads=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: for the --threads option: '0' value is out of range: expected 1 to 1024
// ZERO-NEXT: failed to add `tile-to-gpu` with options `threads=0`
// RUN: not aic-opt %s --tile-to-gpu=threads=99999999 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: for the --threads option: '99999999' value is out of range: expected 1 to 1024
// RUN: not aic-opt %s --pass-pipeline='builtin.module(tile-to-gpu{threads=4294967296})' 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: error: for the --threads option: '4294967296' value is out of range: expected 1 to 1024
// RUN: not aic-opt %s --pass-pipeline='builtin.module(tile-to-gpu{warp=65})' 2>&1 | FileCheck %s --check-prefix=WARP
// WARP: error: for the --warp option: '65' value is out of range: expected 0 to 64
// RUN: not aic-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=0})' 2>&1 | FileCheck %s --check-prefix=ITER
// ITER: error: for the --max-iterations option: '0' value is out of range: expected 1 to 4294967295
// RUN: not aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{node-limit=18446744073709551615})' 2>&1 | FileCheck %s --check-prefix=NODES
// NODES: error: for the --node-limit option: '18446744073709551615' value is out of range: expected 1 to 9223372036854775807
// RUN: not aic-run --target=host --entry=@f --threads=0 %s 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: aic-run: --threads: expected 1 to 1024, got '0'
// RUN: not aic-translate --target=host --warp=128 %s 2>&1 | FileCheck %s --check-prefix=TFLAG
// TFLAG: aic-translate: --warp: expected 0 to 64, got '128'
// RUN: aic-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: threads=<uint>{{.*}}(default: 128; 1 to 1024)

func.func @f() {
  return
}
