//! The interpretation of tile ops, one [`Run`] impl per op: tiles are
//! tensors, loads and stores go element by element through their
//! descriptors, and `tile.launch` runs every grid point of its kernel in turn.

use super::ops::{desc_of, tile_of, written_desc};
use super::types::tile_type;
use super::{
    Broadcast, ConvertLayout, For, Gemm, Iota, KERNEL, Launch, Load, Map, ProgramId, Reduce,
    ReduceKind, SparseGemm, Store, Transfer, Valid,
};
use crate::coord::desc::row_major_indices;
use crate::gpu::{PROGRAM, kernel_of, run_grid};
use crate::memref::{get, row_major_offset, scatter, store_as};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use std::cell::Cell;

/// A tile op's meaning to the interpreter.
pub(super) trait Run: OpHandle {
    /// The op's results from its operands' values `args`.
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>>;
}

/// The interpreter hook of tile op `H`.
pub(super) fn run<H: Run>(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    H::wrap(op).run(it, args)
}

fn fail(op: impl OpHandle, m: impl Into<String>) -> InterpError {
    InterpError::at(op.op(), m.into())
}

fn index_of(shape: &[i64], idx: &[i64]) -> usize {
    row_major_offset(shape, idx) as usize
}

fn idx(t: &Tensor) -> i64 {
    t.first_int()
}

fn tile_value(ty: Type, shape: Vec<i64>, data: Data) -> Tensor {
    Tensor { ty, shape, data }
}

/// `values` stored as integers of `elem`.
fn ints_as(u: &Uniquer, elem: Type, values: impl IntoIterator<Item = i64>) -> Data {
    Data::from_i64s(Elem::of(u, elem).unwrap_or(Elem::Index), values)
}

/// The type of tile `v` and its tile type.
fn typed_tile(ctx: &Context, op: impl OpHandle, v: Value) -> IResult<(Type, &super::TileType)> {
    let ty = ctx.value_type(v);
    let t = tile_type(ctx.uniquer(), ty).ok_or_else(|| fail(op, "not a tile"))?;
    Ok((ty, t))
}

/// A tile of type `ty` holding the numbers `out`.
fn tile_of_numbers(u: &Uniquer, ty: Type, t: &super::TileType, out: Vec<f64>) -> Tensor {
    tile_value(ty, t.shape.clone(), store_as(u, t.elem, out))
}

impl Run for ProgramId {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let u = it.ctx.uniquer();
        let axis = self.axis(it.ctx).unwrap_or(0) as usize;
        let p = PROGRAM.with(Cell::get)[axis.min(2)];
        Ok(vec![Tensor::int_scalar(u, u.ty(TypeKind::Index), p)])
    }
}

impl Run for Iota {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let dim = self.dim(ctx).unwrap_or(0) as usize;
        let out = row_major_indices(&t.shape).into_iter().map(|e| e[dim]);
        let data = ints_as(ctx.uniquer(), t.elem, out);
        Ok(vec![tile_value(ty, t.shape.clone(), data)])
    }
}

impl Run for Valid {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let d = written_desc(ctx, self.desc(ctx))
            .ok_or_else(|| fail(self, "no descriptor"))?
            .map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args.iter().map(idx).collect();
        let out = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?
            .into_iter()
            .map(|(_, ok)| i64::from(ok));
        let data = ints_as(ctx.uniquer(), t.elem, out);
        Ok(vec![tile_value(ty, t.shape.clone(), data)])
    }
}

impl Run for Load {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let buffer = self.buffer(ctx);
        let d = desc_of(ctx, self.desc(ctx), buffer).map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args[1..].iter().map(idx).collect();
        let buf = it
            .value_ref(buffer)
            .ok_or_else(|| fail(self, "a buffer that was not computed"))?;
        let out = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?
            .into_iter()
            .map(|(off, ok)| {
                if ok {
                    get(&buf.data, off as usize)
                } else {
                    0.0
                }
            })
            .collect::<Vec<f64>>();
        Ok(vec![tile_of_numbers(ctx.uniquer(), ty, t, out)])
    }
}

impl Run for Store {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let u = ctx.uniquer().clone();
        let buffer = self.buffer(ctx);
        let t = tile_of(ctx, self.value(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let d = desc_of(ctx, self.desc(ctx), buffer).map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args[2..].iter().map(idx).collect();
        let places = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?;
        let buf = it
            .value_mut(buffer)
            .ok_or_else(|| fail(self, "a buffer that was not computed"))?;
        let e = Elem::of(&u, ctx.type_kind(buf.ty).element_type().unwrap_or(t.elem));
        scatter(&mut buf.data, e, places, &args[0].data).map_err(|m| fail(self, m))?;
        Ok(Vec::new())
    }
}

impl Run for Gemm {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (a, b, acc) = (&args[0], &args[1], &args[2]);
        let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
        let elem = tile_of(ctx, self.acc(ctx)).expect("verified").elem;
        let mut out = Vec::with_capacity((m * n) as usize);
        for i in 0..m {
            for j in 0..n {
                let mut s = get(&acc.data, (i * n + j) as usize);
                for t in 0..k {
                    s += get(&a.data, (i * k + t) as usize) * get(&b.data, (t * n + j) as usize);
                }
                out.push(s);
            }
        }
        Ok(vec![tile_value(
            acc.ty,
            acc.shape.clone(),
            store_as(ctx.uniquer(), elem, out),
        )])
    }
}

/// Each kept value at its position: `acc[i, j] + sum over groups g and
/// their two rows r of a[i, 4g + meta[r, j]] * values[r, j]`. For metadata
/// `graph.sparse_matmul` accepts (two increasing positions a group) this is
/// the product with `graph::sparse::expand`'s weight; a tile's padding (zero
/// values at position 0) adds nothing. A position outside 0..4 is an error.
impl Run for SparseGemm {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (a, v, meta, acc) = (&args[0], &args[1], &args[2], &args[3]);
        let (m, k, n) = (a.shape[0], a.shape[1], v.shape[1]);
        let pos = meta.to_i64s();
        if let Some(at) = pos.iter().position(|p| !(0..4).contains(p)) {
            return Err(fail(
                self,
                format!(
                    "metadata {} at [{}, {}] is not a position in a group of four",
                    pos[at],
                    at as i64 / n,
                    at as i64 % n
                ),
            ));
        }
        let elem = tile_of(ctx, self.acc(ctx)).expect("verified").elem;
        let mut out = Vec::with_capacity((m * n) as usize);
        for i in 0..m {
            for j in 0..n {
                let mut s = get(&acc.data, (i * n + j) as usize);
                for r in 0..k / 2 {
                    let at = (r * n + j) as usize;
                    let col = 4 * (r / 2) + pos[at];
                    s += get(&a.data, (i * k + col) as usize) * get(&v.data, at);
                }
                out.push(s);
            }
        }
        Ok(vec![tile_value(
            acc.ty,
            acc.shape.clone(),
            store_as(ctx.uniquer(), elem, out),
        )])
    }
}

impl Run for Map {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let u = ctx.uniquer().clone();
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let region = self.body(ctx);
        let b = ctx
            .entry_block(region)
            .ok_or_else(|| fail(self, "no body"))?;
        let arg_types: Vec<Type> = ctx
            .block_args(b)
            .iter()
            .map(|a| ctx.value_type(*a))
            .collect();
        let n = t.shape.iter().product::<i64>() as usize;
        let mut out = Vec::with_capacity(n);
        for e in 0..n {
            let scalars = args
                .iter()
                .zip(&arg_types)
                .map(|(a, ty)| {
                    let v = get(&a.data, e);
                    Tensor::new(&u, *ty, store_as(&u, *ty, vec![v]))
                })
                .collect();
            let r = it.run_region(region, scalars)?;
            out.push(r.first().map_or(0.0, |x| get(&x.data, 0)));
        }
        Ok(vec![tile_of_numbers(&u, ty, t, out)])
    }
}

impl Run for Reduce {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let axis = self.axis(ctx).unwrap_or(0) as usize;
        let kind = self.kind(ctx).unwrap_or(ReduceKind::Sum);
        let x = &args[0];
        let mut out = Vec::new();
        for e in row_major_indices(&t.shape) {
            let mut acc: Option<f64> = None;
            for j in 0..x.shape[axis] {
                let mut at = e.clone();
                at.insert(axis, j);
                let v = get(&x.data, index_of(&x.shape, &at));
                acc = Some(match (acc, kind) {
                    (None, _) => v,
                    (Some(a), ReduceKind::Max) => a.max(v),
                    (Some(a), ReduceKind::Min) => a.min(v),
                    (Some(a), _) => a + v,
                });
            }
            out.push(acc.unwrap_or(0.0));
        }
        Ok(vec![tile_of_numbers(ctx.uniquer(), ty, t, out)])
    }
}

impl Run for Broadcast {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (ty, t) = typed_tile(ctx, self, self.result(ctx))?;
        let dims: Vec<usize> = self
            .dims(ctx)
            .unwrap_or_default()
            .iter()
            .map(|d| *d as usize)
            .collect();
        let x = &args[0];
        let out = row_major_indices(&t.shape)
            .iter()
            .map(|e| {
                let at: Vec<i64> = dims
                    .iter()
                    .zip(&x.shape)
                    .map(|(d, l)| if *l == 1 { 0 } else { e[*d] })
                    .collect();
                get(&x.data, index_of(&x.shape, &at))
            })
            .collect::<Vec<f64>>();
        Ok(vec![tile_of_numbers(ctx.uniquer(), ty, t, out)])
    }
}

impl Run for Transfer {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ty = it.ctx.value_type(self.result(it.ctx));
        Ok(vec![Tensor {
            ty,
            ..args[0].clone()
        }])
    }
}

impl Run for ConvertLayout {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ty = it.ctx.value_type(self.result(it.ctx));
        Ok(vec![Tensor {
            ty,
            ..args[0].clone()
        }])
    }
}

impl Run for For {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let u = it.ctx.uniquer().clone();
        let (lb, ub, step) = (idx(&args[0]), idx(&args[1]), idx(&args[2]));
        if step < 1 {
            return Err(fail(self, format!("step {step} must be positive")));
        }
        let region = self.body(it.ctx);
        let mut carried: Vec<Tensor> = args[3..].to_vec();
        let mut iv = lb;
        while iv < ub {
            let mut a = vec![Tensor::int_scalar(&u, u.ty(TypeKind::Index), iv)];
            a.extend(carried);
            carried = it.run_region(region, a)?;
            iv += step;
        }
        Ok(carried)
    }
}

impl Run for Launch {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let k = kernel_of(it.ctx, self.op(), KERNEL.name)
            .ok_or_else(|| fail(self, "names no tile.kernel"))?;
        run_grid(it, self.op(), k, args)
    }
}
