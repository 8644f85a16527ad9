//! Which function emits which op: one row per op, named by the op spec's
//! constant in its dialect (`arith::ADDI.name`), gathered from the
//! translating modules into one map built once. Adding an op is adding a
//! row to its dialect's `ROWS`.

use crate::emit::Lower;
use aic::ir::Op;
use inkwell::values::BasicValueEnum;
use std::collections::HashMap;
use std::sync::LazyLock;

/// How an op is emitted.
#[derive(Clone, Copy)]
pub(crate) enum Emit {
    /// A function that translates the op, recording its results itself.
    Op(for<'a, 'ctx> fn(&mut Lower<'a, 'ctx>, Op) -> Result<(), String>),
    /// A function that returns the value of the op's single result.
    Value(for<'a, 'ctx> fn(&mut Lower<'a, 'ctx>, Op) -> Result<BasicValueEnum<'ctx>, String>),
    /// An arith op, by its descriptor.
    Arith(crate::arith::Arith),
    /// A math op, by its descriptor.
    Math(crate::math::Math),
}

/// Every row of every translating module.
fn rows() -> impl Iterator<Item = &'static (&'static str, Emit)> {
    [
        crate::emit::ROWS,
        crate::arith::ROWS,
        crate::math::ROWS,
        crate::nvgpu::ROWS,
        crate::tma::ROWS,
        crate::amdgpu::ROWS,
    ]
    .into_iter()
    .flatten()
}

static TABLE: LazyLock<HashMap<&'static str, Emit>> =
    LazyLock::new(|| rows().map(|(name, e)| (*name, *e)).collect());

/// The names of the ops aic-llvm translates, in table order (a name twice
/// would be a bug: the later row would win).
pub fn translated_ops() -> Vec<&'static str> {
    rows().map(|(name, _)| *name).collect()
}

/// Translates `op` by its row; an op without one is an error.
pub(crate) fn emit(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    let Some(e) = TABLE.get(l.ir.op_name(op)) else {
        return Err(l.err_cannot(op));
    };
    let v = match *e {
        Emit::Op(f) => return f(l, op),
        Emit::Value(f) => f(l, op)?,
        Emit::Arith(a) => crate::arith::emit(l, op, a)?,
        Emit::Math(m) => crate::math::emit(l, op, m)?,
    };
    l.set(op, v);
    Ok(())
}
