//! The executable plan of a compiled function: every tensor of the host function is a
//! buffer at an offset in one arena, and running the function is running a list of
//! steps over that arena — no interpreter at run time.
//!
//! The compiler (`aic-tools`' `plan` module) turns the host function into [`Buffer`]s
//! and [`Step`]s; [`Plan::new`] then plans the arena by liveness:
//!
//! - A buffer is live from the step that defines it to the last step that reads it.
//!   Inputs the caller passes per call are defined before step 0; inputs kept between
//!   calls (weights, uploaded once), constants and the function's results are live for
//!   the whole run, so nothing ever overwrites them.
//! - An [`Step::Alias`] (a reshape or bitcast of a buffer) defines no storage: the view
//!   shares its source's bytes, and the source lives as long as any of its views.
//! - Buffers whose lifetimes do not overlap may share bytes; every buffer starts at a
//!   multiple of [`ARENA_ALIGN`]. Placement is greedy by size (largest first, each at the
//!   lowest offset free over its lifetime), which is what TFLite's and XLA's arena
//!   planners start from.
//!
//! Straight-line code never copies: views alias, results are read from their offsets,
//! and a kernel's outputs are fresh buffers. Loops and choices ([`Step::While`],
//! [`Step::Case`]) hold nested step lists; their carried values and branch results
//! move between buffers by explicit [`Step::Copy`]s, and a buffer any step inside a
//! loop touches lives across the whole loop. [`Plan::validate`] checks a plan read
//! from an untrusted manifest before anything runs it (walking nested lists
//! iteratively, to a bounded depth), and [`Plan::run_host`] runs it over a host arena.

use serde::{Deserialize, Serialize};

use crate::bundle::{KernelInfo, Param};
use crate::collective::{Collective, exchange};

/// Every buffer's offset in the arena is a multiple of this many bytes (the alignment
/// `cudaMalloc` guarantees, and more than any vector load needs).
pub const ARENA_ALIGN: u64 = 256;

/// What a compiled bundle says of one host function: a plan, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FuncPlan {
    /// The function runs as its plan.
    Planned(Plan),
    /// The function still holds tensor ops that are not kernels: it runs in the
    /// interpreter, these ops on the host.
    Interpreted(Interpreted),
}

impl FuncPlan {
    /// The host function this is about.
    pub fn func(&self) -> &str {
        match self {
            FuncPlan::Planned(p) => &p.func,
            FuncPlan::Interpreted(i) => &i.func,
        }
    }
}

/// A function without a plan, and the ops that keep it from having one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interpreted {
    /// The host function.
    pub func: String,
    /// The ops that are not kernel launches, views, constants or the return.
    pub ops: Vec<HostOp>,
}

/// An op of the host function that only the interpreter runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostOp {
    /// The op's name, e.g. `stablehlo.while`.
    pub name: String,
    /// Where it is, `file:line:col`, or empty when the op has no file location.
    pub loc: String,
}

impl std::fmt::Display for HostOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.loc.is_empty() {
            f.write_str(&self.name)
        } else {
            write!(f, "{} at {}", self.name, self.loc)
        }
    }
}

/// Where a buffer's contents come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Argument `arg` of the function. A `kept` input is uploaded once and kept between
    /// calls (weights); the others are uploaded for every call.
    Input {
        /// The argument's position.
        arg: u32,
        /// Whether it is uploaded once and kept.
        kept: bool,
    },
    /// A constant of the host function: its bytes, as lowercase hex (uploaded once).
    Constant {
        /// The bytes, two hex digits each.
        hex: String,
    },
    /// Written by a step: a kernel's output, or a view ([`Step::Alias`]).
    Step,
    /// This device's partition id (`stablehlo.partition_id`: the device's
    /// index among the plan's [`Plan::devices`], 0 for an unpartitioned
    /// plan) as a little-endian 32-bit integer: a per-device constant, written
    /// once when the device's arena is set up ([`Plan::arena_constants`]).
    PartitionId,
}

/// One tensor of the host function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Buffer {
    /// Where it starts in the arena, in bytes; set by [`Plan::new`].
    pub offset: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its element type, as [`crate::Param::elem`].
    pub elem: String,
    /// Its shape.
    pub shape: Vec<i64>,
    /// Where its contents come from.
    pub source: Source,
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// Launch `kernel` with these buffers as its arguments (inputs, then outputs).
    Launch {
        /// The kernel (a [`KernelInfo::name`]).
        kernel: String,
        /// One buffer per kernel parameter, by index into [`Plan::buffers`].
        args: Vec<u32>,
    },
    /// Buffer `view` is `of`'s bytes seen with another shape: it takes `of`'s offset,
    /// and nothing runs.
    Alias {
        /// The view.
        view: u32,
        /// The buffer it reinterprets.
        of: u32,
    },
    /// Buffer `to` gets a copy of `from`'s bytes (as many as both have): a
    /// loop-carried value's next value, a loop's initial value, or a branch's
    /// result. The only step that writes a buffer another step defined.
    Copy {
        /// The buffer read.
        from: u32,
        /// The buffer written.
        to: u32,
    },
    /// A loop (`stablehlo.while`): run `cond`, read the one-element buffer
    /// `pred` (nonzero: go on), run `body`, and again, until `pred` reads
    /// zero. The carried values are buffers the loop's initial [`Step::Copy`]s
    /// (before it) and the body's last copies write; the loop's results are
    /// those buffers.
    While {
        /// The steps computing the loop test.
        cond: Vec<Step>,
        /// The test: a buffer of one integer element `cond` writes.
        pred: u32,
        /// One iteration.
        body: Vec<Step>,
    },
    /// A choice (`stablehlo.case`, `stablehlo.if`): read the one-element
    /// integer buffer `index` and run `branches[index]`, the last branch for
    /// an index out of range (StableHLO's clamp; an `if` is its false
    /// branch then its true branch). Each branch ends copying its results
    /// into the buffers the choice's results are.
    Case {
        /// The branch number: a buffer of one integer element.
        index: u32,
        /// Each branch's steps.
        branches: Vec<Vec<Step>>,
    },
    /// A collective among the devices of a partitioned program (see
    /// [`crate::collective`]): `output` is what the op makes of every
    /// group member's `input`.
    Collective {
        /// What it computes.
        op: Collective,
        /// The buffer each device hands in.
        input: u32,
        /// The buffer it gets back.
        output: u32,
        /// Device ids, one list per group; every device is in one.
        groups: Vec<Vec<u32>>,
    },
}

/// A host function as buffers in one arena and the steps that fill them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The host function.
    pub func: String,
    /// The arena's size in bytes: what running the plan allocates.
    pub arena_bytes: u64,
    /// The sum of every buffer's bytes (views included): what one allocation per
    /// tensor would take.
    pub tensor_bytes: u64,
    /// Every tensor of the function.
    pub buffers: Vec<Buffer>,
    /// What runs, in order.
    pub steps: Vec<Step>,
    /// The buffer of each function argument, in order.
    pub inputs: Vec<u32>,
    /// The buffer of each function result, in order.
    pub outputs: Vec<u32>,
    /// How many devices run the plan, each on its own slices, meeting at
    /// its collective steps (1: an unpartitioned function).
    #[serde(default = "one_device")]
    pub devices: u32,
    /// The dynamic dimensions of a function compiled at their bounds (see
    /// [`Dynamic`]); `None` for a static one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic: Option<Box<Dynamic>>,
}

fn one_device() -> u32 {
    1
}

/// A dimension as a product of a constant and named sizes (`16`, `b`,
/// `4*b*s`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimExpr {
    /// The constant factor.
    pub coef: i64,
    /// The sizes multiplied, by name.
    pub syms: Vec<String>,
}

impl DimExpr {
    /// Its value at `sizes`, or `None` (a name missing, an overflow).
    pub fn eval(&self, sizes: &std::collections::BTreeMap<String, i64>) -> Option<i64> {
        self.syms
            .iter()
            .try_fold(self.coef, |acc, s| acc.checked_mul(*sizes.get(s)?))
    }
}

impl std::fmt::Display for DimExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.syms.is_empty() || self.coef != 1 {
            write!(f, "{}", self.coef)?;
            for s in &self.syms {
                write!(f, "*{s}")?;
            }
            Ok(())
        } else {
            f.write_str(&self.syms.join("*"))
        }
    }
}

/// The dynamic dimensions of a plan. The compiler made the function static at
/// each size's bound, and elements inside the sizes are computed only from
/// elements inside them; so the plan's buffers (at the bounds) hold a run at
/// any smaller sizes, in one of two layouts: packed at the front (the dynamic
/// dims lead every tensor, and each input is copied to the front of its
/// zeroed buffer, each result read from the front of its own) or, with
/// `in_place`, padded in place in each dim (each input copied into the
/// corner of its buffer, each result read from the corner of its own), where
/// reductions and contractions over a dynamic dimension mask what lies past
/// its size. Kernels read the sizes from the plan's trailing size inputs; the
/// padding computed past them is never read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dynamic {
    /// Each size's name and bound, sorted by name.
    pub bounds: Vec<(String, i64)>,
    /// Each argument's dims.
    pub args: Vec<Vec<DimExpr>>,
    /// Each result's dims.
    pub results: Vec<Vec<DimExpr>>,
    /// The sizes the plan's trailing inputs hold (after `args`), each an
    /// i32 the run time writes from the call's shapes (absent in bundles
    /// made before kernels read sizes: none).
    #[serde(default)]
    pub sizes: Vec<String>,
    /// Tensors padded in place in each dynamic dim, rather than packed at
    /// the front (older bundles: packed).
    #[serde(default)]
    pub in_place: bool,
    /// Copies compiled for smaller bounds (other functions of the bundle,
    /// with plans of their own): each one's function and bounds, sorted by
    /// name. A call runs the smallest whose bounds its sizes fit
    /// ([`Plan::bucket_for`]).
    #[serde(default)]
    pub buckets: Vec<(String, Vec<(String, i64)>)>,
}

/// A dynamic plan bound to the shapes of one call's arguments: each size, and
/// the shapes and bytes of arguments and results.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// Each size by name.
    pub sizes: std::collections::BTreeMap<String, i64>,
    /// Each argument's bytes at these sizes.
    pub input_bytes: Vec<u64>,
    /// Each result's shape at these sizes.
    pub output_shapes: Vec<Vec<i64>>,
    /// Each result's bytes at these sizes.
    pub output_bytes: Vec<u64>,
    /// Each result buffer's shape (at the bounds) and bytes per element.
    pub output_buffers: Vec<(Vec<i64>, u64)>,
    /// Results padded in place (read from each buffer's corner), else
    /// packed at the front.
    pub in_place: bool,
    /// The values of the plan's trailing size inputs, in order.
    pub size_inputs: Vec<i32>,
}

/// Calls `f(small, big, bytes)` for each innermost row of a tensor of shape
/// `small` laid in the corner of one of shape `big` (each dim at least
/// `small`'s), both row-major with `elem` bytes an element: the row's byte
/// offsets in each and its bytes.
fn corner_rows(small: &[i64], big: &[i64], elem: u64, f: &mut dyn FnMut(usize, usize, usize)) {
    let r = small.len();
    if r == 0 {
        f(0, 0, elem as usize);
        return;
    }
    if small.contains(&0) {
        return;
    }
    let row = (small[r - 1] as u64 * elem) as usize;
    let mut idx = vec![0i64; r - 1];
    loop {
        let (mut so, mut bo) = (0i64, 0i64);
        for d in 0..r - 1 {
            so = so * small[d] + idx[d];
            bo = bo * big[d] + idx[d];
        }
        f(
            (so * small[r - 1]) as usize * elem as usize,
            (bo * big[r - 1]) as usize * elem as usize,
            row,
        );
        let mut d = r - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < small[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// Where a tensor's bytes lie in a larger buffer: each run's byte offset in
/// the tensor, byte offset in the buffer, and bytes.
pub type Runs = Vec<(usize, usize, usize)>;

impl Binding {
    /// Where result `o` lies in its buffer at these sizes: the rows of its
    /// corner, or one run at the front (packed).
    pub fn output_runs(&self, o: usize) -> Runs {
        let n = self.output_bytes.get(o).copied().unwrap_or(0) as usize;
        match self.output_buffers.get(o) {
            Some((big, elem)) if self.in_place => {
                let mut runs = Vec::new();
                corner_rows(&self.output_shapes[o], big, *elem, &mut |s, b, len| {
                    runs.push((s, b, len))
                });
                runs
            }
            _ => vec![(0, 0, n)],
        }
    }

    /// The results of a run on padded arguments ([`Plan::pad_inputs`]) cut
    /// to their shapes: each result's corner of its buffer, or its front.
    pub fn trim_outputs(&self, outs: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        outs.into_iter()
            .enumerate()
            .map(|(o, mut big)| {
                let runs = self.output_runs(o);
                // A result at the front of its buffer (packed) is the
                // buffer cut short: no copy.
                if let [(0, 0, n)] = runs[..] {
                    big.truncate(n);
                    return big;
                }
                let mut out = vec![0u8; self.output_bytes[o] as usize];
                for (s, b, len) in runs {
                    if let (Some(dst), Some(src)) = (out.get_mut(s..s + len), big.get(b..b + len)) {
                        dst.copy_from_slice(src);
                    }
                }
                out
            })
            .collect()
    }
}

/// A buffer's lifetime in steps (both ends included) and size: what arena planning
/// places. Inputs and constants start at step 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// The first step at which the buffer holds data.
    pub start: usize,
    /// The last step that reads it.
    pub end: usize,
    /// Its size in bytes.
    pub bytes: u64,
}

impl Interval {
    /// Whether two buffers are live at some step together.
    pub fn overlaps(&self, o: &Interval) -> bool {
        self.start <= o.end && o.start <= self.end
    }
}

/// Runs kernel launches on host buffers: given the kernel's manifest entry and one byte
/// buffer per parameter (inputs filled, outputs zeroed), fills the outputs.
pub type Launcher<'a> = dyn FnMut(&KernelInfo, &mut [Vec<u8>]) -> Result<(), String> + 'a;

/// Rounds `n` up to a multiple of [`ARENA_ALIGN`], or `None` on overflow.
fn align(n: u64) -> Option<u64> {
    n.checked_add(ARENA_ALIGN - 1)
        .map(|v| v / ARENA_ALIGN * ARENA_ALIGN)
}

/// Places `intervals` in one arena: an offset for each (a multiple of [`ARENA_ALIGN`])
/// such that no two whose lifetimes overlap share a byte, and the arena's size. Greedy
/// by size: the largest first, each at the lowest offset free over its lifetime.
/// `None` when the arena's size overflows `u64`.
pub fn place(intervals: &[Interval]) -> Option<(Vec<u64>, u64)> {
    let mut order: Vec<usize> = (0..intervals.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(intervals[i].bytes), intervals[i].start, i));
    let mut offsets = vec![0u64; intervals.len()];
    // Placed buffers: (offset, end offset, index).
    let mut placed: Vec<(u64, u64, usize)> = Vec::new();
    let mut arena = 0u64;
    for i in order {
        let me = intervals[i];
        if me.bytes == 0 {
            continue;
        }
        let mut busy: Vec<(u64, u64)> = placed
            .iter()
            .filter(|(_, _, j)| intervals[*j].overlaps(&me))
            .map(|&(a, b, _)| (a, b))
            .collect();
        busy.sort_unstable();
        let mut at = 0u64;
        for (a, b) in busy {
            if at.checked_add(me.bytes)? <= a {
                break;
            }
            at = at.max(align(b)?);
        }
        let end = at.checked_add(me.bytes)?;
        offsets[i] = at;
        placed.push((at, end, i));
        arena = arena.max(end);
    }
    Some((offsets, align(arena)?))
}

/// Union-find over buffers, for views that share their source's storage.
fn root(of: &[usize], mut b: usize) -> usize {
    while of[b] != b {
        b = of[b];
    }
    b
}

/// The deepest nesting of loops and choices a plan may hold: a manifest
/// nesting deeper is refused before anything recurses into it.
pub const MAX_NESTING: usize = 32;

impl Step {
    /// The step lists this step holds: a loop's test and body, a choice's
    /// branches (none for the other steps).
    pub fn nested(&self) -> Vec<&[Step]> {
        match self {
            Step::While { cond, body, .. } => vec![cond.as_slice(), body.as_slice()],
            Step::Case { branches, .. } => branches.iter().map(Vec::as_slice).collect(),
            Step::Launch { .. }
            | Step::Alias { .. }
            | Step::Copy { .. }
            | Step::Collective { .. } => Vec::new(),
        }
    }

    /// Whether the step is a loop or a choice.
    pub fn is_control(&self) -> bool {
        matches!(self, Step::While { .. } | Step::Case { .. })
    }

    /// How many steps this is: itself and every step nested in it.
    fn size(&self) -> usize {
        1 + self
            .nested()
            .iter()
            .flat_map(|l| l.iter())
            .map(Step::size)
            .sum::<usize>()
    }
}

/// Every step of `steps` in program order, each nested list right after
/// the step holding it (a loop's test, then its body; a choice's branches in
/// order); an error naming the depth when lists nest deeper than
/// [`MAX_NESTING`]. Iterative: a hostile manifest cannot exhaust the stack.
pub fn preorder(steps: &[Step]) -> Result<Vec<&Step>, String> {
    let mut out = Vec::new();
    // Lists still to walk, innermost last, with their depth.
    let mut todo: Vec<(std::slice::Iter<'_, Step>, usize)> = vec![(steps.iter(), 0)];
    while let Some((it, depth)) = todo.last_mut() {
        let depth = *depth;
        let Some(step) = it.next() else {
            todo.pop();
            continue;
        };
        out.push(step);
        let nested = step.nested();
        if !nested.is_empty() && depth + 1 > MAX_NESTING {
            return Err(format!(
                "loops and choices nest deeper than {MAX_NESTING} levels"
            ));
        }
        // Pushed last first, so that the first list is walked first.
        for l in nested.into_iter().rev() {
            todo.push((l.iter(), depth + 1));
        }
    }
    Ok(out)
}

/// The value of a loop test or branch number: the one element of a buffer
/// of integer type `elem` (`i1` reads as 0 or 1), from its little-endian
/// `bytes`; `None` for another type or size.
pub fn selector(elem: &str, bytes: &[u8]) -> Option<i64> {
    Some(match (elem, bytes) {
        ("i1", [b]) => i64::from(*b != 0),
        ("i8", [b]) => i64::from(*b as i8),
        ("i16", [a, b]) => i64::from(i16::from_le_bytes([*a, *b])),
        ("i32", b) => i64::from(i32::from_le_bytes(b.try_into().ok()?)),
        ("i64", b) => i64::from_le_bytes(b.try_into().ok()?),
        _ => return None,
    })
}

/// The branch of `n` that branch number `index` selects: itself when in
/// range, else the last (StableHLO's `case` clamps).
pub fn branch(index: i64, n: usize) -> usize {
    match usize::try_from(index) {
        Ok(i) if i < n => i,
        _ => n.saturating_sub(1),
    }
}

impl Plan {
    /// A plan of `buffers` (offsets not yet set) and `steps`, with the arena planned
    /// by liveness. Errors name what is malformed (an index out of range, an alias
    /// of a buffer to itself, a size that overflows).
    pub fn new(
        func: String,
        buffers: Vec<Buffer>,
        steps: Vec<Step>,
        inputs: Vec<u32>,
        outputs: Vec<u32>,
    ) -> Result<Plan, String> {
        Plan::new_spmd(func, buffers, steps, inputs, outputs, 1)
    }

    /// [`Plan::new`] for a plan that `devices` devices run, each on its own
    /// slices (a partitioned program).
    pub fn new_spmd(
        func: String,
        buffers: Vec<Buffer>,
        steps: Vec<Step>,
        inputs: Vec<u32>,
        outputs: Vec<u32>,
        devices: u32,
    ) -> Result<Plan, String> {
        let mut plan = Plan {
            func,
            arena_bytes: 0,
            tensor_bytes: 0,
            buffers,
            steps,
            inputs,
            outputs,
            devices: devices.max(1),
            dynamic: None,
        };
        plan.check_indices()?;
        let (classes, intervals) = plan.liveness()?;
        let (offsets, arena) = place(&intervals)
            .ok_or_else(|| format!("@{}: the arena's size overflows", plan.func))?;
        for (b, class) in classes.iter().enumerate() {
            plan.buffers[b].offset = offsets[*class];
        }
        plan.arena_bytes = arena;
        plan.tensor_bytes = plan
            .buffers
            .iter()
            .try_fold(0u64, |acc, b| acc.checked_add(b.bytes))
            .ok_or_else(|| format!("@{}: the tensors' sizes overflow", plan.func))?;
        Ok(plan)
    }

    /// Every buffer index in steps, inputs and outputs is in range.
    fn check_indices(&self) -> Result<(), String> {
        let n = self.buffers.len();
        let bad = |what: String| format!("plan of @{}: {what}", self.func);
        let check = |b: u32, what: &str| {
            if (b as usize) < n {
                Ok(())
            } else {
                Err(bad(format!("{what} names buffer {b} of {n}")))
            }
        };
        let steps = preorder(&self.steps).map_err(bad)?;
        for (s, step) in steps.into_iter().enumerate() {
            match step {
                Step::Launch { args, .. } => {
                    for a in args {
                        check(*a, &format!("step {s}"))?;
                    }
                }
                Step::Copy { from, to } => {
                    check(*from, &format!("step {s}"))?;
                    check(*to, &format!("step {s}"))?;
                    if from == to {
                        return Err(bad(format!("step {s} copies buffer {to} onto itself")));
                    }
                }
                Step::While { pred, .. } => check(*pred, &format!("step {s}"))?,
                Step::Case { index, branches } => {
                    check(*index, &format!("step {s}"))?;
                    if branches.is_empty() {
                        return Err(bad(format!("step {s} chooses among no branches")));
                    }
                }
                Step::Alias { view, of } => {
                    check(*view, &format!("step {s}"))?;
                    check(*of, &format!("step {s}"))?;
                    if view == of {
                        return Err(bad(format!(
                            "step {s} makes buffer {view} a view of itself"
                        )));
                    }
                }
                Step::Collective {
                    input,
                    output,
                    groups,
                    ..
                } => {
                    check(*input, &format!("step {s}"))?;
                    check(*output, &format!("step {s}"))?;
                    if input == output {
                        return Err(bad(format!("step {s} writes its own input")));
                    }
                    let mut seen = vec![false; self.devices as usize];
                    for d in groups.iter().flatten() {
                        match seen.get_mut(*d as usize) {
                            Some(x) if !*x => *x = true,
                            Some(_) => {
                                return Err(bad(format!("step {s} names device {d} twice")));
                            }
                            None => {
                                return Err(bad(format!(
                                    "step {s} names device {d} of {}",
                                    self.devices
                                )));
                            }
                        }
                    }
                    if seen.iter().any(|x| !x) || groups.iter().any(|g| g.len() != groups[0].len())
                    {
                        return Err(bad(format!(
                            "step {s}: the groups must cover all {} devices in groups of one size",
                            self.devices
                        )));
                    }
                }
            }
        }
        for b in self.inputs.iter().chain(&self.outputs) {
            check(*b, "the signature")?;
        }
        Ok(())
    }

    /// Each buffer's storage class (the root of its views) and each class's lifetime and
    /// size, indexed by class root (non-roots get empty intervals).
    ///
    /// Steps are numbered in [`preorder`]. A buffer any step inside a loop
    /// touches is live over the whole loop (its test, body and every
    /// iteration): so a loop's carried buffers and whatever it reads from
    /// outside never share bytes with what its body writes.
    fn liveness(&self) -> Result<(Vec<usize>, Vec<Interval>), String> {
        let n = self.buffers.len();
        let flat = preorder(&self.steps).map_err(|e| format!("plan of @{}: {e}", self.func))?;
        let last = flat.len().saturating_sub(1);
        // The outermost loop around each step, as its first and last step.
        let mut outer: Vec<Option<(usize, usize)>> = vec![None; flat.len()];
        for (p, step) in flat.iter().enumerate() {
            if matches!(step, Step::While { .. }) && outer[p].is_none() {
                let end = p + step.size() - 1;
                for o in &mut outer[p..=end] {
                    *o = Some((p, end));
                }
            }
        }
        let mut parent: Vec<usize> = (0..n).collect();
        let mut start = vec![usize::MAX; n];
        let mut end = vec![0usize; n];
        let touch = |b: usize, s: usize, start: &mut Vec<usize>, end: &mut Vec<usize>| {
            let (a, z) = outer.get(s).copied().flatten().unwrap_or((s, s));
            start[b] = start[b].min(a);
            end[b] = end[b].max(z);
        };
        for (b, buf) in self.buffers.iter().enumerate() {
            match buf.source {
                Source::Input { kept: false, .. } => touch(b, 0, &mut start, &mut end),
                Source::Input { kept: true, .. }
                | Source::Constant { .. }
                | Source::PartitionId => {
                    touch(b, 0, &mut start, &mut end);
                    touch(b, last, &mut start, &mut end);
                }
                Source::Step => {}
            }
        }
        for (s, step) in flat.into_iter().enumerate() {
            match step {
                Step::Launch { args, .. } => {
                    for a in args {
                        touch(*a as usize, s, &mut start, &mut end);
                    }
                }
                Step::Copy { from, to } => {
                    touch(*from as usize, s, &mut start, &mut end);
                    touch(*to as usize, s, &mut start, &mut end);
                }
                Step::While { pred: b, .. } | Step::Case { index: b, .. } => {
                    touch(*b as usize, s, &mut start, &mut end);
                }
                Step::Alias { view, of } => {
                    let (v, o) = (root(&parent, *view as usize), root(&parent, *of as usize));
                    if v == o {
                        return Err(format!(
                            "plan of @{}: step {s} makes buffer {view} a view of itself",
                            self.func
                        ));
                    }
                    parent[v] = o;
                    touch(*view as usize, s, &mut start, &mut end);
                    touch(*of as usize, s, &mut start, &mut end);
                }
                Step::Collective { input, output, .. } => {
                    touch(*input as usize, s, &mut start, &mut end);
                    touch(*output as usize, s, &mut start, &mut end);
                }
            }
        }
        for b in &self.outputs {
            touch(*b as usize, last, &mut start, &mut end);
        }
        let classes: Vec<usize> = (0..n).map(|b| root(&parent, b)).collect();
        let mut intervals = vec![
            Interval {
                start: usize::MAX,
                end: 0,
                bytes: 0
            };
            n
        ];
        for (b, &c) in classes.iter().enumerate() {
            let i = &mut intervals[c];
            // A buffer no step touches (an unused argument) lives at step 0.
            let (s, e) = if start[b] == usize::MAX {
                (0, 0)
            } else {
                (start[b], end[b])
            };
            i.start = i.start.min(s);
            i.end = i.end.max(e);
            i.bytes = i.bytes.max(self.buffers[b].bytes);
        }
        for i in &mut intervals {
            if i.start == usize::MAX {
                *i = Interval {
                    start: 0,
                    end: 0,
                    bytes: 0,
                };
            }
        }
        Ok((classes, intervals))
    }

    /// Checks a plan read from a manifest against the bundle's kernels, so that running
    /// it cannot touch memory outside the arena: indices in range, every buffer inside
    /// the arena, every launch naming a kernel with as many parameters as arguments,
    /// each argument as large as its parameter, and constants of their buffer's size.
    pub fn validate(&self, kernels: &[KernelInfo]) -> Result<(), String> {
        self.check_indices()?;
        let bad = |what: String| Err(format!("plan of @{}: {what}", self.func));
        for (i, b) in self.buffers.iter().enumerate() {
            if b.offset
                .checked_add(b.bytes)
                .is_none_or(|e| e > self.arena_bytes)
            {
                return bad(format!(
                    "buffer {i} ({} bytes at {}) lies outside the {}-byte arena",
                    b.bytes, b.offset, self.arena_bytes
                ));
            }
            if let Source::Constant { hex } = &b.source
                && hex.len() as u64 != b.bytes.saturating_mul(2)
            {
                return bad(format!(
                    "constant buffer {i} has {} hex digits for {} bytes",
                    hex.len(),
                    b.bytes
                ));
            }
            if b.source == Source::PartitionId && b.bytes != 4 {
                return bad(format!(
                    "partition id buffer {i} has {} bytes, not 4",
                    b.bytes
                ));
            }
        }
        let steps = preorder(&self.steps).map_err(|e| format!("plan of @{}: {e}", self.func))?;
        for (s, step) in steps.into_iter().enumerate() {
            match step {
                Step::Copy { from, to } => {
                    let (f, t) = (&self.buffers[*from as usize], &self.buffers[*to as usize]);
                    if f.bytes != t.bytes || t.source != Source::Step {
                        return bad(format!(
                            "step {s} copies {} bytes into buffer {to} ({} bytes), which no step defines",
                            f.bytes, t.bytes
                        ));
                    }
                    if f.offset < t.offset + t.bytes && t.offset < f.offset + f.bytes {
                        return bad(format!(
                            "step {s} copies buffer {from} onto bytes it shares with buffer {to}"
                        ));
                    }
                    continue;
                }
                Step::While { pred: b, .. } | Step::Case { index: b, .. } => {
                    let buf = &self.buffers[*b as usize];
                    if Param::elem_bytes(&buf.elem) != Some(buf.bytes)
                        || selector(&buf.elem, &vec![0; buf.bytes as usize]).is_none()
                    {
                        return bad(format!(
                            "step {s} chooses by buffer {b}, which is not one integer ({} bytes of {})",
                            buf.bytes, buf.elem
                        ));
                    }
                    continue;
                }
                _ => {}
            }
            if let Step::Collective {
                op,
                input,
                output,
                groups,
            } = step
            {
                let (i, o) = (
                    &self.buffers[*input as usize],
                    &self.buffers[*output as usize],
                );
                let g = groups.first().map_or(1, Vec::len) as u64;
                let rank = i.shape.len() as u32;
                let (ok, dims) = match op {
                    Collective::AllReduce { .. } | Collective::CollectivePermute { .. } => {
                        (o.bytes == i.bytes, vec![])
                    }
                    Collective::AllGather { dim } => (o.bytes == i.bytes * g, vec![*dim]),
                    Collective::ReduceScatter { dim, .. } => (i.bytes == o.bytes * g, vec![*dim]),
                    Collective::AllToAll {
                        split_dim,
                        concat_dim,
                    } => (o.bytes == i.bytes, vec![*split_dim, *concat_dim]),
                };
                if !ok || i.elem != o.elem || dims.iter().any(|d| *d >= rank) {
                    return bad(format!(
                        "step {s}: a {op:?} of {} {} bytes into {} {} bytes over groups of {g}",
                        i.bytes, i.elem, o.bytes, o.elem
                    ));
                }
                continue;
            }
            let Step::Launch { kernel, args } = step else {
                continue;
            };
            let Some(k) = kernels.iter().find(|k| &k.name == kernel) else {
                return bad(format!(
                    "step {s} launches '{kernel}', which is not in the bundle"
                ));
            };
            if k.params.len() != args.len() {
                return bad(format!(
                    "step {s} passes {} buffers to {kernel}, which takes {}",
                    args.len(),
                    k.params.len()
                ));
            }
            for (j, (a, p)) in args.iter().zip(&k.params).enumerate() {
                let b = &self.buffers[*a as usize];
                if b.bytes < p.bytes {
                    return bad(format!(
                        "step {s}: argument {j} of {kernel} is {} bytes, the kernel reads {}",
                        b.bytes, p.bytes
                    ));
                }
            }
        }
        Ok(())
    }

    /// The launches of the plan, in [`preorder`] (each launch of a loop or a
    /// branch once, however often it runs), with their kernels' manifest
    /// entries. A launch's position here is its launch number, what
    /// [`Plan::run_host`]'s `on_launch` is told.
    pub fn launches<'a>(
        &'a self,
        kernels: &'a [KernelInfo],
    ) -> impl Iterator<Item = (&'a KernelInfo, &'a [u32])> + 'a {
        preorder(&self.steps)
            .unwrap_or_default()
            .into_iter()
            .filter_map(move |s| match s {
                Step::Launch { kernel, args } => kernels
                    .iter()
                    .find(|k| &k.name == kernel)
                    .map(|k| (k, args.as_slice())),
                _ => None,
            })
    }

    /// Whether the plan holds loops or choices (a runner cannot replay it
    /// as one fixed sequence of launches).
    pub fn has_control_flow(&self) -> bool {
        self.steps.iter().any(Step::is_control)
    }

    /// What a fresh arena of `device` holds before the first run, as
    /// (offset, bytes): the constants, and the device's partition id
    /// ([`Source::PartitionId`]). Every runner (host, one GPU, several)
    /// writes these once; nothing overwrites them.
    pub fn arena_constants(&self, device: u32) -> Result<Vec<(u64, Vec<u8>)>, String> {
        self.buffers
            .iter()
            .filter_map(|b| match &b.source {
                Source::Constant { hex } => Some(decode_hex(hex).map(|d| (b.offset, d))),
                Source::PartitionId => Some(Ok((b.offset, device.to_le_bytes().to_vec()))),
                Source::Input { .. } | Source::Step => None,
            })
            .collect()
    }

    /// Writes `device`'s [`Plan::arena_constants`] into `arena`.
    pub fn write_constants(&self, arena: &mut [u8], device: u32) -> Result<(), String> {
        for (at, bytes) in self.arena_constants(device)? {
            let at = at as usize;
            arena[at..at + bytes.len()].copy_from_slice(&bytes);
        }
        Ok(())
    }

    /// Checks that `inputs` has one byte buffer of the right size per argument.
    pub fn check_inputs(&self, inputs: &[&[u8]]) -> Result<(), String> {
        if inputs.len() != self.inputs.len() {
            return Err(format!(
                "@{} takes {} arguments, {} given",
                self.func,
                self.inputs.len(),
                inputs.len()
            ));
        }
        for (i, (data, b)) in inputs.iter().zip(&self.inputs).enumerate() {
            let want = self.buffers[*b as usize].bytes;
            if data.len() as u64 != want {
                return Err(format!(
                    "argument {i} of @{} is {want} bytes, {} given",
                    self.func,
                    data.len()
                ));
            }
        }
        Ok(())
    }

    /// The bytes per element of buffer `b` (its bytes over its element count).
    fn elem_bytes(&self, b: u32) -> u64 {
        let buf = &self.buffers[b as usize];
        let n: i64 = buf.shape.iter().product();
        if n <= 0 { 0 } else { buf.bytes / n as u64 }
    }

    /// Binds a dynamic plan to its arguments' `shapes` (the caller's: not
    /// the size inputs): each static dim must match, each size be one value
    /// from 1 to its bound. A static plan binds to its own shapes only.
    /// Errors name the argument, the dim and why.
    pub fn bind(&self, shapes: &[Vec<i64>]) -> Result<Binding, String> {
        use std::collections::BTreeMap;
        let f = &self.func;
        let size_names: &[String] = self.dynamic.as_ref().map_or(&[], |d| &d.sizes);
        let given = self.inputs.len().saturating_sub(size_names.len());
        if shapes.len() != given {
            return Err(format!(
                "@{f} takes {given} arguments, {} given",
                shapes.len()
            ));
        }
        let fixed = |b: u32| -> Vec<DimExpr> {
            self.buffers[b as usize]
                .shape
                .iter()
                .map(|n| DimExpr {
                    coef: *n,
                    syms: Vec::new(),
                })
                .collect()
        };
        let (bounds, args, results) = match &self.dynamic {
            Some(d) => (
                d.bounds.iter().cloned().collect::<BTreeMap<String, i64>>(),
                d.args.clone(),
                d.results.clone(),
            ),
            None => (
                BTreeMap::new(),
                self.inputs.iter().map(|b| fixed(*b)).collect(),
                self.outputs.iter().map(|b| fixed(*b)).collect(),
            ),
        };
        if args.len() != given || results.len() != self.outputs.len() {
            return Err(format!(
                "plan of @{f}: the dynamic signature does not match"
            ));
        }
        let show = |ds: &[DimExpr]| {
            ds.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut sizes: BTreeMap<String, i64> = BTreeMap::new();
        for (i, (shape, dims)) in shapes.iter().zip(&args).enumerate() {
            if shape.len() != dims.len() {
                return Err(format!(
                    "argument {i} of @{f} has shape {shape:?}, expected [{}]",
                    show(dims)
                ));
            }
            for (k, (n, d)) in shape.iter().zip(dims).enumerate() {
                let ok = match d.syms.as_slice() {
                    [] => *n == d.coef,
                    [s] if d.coef >= 1 && *n >= 1 && n % d.coef == 0 => {
                        let v = n / d.coef;
                        let bound = bounds.get(s).copied().unwrap_or(0);
                        if v > bound {
                            return Err(format!(
                                "argument {i} of @{f}: dimension {k} ('{d}') is {n}, above its bound {}: compile with a larger bound (--dim-bounds={s}=N)",
                                d.coef * bound
                            ));
                        }
                        match sizes.insert(s.clone(), v) {
                            Some(old) if old != v => {
                                return Err(format!(
                                    "argument {i} of @{f}: dimension {k} makes '{s}' {v}, an earlier argument made it {old}"
                                ));
                            }
                            _ => true,
                        }
                    }
                    _ => false,
                };
                if !ok {
                    return Err(format!(
                        "argument {i} of @{f} has shape {shape:?}, expected [{}]",
                        show(dims)
                    ));
                }
            }
        }
        let eval = |ds: &[DimExpr], what: &str| -> Result<Vec<i64>, String> {
            ds.iter()
                .map(|d| {
                    d.eval(&sizes)
                        .ok_or_else(|| format!("{what} of @{f}: dimension '{d}' has no size"))
                })
                .collect()
        };
        let bytes_of = |shape: &[i64], b: u32| -> u64 {
            shape.iter().product::<i64>() as u64 * self.elem_bytes(b)
        };
        let mut input_bytes = Vec::new();
        for (i, (shape, b)) in shapes.iter().zip(&self.inputs).enumerate() {
            let n = bytes_of(shape, *b);
            if n > self.buffers[*b as usize].bytes {
                return Err(format!("argument {i} of @{f} does not fit its buffer"));
            }
            input_bytes.push(n);
        }
        let mut output_shapes = Vec::new();
        let mut output_bytes = Vec::new();
        let mut output_buffers = Vec::new();
        for (j, (ds, b)) in results.iter().zip(&self.outputs).enumerate() {
            let shape = eval(ds, &format!("result {j}"))?;
            let n = bytes_of(&shape, *b);
            let big = &self.buffers[*b as usize].shape;
            if n > self.buffers[*b as usize].bytes
                || big.len() != shape.len()
                || shape.iter().zip(big).any(|(s, g)| s > g)
            {
                return Err(format!("result {j} of @{f} does not fit its buffer"));
            }
            output_bytes.push(n);
            output_shapes.push(shape);
            output_buffers.push((big.clone(), self.elem_bytes(*b)));
        }
        let mut size_inputs = Vec::new();
        for s in size_names {
            let v = sizes
                .get(s)
                .copied()
                .ok_or_else(|| format!("@{f}: size '{s}' is given by no argument"))?;
            size_inputs
                .push(i32::try_from(v).map_err(|_| format!("@{f}: size '{s}' = {v} exceeds i32"))?);
        }
        Ok(Binding {
            sizes,
            input_bytes,
            output_shapes,
            output_bytes,
            output_buffers,
            size_inputs,
            in_place: self.dynamic.as_ref().is_some_and(|d| d.in_place),
        })
    }

    /// The function to run a call at `shapes` (see [`Plan::bind`]): the
    /// bucket of the fewest elements ([`Dynamic::buckets`], each the product
    /// of its bounds) whose every bound holds the call's size, or `None` for
    /// this plan's own function.
    pub fn bucket_for(&self, shapes: &[Vec<i64>]) -> Result<Option<&str>, String> {
        let b = self.bind(shapes)?;
        let Some(d) = &self.dynamic else {
            return Ok(None);
        };
        let volume = |bounds: &[(String, i64)]| -> i128 {
            bounds.iter().map(|(_, n)| i128::from(*n)).product()
        };
        let own = volume(&d.bounds);
        let fits = |bounds: &[(String, i64)]| {
            b.sizes.iter().all(|(s, n)| {
                bounds
                    .iter()
                    .find(|(k, _)| k == s)
                    .is_none_or(|(_, m)| n <= m)
            })
        };
        Ok(d.buckets
            .iter()
            .filter(|(_, bounds)| fits(bounds) && volume(bounds) < own)
            .min_by_key(|(_, bounds)| volume(bounds))
            .map(|(f, _)| f.as_str()))
    }

    /// Where argument `i` of a call bound as `b` (its shape `shape`) lies in
    /// its buffer: the rows of the buffer's corner, or one run at the front
    /// (packed); an error where the shape does not fit the buffer.
    pub fn input_runs(&self, b: &Binding, i: usize, shape: &[i64]) -> Result<Runs, String> {
        let buf = self
            .inputs
            .get(i)
            .ok_or_else(|| format!("@{} has no argument {i}", self.func))?;
        let big = &self.buffers[*buf as usize];
        if big.shape.len() != shape.len() || shape.iter().zip(&big.shape).any(|(s, g)| s > g) {
            return Err(format!(
                "argument {i} of @{}: shape {shape:?} does not fit its buffer {:?}",
                self.func, big.shape
            ));
        }
        if !b.in_place {
            return Ok(vec![(0, 0, b.input_bytes[i] as usize)]);
        }
        let mut runs = Vec::new();
        corner_rows(
            shape,
            &big.shape,
            self.elem_bytes(*buf),
            &mut |s, g, len| runs.push((s, g, len)),
        );
        Ok(runs)
    }

    /// The values of the size inputs of a call bound as `b`, one `i32`
    /// each, checked against the plan's trailing size inputs.
    pub fn size_inputs(&self, b: &Binding) -> Result<Vec<[u8; 4]>, String> {
        let sized = &self.inputs[self.inputs.len().saturating_sub(b.size_inputs.len())..];
        if sized.len() != b.size_inputs.len() {
            return Err(format!("@{}: the size inputs do not match", self.func));
        }
        b.size_inputs
            .iter()
            .zip(sized)
            .map(|(n, buf)| {
                if self.buffers[*buf as usize].bytes != 4 {
                    return Err(format!("@{}: a size input is not one i32", self.func));
                }
                Ok(n.to_le_bytes())
            })
            .collect()
    }

    /// The arguments of a call at `shapes` (see [`Plan::bind`]) as the
    /// plan's buffers take them: each copied into the corner of a zeroed
    /// buffer of its bounds' shape, then the size inputs; with the binding,
    /// whose [`Binding::trim_outputs`] cuts the results back to their
    /// shapes. Any runner of the plan (host or device) runs the padded
    /// arguments; [`crate::DevicePlan::call`] places them on the device
    /// itself, by the same runs.
    pub fn pad_inputs(
        &self,
        inputs: &[&[u8]],
        shapes: &[Vec<i64>],
    ) -> Result<(Vec<Vec<u8>>, Binding), String> {
        let b = self.bind(shapes)?;
        if inputs.len() != shapes.len() {
            return Err(format!(
                "@{}: {} arguments for {} shapes",
                self.func,
                inputs.len(),
                shapes.len()
            ));
        }
        let mut padded = Vec::with_capacity(inputs.len() + b.size_inputs.len());
        for (i, (data, n)) in inputs.iter().zip(&b.input_bytes).enumerate() {
            if data.len() as u64 != *n {
                return Err(format!(
                    "argument {i} of @{} is {n} bytes at shape {:?}, {} given",
                    self.func,
                    shapes[i],
                    data.len()
                ));
            }
            let mut v = vec![0u8; self.buffers[self.inputs[i] as usize].bytes as usize];
            for (s, g, len) in self.input_runs(&b, i, &shapes[i])? {
                if let (Some(dst), Some(src)) = (v.get_mut(g..g + len), data.get(s..s + len)) {
                    dst.copy_from_slice(src);
                }
            }
            padded.push(v);
        }
        padded.extend(self.size_inputs(&b)?.iter().map(|n| n.to_vec()));
        Ok((padded, b))
    }

    /// Runs the plan over a host arena of [`Plan::arena_bytes`] bytes: copies the
    /// constants and `inputs` in, runs each launch through `run` (the kernel's entry
    /// and one byte buffer per parameter, staged from and back into the arena), and
    /// returns the results' bytes. `on_launch` is told each launch's index as it ends
    /// (for timing). The plan must have passed [`Plan::validate`]; a plan of several
    /// devices runs with [`Plan::run_host_spmd`].
    pub fn run_host(
        &self,
        kernels: &[KernelInfo],
        inputs: &[&[u8]],
        run: &mut Launcher<'_>,
        on_launch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<u8>>, String> {
        let mut outs = self.run_host_spmd(kernels, &[inputs.to_vec()], run, on_launch)?;
        Ok(outs.remove(0))
    }

    /// Runs a partitioned plan on the host for each of its [`Plan::devices`]
    /// (`inputs[d]`: device `d`'s arguments), one arena per device, in lockstep:
    /// each launch runs on every device in turn, and each collective step
    /// combines the devices' buffers in memory ([`crate::collective::exchange`]).
    /// Returns each device's results.
    pub fn run_host_spmd(
        &self,
        kernels: &[KernelInfo],
        inputs: &[Vec<&[u8]>],
        run: &mut Launcher<'_>,
        on_launch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<Vec<u8>>>, String> {
        if inputs.len() != self.devices as usize {
            return Err(format!(
                "@{} runs on {} devices, {} given inputs",
                self.func,
                self.devices,
                inputs.len()
            ));
        }
        let size = usize::try_from(self.arena_bytes)
            .map_err(|_| format!("the arena of {} bytes does not fit", self.arena_bytes))?;
        let mut arenas = Vec::with_capacity(inputs.len());
        for (device, ins) in (0u32..).zip(inputs) {
            self.check_inputs(ins)?;
            let mut arena = vec![0u8; size];
            self.write_constants(&mut arena, device)?;
            for (data, b) in ins.iter().zip(&self.inputs) {
                let at = self.buffers[*b as usize].offset as usize;
                arena[at..at + data.len()].copy_from_slice(data);
            }
            arenas.push(arena);
        }
        self.exec(&self.steps, 0, kernels, &mut arenas, run, on_launch)?;
        let range = |b: u32| {
            let b = &self.buffers[b as usize];
            b.offset as usize..(b.offset + b.bytes) as usize
        };
        Ok(arenas
            .iter()
            .map(|arena| {
                self.outputs
                    .iter()
                    .map(|b| arena[range(*b)].to_vec())
                    .collect()
            })
            .collect())
    }

    /// Runs `steps` over every device's arena (see [`Plan::run_host_spmd`]);
    /// `first` is the launch number ([`Plan::launches`]) of the first launch
    /// in them. Loops and choices read their test or branch number from the
    /// arenas, which must agree on it.
    fn exec(
        &self,
        steps: &[Step],
        first: usize,
        kernels: &[KernelInfo],
        arenas: &mut [Vec<u8>],
        run: &mut Launcher<'_>,
        on_launch: &mut dyn FnMut(usize),
    ) -> Result<(), String> {
        let range = |b: u32| {
            let b = &self.buffers[b as usize];
            b.offset as usize..(b.offset + b.bytes) as usize
        };
        // The one value every device's arena holds in buffer `b`.
        let read = |arenas: &[Vec<u8>], b: u32, what: &str| -> Result<i64, String> {
            let elem = &self.buffers[b as usize].elem;
            let mut value = None;
            for arena in arenas {
                let v = selector(elem, &arena[range(b)])
                    .ok_or_else(|| format!("@{}: {what} is not one integer", self.func))?;
                if value.is_some_and(|w| w != v) {
                    return Err(format!("@{}: the devices disagree on {what}", self.func));
                }
                value = Some(v);
            }
            Ok(value.unwrap_or(0))
        };
        let mut n = first;
        for step in steps {
            match step {
                Step::Alias { .. } => {}
                Step::Copy { from, to } => {
                    let (f, t) = (range(*from), range(*to));
                    for arena in arenas.iter_mut() {
                        arena.copy_within(f.clone(), t.start);
                    }
                }
                Step::While { cond, pred, body } => {
                    let in_cond = cond.iter().map(launch_count).sum::<usize>();
                    loop {
                        self.exec(cond, n, kernels, arenas, run, on_launch)?;
                        if read(arenas, *pred, "a loop test")? == 0 {
                            break;
                        }
                        self.exec(body, n + in_cond, kernels, arenas, run, on_launch)?;
                    }
                }
                Step::Case { index, branches } => {
                    let i = branch(read(arenas, *index, "a branch number")?, branches.len());
                    let before: usize = branches[..i]
                        .iter()
                        .flat_map(|b| b.iter())
                        .map(launch_count)
                        .sum();
                    self.exec(&branches[i], n + before, kernels, arenas, run, on_launch)?;
                }
                Step::Launch { kernel, args } => {
                    let k = kernels
                        .iter()
                        .find(|k| &k.name == kernel)
                        .ok_or_else(|| format!("no kernel '{kernel}'"))?;
                    for arena in arenas.iter_mut() {
                        let mut staged: Vec<Vec<u8>> = args
                            .iter()
                            .zip(&k.params)
                            .map(|(a, p)| {
                                let at = self.buffers[*a as usize].offset as usize;
                                if p.output {
                                    vec![0; p.bytes as usize]
                                } else {
                                    arena[at..at + p.bytes as usize].to_vec()
                                }
                            })
                            .collect();
                        run(k, &mut staged)?;
                        for ((a, p), data) in args.iter().zip(&k.params).zip(&staged) {
                            if p.output {
                                let at = self.buffers[*a as usize].offset as usize;
                                arena[at..at + data.len()].copy_from_slice(data);
                            }
                        }
                    }
                    on_launch(n);
                }
                Step::Collective {
                    op,
                    input,
                    output,
                    groups,
                } => {
                    let b = &self.buffers[*input as usize];
                    let mut results = Vec::new();
                    for g in groups {
                        let ins: Vec<&[u8]> = g
                            .iter()
                            .map(|d| &arenas[*d as usize][range(*input)])
                            .collect();
                        for me in 0..g.len() {
                            results.push((g[me], exchange(op, &b.elem, &b.shape, &ins, g, me)?));
                        }
                    }
                    for (d, data) in results {
                        let r = range(*output);
                        if data.len() != r.len() {
                            return Err(format!(
                                "@{}: a collective made {} bytes for a {}-byte buffer",
                                self.func,
                                data.len(),
                                r.len()
                            ));
                        }
                        arenas[d as usize][r].copy_from_slice(&data);
                    }
                }
            }
            n += launch_count(step);
        }
        Ok(())
    }
}

/// How many launches `step` holds, itself and nested (each once).
pub fn launch_count(step: &Step) -> usize {
    match step {
        Step::Launch { .. } => 1,
        _ => step
            .nested()
            .iter()
            .flat_map(|l| l.iter())
            .map(launch_count)
            .sum(),
    }
}

/// `bytes` as lowercase hex, two digits a byte (how constants travel in a manifest).
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes `hex` spells (see [`encode_hex`]).
pub fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err("a constant's hex has an odd number of digits".into());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(|| format!("a constant's hex has a bad digit at {i}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(bytes: u64, source: Source) -> Buffer {
        Buffer {
            offset: 0,
            bytes,
            elem: "f32".into(),
            shape: vec![(bytes / 4) as i64],
            source,
        }
    }

    fn input(arg: u32, bytes: u64) -> Buffer {
        buf(bytes, Source::Input { arg, kept: false })
    }

    fn launch(kernel: &str, args: &[u32]) -> Step {
        Step::Launch {
            kernel: kernel.into(),
            args: args.to_vec(),
        }
    }

    /// Checks the invariant every plan keeps: aligned offsets inside the arena, and no
    /// two buffers of different storage live at one step share a byte.
    fn assert_no_overlap(p: &Plan) {
        let (classes, intervals) = p.liveness().unwrap();
        for (i, a) in p.buffers.iter().enumerate() {
            assert_eq!(a.offset % ARENA_ALIGN, 0, "buffer {i} unaligned");
            assert!(a.offset + a.bytes <= p.arena_bytes, "buffer {i} outside");
            for (j, b) in p.buffers.iter().enumerate().skip(i + 1) {
                let (ci, cj) = (classes[i], classes[j]);
                if ci == cj || a.bytes == 0 || b.bytes == 0 {
                    continue;
                }
                if intervals[ci].overlaps(&intervals[cj]) {
                    assert!(
                        a.offset + a.bytes <= b.offset || b.offset + b.bytes <= a.offset,
                        "buffers {i} and {j} are live together and overlap: {p:#?}"
                    );
                }
            }
        }
    }

    /// A plan of dynamic dims binds sizes from the arguments' shapes (static
    /// dims must match, sizes stay within their bounds and agree), pads each
    /// argument to its bound's buffer and cuts the results to their shapes.
    #[test]
    fn dynamic_plans_bind_pad_and_trim() {
        let shaped = |shape: Vec<i64>, source: Source| Buffer {
            offset: 0,
            bytes: shape.iter().product::<i64>() as u64 * 4,
            elem: "f32".into(),
            shape,
            source,
        };
        let mut p = Plan::new(
            "f".into(),
            vec![
                shaped(
                    vec![8, 4],
                    Source::Input {
                        arg: 0,
                        kept: false,
                    },
                ),
                shaped(
                    vec![4],
                    Source::Input {
                        arg: 1,
                        kept: false,
                    },
                ),
                shaped(vec![8, 2], Source::Step),
            ],
            vec![launch("k", &[0, 1, 2])],
            vec![0, 1],
            vec![2],
        )
        .unwrap();
        let d = |c: i64, s: &[&str]| DimExpr {
            coef: c,
            syms: s.iter().map(|x| x.to_string()).collect(),
        };
        p.dynamic = Some(Box::new(Dynamic {
            bounds: vec![("b".into(), 8)],
            args: vec![vec![d(1, &["b"]), d(4, &[])], vec![d(4, &[])]],
            results: vec![vec![d(1, &["b"]), d(2, &[])]],
            sizes: Vec::new(),
            in_place: false,
            buckets: vec![
                ("f__b2".into(), vec![("b".into(), 2)]),
                ("f__b4".into(), vec![("b".into(), 4)]),
            ],
        }));
        // The smallest bucket the sizes fit, or the plan's own bounds.
        assert_eq!(p.bucket_for(&[vec![1, 4], vec![4]]), Ok(Some("f__b2")));
        assert_eq!(p.bucket_for(&[vec![3, 4], vec![4]]), Ok(Some("f__b4")));
        assert_eq!(p.bucket_for(&[vec![4, 4], vec![4]]), Ok(Some("f__b4")));
        assert_eq!(p.bucket_for(&[vec![5, 4], vec![4]]), Ok(None));
        assert!(p.bucket_for(&[vec![9, 4], vec![4]]).is_err());
        let b = p.bind(&[vec![3, 4], vec![4]]).unwrap();
        assert_eq!(b.sizes["b"], 3);
        assert_eq!(b.input_bytes, vec![48, 16]);
        assert_eq!(b.output_shapes, vec![vec![3, 2]]);
        let x = vec![1u8; 48];
        let w = vec![2u8; 16];
        let (padded, b) = p.pad_inputs(&[&x, &w], &[vec![3, 4], vec![4]]).unwrap();
        assert_eq!(padded[0].len(), 128);
        assert!(padded[0][..48].iter().all(|v| *v == 1));
        assert!(padded[0][48..].iter().all(|v| *v == 0));
        assert_eq!(b.trim_outputs(vec![vec![7u8; 64]]), vec![vec![7u8; 24]]);
        let err = p.bind(&[vec![9, 4], vec![4]]).unwrap_err();
        assert!(err.contains("is 9, above its bound 8"), "{err}");
        let err = p.bind(&[vec![3, 5], vec![4]]).unwrap_err();
        assert!(err.contains("expected [b, 4]"), "{err}");
        let err = p.bind(&[vec![0, 4], vec![4]]).unwrap_err();
        assert!(err.contains("expected [b, 4]"), "{err}");
        assert!(
            p.pad_inputs(&[&x[..40], &w], &[vec![3, 4], vec![4]])
                .is_err()
        );
        // A static plan binds to its own shapes only.
        p.dynamic = None;
        assert!(p.bind(&[vec![8, 4], vec![4]]).is_ok());
        assert!(p.bind(&[vec![3, 4], vec![4]]).is_err());
    }

    /// Dynamic dims that do not lead (`[b, 2, s]`) are padded in each dim:
    /// an argument lands in the corner of its buffer, a result is read from
    /// the corner of its own, and the size inputs follow the arguments.
    #[test]
    fn dynamic_plans_pad_each_dim_and_pass_sizes() {
        let shaped = |shape: Vec<i64>, elem: &str, source: Source| Buffer {
            offset: 0,
            bytes: shape.iter().product::<i64>() as u64 * 4,
            elem: elem.into(),
            shape,
            source,
        };
        let input = |arg| Source::Input { arg, kept: false };
        let mut p = Plan::new(
            "f".into(),
            vec![
                shaped(vec![4, 2, 8], "f32", input(0)),
                shaped(vec![], "i32", input(1)),
                shaped(vec![], "i32", input(2)),
                shaped(vec![4, 8], "f32", Source::Step),
            ],
            vec![launch("k", &[0, 1, 2, 3])],
            vec![0, 1, 2],
            vec![3],
        )
        .unwrap();
        let d = |c: i64, s: &[&str]| DimExpr {
            coef: c,
            syms: s.iter().map(|x| x.to_string()).collect(),
        };
        p.dynamic = Some(Box::new(Dynamic {
            bounds: vec![("b".into(), 4), ("s".into(), 8)],
            args: vec![vec![d(1, &["b"]), d(2, &[]), d(1, &["s"])]],
            results: vec![vec![d(1, &["b"]), d(1, &["s"])]],
            sizes: vec!["b".into(), "s".into()],
            in_place: true,
            buckets: Vec::new(),
        }));
        // x[i, j, k] = 100 i + 10 j + k, as f32 bytes, at b = 3, s = 5.
        let x: Vec<u8> = (0..3)
            .flat_map(|i| {
                (0..2).flat_map(move |j| (0..5).map(move |k| (100 * i + 10 * j + k) as f32))
            })
            .flat_map(f32::to_le_bytes)
            .collect();
        let (padded, b) = p.pad_inputs(&[&x], &[vec![3, 2, 5]]).unwrap();
        assert_eq!(padded.len(), 3);
        let at = |i: usize, j: usize, k: usize| {
            let o = ((i * 2 + j) * 8 + k) * 4;
            f32::from_le_bytes(padded[0][o..o + 4].try_into().unwrap())
        };
        assert_eq!(at(2, 1, 4), 214.0);
        assert_eq!(at(1, 0, 3), 103.0);
        assert_eq!(at(1, 0, 5), 0.0);
        assert_eq!(at(3, 0, 0), 0.0);
        assert_eq!(padded[1], 3i32.to_le_bytes());
        assert_eq!(padded[2], 5i32.to_le_bytes());
        assert_eq!(b.size_inputs, vec![3, 5]);
        // What a device call copies: one run per row of the corner (3 x 2 rows
        // of 5 floats, each at its row of 8 in the buffer), a result's rows back.
        let runs = p.input_runs(&b, 0, &[3, 2, 5]).unwrap();
        assert_eq!(runs.len(), 6);
        assert_eq!(runs[0], (0, 0, 20));
        assert_eq!(runs[5], (5 * 20, (2 * 2 + 1) * 32, 20));
        assert!(p.input_runs(&b, 0, &[3, 2, 9]).is_err());
        assert_eq!(b.output_runs(0)[2], (2 * 20, 2 * 32, 20));
        // A result [b, s] read from the corner of its [4, 8] buffer.
        let y: Vec<u8> = (0..32).flat_map(|e| (e as f32).to_le_bytes()).collect();
        let out = b.trim_outputs(vec![y]);
        let got: Vec<f32> = out[0]
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let want: Vec<f32> = (0..3)
            .flat_map(|i| (0..5).map(move |k| (i * 8 + k) as f32))
            .collect();
        assert_eq!(got, want);
        // The caller passes no sizes: three arguments are one too many.
        assert!(p.bind(&[vec![3, 2, 5], vec![], vec![]]).is_err());
    }

    /// x -> k0 -> t -> k1 -> u -> k2 -> y: t and y may share bytes, u may not share
    /// with either neighbour.
    #[test]
    fn a_chain_reuses_dead_buffers() {
        let p = Plan::new(
            "f".into(),
            vec![
                input(0, 1000),
                buf(1000, Source::Step),
                buf(1000, Source::Step),
                buf(1000, Source::Step),
            ],
            vec![
                launch("k0", &[0, 1]),
                launch("k1", &[1, 2]),
                launch("k2", &[2, 3]),
            ],
            vec![0],
            vec![3],
        )
        .unwrap();
        assert_no_overlap(&p);
        assert_eq!(p.tensor_bytes, 4000);
        // Two 1024-byte slots suffice: x/u and t/y alternate.
        assert_eq!(p.arena_bytes, 2048);
        assert_eq!(p.buffers[0].offset, p.buffers[2].offset);
        assert_eq!(p.buffers[1].offset, p.buffers[3].offset);
        assert_ne!(p.buffers[1].offset, p.buffers[2].offset);
    }

    #[test]
    fn kept_inputs_constants_and_results_are_never_reused() {
        let p = Plan::new(
            "f".into(),
            vec![
                buf(512, Source::Input { arg: 0, kept: true }),
                buf(
                    4,
                    Source::Constant {
                        hex: "0000803f".into(),
                    },
                ),
                buf(512, Source::Step),
                buf(512, Source::Step),
                buf(512, Source::Step),
            ],
            vec![
                launch("k0", &[0, 1, 2]),
                launch("k1", &[2, 3]),
                launch("k2", &[3, 4]),
            ],
            vec![0],
            vec![2, 4],
        )
        .unwrap();
        assert_no_overlap(&p);
        let (_, iv) = p.liveness().unwrap();
        assert_eq!(
            (iv[0].start, iv[0].end),
            (0, 2),
            "a kept input lives throughout"
        );
        assert_eq!(
            (iv[1].start, iv[1].end),
            (0, 2),
            "a constant lives throughout"
        );
        assert_eq!(
            (iv[2].start, iv[2].end),
            (0, 2),
            "a result lives to the end"
        );
        assert_eq!((iv[3].start, iv[3].end), (1, 2));
        // Nothing is dead while another buffer needs room: every buffer has its own slot.
        assert_eq!(p.arena_bytes, 4 * 512 + 256);
    }

    #[test]
    fn views_share_their_source_and_extend_its_life() {
        // x -> k0 -> t; v = reshape t; k1(v) -> y. t must live until k1 reads v.
        let p = Plan::new(
            "f".into(),
            vec![
                input(0, 256),
                buf(256, Source::Step),
                buf(256, Source::Step),
                buf(256, Source::Step),
            ],
            vec![
                launch("k0", &[0, 1]),
                Step::Alias { view: 2, of: 1 },
                launch("k1", &[2, 3]),
            ],
            vec![0],
            vec![3],
        )
        .unwrap();
        assert_no_overlap(&p);
        assert_eq!(p.buffers[2].offset, p.buffers[1].offset);
        assert_ne!(p.buffers[3].offset, p.buffers[1].offset);
        let (classes, iv) = p.liveness().unwrap();
        assert_eq!(classes[2], classes[1]);
        assert_eq!((iv[classes[1]].start, iv[classes[1]].end), (0, 2));
        // Views count in the tensors' sum, not in the arena.
        assert_eq!(p.tensor_bytes, 1024);
        assert_eq!(p.arena_bytes, 512);
    }

    #[test]
    fn malformed_plans_are_errors() {
        let err = Plan::new(
            "f".into(),
            vec![input(0, 4)],
            vec![launch("k", &[0, 7])],
            vec![0],
            vec![0],
        )
        .unwrap_err();
        assert!(err.contains("step 0 names buffer 7 of 1"), "{err}");
        let err = Plan::new(
            "f".into(),
            vec![input(0, 4), buf(4, Source::Step)],
            vec![
                Step::Alias { view: 1, of: 0 },
                Step::Alias { view: 0, of: 1 },
            ],
            vec![0],
            vec![1],
        )
        .unwrap_err();
        assert!(err.contains("a view of itself"), "{err}");
    }

    fn kernel(name: &str, sizes: &[(u64, bool)]) -> KernelInfo {
        KernelInfo {
            name: name.into(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            shared_bytes: 0,
            params: sizes
                .iter()
                .map(|&(bytes, output)| Param {
                    elem: "f32".into(),
                    shape: vec![(bytes / 4) as i64],
                    bytes,
                    output,
                })
                .collect(),
            kind: None,
            flops: None,
            tune: None,
            tensor_maps: Vec::new(),
        }
    }

    #[test]
    fn validate_rejects_plans_that_would_run_outside_the_arena() {
        let mut p = Plan::new(
            "f".into(),
            vec![input(0, 8), buf(8, Source::Step)],
            vec![launch("k", &[0, 1])],
            vec![0],
            vec![1],
        )
        .unwrap();
        let ks = [kernel("k", &[(8, false), (8, true)])];
        p.validate(&ks).unwrap();
        assert!(p.validate(&[]).unwrap_err().contains("not in the bundle"));
        let big = [kernel("k", &[(8, false), (16, true)])];
        assert!(
            p.validate(&big)
                .unwrap_err()
                .contains("the kernel reads 16")
        );
        p.buffers[1].offset = p.arena_bytes;
        assert!(p.validate(&ks).unwrap_err().contains("outside the"));
    }

    #[test]
    fn host_run_stages_kernels_over_the_arena() {
        // y = (x + c) * 2, with c a constant and the kernels written in Rust.
        let p = Plan::new(
            "f".into(),
            vec![
                input(0, 8),
                buf(
                    8,
                    Source::Constant {
                        hex: encode_hex(&[1, 2, 3, 4, 5, 6, 7, 8]),
                    },
                ),
                buf(8, Source::Step),
                buf(8, Source::Step),
                buf(8, Source::Step),
            ],
            vec![
                launch("add", &[0, 1, 2]),
                Step::Alias { view: 3, of: 2 },
                launch("dbl", &[3, 4]),
            ],
            vec![0],
            vec![4],
        )
        .unwrap();
        let ks = [
            kernel("add", &[(8, false), (8, false), (8, true)]),
            kernel("dbl", &[(8, false), (8, true)]),
        ];
        p.validate(&ks).unwrap();
        let mut ran = Vec::new();
        let out = p
            .run_host(
                &ks,
                &[&[10; 8]],
                &mut |k, bufs| {
                    match k.name.as_str() {
                        "add" => {
                            bufs[2] = bufs[0].iter().zip(&bufs[1]).map(|(a, b)| a + b).collect()
                        }
                        _ => bufs[1] = bufs[0].iter().map(|a| a * 2).collect(),
                    }
                    Ok(())
                },
                &mut |n| ran.push(n),
            )
            .unwrap();
        assert_eq!(out, vec![vec![22, 24, 26, 28, 30, 32, 34, 36]]);
        assert_eq!(ran, vec![0, 1]);
        let err = p.run_host(&ks, &[&[1; 4]], &mut |_, _| Ok(()), &mut |_| {});
        assert!(err.unwrap_err().contains("is 8 bytes, 4 given"));
    }

    fn int(source: Source) -> Buffer {
        Buffer {
            offset: 0,
            bytes: 4,
            elem: "i32".into(),
            shape: Vec::new(),
            source,
        }
    }

    fn i32_kernel(name: &str, ins: usize) -> KernelInfo {
        let mut k = kernel(name, &vec![(4, false); ins]);
        k.params.push(Param {
            elem: "i32".into(),
            shape: Vec::new(),
            bytes: 4,
            output: true,
        });
        for p in &mut k.params {
            p.elem = "i32".into();
            p.shape = Vec::new();
        }
        k
    }

    fn i32_of(b: &[u8]) -> i32 {
        i32::from_le_bytes(b[..4].try_into().unwrap())
    }

    /// Host kernels of one `i32` each: `lt` (a < b), `inc` (a + 1), `add`
    /// (a + b), `k7` and `k9` (constants).
    fn run_i32(k: &KernelInfo, bufs: &mut [Vec<u8>]) -> Result<(), String> {
        let a = bufs.first().map_or(0, |b| i32_of(b));
        let b = bufs.get(1).map_or(0, |b| i32_of(b));
        let v = match k.name.as_str() {
            "lt" => i32::from(a < b),
            "inc" => a + 1,
            "add" => a + b,
            "k7" => 7,
            "k9" => 9,
            other => return Err(format!("no kernel {other}")),
        };
        *bufs.last_mut().unwrap() = v.to_le_bytes().to_vec();
        Ok(())
    }

    /// `acc = 0; for i in 0..n { acc += x }`, returning `acc` and `i`: the
    /// counter and the sum carried, `x` read by the body's second launch,
    /// `t` written by it.
    fn counted_loop() -> (Plan, Vec<KernelInfo>) {
        let p = Plan::new(
            "f".into(),
            vec![
                int(Source::Input {
                    arg: 0,
                    kept: false,
                }),
                int(Source::Constant {
                    hex: encode_hex(&0i32.to_le_bytes()),
                }),
                int(Source::Step),
                int(Source::Step),
                int(Source::Step),
                int(Source::Step),
                int(Source::Input {
                    arg: 1,
                    kept: false,
                }),
                int(Source::Step),
            ],
            vec![
                Step::Copy { from: 1, to: 2 },
                Step::Copy { from: 1, to: 5 },
                Step::While {
                    cond: vec![launch("lt", &[2, 0, 3])],
                    pred: 3,
                    body: vec![
                        launch("inc", &[2, 4]),
                        launch("add", &[5, 6, 7]),
                        Step::Copy { from: 4, to: 2 },
                        Step::Copy { from: 7, to: 5 },
                    ],
                },
            ],
            vec![0, 6],
            vec![5, 2],
        )
        .unwrap();
        let ks = vec![
            i32_kernel("lt", 2),
            i32_kernel("inc", 1),
            i32_kernel("add", 2),
        ];
        (p, ks)
    }

    #[test]
    fn a_buffer_touched_in_a_loop_lives_across_the_whole_loop() {
        let (p, ks) = counted_loop();
        p.validate(&ks).unwrap();
        assert_no_overlap(&p);
        // `x` (6) is last read before `t` (7) is first written within an
        // iteration, but the next iteration reads it again: they may not
        // share bytes; nor may the carried sum (5) and `t`, nor the counter
        // (2) and its next value (4).
        let o = |b: usize| p.buffers[b].offset;
        for (a, b) in [(6, 7), (5, 7), (2, 4), (0, 7), (3, 4)] {
            assert_ne!(o(a), o(b), "buffers {a} and {b} share bytes: {p:#?}");
        }
        for (n, x, want) in [
            (3, 5, [15, 3]),
            (0, 5, [0, 0]),
            (-2, 5, [0, 0]),
            (1, -4, [-4, 1]),
        ] {
            let mut ran = Vec::new();
            let out = p
                .run_host(
                    &ks,
                    &[&i32::to_le_bytes(n), &i32::to_le_bytes(x)],
                    &mut run_i32,
                    &mut |i| ran.push(i),
                )
                .unwrap();
            assert_eq!([i32_of(&out[0]), i32_of(&out[1])], want, "n = {n}");
            // The test runs n + 1 times, the body n times; each launch is
            // reported by its launch number.
            let trips = n.max(0) as usize;
            let mut want_ran = Vec::new();
            for _ in 0..trips {
                want_ran.extend([0, 1, 2]);
            }
            want_ran.push(0);
            assert_eq!(ran, want_ran);
        }
        let launches: Vec<&str> = p.launches(&ks).map(|(k, _)| k.name.as_str()).collect();
        assert_eq!(launches, ["lt", "inc", "add"]);
    }

    /// A choice among three branches by an `i32` argument, each branch
    /// launching a kernel and copying its result out.
    fn three_way() -> (Plan, Vec<KernelInfo>) {
        let branch = |k: &str, t: u32| vec![launch(k, &[t]), Step::Copy { from: t, to: 1 }];
        let p = Plan::new(
            "f".into(),
            vec![
                int(Source::Input {
                    arg: 0,
                    kept: false,
                }),
                int(Source::Step),
                int(Source::Step),
                int(Source::Step),
                int(Source::Step),
            ],
            vec![Step::Case {
                index: 0,
                branches: vec![branch("k7", 2), branch("k9", 3), branch("k7", 4)],
            }],
            vec![0],
            vec![1],
        )
        .unwrap();
        let ks = vec![i32_kernel("k7", 0), i32_kernel("k9", 0)];
        (p, ks)
    }

    #[test]
    fn a_case_runs_one_branch_and_clamps_its_index() {
        let (p, ks) = three_way();
        p.validate(&ks).unwrap();
        assert_no_overlap(&p);
        // Branches never run together: their temporaries may share bytes.
        assert_eq!(p.buffers[2].offset, p.buffers[3].offset);
        for (index, want, launch) in [
            (0, 7, 0),
            (1, 9, 1),
            (2, 7, 2),
            (3, 7, 2),
            (-1, 7, 2),
            (i32::MAX, 7, 2),
        ] {
            let mut ran = Vec::new();
            let out = p
                .run_host(&ks, &[&i32::to_le_bytes(index)], &mut run_i32, &mut |i| {
                    ran.push(i)
                })
                .unwrap();
            assert_eq!(i32_of(&out[0]), want, "index {index}");
            assert_eq!(ran, vec![launch], "index {index}");
        }
    }

    #[test]
    fn selectors_read_one_integer() {
        assert_eq!(selector("i1", &[1]), Some(1));
        assert_eq!(selector("i1", &[2]), Some(1));
        assert_eq!(selector("i8", &[0xff]), Some(-1));
        assert_eq!(selector("i32", &(-5i32).to_le_bytes()), Some(-5));
        assert_eq!(selector("i64", &7i64.to_le_bytes()), Some(7));
        assert_eq!(selector("f32", &[0; 4]), None);
        assert_eq!(selector("i32", &[0; 8]), None);
        assert_eq!((branch(-1, 3), branch(1, 3), branch(3, 3)), (2, 1, 2));
    }

    #[test]
    fn control_flow_plans_round_trip_through_json() {
        let (p, _) = counted_loop();
        let text = serde_json::to_string(&p).unwrap();
        assert!(text.contains(r#""kind":"while""#), "{text}");
        let back: Plan = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        let (c, _) = three_way();
        let back: Plan = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn hostile_control_flow_is_refused() {
        let (good, ks) = counted_loop();
        let refused = |p: &Plan, want: &str| {
            let e = p.validate(&ks).unwrap_err();
            assert!(e.contains(want), "{e}");
        };
        fn body(p: &mut Plan) -> &mut Vec<Step> {
            match &mut p.steps[2] {
                Step::While { body, .. } => body,
                _ => unreachable!(),
            }
        }
        // A bad index deep inside the loop.
        let mut p = good.clone();
        body(&mut p).push(launch("inc", &[2, 99]));
        refused(&p, "names buffer 99");
        let mut p = good.clone();
        if let Step::While { pred, .. } = &mut p.steps[2] {
            *pred = 8;
        }
        refused(&p, "names buffer 8");
        // A kernel the bundle lacks, nested.
        let mut p = good.clone();
        body(&mut p).push(launch("nope", &[2, 4]));
        refused(&p, "not in the bundle");
        // Copies onto themselves, into an argument, of another size, onto
        // overlapping bytes.
        let mut p = good.clone();
        body(&mut p).push(Step::Copy { from: 4, to: 4 });
        refused(&p, "onto itself");
        let mut p = good.clone();
        body(&mut p).push(Step::Copy { from: 4, to: 6 });
        refused(&p, "which no step defines");
        let mut p = good.clone();
        p.buffers.push(Buffer {
            bytes: 2,
            ..int(Source::Step)
        });
        body(&mut p).push(Step::Copy { from: 8, to: 7 });
        refused(&p, "copies 2 bytes");
        let mut p = good.clone();
        p.buffers[7].offset = p.buffers[4].offset;
        body(&mut p).push(Step::Copy { from: 4, to: 7 });
        refused(&p, "shares with");
        // A test that is not one integer.
        let mut p = good.clone();
        p.buffers[3].elem = "f32".into();
        refused(&p, "not one integer");
        // A choice of no branches.
        let mut p = good.clone();
        p.steps.push(Step::Case {
            index: 0,
            branches: vec![],
        });
        refused(&p, "no branches");
        // Nesting past the limit: refused without recursing (a manifest
        // of any depth is walked iteratively).
        let mut deep = vec![launch("inc", &[2, 4])];
        for _ in 0..MAX_NESTING + 1 {
            deep = vec![Step::Case {
                index: 0,
                branches: vec![deep],
            }];
        }
        let mut p = good.clone();
        p.steps.extend(deep);
        refused(&p, "nest deeper");
        let mut flat = good.clone();
        flat.steps.push(launch("inc", &[2, 4]));
        flat.validate(&ks).unwrap();
        // And Plan::new refuses what validate would.
        let e = Plan::new(
            "f".into(),
            good.buffers.clone(),
            vec![Step::While {
                cond: vec![],
                pred: 42,
                body: vec![],
            }],
            vec![],
            vec![],
        )
        .unwrap_err();
        assert!(e.contains("names buffer 42"), "{e}");
    }

    #[test]
    fn hex_round_trip() {
        let b = [0u8, 1, 0x7f, 0x80, 0xff];
        assert_eq!(encode_hex(&b), "00017f80ff");
        assert_eq!(decode_hex("00017f80ff").unwrap(), b);
        assert!(decode_hex("0").is_err());
        assert!(decode_hex("zz").is_err());
    }

    /// A small deterministic generator (xorshift), so the property test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    /// Random programs: random launches over earlier buffers, random views, random
    /// kept inputs and constants; every plan keeps the invariant, never uses more than
    /// one allocation per tensor would, and never less than the bytes live at any step.
    #[test]
    fn random_plans_never_overlap_live_buffers() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..500 {
            let n_inputs = 1 + rng.below(4) as usize;
            let mut buffers: Vec<Buffer> = (0..n_inputs)
                .map(|a| {
                    let kept = rng.below(2) == 0;
                    buf(
                        1 + rng.below(3000),
                        Source::Input {
                            arg: a as u32,
                            kept,
                        },
                    )
                })
                .collect();
            if rng.below(3) == 0 {
                buffers.push(buf(
                    4,
                    Source::Constant {
                        hex: "00".repeat(4),
                    },
                ));
            }
            let mut steps = Vec::new();
            for _ in 0..rng.below(12) {
                let have = buffers.len() as u64;
                if rng.below(4) == 0 {
                    let of = rng.below(have) as u32;
                    let bytes = buffers[of as usize].bytes;
                    buffers.push(buf(bytes, Source::Step));
                    steps.push(Step::Alias {
                        view: have as u32,
                        of,
                    });
                } else {
                    let mut args: Vec<u32> = (0..1 + rng.below(3))
                        .map(|_| rng.below(have) as u32)
                        .collect();
                    for _ in 0..1 + rng.below(2) {
                        args.push(buffers.len() as u32);
                        buffers.push(buf(rng.below(5000), Source::Step));
                    }
                    steps.push(Step::Launch {
                        kernel: "k".into(),
                        args,
                    });
                }
            }
            let outputs: Vec<u32> = (0..1 + rng.below(2))
                .map(|_| rng.below(buffers.len() as u64) as u32)
                .collect();
            let p = Plan::new(
                format!("case{case}"),
                buffers,
                steps,
                (0..n_inputs as u32).collect(),
                outputs,
            )
            .unwrap();
            assert_no_overlap(&p);
            let aligned: u64 = p.buffers.iter().map(|b| align(b.bytes).unwrap()).sum();
            assert!(p.arena_bytes <= aligned, "case {case}: {p:#?}");
            let (_, iv) = p.liveness().unwrap();
            for s in 0..p.steps.len() {
                let live: u64 = iv
                    .iter()
                    .filter(|i| i.start <= s && s <= i.end)
                    .map(|i| i.bytes)
                    .sum();
                assert!(p.arena_bytes >= live, "case {case}: step {s}");
            }
        }
    }

    #[test]
    fn plans_round_trip_through_json() {
        let p = Plan::new(
            "f".into(),
            vec![input(0, 4), buf(4, Source::Step)],
            vec![Step::Alias { view: 1, of: 0 }],
            vec![0],
            vec![1],
        )
        .unwrap();
        let fp = vec![
            FuncPlan::Planned(p),
            FuncPlan::Interpreted(Interpreted {
                func: "g".into(),
                ops: vec![HostOp {
                    name: "stablehlo.while".into(),
                    loc: "m.mlir:3:5".into(),
                }],
            }),
        ];
        let json = serde_json::to_string(&fp).unwrap();
        assert!(json.contains(r#""kind":"planned""#), "{json}");
        assert!(json.contains(r#""kind":"alias""#), "{json}");
        let back: Vec<FuncPlan> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, fp);
        assert_eq!(back[1].func(), "g");
        assert_eq!(
            match &back[1] {
                FuncPlan::Interpreted(i) => i.ops[0].to_string(),
                _ => String::new(),
            },
            "stablehlo.while at m.mlir:3:5"
        );
    }

    /// Two devices: each all-gathers its input, then all-reduces; a plan of
    /// groups that miss a device is refused.
    #[test]
    fn partitioned_plans_run_every_device_in_lockstep() {
        use crate::collective::{Collective, Reduction};
        let bufs = vec![input(0, 8), buf(16, Source::Step), buf(16, Source::Step)];
        let steps = vec![
            Step::Collective {
                op: Collective::AllGather { dim: 0 },
                input: 0,
                output: 1,
                groups: vec![vec![0, 1]],
            },
            Step::Collective {
                op: Collective::AllReduce {
                    reduction: Reduction::Sum,
                },
                input: 1,
                output: 2,
                groups: vec![vec![0, 1]],
            },
        ];
        let p =
            Plan::new_spmd("f".into(), bufs.clone(), steps.clone(), vec![0], vec![2], 2).unwrap();
        assert_no_overlap(&p);
        p.validate(&[]).unwrap();
        let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let (a, b) = (f(&[1.0, 2.0]), f(&[3.0, 4.0]));
        let mut never = |_: &KernelInfo, _: &mut [Vec<u8>]| -> Result<(), String> {
            unreachable!("no launches")
        };
        let outs = p
            .run_host_spmd(&[], &[vec![&a], vec![&b]], &mut never, &mut |_| {})
            .unwrap();
        let want = f(&[2.0, 4.0, 6.0, 8.0]);
        assert_eq!(outs, vec![vec![want.clone()], vec![want]]);
        // One device's run of a two-device plan is refused.
        assert!(p.run_host(&[], &[&a], &mut never, &mut |_| {}).is_err());
        // Groups must cover every device once.
        let mut bad = steps.clone();
        if let Step::Collective { groups, .. } = &mut bad[0] {
            *groups = vec![vec![0, 0]];
        }
        assert!(Plan::new_spmd("f".into(), bufs.clone(), bad, vec![0], vec![2], 2).is_err());
        // Sizes must fit the op: an all-gather into a buffer of the input's size.
        let mut bad = steps;
        if let Step::Collective { output, .. } = &mut bad[0] {
            *output = 0;
        }
        assert!(Plan::new_spmd("f".into(), bufs, bad, vec![0], vec![2], 2).is_err());
    }
}
