// Malformed sdy attributes and ops: each error names what is wrong.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{axis "x" has size 0, not a positive one}}
sdy.mesh @m = <["x"=0]>

// -----

// expected-error@+1 {{expected ','}}
sdy.mesh @m = <["x"=2 "y"=2]>

// -----

// expected-error@+1 {{'sdy.mesh' op number of device ids (3) must match the mesh's 4 devices}}
sdy.mesh @m = <["x"=2, "y"=2], device_ids=[0, 1, 2]>

// -----

// expected-error@+1 {{'sdy.mesh' op device ids must be a permutation of 0 to the number of devices}}
sdy.mesh @m = <["x"=2], device_ids=[0, 0]>

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' op sharding refers to an unknown mesh @n}}
  %0 = sdy.sharding_constraint %a <@n, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' op sharding has 2 dimension shardings, but its tensor has rank 1}}
  %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' op sharding names axis "z", not in the mesh}}
  %0 = sdy.sharding_constraint %a <@m, [{"z"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' op sharding uses axis "x" more than once}}
  %0 = sdy.sharding_constraint %a <@m, [{"x"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expected a priority 'p<N>', got 'pq'}}
  %0 = sdy.sharding_constraint %a <@m, [{"x"}pq]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expected 'replicated' or 'unreduced'}}
  %0 = sdy.sharding_constraint %a <@m, [{"x"}], colour={"x"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op operand #0: the body's type 'tensor<8xf32>' is not the local type 'tensor<4xf32>' of 'tensor<8xf32>' under its sharding}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{}]>] manual_axes={"x"} (%b: tensor<8xf32>) {
    sdy.return %b : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=4]>
func.func @f(%a: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op operand #0: dimension 0 of size 6 is split into 4 shards, which does not divide it}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    sdy.return %b : tensor<2xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op has 2 in_shardings for 1 operands}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{}]>, <@m, [{}]>] out_shardings=[<@m, [{}]>] manual_axes={} (%b: tensor<8xf32>) {
    sdy.return %b : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op manual axis "q" is not in the mesh}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{}]>] out_shardings=[<@m, [{}]>] manual_axes={"q"} (%b: tensor<8xf32>) {
    sdy.return %b : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expected a mesh ('@name' or 'mesh<...>')}}
  %0 = sdy.sharding_constraint %a <[{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
