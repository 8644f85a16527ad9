//! The scf dialect's control-flow interface (`RegionBranch`): which regions or
//! results control can reach from each point, with and without constant operands,
//! and which values flow along each edge.

use aic::dialect::{BranchPoint, forwarded_operands};
use aic::ir::{Op, WalkOrder};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Attr, AttrKind, Context, SourceMap};
use std::sync::Arc;

/// Parse `text`, find the first op named `name` and run `f` on it.
fn with_op<T: Send + 'static>(text: &str, name: &'static str, f: fn(&Context, Op) -> T) -> T {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let file = sm.add("s.mlir", text);
        let m = parse_module(&mut ctx, &sm, file).expect("parses");
        aic::verifier::verify(&ctx, m).expect("verifies");
        let mut found = None;
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            if found.is_none() && ctx.op_name(o) == name {
                found = Some(o);
            }
        });
        f(&ctx, found.expect("op present"))
    })
}

fn bool_attr(ctx: &Context, v: bool) -> Attr {
    ctx.attr(AttrKind::Integer {
        value: if v { -1 } else { 0 },
        ty: ctx.int_type(1),
    })
}

const IF: &str = "func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}";

#[test]
fn if_enters_the_branch_its_constant_condition_picks() {
    let (unknown, taken, not_taken) = with_op(IF, "scf.if", |ctx, op| {
        let rb = ctx
            .op_spec(op)
            .and_then(|s| s.region_branch)
            .expect("RegionBranch");
        let t = bool_attr(ctx, true);
        let f = bool_attr(ctx, false);
        (
            (rb.successors)(ctx, op, BranchPoint::Parent, &[None]).to_vec(),
            (rb.successors)(ctx, op, BranchPoint::Parent, &[Some(t)]).to_vec(),
            (rb.successors)(ctx, op, BranchPoint::Parent, &[Some(f)]).to_vec(),
        )
    });
    assert_eq!(unknown, [BranchPoint::Region(0), BranchPoint::Region(1)]);
    assert_eq!(taken, [BranchPoint::Region(0)]);
    assert_eq!(not_taken, [BranchPoint::Region(1)]);
}

#[test]
fn for_forwards_inits_to_iter_args_and_results_but_not_the_induction_variable() {
    let text = "func.func @f(%lb: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
  }
  return %r : f32
}";
    let (succ, inputs, entry, from_body, yield_fwd) = with_op(text, "scf.for", |ctx, op| {
        let rb = ctx
            .op_spec(op)
            .and_then(|s| s.region_branch)
            .expect("RegionBranch");
        let body = ctx.entry_block(ctx.regions(op)[0]).expect("body");
        let term = ctx.last_op(body).expect("yield");
        (
            (rb.successors)(ctx, op, BranchPoint::Parent, &[None; 4]).to_vec(),
            (rb.region_inputs)(ctx, op, 0),
            (rb.entry_operands)(ctx, op, BranchPoint::Region(0)),
            (rb.successors)(ctx, op, BranchPoint::Region(0), &[None]).to_vec(),
            forwarded_operands(ctx, term),
        )
    });
    // The loop may run zero times: its entry reaches both the body and the results.
    assert_eq!(succ, [BranchPoint::Region(0), BranchPoint::Parent]);
    assert_eq!(inputs, 1..2);
    assert_eq!(entry, 3..4);
    assert_eq!(from_body, [BranchPoint::Region(0), BranchPoint::Parent]);
    assert_eq!(yield_fwd, Some(0..1));
}

#[test]
fn while_condition_decides_between_body_and_exit() {
    let text = "func.func @f(%x: f32, %c: i1) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return %r : f32
}";
    let (go, stop, unknown, cond_fwd) = with_op(text, "scf.while", |ctx, op| {
        let rb = ctx
            .op_spec(op)
            .and_then(|s| s.region_branch)
            .expect("RegionBranch");
        let before = ctx.entry_block(ctx.regions(op)[0]).expect("before");
        let cond = ctx.last_op(before).expect("condition");
        let t = bool_attr(ctx, true);
        let f = bool_attr(ctx, false);
        let from = BranchPoint::Region(0);
        (
            (rb.successors)(ctx, op, from, &[Some(t), None]).to_vec(),
            (rb.successors)(ctx, op, from, &[Some(f), None]).to_vec(),
            (rb.successors)(ctx, op, from, &[None, None]).to_vec(),
            forwarded_operands(ctx, cond),
        )
    });
    assert_eq!(go, [BranchPoint::Region(1)]);
    assert_eq!(stop, [BranchPoint::Parent]);
    assert_eq!(unknown, [BranchPoint::Parent, BranchPoint::Region(1)]);
    // The condition itself is not passed on.
    assert_eq!(cond_fwd, Some(1..2));
}

#[test]
fn index_switch_picks_the_matching_case_or_the_default() {
    let text = "func.func @f(%n: index) {
  scf.index_switch %n
  case 3 {
    scf.yield
  }
  default {
    scf.yield
  }
  return
}";
    let (three, other) = with_op(text, "scf.index_switch", |ctx, op| {
        let rb = ctx
            .op_spec(op)
            .and_then(|s| s.region_branch)
            .expect("RegionBranch");
        let c = |v| {
            ctx.attr(AttrKind::Integer {
                value: v,
                ty: ctx.ty(aic::types::TypeKind::Index),
            })
        };
        (
            (rb.successors)(ctx, op, BranchPoint::Parent, &[Some(c(3))]).to_vec(),
            (rb.successors)(ctx, op, BranchPoint::Parent, &[Some(c(4))]).to_vec(),
        )
    });
    // Region 0 is the default; the cases follow.
    assert_eq!(three, [BranchPoint::Region(1)]);
    assert_eq!(other, [BranchPoint::Region(0)]);
}

#[test]
fn handles_read_the_scf_ops_by_group() {
    let text = "func.func @f(%lb: index, %ub: index, %x: f32) -> f32 {
  %r:2 = scf.for %i = %lb to %ub step %lb iter_args(%a = %x, %b = %x) -> (f32, f32) {
    %s = scf.index_switch %i -> f32
    case 2 {
      scf.yield %a : f32
    }
    case 5 {
      scf.yield %b : f32
    }
    default {
      scf.yield %x : f32
    }
    scf.yield %s, %b : f32, f32
  }
  return %r#0 : f32
}";
    let ok = with_op(text, "scf.for", |ctx, op| {
        use aic::op_def::OpHandle;
        use aic_dialects::scf::{For, If, IndexSwitch, Yield};
        let for_ = For::of(ctx, op).expect("an scf.for");
        assert!(If::of(ctx, op).is_none());
        let args = ctx.block_args(ctx.entry_block(for_.region(ctx)).expect("body"));
        assert_eq!(
            ctx.operands(op)[..3],
            [for_.lower_bound(ctx), for_.upper_bound(ctx), for_.step(ctx)]
        );
        assert_eq!(for_.init_args(ctx), &ctx.operands(op)[3..]);
        assert_eq!(for_.init_args(ctx).len(), 2);
        assert_eq!(for_.results(ctx).len(), 2);
        let first = ctx.first_op(ctx.entry_block(for_.region(ctx)).expect("body"));
        let switch = IndexSwitch::of(ctx, first.expect("an op")).expect("an scf.index_switch");
        assert_eq!(switch.arg(ctx), args[0]);
        assert_eq!(switch.cases(ctx), Some(vec![2, 5]));
        assert_eq!(switch.case_regions(ctx).len(), 2);
        assert_eq!(switch.default_region(ctx), ctx.regions(switch.0)[0]);
        let last = ctx.last_op(ctx.entry_block(for_.region(ctx)).expect("body"));
        let y = Yield::of(ctx, last.expect("a terminator")).expect("an scf.yield");
        assert_eq!(y.results(ctx)[1], args[2]);
        true
    });
    assert!(ok);
}

#[test]
fn canonicalization_patterns_root_at_their_ops() {
    use aic_dialects::scf::{self, canonicalize};
    for (patterns, spec) in [
        (canonicalize::IF, &scf::IF),
        (canonicalize::FOR, &scf::FOR),
        (canonicalize::WHILE, &scf::WHILE),
        (canonicalize::PARALLEL, &scf::PARALLEL),
        (canonicalize::INDEX_SWITCH, &scf::INDEX_SWITCH),
        (canonicalize::EXECUTE_REGION, &scf::EXECUTE_REGION),
    ] {
        for p in patterns {
            assert_eq!(p.root(), Some(spec.name));
        }
    }
}
