// aic-translate --dim-bounds: a module with `?` dims (here written by
// jax.export for a symbolic batch) compiles once for every size up to the
// bound, rounded up to a power of two (the tuning bucket); the bundle's plan
// records each argument's and result's dims by name, and the size its
// trailing size input holds (filled at run time from the arguments' shapes). Without a bound it is
// an error naming the dim, and without any bounds the code generator's error
// about the `?` says how to give them.
// RUN: aic-translate --target=host --emit=bundle --dim-bounds=b=100 %S/../../tools/tests/fixtures/jax_dynamic/softmax.mlir -o - | FileCheck %s
// RUN: not aic-translate --target=host --emit=bundle %S/../../tools/tests/fixtures/jax_dynamic/softmax.mlir -o - 2>&1 | FileCheck %s --check-prefix=NOBOUND
// RUN: not aic-translate --target=host --emit=bundle --dim-bounds=s=4 %S/../../tools/tests/fixtures/jax_dynamic/softmax.mlir -o - 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: not aic-translate --target=host --emit=bundle --dim-bounds=b=x %S/../../tools/tests/fixtures/jax_dynamic/softmax.mlir -o - 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: "dynamic":{"bounds":{{\[\[}}"b",128]],"args":{{\[\[}}{"coef":1,"syms":["b"]},{"coef":10,"syms":[]}]],"results":{{\[\[}}{"coef":1,"syms":["b"]},{"coef":10,"syms":[]}]],"sizes":["b"],"in_place":false,"buckets":[]}
// NOBOUND: aic-translate: dynamic dimensions are not supported yet by code generation (tensor<?x10xf32>)
// NOBOUND-NEXT: a public function has dynamic (`?`) dimensions: give each a bound (--dim-bounds=NAME=N;
// BAD: --dim-bounds: 'b=x': N must be an integer
// UNNAMED: dynamic dimension 'b' has no bound: pass dynamic-dims{bounds=b=N} (aic-translate/aic-run --dim-bounds=b=N)
