//! `aic-opt`: parse, verify and print MLIR-syntax files (mlir-opt's sibling).
//!
//! Parses, verifies, runs a pass pipeline and prints, as mlir-opt does; a
//! failing pass leaves a reproducer.

use aic::op_printer::{PrintOptions, print_op, print_op_to};
use aic::pass::pipeline::{add_pass, parse_pipeline};
use aic::pass::{Instrumentation, OpPassManager, PassFilter, PassRunner, TimingNode};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, Diagnostic, Severity, SourceMap, Where};
use aic_tools::output::{self, Output};
use aic_tools::reproducer;
use aic_tools::verify_diagnostics::{Report, check_report};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

const HELP: &str = "OVERVIEW: aic modular optimizer driver

USAGE: aic-opt [options] [input file]   (reads standard input when no file or '-')

OPTIONS:
  -o <file>                       Output file (default: standard output)
  --allow-unregistered-dialect    Accept ops of dialects that are not registered
  --mlir-print-op-generic         Print ops in generic form
  --mlir-print-debuginfo          Print locations
  --eqsat-report                  Report every eqsat-fusion run (e-graph size, stop
                                  reason, time, kernels and HBM bytes before/after)
  --mlir-print-elementsattrs-with-hex-if-larger=<n>
                                  Print dense elements attributes of more than n
                                  elements as hex strings (default 100; -1: never)
  --split-input-file              Process each '// -----' chunk separately
  --verify-diagnostics            Check that emitted diagnostics match expected-* lines
                                  on the corresponding line (each chunk on its own)
  --show-dialects                 List registered dialects
  --pass-pipeline=<pipeline>      Run a textual pipeline: 'builtin.module(func.func(cse))'
  --<pass>[=<options>]            Run a registered pass (see --list-passes), in order
  --list-passes                   List registered passes and their options
  --verify-each=<bool>            Verify the IR after every pass (default true)
  --mlir-print-ir-before=<pass>   Print the IR before the given passes (comma list)
  --mlir-print-ir-after=<pass>    Print the IR after the given passes (comma list)
  --mlir-print-ir-before-all      Print the IR before every pass
  --mlir-print-ir-after-all       Print the IR after every pass
  --mlir-print-ir-after-change    Only print the IR after a pass that changed it
  --mlir-print-ir-after-failure   Print the IR after a pass that failed
  --mlir-timing                   Report wall time per pass
  --mlir-pass-pipeline-crash-reproducer=<file>
                                  Where a failing (or panicking) pass leaves its
                                  reproducer: the IR before it and the pipeline that
                                  reproduces the failure (default: a new
                                  aic-reproducer-<pid>-<n>.mlir in the temporary
                                  directory; none with --verify-diagnostics)
  --run-reproducer                Run the pipeline a reproducer (the input) records
  --mlir-disable-threading        Run nested pipelines on one thread (by default
                                  sibling functions are processed in parallel)
  --aic-remarks[=<pass>,...]      Print the optimisation remarks of every pass, or of
                                  the given passes (why a call was not inlined, ...),
                                  checked by --verify-diagnostics as expected-remark
  --help                          Show this help
";

struct Options {
    input: String,
    output: Option<String>,
    allow_unregistered: bool,
    debuginfo: bool,
    generic: bool,
    split: bool,
    verify_diagnostics: bool,
    pipeline: Option<String>,
    /// Passes given as their own flags: (flag, options text).
    passes: Vec<(String, String)>,
    inst: Instrumentation,
    /// Passes whose optimisation remarks are printed (`--aic-remarks`).
    remarks: PassFilter,
    /// Where a failing pass's reproducer goes (otherwise a new temporary file).
    reproducer: Option<String>,
    /// Run the pipeline the input's reproducer trailer records.
    run_reproducer: bool,
}

/// `a,b` into a pass filter.
fn filter_list(v: &str) -> PassFilter {
    PassFilter::Flags(v.split(',').map(str::to_string).collect())
}

fn parse_args() -> Result<Option<Options>, String> {
    let mut o = Options {
        input: "-".into(),
        output: None,
        allow_unregistered: false,
        debuginfo: false,
        generic: false,
        split: false,
        verify_diagnostics: false,
        pipeline: None,
        passes: Vec::new(),
        inst: Instrumentation::default(),
        remarks: PassFilter::None,
        reproducer: None,
        run_reproducer: false,
    };
    let passes = aic_passes::all_passes();
    let mut args = std::env::args().skip(1);
    let mut input_set = false;
    while let Some(a) = args.next() {
        // Accept both `-flag` and `--flag`, as LLVM's option parser does.
        let flag = a
            .strip_prefix("--")
            .or_else(|| a.strip_prefix('-').filter(|s| !s.is_empty()));
        match flag {
            Some("help" | "h") => {
                print!("{HELP}");
                return Ok(None);
            }
            Some("o") => o.output = Some(args.next().ok_or("-o needs a file name")?),
            Some(f) if f.starts_with("o=") => o.output = Some(f[2..].to_string()),
            Some("allow-unregistered-dialect") => o.allow_unregistered = true,
            Some("mlir-print-op-generic") => o.generic = true,
            Some("mlir-print-debuginfo") => o.debuginfo = true,
            Some("eqsat-report") => {
                aic_passes::eqsat_fusion::REPORT.store(true, std::sync::atomic::Ordering::Relaxed)
            }
            Some(f) if f.starts_with("mlir-print-elementsattrs-with-hex-if-larger=") => {
                let v = &f["mlir-print-elementsattrs-with-hex-if-larger=".len()..];
                let n: i64 = v.parse().map_err(|_| {
                    format!(
                        "invalid value for --mlir-print-elementsattrs-with-hex-if-larger: '{v}'"
                    )
                })?;
                aic::printer::ELEMENTS_HEX_LIMIT.store(n, std::sync::atomic::Ordering::Relaxed);
            }
            Some("split-input-file") => o.split = true,
            Some("verify-diagnostics") => o.verify_diagnostics = true,
            Some("mlir-print-ir-before-all") => o.inst.print_before = PassFilter::All,
            Some("mlir-print-ir-after-all") => o.inst.print_after = PassFilter::All,
            Some("mlir-print-ir-after-change") => o.inst.print_after_change = true,
            Some("mlir-print-ir-after-failure") => o.inst.print_after_failure = true,
            Some("mlir-timing") => o.inst.timing = true,
            Some(f) if f.starts_with("mlir-pass-pipeline-crash-reproducer=") => {
                o.reproducer = Some(f["mlir-pass-pipeline-crash-reproducer=".len()..].to_string())
            }
            Some("run-reproducer") => o.run_reproducer = true,
            Some("mlir-disable-threading") => o.inst.threading = false,
            Some("aic-remarks") => o.remarks = PassFilter::All,
            Some(f) if f.starts_with("aic-remarks=") => {
                let v = &f["aic-remarks=".len()..];
                if let Some(bad) = v.split(',').find(|p| passes.get(p).is_none()) {
                    return Err(format!(
                        "for the --aic-remarks option: '{bad}' is not a registered pass (see --list-passes)"
                    ));
                }
                o.remarks = filter_list(v);
            }
            Some(f) if f.starts_with("mlir-print-ir-before=") => {
                o.inst.print_before = filter_list(&f["mlir-print-ir-before=".len()..])
            }
            Some(f) if f.starts_with("mlir-print-ir-after=") => {
                o.inst.print_after = filter_list(&f["mlir-print-ir-after=".len()..])
            }
            Some(f) if f.starts_with("verify-each") => {
                o.inst.verify_each = match f.strip_prefix("verify-each").unwrap_or("") {
                    "" | "=true" | "=1" => true,
                    "=false" | "=0" => false,
                    v => return Err(format!("invalid value for --verify-each: '{}'", &v[1..])),
                }
            }
            Some(f) if f.starts_with("pass-pipeline=") => {
                o.pipeline = Some(f["pass-pipeline=".len()..].to_string())
            }
            Some("pass-pipeline") => {
                o.pipeline = Some(args.next().ok_or("--pass-pipeline needs a pipeline")?)
            }
            Some("list-passes") => {
                println!("Available Passes:");
                for p in passes.all() {
                    println!("  --{:<30} - {}", p.flag, p.summary);
                    for opt in p.options {
                        let range = opt
                            .range
                            .map(|(lo, hi)| format!("; {lo} to {hi}"))
                            .unwrap_or_default();
                        println!(
                            "      {:<28} - {} (default: {}{range})",
                            format!("{}=<{}>", opt.name, opt.kind),
                            opt.help,
                            opt.default
                        );
                    }
                }
                return Ok(None);
            }
            Some(f) if passes.get(f.split('=').next().unwrap_or(f)).is_some() => {
                let (flag, opts) = f.split_once('=').unwrap_or((f, ""));
                o.passes.push((flag.to_string(), opts.to_string()));
            }
            Some("show-dialects") => {
                let r = aic_dialects::all_dialects();
                println!("Available Dialects:");
                for d in r.dialects() {
                    println!("{}", d.name);
                }
                return Ok(None);
            }
            Some(f) => {
                return Err(format!(
                    "unknown command line argument '-{f}'. Try: 'aic-opt --help'"
                ));
            }
            None => {
                if input_set {
                    return Err(format!("too many positional arguments: '{a}'"));
                }
                o.input = a;
                input_set = true;
            }
        }
    }
    if o.run_reproducer && (o.pipeline.is_some() || !o.passes.is_empty()) {
        return Err("'--run-reproducer' runs the input's own pipeline: it can't be used with '--pass-pipeline' or pass options".to_string());
    }
    if o.pipeline.is_some() && !o.passes.is_empty() {
        return Err(
            "'--pass-pipeline' option can't be used with individual pass options".to_string(),
        );
    }
    Ok(Some(o))
}

/// The pipeline the options ask for: `--pass-pipeline` or the pass flags in order
/// on `builtin.module` (nesting passes anchored elsewhere, as mlir-opt does).
fn build_pipeline(o: &Options) -> Result<Option<OpPassManager>, String> {
    let reg = aic_passes::all_passes();
    if let Some(text) = &o.pipeline {
        return parse_pipeline(text, &reg)
            .map(Some)
            .map_err(|e| format!("<unknown>:0: error: {}", e.render(text)));
    }
    if o.passes.is_empty() {
        return Ok(None);
    }
    let mut pm = OpPassManager::new("builtin.module");
    for (flag, opts) in &o.passes {
        add_pass(&mut pm, &reg, flag, opts)
            .map_err(|e| format!("<unknown>:0: error: {}", e.render(flag)))?;
    }
    Ok(Some(pm))
}

/// Read the input file (or standard input) as UTF-8 text; returns it with the name
/// diagnostics use for it.
fn read_input(o: &Options) -> Result<(String, String), String> {
    let mut bytes = Vec::new();
    if o.input == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        bytes = std::fs::read(&o.input)
            .map_err(|e| format!("cannot open input file '{}': {e}", o.input))?;
    }
    let name = if o.input == "-" {
        "<stdin>".to_string()
    } else {
        o.input.clone()
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: error: input is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((name, text))
}

/// Process every chunk, streaming printed IR to `out` as it is produced (the output
/// of a million-op module is never held in memory). Returns whether all succeeded;
/// diagnostics go to standard error.
fn run(
    o: &Options,
    pm: Option<&OpPassManager>,
    name: &str,
    text: String,
    out: &mut (dyn Write + Send),
) -> std::io::Result<bool> {
    let chunks = if o.split {
        aic_tools::split_input(&text)
    } else {
        vec![(0, 0, text)]
    };
    let last = chunks.len() - 1;
    let registry = Arc::new(aic_dialects::all_dialects());
    let opts = PrintOptions {
        debuginfo: o.debuginfo,
        generic: o.generic,
    };
    let mut ok = true;
    let mut report = Report::default();
    // Phases for --mlir-timing: parsing (with verification), the pipeline, output.
    let (mut t_parse, mut t_out) = (Duration::ZERO, Duration::ZERO);
    let mut timing = TimingNode::default();
    for (i, (line_offset, col, chunk)) in chunks.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b"// -----\n")?;
        }
        // Pad with newlines so line numbers match the original file.
        let padded = if line_offset == 0 {
            chunk
        } else {
            format!("{}{chunk}", "\n".repeat(line_offset))
        };
        let registry = registry.clone();
        let chunk_ok = with_parser_stack(|| -> std::io::Result<bool> {
            let mut ctx = Context::new(registry);
            ctx.allow_unregistered = o.allow_unregistered;
            ctx.set_remarks(o.remarks.clone());
            let mut sm = SourceMap::new();
            let f = sm.add(name, padded);
            // Every diagnostic of the chunk is collected here.
            let mut emitted: Vec<Diagnostic> = Vec::new();
            let start = Instant::now();
            let parsed = parse_module(&mut ctx, &sm, f).inspect(|&m| {
                // mlir-opt locates the implicit module of a later chunk where the
                // chunk starts (the first chunk's stays at 0:0).
                if i > 0 {
                    implicit_module_at(&mut ctx, m, line_offset + 1, col + 1);
                }
            });
            let verified = parsed.and_then(|m| verify(&ctx, m).map(|()| m));
            t_parse += start.elapsed();
            let transformed = verified.and_then(|m| match pm {
                Some(pm) => {
                    let mut err = std::io::stderr();
                    let mut runner = PassRunner::new(&o.inst, &mut err);
                    let r = runner.run(pm, &mut ctx, m);
                    let failure = runner.failure_path();
                    merge_timing(&mut timing, runner.timing);
                    // Remarks come first, also when the pipeline failed: they were
                    // emitted before its error.
                    emitted.extend(ctx.take_remarks());
                    r.map(|()| m).map_err(|d| {
                        if o.verify_diagnostics {
                            return d;
                        }
                        match write_reproducer(o, pm, &failure, name, sm.text(f), i, line_offset, col) {
                            Ok(path) => d.with_note(
                                format!("a reproducer of the failure was written to '{path}' (run it: aic-opt --run-reproducer {path})"),
                                Where::Nowhere,
                            ),
                            Err(e) => d.with_note(
                                format!("no reproducer could be written: {e}"),
                                Where::Nowhere,
                            ),
                        }
                    })
                }
                None => Ok(m),
            });
            match transformed {
                Ok(m) => {
                    let start = Instant::now();
                    print_op_to(&ctx, m, opts, &mut *out)?;
                    // mlir-opt ends each printed module with a blank line.
                    out.write_all(b"\n")?;
                    t_out += start.elapsed();
                }
                Err(d) => emitted.push(d),
            }
            let chunk_ok = if o.verify_diagnostics {
                report.merge(check_report(&sm, ctx.uniquer(), f, &emitted));
                true
            } else {
                for d in &emitted {
                    eprint!("{}", sm.render(ctx.uniquer(), d));
                }
                // Remarks are no failure.
                !emitted.iter().any(|d| d.severity != Severity::Remark)
            };
            if i == last {
                // The process is about to exit: freeing a large IR piece by piece
                // would only cost time (LLVM's tools skip it the same way).
                std::mem::forget(ctx);
                std::mem::forget(sm);
            }
            Ok(chunk_ok)
        })?;
        ok &= chunk_ok;
    }
    if o.verify_diagnostics && !report.is_ok() {
        for e in report.messages() {
            eprint!("{e}");
        }
        ok = false;
    }
    if o.inst.timing {
        eprint!(
            "{}",
            timing.report(&[("Parser", t_parse)], &[("Output", t_out)])
        );
    }
    Ok(ok)
}

/// Writes the reproducer of a failure at `path` (see [`PassRunner::failure_path`])
/// of `pm` on chunk `index` (`text`): the chunk is parsed again and the steps of
/// the pipeline before the failing one rerun (passes are deterministic), so that
/// a successful run never pays for a copy of the IR. Returns the file's path.
#[allow(clippy::too_many_arguments)]
fn write_reproducer(
    o: &Options,
    pm: &OpPassManager,
    path: &[usize],
    name: &str,
    text: &str,
    index: usize,
    line_offset: usize,
    col: usize,
) -> Result<String, String> {
    let step = *path.first().ok_or("the failure is in no pipeline step")?;
    let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
    ctx.allow_unregistered = o.allow_unregistered;
    let mut sm = SourceMap::new();
    let f = sm.add(name, text.to_string());
    let m = parse_module(&mut ctx, &sm, f).map_err(|d| d.message)?;
    if index > 0 {
        implicit_module_at(&mut ctx, m, line_offset + 1, col + 1);
    }
    let inst = Instrumentation {
        verify_each: o.inst.verify_each,
        threading: false,
        ..Instrumentation::default()
    };
    let mut sink = std::io::sink();
    PassRunner::new(&inst, &mut sink)
        .run_prefix(pm, &mut ctx, m, step)
        .map_err(|d| {
            format!(
                "rerunning the steps before the failing one failed: {}",
                d.message
            )
        })?;
    let ir = print_op(
        &ctx,
        m,
        PrintOptions {
            debuginfo: true,
            generic: o.generic,
        },
    );
    let trailer = reproducer::trailer(&reproducer::Config {
        pipeline: pm.text_up_to(path),
        disable_threading: true,
        verify_each: o.inst.verify_each,
    });
    let bytes = format!("{ir}\n\n{trailer}");
    if let Some(p) = &o.reproducer {
        output::write_file(p, bytes.as_bytes())?;
        return Ok(p.clone());
    }
    // A new file in the temporary directory.
    output::write_new_file(
        &std::env::temp_dir(),
        |pid, n| format!("aic-reproducer-{pid}-{n}.mlir"),
        bytes.as_bytes(),
    )
}

/// Add the timings of one chunk's run to the totals.
fn merge_timing(total: &mut TimingNode, run: TimingNode) {
    total.time += run.time;
    for c in run.children {
        match total.children.iter_mut().find(|t| t.name == c.name) {
            Some(t) => merge_timing(t, c),
            None => total.children.push(c),
        }
    }
}

/// Move the implicit module's `file:0:0` location to `line:col` of the same file.
fn implicit_module_at(ctx: &mut Context, m: aic::Op, line: usize, col: usize) {
    let loc = ctx.op(m).loc;
    if let aic::AttrKind::Location(aic::LocKind::FileLineCol {
        file,
        line: 0,
        col: 0,
        end: None,
    }) = *ctx.attr_kind(loc)
    {
        let moved = ctx.attr(aic::AttrKind::Location(aic::LocKind::FileLineCol {
            file,
            line: line as u32,
            col: col as u32,
            end: None,
        }));
        ctx.op_mut(m).loc = moved;
    }
}

fn main() -> ExitCode {
    let mut o = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aic-opt: {e}");
            return ExitCode::FAILURE;
        }
    };
    let built = (!o.run_reproducer).then(|| build_pipeline(&o));
    let (name, text) = match read_input(&o) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let built = built.unwrap_or_else(|| {
        let c = reproducer::parse(&text).map_err(|e| format!("{name}: error: {e}"))?;
        o.pipeline = Some(c.pipeline);
        o.inst.verify_each = c.verify_each;
        o.inst.threading &= !c.disable_threading;
        build_pipeline(&o)
    });
    let pm = match built {
        Ok(pm) => pm,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // The output is written to a temporary file beside it and replaces it only
    // when every chunk succeeded (see `aic_tools::output`): a failing run leaves
    // an existing file, a device or the input itself as they were.
    let path = o.output.as_deref().unwrap_or("-");
    let mut out = match Output::create(path) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("aic-opt: cannot open output file '{path}': {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&o, pm.as_ref(), &name, text, &mut out) {
        Ok(true) => match out.commit() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("aic-opt: cannot write output file '{path}': {e}");
                ExitCode::FAILURE
            }
        },
        // Standard output, written as it goes, keeps what succeeded; a file is
        // left as it was.
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("aic-opt: cannot write output: {e}");
            ExitCode::FAILURE
        }
    }
}
