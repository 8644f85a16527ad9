//! `aic-opt`: parse, verify and print MLIR-syntax files (mlir-opt's sibling).
//!
//! Pass pipelines arrive with the pass manager; today the tool parses and prints.

use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
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
}

fn parse_args() -> Result<Option<Options>, String> {
    let mut o = Options {
        input: "-".into(),
        output: None,
        allow_unregistered: false,
        debuginfo: false,
        generic: false,
        split: false,
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

fn run(o: &Options) -> Result<String, String> {
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
    for (i, (line_offset, chunk)) in chunks.into_iter().enumerate() {
        if i > 0 {
            out.push_str("// -----\n");
        }
        // Pad with newlines so line numbers match the original file.
        let padded = format!("{}{chunk}", "\n".repeat(line_offset));
        let registry = registry.clone();
        let (printed, err) = with_parser_stack(|| {
            let mut ctx = Context::new(registry);
            ctx.allow_unregistered = o.allow_unregistered;
            let mut sm = SourceMap::new();
            let f = sm.add(&name, padded);
            match parse_module(&mut ctx, &sm, f) {
                Ok(m) => (
                    Some(print_op(
                        &ctx,
                        m,
                        PrintOptions {
                            debuginfo: o.debuginfo,
                            generic: o.generic,
                        },
                    )),
                    None,
                ),
                Err(d) => (None, Some(sm.render(ctx.uniquer(), &d))),
            }
        });
        if let Some(p) = printed {
            out.push_str(&p);
            // mlir-opt ends each printed module with a blank line.
            out.push('\n');
        }
        if let Some(e) = err {
            eprint!("{e}");
            failed = true;
        }
    }
    if failed { Err(String::new()) } else { Ok(out) }
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
    match run(&o) {
        Ok(text) => {
            let res = match &o.output {
                Some(path) if path != "-" => std::fs::write(path, text),
                _ => std::io::stdout().write_all(text.as_bytes()),
            };
            if let Err(e) = res {
                eprintln!("aic-opt: cannot write output: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{e}");
            }
            ExitCode::FAILURE
        }
    }
}
