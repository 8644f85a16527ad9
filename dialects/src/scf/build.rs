//! Building scf ops: the builder for lowerings that emit structured control
//! flow, on top of the ops' typed handles. A loop's or branch's body is a
//! block the caller has built (ending in [`yield_`]); placing it in the op's
//! region needs the context itself, so these take a [`Builder`].
//!
//! ```ignore
//! use aic_dialects::scf::build as sb;
//! let body = ctx.create_block(&[(index, None)]);
//! // ... fill `body`, ending in sb::yield_(..) ...
//! let results = sb::for_loop(&mut b, lb, ub, step, &[], body);
//! ```

use super::{For, If, Yield};
use aic::ir::{Block, Build, Builder, Value};

/// `scf.yield values`: ends an scf region.
pub fn yield_(b: &mut impl Build, values: &[Value]) {
    Yield::build(b, values);
}

/// `scf.for %i = lb to ub step step iter_args(inits)` with `body` (its
/// arguments the induction variable, then one per init; ending in
/// `scf.yield`) as its region; gives the loop's results.
pub fn for_loop(
    b: &mut Builder<'_>,
    lb: Value,
    ub: Value,
    step: Value,
    inits: &[Value],
    body: Block,
) -> Vec<Value> {
    let types: Vec<_> = inits.iter().map(|v| b.ctx.value_type(*v)).collect();
    let f = For::build(b, lb, ub, step, inits, None, &types);
    let r = f.region(b.ctx);
    b.ctx.append_block(r, body);
    f.results(b.ctx).to_vec()
}

/// `scf.if %c { then }` without results or else branch, `then` ending in
/// `scf.yield`.
pub fn if_then(b: &mut Builder<'_>, c: Value, then: Block) {
    let i = If::build(b, c, &[]);
    let r = i.then_region(b.ctx);
    b.ctx.append_block(r, then);
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::ir::{Context, InsertPoint};
    use aic::op_printer::{PrintOptions, print_op};
    use aic::types::TypeKind;
    use std::sync::Arc;

    #[test]
    fn built_ops_verify_and_print() {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("empty.mlir", String::new());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("an empty module");
        let top = ctx.entry_block(ctx.regions(m)[0]).expect("a body");
        let index = ctx.ty(TypeKind::Index);
        let loc = ctx.unknown_loc();
        let (lb, ub, step, init) = {
            let mut b = Builder::at_end(&mut ctx, top);
            let ab = |b: &mut Builder<'_>, v| crate::arith::build::index(b, v);
            (ab(&mut b, 0), ab(&mut b, 8), ab(&mut b, 1), ab(&mut b, 5))
        };
        let body = ctx.create_block(&[(index, Some(loc)), (index, Some(loc))]);
        let args = ctx.block_args(body).to_vec();
        let then = ctx.create_block(&[]);
        {
            let mut b = Builder::at_end(&mut ctx, then);
            yield_(&mut b, &[]);
        }
        {
            let mut b = Builder::at_end(&mut ctx, body);
            let c = crate::arith::build::cmpi(
                &mut b,
                crate::arith::build::CmpIPredicate::Slt,
                args[0],
                args[1],
            );
            if_then(&mut b, c, then);
            let s = crate::arith::build::binary::<crate::arith::AddI>(&mut b, args[1], args[0]);
            yield_(&mut b, &[s]);
        }
        let mut b = Builder {
            ctx: &mut ctx,
            ip: InsertPoint::End(top),
            loc,
        };
        let out = for_loop(&mut b, lb, ub, step, &[init], body);
        assert_eq!(out.len(), 1);
        assert_eq!(ctx.value_type(out[0]), index);
        aic::verifier::verify(&ctx, m).expect("built ops verify");
        let text = print_op(&ctx, m, PrintOptions::default());
        for want in [
            "%0 = scf.for %arg0 = %c0 to %c8 step %c1 iter_args(%arg1 = %c5) -> (index) {",
            "%1 = arith.cmpi slt, %arg0, %arg1 : index",
            "scf.if %1 {",
            "scf.yield %2 : index",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
    }
}
