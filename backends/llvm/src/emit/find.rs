//! Finding the `gpu.kernel` ops of an input and checking them against what
//! the target can run: names, buffers (static rank-1 memrefs), grid and
//! block sizes.

use super::*;

/// `file:line:col` of an op, when it has a file location.
pub(crate) fn loc_text(ir: &Context, op: Op) -> Option<String> {
    aic::diagnostics::file_line_col(ir.uniquer(), ir.op(op).loc)
        .map(|(f, l, c)| format!("{f}:{l}:{c}"))
}

/// Bytes of one element of a buffer in memory (`i1` takes a byte, `index` eight).
pub(super) fn elem_bytes(ir: &Context, t: Type) -> Option<u64> {
    match ir.type_kind(t) {
        TypeKind::Index => Some(8),
        TypeKind::Integer { width, .. } if *width <= 64 => Some(u64::from(width.div_ceil(8))),
        TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2) => Some(1),
        TypeKind::Float(FloatKind::F16 | FloatKind::BF16) => Some(2),
        TypeKind::Float(FloatKind::F32) => Some(4),
        TypeKind::Float(FloatKind::F64) => Some(8),
        _ => None,
    }
}

/// The static size and element of a rank-1 memref, or why it is not one.
pub(super) fn flat_memref(ir: &Context, t: Type) -> Result<(u64, Type), String> {
    let text = aic::printer::type_text(ir.uniquer(), t);
    match ir.type_kind(t) {
        TypeKind::MemRef {
            shape,
            elem,
            layout,
            ..
        } => {
            if shape.len() != 1 {
                return Err(format!(
                    "'{text}' has rank {}: only rank-1 memrefs are supported",
                    shape.len()
                ));
            }
            if shape[0] < 0 {
                return Err(format!("'{text}' has a dynamic size"));
            }
            if layout.is_some() {
                return Err(format!(
                    "'{text}' has a layout: only the identity layout is supported"
                ));
            }
            if elem_bytes(ir, *elem).is_none() {
                return Err(format!(
                    "'{text}' has an element type aic-llvm does not support (integers up to 64 bits, index, f8E4M3FN, f8E5M2, f16, bf16, f32, f64)"
                ));
            }
            Ok((shape[0] as u64, *elem))
        }
        _ => Err(format!("'{text}' is not a memref")),
    }
}

/// Whether a symbol name is a valid PTX/ELF identifier.
fn valid_gpu_name(name: &str) -> bool {
    let mut c = name.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '$')
}

/// The `gpu.kernel` ops of `module` (a `builtin.module`, or one `gpu.kernel`),
/// checked against what `target` can run.
pub(crate) fn kernels(ir: &Context, module: Op, target: &Target) -> Result<Vec<Kernel>, String> {
    let ops: Vec<Op> = if gpu::Kernel::is(ir, module) {
        vec![module]
    } else {
        ir.regions(module)
            .iter()
            .flat_map(|r| ir.region_blocks(*r).collect::<Vec<_>>())
            .flat_map(|b| ir.block_ops(b).collect::<Vec<_>>())
            .filter(|o| gpu::Kernel::is(ir, *o))
            .collect()
    };
    // A module without kernels (a program the host runs on its own, such as
    // a lone sort) compiles to a module with none.
    let mut out = Vec::new();
    for op in ops {
        let at = loc_text(ir, op).map_or(String::new(), |l| format!(" (at {l})"));
        let name = aic::symbol::symbol_name(ir, op)
            .ok_or_else(|| format!("aic-llvm: a gpu.kernel has no symbol name{at}"))?
            .to_string();
        let fail = |m: String| format!("aic-llvm: kernel @{name}: {m}{at}");
        if name.starts_with("llvm.") || (target.is_gpu() && !valid_gpu_name(&name)) {
            return Err(fail(format!(
                "'{name}' is not a valid {} symbol name (letters, digits, '_' and '$', not starting with a digit)",
                target.name()
            )));
        }
        if out.iter().any(|k: &Kernel| k.info.name == name) {
            return Err(fail("defined twice".into()));
        }
        let dims = |attr: &str| -> Result<[u64; 3], String> {
            let d = aic_dialects::gpu::dims3(ir, op, attr);
            if d.iter().any(|x| *x < 1 || *x > i64::from(u32::MAX)) {
                return Err(fail(format!("{attr} {d:?} must be three positive sizes")));
            }
            Ok(d.map(|x| x as u64))
        };
        let (grid, block) = (dims("grid")?, dims("block")?);
        let shared = int_attr(ir, op, "shared")
            .and_then(|s| u64::try_from(s).ok())
            .ok_or_else(|| fail("shared must be a byte count".into()))?;
        if shared > target.max_shared_bytes() {
            return Err(fail(format!(
                "needs {shared} bytes of shared memory but {} allows at most {}",
                target.arch(),
                target.max_shared_bytes()
            )));
        }
        let threads: u64 = block.iter().product();
        if target.is_gpu() && threads > 1024 {
            return Err(fail(format!(
                "a block of {threads} threads is more than the 1024 a GPU block may have"
            )));
        }
        if !target.is_gpu() && (block[1] > 1 || block[2] > 1) {
            return Err(fail(format!(
                "block {block:?}: the host runs blocks of threads along x only (block = [n, 1, 1])"
            )));
        }
        let body = ir
            .regions(op)
            .first()
            .and_then(|r| ir.entry_block(*r))
            .ok_or_else(|| fail("has no body".into()))?;
        let mut buffers = Vec::new();
        for (i, a) in ir.block_args(body).iter().enumerate() {
            let t = ir.value_type(*a);
            let (n, elem) = flat_memref(ir, t).map_err(|m| fail(format!("argument {i}: {m}")))?;
            let bytes = elem_bytes(ir, elem).unwrap_or(1);
            // Kernels address their buffers with i64 byte offsets.
            if aic::shape::bytes(&[n as i64], bytes).is_err() {
                return Err(fail(format!(
                    "argument {i}: '{}' has more bytes than a kernel buffer can address (2^63)",
                    aic::printer::type_text(ir.uniquer(), t)
                )));
            }
            if aic_dialects::gpu::is_shared(ir, t) {
                return Err(fail(format!(
                    "argument {i} is in shared memory: kernel arguments are global buffers"
                )));
            }
            buffers.push(BufferInfo {
                elements: n,
                elem_bytes: bytes,
            });
        }
        let mut tensor_maps = Vec::new();
        for (o, spec) in aic_dialects::nvgpu::tensor_maps(ir, op) {
            let at = loc_text(ir, o).map_or(String::new(), |l| format!(" (at {l})"));
            tensor_maps.push(spec.ok_or_else(|| {
                format!("aic-llvm: kernel @{name}: a malformed nvgpu.tma.create.descriptor{at}")
            })?);
        }
        out.push(Kernel {
            info: KernelInfo {
                name,
                grid,
                block,
                shared,
                buffers,
                tensor_maps,
            },
            op,
        });
    }
    Ok(out)
}
