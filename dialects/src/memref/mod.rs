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

pub mod build;

use aic::Diagnostic;
use aic::constraints::MEMREF;
use aic::dialect::{Dialect, OpSpec, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer, Value};
use aic::types::Type;
use aic::verifier::op_error;

aic::op! {
    /// `memref.alloca() : memref<..>`: a private array of the running thread.
    pub Alloca = ALLOCA {
        results: [memref: one(MEMREF)],
        spec: OpSpec {
            summary: "a stack (per-thread) allocation",
            format: Some("`(` `)` attr-dict `:` type($memref)"),
            result_names: Some(|_, _| vec![Some("alloca".into())]),
            interpret: Some(interpret_alloca),
            verify: Some(verify_alloca),
            ..OpSpec::new("memref.alloca")
        },
    }
}

aic::op! {
    /// `memref.load %m[%i..] : memref<..>`.
    pub Load = LOAD {
        operands: [memref: one(MEMREF), indices: variadic(tc::INDEX)],
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            summary: "reads one element",
            format: Some("$memref `[` $indices `]` attr-dict `:` type($memref)"),
            infer_results: Some(infer_load),
            interpret: Some(interpret_load),
            verify: Some(verify_load),
            ..OpSpec::new("memref.load")
        },
    }
}

aic::op! {
    /// `memref.store %v, %m[%i..] : memref<..>`.
    pub Store = STORE {
        operands: [value: one(tc::ANY), memref: one(MEMREF), indices: variadic(tc::INDEX)],
        spec: OpSpec {
            summary: "writes one element",
            format: Some("$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"),
            infer_operand: Some(|u, g, given| {
                let m = given.get(1)?.as_ref()?.first()?;
                (g == 0).then(|| u.type_kind(*m).element_type()).flatten()
            }),
            interpret: Some(interpret_store),
            verify: Some(verify_store),
            ..OpSpec::new("memref.store")
        },
    }
}

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

/// `memref.alloca`: a static shape.
fn verify_alloca(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let memref = Alloca(op).memref(ctx);
    let k = ctx.type_kind(ctx.value_type(memref));
    if k.shape().is_none_or(|s| s.iter().any(|d| *d < 0)) {
        return Err(op_error(ctx, op, "an alloca needs a static shape"));
    }
    Ok(())
}

/// `memref.load`: one index per dimension, the result of the element type.
fn verify_load(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let load = Load(op);
    let value = ctx.value_type(load.result(ctx));
    verify_access(ctx, op, load.memref(ctx), load.indices(ctx), value)
}

/// `memref.store`: one index per dimension, the value of the element type.
fn verify_store(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let store = Store(op);
    let value = ctx.value_type(store.value(ctx));
    verify_access(ctx, op, store.memref(ctx), store.indices(ctx), value)
}

/// An element access of `m` at `indices` whose value has type `value`.
fn verify_access(
    ctx: &Context,
    op: Op,
    m: Value,
    indices: &[Value],
    value: Type,
) -> Result<(), Diagnostic> {
    let k = ctx.type_kind(ctx.value_type(m));
    let rank = k.shape().map_or(0, |s| s.len());
    if indices.len() != rank {
        return Err(op_error(
            ctx,
            op,
            format!("{} indices for a memref of rank {rank}", indices.len()),
        ));
    }
    if Some(value) != k.element_type() {
        return Err(op_error(
            ctx,
            op,
            "the value's type must be the memref's element type",
        ));
    }
    Ok(())
}

/// The row-major offset of the element of `m` at `idx`, or an error when out
/// of bounds.
fn offset(op: Op, m: &Tensor, idx: &[Tensor]) -> IResult<usize> {
    let at: Vec<i64> = idx.iter().map(|t| t.first_int()).collect();
    let ok = at.len() == m.shape.len() && at.iter().zip(&m.shape).all(|(i, l)| (0..*l).contains(i));
    if !ok {
        return Err(InterpError::at(
            op,
            format!("index {at:?} out of bounds of {:?}", m.shape),
        ));
    }
    Ok(row_major_offset(&m.shape, &at) as usize)
}

/// `memref.alloca`: a buffer of zeros.
fn interpret_alloca(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let ty = ctx.value_type(Alloca(op).memref(ctx));
    let z = zeros(ctx.uniquer(), ty).ok_or_else(|| InterpError::at(op, "no element type"))?;
    Ok(vec![z])
}

/// `memref.load`: the element at the indices.
fn interpret_load(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let m = it
        .value_ref(Load(op).memref(ctx))
        .ok_or_else(|| InterpError::at(op, "load from a buffer that was not computed"))?;
    let at = offset(op, m, &args[1..])?;
    let elem = ctx
        .type_kind(m.ty)
        .element_type()
        .ok_or_else(|| InterpError::at(op, "no element type"))?;
    Ok(vec![Tensor::new(
        &u,
        elem,
        store_as(&u, elem, vec![get(&m.data, at)]),
    )])
}

/// `memref.store`: writes the element at the indices.
fn interpret_store(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let u = it.ctx.uniquer().clone();
    let target = Store(op).memref(it.ctx);
    let x = get(&args[0].data, 0);
    let Some(m) = it.value_mut(target) else {
        return Err(InterpError::at(
            op,
            "store into a buffer that was not computed",
        ));
    };
    let at = offset(op, m, &args[2..])?;
    match (&mut m.data, Elem::of(&u, args[0].ty)) {
        (Data::Float(v), Some(_)) => v.set(at, x),
        (Data::Int(v), Some(e)) => v.set(at, e.wrap(x as i128)),
        _ => return Err(InterpError::at(op, "unsupported element type")),
    }
    Ok(Vec::new())
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

/// Writes element `k` of `src` to offset `places[k].0` of `buf` (of element
/// kind `elem`) where `places[k].1` says it is valid: a tile's store through
/// a descriptor. An error for element kinds other than floats and integers.
pub fn scatter(
    buf: &mut Data,
    elem: Option<Elem>,
    places: Vec<(i64, bool)>,
    src: &Data,
) -> Result<(), &'static str> {
    for (k, (off, ok)) in places.into_iter().enumerate() {
        if !ok {
            continue;
        }
        let x = get(src, k);
        match (&mut *buf, elem) {
            (Data::Float(v), Some(_)) => v.set(off as usize, x),
            (Data::Int(v), Some(e)) => v.set(off as usize, e.wrap(x as i128)),
            _ => return Err("unsupported element type"),
        }
    }
    Ok(())
}

/// `values` stored as `elem` (rounded, or truncated to integers).
pub fn store_as(u: &Uniquer, elem: Type, values: impl IntoIterator<Item = f64>) -> Data {
    match Elem::of(u, elem).unwrap_or(Elem::Index) {
        Elem::Float(k) => Data::from_f64s(k, values),
        e => Data::from_i64s(e, values.into_iter().map(|v| v as i64)),
    }
}
