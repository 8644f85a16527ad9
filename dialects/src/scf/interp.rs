//! The scf ops' meaning for the reference interpreter: loops and branches run
//! their regions; `scf.parallel` runs its iterations in order and combines the
//! reduced values with its reduction regions.

use super::{ExecuteRegion, For, If, IndexSwitch, Parallel, Reduce, While, switch_cases};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::Op;
use aic::op_def::OpHandle;

fn scalar_int(t: &Tensor) -> i64 {
    t.first_int()
}

/// `scf.for`: the induction variable runs from the lower bound while below the
/// upper bound (compared unsigned with `unsignedCmp`).
pub fn for_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let (lb, ub, step) = (
        scalar_int(&args[0]),
        scalar_int(&args[1]),
        scalar_int(&args[2]),
    );
    let for_ = For(op);
    let unsigned = for_.unsigned_cmp(ctx).is_some();
    if step <= 0 && !unsigned {
        return Err(InterpError::at(op, "'scf.for' with a non-positive step"));
    }
    let elem = args[0].elem(ctx);
    let body = for_.region(ctx);
    // The arguments after the bounds and the step are the initial values.
    let mut iters: Vec<Tensor> = args[3..].to_vec();
    let mut iv = lb;
    let below = |a: i64, b: i64| {
        if unsigned {
            (a as u64) < (b as u64)
        } else {
            a < b
        }
    };
    while below(iv, ub) {
        let mut block_args = vec![Tensor::int_scalar(ctx, args[0].ty, iv)];
        block_args.extend(iters);
        iters = it.run_region(body, block_args)?;
        let next = elem.wrap(i128::from(iv) + i128::from(step));
        // Stepping past the end of the type's range ends the loop too.
        if (!unsigned && next < iv) || (unsigned && (next as u64) < (iv as u64)) {
            break;
        }
        iv = next;
    }
    Ok(iters)
}

/// `scf.if`.
pub fn if_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let if_ = If(op);
    let r = if scalar_int(&args[0]) != 0 {
        if_.then_region(it.ctx)
    } else {
        if_.else_region(it.ctx)
    };
    it.run_region(r, Vec::new())
}

/// `scf.while`.
pub fn while_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let (before, after) = (While(op).before(it.ctx), While(op).after(it.ctx));
    let mut vals = args.to_vec();
    loop {
        let mut r = it.run_region(before, vals)?;
        if r.is_empty() {
            return Err(InterpError::at(
                op,
                "'scf.while' condition produced nothing",
            ));
        }
        let cond = r.remove(0);
        if scalar_int(&cond) == 0 {
            return Ok(r);
        }
        vals = it.run_region(after, r)?;
    }
}

/// `scf.execute_region`.
pub fn execute_region(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    let r = ExecuteRegion(op).region(it.ctx);
    it.run_region(r, Vec::new())
}

/// `scf.index_switch`: the case equal to the argument, or the default region.
pub fn index_switch(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let v = scalar_int(&args[0]);
    let switch = IndexSwitch(op);
    let r = switch_cases(it.ctx, op)
        .iter()
        .position(|c| *c == v)
        .map_or(switch.default_region(it.ctx), |i| {
            switch.case_regions(it.ctx)[i]
        });
    it.run_region(r, Vec::new())
}

/// `scf.parallel`, iterations in row-major order.
pub fn parallel(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let par = Parallel(op);
    // The arguments follow the operand groups: bounds, steps, initial values.
    let sizes = [
        par.lower_bound(ctx).len(),
        par.upper_bound(ctx).len(),
        par.step(ctx).len(),
    ];
    let mut rest = args;
    let [lbs, ubs, steps] = sizes.map(|n| {
        let (group, tail) = rest.split_at(n);
        rest = tail;
        group.iter().map(scalar_int).collect::<Vec<i64>>()
    });
    if steps.iter().any(|s| *s <= 0) {
        return Err(InterpError::at(
            op,
            "'scf.parallel' with a non-positive step",
        ));
    }
    let mut acc: Vec<Tensor> = rest.to_vec();
    let body = par.region(ctx);
    let reduce = ctx
        .entry_block(body)
        .and_then(|b| ctx.last_op(b))
        .and_then(|t| Reduce::of(ctx, t))
        .ok_or_else(|| InterpError::at(op, "'scf.parallel' without a body"))?;
    let reductions = reduce.reductions(ctx).to_vec();
    if lbs.iter().zip(&ubs).any(|(l, u)| l >= u) {
        return Ok(acc);
    }
    let mut ivs = lbs.clone();
    let index_ty = args[0].ty;
    loop {
        let block_args = ivs
            .iter()
            .map(|v| Tensor::int_scalar(ctx, index_ty, *v))
            .collect();
        let vals = it.run_region(body, block_args)?;
        for (i, (r, v)) in reductions.iter().zip(vals).enumerate() {
            let combined = it.run_region(*r, vec![acc[i].clone(), v])?;
            acc[i] = combined
                .into_iter()
                .next()
                .ok_or_else(|| InterpError::at(reduce.0, "reduction produced nothing"))?;
        }
        // Next index, last dimension fastest.
        let mut d = ivs.len();
        loop {
            if d == 0 {
                return Ok(acc);
            }
            d -= 1;
            ivs[d] += steps[d];
            if ivs[d] < ubs[d] {
                break;
            }
            ivs[d] = lbs[d];
        }
    }
}
