//! The part of upstream MLIR's `vector` dialect that register fragments
//! need (the operands and results of `nvgpu` ops), in upstream syntax:
//!
//! ```mlir
//! %v = vector.from_elements %a, %b, %c, %d : vector<2x2xf32>
//! %x = vector.extract %v[1, 0] : f32 from vector<2x2xf32>
//! ```
//!
//! `vector.extract` takes static positions only (upstream also allows SSA
//! positions) and always extracts one element.
//!
//! `vector.load` and `vector.store` move a rank-1 vector of consecutive
//! elements of a memref's last dimension at once (the 16-byte accesses a
//! kernel's epilogue stores with), as upstream spells them:
//!
//! ```mlir
//! %v = vector.load %m[%i] {alignment = 16 : i64} : memref<64xf16>, vector<8xf16>
//! vector.store %v, %m[%i] {alignment = 16 : i64} : memref<64xf16>, vector<8xf16>
//! ```
//!
//! `alignment` (bytes, a power of two) promises the address's alignment;
//! without it an access is aligned to its element. Every element accessed
//! must lie inside the memref's last dimension.

use aic::Diagnostic;
use aic::dialect::{Dialect, OpSpec, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic::verifier::op_error;

use aic::constraints::{I64_ARRAY, I64_ATTR, MEMREF, VECTOR};
use aic::types::Type;

aic::op! {
    /// `vector.from_elements %a, %b, ... : vector<..>`: a vector of its
    /// operands, in row-major order.
    pub FromElements = FROM_ELEMENTS {
        operands: [elements: variadic(tc::ANY)],
        results: [result: one(VECTOR)],
        spec: OpSpec {
            summary: "a vector of scalars, in row-major order",
            traits: aic::dialect::Traits::PURE,
            format: Some("$elements attr-dict `:` type($result)"),
            infer_operand: Some(|u, g, given| {
                // The groups: the elements, then the result.
                let v = given.get(1)?.as_ref()?.first()?;
                (g == 0).then(|| u.type_kind(*v).element_type()).flatten()
            }),
            verify: Some(verify_from_elements),
            interpret: Some(interpret_from_elements),
            ..OpSpec::new("vector.from_elements")
        },
    }
}

aic::op! {
    /// `vector.extract %v[i, j] : T from vector<..>`: one element.
    pub Extract = EXTRACT {
        operands: [source: one(VECTOR)],
        results: [result: one(tc::ANY)],
        attributes: [static_position: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            summary: "one element of a vector, at static positions",
            traits: aic::dialect::Traits::PURE,
            format: Some("$source `` $static_position attr-dict `:` type($result) `from` type($source)"),
            verify: Some(verify_extract),
            interpret: Some(interpret_extract),
            ..OpSpec::new("vector.extract")
        },
    }
}

aic::op! {
    /// `vector.load %m[%i..] : memref<..>, vector<N x T>`: the `N`
    /// consecutive elements of the memref's last dimension from the index.
    pub Load = LOAD {
        operands: [base: one(MEMREF), indices: variadic(tc::INDEX)],
        results: [result: one(VECTOR)],
        attributes: [alignment: optional(I64_ATTR) as i64],
        spec: OpSpec {
            summary: "reads consecutive elements of a memref as a vector",
            format: Some("$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"),
            verify: Some(verify_load),
            interpret: Some(interpret_load),
            ..OpSpec::new("vector.load")
        },
    }
}

aic::op! {
    /// `vector.store %v, %m[%i..] : memref<..>, vector<N x T>`: the vector
    /// into the `N` consecutive elements of the memref's last dimension
    /// from the index.
    pub Store = STORE {
        operands: [value_to_store: one(VECTOR), base: one(MEMREF), indices: variadic(tc::INDEX)],
        attributes: [alignment: optional(I64_ATTR) as i64],
        spec: OpSpec {
            summary: "writes a vector into consecutive elements of a memref",
            format: Some("$value_to_store `,` $base `[` $indices `]` attr-dict `:` type($base) `,` type($value_to_store)"),
            verify: Some(verify_store),
            interpret: Some(interpret_store),
            ..OpSpec::new("vector.store")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "vector",
    description: "vectors of registers: building one from scalars, extracting an element, loading and storing consecutive elements",
    ops: &[FROM_ELEMENTS, EXTRACT, LOAD, STORE],
    materialize_constant: None,
};

/// The static positions of a `vector.extract` (none for another op).
pub fn position(ctx: &Context, op: Op) -> Vec<i64> {
    Extract::of(ctx, op)
        .and_then(|e| e.static_position(ctx))
        .unwrap_or_default()
}

/// The row-major offset of `pos` in `shape`, if inside.
pub fn offset(shape: &[i64], pos: &[i64]) -> Option<i64> {
    if pos.len() != shape.len() {
        return None;
    }
    let mut at = 0;
    for (p, s) in pos.iter().zip(shape) {
        if *p < 0 || p >= s {
            return None;
        }
        at = at * s + p;
    }
    Some(at)
}

/// `vector.from_elements`: one element per lane, of the vector's element type.
fn verify_from_elements(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let from = FromElements(op);
    let ty = ctx.value_type(from.result(ctx));
    let k = ctx.type_kind(ty);
    let elements = from.elements(ctx);
    // A vector of more elements than an i64 counts has more than
    // any operand list.
    let n = k.shape().map_or(Ok(0), aic::shape::elements);
    let elem = k.element_type();
    if n != Ok(elements.len() as i64) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "has {} elements for a vector of {}",
                elements.len(),
                n.map_or_else(|_| aic::printer::type_text(ctx, ty), |n| n.to_string())
            ),
        ));
    }
    if elements.iter().any(|v| Some(ctx.value_type(*v)) != elem) {
        return Err(op_error(
            ctx,
            op,
            "elements must have the vector's element type",
        ));
    }
    Ok(())
}

/// `vector.extract`: the position inside the vector, the result of its
/// element type.
fn verify_extract(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let extract = Extract(op);
    let src = ctx.type_kind(ctx.value_type(extract.source(ctx)));
    let shape = src.shape().unwrap_or(&[]).to_vec();
    let pos = extract.static_position(ctx).unwrap_or_default();
    if offset(&shape, &pos).is_none() {
        return Err(op_error(
            ctx,
            op,
            format!("position {pos:?} is not an element of a vector of shape {shape:?}"),
        ));
    }
    if src.element_type() != Some(ctx.value_type(extract.result(ctx))) {
        return Err(op_error(
            ctx,
            op,
            "the result must have the vector's element type",
        ));
    }
    Ok(())
}

/// `vector.from_elements`: the vector of the operands.
fn interpret_from_elements(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer();
    let ty = ctx.value_type(FromElements(op).result(ctx));
    let e = Elem::of(u, ty).unwrap_or(Elem::Index);
    let data = match e {
        Elem::Float(k) => Data::from_f64s(k, args.iter().flat_map(|a| a.to_f64s())),
        _ => Data::from_i64s(e, args.iter().flat_map(|a| a.to_i64s())),
    };
    Ok(vec![Tensor::new(u, ty, data)])
}

/// `vector.extract`: the element at the position.
fn interpret_extract(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let extract = Extract(op);
    let ty = ctx.value_type(extract.result(ctx));
    let pos = extract.static_position(ctx).unwrap_or_default();
    let at = offset(&args[0].shape, &pos)
        .ok_or_else(|| InterpError::at(op, "position outside the vector"))? as usize;
    let data = match &args[0].data {
        d @ (Data::Int(_) | Data::Float(_)) => d.take([Some(at)].into_iter(), None),
        _ => return Err(InterpError::at(op, "unsupported element type")),
    };
    Ok(vec![Tensor::new(ctx.uniquer(), ty, data)])
}

/// `vector.load` / `vector.store`: one index per memref dimension, a
/// rank-1 vector of the memref's element type, an alignment that is a
/// power of two of at least an element.
fn verify_access(
    ctx: &Context,
    op: Op,
    (m, indices, vector, alignment): (aic::ir::Value, &[aic::ir::Value], Type, Option<i64>),
) -> Result<(), Diagnostic> {
    let mk = ctx.type_kind(ctx.value_type(m));
    let rank = mk.shape().map_or(0, |s| s.len());
    if indices.len() != rank || rank == 0 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "{} indices for a memref of rank {rank} (one per dimension, at least one)",
                indices.len()
            ),
        ));
    }
    let vk = ctx.type_kind(vector);
    if vk.shape().map(|s| s.len()) != Some(1) {
        return Err(op_error(ctx, op, "the vector must have rank 1"));
    }
    if vk.element_type() != mk.element_type() {
        return Err(op_error(
            ctx,
            op,
            "the vector's element type must be the memref's",
        ));
    }
    if let Some(a) = alignment
        && (a <= 0 || a & (a - 1) != 0)
    {
        return Err(op_error(
            ctx,
            op,
            format!("alignment {a} is not a positive power of two"),
        ));
    }
    Ok(())
}

fn verify_load(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let l = Load(op);
    let v = ctx.value_type(l.result(ctx));
    verify_access(ctx, op, (l.base(ctx), l.indices(ctx), v, l.alignment(ctx)))
}

fn verify_store(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let s = Store(op);
    let v = ctx.value_type(s.value_to_store(ctx));
    verify_access(ctx, op, (s.base(ctx), s.indices(ctx), v, s.alignment(ctx)))
}

/// The row-major offsets of the `n` elements a vector access of a memref of
/// `shape` at `idx` touches, or an error where one is outside the memref
/// (or runs past its last dimension).
fn span(op: Op, shape: &[i64], idx: &[Tensor], n: i64) -> IResult<std::ops::Range<usize>> {
    let at: Vec<i64> = idx.iter().map(|t| t.first_int()).collect();
    let last = shape.len().wrapping_sub(1);
    let ok = at.len() == shape.len()
        && at.iter().zip(shape).enumerate().all(|(d, (i, l))| {
            let end = if d == last { i + n } else { i + 1 };
            *i >= 0 && end <= *l
        });
    if !ok {
        return Err(InterpError::at(
            op,
            format!("a vector of {n} at {at:?} is out of bounds of {shape:?}"),
        ));
    }
    let first = at.iter().zip(shape).fold(0, |a, (i, l)| a * l + i) as usize;
    Ok(first..first + n as usize)
}

/// The lanes of a rank-1 vector type.
fn lanes(ctx: &Context, t: Type) -> i64 {
    ctx.type_kind(t)
        .shape()
        .and_then(|s| s.first().copied())
        .unwrap_or(0)
}

/// `vector.load`: the elements from the indices on.
fn interpret_load(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let ty = ctx.value_type(Load(op).result(ctx));
    let m = it
        .value_ref(Load(op).base(ctx))
        .ok_or_else(|| InterpError::at(op, "load from a buffer that was not computed"))?;
    let r = span(op, &m.shape, &args[1..], lanes(ctx, ty))?;
    let elem = ctx
        .type_kind(ty)
        .element_type()
        .ok_or_else(|| InterpError::at(op, "no element type"))?;
    if !matches!(m.data, Data::Float(_) | Data::Int(_)) {
        return Err(InterpError::at(op, "unsupported element type"));
    }
    let values: Vec<f64> = r.map(|i| m.data.f64_at(i)).collect();
    Ok(vec![Tensor::new(
        &u,
        ty,
        match Elem::of(&u, elem).unwrap_or(Elem::Index) {
            Elem::Float(k) => Data::from_f64s(k, values),
            e => Data::from_i64s(e, values.into_iter().map(|v| v as i64)),
        },
    )])
}

/// `vector.store`: the lanes into the elements from the indices on.
fn interpret_store(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let u = it.ctx.uniquer().clone();
    let n = lanes(it.ctx, args[0].ty);
    let elem = Elem::of(
        &u,
        it.ctx
            .type_kind(args[0].ty)
            .element_type()
            .unwrap_or(args[0].ty),
    );
    let target = Store(op).base(it.ctx);
    let Some(m) = it.value_mut(target) else {
        return Err(InterpError::at(
            op,
            "store into a buffer that was not computed",
        ));
    };
    let r = span(op, &m.shape.clone(), &args[2..], n)?;
    if !matches!(args[0].data, Data::Float(_) | Data::Int(_)) {
        return Err(InterpError::at(op, "unsupported element type"));
    }
    for (k, at) in r.enumerate() {
        let x = args[0].data.f64_at(k);
        match (&mut m.data, elem) {
            (Data::Float(v), Some(_)) => v.set(at, x),
            (Data::Int(v), Some(e)) => v.set(at, e.wrap(x as i128)),
            _ => return Err(InterpError::at(op, "unsupported element type")),
        }
    }
    Ok(Vec::new())
}
