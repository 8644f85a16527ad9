// Descriptors that do not fit are rejected by the verifier, with the reason.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @f(%i: index) -> (index, i1) {
  // expected-error@+1 {{'coord.offset' op bad descriptor: stage 1: slice [2, 6) is out of range for a length of 5}}
  %o, %v = coord.offset %i through #coord.desc<[4] | slice<2, 5> [0] -> [0]> : index, i1
  return %o, %v : index, i1
}
// -----
func.func @f(%i: index, %j: index) -> (index, i1) {
  // expected-error@+1 {{'coord.offset' op has 2 indices but the descriptor's upper space has rank 1}}
  %o, %v = coord.offset %i, %j through #coord.desc<[4] | pass [0] -> [0]> : index, i1
  return %o, %v : index, i1
}
// -----
func.func @f(%i: index) -> (index, i1) {
  // expected-error@+1 {{'coord.offset' op bad descriptor: stage 1: merge of [4, 2] (8 elements) does not match an upper length of 6}}
  %o, %v = coord.offset %i through #coord.desc<[6] | merge<4, 2> [0] -> [0, 1]> : index, i1
  return %o, %v : index, i1
}
// -----
func.func @f(%i: index, %j: index) -> (index, i1) {
  // expected-error@+1 {{'coord.offset' op bad descriptor: stage 1: upper dim 0 is read twice}}
  %o, %v = coord.offset %i, %j through #coord.desc<[2, 3] | pass [0] -> [0], pass [0] -> [1]> : index, i1
  return %o, %v : index, i1
}
// -----
func.func @f(%i: index) -> (index, i1) {
  // expected-error@+1 {{'coord.offset' op bad descriptor: unknown transform 'twist'}}
  %o, %v = coord.offset %i through #coord.desc<[2] | twist [0] -> [0]> : index, i1
  return %o, %v : index, i1
}
