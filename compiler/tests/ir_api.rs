//! Unit tests of the arena IR API: creation, use-lists, replace-all-uses, erase,
//! walks and cloning.

use aic::ir::{Context, InsertPoint, OpState, ValueDef, ValueMap, WalkOrder};
use aic::{DialectRegistry, Op};
use std::sync::Arc;

fn ctx() -> Context {
    Context::new(Arc::new(DialectRegistry::new()))
}

fn op(c: &mut Context, name: &str, operands: &[aic::Value], results: usize, regions: usize) -> Op {
    let i32t = c.int_type(32);
    let mut st = OpState::new(c.ident(name), c.unknown_loc());
    st.operands = operands.into();
    st.result_types = std::iter::repeat_n(i32t, results).collect();
    st.num_regions = regions;
    c.create_op(st)
}

#[test]
fn use_lists_track_operands() {
    let mut c = ctx();
    let root = op(&mut c, "t.root", &[], 0, 1);
    let body = c.create_block(&[]);
    c.append_block(c.regions(root)[0], body);
    let a = op(&mut c, "t.a", &[], 1, 0);
    c.append_op(body, a);
    let va = c.result(a, 0);
    let b = op(&mut c, "t.b", &[va, va], 1, 0);
    c.append_op(body, b);
    assert_eq!(c.uses(va).len(), 2);
    assert_eq!(c.value_def(va), ValueDef::Result(a, 0));
    let a2 = op(&mut c, "t.a2", &[], 1, 0);
    c.insert_op(InsertPoint::Before(b), a2);
    let va2 = c.result(a2, 0);
    c.replace_all_uses(va, va2);
    assert!(c.uses(va).is_empty());
    assert_eq!(c.operands(b), &[va2, va2]);
    assert_eq!(c.block_ops(body).collect::<Vec<_>>(), vec![a, a2, b]);
    c.erase_op(a);
    assert!(c.is_erased(a));
    assert_eq!(c.block_ops(body).collect::<Vec<_>>(), vec![a2, b]);
    c.set_operand(b, 1, c.block_args(body).first().copied().unwrap_or(va2));
    assert_eq!(c.uses(va2).len(), 2);
    c.erase_op(b);
    assert!(c.uses(va2).is_empty(), "erasing a user drops its uses");
}

#[test]
fn walk_orders_and_clone_remaps_values() {
    let mut c = ctx();
    let i32t = c.int_type(32);
    let root = op(&mut c, "t.root", &[], 1, 1);
    let body = c.create_block(&[(i32t, None)]);
    c.append_block(c.regions(root)[0], body);
    let arg = c.block_args(body)[0];
    let inner = op(&mut c, "t.inner", &[arg], 1, 0);
    c.append_op(body, inner);
    let v = c.result(inner, 0);
    let user = op(&mut c, "t.user", &[v], 0, 0);
    c.append_op(body, user);

    let mut pre = Vec::new();
    c.walk(root, WalkOrder::PreOrder, &mut |d, o| pre.push((d, o)));
    assert_eq!(pre, vec![(0, root), (1, inner), (1, user)]);
    let mut post = Vec::new();
    c.walk(root, WalkOrder::PostOrder, &mut |_, o| post.push(o));
    assert_eq!(post, vec![inner, user, root]);

    let mut map = ValueMap::default();
    let copy = c.clone_op(root, &mut map);
    let cb = c.entry_block(c.regions(copy)[0]).unwrap();
    let ops: Vec<Op> = c.block_ops(cb).collect();
    assert_eq!(ops.len(), 2);
    assert_eq!(c.op_name(ops[0]), "t.inner");
    assert_eq!(
        c.operands(ops[0]),
        &[c.block_args(cb)[0]],
        "operand remapped to the cloned block argument"
    );
    assert_eq!(c.operands(ops[1]), &[c.result(ops[0], 0)]);
    assert_eq!(c.uses(v).len(), 1, "the original keeps only its own use");
}

#[test]
fn deep_nesting_walks_without_recursion() {
    let mut c = ctx();
    let root = op(&mut c, "t.n", &[], 0, 1);
    let mut cur = root;
    for _ in 0..100_000 {
        let b = c.create_block(&[]);
        c.append_block(c.regions(cur)[0], b);
        let next = op(&mut c, "t.n", &[], 0, 1);
        c.append_op(b, next);
        cur = next;
    }
    let mut n = 0;
    c.walk(root, WalkOrder::PostOrder, &mut |_, _| n += 1);
    assert_eq!(n, 100_001);
}

#[test]
fn attributes_stay_sorted_like_mlir_dictionaries() {
    let mut c = ctx();
    let o = op(&mut c, "t.o", &[], 0, 0);
    for k in ["zeta", "alpha", "mid"] {
        let (id, v) = (c.ident(k), c.string_attr(k));
        c.set_attr(o, id, v);
    }
    let keys: Vec<&str> = c.op(o).attrs.keys().map(|k| c.str(*k)).collect();
    assert_eq!(keys, vec!["alpha", "mid", "zeta"]);
    let mid = c.ident("mid");
    assert!(c.remove_attr(o, mid).is_some());
    assert_eq!(c.op(o).attrs.len(), 2);
}

#[test]
fn registry_knows_builtin_specs() {
    let r = DialectRegistry::new();
    let m = r.op("builtin.module").expect("module registered");
    assert!(m.has(aic::Traits::ISOLATED_FROM_ABOVE | aic::Traits::SYMBOL_TABLE));
    assert_eq!(m.dialect(), "builtin");
    assert!(r.op("builtin.nope").is_none());
}

#[test]
fn diagnostics_render_with_span_and_hint() {
    let mut sm = aic::SourceMap::new();
    let f = sm.add(
        "in.mlir",
        "func.func @f() {\n  %0 = \"t.a\"() : () -> i32\n}\n".to_string(),
    );
    assert_eq!(sm.line_col(f, 19), (2, 3));
    let d = aic::Diagnostic::error("use of undeclared SSA value name")
        .at_span(f, 19, 21)
        .with_hint("define %0 first");
    let u = aic::Uniquer::default();
    let text = sm.render(&u, &d);
    assert!(
        text.starts_with("error: use of undeclared SSA value name"),
        "{text}"
    );
    assert!(text.contains("in.mlir:2:3"), "{text}");
    assert!(text.contains("^^"), "caret under the span: {text}");
    assert!(text.contains("hint: define %0 first"), "{text}");
    // A location attribute naming the file resolves to the same place.
    let loc = u.attr(aic::AttrKind::Location(aic::LocKind::FileLineCol {
        file: u.ident("in.mlir"),
        line: 2,
        col: 3,
        end: None,
    }));
    let d2 = aic::Diagnostic::error("bad op").at_loc(loc);
    assert_eq!(sm.line_of(&u, d2.at), Some((f, 2)));
    assert!(sm.render(&u, &d2).contains("in.mlir:2:3"));
}
