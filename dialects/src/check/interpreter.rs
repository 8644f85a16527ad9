//! The `interpreter` dialect of StableHLO's interpreter tests, and the check
//! op that reads what it recorded:
//!
//! - `interpreter.run_parallel` runs one function per process, `programs =
//!   [[@replica0_partition0, ...], [@replica1_partition0, ...], ...]`, each on
//!   a thread of its own with its [`Process`] (which `replica_id`,
//!   `partition_id` and the collective ops read); the operands go to the
//!   programs in order, as many as each takes, and the results are theirs in
//!   the same order. Generic syntax only, as in StableHLO.
//! - `interpreter.probe %x, probe_id = "id" : t` records `%x` under its id
//!   (once per run of the op) and returns it;
//!   `check.expect_serialized_eq %x, probe_id = "id", iter = n : t` checks that
//!   the `n`-th value recorded under the id equals `%x`. StableHLO's interpreter
//!   writes probes to files; this one keeps them in the run
//!   ([`Interp::extensions`]), which the check reads back.
//! - `interpreter.print %x : t` prints the value to standard output (one write
//!   per value, so that parallel processes do not interleave).

use super::{Compare, Form, compare};
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::I64_ATTR;
use aic::dialect::{Dialect, OpSpec, Traits, ac, tc};
use aic::interp::{Grid, IResult, Interp, InterpError, Process, Queue, Tensor, attr_of_tensor};
use aic::ir::{Context, Op};
use aic::verifier::op_error;
use std::collections::HashMap;
use std::sync::Arc;

/// The stack each process of `run_parallel` runs on (the interpreter
/// recurses into regions and calls).
const PROCESS_STACK: usize = 64 << 20;

aic::op! {
    /// `interpreter.run_parallel`: one program per process.
    pub RunParallel = RUN_PARALLEL {
        operands: [inputs: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [programs: required(ac::ANY), infeed: optional(ac::ANY)],
        spec: OpSpec {
            summary: "Runs programs in parallel, one per replica and partition",
            verify: Some(verify_run_parallel),
            interpret: Some(run_parallel),
            ..OpSpec::new("interpreter.run_parallel")
        },
    }
}

aic::op! {
    /// `interpreter.probe %x, probe_id = "id" : t`.
    pub Probe = PROBE {
        operands: [operand: one(tc::ANY)],
        results: [result: one(tc::ANY)],
        attributes: [probe_id: required(ac::STRING) as String],
        spec: OpSpec {
            summary: "Records a value for check.expect_serialized_eq",
            traits: Traits::SAME_OPERANDS_AND_RESULT_TYPE,
            format: Some("$operand `,` `probe_id` `=` $probe_id attr-dict `:` type($result)"),
            interpret: Some(probe),
            ..OpSpec::new("interpreter.probe")
        },
    }
}

aic::op! {
    /// `interpreter.print %x : t`.
    pub Print = PRINT {
        operands: [operand: one(tc::ANY)],
        spec: OpSpec {
            summary: "Prints a value",
            format: Some("$operand attr-dict `:` type($operand)"),
            interpret: Some(print),
            ..OpSpec::new("interpreter.print")
        },
    }
}

aic::op! {
    /// `check.expect_serialized_eq %x, probe_id = "id" (, iter = n)? : t`.
    pub ExpectSerializedEq = EXPECT_SERIALIZED_EQ {
        operands: [expected: one(tc::ANY)],
        attributes: [probe_id: required(ac::STRING) as String, iter: optional(I64_ATTR) as i64],
        spec: OpSpec {
            summary: "Checks a value against what interpreter.probe recorded",
            format: Some(
                "$expected `,` `probe_id` `=` $probe_id (`,` `iter` `=` $iter^)? attr-dict `:` type($expected)",
            ),
            interpret: Some(expect_serialized_eq),
            ..OpSpec::new("check.expect_serialized_eq")
        },
    }
}

/// The `interpreter` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "interpreter",
    description: "ops of StableHLO's interpreter tests: parallel runs, probes, printing",
    ops: &[RUN_PARALLEL, PROBE, PRINT],
    materialize_constant: None,
};

// ---------------------------------------------------------------- run_parallel

/// `programs`: rows (replicas) of symbol references (partitions), all rows
/// of one length.
fn programs(ctx: &Context, a: Attr) -> Option<Vec<Vec<Attr>>> {
    let AttrKind::Array(rows) = ctx.attr_kind(a) else {
        return None;
    };
    let rows: Vec<Vec<Attr>> = rows
        .iter()
        .map(|r| match ctx.attr_kind(*r) {
            AttrKind::Array(xs)
                if xs
                    .iter()
                    .all(|x| matches!(ctx.attr_kind(*x), AttrKind::SymbolRef { .. })) =>
            {
                Some(xs.to_vec())
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    let n = rows.first()?.len();
    (n > 0 && rows.iter().all(|r| r.len() == n)).then_some(rows)
}

fn verify_run_parallel(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let a = RunParallel(op).programs(ctx);
    if a.and_then(|a| programs(ctx, a)).is_none() {
        return Err(op_error(
            ctx,
            op,
            "'programs' must be a non-empty array of equally long, non-empty arrays of symbol references",
        ));
    }
    Ok(())
}

fn run_parallel(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let rows = RunParallel(op)
        .programs(ctx)
        .and_then(|a| programs(ctx, a))
        .ok_or_else(|| InterpError::at(op, "malformed 'programs'"))?;
    let (replicas, partitions) = (rows.len(), rows[0].len());
    // Each program's function and its slice of the operands.
    let mut jobs = Vec::new();
    let mut next = 0;
    for (r, row) in rows.iter().enumerate() {
        for (p, sym) in row.iter().enumerate() {
            let f = it
                .symbols
                .lookup_nearest_symbol_from(ctx, op, *sym)
                .ok_or_else(|| InterpError::at(op, "a program names an unknown function"))?;
            let n = ctx
                .regions(f)
                .first()
                .and_then(|b| ctx.entry_block(*b))
                .map_or(0, |b| ctx.block_args(b).len());
            let Some(inputs) = args.get(next..next + n) else {
                return Err(InterpError::at(
                    op,
                    format!("too few operands for the programs ({} given)", args.len()),
                ));
            };
            next += n;
            jobs.push((r, p, f, inputs.to_vec()));
        }
    }
    if next != args.len() {
        return Err(InterpError::at(
            op,
            format!("{} operands, but the programs take {next}", args.len()),
        ));
    }
    let grid = Arc::new(Grid::default());
    // `infeed = [@f, ...]`: each function's results, in turn, are what the
    // programs' `infeed` ops read.
    if let Some(a) = RunParallel(op).infeed(ctx) {
        let AttrKind::Array(fs) = ctx.attr_kind(a) else {
            return Err(InterpError::at(
                op,
                "'infeed' must be an array of symbol references",
            ));
        };
        for sym in fs.iter() {
            let f = it
                .symbols
                .lookup_nearest_symbol_from(ctx, op, *sym)
                .ok_or_else(|| InterpError::at(op, "'infeed' names an unknown function"))?;
            let values = it.call(f, Vec::new())?;
            let ty = values
                .first()
                .map_or_else(|| ctx.value_type(ctx.result(op, 0)), |t| t.ty);
            grid.push(
                Queue::Infeed,
                Tensor {
                    ty,
                    shape: Vec::new(),
                    data: aic::interp::Data::Tuple(values),
                },
            );
        }
    }
    let (budget, max_bytes) = (it.budget, it.max_bytes);
    let outs: Vec<IResult<Vec<Tensor>>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .into_iter()
            .map(|(r, p, f, inputs)| {
                let grid = grid.clone();
                std::thread::Builder::new()
                    .stack_size(PROCESS_STACK)
                    .spawn_scoped(s, move || {
                        let mut sub = Interp::new(ctx);
                        sub.budget = budget;
                        sub.max_bytes = max_bytes;
                        sub.process = Process {
                            replica: r,
                            partition: p,
                            replicas,
                            partitions,
                            grid: Some(grid),
                        };
                        sub.call(f, inputs)
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Err(InterpError::at(op, "a process panicked"))),
                Err(e) => Err(InterpError::at(op, format!("cannot start a process: {e}"))),
            })
            .collect()
    });
    let mut results = Vec::new();
    for o in outs {
        results.extend(o?);
    }
    if results.len() != ctx.results(op).len() {
        return Err(InterpError::at(
            op,
            format!(
                "the programs return {} values, the op has {} results",
                results.len(),
                ctx.results(op).len()
            ),
        ));
    }
    Ok(results)
}

// ---------------------------------------------------------------- probes and printing

/// What `interpreter.probe` recorded in this run: per id, each value in turn.
#[derive(Default)]
struct Probes(HashMap<String, Vec<Tensor>>);

fn probe(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let id = Probe(op).probe_id(it.ctx).unwrap_or_default();
    let probes = it.extensions.get_mut::<Probes>();
    probes.0.entry(id).or_default().push(args[0].clone());
    Ok(vec![args[0].clone()])
}

fn print(it: &mut Interp<'_>, _: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let t = &args[0];
    let ty = aic::printer::type_text(ctx, t.ty);
    let value = aic::printer::attr_text(ctx, attr_of_tensor(ctx, t));
    // One `println!` (one lock of stdout) per value.
    println!("{ty} {{\n  {value}\n}}");
    Ok(Vec::new())
}

fn expect_serialized_eq(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = ExpectSerializedEq(op);
    let id = e.probe_id(ctx).unwrap_or_default();
    let iter = e.iter(ctx).unwrap_or(0);
    let recorded = it
        .extensions
        .get::<Probes>()
        .and_then(|p| p.0.get(&id))
        .and_then(|v| usize::try_from(iter).ok().and_then(|i| v.get(i)))
        .ok_or_else(|| {
            InterpError::at(
                op,
                format!("no value was probed as \"{id}\" (iteration {iter}) in this run"),
            )
        })?;
    let exact = Form {
        constant: false,
        options: &[],
        two_types: false,
        compare: Compare::Exact,
    };
    compare(ctx, op, &exact, recorded, &args[0])?;
    Ok(Vec::new())
}
