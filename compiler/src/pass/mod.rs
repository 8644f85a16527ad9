//! The pass manager: passes anchored on an op name (or any op), nested pass
//! managers, a registry of passes with typed options, MLIR's textual pipeline
//! syntax, verification after every pass and MLIR's instrumentation (IR printing
//! before/after passes, timing).
//!
//! A pass is registered once as a [`PassInfo`] (flag, description, anchor, option
//! specs, constructor); the registry turns `canonicalize{max-iterations=4}` into a
//! configured pass. Pipelines are trees of [`OpPassManager`]s: each runs its passes
//! on the op it is given and its nested managers on the ops directly inside that op's
//! regions whose name matches their anchor.

pub mod pipeline;

use crate::diagnostics::Diagnostic;
use crate::ir::{Context, Op};
use crate::op_printer::{PrintOptions, print_op};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A transformation over one op (and what it contains).
pub trait Pass: Send + Sync {
    /// The registered description of this pass.
    fn info(&self) -> &'static PassInfo;
    /// Run on `op`; `Ok(true)` when the IR changed. A failure carries its diagnostic.
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic>;
}

/// The type of a pass option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptKind {
    /// `true`/`false` (also `1`/`0`); a bare `name` means true.
    Bool,
    /// A signed integer.
    Int,
    /// An unsigned integer.
    UInt,
    /// A string.
    Str,
    /// A comma-separated list of strings.
    StrList,
    /// One of the given words.
    Enum(&'static [&'static str]),
}

impl std::fmt::Display for OptKind {
    /// How `--list-passes` shows the type: `bool`, `int`, ..., or the enum's
    /// words separated by `|`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptKind::Bool => f.write_str("bool"),
            OptKind::Int => f.write_str("int"),
            OptKind::UInt => f.write_str("uint"),
            OptKind::Str => f.write_str("string"),
            OptKind::StrList => f.write_str("string,..."),
            OptKind::Enum(words) => f.write_str(&words.join("|")),
        }
    }
}

/// A pass option: name, type, default and help.
#[derive(Clone, Copy, Debug)]
pub struct OptSpec {
    /// Name as written in pipelines and on the command line (`max-iterations`).
    pub name: &'static str,
    /// Its type.
    pub kind: OptKind,
    /// Default value, in textual form.
    pub default: &'static str,
    /// The values that make sense for an `Int` or `UInt` option (inclusive): a
    /// value outside is rejected when the pipeline is parsed.
    pub range: Option<(i64, i64)>,
    /// One-line help.
    pub help: &'static str,
}

impl OptSpec {
    /// Whether `v` (written `text`) lies in the option's range.
    fn check_range(&self, text: &str, v: i128) -> Result<(), String> {
        match self.range {
            Some((lo, hi)) if !(i128::from(lo)..=i128::from(hi)).contains(&v) => Err(format!(
                "for the --{} option: '{text}' value is out of range: expected {lo} to {hi}",
                self.name
            )),
            _ => Ok(()),
        }
    }
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptValue {
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A string.
    Str(String),
    /// A list of strings.
    StrList(Vec<String>),
}

impl OptValue {
    /// Parse `text` as a value of `kind`, with LLVM's wording on failure.
    pub fn parse(spec: &OptSpec, text: &str) -> Result<OptValue, String> {
        let bad = |what: &str| {
            format!(
                "for the --{} option: '{text}' value invalid for {what} argument!",
                spec.name
            )
        };
        Ok(match spec.kind {
            OptKind::Bool => match text {
                "" | "true" | "TRUE" | "True" | "1" => OptValue::Bool(true),
                "false" | "FALSE" | "False" | "0" => OptValue::Bool(false),
                _ => return Err(bad("boolean")),
            },
            OptKind::Int => {
                let v: i64 = text.parse().map_err(|_| bad("long"))?;
                spec.check_range(text, i128::from(v))?;
                OptValue::Int(v)
            }
            OptKind::UInt => {
                let v: u64 = text.parse().map_err(|_| bad("uint"))?;
                spec.check_range(text, i128::from(v))?;
                OptValue::UInt(v)
            }
            OptKind::Str => OptValue::Str(text.to_string()),
            OptKind::Enum(words) => {
                if !words.contains(&text) {
                    return Err(format!(
                        "for the --{} option: Cannot find option named '{text}'!",
                        spec.name
                    ));
                }
                OptValue::Str(text.to_string())
            }
            OptKind::StrList => OptValue::StrList(
                text.split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
        })
    }
}

/// The options a pass was created with: every option of its spec, defaulted.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: Vec<(&'static str, OptValue)>,
}

impl PassOptions {
    /// Options from `key=value` pairs over the defaults of `specs`.
    pub fn new(specs: &'static [OptSpec], given: &[(String, String)]) -> Result<Self, String> {
        let mut values = Vec::with_capacity(specs.len());
        for s in specs {
            values.push((
                s.name,
                OptValue::parse(s, s.default).expect("valid default"),
            ));
        }
        for (k, v) in given {
            let Some(i) = specs.iter().position(|s| s.name == k) else {
                return Err(format!("<Pass-Options-Parser>: no such option {k}"));
            };
            values[i].1 = OptValue::parse(&specs[i], v)?;
        }
        Ok(PassOptions { values })
    }
    fn get(&self, name: &str) -> &OptValue {
        &self
            .values
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("pass reads an undeclared option '{name}'"))
            .1
    }
    /// A boolean option.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), OptValue::Bool(true))
    }
    /// An integer option.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptValue::Int(v) => *v,
            OptValue::UInt(v) => *v as i64,
            _ => 0,
        }
    }
    /// A string option.
    pub fn str(&self, name: &str) -> &str {
        match self.get(name) {
            OptValue::Str(s) => s,
            _ => "",
        }
    }
    /// A string-list option.
    pub fn list(&self, name: &str) -> &[String] {
        match self.get(name) {
            OptValue::StrList(v) => v,
            _ => &[],
        }
    }
}

/// A registered pass.
pub struct PassInfo {
    /// Command-line flag and pipeline name (`cse`).
    pub flag: &'static str,
    /// Name shown in IR dumps and timing (`CSE`).
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Op name the pass must run on; `None` for any op.
    pub anchor: Option<&'static str>,
    /// Its options.
    pub options: &'static [OptSpec],
    /// Build the pass from its options.
    pub create: fn(&PassOptions) -> Box<dyn Pass>,
}

/// Every pass a tool knows, by flag.
#[derive(Default)]
pub struct PassRegistry {
    passes: Vec<&'static PassInfo>,
    by_flag: HashMap<&'static str, usize>,
}

impl PassRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }
    /// Register a pass (a second registration of a flag is ignored).
    pub fn register(&mut self, p: &'static PassInfo) {
        if !self.by_flag.contains_key(p.flag) {
            self.by_flag.insert(p.flag, self.passes.len());
            self.passes.push(p);
        }
    }
    /// The pass registered under `flag`.
    pub fn get(&self, flag: &str) -> Option<&'static PassInfo> {
        self.by_flag.get(flag).map(|&i| self.passes[i])
    }
    /// All passes, sorted by flag.
    pub fn all(&self) -> Vec<&'static PassInfo> {
        let mut v = self.passes.clone();
        v.sort_by_key(|p| p.flag);
        v
    }
}

/// A pass with the options it was created from.
pub struct PassEntry {
    /// The pass.
    pub pass: Box<dyn Pass>,
    /// Its options as written (`max-iterations=4`), for printing the pipeline.
    pub options_text: String,
}

/// One step of a pipeline.
pub enum Element {
    /// A pass run on the manager's op.
    Pass(PassEntry),
    /// A nested manager run on matching ops directly inside the manager's op.
    Nested(OpPassManager),
}

/// A list of passes and nested managers anchored on an op name (`any` for any op).
pub struct OpPassManager {
    /// Op name the manager runs on, or `any`.
    pub anchor: String,
    /// Steps, in order.
    pub elements: Vec<Element>,
}

impl OpPassManager {
    /// An empty manager on `anchor`.
    pub fn new(anchor: &str) -> Self {
        OpPassManager {
            anchor: anchor.to_string(),
            elements: Vec::new(),
        }
    }
    /// Whether this manager may run on an op named `name`.
    pub fn accepts(&self, name: &str) -> bool {
        self.anchor == "any" || self.anchor == name
    }
    /// Add a pass, nesting it implicitly (as mlir-opt does) when it is anchored on
    /// another op than this manager's: a trailing nested manager on that op is reused.
    pub fn add_pass(&mut self, entry: PassEntry) {
        match entry.pass.info().anchor {
            Some(a) if !self.accepts(a) => {
                if let Some(Element::Nested(n)) = self.elements.last_mut()
                    && n.anchor == a
                {
                    n.elements.push(Element::Pass(entry));
                    return;
                }
                let mut n = OpPassManager::new(a);
                n.elements.push(Element::Pass(entry));
                self.elements.push(Element::Nested(n));
            }
            _ => self.elements.push(Element::Pass(entry)),
        }
    }
    /// The pipeline in MLIR's textual form: `builtin.module(func.func(cse))`.
    pub fn text(&self) -> String {
        let mut out = format!("{}(", self.anchor);
        write_list(&mut out, &self.elements);
        out.push(')');
        out
    }

    /// The pipeline that reruns only the step at `path` (indices from this
    /// manager down, as [`PassRunner::failure_path`] gives them), anchored: the
    /// top-level step it lies in, its nested managers cut after the step (their
    /// earlier steps kept, since they run on the IR first):
    /// `builtin.module(func.func(cse,canonicalize{max-iterations=4}))`.
    pub fn text_up_to(&self, path: &[usize]) -> String {
        let mut out = format!("{}(", self.anchor);
        let mut pm = self;
        let mut opened = 1;
        for (level, &i) in path.iter().enumerate() {
            let Some(e) = pm.elements.get(i) else { break };
            if level > 0 {
                write_list(&mut out, &pm.elements[..i]);
                if i > 0 {
                    out.push(',');
                }
            }
            match e {
                Element::Nested(n) if level + 1 < path.len() => {
                    out.push_str(&n.anchor);
                    out.push('(');
                    opened += 1;
                    pm = n;
                }
                _ => {
                    write_list(&mut out, std::slice::from_ref(e));
                    break;
                }
            }
        }
        out.push_str(&")".repeat(opened));
        out
    }
}

/// `elements` in textual form, comma-separated. Printed with an explicit stack, so
/// that managers nested however deep print in constant native stack.
fn write_list(out: &mut String, elements: &[Element]) {
    // Each open list with the index of its next element; an inner list closes
    // with ')'.
    let mut stack: Vec<(&[Element], usize)> = vec![(elements, 0)];
    while let Some((list, i)) = stack.pop() {
        let Some(e) = list.get(i) else {
            if !stack.is_empty() {
                out.push(')');
            }
            continue;
        };
        if i > 0 {
            out.push(',');
        }
        stack.push((list, i + 1));
        match e {
            Element::Pass(p) => {
                out.push_str(p.pass.info().flag);
                if !p.options_text.is_empty() {
                    out.push('{');
                    out.push_str(&p.options_text);
                    out.push('}');
                }
            }
            Element::Nested(n) => {
                out.push_str(&n.anchor);
                out.push('(');
                stack.push((&n.elements, 0));
            }
        }
    }
}

impl Drop for OpPassManager {
    /// Nested managers are taken apart with an explicit stack: dropping a pipeline
    /// nested however deep needs constant native stack.
    fn drop(&mut self) {
        let mut stack: Vec<OpPassManager> = Vec::new();
        let take = |elements: &mut Vec<Element>, stack: &mut Vec<OpPassManager>| {
            stack.extend(elements.drain(..).filter_map(|e| match e {
                Element::Nested(n) => Some(n),
                Element::Pass(_) => None,
            }))
        };
        take(&mut self.elements, &mut stack);
        while let Some(mut n) = stack.pop() {
            take(&mut n.elements, &mut stack);
        }
    }
}

/// Which passes an IR dump (or optimisation remarks) applies to.
#[derive(Clone, Debug, Default)]
pub enum PassFilter {
    /// None.
    #[default]
    None,
    /// Every pass.
    All,
    /// Passes with these flags.
    Flags(Vec<String>),
}

impl PassFilter {
    /// Whether the pass with this flag is selected.
    pub fn matches(&self, flag: &str) -> bool {
        match self {
            PassFilter::None => false,
            PassFilter::All => true,
            PassFilter::Flags(fs) => fs.iter().any(|f| f == flag),
        }
    }
}

/// How a pipeline run is observed: MLIR's `--mlir-print-ir-*`, `--mlir-timing`
/// and `--verify-each`.
#[derive(Clone, Debug)]
pub struct Instrumentation {
    /// Verify the IR after every pass.
    pub verify_each: bool,
    /// Dump the IR before these passes.
    pub print_before: PassFilter,
    /// Dump the IR after these passes.
    pub print_after: PassFilter,
    /// Only dump after a pass when it changed the IR.
    pub print_after_change: bool,
    /// Dump the IR after a pass that failed.
    pub print_after_failure: bool,
    /// How dumped IR is printed.
    pub print: PrintOptions,
    /// Collect wall times per pass.
    pub timing: bool,
    /// Run nested pipelines on sibling isolated-from-above ops (functions) on
    /// several threads (off with `--mlir-disable-threading`).
    pub threading: bool,
}

impl Default for Instrumentation {
    fn default() -> Self {
        Instrumentation {
            verify_each: true,
            print_before: PassFilter::None,
            print_after: PassFilter::None,
            print_after_change: false,
            print_after_failure: false,
            print: PrintOptions::default(),
            timing: false,
            threading: true,
        }
    }
}

/// Wall time of one pass or nested manager, with its children, for `--mlir-timing`.
#[derive(Clone, Debug, Default)]
pub struct TimingNode {
    /// Pass name or manager anchor.
    pub name: String,
    /// Accumulated wall time.
    pub time: Duration,
    /// Nested entries, in first-run order.
    pub children: Vec<TimingNode>,
}

impl TimingNode {
    fn child(&mut self, name: &str) -> &mut TimingNode {
        let i = match self.children.iter().position(|c| c.name == name) {
            Some(i) => i,
            None => {
                self.children.push(TimingNode {
                    name: name.to_string(),
                    ..Default::default()
                });
                self.children.len() - 1
            }
        };
        &mut self.children[i]
    }
    /// MLIR's execution time report; `extra` are top-level phases measured by the tool
    /// (parser, output) around the pipeline.
    pub fn report(
        &self,
        extra_before: &[(&str, Duration)],
        extra_after: &[(&str, Duration)],
    ) -> String {
        let total: Duration = extra_before.iter().map(|e| e.1).sum::<Duration>()
            + self.time
            + extra_after.iter().map(|e| e.1).sum::<Duration>();
        let t = total.as_secs_f64().max(1e-9);
        let mut out = String::new();
        out.push_str(
            "===-------------------------------------------------------------------------===\n",
        );
        out.push_str("                         ... Execution time report ...\n");
        out.push_str(
            "===-------------------------------------------------------------------------===\n",
        );
        out.push_str(&format!(
            "  Total Execution Time: {:.4} seconds\n\n",
            total.as_secs_f64()
        ));
        out.push_str("  ----Wall Time----  ----Name----\n");
        let line = |out: &mut String, d: Duration, depth: usize, name: &str| {
            out.push_str(&format!(
                "  {:8.4} ({:5.1}%)  {}{}\n",
                d.as_secs_f64(),
                100.0 * d.as_secs_f64() / t,
                "  ".repeat(depth),
                name
            ));
        };
        for (n, d) in extra_before {
            line(&mut out, *d, 0, n);
        }
        let mut stack: Vec<(&TimingNode, usize)> =
            self.children.iter().rev().map(|c| (c, 0)).collect();
        while let Some((n, depth)) = stack.pop() {
            line(&mut out, n.time, depth, &n.name);
            stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
        }
        for (n, d) in extra_after {
            line(&mut out, *d, 0, n);
        }
        line(&mut out, total, 0, "Total");
        out
    }
}

/// Runs a pipeline with its instrumentation; IR dumps go to `dumps`.
pub struct PassRunner<'a> {
    /// How the run is observed.
    pub inst: &'a Instrumentation,
    /// Where IR dumps are written (standard error in aic-opt).
    pub dumps: &'a mut dyn std::io::Write,
    /// Pass timings (when enabled).
    pub timing: TimingNode,
    /// Where the last failure happened, innermost index first.
    fail_path: Vec<usize>,
}

impl<'a> PassRunner<'a> {
    /// A runner writing dumps to `dumps`.
    pub fn new(inst: &'a Instrumentation, dumps: &'a mut dyn std::io::Write) -> Self {
        PassRunner {
            inst,
            dumps,
            timing: TimingNode::default(),
            fail_path: Vec::new(),
        }
    }

    /// Where the failure of the last [`run`](Self::run) happened: the index of
    /// the step in the pipeline, then in the nested manager that step is, and so
    /// on down to the failing pass (for [`OpPassManager::text_up_to`]).
    pub fn failure_path(&self) -> Vec<usize> {
        self.fail_path.iter().rev().copied().collect()
    }

    /// Run `pm` on `op`, which must match its anchor.
    pub fn run(&mut self, pm: &OpPassManager, ctx: &mut Context, op: Op) -> Result<(), Diagnostic> {
        self.run_prefix(pm, ctx, op, pm.elements.len())
    }

    /// Run the first `steps` top-level steps of `pm` on `op` (what a reproducer
    /// reruns to get the IR a failing step saw).
    pub fn run_prefix(
        &mut self,
        pm: &OpPassManager,
        ctx: &mut Context,
        op: Op,
        steps: usize,
    ) -> Result<(), Diagnostic> {
        self.fail_path.clear();
        if !pm.accepts(ctx.op_name(op)) {
            return Err(Diagnostic::error(format!(
                "can't run '{}' pass manager on '{}' op",
                pm.anchor,
                ctx.op_name(op)
            ))
            .at_loc(ctx.op(op).loc));
        }
        let start = Instant::now();
        let mut timing = std::mem::take(&mut self.timing);
        let r = self.run_on(pm, steps, ctx, op, &mut timing);
        timing.time += start.elapsed();
        self.timing = timing;
        r
    }

    fn run_on(
        &mut self,
        pm: &OpPassManager,
        steps: usize,
        ctx: &mut Context,
        op: Op,
        timing: &mut TimingNode,
    ) -> Result<(), Diagnostic> {
        for (i, e) in pm.elements.iter().take(steps).enumerate() {
            self.run_element(e, ctx, op, timing).inspect_err(|_| {
                self.fail_path.push(i);
            })?;
        }
        Ok(())
    }

    fn run_element(
        &mut self,
        e: &Element,
        ctx: &mut Context,
        op: Op,
        timing: &mut TimingNode,
    ) -> Result<(), Diagnostic> {
        match e {
            Element::Pass(p) => self.run_pass(p, ctx, op, timing)?,
            Element::Nested(n) => {
                let targets: Vec<Op> = ctx
                    .regions(op)
                    .to_vec()
                    .into_iter()
                    .flat_map(|r| ctx.region_blocks(r).collect::<Vec<_>>())
                    .flat_map(|b| ctx.block_ops(b).collect::<Vec<_>>())
                    .filter(|o| n.accepts(ctx.op_name(*o)))
                    .collect();
                let node = timing.child(&format!("'{}' Pipeline", n.anchor));
                let start = Instant::now();
                if self.can_run_in_parallel(ctx, &targets) {
                    run_parallel(self.inst, n, ctx, &targets).map_err(|f| {
                        let (d, path) = *f;
                        self.fail_path = path;
                        d
                    })?;
                } else {
                    for t in targets {
                        self.run_on(n, n.elements.len(), ctx, t, node)?;
                    }
                }
                node.time += start.elapsed();
            }
        }
        Ok(())
    }

    /// Whether the nested pipeline may run on `targets` concurrently: threading is
    /// on, there are several targets and all are isolated from above (so nothing
    /// one pass run does is visible to another), and no instrumentation needs the
    /// runs in order (IR dumps and timings are per pass, in sequence).
    fn can_run_in_parallel(&self, ctx: &Context, targets: &[Op]) -> bool {
        let i = self.inst;
        i.threading
            && targets.len() >= 2
            && !i.timing
            && !i.print_after_failure
            && matches!(i.print_before, PassFilter::None)
            && matches!(i.print_after, PassFilter::None)
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
            && targets.iter().all(|t| {
                ctx.op_spec(*t)
                    .is_some_and(|s| s.has(crate::dialect::Traits::ISOLATED_FROM_ABOVE))
            })
    }

    fn dump(&mut self, when: &str, info: &PassInfo, ctx: &Context, op: Op) {
        let text = print_op(ctx, op, self.inst.print);
        let _ = write!(
            self.dumps,
            "// -----// IR Dump {when} {} ({}) //----- //\n{text}\n\n",
            info.name, info.flag
        );
    }

    fn run_pass(
        &mut self,
        p: &PassEntry,
        ctx: &mut Context,
        op: Op,
        timing: &mut TimingNode,
    ) -> Result<(), Diagnostic> {
        let info = p.pass.info();
        if let Some(a) = info.anchor
            && a != ctx.op_name(op)
        {
            return Err(Diagnostic::error(format!(
                "pass '{}' is restricted to '{a}' ops but was run on '{}'",
                info.flag,
                ctx.op_name(op)
            ))
            .at_loc(ctx.op(op).loc));
        }
        if self.inst.print_before.matches(info.flag) {
            self.dump("Before", info, ctx, op);
        }
        let start = Instant::now();
        let outer = ctx.set_remark_pass(Some(info.flag));
        // A panicking pass is a failing one: its diagnostic names the pass (the
        // IR it leaves is not used, beyond an `--mlir-print-ir-after-failure` dump).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.pass.run(ctx, op)))
            .unwrap_or_else(|payload| {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                Err(
                    Diagnostic::error(format!("pass '{}' panicked: {what}", info.flag))
                        .at_loc(ctx.op(op).loc),
                )
            });
        ctx.set_remark_pass(outer);
        timing.child(info.name).time += start.elapsed();
        let changed = match result {
            Ok(c) => c,
            Err(d) => {
                if self.inst.print_after_failure {
                    self.dump("After Failed", info, ctx, op);
                }
                return Err(d);
            }
        };
        if self.inst.verify_each
            && let Err(d) = crate::verifier::verify(ctx, op)
        {
            if self.inst.print_after_failure {
                self.dump("After Failed", info, ctx, op);
            }
            return Err(d);
        }
        if self.inst.print_after.matches(info.flag) && (changed || !self.inst.print_after_change) {
            self.dump("After", info, ctx, op);
        }
        Ok(())
    }
}

/// A failure on a worker thread: its diagnostic and where it happened
/// (innermost index first).
type ParallelFailure = Box<(Diagnostic, Vec<usize>)>;

/// Run `pm` on each of `targets` on a pool of threads: each target is extracted
/// into a context of its own (see [`Context::extract`]), worked on, and put back in
/// IR order. Targets go in batches, so that only a batch's copies exist at once.
/// The result equals a sequential run's: the first failure in IR order is
/// reported, and targets after it are left alone.
fn run_parallel(
    inst: &Instrumentation,
    pm: &OpPassManager,
    ctx: &mut Context,
    targets: &[Op],
) -> Result<(), ParallelFailure> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    for batch in targets.chunks(workers * 16) {
        run_batch(inst, pm, ctx, batch, workers)?;
    }
    Ok(())
}

fn run_batch(
    inst: &Instrumentation,
    pm: &OpPassManager,
    ctx: &mut Context,
    targets: &[Op],
    workers: usize,
) -> Result<(), ParallelFailure> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    type Slot = Mutex<Option<(Context, Op, Result<(), ParallelFailure>)>>;
    let jobs: Vec<Slot> = targets.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let shared: &Context = ctx;
    std::thread::scope(|s| {
        for _ in 0..workers.min(jobs.len()) {
            s.spawn(|| {
                let mut sink = std::io::sink();
                let mut runner = PassRunner::new(inst, &mut sink);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(slot), Some(t)) = (jobs.get(i), targets.get(i)) else {
                        break;
                    };
                    // Copying out only reads the shared IR, so it runs in the
                    // workers too; putting back needs it exclusively.
                    let (mut sub, op) = shared.extract(*t);
                    let mut timing = TimingNode::default();
                    let result = runner
                        .run_on(pm, pm.elements.len(), &mut sub, op, &mut timing)
                        .map_err(|d| Box::new((d, std::mem::take(&mut runner.fail_path))));
                    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((sub, op, result));
                }
            });
        }
    });
    let mut first_error = None;
    for (t, slot) in targets.iter().zip(jobs) {
        let Some((mut sub, op, result)) = slot.into_inner().unwrap_or_else(|e| e.into_inner())
        else {
            continue;
        };
        ctx.restore_extracted(*t, &sub, op);
        ctx.add_remarks(sub.take_remarks());
        if let Err(d) = result
            && first_error.is_none()
        {
            first_error = Some(d);
        }
    }
    first_error.map_or(Ok(()), Err)
}
