//! The part of upstream MLIR's `memref` dialect that kernels at the `gpu`
//! level use, in upstream syntax:
//!
//! ```mlir
//! %r = memref.alloca() : memref<4xf32>
//! %v = memref.load %buf[%i] : memref<64xf32>
//! memref.store %v, %r[%j] : memref<4xf32>
//! ```
//!
//! `alloca` is a thread's private array (registers once LLVM promotes it);
//! a memref in `#gpu.address_space<workgroup>` is shared memory. The
//! interpreter gives loads and stores their value semantics (a store
//! replaces the buffer's value), as `tile.store` does.

use aic::Diagnostic;
use aic::constraints::MEMREF;
use aic::dialect::{Dialect, OpSpec, ValueSpec, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer};
use aic::types::Type;
use aic::verifier::op_error;

/// `memref.alloca() : memref<..>`: a private array of the running thread.
pub const ALLOCA: OpSpec = OpSpec {
    summary: "a stack (per-thread) allocation",
    results: &[ValueSpec::one("memref", MEMREF)],
    format: Some("`(` `)` attr-dict `:` type($memref)"),
    result_names: Some(|_, _| vec![Some("alloca".into())]),
    interpret: Some(interpret),
    verify: Some(verify),
    ..OpSpec::new("memref.alloca")
};

/// `memref.load %m[%i..] : memref<..>`.
pub const LOAD: OpSpec = OpSpec {
    summary: "reads one element",
    operands: &[
        ValueSpec::one("memref", MEMREF),
        ValueSpec::variadic("indices", tc::INDEX),
    ],
    results: &[ValueSpec::one("result", tc::ANY)],
    format: Some("$memref `[` $indices `]` attr-dict `:` type($memref)"),
    infer_results: Some(infer_load),
    interpret: Some(interpret),
    verify: Some(verify),
    ..OpSpec::new("memref.load")
};

/// `memref.store %v, %m[%i..] : memref<..>`.
pub const STORE: OpSpec = OpSpec {
    summary: "writes one element",
    operands: &[
        ValueSpec::one("value", tc::ANY),
        ValueSpec::one("memref", MEMREF),
        ValueSpec::variadic("indices", tc::INDEX),
    ],
    format: Some("$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"),
    infer_operand: Some(|u, g, given| {
        let m = given.get(1)?.as_ref()?.first()?;
        (g == 0).then(|| u.type_kind(*m).element_type()).flatten()
    }),
    interpret: Some(interpret),
    verify: Some(verify),
    ..OpSpec::new("memref.store")
};

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "memref",
    description: "buffers: per-thread allocations, element loads and stores",
    ops: &[ALLOCA, LOAD, STORE],
    materialize_constant: None,
};

fn infer_load(
    u: &Uniquer,
    operands: &[Type],
    _: &[(aic::Ident, aic::attributes::Attr)],
) -> Option<Vec<Type>> {
    Some(vec![u.type_kind(*operands.first()?).element_type()?])
}

/// A buffer of type `ty` (a memref) holding zeros: what an allocation or a
/// view of fresh shared memory reads before it is written.
pub(crate) fn zeros(u: &Uniquer, ty: Type) -> Option<Tensor> {
    let k = u.type_kind(ty);
    let n = k.shape().map_or(Ok(1), aic::shape::elements).ok()?;
    let elem = k.element_type()?;
    Some(Tensor::new(
        u,
        ty,
        store_as(u, elem, vec![0.0; usize::try_from(n).ok()?]),
    ))
}

fn verify(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let name = ctx.op_name(op);
    let operands = ctx.operands(op);
    let (m, indices) = match name {
        "memref.load" => (operands[0], &operands[1..]),
        "memref.store" => (operands[1], &operands[2..]),
        _ => {
            let r = ctx.results(op).next().expect("one result");
            let k = ctx.type_kind(ctx.value_type(r));
            if k.shape().is_none_or(|s| s.iter().any(|d| *d < 0)) {
                return Err(op_error(ctx, op, "an alloca needs a static shape"));
            }
            return Ok(());
        }
    };
    let k = ctx.type_kind(ctx.value_type(m));
    let rank = k.shape().map_or(0, |s| s.len());
    if indices.len() != rank {
        return Err(op_error(
            ctx,
            op,
            format!("{} indices for a memref of rank {rank}", indices.len()),
        ));
    }
    let elem = k.element_type();
    let value = if name == "memref.load" {
        ctx.results(op).next().map(|r| ctx.value_type(r))
    } else {
        Some(ctx.value_type(operands[0]))
    };
    if value != elem {
        return Err(op_error(
            ctx,
            op,
            "the value's type must be the memref's element type",
        ));
    }
    Ok(())
}

fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let fail = |m: String| InterpError::at(op, m);
    let offset = |m: &Tensor, idx: &[Tensor]| -> IResult<usize> {
        let at: Vec<i64> = idx.iter().map(|t| t.first_int()).collect();
        let ok =
            at.len() == m.shape.len() && at.iter().zip(&m.shape).all(|(i, l)| (0..*l).contains(i));
        if !ok {
            return Err(fail(format!("index {at:?} out of bounds of {:?}", m.shape)));
        }
        Ok(row_major_offset(&m.shape, &at) as usize)
    };
    match ctx.op_name(op) {
        "memref.alloca" => {
            let ty = ctx.value_type(ctx.result(op, 0));
            Ok(vec![
                zeros(&u, ty).ok_or_else(|| fail("no element type".into()))?,
            ])
        }
        "memref.load" => {
            let m = it
                .value_ref(ctx.operands(op)[0])
                .ok_or_else(|| fail("load from a buffer that was not computed".into()))?;
            let at = offset(m, &args[1..])?;
            let elem = ctx
                .type_kind(m.ty)
                .element_type()
                .ok_or_else(|| fail("no element type".into()))?;
            Ok(vec![Tensor::new(
                &u,
                elem,
                store_as(&u, elem, vec![get(&m.data, at)]),
            )])
        }
        "memref.store" => {
            let target = ctx.operands(op)[1];
            let x = get(&args[0].data, 0);
            let Some(m) = it.value_mut(target) else {
                return Err(fail("store into a buffer that was not computed".into()));
            };
            let at = offset(m, &args[2..])?;
            match (&mut m.data, Elem::of(&u, args[0].ty)) {
                (Data::Float(v), Some(_)) => v.set(at, x),
                (Data::Int(v), Some(e)) => v.set(at, e.wrap(x as i128)),
                _ => return Err(fail("unsupported element type".into())),
            }
            Ok(Vec::new())
        }
        other => Err(fail(format!("no semantics for {other}"))),
    }
}

/// The row-major position of index `idx` in `shape`.
pub fn row_major_offset(shape: &[i64], idx: &[i64]) -> i64 {
    idx.iter().zip(shape).fold(0, |a, (i, l)| a * l + i)
}

/// Element `i` of `data` as an `f64` (0 for other element kinds).
pub fn get(data: &Data, i: usize) -> f64 {
    match data {
        Data::Float(_) | Data::Int(_) => data.f64_at(i),
        _ => 0.0,
    }
}

/// `values` stored as `elem` (rounded, or truncated to integers).
pub fn store_as(u: &Uniquer, elem: Type, values: impl IntoIterator<Item = f64>) -> Data {
    match Elem::of(u, elem).unwrap_or(Elem::Index) {
        Elem::Float(k) => Data::from_f64s(k, values),
        e => Data::from_i64s(e, values.into_iter().map(|v| v as i64)),
    }
}
