//! The `arith` dialect in LLVM IR: one row per op in [`ROWS`], each a small
//! descriptor ([`Arith`]) that [`emit`] turns into instructions. Adding an
//! op is adding a row (and, for a new kind of instruction, a descriptor).

use crate::emit::{Llvm, Lower};
use crate::fp8;
use crate::ops::Emit;
use aic::attributes::AttrKind;
use aic::ir::Op;
use aic::types::TypeKind;
use aic_dialects::arith::{self as d, FASTMATH_AFN, FASTMATH_ARCP};
use inkwell::types::{BasicTypeEnum, FloatType};
use inkwell::values::{BasicValueEnum, FloatValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

/// An integer binary instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) enum IntBin {
    /// `add`, `sub`, `mul`, with the op's `nsw`/`nuw` overflow flags.
    Add,
    Sub,
    Mul,
    Shl,
    DivS,
    DivU,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    ShrS,
    ShrU,
}

/// A float binary operation.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FloatBin {
    Add,
    Sub,
    Mul,
    /// Approximate on NVPTX where allowed ([`Lower::fdiv`]).
    Div,
    Rem,
    /// An overloaded LLVM intrinsic (`llvm.<name>.<type>`).
    Intrinsic(&'static str),
}

/// How an arith op is emitted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arith {
    Constant,
    Int(IntBin),
    /// Unsigned division rounded up.
    CeilDivU,
    /// Signed division rounded up (`ceil`) or down.
    RoundedDivS {
        ceil: bool,
    },
    /// `select(x pred y, x, y)`.
    MinMax(IntPredicate),
    Cmpi,
    Cmpf,
    Select,
    Float(FloatBin),
    Negf,
    /// Integer width changes, sign- or zero-extending.
    IntCast {
        signed: bool,
    },
    /// `extf`/`truncf` (`truncf` checks its rounding mode).
    FloatCast {
        trunc: bool,
    },
    IntToFloat {
        signed: bool,
    },
    FloatToInt {
        signed: bool,
    },
    Bitcast,
}

const fn row(spec: &aic::OpSpec, a: Arith) -> (&'static str, Emit) {
    (spec.name, Emit::Arith(a))
}

/// The arith ops aic-llvm translates.
pub(crate) const ROWS: &[(&str, Emit)] = &[
    row(&d::CONSTANT, Arith::Constant),
    row(&d::ADDI, Arith::Int(IntBin::Add)),
    row(&d::SUBI, Arith::Int(IntBin::Sub)),
    row(&d::MULI, Arith::Int(IntBin::Mul)),
    row(&d::SHLI, Arith::Int(IntBin::Shl)),
    row(&d::DIVSI, Arith::Int(IntBin::DivS)),
    row(&d::DIVUI, Arith::Int(IntBin::DivU)),
    row(&d::REMSI, Arith::Int(IntBin::RemS)),
    row(&d::REMUI, Arith::Int(IntBin::RemU)),
    row(&d::ANDI, Arith::Int(IntBin::And)),
    row(&d::ORI, Arith::Int(IntBin::Or)),
    row(&d::XORI, Arith::Int(IntBin::Xor)),
    row(&d::SHRSI, Arith::Int(IntBin::ShrS)),
    row(&d::SHRUI, Arith::Int(IntBin::ShrU)),
    row(&d::CEILDIVUI, Arith::CeilDivU),
    row(&d::CEILDIVSI, Arith::RoundedDivS { ceil: true }),
    row(&d::FLOORDIVSI, Arith::RoundedDivS { ceil: false }),
    row(&d::MAXSI, Arith::MinMax(IntPredicate::SGT)),
    row(&d::MINSI, Arith::MinMax(IntPredicate::SLT)),
    row(&d::MAXUI, Arith::MinMax(IntPredicate::UGT)),
    row(&d::MINUI, Arith::MinMax(IntPredicate::ULT)),
    row(&d::CMPI, Arith::Cmpi),
    row(&d::CMPF, Arith::Cmpf),
    row(&d::SELECT, Arith::Select),
    row(&d::ADDF, Arith::Float(FloatBin::Add)),
    row(&d::SUBF, Arith::Float(FloatBin::Sub)),
    row(&d::MULF, Arith::Float(FloatBin::Mul)),
    row(&d::DIVF, Arith::Float(FloatBin::Div)),
    row(&d::REMF, Arith::Float(FloatBin::Rem)),
    row(&d::MAXIMUMF, Arith::Float(FloatBin::Intrinsic("maximum"))),
    row(&d::MINIMUMF, Arith::Float(FloatBin::Intrinsic("minimum"))),
    row(&d::MAXNUMF, Arith::Float(FloatBin::Intrinsic("maxnum"))),
    row(&d::MINNUMF, Arith::Float(FloatBin::Intrinsic("minnum"))),
    row(&d::NEGF, Arith::Negf),
    row(&d::EXTSI, Arith::IntCast { signed: true }),
    row(&d::EXTUI, Arith::IntCast { signed: false }),
    row(&d::TRUNCI, Arith::IntCast { signed: false }),
    row(&d::INDEX_CAST, Arith::IntCast { signed: true }),
    row(&d::INDEX_CASTUI, Arith::IntCast { signed: false }),
    row(&d::EXTF, Arith::FloatCast { trunc: false }),
    row(&d::TRUNCF, Arith::FloatCast { trunc: true }),
    row(&d::SITOFP, Arith::IntToFloat { signed: true }),
    row(&d::UITOFP, Arith::IntToFloat { signed: false }),
    row(&d::FPTOSI, Arith::FloatToInt { signed: true }),
    row(&d::FPTOUI, Arith::FloatToInt { signed: false }),
    row(&d::BITCAST, Arith::Bitcast),
];

/// `cmpi`'s predicates in MLIR's order.
const CMPI: [IntPredicate; 10] = [
    IntPredicate::EQ,
    IntPredicate::NE,
    IntPredicate::SLT,
    IntPredicate::SLE,
    IntPredicate::SGT,
    IntPredicate::SGE,
    IntPredicate::ULT,
    IntPredicate::ULE,
    IntPredicate::UGT,
    IntPredicate::UGE,
];

/// `cmpf`'s predicates in MLIR's order.
const CMPF: [FloatPredicate; 16] = [
    FloatPredicate::PredicateFalse,
    FloatPredicate::OEQ,
    FloatPredicate::OGT,
    FloatPredicate::OGE,
    FloatPredicate::OLT,
    FloatPredicate::OLE,
    FloatPredicate::ONE,
    FloatPredicate::ORD,
    FloatPredicate::UEQ,
    FloatPredicate::UGT,
    FloatPredicate::UGE,
    FloatPredicate::ULT,
    FloatPredicate::ULE,
    FloatPredicate::UNE,
    FloatPredicate::UNO,
    FloatPredicate::PredicateTrue,
];

type V<'ctx> = Result<BasicValueEnum<'ctx>, String>;

/// The value of arith op `op`, emitted as `a` says.
pub(crate) fn emit<'ctx>(l: &Lower<'_, 'ctx>, op: Op, a: Arith) -> V<'ctx> {
    let b = &l.b;
    match a {
        Arith::Constant => constant(l, op),
        Arith::Int(k) => int_binary(l, op, k),
        Arith::CeilDivU => ceildivui(l, op),
        Arith::RoundedDivS { ceil } => rounded_divsi(l, op, ceil),
        Arith::MinMax(pred) => {
            let (x, y) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
            let c = b.build_int_compare(pred, x, y, "").llvm()?;
            b.build_select(c, x, y, "").llvm()
        }
        Arith::Cmpi => {
            let (x, y) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
            let p = *CMPI
                .get(predicate(l, op)?)
                .ok_or_else(|| l.err(op, "unknown cmpi predicate"))?;
            Ok(b.build_int_compare(p, x, y, "").llvm()?.into())
        }
        Arith::Cmpf => {
            let (x, _) = l.widen(l.float_operand(op, 0)?)?;
            let (y, _) = l.widen(l.float_operand(op, 1)?)?;
            let p = *CMPF
                .get(predicate(l, op)?)
                .ok_or_else(|| l.err(op, "unknown cmpf predicate"))?;
            Ok(b.build_float_compare(p, x, y, "").llvm()?.into())
        }
        Arith::Select => {
            let c = l.int_operand(op, 0)?;
            let (x, y) = (l.operand(op, 1)?, l.operand(op, 2)?);
            if x.get_type() != y.get_type() {
                return Err(l.err(op, "arith.select of values of different types"));
            }
            b.build_select(c, x, y, "").llvm()
        }
        Arith::Float(k) => float_binary(l, op, k),
        Arith::Negf => Ok(b
            .build_float_neg(l.float_operand(op, 0)?, "")
            .llvm()?
            .into()),
        Arith::IntCast { signed } => int_cast(l, op, signed),
        Arith::FloatCast { trunc } => {
            if trunc
                && let Some(m) = d::TRUNCF.attr(l.ir, op, "roundingmode")
                && !matches!(l.ir.attr_kind(m), AttrKind::Integer { value: 0, .. })
            {
                return Err(l.err(op, "arith.truncf rounds only to nearest even here"));
            }
            fp8_cast(l, op).transpose().unwrap_or_else(|| {
                let x = l.float_operand(op, 0)?;
                let to = l.ty(op, l.result_type(op)?)?.into_float_type();
                Ok(float_cast(l, x, to)?.into())
            })
        }
        Arith::IntToFloat { signed } => int_to_float(l, op, signed),
        Arith::FloatToInt { signed } => {
            let (x, _) = l.widen(l.float_operand(op, 0)?)?;
            let to = l.ty(op, l.result_type(op)?)?.into_int_type();
            Ok(if signed {
                b.build_float_to_signed_int(x, to, "").llvm()?.into()
            } else {
                b.build_float_to_unsigned_int(x, to, "").llvm()?.into()
            })
        }
        Arith::Bitcast => {
            let x = l.operand(op, 0)?;
            let to = l.ty(op, l.result_type(op)?)?;
            if x.get_type() == to {
                Ok(x)
            } else {
                b.build_bit_cast(x, to, "").llvm()
            }
        }
    }
}

fn constant<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> V<'ctx> {
    let a = d::CONSTANT
        .attr(l.ir, op, "value")
        .ok_or_else(|| l.err(op, "arith.constant without a value"))?;
    let t = l.result_type(op)?;
    let ty = l.ty(op, t)?;
    match (l.ir.attr_kind(a), ty) {
        (AttrKind::Integer { value, .. }, BasicTypeEnum::IntType(it)) => {
            let w = it.get_bit_width();
            let bits = if w >= 64 {
                *value as u64
            } else {
                (*value as u64) & ((1u64 << w) - 1)
            };
            Ok(it.const_int(bits, false).into())
        }
        // fp8 constants are their bytes (crate::fp8).
        (AttrKind::Float { bits, .. }, BasicTypeEnum::IntType(it))
            if fp8::format(l.ir, t).is_some() =>
        {
            Ok(it.const_int(*bits as u64 & 0xff, false).into())
        }
        (AttrKind::Float { bits, ty: at }, BasicTypeEnum::FloatType(ft)) => {
            let TypeKind::Float(k) = l.ir.type_kind(*at) else {
                return Err(l.err(op, "a float constant of a non-float type"));
            };
            Ok(ft.const_float(k.to_f64(*bits)).into())
        }
        _ => Err(l.err(
            op,
            format!(
                "arith.constant {}: only scalar integer and float constants are supported",
                aic::printer::attr_text(l.ir.uniquer(), a)
            ),
        )),
    }
}

/// The `nsw` and `nuw` bits of `op`'s `overflowFlags`.
fn overflow_flags(l: &Lower<'_, '_>, op: Op) -> (bool, bool) {
    let f = d::ADDI
        .attr(l.ir, op, "overflowFlags")
        .and_then(|a| d::OVERFLOW.bits_of(l.ir.attr_kind(a)))
        .unwrap_or(0);
    (f & 1 != 0, f & 2 != 0)
}

fn predicate(l: &Lower<'_, '_>, op: Op) -> Result<usize, String> {
    let a =
        l.ir.find_ident("predicate")
            .and_then(|i| l.ir.inherent_attr(op, i))
            .ok_or_else(|| l.err(op, "comparison without a predicate"))?;
    match l.ir.attr_kind(a) {
        AttrKind::Integer { value, .. } => Ok(*value as usize),
        _ => Err(l.err(op, "comparison predicate is not an integer")),
    }
}

fn int_binary<'ctx>(l: &Lower<'_, 'ctx>, op: Op, k: IntBin) -> V<'ctx> {
    let (x, y) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
    let b = &l.b;
    let (nsw, nuw) = match k {
        IntBin::Add | IntBin::Sub | IntBin::Mul => overflow_flags(l, op),
        _ => (false, false),
    };
    let v: Result<IntValue<'ctx>, _> = match k {
        IntBin::Add if nsw => b.build_int_nsw_add(x, y, ""),
        IntBin::Add if nuw => b.build_int_nuw_add(x, y, ""),
        IntBin::Add => b.build_int_add(x, y, ""),
        IntBin::Sub if nsw => b.build_int_nsw_sub(x, y, ""),
        IntBin::Sub if nuw => b.build_int_nuw_sub(x, y, ""),
        IntBin::Sub => b.build_int_sub(x, y, ""),
        IntBin::Mul if nsw => b.build_int_nsw_mul(x, y, ""),
        IntBin::Mul if nuw => b.build_int_nuw_mul(x, y, ""),
        IntBin::Mul => b.build_int_mul(x, y, ""),
        IntBin::Shl => b.build_left_shift(x, y, ""),
        IntBin::DivS => b.build_int_signed_div(x, y, ""),
        IntBin::DivU => b.build_int_unsigned_div(x, y, ""),
        IntBin::RemS => b.build_int_signed_rem(x, y, ""),
        IntBin::RemU => b.build_int_unsigned_rem(x, y, ""),
        IntBin::And => b.build_and(x, y, ""),
        IntBin::Or => b.build_or(x, y, ""),
        IntBin::Xor => b.build_xor(x, y, ""),
        IntBin::ShrS => b.build_right_shift(x, y, true, ""),
        IntBin::ShrU => b.build_right_shift(x, y, false, ""),
    };
    Ok(v.llvm()?.into())
}

/// `ceildivui`: the quotient plus one where the remainder is non-zero.
fn ceildivui<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> V<'ctx> {
    let (x, y) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
    let b = &l.b;
    let zero = x.get_type().const_zero();
    let q = b.build_int_unsigned_div(x, y, "").llvm()?;
    let r = b.build_int_unsigned_rem(x, y, "").llvm()?;
    let nz = b.build_int_compare(IntPredicate::NE, r, zero, "").llvm()?;
    let inc = b.build_int_z_extend(nz, x.get_type(), "").llvm()?;
    Ok(b.build_int_add(q, inc, "").llvm()?.into())
}

/// `ceildivsi` and `floordivsi`: truncating division, then one step towards
/// the right infinity when the remainder is non-zero and on that side.
fn rounded_divsi<'ctx>(l: &Lower<'_, 'ctx>, op: Op, ceil: bool) -> V<'ctx> {
    let (x, y) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
    let b = &l.b;
    let zero = x.get_type().const_zero();
    let one = x.get_type().const_int(1, false);
    let q = b.build_int_signed_div(x, y, "").llvm()?;
    let r = b.build_int_signed_rem(x, y, "").llvm()?;
    let nz = b.build_int_compare(IntPredicate::NE, r, zero, "").llvm()?;
    let rneg = b.build_int_compare(IntPredicate::SLT, r, zero, "").llvm()?;
    let yneg = b.build_int_compare(IntPredicate::SLT, y, zero, "").llvm()?;
    let (pred, adj) = if ceil {
        (IntPredicate::EQ, b.build_int_add(q, one, "").llvm()?)
    } else {
        (IntPredicate::NE, b.build_int_sub(q, one, "").llvm()?)
    };
    let side = b.build_int_compare(pred, rneg, yneg, "").llvm()?;
    let fix = b.build_and(nz, side, "").llvm()?;
    b.build_select(fix, adj, q, "").llvm()
}

/// A float binary op, 16-bit formats computed in f32.
fn float_binary<'ctx>(l: &Lower<'_, 'ctx>, op: Op, k: FloatBin) -> V<'ctx> {
    let (x, to) = l.widen(l.float_operand(op, 0)?)?;
    let (y, _) = l.widen(l.float_operand(op, 1)?)?;
    let b = &l.b;
    let r = match k {
        FloatBin::Add => b.build_float_add(x, y, "").llvm()?,
        FloatBin::Sub => b.build_float_sub(x, y, "").llvm()?,
        FloatBin::Mul => b.build_float_mul(x, y, "").llvm()?,
        FloatBin::Div => l.fdiv(
            x,
            y,
            to.is_some() || l.fastmath_has(op, FASTMATH_ARCP | FASTMATH_AFN),
        )?,
        FloatBin::Rem => b.build_float_rem(x, y, "").llvm()?,
        FloatBin::Intrinsic(name) => {
            let s = l.fsuffix(x.get_type());
            l.fcall(&format!("llvm.{name}.{s}"), &[x, y])?
        }
    };
    Ok(l.narrow(r, to)?.into())
}

/// Integer width changes (`extsi`, `extui`, `trunci`, the index casts).
fn int_cast<'ctx>(l: &Lower<'_, 'ctx>, op: Op, signed: bool) -> V<'ctx> {
    let x = l.int_operand(op, 0)?;
    let to = l.ty(op, l.result_type(op)?)?.into_int_type();
    let b = &l.b;
    let (from_w, to_w) = (x.get_type().get_bit_width(), to.get_bit_width());
    Ok(if to_w == from_w {
        x.into()
    } else if to_w < from_w {
        b.build_int_truncate(x, to, "").llvm()?.into()
    } else if signed {
        b.build_int_s_extend(x, to, "").llvm()?.into()
    } else {
        b.build_int_z_extend(x, to, "").llvm()?.into()
    })
}

/// `sitofp`/`uitofp`; to a 16-bit format through f32, since LLVM would
/// otherwise call compiler-rt on the host for 64-bit sources.
fn int_to_float<'ctx>(l: &Lower<'_, 'ctx>, op: Op, signed: bool) -> V<'ctx> {
    let x = l.int_operand(op, 0)?;
    let to = l.ty(op, l.result_type(op)?)?.into_float_type();
    let mid = if l.is_narrow(to) { l.f32() } else { to };
    let f = if signed {
        l.b.build_signed_int_to_float(x, mid, "").llvm()?
    } else {
        l.b.build_unsigned_int_to_float(x, mid, "").llvm()?
    };
    Ok(l.narrow(f, Some(to))?.into())
}

/// `extf` from or `truncf` to an fp8 format, through f32 (crate::fp8);
/// `None` if neither side is fp8.
fn fp8_cast<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<Option<BasicValueEnum<'ctx>>, String> {
    let from_t = l.ir.value_type(l.ir.operands(op)[0]);
    let to_t = l.result_type(op)?;
    let (from, to) = (fp8::format(l.ir, from_t), fp8::format(l.ir, to_t));
    if from.is_none() && to.is_none() {
        return Ok(None);
    }
    let x = match from {
        Some(f) => fp8::decode(l, f, l.int_operand(op, 0)?)?,
        None => {
            let (x, _) = l.widen(l.float_operand(op, 0)?)?;
            if x.get_type() == l.f32() {
                x
            } else {
                l.b.build_float_trunc(x, l.f32(), "").llvm()?
            }
        }
    };
    Ok(Some(match to {
        Some(f) => fp8::encode(l, f, x)?.into(),
        None => float_cast(l, x, l.ty(op, to_t)?.into_float_type())?.into(),
    }))
}

/// A float format change (`extf`/`truncf`), the 16-bit formats going
/// through f32 where a direct conversion would need a library call.
fn float_cast<'ctx>(
    l: &Lower<'_, 'ctx>,
    x: FloatValue<'ctx>,
    to: FloatType<'ctx>,
) -> Result<FloatValue<'ctx>, String> {
    let from = x.get_type();
    if from == to {
        return Ok(x);
    }
    if l.is_narrow(to) {
        return l.narrow(x, Some(to));
    }
    let (x, _) = l.widen(x)?;
    if x.get_type() == to {
        return Ok(x);
    }
    if x.get_type() == l.cx.f64_type() {
        l.b.build_float_trunc(x, to, "").llvm()
    } else {
        l.b.build_float_ext(x, to, "").llvm()
    }
}
