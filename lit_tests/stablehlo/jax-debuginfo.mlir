// JAX's export with debug info (`as_text(debug_info=True)`: `loc(...)` on every
// op, `#loc` aliases after the module) prints back byte for byte (the input is
// JAX's text with the blank line mlir-opt prints after the location aliases).
// RUN: aic-opt %S/Inputs/jax_gelu_debuginfo.mlir --mlir-print-debuginfo | diff %S/Inputs/jax_gelu_debuginfo.mlir -
// RUN: aic-opt %S/Inputs/jax_gelu_debuginfo.mlir --mlir-print-debuginfo --mlir-print-op-generic | aic-opt --mlir-print-debuginfo | diff %S/Inputs/jax_gelu_debuginfo.mlir -
