//! `aic-opt`: parse, verify and print MLIR-syntax files (mlir-opt's sibling).
//!
//! Pass pipelines arrive with the pass manager; today the tool parses and prints.

use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, Diagnostic, SourceMap};
use aic_tools::verify_diagnostics::{Report, check_report};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

const HELP: &str = "OVERVIEW: aic modular optimizer driver

USAGE: aic-opt [options] [input file]   (reads standard input when no file or '-')

OPTIONS:
  -o <file>                       Output file (default: standard output)
  --allow-unregistered-dialect    Accept ops of dialects that are not registered
  --mlir-print-op-generic         Print ops in generic form
  --mlir-print-debuginfo          Print locations
  --split-input-file              Process each '// -----' chunk separately
  --verify-diagnostics            Check that emitted diagnostics match expected-* lines
                                  on the corresponding line (each chunk on its own)
  --show-dialects                 List registered dialects
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
    };
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
            Some("split-input-file") => o.split = true,
            Some("verify-diagnostics") => o.verify_diagnostics = true,
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
    Ok(Some(o))
}

/// Why a run failed: a message to print (empty when the errors were printed
/// already), and output to write all the same.
struct Failure {
    message: String,
    output: Option<String>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            output: None,
        }
    }
}

fn run(o: &Options) -> Result<String, Failure> {
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
    let chunks = if o.split {
        aic_tools::split_input(&text)
    } else {
        vec![(0, text)]
    };
    let registry = Arc::new(aic_dialects::all_dialects());
    let mut out = String::new();
    let mut failed = false;
    let mut report = Report::default();
    for (i, (line_offset, chunk)) in chunks.into_iter().enumerate() {
        if i > 0 {
            out.push_str("// -----\n");
        }
        // Pad with newlines so line numbers match the original file.
        let padded = format!("{}{chunk}", "\n".repeat(line_offset));
        let registry = registry.clone();
        let (printed, errors) = with_parser_stack(|| {
            let mut ctx = Context::new(registry);
            ctx.allow_unregistered = o.allow_unregistered;
            let mut sm = SourceMap::new();
            let f = sm.add(&name, padded);
            // Every diagnostic of the chunk is collected here.
            let mut emitted: Vec<Diagnostic> = Vec::new();
            let printed = match parse_module(&mut ctx, &sm, f) {
                Ok(m) => Some(print_op(
                    &ctx,
                    m,
                    PrintOptions {
                        debuginfo: o.debuginfo,
                        generic: o.generic,
                    },
                )),
                Err(d) => {
                    emitted.push(d);
                    None
                }
            };
            if o.verify_diagnostics {
                report.merge(check_report(&sm, ctx.uniquer(), f, &emitted));
                (printed, Vec::new())
            } else {
                let errors: Vec<String> = emitted
                    .iter()
                    .map(|d| sm.render(ctx.uniquer(), d))
                    .collect();
                (printed, errors)
            }
        });
        if let Some(p) = printed {
            out.push_str(&p);
            // mlir-opt ends each printed module with a blank line.
            out.push('\n');
        }
        for e in &errors {
            eprint!("{e}");
        }
        failed |= !errors.is_empty();
    }
    if o.verify_diagnostics && !report.is_ok() {
        for e in report.messages() {
            eprint!("{e}");
        }
        // Like mlir-opt, --verify-diagnostics still prints the chunks that succeeded.
        return Err(Failure {
            message: String::new(),
            output: Some(out),
        });
    }
    if failed {
        Err(String::new().into())
    } else {
        Ok(out)
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aic-opt: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (text, ok) = match run(&o) {
        Ok(text) => (text, true),
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("{}", f.message);
            }
            match f.output {
                // As mlir-opt, which writes standard output as it goes but keeps
                // an output file only on success.
                Some(text) if o.output.as_deref().is_none_or(|p| p == "-") => (text, false),
                _ => return ExitCode::FAILURE,
            }
        }
    };
    let res = match &o.output {
        Some(path) if path != "-" => std::fs::write(path, text),
        _ => std::io::stdout().write_all(text.as_bytes()),
    };
    if let Err(e) = res {
        eprintln!("aic-opt: cannot write output: {e}");
        return ExitCode::FAILURE;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
