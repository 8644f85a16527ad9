//! Folding graph ops (every graph op's `fold` hook) and the constants folds
//! make (`graph.constant`, the dialect's `materialize_constant`).
//!
//! An op whose operands are all constants folds to the constant it computes,
//! evaluated by its own interpreter hook: to a splat of the result type when
//! every operand is a splat (an elementwise op on one element, a view of a
//! splat: no elements are materialised, however large the tensor), otherwise
//! when the result has at most [`MAX_FOLD_ELEMENTS`] elements. An `iota`
//! stays an op, and so does what is computed from it (a causal mask): kernels
//! compute it from their indices (attention skips the key blocks a causal
//! mask hides), which a table of constants would hide. Chains compose: a broadcast of a broadcast is one broadcast, a
//! reshape of a reshape one reshape, and a cast of a cast one cast where the
//! inner cast is exact (it changes no value: `f16 -> f32 -> f16` is the
//! identity; `f32 -> f16 -> f32` rounds, and stays).

use super::{Broadcast, Cast, Class, Constant, Reshape, semantics};
use aic::attributes::{Attr, AttrKind, DenseData};
use aic::float::FloatKind;
use aic::interp::{Interp, InterpretFn, Tensor, attr_of_tensor, tensor_of_attr};
use aic::ir::{Context, Op, OpState, Uniquer};
use aic::op_def::OpHandle;
use aic::rewrite::FoldResult;
use aic::types::{Signedness, Type, TypeKind};
use smallvec::{SmallVec, smallvec};

/// The most elements a folded constant that is not a splat may have (a
/// causal mask of a sequence of 256, a small table); larger ones stay ops,
/// which kernels compute rather than read.
pub const MAX_FOLD_ELEMENTS: u64 = 65_536;

type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// The `fold` hook of every graph op.
pub fn fold(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let spec = ctx.op_spec(op)?;
    if Constant::is(ctx, op) || ctx.num_results(op) != 1 {
        return None;
    }
    let class = semantics(spec.name)?.class;
    if matches!(class, Class::Elementwise | Class::View)
        && let Some(all) = consts.iter().copied().collect::<Option<Vec<Attr>>>()
        && let Some(value) = fold_constants(ctx, op, spec.interpret?, class, &all)
    {
        return Some(smallvec![FoldResult::Attr(value)]);
    }
    compose(ctx, op)
}

/// The constant `op` computes from the constants `consts` (its operands).
fn fold_constants(
    ctx: &Context,
    op: Op,
    interpret: InterpretFn,
    class: Class,
    consts: &[Attr],
) -> Option<Attr> {
    let u = ctx.uniquer();
    let ty = ctx.value_type(ctx.result(op, 0));
    let n = elements(u, ty)?;
    let splats: Option<Vec<Box<[u8]>>> = consts.iter().map(|a| splat_bytes(u, *a)).collect();
    match (splats, class) {
        // A view of a splat: the same element everywhere.
        (Some(s), Class::View) if s.len() == 1 => Some(splat(u, ty, &s[0])),
        // An elementwise op of splats: the op on one element.
        (Some(s), Class::Elementwise) if !s.is_empty() => {
            let args = ctx
                .operands(op)
                .iter()
                .zip(&s)
                .map(|(v, b)| {
                    let t = rank0(u, ctx.value_type(*v))?;
                    tensor_of_attr(u, splat(u, t, b), t)
                })
                .collect::<Option<Vec<Tensor>>>()?;
            let mut out = interpret(&mut Interp::new(ctx), op, &args).ok()?;
            let one = out.pop().filter(|t| t.len() == 1)?;
            let r0 = rank0(u, ty)?;
            let bytes = splat_bytes(u, attr_of_tensor(u, &Tensor::new(u, r0, one.data)))?;
            Some(splat(u, ty, &bytes))
        }
        _ if n <= MAX_FOLD_ELEMENTS => {
            let args = ctx
                .operands(op)
                .iter()
                .zip(consts)
                .map(|(v, a)| tensor_of_attr(u, *a, ctx.value_type(*v)))
                .collect::<Option<Vec<Tensor>>>()?;
            let mut out = interpret(&mut Interp::new(ctx), op, &args).ok()?;
            let t = out.pop().filter(|t| t.ty == ty && t.len() as u64 == n)?;
            Some(attr_of_tensor(u, &t))
        }
        _ => None,
    }
}

/// A chain of two ops that is one: a broadcast of a broadcast, a reshape of
/// a reshape, a cast of an exact cast (updated in place, or the chain's
/// source where the two cancel).
fn compose(ctx: &mut Context, op: Op) -> Folded {
    let own = ctx.result(op, 0);
    let ty = ctx.value_type(own);
    let (src, dims) = if let Some(b) = Broadcast::of(ctx, op) {
        let inner = Broadcast::defining(ctx, b.x(ctx))?;
        let outer = b.dims(ctx)?;
        let dims = inner
            .dims(ctx)?
            .iter()
            .map(|d| outer.get(usize::try_from(*d).ok()?).copied())
            .collect::<Option<Vec<i64>>>()?;
        (inner.x(ctx), Some(dims))
    } else if let Some(r) = Reshape::of(ctx, op) {
        (Reshape::defining(ctx, r.x(ctx))?.x(ctx), None)
    } else if let Some(c) = Cast::of(ctx, op) {
        let inner = Cast::defining(ctx, c.x(ctx))?;
        let src = inner.x(ctx);
        let u = ctx.uniquer();
        let (a, b) = (
            elem(u, ctx.value_type(src))?,
            elem(u, ctx.value_type(c.x(ctx)))?,
        );
        if !exact(u, a, b) {
            return None;
        }
        (src, None)
    } else {
        return None;
    };
    if ctx.value_type(src) == ty {
        return Some(smallvec![FoldResult::Value(src)]);
    }
    ctx.set_operands(op, &[src]);
    if let Some(d) = dims {
        let (name, value) = (ctx.ident("dims"), ctx.uniquer().i64_array(&d));
        ctx.set_inherent_attr(op, name, value);
    }
    Some(smallvec![FoldResult::Value(own)])
}

/// Whether converting from element type `a` to `b` keeps every value (so a
/// conversion after it sees the value it would have seen without it).
pub fn exact(u: &Uniquer, a: Type, b: Type) -> bool {
    use FloatKind::{BF16, F16, F32, F64};
    match (u.type_kind(a), u.type_kind(b)) {
        (TypeKind::Float(x), TypeKind::Float(y)) => {
            matches!((x, y), (F16 | BF16, F32 | F64) | (F32, F64)) || x == y
        }
        (
            TypeKind::Integer {
                width: w,
                signedness: s,
            },
            TypeKind::Integer {
                width: v,
                signedness: t,
            },
        ) => {
            // Wider, and a negative value stays negative (i1 is a truth
            // value: 0 or 1).
            let unsigned = |s: &Signedness, w: u32| *s == Signedness::Unsigned || w == 1;
            (w == v && s == t) || (v > w && (unsigned(s, *w) || *t != Signedness::Unsigned))
        }
        (TypeKind::Integer { width, signedness }, TypeKind::Float(y)) => {
            let magnitude = if *signedness == Signedness::Unsigned || *width == 1 {
                *width
            } else {
                width - 1
            };
            matches!(y, F16 | BF16 | F32 | F64) && magnitude <= y.precision()
        }
        _ => false,
    }
}

/// The element type of tensor type `ty`.
fn elem(u: &Uniquer, ty: Type) -> Option<Type> {
    match u.type_kind(ty) {
        TypeKind::Tensor { elem, .. } => Some(*elem),
        _ => None,
    }
}

/// The rank-0 tensor type of `ty`'s element type.
fn rank0(u: &Uniquer, ty: Type) -> Option<Type> {
    Some(u.ty(TypeKind::Tensor {
        shape: SmallVec::new(),
        elem: elem(u, ty)?,
        encoding: None,
    }))
}

/// The number of elements of a static tensor type.
fn elements(u: &Uniquer, ty: Type) -> Option<u64> {
    match u.type_kind(ty) {
        TypeKind::Tensor { shape, .. } => shape
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(u64::try_from(*d).ok()?)),
        _ => None,
    }
}

/// The one element of a dense constant whose elements are all equal, as
/// its little-endian bytes.
pub fn splat_bytes(u: &Uniquer, a: Attr) -> Option<Box<[u8]>> {
    let AttrKind::DenseElements {
        ty,
        data: DenseData::Raw { splat, bytes },
    } = u.attr_kind(a)
    else {
        return None;
    };
    let w = aic::printer::scalar_bytes(u, elem(u, *ty)?);
    let first = bytes.get(..w).filter(|_| w > 0)?;
    (*splat || bytes.chunks(w).all(|c| c == first)).then(|| first.into())
}

/// The splat of type `ty` whose element has the bytes `bytes` (one element
/// is not a splat, as the parser reads it).
pub fn splat(u: &Uniquer, ty: Type, bytes: &[u8]) -> Attr {
    let n = elements(u, ty);
    u.attr(AttrKind::DenseElements {
        ty,
        data: DenseData::Raw {
            splat: n != Some(1),
            bytes: bytes.into(),
        },
    })
}

/// The graph dialect's constant of a folded value: `graph.constant` of a
/// dense attribute of the result's type.
pub fn materialize_constant(ctx: &Context, value: Attr, ty: Type, loc: Attr) -> Option<OpState> {
    if !matches!(ctx.attr_kind(value), AttrKind::DenseElements { ty: t, .. } if *t == ty) {
        return None;
    }
    let mut st = OpState::new(ctx.ident(super::CONSTANT.name), loc);
    st.result_types.push(ty);
    st.props = Some(ctx.dict_attr(vec![(ctx.ident("value"), value)]));
    Some(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context::new(std::sync::Arc::new(crate::all_dialects()))
    }

    /// Which conversions keep every value.
    #[test]
    fn exact_conversions() {
        let c = ctx();
        let u = c.uniquer();
        let f = |k| u.ty(TypeKind::Float(k));
        let i = |width, signedness| u.ty(TypeKind::Integer { width, signedness });
        use FloatKind::{BF16, F16, F32, F64};
        use Signedness::{Signed, Signless, Unsigned};
        let yes = [
            (f(F16), f(F32)),
            (f(BF16), f(F32)),
            (f(F32), f(F64)),
            (f(F16), f(F16)),
            (i(8, Signless), i(32, Signless)),
            (i(8, Unsigned), i(16, Signed)),
            (i(1, Signless), i(8, Unsigned)),
            (i(8, Signed), f(F16)),
            (i(24, Signless), f(F32)),
            (i(1, Signless), f(BF16)),
        ];
        let no = [
            (f(F32), f(F16)),
            (f(F16), f(BF16)),
            (f(BF16), f(F16)),
            (i(32, Signless), i(8, Signless)),
            (i(8, Signless), i(16, Unsigned)),
            (i(32, Signless), f(F32)),
            (i(16, Signless), f(BF16)),
            (f(F16), i(32, Signless)),
        ];
        for (a, b) in yes {
            assert!(exact(u, a, b), "{a:?} -> {b:?}");
        }
        for (a, b) in no {
            assert!(!exact(u, a, b), "{a:?} -> {b:?}");
        }
    }

    /// A dense constant of equal elements is a splat whatever its flag; a
    /// splat of one element is not flagged, as the parser reads it.
    #[test]
    fn splats() {
        let c = ctx();
        let u = c.uniquer();
        let f32t = u.ty(TypeKind::Float(FloatKind::F32));
        let t = |shape: &[i64]| {
            u.ty(TypeKind::Tensor {
                shape: shape.iter().copied().collect(),
                elem: f32t,
                encoding: None,
            })
        };
        let one = 1.0f32.to_le_bytes();
        let two = 2.0f32.to_le_bytes();
        let dense = |ty, bytes: Vec<u8>| {
            u.attr(AttrKind::DenseElements {
                ty,
                data: DenseData::Raw {
                    splat: false,
                    bytes: bytes.into(),
                },
            })
        };
        let same = dense(t(&[2]), [one, one].concat());
        assert_eq!(splat_bytes(u, same).as_deref(), Some(&one[..]));
        let mixed = dense(t(&[2]), [one, two].concat());
        assert_eq!(splat_bytes(u, mixed), None);
        let big = splat(u, t(&[4096, 4096]), &one);
        assert!(
            matches!(u.attr_kind(big), AttrKind::DenseElements { data: DenseData::Raw { splat: true, bytes }, .. } if bytes.len() == 4)
        );
        let single = splat(u, t(&[1]), &one);
        assert!(matches!(
            u.attr_kind(single),
            AttrKind::DenseElements {
                data: DenseData::Raw { splat: false, .. },
                ..
            }
        ));
        // A constant is materialised only for a value of the result's type.
        let loc = c.unknown_loc();
        assert!(materialize_constant(&c, big, t(&[4096, 4096]), loc).is_some());
        assert!(materialize_constant(&c, big, t(&[4096]), loc).is_none());
    }
}
