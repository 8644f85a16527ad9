//! Dialect conversion on toy dialects: `src.add` on i32 becomes `dst.add` on i64,
//! remapped operands flow from converted producers to converted users, unconverted
//! users get a cast back, and illegal leftovers are reported.

use aic::conversion::{
    ConversionPattern, ConversionPatterns, ConversionRewriter, ConversionTarget, Legality, Mode,
    TypeConverter, apply_conversion,
};
use aic::ir::{Context, Op, OpState};
use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::{Type, TypeKind};
use aic::{DialectRegistry, SourceMap, Value};
use std::sync::Arc;

struct AddToDst;
impl ConversionPattern for AddToDst {
    fn root(&self) -> Option<&'static str> {
        Some("src.add")
    }
    fn match_and_rewrite(
        &self,
        rw: &mut ConversionRewriter<'_>,
        op: Op,
        operands: &[Value],
    ) -> bool {
        let old_ty = rw.ctx.value_type(rw.ctx.result(op, 0));
        let ty = rw.types.convert(rw.ctx, old_ty);
        let mut st = OpState::new(rw.ctx.ident("dst.add"), rw.ctx.op(op).loc);
        st.operands.extend(operands.iter().copied());
        st.result_types.push(ty);
        let new = rw.create_before(op, st);
        let r = rw.ctx.result(new, 0);
        rw.replace_op(op, &[r]);
        true
    }
}

/// `src.const` becomes `dst.const` of the converted type.
struct ConstToDst;
impl ConversionPattern for ConstToDst {
    fn root(&self) -> Option<&'static str> {
        Some("src.const")
    }
    fn match_and_rewrite(&self, rw: &mut ConversionRewriter<'_>, op: Op, _: &[Value]) -> bool {
        let old_ty = rw.ctx.value_type(rw.ctx.result(op, 0));
        let ty = rw.types.convert(rw.ctx, old_ty);
        let mut st = OpState::new(rw.ctx.ident("dst.const"), rw.ctx.op(op).loc);
        st.result_types.push(ty);
        let new = rw.create_before(op, st);
        let r = rw.ctx.result(new, 0);
        rw.replace_op(op, &[r]);
        true
    }
}

fn widen(ctx: &Context, t: Type) -> Option<Type> {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: 32, .. }).then(|| ctx.int_type(64))
}

fn convert(text: &str, mode: Mode) -> Result<String, String> {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("c.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let mut target = ConversionTarget::new();
        target
            .dialect("dst", Legality::Legal)
            .dialect("src", Legality::Illegal)
            .op("keep.use", Legality::Legal)
            .op("builtin.unrealized_conversion_cast", Legality::Legal);
        let mut patterns = ConversionPatterns::new();
        static ADD: AddToDst = AddToDst;
        static CONST: ConstToDst = ConstToDst;
        patterns.add(&ADD).add(&CONST);
        let mut types = TypeConverter::new();
        types.add(widen);
        apply_conversion(&mut ctx, m, &target, &patterns, &types, mode)
            .map_err(|d| sm.render(ctx.uniquer(), &d))?;
        aic::verifier::verify(&ctx, m).map_err(|d| d.message)?;
        Ok(print_op(
            &ctx,
            m,
            PrintOptions {
                generic: true,
                debuginfo: false,
            },
        ))
    })
}

#[test]
fn converted_values_flow_and_unconverted_users_get_casts() {
    let out = convert(
        r#"
%a = "src.const"() : () -> i32
%b = "src.add"(%a, %a) : (i32, i32) -> i32
"keep.use"(%b) : (i32) -> ()
"#,
        Mode::Partial,
    )
    .expect("converts");
    // The add consumes the converted constant directly; only the legal user of the
    // add's result needs a cast back to i32.
    let want = r#""builtin.module"() ({
  %0 = "dst.const"() : () -> i64
  %1 = "dst.add"(%0, %0) : (i64, i64) -> i64
  %2 = "builtin.unrealized_conversion_cast"(%1) : (i64) -> i32
  "keep.use"(%2) : (i32) -> ()
}) : () -> ()
"#;
    assert_eq!(out, want);
}

#[test]
fn leftovers_are_reported() {
    let e = convert("%a = \"src.weird\"() : () -> i32\n", Mode::Partial).unwrap_err();
    assert!(
        e.contains("failed to legalize operation 'src.weird'"),
        "{e}"
    );
    assert!(e.contains("c.mlir:1:6"), "{e}");
    // Unknown ops may stay in a partial conversion but not in a full one.
    assert!(convert("\"other.op\"() : () -> ()\n", Mode::Partial).is_ok());
    let e = convert("\"other.op\"() : () -> ()\n", Mode::Full).unwrap_err();
    assert!(e.contains("failed to legalize operation 'other.op'"), "{e}");
}

#[test]
fn a_failed_conversion_leaves_the_ir_as_it_was() {
    // The constant and the add convert before the unconvertible op is reached;
    // the failure rolls both back.
    let text = r#"%a = "src.const"() : () -> i32
%b = "src.add"(%a, %a) : (i32, i32) -> i32
%c = "src.weird"(%b) : (i32) -> i32
"keep.use"(%c) : (i32) -> ()
"#;
    let t = text.to_string();
    let (before, after, err) = with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("c.mlir", t);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let opts = PrintOptions {
            generic: true,
            debuginfo: true,
        };
        let before = print_op(&ctx, m, opts);
        let mut target = ConversionTarget::new();
        target
            .dialect("dst", Legality::Legal)
            .dialect("src", Legality::Illegal)
            .op("keep.use", Legality::Legal);
        let mut patterns = ConversionPatterns::new();
        static ADD: AddToDst = AddToDst;
        static CONST: ConstToDst = ConstToDst;
        patterns.add(&ADD).add(&CONST);
        let mut types = TypeConverter::new();
        types.add(widen);
        let err = apply_conversion(&mut ctx, m, &target, &patterns, &types, Mode::Partial)
            .expect_err("src.weird has no pattern");
        aic::verifier::verify(&ctx, m).expect("still valid");
        (
            before,
            print_op(&ctx, m, opts),
            sm.render(ctx.uniquer(), &err),
        )
    });
    assert!(
        err.contains("failed to legalize operation 'src.weird'"),
        "{err}"
    );
    assert_eq!(after, before);
}

aic::op! {
    /// `lo.wide`: converted by a typed pattern.
    pub Wide = WIDE {
        operands: [x: one(aic::dialect::tc::ANY)],
        results: [y: one(aic::dialect::tc::ANY)],
        spec: aic::OpSpec::new("lo.wide"),
    }
}

aic::op! {
    /// `lo.narrow`: what `lo.wide` becomes.
    pub Narrow = NARROW {
        operands: [x: one(aic::dialect::tc::ANY)],
        results: [y: one(aic::dialect::tc::ANY)],
        spec: aic::OpSpec::new("lo.narrow"),
    }
}

static LO: aic::dialect::Dialect = aic::dialect::Dialect {
    name: "lo",
    description: "typed conversion tests",
    ops: &[WIDE, NARROW],
    materialize_constant: None,
};

fn wide_to_narrow(rw: &mut ConversionRewriter<'_>, w: Wide, operands: &[Value]) -> bool {
    let ty = rw.ctx.value_type(w.y(rw.ctx));
    if matches!(rw.ctx.type_kind(ty), TypeKind::Index) {
        return false;
    }
    let n = Narrow::build(&mut rw.before(w.0), operands[0], ty);
    let y = n.y(rw.ctx);
    rw.replace_op(w.0, &[y]);
    true
}

#[test]
fn typed_patterns_convert_ops_of_unknown_legality_where_they_apply() {
    use aic::conversion::OpConversion;
    static WIDE_TO_NARROW: OpConversion<Wide> = OpConversion::new("WideToNarrow", wide_to_narrow);
    let text = r#"%a = "lo.narrow"(%a0) : (i32) -> i32
%b = "lo.wide"(%a) : (i32) -> i32
%c = "lo.wide"(%b) : (i32) -> index
"#;
    let text = format!("%a0 = \"other.v\"() : () -> i32\n{text}");
    let run = |mode: Mode, narrow_legal: bool| {
        let text = text.clone();
        with_parser_stack(move || {
            let mut reg = DialectRegistry::new();
            reg.register(&LO);
            let mut ctx = Context::new(Arc::new(reg));
            ctx.allow_unregistered = true;
            let mut sm = SourceMap::new();
            let f = sm.add("t.mlir", text);
            let m = parse_module(&mut ctx, &sm, f).expect("parses");
            let mut target = ConversionTarget::new();
            if narrow_legal {
                target.op_kind::<Narrow>(Legality::Legal);
            }
            let mut patterns = ConversionPatterns::new();
            patterns.add(&WIDE_TO_NARROW);
            let r = apply_conversion(&mut ctx, m, &target, &patterns, &TypeConverter::new(), mode)
                .map_err(|d| d.message);
            r.map(|()| print_op(&ctx, m, PrintOptions::default()))
        })
    };
    // Partial: the i32 `lo.wide` converts (nothing declared it legal or illegal);
    // the index one has no pattern that applies and stays.
    let out = run(Mode::Partial, true).expect("a partial conversion succeeds");
    assert_eq!(out.matches("\"lo.narrow\"").count(), 2, "{out}");
    assert_eq!(out.matches("\"lo.wide\"").count(), 1, "{out}");
    // Full: the index `lo.wide` (and `other.v`) cannot be legalised.
    let e = run(Mode::Full, true).expect_err("a full conversion fails");
    assert!(e.contains("failed to legalize operation"), "{e}");
}

#[test]
fn dynamic_legality_may_leave_an_op_unknown() {
    with_parser_stack(|| {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add(
            "d.mlir",
            "%a = \"src.const\"() : () -> i32\n%b = \"src.add\"(%a, %a) : (i32, i32) -> i32\n"
                .to_string(),
        );
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let mut target = ConversionTarget::new();
        // Constants are legal, adds unknown: the target says nothing about them.
        target.dialect(
            "src",
            Legality::Dynamic(|ctx, op| (ctx.op_name(op) == "src.const").then_some(true)),
        );
        let mut seen = Vec::new();
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if o != m {
                seen.push((ctx.op_name(o).to_string(), target.is_legal(&ctx, o)));
            }
        });
        assert_eq!(
            seen,
            [
                ("src.const".to_string(), Some(true)),
                ("src.add".to_string(), None)
            ]
        );
    });
}

/// The state of a toy out-of-place lowering: where ops go, and what each
/// original value became (one value may become several).
struct Toy<'c> {
    ctx: &'c mut Context,
    block: aic::ir::Block,
    lowered: std::collections::HashMap<Value, Vec<Value>>,
    log: Vec<&'static str>,
}

impl aic::ir::Build for Toy<'_> {
    fn context(&self) -> &Context {
        self.ctx
    }
    fn location(&self) -> aic::attributes::Attr {
        self.ctx.uniquer().unknown_loc()
    }
    fn insert_state(&mut self, st: OpState) -> Op {
        let op = self.ctx.create_op(st);
        self.ctx.append_op(self.block, op);
        op
    }
}

/// An index `lo.wide` becomes two `lo.narrow` (a 1:N lowering); others
/// are left to the next lowering.
fn split_wide(s: &mut Toy<'_>, w: Wide) -> Result<bool, aic::Diagnostic> {
    let ty = s.ctx.value_type(w.y(s.ctx));
    if !matches!(s.ctx.type_kind(ty), TypeKind::Index) {
        return Ok(false);
    }
    let x = w.x(s.ctx);
    let halves = [Narrow::build(s, x, ty), Narrow::build(s, x, ty)];
    let ys = halves.map(|n| n.y(s.ctx)).to_vec();
    s.lowered.insert(w.y(s.ctx), ys);
    s.log.push("split");
    Ok(true)
}

/// Any `lo.wide`: one `lo.narrow`, unless its operand is a block argument
/// (an error).
fn narrow_wide(s: &mut Toy<'_>, w: Wide) -> Result<bool, aic::Diagnostic> {
    let x = w.x(s.ctx);
    if s.ctx.defining_op(x).is_none() {
        return Err(aic::Diagnostic::error("a wide of an argument"));
    }
    let ty = s.ctx.value_type(w.y(s.ctx));
    let y = Narrow::build(s, x, ty).y(s.ctx);
    s.lowered.insert(w.y(s.ctx), vec![y]);
    s.log.push("narrow");
    Ok(true)
}

#[test]
fn out_of_place_lowerings_try_an_ops_lowerings_by_benefit() {
    use aic::conversion::{Lowerings, OpLowering};
    let text = r#"%a0 = "other.v"() : () -> i32
%a = "lo.narrow"(%a0) : (i32) -> i32
%b = "lo.wide"(%a) : (i32) -> i32
%c = "lo.wide"(%a) : (i32) -> index
"#;
    with_parser_stack(move || {
        let mut reg = DialectRegistry::new();
        reg.register(&LO);
        let mut ctx = Context::new(Arc::new(reg));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("l.mlir", text.to_string());
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let mut ops = Vec::new();
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| ops.push(o));
        let [_, _, narrow, wide_i32, wide_index] = ops[..] else {
            panic!("five ops: {ops:?}");
        };
        let block = ctx.create_block(&[]);
        let mut s = Toy {
            ctx: &mut ctx,
            block,
            lowered: Default::default(),
            log: Vec::new(),
        };
        let mut l = Lowerings::new();
        // Added in increasing benefit: the table orders them.
        l.add(OpLowering::new("narrow", narrow_wide))
            .add(OpLowering::new("split", split_wide).with_benefit(2));
        // No lowering is rooted at `lo.narrow`: the caller decides.
        assert!(l.lower(&mut s, narrow).is_none());
        // The split declines an i32 result; the plain lowering takes it.
        assert!(matches!(l.lower(&mut s, wide_i32), Some(Ok(()))));
        // The split (higher benefit) takes an index result, 1:N.
        assert!(matches!(l.lower(&mut s, wide_index), Some(Ok(()))));
        assert_eq!(s.log, ["narrow", "split"]);
        let c = s.ctx.result(wide_index, 0);
        assert_eq!(s.lowered[&c].len(), 2);
        assert_eq!(s.ctx.block_ops(block).count(), 3);
        // The lowerings built out of place: the original ops are untouched.
        assert_eq!(s.ctx.op_name(wide_index), "lo.wide");
        // A lowering that applies and fails reports its error.
        let arg_block = s.ctx.create_block(&[(s.ctx.int_type(32), None)]);
        let arg = s.ctx.block_args(arg_block)[0];
        let (i32t, loc) = (s.ctx.int_type(32), s.ctx.uniquer().unknown_loc());
        let bad = Wide::build(
            &mut aic::ir::Builder {
                ctx: &mut *s.ctx,
                ip: aic::ir::InsertPoint::End(arg_block),
                loc,
            },
            arg,
            i32t,
        );
        let e = l.lower(&mut s, bad.0).expect("a lowering applies");
        assert_eq!(e.expect_err("it fails").message, "a wide of an argument");
    });
}
