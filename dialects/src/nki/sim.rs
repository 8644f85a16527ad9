//! The cost half of the NeuronCore simulator: a schedule of a function's
//! nki launches on one NeuronCore, with every instruction on its engine.
//! (The functional half is the interpreter: `nki.launch` runs each
//! program's instructions with the dialect's semantics.)
//!
//! Every instruction a launch issues is unrolled (each program of the
//! grid, each loop iteration) in program order. Each engine runs its
//! instructions in order; an instruction starts when its engine is free
//! and the instructions that made its tiles (loop-carried ones included)
//! are done; the DMA queues share the core's HBM bandwidth, each transfer
//! taking its bytes over the bandwidth plus a fixed latency that overlaps
//! other transfers. At most [`Costs::programs_in_flight`] programs overlap
//! (a program's instructions wait for the one that many before it to
//! finish: SBUF holds two programs' tiles); launches follow each other.
//! The result is a modelled time, nothing measured: no Neuron device ran
//! any of it.

use super::{Engine, NkiOp, nki_tile};
use crate::coord::Desc;
use crate::coord::desc::row_major_indices;
use crate::gpu::{elem_bytes, kernel_of};
use aic::float::FloatKind;
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The model's constants for one NeuronCore generation.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    /// The generation.
    pub arch: super::Arch,
    /// Clock of the Vector, Scalar and GpSimd engines (Hz).
    pub clock_hz: f64,
    /// Cycles every Vector/Scalar/GpSimd instruction takes besides its
    /// elements (its initiation interval for small tiles).
    pub fixed_cycles: f64,
    /// GpSimd cycles per element per partition (Vector and Scalar: 1).
    pub gpsimd_cycles_per_element: f64,
    /// The Tensor engine's time per moving column of a bf16/fp16 matmul
    /// (the core's share of the chip's peak over a full 128x128 array), s.
    pub column_s: f64,
    /// Extra Tensor engine cycles per matmul or transpose.
    pub matmul_fixed_cycles: f64,
    /// How much slower an fp32 matmul streams than bf16.
    pub fp32_matmul_factor: f64,
    /// The core's share of the chip's HBM bandwidth (bytes/s).
    pub hbm_bytes_per_s: f64,
    /// Latency of one DMA, overlapping other transfers (s).
    pub dma_latency_s: f64,
    /// The fewest bytes a contiguous run of a DMA costs.
    pub dma_min_run_bytes: f64,
    /// Programs of a grid whose instructions may overlap.
    pub programs_in_flight: usize,
}

impl Costs {
    /// The constants of `arch`. The Tensor engine's and HBM's come from
    /// AWS's published chip figures (trn1: 190 bf16 TFLOP/s and 820 GB/s
    /// over 2 NeuronCores; trn2: 667 TFLOP/s and 2.9 TB/s over 8); the
    /// others are assumptions of this model, not calibrated on hardware: a
    /// 1.4 GHz engine clock, one element per partition per cycle on Vector
    /// and Scalar and two on GpSimd, 64 cycles of fixed cost per
    /// instruction (NKI's documented minimum initiation interval is of
    /// that order), 16 cycles per matmul, fp32 matmuls at a quarter rate,
    /// 2 us of DMA latency and runs of at least 64 bytes per DMA.
    pub fn of(arch: super::Arch) -> Costs {
        let s = arch.spec();
        let core_flops = s.chip_bf16_flops / s.cores_per_chip as f64;
        Costs {
            arch,
            clock_hz: 1.4e9,
            fixed_cycles: 64.0,
            gpsimd_cycles_per_element: 2.0,
            column_s: 2.0 * 128.0 * 128.0 / core_flops,
            matmul_fixed_cycles: 16.0,
            fp32_matmul_factor: 4.0,
            hbm_bytes_per_s: s.chip_hbm_bytes_per_s / s.cores_per_chip as f64,
            dma_latency_s: 2e-6,
            dma_min_run_bytes: 64.0,
            programs_in_flight: 2,
        }
    }
}

/// One engine's share of a schedule.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineUse {
    /// Seconds the engine was busy.
    pub busy_s: f64,
    /// Instructions it ran.
    pub instructions: u64,
}

/// A modelled run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Modelled seconds from the first instruction to the last.
    pub time_s: f64,
    /// Per engine (Tensor, Vector, Scalar, GpSimd, DMA), in [`Engine::ALL`] order.
    pub engines: [EngineUse; 5],
    /// Matmul FLOPs (2 x K x M x N each).
    pub flops: f64,
    /// Bytes moved between HBM and SBUF.
    pub hbm_bytes: f64,
    /// Launches and programs run.
    pub launches: usize,
    /// Each launch's kernel and modelled seconds, in order (what aic-tune
    /// compares candidates by).
    pub launch_times: Vec<(String, f64)>,
    /// Programs over all launches.
    pub programs: u64,
}

/// What one nki op costs, each time it runs.
#[derive(Clone, Copy)]
struct Cost {
    engine: Engine,
    seconds: f64,
    flops: f64,
    bytes: f64,
}

struct Sched<'c> {
    ctx: &'c Context,
    costs: Costs,
    cache: HashMap<Op, Cost>,
    /// When each engine is next free (the DMA entry: the bandwidth).
    free: [f64; 5],
    /// Finish times of the instructions issued.
    finish: Vec<f64>,
    /// No instruction starts before this (launch order, programs in flight).
    gate: f64,
    /// The latest finish so far in the current program.
    program_end: f64,
    report: Report,
}

/// The modelled schedule of every `nki.launch` in function `f`, in order.
pub fn model(ctx: &Context, f: Op, costs: Costs) -> Result<Report, String> {
    let mut s = Sched {
        ctx,
        costs,
        cache: HashMap::new(),
        free: [0.0; 5],
        finish: Vec::new(),
        gate: 0.0,
        program_end: 0.0,
        report: Report::default(),
    };
    let mut launches = Vec::new();
    ctx.walk(f, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if super::Launch::is(ctx, o) {
            launches.push(o);
        }
    });
    for l in launches {
        let k = kernel_of(ctx, l, super::KERNEL.name).ok_or("a launch of no nki.kernel")?;
        s.launch(k)?;
        s.report.launches += 1;
    }
    Ok(s.report)
}

impl Sched<'_> {
    fn launch(&mut self, k: Op) -> Result<(), String> {
        let ctx = self.ctx;
        let grid = super::Kernel::wrap(k).grid(ctx).unwrap_or_default();
        let programs: i64 = grid.iter().product();
        let body = ctx
            .entry_block(super::Kernel::wrap(k).body(ctx))
            .ok_or("a kernel without a body")?;
        let start = self.gate;
        let mut ends: Vec<f64> = Vec::new();
        for p in 0..programs.max(0) as usize {
            let n = self.costs.programs_in_flight.max(1);
            self.gate = if p >= n {
                ends[p - n].max(start)
            } else {
                start
            };
            self.program_end = self.gate;
            let mut env = HashMap::new();
            self.block(body, &mut env, &[])?;
            ends.push(self.program_end);
            self.report.programs += 1;
        }
        let end = ends.iter().copied().fold(start, f64::max);
        self.gate = end;
        self.report.time_s = self.report.time_s.max(end);
        let name = aic::symbol::symbol_name(ctx, k)
            .unwrap_or_default()
            .to_string();
        self.report.launch_times.push((name, end - start));
        Ok(())
    }

    /// Issues the instructions of `b`, whose arguments were made by `args`
    /// (instruction indices, none for scalars); returns what its
    /// terminator yields.
    fn block(
        &mut self,
        b: Block,
        env: &mut HashMap<Value, usize>,
        args: &[Option<usize>],
    ) -> Result<Vec<Option<usize>>, String> {
        let ctx = self.ctx;
        for (a, i) in ctx.block_args(b).iter().zip(args) {
            match i {
                Some(i) => env.insert(*a, *i),
                None => env.remove(a),
            };
        }
        for o in ctx.block_ops(b).collect::<Vec<_>>() {
            let Some(kind) = NkiOp::of(ctx, o) else {
                continue;
            };
            match kind {
                NkiOp::Yield(y) => {
                    return Ok(y.values(ctx).iter().map(|v| env.get(v).copied()).collect());
                }
                NkiOp::AffineRange(r) => {
                    let n = trips(r.lower(ctx), r.upper(ctx), r.step(ctx));
                    let body = ctx
                        .entry_block(r.body(ctx))
                        .ok_or("a loop without a body")?;
                    for _ in 0..n {
                        self.block(body, env, &[None])?;
                    }
                }
                NkiOp::SequentialRange(r) => {
                    let n = trips(r.lower(ctx), r.upper(ctx), r.step(ctx));
                    let body = ctx
                        .entry_block(r.body(ctx))
                        .ok_or("a loop without a body")?;
                    let mut carried: Vec<Option<usize>> =
                        r.inits(ctx).iter().map(|v| env.get(v).copied()).collect();
                    for _ in 0..n {
                        let mut a = vec![None];
                        a.extend(carried.iter().copied());
                        carried = self.block(body, env, &a)?;
                    }
                    for (res, c) in ctx.results(o).zip(carried) {
                        if let Some(c) = c {
                            env.insert(res, c);
                        }
                    }
                }
                NkiOp::ProgramId(_) | NkiOp::Return(_) | NkiOp::Kernel(_) | NkiOp::Launch(_) => {}
                // A view of the same bits: ready when its operand is.
                NkiOp::Bitcast(c) => {
                    if let Some(i) = env.get(&c.input(ctx)).copied() {
                        env.insert(c.result(ctx), i);
                    }
                }
                _ => {
                    let deps: Vec<usize> = ctx
                        .operands(o)
                        .iter()
                        .filter_map(|v| env.get(v).copied())
                        .collect();
                    let id = self.issue(o, &deps)?;
                    if let Some(r) = ctx.results(o).next() {
                        env.insert(r, id);
                    }
                }
            }
        }
        Ok(Vec::new())
    }

    fn issue(&mut self, o: Op, deps: &[usize]) -> Result<usize, String> {
        let c = match self.cache.get(&o) {
            Some(c) => *c,
            None => {
                let c = self.cost(o)?;
                self.cache.insert(o, c);
                c
            }
        };
        let e = c.engine as usize;
        let ready = deps
            .iter()
            .map(|d| self.finish[*d])
            .fold(self.gate, f64::max);
        let start = ready.max(self.free[e]);
        let end = if c.engine == Engine::Dma {
            self.free[e] = start + c.seconds;
            start + c.seconds + self.costs.dma_latency_s
        } else {
            self.free[e] = start + c.seconds;
            start + c.seconds
        };
        let u = &mut self.report.engines[e];
        u.busy_s += c.seconds;
        u.instructions += 1;
        self.report.flops += c.flops;
        self.report.hbm_bytes += c.bytes;
        self.program_end = self.program_end.max(end);
        self.finish.push(end);
        Ok(self.finish.len() - 1)
    }

    /// What instruction `o` costs.
    fn cost(&self, o: Op) -> Result<Cost, String> {
        let ctx = self.ctx;
        let k = &self.costs;
        let engine = super::engine_of(ctx, o).ok_or("not an instruction")?;
        let tile = |v: Value| nki_tile(ctx.uniquer(), ctx.value_type(v));
        // The tile an instruction works through: its result, or its first
        // operand's where it has none.
        let shaped = ctx
            .results(o)
            .next()
            .and_then(tile)
            .or_else(|| ctx.operands(o).first().and_then(|v| tile(*v)))
            .ok_or("an instruction without tiles")?;
        let cycles = |per: f64, free: i64| (k.fixed_cycles + per * free as f64) / k.clock_hz;
        let mut c = Cost {
            engine,
            seconds: 0.0,
            flops: 0.0,
            bytes: 0.0,
        };
        match NkiOp::of(ctx, o).ok_or("not an nki op")? {
            NkiOp::Matmul(m) => {
                let s = tile(m.stationary(ctx)).ok_or("no tile")?;
                let mv = tile(m.moving(ctx)).ok_or("no tile")?;
                let slow = if matches!(ctx.type_kind(s.elem), TypeKind::Float(FloatKind::F32)) {
                    k.fp32_matmul_factor
                } else {
                    1.0
                };
                c.seconds =
                    mv.free() as f64 * k.column_s * slow + k.matmul_fixed_cycles / k.clock_hz;
                c.flops = 2.0 * (s.partitions() * s.free() * mv.free()) as f64;
            }
            NkiOp::Transpose(t) => {
                let x = tile(t.input(ctx)).ok_or("no tile")?;
                c.seconds = x.partitions() as f64 * k.column_s + k.matmul_fixed_cycles / k.clock_hz;
            }
            NkiOp::Load(_) | NkiOp::Store(_) => {
                let bytes = self.dma_bytes(o)?;
                let raw =
                    (shaped.partitions() * shaped.free() * elem_bytes(ctx, shaped.elem)) as f64;
                c.bytes = raw;
                c.seconds = bytes / k.hbm_bytes_per_s;
            }
            NkiOp::PartitionReduce(_) | NkiOp::PartitionBroadcast(_) => {
                // Across partitions: every element passes the GpSimd cores.
                let n = shaped.free().max(1) * 128;
                c.seconds = cycles(k.gpsimd_cycles_per_element / 128.0, n);
            }
            _ => {
                let x = ctx
                    .operands(o)
                    .first()
                    .and_then(|v| tile(*v))
                    .unwrap_or(shaped);
                let free = x.free().max(shaped.free());
                let per = if engine == Engine::GpSimd {
                    k.gpsimd_cycles_per_element
                } else {
                    1.0
                };
                c.seconds = cycles(per, free);
            }
        }
        Ok(c)
    }

    /// The bytes a DMA costs: each contiguous run of its elements in HBM
    /// (at the origin, every index 0) at least [`Costs::dma_min_run_bytes`].
    fn dma_bytes(&self, o: Op) -> Result<f64, String> {
        let ctx = self.ctx;
        let (tile_v, buffer, desc, origin) = match NkiOp::of(ctx, o) {
            Some(NkiOp::Load(l)) => (
                l.result(ctx),
                l.buffer(ctx),
                l.desc(ctx),
                l.origin(ctx).len(),
            ),
            Some(NkiOp::Store(s)) => (
                s.value(ctx),
                s.buffer(ctx),
                s.desc(ctx),
                s.origin(ctx).len(),
            ),
            _ => return Err("not a DMA".into()),
        };
        let t = nki_tile(ctx.uniquer(), ctx.value_type(tile_v)).ok_or("no tile")?;
        let d: Desc = super::ops::desc_of(ctx, desc, buffer)?;
        let eb = elem_bytes(ctx, t.elem) as f64;
        let lead = origin - t.shape.len();
        let mut bytes = 0.0;
        let mut prev: Option<i64> = None;
        let mut run = 0.0;
        let loc = d.locator()?;
        let mut at = vec![0; origin];
        for e in row_major_indices(&t.shape) {
            for (a, i) in at[lead..].iter_mut().zip(&e) {
                *a = *i;
            }
            let (off, ok) = loc.locate(&at)?;
            let next = ok && prev.is_some_and(|p| p + 1 == off);
            if !next && run > 0.0 {
                bytes += f64::max(run * eb, self.costs.dma_min_run_bytes);
                run = 0.0;
            }
            if ok {
                run += 1.0;
                prev = Some(off);
            } else {
                prev = None;
            }
        }
        if run > 0.0 {
            bytes += f64::max(run * eb, self.costs.dma_min_run_bytes);
        }
        Ok(bytes)
    }
}

fn trips(lower: Option<i64>, upper: Option<i64>, step: Option<i64>) -> i64 {
    let (l, u, s) = (
        lower.unwrap_or(0),
        upper.unwrap_or(0),
        step.unwrap_or(1).max(1),
    );
    ((u - l) + s - 1).max(0) / s
}

impl Report {
    /// The report as text, each figure labelled modelled.
    pub fn text(&self, costs: &Costs) -> String {
        let s = costs.arch.spec();
        let mut out = String::new();
        let core_peak = s.chip_bf16_flops / s.cores_per_chip as f64;
        let _ = writeln!(
            out,
            "nki-sim ({}): MODELLED time on one NeuronCore, not measured (nothing ran on Trainium)",
            s.name
        );
        let _ = writeln!(
            out,
            "  modelled time: {:.3} ms ({} launches, {} programs)",
            self.time_s * 1e3,
            self.launches,
            self.programs
        );
        for (e, u) in Engine::ALL.iter().zip(&self.engines) {
            let util = if self.time_s > 0.0 {
                u.busy_s / self.time_s
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "  {:<7} busy {:>10.3} us  utilisation {:>5.1}%  ({} instructions)",
                e.keyword(),
                u.busy_s * 1e6,
                util * 100.0,
                u.instructions
            );
        }
        if self.time_s > 0.0 {
            let tf = self.flops / self.time_s;
            let _ = writeln!(
                out,
                "  matmul: {:.3e} FLOP, {:.1} TFLOP/s = {:.1}% of one core's bf16 peak ({:.1} TFLOP/s; the chip's {:.0} over {} cores)",
                self.flops,
                tf / 1e12,
                100.0 * tf / core_peak,
                core_peak / 1e12,
                s.chip_bf16_flops / 1e12,
                s.cores_per_chip
            );
            let _ = writeln!(
                out,
                "  HBM: {:.3e} bytes, {:.1} GB/s of the core's {:.1} GB/s",
                self.hbm_bytes,
                self.hbm_bytes / self.time_s / 1e9,
                costs.hbm_bytes_per_s / 1e9
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const TEXT: &str = "nki.kernel @k grid = [3] arch = trn1 {
^bb0(%x: memref<384x512xbf16>, %w: memref<128x128xbf16>, %y: memref<384x512xf32>):
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %p = nki.program_id 0 : index
  %r = arith.muli %p, %c128 : index
  %z = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %s = nki.load %w[%c0, %c0] : memref<128x128xbf16> -> !nki.tile<128x128xbf16, sbuf>
  %acc = nki.sequential_range 0 to 4 step 1 iter_args(%z : !nki.tile<128x512xf32, psum>) -> !nki.tile<128x512xf32, psum> {
  ^bb0(%i: index, %a: !nki.tile<128x512xf32, psum>):
    %m = nki.load %x[%r, %c0] : memref<384x512xbf16> -> !nki.tile<128x512xbf16, sbuf>
    %o = nki.matmul %s, %m, %a : !nki.tile<128x128xbf16, sbuf>, !nki.tile<128x512xbf16, sbuf>, !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, psum>
    nki.yield %o : !nki.tile<128x512xf32, psum>
  }
  %e = nki.activation exp %acc scale = 1.0 : f32 bias = 0.0 : f32 : !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, sbuf>
  nki.store %e, %y[%r, %c0] : !nki.tile<128x512xf32, sbuf>, memref<384x512xf32>
  nki.return
}
func.func @main(%x: tensor<384x512xbf16>, %w: tensor<128x128xbf16>) -> tensor<384x512xf32> {
  %y = nki.launch @k(%x, %w) : (tensor<384x512xbf16>, tensor<128x128xbf16>) -> tensor<384x512xf32>
  return %y : tensor<384x512xf32>
}";

    fn modelled(arch: super::super::Arch) -> Report {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", TEXT.to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
        aic::verifier::verify(&ctx, m).expect("verifies");
        let mut f = None;
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if crate::func::Func::is(&ctx, o) {
                f = Some(o);
            }
        });
        model(&ctx, f.expect("a function"), Costs::of(arch)).expect("models")
    }

    #[test]
    fn every_instruction_of_every_program_and_iteration_is_scheduled() {
        let r = modelled(super::super::Arch::Trn1);
        let count = |e: Engine| r.engines[e as usize].instructions;
        // Per program: a weight load, 4 loads and 4 matmuls, a memset, an
        // activation, a store; 3 programs.
        assert_eq!(count(Engine::Tensor), 12);
        assert_eq!(count(Engine::Dma), 3 * 6);
        assert_eq!(count(Engine::Scalar), 3);
        assert_eq!(count(Engine::Vector), 3);
        assert_eq!(r.flops, 12.0 * 2.0 * 128.0 * 128.0 * 512.0);
        assert_eq!(r.programs, 3);
        // The engines overlap: the time is at least the busiest engine's
        // and less than all engines' work one after another plus every
        // DMA's latency.
        let busiest = r.engines.iter().map(|u| u.busy_s).fold(0.0, f64::max);
        let serial: f64 = r.engines.iter().map(|u| u.busy_s).sum::<f64>() + 18.0 * 2e-6;
        assert!(r.time_s >= busiest && r.time_s < serial, "{r:?}");
    }

    #[test]
    fn the_archs_differ_where_their_numbers_do() {
        let (a, b) = (
            modelled(super::super::Arch::Trn1),
            modelled(super::super::Arch::Trn2),
        );
        let t = Engine::Tensor as usize;
        // trn2's core has less of its chip's peak (667/8 < 190/2).
        assert!(b.engines[t].busy_s > a.engines[t].busy_s);
        assert_eq!(a.hbm_bytes, b.hbm_bytes);
        assert!(
            a.text(&Costs::of(super::super::Arch::Trn1))
                .contains("MODELLED")
        );
    }
}
