//! MLIR interop through melior: parse and verify text with the real MLIR 22 and
//! print it back, so aic's output can be checked against MLIR's own.

use melior::Context;
use melior::dialect::DialectRegistry;
use melior::ir::Module;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use melior::utility::register_all_dialects;
use std::sync::{Arc, Mutex};

/// What MLIR made of a module: its generic and pretty prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MlirPrint {
    /// `--mlir-print-op-generic` form.
    pub generic: String,
    /// Custom (pretty) form.
    pub pretty: String,
}

/// An MLIR context with every upstream dialect registered and loaded.
pub fn context(allow_unregistered: bool) -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let ctx = Context::new();
    ctx.append_dialect_registry(&registry);
    ctx.load_all_available_dialects();
    ctx.set_allow_unregistered_dialects(allow_unregistered);
    ctx
}

/// Parse `text` with MLIR, verify it and print it back in both forms. Failures
/// return MLIR's diagnostics, one per line.
pub fn mlir_roundtrip(ctx: &Context, text: &str) -> Result<MlirPrint, String> {
    let diags = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = diags.clone();
    let id = ctx.attach_diagnostic_handler(move |d| {
        let loc = d.location().to_string();
        if let Ok(mut v) = sink.lock() {
            v.push(format!("{loc}: {d}"));
        }
        true
    });
    let result = (|| {
        let module = Module::parse(ctx, text).ok_or("MLIR could not parse the text")?;
        let op = module.as_operation();
        if !op.verify() {
            return Err("MLIR's verifier rejected the module".to_string());
        }
        let generic = op
            .to_string_with_flags(OperationPrintingFlags::new().print_generic_operation_form())
            .map_err(|e| format!("printing failed: {e}"))?;
        let pretty = op
            .to_string_with_flags(OperationPrintingFlags::new())
            .map_err(|e| format!("printing failed: {e}"))?;
        Ok(MlirPrint { generic, pretty })
    })();
    ctx.detach_diagnostic_handler(id);
    result.map_err(|e| {
        let d = diags.lock().map(|v| v.join("\n")).unwrap_or_default();
        if d.is_empty() {
            e
        } else {
            format!("{e}:\n{d}")
        }
    })
}
