//! The meaning of the nki ops, one [`Run`] impl per op. Tiles are tensors
//! in row-major order (partition first). Every instruction computes in f64
//! from its operands' values and rounds once to its result's element type
//! (round to nearest even, how the engines write bf16 and fp16); the two
//! accumulating instructions round as the hardware accumulates: `matmul`
//! adds each product (its sum over the partitions) into the fp32 PSUM
//! accumulator, `tensor_reduce` and `partition_reduce` accumulate in fp32
//! element by element.

use super::ops::{desc_of, tile_of};
use super::types::nki_tile;
use super::{
    Activation, AffineRange, AffineSelect, Alu, Bitcast, Copy, FreeBroadcast, Iota, KERNEL, Launch,
    Load, Mask, Matmul, Memset, PartitionBroadcast, PartitionReduce, ProgramId, ReduceOp, Select,
    SequentialRange, Store, TensorReduce, TensorScalar, TensorTensor, Transpose,
};
use crate::coord::desc::row_major_indices;
use crate::gpu::{PROGRAM, kernel_of, run_grid};
use crate::memref::{get, scatter, store_as};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Ints, Tensor};
use aic::ir::Value;
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use std::cell::Cell;

/// An nki op's meaning to the interpreter.
pub(super) trait Run: OpHandle {
    /// The op's results from its operands' values `args`.
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>>;
}

/// The interpreter hook of nki op `H`. Booleans (`i1` tiles and buffers)
/// are bytes of 0 or 1 to the instructions, as NKI's `bool_` is, where the
/// interpreter's signless `i1` reads true as -1: such tiles are handed
/// over as 0/1 (and `load` reads an `i1` buffer so).
pub(super) fn run<H: Run>(
    it: &mut Interp<'_>,
    op: aic::ir::Op,
    args: &[Tensor],
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let is_bool = |t: &Tensor| {
        let elem = nki_tile(ctx.uniquer(), t.ty).map(|n| n.elem);
        elem.is_some_and(|e| matches!(ctx.type_kind(e), TypeKind::Integer { width: 1, .. }))
    };
    if !args.iter().any(is_bool) {
        return H::wrap(op).run(it, args);
    }
    let args: Vec<Tensor> = args
        .iter()
        .map(|t| {
            if !is_bool(t) {
                return t.clone();
            }
            let n = t.shape.iter().product::<i64>() as usize;
            let bytes = (0..n).map(|i| u8::from(get(&t.data, i) != 0.0)).collect();
            Tensor {
                ty: t.ty,
                shape: t.shape.clone(),
                data: Data::Int(Ints::U8(bytes)),
            }
        })
        .collect();
    H::wrap(op).run(it, &args)
}

fn fail(op: impl OpHandle, m: impl Into<String>) -> InterpError {
    InterpError::at(op.op(), m.into())
}

/// `x` rounded to fp32.
fn f32r(x: f64) -> f64 {
    x as f32 as f64
}

/// A tile of the type of `v` holding `out`, rounded to its elements.
fn tile(it: &Interp<'_>, op: impl OpHandle, v: Value, out: Vec<f64>) -> IResult<Tensor> {
    let ctx = it.ctx;
    let t = tile_of(ctx, v).ok_or_else(|| fail(op, "not a tile"))?;
    Ok(Tensor {
        ty: ctx.value_type(v),
        shape: t.shape.clone(),
        data: store_as(ctx.uniquer(), t.elem, out),
    })
}

fn values(t: &Tensor) -> Vec<f64> {
    (0..t.shape.iter().product::<i64>() as usize)
        .map(|i| get(&t.data, i))
        .collect()
}

/// Elements per partition of `t`.
fn free(t: &Tensor) -> usize {
    t.shape[1..].iter().product::<i64>() as usize
}

impl Run for ProgramId {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let u = it.ctx.uniquer();
        let axis = self.axis(it.ctx).unwrap_or(0) as usize;
        let p = PROGRAM.with(Cell::get)[axis.min(2)];
        Ok(vec![Tensor::int_scalar(u, u.ty(TypeKind::Index), p)])
    }
}

/// Runs `region` for each induction value of `lower..upper` by `step`,
/// threading `carried` through.
fn run_loop(
    it: &mut Interp<'_>,
    region: aic::ir::Region,
    (lower, upper, step): (i64, i64, i64),
    mut carried: Vec<Tensor>,
) -> IResult<Vec<Tensor>> {
    let u = it.ctx.uniquer().clone();
    let mut iv = lower;
    while iv < upper {
        let mut a = vec![Tensor::int_scalar(&u, u.ty(TypeKind::Index), iv)];
        a.extend(carried);
        carried = it.run_region(region, a)?;
        iv += step.max(1);
    }
    Ok(carried)
}

impl Run for AffineRange {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let b = (
            self.lower(ctx).unwrap_or(0),
            self.upper(ctx).unwrap_or(0),
            self.step(ctx).unwrap_or(1),
        );
        run_loop(it, self.body(ctx), b, Vec::new())?;
        Ok(Vec::new())
    }
}

impl Run for SequentialRange {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let b = (
            self.lower(ctx).unwrap_or(0),
            self.upper(ctx).unwrap_or(0),
            self.step(ctx).unwrap_or(1),
        );
        run_loop(it, self.body(ctx), b, args.to_vec())
    }
}

impl Run for Load {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let t = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let buffer = self.buffer(ctx);
        let d = desc_of(ctx, self.desc(ctx), buffer).map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args[1..].iter().map(Tensor::first_int).collect();
        let places = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?;
        let buf = it
            .value_ref(buffer)
            .ok_or_else(|| fail(self, "a tensor that was not computed"))?;
        let out = places
            .into_iter()
            .map(|(off, ok)| {
                if ok {
                    get(&buf.data, off as usize)
                } else {
                    0.0
                }
            })
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Store {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let u = ctx.uniquer().clone();
        let buffer = self.buffer(ctx);
        let t = tile_of(ctx, self.value(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let d = desc_of(ctx, self.desc(ctx), buffer).map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args[2..].iter().map(Tensor::first_int).collect();
        let places = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?;
        let buf = it
            .value_mut(buffer)
            .ok_or_else(|| fail(self, "a tensor that was not computed"))?;
        let e = Elem::of(&u, ctx.type_kind(buf.ty).element_type().unwrap_or(t.elem));
        scatter(&mut buf.data, e, places, &args[0].data).map_err(|m| fail(self, m))?;
        Ok(Vec::new())
    }
}

impl Run for Matmul {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let (s, m, acc) = (&args[0], &args[1], &args[2]);
        let (k, mm, n) = (s.shape[0], s.shape[1], m.shape[1]);
        let mut out = Vec::with_capacity((mm * n) as usize);
        for i in 0..mm {
            for j in 0..n {
                let dot: f64 = (0..k)
                    .map(|p| {
                        get(&s.data, (p * mm + i) as usize) * get(&m.data, (p * n + j) as usize)
                    })
                    .sum();
                out.push(f32r(get(&acc.data, (i * n + j) as usize) + f32r(dot)));
            }
        }
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for Transpose {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let x = &args[0];
        let (p, f) = (x.shape[0], x.shape[1]);
        let out = (0..f)
            .flat_map(|j| (0..p).map(move |i| (i, j)))
            .map(|(i, j)| get(&x.data, (i * f + j) as usize))
            .collect();
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for Activation {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let f = self.func(ctx).ok_or_else(|| fail(self, "no function"))?;
        let scale = self.scale(ctx).map_or(1.0, |s| s.0);
        let bias = self.bias(ctx).map_or(0.0, |b| b.0);
        let out = values(&args[0])
            .into_iter()
            .map(|x| f.apply(x * scale + bias))
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

/// `a op b` elementwise, `b` broadcast along the free axis where it holds
/// one element per partition.
fn binary(op: Alu, a: &Tensor, b: &Tensor) -> Vec<f64> {
    let (fa, fb) = (free(a), free(b));
    (0..a.shape.iter().product::<i64>() as usize)
        .map(|e| {
            let y = if fb == fa { e } else { e / fa };
            op.apply(get(&a.data, e), get(&b.data, y))
        })
        .collect()
}

impl Run for TensorTensor {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let op = self.kind(it.ctx).ok_or_else(|| fail(self, "no operator"))?;
        let out = binary(op, &args[0], &args[1]);
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for TensorScalar {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let op = self.kind(ctx).ok_or_else(|| fail(self, "no operator"))?;
        let dynamic = args.get(1).map_or(0.0, |t| t.first_int() as f64);
        let s = self.scalar(ctx).map_or(0.0, |s| s.0) + dynamic;
        let reverse = self.reverse(ctx).is_some_and(|f| f.0);
        let out = values(&args[0])
            .into_iter()
            .map(|x| {
                if reverse {
                    op.apply(s, x)
                } else {
                    op.apply(x, s)
                }
            })
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

/// `xs` combined by `op` in order, rounding to fp32 after each step.
fn fold32(op: ReduceOp, xs: impl Iterator<Item = f64>) -> f64 {
    xs.reduce(|a, b| f32r(op.alu().apply(a, b))).unwrap_or(0.0)
}

impl Run for TensorReduce {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let op = self.kind(it.ctx).ok_or_else(|| fail(self, "no operator"))?;
        let x = &args[0];
        let f = free(x);
        let out = (0..x.shape[0] as usize)
            .map(|p| fold32(op, (0..f).map(|j| get(&x.data, p * f + j))))
            .collect();
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for PartitionReduce {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let op = self.kind(it.ctx).ok_or_else(|| fail(self, "no operator"))?;
        let x = &args[0];
        let f = free(x);
        let out = (0..f)
            .map(|j| {
                fold32(
                    op,
                    (0..x.shape[0] as usize).map(|p| get(&x.data, p * f + j)),
                )
            })
            .collect();
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for PartitionBroadcast {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let r = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let row = values(&args[0]);
        let out = (0..r.partitions())
            .flat_map(|_| row.iter().copied())
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for FreeBroadcast {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let r = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let f = r.free() as usize;
        let col = values(&args[0]);
        let out = col
            .iter()
            .flat_map(|x| std::iter::repeat_n(*x, f))
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Iota {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let r = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let dim = self.dim(ctx).unwrap_or(0) as usize;
        let out = row_major_indices(&r.shape)
            .into_iter()
            .map(|e| e[dim] as f64)
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Select {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let (p, a, b) = (values(&args[0]), values(&args[1]), values(&args[2]));
        let out = p
            .iter()
            .zip(a.iter().zip(&b))
            .map(|(c, (x, y))| if *c != 0.0 { *x } else { *y })
            .collect();
        Ok(vec![tile(it, self, self.result(it.ctx), out)?])
    }
}

impl Run for AffineSelect {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let c = self.coeffs(ctx).unwrap_or_default();
        let fill = self.fill(ctx).map_or(0.0, |f| f.0);
        let x = &args[0];
        let f = free(x);
        let out = values(x)
            .into_iter()
            .enumerate()
            .map(|(e, v)| {
                let (p, j) = ((e / f) as i64, (e % f) as i64);
                if c[0] * p + c[1] * j + c[2] >= 0 {
                    v
                } else {
                    fill
                }
            })
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Mask {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let t = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let d = desc_of(ctx, self.desc(ctx), self.result(ctx)).map_err(|e| fail(self, e))?;
        let origin: Vec<i64> = args.iter().map(Tensor::first_int).collect();
        let out = d
            .locate_tile(&origin, &t.shape)
            .map_err(|e| fail(self, e))?
            .into_iter()
            .map(|(_, ok)| f64::from(u8::from(ok)))
            .collect();
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Copy {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        Ok(vec![tile(it, self, self.result(it.ctx), values(&args[0]))?])
    }
}

impl Run for Bitcast {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let (x, r) = (
            tile_of(ctx, self.input(ctx)).ok_or_else(|| fail(self, "not a tile"))?,
            tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?,
        );
        let (from, to) = (ctx.type_kind(x.elem).clone(), ctx.type_kind(r.elem).clone());
        let out = values(&args[0])
            .into_iter()
            .map(|v| super::reinterpret(&from, &to, v))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| fail(self, "a bitcast between types of different widths"))?;
        Ok(vec![tile(it, self, self.result(ctx), out)?])
    }
}

impl Run for Memset {
    fn run(self, it: &mut Interp<'_>, _: &[Tensor]) -> IResult<Vec<Tensor>> {
        let ctx = it.ctx;
        let r = tile_of(ctx, self.result(ctx)).ok_or_else(|| fail(self, "not a tile"))?;
        let v = self.value(ctx).map_or(0.0, |v| v.0);
        let n = r.shape.iter().product::<i64>() as usize;
        Ok(vec![tile(it, self, self.result(ctx), vec![v; n])?])
    }
}

impl Run for Launch {
    fn run(self, it: &mut Interp<'_>, args: &[Tensor]) -> IResult<Vec<Tensor>> {
        let k = kernel_of(it.ctx, self.op(), KERNEL.name)
            .ok_or_else(|| fail(self, "names no nki.kernel"))?;
        run_grid(it, self.op(), k, args)
    }
}
