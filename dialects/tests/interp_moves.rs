//! The interpreter hands a value to its last user without copying it: a
//! chain of ops on a large tensor holds about the live tensors, not one copy
//! per use. Observed through the data pointers an op's hook sees.

use aic::interp::{Data, Interp, Tensor};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use std::sync::Arc;

/// Runs `@f` of `text` on one `tensor<4xf32>` argument; whether the first
/// op saw the argument's own buffer (moved), the results, and whether the
/// first result is the argument's own buffer.
fn run(text: &'static str) -> (Vec<bool>, Vec<Vec<f64>>, bool) {
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("t.mlir", text.to_string());
        let m = parse_module(&mut ctx, &sm, id)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .unwrap_or_else(|e| panic!("{}", sm.render(ctx.uniquer(), &e)));
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("body");
        let f = ctx.block_ops(body).next().expect("@f");
        let u = ctx.uniquer().clone();
        let f32t = u.ty(aic::types::TypeKind::Float(aic::float::FloatKind::F32));
        let t = u.ty(aic::types::TypeKind::Tensor {
            shape: [4i64].as_slice().into(),
            elem: f32t,
            encoding: None,
        });
        let x = Tensor::from_f64s(&u, t, [1.0, 2.0, 3.0, 4.0]);
        let ptr = addr(&x);
        let seen = std::cell::RefCell::new(Vec::new());
        let mut it = Interp::new(&ctx);
        it.hook = Some(Box::new(|_, _, args: &[Tensor]| {
            let mut s = seen.borrow_mut();
            if s.is_empty() {
                s.extend(args.iter().map(|a| addr(a) == ptr));
            }
            None
        }));
        let out = it.call(f, vec![x]).expect("runs");
        drop(it);
        let same = addr(&out[0]) == ptr;
        let out = out.iter().map(Tensor::to_f64s).collect();
        (seen.into_inner(), out, same)
    })
}

#[test]
fn a_value_moves_to_its_last_user() {
    let (seen, out, _) = run("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}");
    assert_eq!(seen, [true]);
    assert_eq!(out, [vec![1.0, 2.0, 3.0, 4.0]]);
}

#[test]
fn a_returned_argument_is_not_copied() {
    let (_, out, same) = run("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}");
    assert!(same);
    assert_eq!(out, [vec![1.0, 2.0, 3.0, 4.0]]);
}

#[test]
fn a_value_used_again_later_is_copied_until_its_last_use() {
    let (seen, out, same) = run(
        "func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = stablehlo.negate %x : tensor<4xf32>
  return %x, %0 : tensor<4xf32>, tensor<4xf32>
}",
    );
    // `add` uses %x twice and `return` after it: both copies.
    assert_eq!(seen, [false, false]);
    assert_eq!(out, [vec![1.0, 2.0, 3.0, 4.0], vec![2.0, 4.0, 6.0, 8.0]]);
    assert!(same, "the return is %x's last use");
}

#[test]
fn values_outside_a_loop_body_survive_its_iterations() {
    let (_, out, _) = run("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.add %acc, %x : tensor<4xf32>
      stablehlo.return %n, %s : tensor<i32>, tensor<4xf32>
    }
  return %w#1 : tensor<4xf32>
}");
    assert_eq!(out, [vec![4.0, 8.0, 12.0, 16.0]]);
}

/// Where a tensor's elements live (to tell a move from a copy).
fn addr(t: &Tensor) -> usize {
    match &t.data {
        Data::Float(aic::interp::Floats::F32(v)) => v.as_ptr() as usize,
        // Not the f32 tensor the tests follow.
        _ => 0,
    }
}
