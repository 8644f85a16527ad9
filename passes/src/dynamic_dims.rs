//! `dynamic-dims`: StableHLO with `?` dimensions (as `jax.export` writes it
//! for symbolic shapes) made static at each dimension's bound, with the
//! dimensions kept by name for the run time.
//!
//! Every `?` dimension of a public function's arguments is a *symbol*: the
//! name JAX gave it (the `jax.global_constant` parameter of the wrapped
//! function its `get_dimension_size` is passed to, unified by the
//! `shape_assertion`s that say two dimensions are equal), else `argI.D`.
//! Shapes are tracked as products of symbols and constants ([`Dim`]) through
//! the function, callees included: `get_dimension_size`, shape arithmetic
//! (`reshape`, `concatenate`, `multiply`, `convert`), and the ops the shapes
//! size (`dynamic_broadcast_in_dim`, `dynamic_reshape`, `dynamic_iota`).
//!
//! Compiling (`bounds=b=64,...`): every type is rewritten at the bounds and
//! the dynamic ops become their static namesakes, so the rest of the pipeline
//! sees a static program of the bounds' sizes. That program computes the right
//! answer for smaller sizes on buffers padded to the bounds only where no op
//! mixes rows of the dynamic dims: so every dynamic dimension must be *leading*
//! (a tensor's dynamic dims come first), and every op must keep the dynamic
//! leading dims together, each result row made from the same rows of its
//! operands (elementwise ops, broadcasts of static tensors or along the same
//! rows, reductions, transposes, slices, pads and concatenations over other
//! dims, `dot_general` with the rows as free or batch dims, reshapes). Any
//! other use of a dynamic dim (a reduction over it, a contraction, an iota
//! along one of several, a gather, a size used as a value) is an error naming
//! the op: never a silent wrong answer. The entry function records its
//! dims: `aic.dim_bounds = ["b=64"]`, `aic.arg_dims` and `aic.result_dims`
//! (per argument and result, one [`Dim`] text per dimension), which the
//! executable plan reads to size transfers and grids at run time.
//!
//! Refining (`sizes=b=3,...`): the same rewrite at exact sizes, for the
//! reference interpreter (no checks: any op may follow; shape assertions are
//! evaluated and a false one is an error with JAX's message).
//!
//! A module without `?` dims is left unchanged.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::op_attr;
use aic::interp::tensor_of_attr;
use aic::ir::{Builder, Context, InsertPoint, Op, Value};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{DYNAMIC, Type, TypeKind};
use aic::verifier::op_error;
use aic_dialects::func;
use aic_dialects::stablehlo as shlo;
use aic_dialects::stablehlo::attrs::DotDims;
use aic_dialects::stablehlo::structured::{DotGeneral, Reduce};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "dynamic-dims",
    name: "DynamicDims",
    summary: "Make `?` dimensions static at their bounds (or exact sizes), keeping them by name",
    anchor: None,
    options: &[
        OptSpec {
            name: "bounds",
            kind: OptKind::StrList,
            default: "",
            range: None,
            help: "Upper bound of each dynamic dim, NAME=N (compile once for every size up to N)",
        },
        OptSpec {
            name: "default-bound",
            kind: OptKind::UInt,
            default: "0",
            range: None,
            help: "Bound of dynamic dims `bounds` does not name (0: each must be named)",
        },
        OptSpec {
            name: "shapes",
            kind: OptKind::StrList,
            default: "",
            range: None,
            help: "Refine to these argument shapes, one item per argument (`3x5x16`, `()` for a scalar): for the interpreter",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(DynamicDims {
            bounds: o.list("bounds").to_vec(),
            default_bound: o.int("default-bound"),
            shapes: o.list("shapes").to_vec(),
        })
    },
};

struct DynamicDims {
    bounds: Vec<String>,
    default_bound: i64,
    shapes: Vec<String>,
}

/// One dimension as a product: `coef` times each symbol in `syms` (sorted;
/// empty for a static dimension). Text: `16`, `b`, `4*b*s`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// The constant factor.
    pub coef: i64,
    /// The symbols multiplied, sorted.
    pub syms: Vec<String>,
}

impl Dim {
    /// A static dimension.
    pub fn fixed(n: i64) -> Dim {
        Dim {
            coef: n,
            syms: Vec::new(),
        }
    }

    /// One symbol.
    pub fn sym(name: &str) -> Dim {
        Dim {
            coef: 1,
            syms: vec![name.to_string()],
        }
    }

    /// Whether it holds a symbol.
    pub fn is_dynamic(&self) -> bool {
        !self.syms.is_empty()
    }

    /// The product of two dims.
    pub fn mul(&self, o: &Dim) -> Option<Dim> {
        let mut syms = self.syms.clone();
        syms.extend(o.syms.iter().cloned());
        syms.sort();
        Some(Dim {
            coef: self.coef.checked_mul(o.coef)?,
            syms,
        })
    }

    /// `self / o` where it divides exactly.
    fn div(&self, o: &Dim) -> Option<Dim> {
        if o.coef == 0 || self.coef % o.coef != 0 {
            return None;
        }
        let mut syms = self.syms.clone();
        for s in &o.syms {
            let i = syms.iter().position(|x| x == s)?;
            syms.remove(i);
        }
        Some(Dim {
            coef: self.coef / o.coef,
            syms,
        })
    }

    /// Its value with each symbol at `at`'s value (`None`: a symbol missing
    /// or an overflow).
    pub fn eval(&self, at: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        self.syms
            .iter()
            .try_fold(self.coef, |acc, s| acc.checked_mul(at(s)?))
    }

    /// The product of `dims`.
    pub fn product(dims: &[Dim]) -> Option<Dim> {
        dims.iter().try_fold(Dim::fixed(1), |acc, d| acc.mul(d))
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

impl std::str::FromStr for Dim {
    type Err = String;
    fn from_str(s: &str) -> Result<Dim, String> {
        let mut d = Dim::fixed(1);
        for part in s.split('*') {
            let part = part.trim();
            if let Ok(n) = part.parse::<i64>() {
                d.coef = d
                    .coef
                    .checked_mul(n)
                    .ok_or_else(|| format!("dimension '{s}' overflows"))?;
            } else if !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                d.syms.push(part.to_string());
            } else {
                return Err(format!(
                    "bad dimension '{s}': expected N, NAME or N*NAME*..."
                ));
            }
        }
        d.syms.sort();
        Ok(d)
    }
}

/// The function attribute naming each symbol's bound (`["b=64"]`).
pub const BOUNDS_ATTR: &str = "aic.dim_bounds";
/// The function attribute with each argument's dims (an array of arrays of
/// [`Dim`] texts).
pub const ARG_DIMS_ATTR: &str = "aic.arg_dims";
/// The function attribute with each result's dims.
pub const RESULT_DIMS_ATTR: &str = "aic.result_dims";
/// The function attribute naming the sizes its trailing `tensor<i32>`
/// arguments hold (`["b", "s"]`): arguments the compiler added, which the
/// run time fills from the call's shapes. Kernels read them to mask what
/// lies past the sizes.
pub const SIZE_ARGS_ATTR: &str = "aic.size_args";

/// `NAME=N` items as a map, or what is wrong with one.
pub fn parse_assignments(items: &[String], what: &str) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for it in items.iter().filter(|s| !s.trim().is_empty()) {
        let (k, v) = it
            .split_once('=')
            .ok_or_else(|| format!("{what}: expected NAME=N, not '{it}'"))?;
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| format!("{what}: '{it}': N must be an integer"))?;
        if n < 1 {
            return Err(format!("{what}: '{it}': N must be at least 1"));
        }
        out.insert(k.trim().to_string(), n);
    }
    Ok(out)
}

/// Argument shapes, `3x5x16` (`()` for a scalar), one item per argument.
pub fn parse_shapes(items: &[String]) -> Result<Vec<Vec<i64>>, String> {
    items
        .iter()
        .map(|it| {
            let it = it.trim();
            if it == "()" {
                return Ok(Vec::new());
            }
            it.split('x')
                .map(|n| {
                    n.trim()
                        .parse::<i64>()
                        .ok()
                        .filter(|n| *n >= 0)
                        .ok_or_else(|| format!("dynamic-dims shapes: bad shape '{it}'"))
                })
                .collect()
        })
        .collect()
}

/// The dynamic signature a function records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Each symbol's bound.
    pub bounds: BTreeMap<String, i64>,
    /// Each of the caller's arguments' dims (the size arguments excluded).
    pub args: Vec<Vec<Dim>>,
    /// Each result's dims.
    pub results: Vec<Vec<Dim>>,
    /// The symbols the function's trailing size arguments hold, in order
    /// (after `args`), each a `tensor<i32>`.
    pub sizes: Vec<String>,
}

/// Reads the [`BOUNDS_ATTR`], [`ARG_DIMS_ATTR`], [`RESULT_DIMS_ATTR`] and
/// [`SIZE_ARGS_ATTR`] of function `f`; `None` for a function without them.
pub fn signature(ctx: &Context, f: Op) -> Result<Option<Signature>, String> {
    let Some(b) = op_attr(ctx, f, BOUNDS_ATTR) else {
        return Ok(None);
    };
    let strings = |a: Attr| -> Result<Vec<String>, String> {
        match ctx.attr_kind(a) {
            AttrKind::Array(items) => items
                .iter()
                .map(|i| {
                    ctx.attr_str(*i)
                        .map(str::to_string)
                        .ok_or_else(|| "expected strings".to_string())
                })
                .collect(),
            _ => Err("expected an array".into()),
        }
    };
    let bounds = parse_assignments(&strings(b)?, BOUNDS_ATTR)?;
    let dims = |name: &str| -> Result<Vec<Vec<Dim>>, String> {
        let a = op_attr(ctx, f, name).ok_or_else(|| format!("{name} is missing"))?;
        let AttrKind::Array(items) = ctx.attr_kind(a) else {
            return Err(format!("{name}: expected an array"));
        };
        items
            .iter()
            .map(|i| {
                strings(*i)?
                    .iter()
                    .map(|s| s.parse::<Dim>())
                    .collect::<Result<Vec<Dim>, String>>()
            })
            .collect()
    };
    let sizes = match op_attr(ctx, f, SIZE_ARGS_ATTR) {
        Some(a) => strings(a)?,
        None => Vec::new(),
    };
    if let Some(s) = sizes.iter().find(|s| !bounds.contains_key(*s)) {
        return Err(format!("{SIZE_ARGS_ATTR}: '{s}' has no bound"));
    }
    Ok(Some(Signature {
        bounds,
        args: dims(ARG_DIMS_ATTR)?,
        results: dims(RESULT_DIMS_ATTR)?,
        sizes,
    }))
}

impl Pass for DynamicDims {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let err = |m: String| op_error(ctx, root, m);
        let bounds = parse_assignments(&self.bounds, "dynamic-dims bounds").map_err(err)?;
        let shapes = parse_shapes(&self.shapes).map_err(err)?;
        let refine = !shapes.is_empty();
        let entries: Vec<Op> = public_functions(ctx, root)
            .into_iter()
            .filter(|f| signature_is_dynamic(ctx, *f))
            .collect();
        if entries.is_empty() {
            return Ok(false);
        }
        for f in entries {
            let mut a = Analysis {
                refine,
                shapes: HashMap::new(),
                scalars: HashMap::new(),
                preds: HashSet::new(),
                done: HashMap::new(),
                erase: Vec::new(),
                module: root,
            };
            let names = a.name_dims(ctx, f);
            let block =
                body(ctx, f).ok_or_else(|| op_error(ctx, f, "a function without a body"))?;
            let args: Vec<Value> = ctx.block_args(block).to_vec();
            let mut arg_dims = Vec::new();
            for (i, v) in args.iter().enumerate() {
                let shape = shape_of_type(ctx, ctx.value_type(*v));
                let dims: Vec<Dim> = shape
                    .iter()
                    .enumerate()
                    .map(|(d, n)| match *n {
                        DYNAMIC => Dim::sym(&names[&(i, d)]),
                        n => Dim::fixed(n),
                    })
                    .collect();
                if !refine && dims.iter().any(Dim::is_dynamic) {
                    leading(&dims).map_err(|m| op_error(ctx, f, format!("argument {i}: {m}")))?;
                }
                if dims.iter().any(Dim::is_dynamic) {
                    a.shapes.insert(*v, dims.clone());
                }
                arg_dims.push(dims);
            }
            let results = a.function(ctx, f)?;
            // Each symbol's value: its exact size or its bound.
            let mut syms: Vec<String> = names.values().cloned().collect();
            syms.sort();
            syms.dedup();
            let mut sizes: BTreeMap<String, i64> = BTreeMap::new();
            if refine {
                if shapes.len() != arg_dims.len() {
                    return Err(op_error(
                        ctx,
                        f,
                        format!(
                            "{} argument shapes for {} arguments",
                            shapes.len(),
                            arg_dims.len()
                        ),
                    ));
                }
                for (i, (shape, dims)) in shapes.iter().zip(&arg_dims).enumerate() {
                    if shape.len() != dims.len() {
                        return Err(op_error(
                            ctx,
                            f,
                            format!("argument {i} has rank {}, not {}", dims.len(), shape.len()),
                        ));
                    }
                    for (k, (n, d)) in shape.iter().zip(dims).enumerate() {
                        let ok = match d.syms.as_slice() {
                            [] => *n == d.coef,
                            [s] => *sizes.entry(s.clone()).or_insert(*n) == *n,
                            _ => false,
                        };
                        if !ok {
                            return Err(op_error(
                                ctx,
                                f,
                                format!("argument {i}: dimension {k} ('{d}') cannot be {n}"),
                            ));
                        }
                    }
                }
            }
            let mut value = BTreeMap::new();
            for s in &syms {
                let v = if refine {
                    sizes.get(s).copied()
                } else {
                    bounds
                        .get(s)
                        .copied()
                        .or((self.default_bound > 0).then_some(self.default_bound))
                };
                let Some(v) = v else {
                    let how = if refine {
                        "dynamic-dims{shapes=...} with one shape per argument".to_string()
                    } else {
                        format!(
                            "dynamic-dims{{bounds={s}=N}} (aic-translate/aic-run --dim-bounds={s}=N)"
                        )
                    };
                    return Err(op_error(
                        ctx,
                        f,
                        format!(
                            "dynamic dimension '{s}' has no {}: pass {how}",
                            if refine { "size" } else { "bound" }
                        ),
                    ));
                };
                value.insert(s.clone(), v);
            }
            if refine {
                a.check_assertions(ctx, &value)?;
            }
            a.rewrite(ctx, &value)?;
            if !refine {
                let u = ctx.uniquer().clone();
                let strings = |xs: Vec<String>| {
                    let items: Vec<Attr> = xs.iter().map(|s| u.string_attr(s)).collect();
                    u.attr(AttrKind::Array(items.into()))
                };
                let dims_attr = |all: &[Vec<Dim>]| {
                    let items: Vec<Attr> = all
                        .iter()
                        .map(|ds| strings(ds.iter().map(Dim::to_string).collect()))
                        .collect();
                    u.attr(AttrKind::Array(items.into()))
                };
                let b = strings(value.iter().map(|(k, v)| format!("{k}={v}")).collect());
                let ad = dims_attr(&arg_dims);
                let rd = dims_attr(&results);
                ctx.set_attr(f, u.ident(BOUNDS_ATTR), b);
                ctx.set_attr(f, u.ident(ARG_DIMS_ATTR), ad);
                ctx.set_attr(f, u.ident(RESULT_DIMS_ATTR), rd);
            }
        }
        Ok(true)
    }
}

fn public_functions(ctx: &Context, root: Op) -> Vec<Op> {
    let mut out = Vec::new();
    for &r in ctx.regions(root) {
        for b in ctx.region_blocks(r) {
            for o in ctx.block_ops(b) {
                if func::Func::is(ctx, o)
                    && aic::symbol::visibility(ctx, o) == Some(aic::symbol::Visibility::Public)
                {
                    out.push(o);
                }
            }
        }
    }
    out
}

fn shape_of_type(ctx: &Context, t: Type) -> Vec<i64> {
    ctx.type_kind(t)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default()
}

fn is_dynamic_type(ctx: &Context, t: Type) -> bool {
    shape_of_type(ctx, t).contains(&DYNAMIC)
}

fn signature_is_dynamic(ctx: &Context, f: Op) -> bool {
    func::function_type(ctx, f)
        .is_some_and(|(ins, outs)| ins.iter().chain(&outs).any(|t| is_dynamic_type(ctx, *t)))
}

fn body(ctx: &Context, f: Op) -> Option<aic::ir::Block> {
    ctx.regions(f)
        .first()
        .and_then(|r| ctx.region_blocks(*r).next())
}

/// How many leading dims are dynamic, or the error when a dynamic dim
/// follows a static one.
fn leading(dims: &[Dim]) -> Result<usize, String> {
    let p = dims.iter().take_while(|d| d.is_dynamic()).count();
    if let Some(d) = dims[p..].iter().find(|d| d.is_dynamic()) {
        return Err(format!(
            "dynamic dimension '{d}' follows a static one in [{}]: only leading dimensions may be dynamic",
            text(dims)
        ));
    }
    Ok(p)
}

fn text(dims: &[Dim]) -> String {
    dims.iter()
        .map(Dim::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a call passes a callee: per operand, its dims (a dynamic tensor) and
/// the sizes it holds (a size tensor).
type Seeds = Vec<(Option<Vec<Dim>>, Option<Vec<Dim>>)>;

struct Analysis {
    refine: bool,
    /// Tensor values with a dynamic dim.
    shapes: HashMap<Value, Vec<Dim>>,
    /// Integer tensors holding sizes (each element a [`Dim`]).
    scalars: HashMap<Value, Vec<Dim>>,
    /// `compare` results over sizes, which only a `shape_assertion` may read:
    /// the direction and both sides.
    preds: HashSet<Value>,
    /// Callees analysed, with the dims of their results.
    done: HashMap<Op, (Seeds, Vec<Vec<Dim>>)>,
    /// Ops to erase after the rewrite (shape assertions).
    erase: Vec<Op>,
    module: Op,
}

impl Analysis {
    /// The symbol of each `?` dim of `f`'s arguments, `(argument, dim)`.
    fn name_dims(&self, ctx: &Context, f: Op) -> HashMap<(usize, usize), String> {
        let mut names = HashMap::new();
        let Some(block) = body(ctx, f) else {
            return names;
        };
        let args: Vec<Value> = ctx.block_args(block).to_vec();
        for (i, v) in args.iter().enumerate() {
            for (d, n) in shape_of_type(ctx, ctx.value_type(*v)).iter().enumerate() {
                if *n == DYNAMIC {
                    names.insert((i, d), format!("arg{i}.{d}"));
                }
            }
        }
        // `get_dimension_size %argI, dim = D` values.
        let size_of = |v: Value| -> Option<(usize, usize)> {
            let g = shlo::GetDimensionSize::defining(ctx, v)?;
            let x = g.operand(ctx);
            let i = args.iter().position(|a| *a == x)?;
            Some((i, g.dimension(ctx)? as usize))
        };
        let mut union: Vec<((usize, usize), (usize, usize))> = Vec::new();
        for o in ctx.block_ops(block) {
            if let Some(c) = func::Call::of(ctx, o) {
                let callee = op_attr(ctx, o, "callee")
                    .and_then(|a| aic::symbol::lookup_nearest_symbol_from(ctx, o, a));
                let params = callee.and_then(|c| op_attr(ctx, c, "arg_attrs"));
                let params: Vec<Attr> = match params.map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Array(items)) => items.to_vec(),
                    _ => Vec::new(),
                };
                for (k, x) in ctx.operands(c.op()).iter().enumerate() {
                    let name = params.get(k).and_then(|a| {
                        let AttrKind::Dict(es) = ctx.attr_kind(*a) else {
                            return None;
                        };
                        es.iter()
                            .find(|(k, _)| ctx.uniquer().str(*k) == "jax.global_constant")
                            .and_then(|(_, v)| ctx.attr_str(*v).map(str::to_string))
                    });
                    if let (Some(n), Some(at)) = (name, size_of(*x)) {
                        names.insert(at, n);
                    }
                }
            }
            // `shape_assertion(compare EQ, size, size)`: the same symbol.
            if shlo::structured::CustomCall::is(ctx, o) && call_target(ctx, o) == "shape_assertion"
            {
                let p = ctx.operands(o).first().copied();
                if let Some(c) = p.and_then(|p| shlo::Compare::defining(ctx, p))
                    && c.comparison_direction(ctx) == Some(shlo::ComparisonDirection::Eq)
                    && let (Some(x), Some(y)) = (size_of(c.lhs(ctx)), size_of(c.rhs(ctx)))
                {
                    union.push((x, y));
                }
            }
        }
        for (x, y) in union {
            if let (Some(nx), Some(ny)) = (names.get(&x).cloned(), names.get(&y).cloned()) {
                let (keep, drop) = if ny.starts_with("arg") {
                    (nx, ny)
                } else {
                    (ny, nx)
                };
                for n in names.values_mut() {
                    if *n == drop {
                        *n = keep.clone();
                    }
                }
            }
        }
        names
    }

    /// Analyses `f`'s body (its arguments' dims already known) and returns
    /// the dims of its results.
    fn function(&mut self, ctx: &Context, f: Op) -> Result<Vec<Vec<Dim>>, Diagnostic> {
        let block = body(ctx, f).ok_or_else(|| op_error(ctx, f, "a function without a body"))?;
        let ops: Vec<Op> = ctx.block_ops(block).collect();
        let mut results = Vec::new();
        for o in ops {
            if func::Return::is(ctx, o) || shlo::structured::Return::is(ctx, o) {
                for v in ctx.operands(o) {
                    results.push(self.dims(ctx, *v));
                }
                continue;
            }
            self.op(ctx, o)?;
        }
        Ok(results)
    }

    /// The dims of tensor `v`.
    fn dims(&self, ctx: &Context, v: Value) -> Vec<Dim> {
        self.shapes.get(&v).cloned().unwrap_or_else(|| {
            shape_of_type(ctx, ctx.value_type(v))
                .into_iter()
                .map(Dim::fixed)
                .collect()
        })
    }

    /// The sizes integer tensor `v` holds (a constant, or computed from
    /// sizes).
    fn sizes(&self, ctx: &Context, v: Value) -> Option<Vec<Dim>> {
        if let Some(s) = self.scalars.get(&v) {
            return Some(s.clone());
        }
        let c = shlo::Constant::defining(ctx, v)?;
        let a = op_attr(ctx, c.op(), "value")?;
        let t = tensor_of_attr(ctx.uniquer(), a, ctx.value_type(v))?;
        Some(t.to_i64s().into_iter().map(Dim::fixed).collect())
    }

    fn op(&mut self, ctx: &Context, o: Op) -> Result<(), Diagnostic> {
        let fail = |m: String| Err(op_error(ctx, o, m));
        let operands: Vec<Value> = ctx.operands(o).to_vec();
        let dyn_in: Vec<Value> = operands
            .iter()
            .copied()
            .filter(|v| self.shapes.contains_key(v))
            .collect();
        let size_in: Vec<Value> = operands
            .iter()
            .copied()
            .filter(|v| {
                self.scalars
                    .get(v)
                    .is_some_and(|s| s.iter().any(Dim::is_dynamic))
            })
            .collect();
        let pred_in = operands.iter().any(|v| self.preds.contains(v));
        let dyn_out = ctx
            .results(o)
            .any(|r| is_dynamic_type(ctx, ctx.value_type(r)));
        let sizes_of = shlo::GetDimensionSize::is(ctx, o);
        let size_any = operands.iter().any(|v| self.scalars.contains_key(v));
        if dyn_in.is_empty() && !size_any && !pred_in && !dyn_out && !sizes_of {
            return Ok(());
        }
        // Sizes: get_dimension_size and shape arithmetic.
        if let Some(g) = shlo::GetDimensionSize::of(ctx, o) {
            let d = g.dimension(ctx).unwrap_or(0) as usize;
            let dims = self.dims(ctx, g.operand(ctx));
            let Some(dim) = dims.get(d) else {
                return fail(format!("dimension {d} is out of range"));
            };
            self.scalars.insert(ctx.result(o, 0), vec![dim.clone()]);
            return Ok(());
        }
        if shlo::structured::CustomCall::is(ctx, o) && call_target(ctx, o) == "shape_assertion" {
            self.erase.push(o);
            if self.refine {
                return Ok(());
            }
            // At run time every size is at least 1 and sizes of one name are
            // equal: an assertion of that is true; any other is not ours.
            let c = operands
                .first()
                .and_then(|p| shlo::Compare::defining(ctx, *p));
            let ok = c.is_some_and(|c| {
                let (l, r) = (self.sizes(ctx, c.lhs(ctx)), self.sizes(ctx, c.rhs(ctx)));
                match (c.comparison_direction(ctx), l, r) {
                    (Some(shlo::ComparisonDirection::Eq), Some(l), Some(r)) => l == r,
                    (Some(shlo::ComparisonDirection::Ge), Some(l), Some(r)) => {
                        l.len() == 1
                            && r.len() == 1
                            && l[0].coef >= 1
                            && !r[0].is_dynamic()
                            && r[0].coef <= l[0].coef
                    }
                    _ => false,
                }
            });
            if !ok {
                return fail(format!(
                    "shape assertion '{}' is not one aic can check (only sizes >= 1 and equal sizes)",
                    op_attr(ctx, o, "error_message")
                        .and_then(|a| ctx.attr_str(a))
                        .unwrap_or("")
                ));
            }
            return Ok(());
        }
        if size_any && self.size_arith(ctx, o)? {
            return Ok(());
        }
        if !size_in.is_empty() && !self.refine {
            return fail(
                "uses the size of a dynamic dimension as a value: aic compiles sizes used only as shapes"
                    .into(),
            );
        }
        if pred_in {
            return fail("reads a comparison of dynamic sizes: only a shape_assertion may".into());
        }
        if let Some(c) = func::Call::of(ctx, o) {
            return self.call(ctx, c);
        }
        let out = self.infer(ctx, o)?;
        for (r, dims) in ctx.results(o).zip(out) {
            if dims.iter().any(Dim::is_dynamic) {
                if !self.refine {
                    leading(&dims).map_err(|m| op_error(ctx, o, m))?;
                }
                self.shapes.insert(r, dims);
            }
        }
        Ok(())
    }

    /// Arithmetic on sizes (an op reading a size).
    fn size_arith(&mut self, ctx: &Context, o: Op) -> Result<bool, Diagnostic> {
        let operands: Vec<Value> = ctx.operands(o).to_vec();
        let get = |v: Value| self.sizes(ctx, v);
        let res = ctx.results(o).next();
        let value: Option<Vec<Dim>> = if shlo::Reshape::is(ctx, o) || shlo::Convert::is(ctx, o) {
            get(operands[0])
        } else if shlo::Concatenate::is(ctx, o) {
            operands
                .iter()
                .map(|v| get(*v))
                .collect::<Option<Vec<_>>>()
                .map(|xs| xs.concat())
        } else if shlo::Multiply::is(ctx, o) || shlo::Divide::is(ctx, o) {
            let (a, b) = (get(operands[0]), get(operands[1]));
            match (a, b) {
                (Some(a), Some(b)) if a.len() == b.len() => a
                    .iter()
                    .zip(&b)
                    .map(|(x, y)| {
                        if shlo::Multiply::is(ctx, o) {
                            x.mul(y)
                        } else {
                            x.div(y)
                        }
                    })
                    .collect(),
                _ => None,
            }
        } else if shlo::Compare::is(ctx, o) {
            if let Some(r) = res {
                self.preds.insert(r);
            }
            return Ok(true);
        } else if shlo::structured::CustomCall::is(ctx, o)
            && call_target(ctx, o) == "shape_assertion"
        {
            return Ok(true);
        } else if let Some(c) = func::Call::of(ctx, o) {
            return self.call(ctx, c).map(|()| true);
        } else if shlo::dynamic::DynamicBroadcastInDim::is(ctx, o)
            || shlo::dynamic::DynamicReshape::is(ctx, o)
            || shlo::dynamic::DynamicIota::is(ctx, o)
        {
            let out = self.infer(ctx, o)?;
            for (r, dims) in ctx.results(o).zip(out) {
                if dims.iter().any(Dim::is_dynamic) {
                    if !self.refine {
                        leading(&dims).map_err(|m| op_error(ctx, o, m))?;
                    }
                    self.shapes.insert(r, dims);
                }
            }
            return Ok(true);
        } else {
            None
        };
        match (value, res) {
            (Some(v), Some(r)) => {
                self.scalars.insert(r, v);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// A call: the callee analysed with the operands' dims (once).
    fn call(&mut self, ctx: &Context, c: func::Call) -> Result<(), Diagnostic> {
        let o = c.op();
        let callee = op_attr(ctx, o, "callee")
            .and_then(|a| aic::symbol::lookup_nearest_symbol_from(ctx, o, a))
            .ok_or_else(|| op_error(ctx, o, "the callee is not found"))?;
        // What the call passes: each operand's dims and sizes.
        let seeds: Seeds = ctx
            .operands(o)
            .iter()
            .map(|x| (self.shapes.get(x).cloned(), self.scalars.get(x).cloned()))
            .collect();
        if let Some((before, results)) = self.done.get(&callee) {
            // Called again (JAX calls one `@relu` per use): the same dims
            // give the same results; other dims would need a copy of it.
            if *before != seeds {
                return Err(op_error(
                    ctx,
                    o,
                    "a function with dynamic dimensions is called with other dims than before: inline it first",
                ));
            }
            let results = results.clone();
            for (r, d) in ctx.results(o).zip(&results) {
                if d.iter().any(Dim::is_dynamic) {
                    self.shapes.insert(r, d.clone());
                }
            }
            return Ok(());
        }
        let block = body(ctx, callee).ok_or_else(|| op_error(ctx, o, "the callee has no body"))?;
        let params: Vec<Value> = ctx.block_args(block).to_vec();
        for (p, x) in params.iter().zip(ctx.operands(o)) {
            if let Some(d) = self.shapes.get(x).cloned() {
                self.shapes.insert(*p, d);
            }
            if let Some(s) = self.scalars.get(x).cloned() {
                self.scalars.insert(*p, s);
            }
        }
        let results = self.function(ctx, callee)?;
        for (r, d) in ctx.results(o).zip(&results) {
            if d.iter().any(Dim::is_dynamic) {
                self.shapes.insert(r, d.clone());
            }
        }
        self.done.insert(callee, (seeds, results));
        Ok(())
    }

    /// The dims of `o`'s results, checking (when compiling) that each result
    /// row comes from the same rows of its operands.
    fn infer(&self, ctx: &Context, o: Op) -> Result<Vec<Vec<Dim>>, Diagnostic> {
        let fail = |m: String| op_error(ctx, o, m);
        let operands: Vec<Value> = ctx.operands(o).to_vec();
        let res_shape = |k: usize| shape_of_type(ctx, ctx.value_type(ctx.result(o, k)));
        // For each result: its dims, and for each operand the operand dim
        // each result dim comes from.
        type Maps = Vec<(Value, Vec<Option<usize>>)>;
        let identity = |v: Value, rank: usize| (v, (0..rank).map(Some).collect::<Vec<_>>());
        let from_type =
            |k: usize, known: &dyn Fn(usize) -> Option<Dim>| -> Result<Vec<Dim>, Diagnostic> {
                res_shape(k)
                    .iter()
                    .enumerate()
                    .map(|(j, n)| match *n {
                        DYNAMIC => known(j)
                            .ok_or_else(|| fail(format!("leaves result dimension {j} unknown"))),
                        n => Ok(Dim::fixed(n)),
                    })
                    .collect()
            };
        let (out, maps, joint): (Vec<Vec<Dim>>, Maps, bool) = if ctx
            .op_spec(o)
            .is_some_and(|s| s.has(aic::Traits::ELEMENTWISE))
            || shlo::Select::is(ctx, o)
            || shlo::Clamp::is(ctx, o)
        {
            let rank = res_shape(0).len();
            let full: Vec<Value> = operands
                .iter()
                .copied()
                .filter(|v| shape_of_type(ctx, ctx.value_type(*v)).len() == rank)
                .collect();
            let first = full
                .iter()
                .find(|v| self.shapes.contains_key(v))
                .map(|v| self.dims(ctx, *v));
            let dims = match first {
                Some(d) => d,
                None => from_type(0, &|_| None)?,
            };
            for v in &full {
                let d = self.dims(ctx, *v);
                if d != dims {
                    return Err(fail(format!(
                        "combines operands of dims [{}] and [{}]: dynamic dimensions of different names (or sizes) cannot meet",
                        text(&dims),
                        text(&d)
                    )));
                }
            }
            let n = ctx.results(o).count();
            (
                vec![dims; n],
                full.iter().map(|v| identity(*v, rank)).collect(),
                true,
            )
        } else if shlo::BroadcastInDim::is(ctx, o)
            || shlo::dynamic::DynamicBroadcastInDim::is(ctx, o)
        {
            let x = operands[0];
            let xd = self.dims(ctx, x);
            let bd: Vec<i64> = aic::constraints::i64_array_attr(ctx, o, "broadcast_dimensions")
                .unwrap_or_default();
            let rank = res_shape(0).len();
            let given = if shlo::dynamic::DynamicBroadcastInDim::is(ctx, o) {
                self.sizes(ctx, operands[1])
            } else {
                None
            };
            let mut map = vec![None; rank];
            for (k, j) in bd.iter().enumerate() {
                if let Some(m) = map.get_mut(*j as usize) {
                    *m = Some(k);
                }
            }
            let dims: Vec<Dim> = match given {
                Some(g) if g.len() == rank => g,
                _ => from_type(0, &|j| map[j].map(|k| xd[k].clone()))?,
            };
            // A size-1 operand dim broadcast onto a longer one is not a
            // source of rows.
            for (j, m) in map.iter_mut().enumerate() {
                if let Some(k) = *m
                    && xd[k] != dims[j]
                {
                    *m = None;
                }
            }
            (vec![dims], vec![(x, map)], true)
        } else if shlo::Reshape::is(ctx, o) || shlo::dynamic::DynamicReshape::is(ctx, o) {
            let x = operands[0];
            let xd = self.dims(ctx, x);
            let total = Dim::product(&xd).ok_or_else(|| fail("overflows".into()))?;
            let given = if shlo::dynamic::DynamicReshape::is(ctx, o) {
                self.sizes(ctx, operands[1])
            } else {
                None
            };
            let dims = match given {
                Some(g) => g,
                None => {
                    // One `?` at most: the rest of the operand's product.
                    let shape = res_shape(0);
                    let known: Vec<Dim> = shape
                        .iter()
                        .filter(|n| **n != DYNAMIC)
                        .map(|n| Dim::fixed(*n))
                        .collect();
                    let rest = Dim::product(&known).and_then(|k| total.div(&k));
                    from_type(0, &|_| rest.clone())?
                }
            };
            if Dim::product(&dims) != Some(total.clone()) && !self.refine {
                return Err(fail(format!(
                    "reshapes [{}] to [{}]: the element counts differ",
                    text(&xd),
                    text(&dims)
                )));
            }
            // A reshape keeps the row-major order: padding at the end stays
            // at the end, so it needs only both sides leading.
            (vec![dims], Vec::new(), false)
        } else if shlo::Transpose::is(ctx, o) {
            let x = operands[0];
            let xd = self.dims(ctx, x);
            let perm: Vec<i64> =
                aic::constraints::i64_array_attr(ctx, o, "permutation").unwrap_or_default();
            let dims: Vec<Dim> = perm.iter().map(|p| xd[*p as usize].clone()).collect();
            let map = perm.iter().map(|p| Some(*p as usize)).collect();
            (vec![dims], vec![(x, map)], true)
        } else if let Some(r) = Reduce::of(ctx, o) {
            let n = operands.len() / 2;
            let red: Vec<i64> =
                aic::constraints::i64_array_attr(ctx, o, "dimensions").unwrap_or_default();
            let _ = r;
            let mut outs = Vec::new();
            let mut maps = Vec::new();
            for x in &operands[..n] {
                let xd = self.dims(ctx, *x);
                let keep: Vec<usize> = (0..xd.len())
                    .filter(|d| !red.contains(&(*d as i64)))
                    .collect();
                outs.push(keep.iter().map(|d| xd[*d].clone()).collect::<Vec<Dim>>());
                maps.push((*x, keep.iter().map(|d| Some(*d)).collect()));
            }
            (outs, maps, true)
        } else if let Some(dot) = DotGeneral::of(ctx, o) {
            let dd = dot
                .dot_dimension_numbers(ctx)
                .and_then(|a| DotDims::of(ctx, a).cloned())
                .ok_or_else(|| fail("has no dimension numbers".into()))?;
            let (l, r) = (dot.lhs(ctx), dot.rhs(ctx));
            let (ld, rd) = (self.dims(ctx, l), self.dims(ctx, r));
            let free = |n: usize, batch: &[i64], con: &[i64]| -> Vec<usize> {
                (0..n)
                    .filter(|d| !batch.contains(&(*d as i64)) && !con.contains(&(*d as i64)))
                    .collect()
            };
            let lf = free(ld.len(), &dd.lhs_batch, &dd.lhs_contract);
            let rf = free(rd.len(), &dd.rhs_batch, &dd.rhs_contract);
            let nb = dd.lhs_batch.len();
            let rank = nb + lf.len() + rf.len();
            let mut lmap = vec![None; rank];
            let mut rmap = vec![None; rank];
            let mut dims = Vec::new();
            for (j, (a, b)) in dd.lhs_batch.iter().zip(&dd.rhs_batch).enumerate() {
                if ld[*a as usize] != rd[*b as usize] {
                    return Err(fail("has batch dimensions of different sizes".into()));
                }
                lmap[j] = Some(*a as usize);
                rmap[j] = Some(*b as usize);
                dims.push(ld[*a as usize].clone());
            }
            for (i, d) in lf.iter().enumerate() {
                lmap[nb + i] = Some(*d);
                dims.push(ld[*d].clone());
            }
            for (i, d) in rf.iter().enumerate() {
                rmap[nb + lf.len() + i] = Some(*d);
                dims.push(rd[*d].clone());
            }
            (vec![dims], vec![(l, lmap), (r, rmap)], true)
        } else if shlo::Concatenate::is(ctx, o) {
            let c = aic::constraints::int_value(
                ctx.uniquer(),
                op_attr(ctx, o, "dimension").ok_or_else(|| fail("has no dimension".into()))?,
            )
            .unwrap_or(0) as usize;
            let mut dims = self.dims(ctx, operands[0]);
            let mut sum = 0i64;
            for v in &operands {
                let d = self.dims(ctx, *v);
                if d[c].is_dynamic() {
                    return Err(fail(format!(
                        "concatenates along dynamic dimension '{}'",
                        d[c]
                    )));
                }
                sum += d[c].coef;
            }
            dims[c] = Dim::fixed(sum);
            let rank = dims.len();
            let maps = operands
                .iter()
                .map(|v| {
                    let mut m: Vec<Option<usize>> = (0..rank).map(Some).collect();
                    m[c] = None;
                    (*v, m)
                })
                .collect();
            (vec![dims], maps, true)
        } else if shlo::Slice::is(ctx, o) || shlo::Pad::is(ctx, o) || shlo::Reverse::is(ctx, o) {
            let x = operands[0];
            let xd = self.dims(ctx, x);
            let shape = res_shape(0);
            let mut dims = Vec::new();
            let mut map = Vec::new();
            for (j, n) in shape.iter().enumerate() {
                if xd[j].is_dynamic() {
                    // Only an untouched dynamic dim keeps its rows.
                    let untouched = if shlo::Slice::is(ctx, o) {
                        false
                    } else if shlo::Pad::is(ctx, o) {
                        ["edge_padding_low", "edge_padding_high", "interior_padding"]
                            .iter()
                            .all(|a| {
                                aic::constraints::i64_array_attr(ctx, o, a)
                                    .is_some_and(|p| p.get(j) == Some(&0))
                            })
                    } else {
                        !aic::constraints::i64_array_attr(ctx, o, "dimensions")
                            .unwrap_or_default()
                            .contains(&(j as i64))
                    };
                    if !untouched {
                        return Err(fail(format!(
                            "changes dynamic dimension '{}': aic slices, pads and reverses static dimensions only",
                            xd[j]
                        )));
                    }
                    dims.push(xd[j].clone());
                    map.push(Some(j));
                } else {
                    dims.push(Dim::fixed(*n));
                    map.push(None);
                }
            }
            (vec![dims], vec![(x, map)], true)
        } else if shlo::dynamic::DynamicIota::is(ctx, o) || shlo::Iota::is(ctx, o) {
            let dims = match shlo::dynamic::DynamicIota::is(ctx, o) {
                true => self
                    .sizes(ctx, operands[0])
                    .ok_or_else(|| fail("has a shape aic cannot follow".into()))?,
                false => from_type(0, &|_| None)?,
            };
            let d = aic::constraints::int_value(
                ctx.uniquer(),
                op_attr(ctx, o, "iota_dimension").ok_or_else(|| fail("has no dimension".into()))?,
            )
            .unwrap_or(0) as usize;
            let p = dims.iter().take_while(|x| x.is_dynamic()).count();
            if !self.refine && d < p && (p > 1 || d > 0) {
                return Err(fail(format!(
                    "counts along dynamic dimension '{}' among several: its values would depend on the bounds",
                    dims[d]
                )));
            }
            (vec![dims], Vec::new(), false)
        } else if self.refine {
            // Refining: an op aic cannot follow must have static results.
            let outs: Vec<Vec<Dim>> = (0..ctx.num_results(o))
                .map(|k| from_type(k, &|_| None))
                .collect::<Result<_, _>>()?;
            (outs, Vec::new(), false)
        } else {
            let names: Vec<String> = operands
                .iter()
                .filter_map(|v| self.shapes.get(v))
                .flat_map(|d| d.iter().filter(|x| x.is_dynamic()).map(Dim::to_string))
                .collect();
            return Err(fail(format!(
                "cannot take dynamic dimensions ({}): aic compiles them through elementwise ops, broadcasts, reshapes, transposes, reductions, slices, pads and concatenations of other dimensions, and dot_general",
                if names.is_empty() {
                    "in its result".to_string()
                } else {
                    names.join(", ")
                }
            )));
        };
        if joint && !self.refine {
            for (k, dims) in out.iter().enumerate() {
                let p = leading(dims).map_err(&fail)?;
                for (x, map) in &maps {
                    let xd = self.dims(ctx, *x);
                    let px = leading(&xd).map_err(&fail)?;
                    if px == 0 {
                        continue;
                    }
                    let keeps = px == p
                        && (0..p)
                            .all(|j| map.get(j).copied().flatten() == Some(j) && xd[j] == dims[j]);
                    if !keeps {
                        return Err(fail(format!(
                            "mixes the rows of dynamic dimensions [{}] (result {k} [{}]): aic compiles ops that keep each row of the dynamic leading dimensions apart (a reduction, contraction or broadcast along them is not one)",
                            text(&xd[..px]),
                            text(dims)
                        )));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Refining: each shape assertion evaluated at the sizes.
    fn check_assertions(
        &self,
        ctx: &Context,
        value: &BTreeMap<String, i64>,
    ) -> Result<(), Diagnostic> {
        let at = |s: &str| value.get(s).copied();
        for o in &self.erase {
            let Some(c) = ctx
                .operands(*o)
                .first()
                .and_then(|p| shlo::Compare::defining(ctx, *p))
            else {
                continue;
            };
            let side = |v: Value| {
                self.sizes(ctx, v)
                    .and_then(|s| s.first().and_then(|d| d.eval(&at)))
            };
            let (Some(l), Some(r)) = (side(c.lhs(ctx)), side(c.rhs(ctx))) else {
                continue;
            };
            use shlo::ComparisonDirection as D;
            let holds = match c.comparison_direction(ctx) {
                Some(D::Eq) => l == r,
                Some(D::Ne) => l != r,
                Some(D::Ge) => l >= r,
                Some(D::Gt) => l > r,
                Some(D::Le) => l <= r,
                Some(D::Lt) => l < r,
                None => true,
            };
            if !holds {
                let mut m = op_attr(ctx, *o, "error_message")
                    .and_then(|a| ctx.attr_str(a))
                    .unwrap_or("shape assertion failed")
                    .to_string();
                // `{k}`: the k-th operand after the predicate, as JAX writes it.
                for (k, v) in ctx.operands(*o).iter().skip(1).enumerate() {
                    if let Some(n) = side(*v) {
                        m = m.replace(&format!("{{{k}}}"), &n.to_string());
                    }
                }
                return Err(op_error(ctx, *o, m));
            }
        }
        Ok(())
    }

    /// Every dynamic type made static at `value`, dynamic ops made static,
    /// shape assertions erased, function types updated.
    fn rewrite(
        &mut self,
        ctx: &mut Context,
        value: &BTreeMap<String, i64>,
    ) -> Result<(), Diagnostic> {
        let at = |s: &str| value.get(s).copied();
        let mut touched_funcs: HashSet<Op> = HashSet::new();
        let shapes: Vec<(Value, Vec<Dim>)> =
            self.shapes.iter().map(|(v, d)| (*v, d.clone())).collect();
        for (v, dims) in shapes {
            let ty = ctx.value_type(v);
            let (elem, encoding) = match ctx.type_kind(ty) {
                TypeKind::Tensor { elem, encoding, .. } => (*elem, *encoding),
                _ => continue,
            };
            let mut shape = smallvec::SmallVec::new();
            for d in &dims {
                let n = d.eval(&at).ok_or_else(|| {
                    let o = ctx.defining_op(v).unwrap_or(self.module);
                    op_error(
                        ctx,
                        o,
                        format!("dimension '{d}' overflows at the given sizes"),
                    )
                })?;
                shape.push(n);
            }
            let nt = ctx.uniquer().ty(TypeKind::Tensor {
                shape,
                elem,
                encoding,
            });
            ctx.set_value_type(v, nt);
        }
        // Dynamic ops as their static namesakes.
        let mut dynamic_ops = Vec::new();
        ctx.walk(self.module, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if shlo::dynamic::DynamicBroadcastInDim::is(ctx, o)
                || shlo::dynamic::DynamicReshape::is(ctx, o)
                || shlo::dynamic::DynamicIota::is(ctx, o)
            {
                dynamic_ops.push(o);
            }
            if func::Func::is(ctx, o) {
                touched_funcs.insert(o);
            }
        });
        for o in dynamic_ops {
            let ty = ctx.value_type(ctx.result(o, 0));
            if is_dynamic_type(ctx, ty) {
                continue;
            }
            let loc = ctx.op(o).loc;
            let x = ctx.operands(o)[0];
            let mut b = Builder {
                ctx,
                ip: InsertPoint::Before(o),
                loc,
            };
            let new = if shlo::dynamic::DynamicBroadcastInDim::is(b.ctx, o) {
                let dims = op_attr(b.ctx, o, "broadcast_dimensions");
                aic::op_def::build(
                    &mut b,
                    &shlo::BROADCAST_IN_DIM,
                    &[&[x]],
                    &[("broadcast_dimensions", dims)],
                    &[&[ty]],
                )
            } else if shlo::dynamic::DynamicReshape::is(b.ctx, o) {
                aic::op_def::build(&mut b, &shlo::RESHAPE, &[&[x]], &[], &[&[ty]])
            } else {
                let d = op_attr(b.ctx, o, "iota_dimension");
                aic::op_def::build(&mut b, &shlo::IOTA, &[], &[("iota_dimension", d)], &[&[ty]])
            };
            let (old, new) = (ctx.result(o, 0), ctx.result(new, 0));
            ctx.replace_all_uses(old, new);
            ctx.erase_op(o);
        }
        for o in std::mem::take(&mut self.erase) {
            let pred = ctx.operands(o).first().copied();
            ctx.erase_op(o);
            if let Some(p) = pred
                && ctx.uses(p).is_empty()
                && let Some(d) = ctx.defining_op(p)
            {
                ctx.erase_op(d);
            }
        }
        // Shape arithmetic left without uses.
        loop {
            let mut dead = Vec::new();
            for v in self.scalars.keys() {
                if let Some(d) = ctx.defining_op(*v)
                    && !ctx.is_erased(d)
                    && ctx.results(d).all(|r| ctx.uses(r).is_empty())
                    && !func::Call::is(ctx, d)
                {
                    dead.push(d);
                }
            }
            dead.sort();
            dead.dedup();
            if dead.is_empty() {
                break;
            }
            for d in dead {
                ctx.erase_op(d);
            }
        }
        for f in touched_funcs {
            let Some(block) = body(ctx, f) else {
                continue;
            };
            let ins: Vec<Type> = ctx
                .block_args(block)
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect();
            let outs: Vec<Type> = ctx
                .block_ops(block)
                .last()
                .map(|r| ctx.operands(r).iter().map(|v| ctx.value_type(*v)).collect())
                .unwrap_or_default();
            let u = ctx.uniquer().clone();
            let ft = u.ty(TypeKind::Function {
                inputs: ins.into(),
                results: outs.into(),
            });
            ctx.set_inherent_attr(f, u.ident("function_type"), u.attr(AttrKind::Type(ft)));
        }
        Ok(())
    }
}

fn call_target(ctx: &Context, o: Op) -> String {
    op_attr(ctx, o, "call_target_name")
        .and_then(|a| ctx.attr_str(a).map(str::to_string))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_print_and_parse() {
        for s in ["16", "b", "4*b*s", "b*s"] {
            let d: Dim = s.parse().unwrap();
            assert_eq!(d.to_string(), s);
        }
        let d: Dim = "s*4*b".parse().unwrap();
        assert_eq!(d.to_string(), "4*b*s");
        assert!("b+1".parse::<Dim>().is_err());
        let at = |s: &str| match s {
            "b" => Some(3),
            "s" => Some(5),
            _ => None,
        };
        assert_eq!(d.eval(&at), Some(60));
        assert_eq!(Dim::sym("x").eval(&at), None);
    }

    #[test]
    fn leading_dims_only() {
        let d = |s: &str| s.parse::<Dim>().unwrap();
        assert_eq!(leading(&[d("b"), d("s"), d("16")]), Ok(2));
        assert!(leading(&[d("16"), d("b")]).is_err());
        assert_eq!(d("4*b*s").div(&d("b")), Some(d("4*s")));
        assert_eq!(d("4*b").div(&d("s")), None);
    }

    #[test]
    fn assignments() {
        let m = parse_assignments(&["b=64".into(), " s = 8".into()], "x").unwrap();
        assert_eq!(m["b"], 64);
        assert_eq!(m["s"], 8);
        assert!(parse_assignments(&["b".into()], "x").is_err());
        assert!(parse_assignments(&["b=0".into()], "x").is_err());
    }
}
