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
use aic::interp::{Tensor, attr_of_tensor, tensor_of_attr};
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
            name: "buckets",
            kind: OptKind::StrList,
            default: "",
            range: None,
            help: "Smaller bounds to compile too, NAME=N each: one copy of each public function per combination, which the run time picks for the sizes of a call",
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
            buckets: o.list("buckets").to_vec(),
            shapes: o.list("shapes").to_vec(),
        })
    },
};

struct DynamicDims {
    bounds: Vec<String>,
    default_bound: i64,
    buckets: Vec<String>,
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
/// The function attribute saying how tensors hold a run at sizes below the
/// bounds: absent, packed at the front (row-major, the dynamic dims
/// leading); [`IN_PLACE`], padded in place in each dynamic dim.
pub const LAYOUT_ATTR: &str = "aic.dim_layout";
/// [`LAYOUT_ATTR`]'s value for tensors padded in place.
pub const IN_PLACE: &str = "in-place";
/// The entry's attribute listing its buckets: per bucket, the public copy
/// compiled for it and its bounds (`[["main__s128", "s=128"]]`).
pub const BUCKETS_ATTR: &str = "aic.dim_buckets";
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
    /// Whether tensors are padded in place in each dynamic dim (else the
    /// dynamic dims lead and a run's data is packed at the front).
    pub in_place: bool,
    /// The copies compiled for smaller bounds: each one's name and bounds.
    pub buckets: Vec<(String, BTreeMap<String, i64>)>,
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
    let mut buckets = Vec::new();
    if let Some(a) = op_attr(ctx, f, BUCKETS_ATTR) {
        let AttrKind::Array(rows) = ctx.attr_kind(a) else {
            return Err(format!("{BUCKETS_ATTR}: expected an array"));
        };
        for r in rows.iter() {
            let items = strings(*r)?;
            let (name, rest) = items
                .split_first()
                .ok_or_else(|| format!("{BUCKETS_ATTR}: an empty bucket"))?;
            buckets.push((name.clone(), parse_assignments(rest, BUCKETS_ATTR)?));
        }
    }
    Ok(Some(Signature {
        bounds,
        args: dims(ARG_DIMS_ATTR)?,
        results: dims(RESULT_DIMS_ATTR)?,
        sizes,
        in_place: op_attr(ctx, f, LAYOUT_ATTR).and_then(|a| ctx.attr_str(a)) == Some(IN_PLACE),
        buckets,
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
        // Buckets: a copy of each entry (and what it calls) per combination
        // of smaller bounds, compiled at those bounds.
        let mut ladders: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for item in &self.buckets {
            let one = parse_assignments(std::slice::from_ref(item), "dynamic-dims buckets")
                .map_err(|m| op_error(ctx, root, m))?;
            for (k, v) in one {
                ladders.entry(k).or_default().push(v);
            }
        }
        let mut work: Vec<(Op, Option<BTreeMap<String, i64>>)> = Vec::new();
        for f in entries {
            work.push((f, None));
            if refine || ladders.is_empty() {
                continue;
            }
            let probe = Analysis::new(refine, root);
            let mut syms: Vec<String> = probe.name_dims(ctx, f).into_values().collect();
            syms.sort();
            syms.dedup();
            let mut combos: Vec<BTreeMap<String, i64>> = vec![BTreeMap::new()];
            for s in &syms {
                let Some(top) = bounds
                    .get(s)
                    .copied()
                    .or((self.default_bound > 0).then_some(self.default_bound))
                else {
                    // No bound: the entry's own analysis says so.
                    combos.clear();
                    break;
                };
                let mut ladder: Vec<i64> = ladders
                    .get(s)
                    .map(|l| l.iter().copied().filter(|v| *v < top).collect())
                    .unwrap_or_default();
                ladder.push(top);
                ladder.sort();
                ladder.dedup();
                combos = combos
                    .iter()
                    .flat_map(|c| {
                        ladder.iter().map(move |v| {
                            let mut c = c.clone();
                            c.insert(s.clone(), *v);
                            c
                        })
                    })
                    .collect();
            }
            if let Some(s) = ladders.keys().find(|k| !syms.contains(k)) {
                return Err(op_error(
                    ctx,
                    f,
                    format!(
                        "dynamic-dims buckets name '{s}', which is not a dynamic dimension of the function"
                    ),
                ));
            }
            let full = |c: &BTreeMap<String, i64>| {
                c.iter()
                    .all(|(s, v)| bounds.get(s).copied().unwrap_or(self.default_bound) == *v)
            };
            let mut table = Vec::new();
            for c in combos.into_iter().filter(|c| !full(c)) {
                let tag: Vec<String> = c.iter().map(|(k, v)| format!("{k}{v}")).collect();
                let suffix = format!("__{}", tag.join("_").replace('.', "_"));
                let g = clone_closure(ctx, f, &suffix);
                let name = aic::symbol::symbol_name(ctx, g)
                    .unwrap_or_default()
                    .to_string();
                let mut item = vec![name];
                item.extend(c.iter().map(|(k, v)| format!("{k}={v}")));
                table.push(item);
                work.push((g, Some(c)));
            }
            let u = ctx.uniquer().clone();
            let rows: Vec<Attr> = table
                .iter()
                .map(|r| {
                    let items: Vec<Attr> = r.iter().map(|x| u.string_attr(x)).collect();
                    u.attr(AttrKind::Array(items.into()))
                })
                .collect();
            ctx.set_attr(
                f,
                u.ident(BUCKETS_ATTR),
                u.attr(AttrKind::Array(rows.into())),
            );
        }
        for (f, forced) in work {
            let mut a = Analysis::new(refine, root);
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
                if dims.iter().any(Dim::is_dynamic) {
                    a.note_layout(f, &dims);
                    a.shapes.insert(*v, dims.clone());
                }
                arg_dims.push(dims);
            }
            let results = a.function(ctx, f)?;
            let packed = a.packed.borrow().clone();
            let in_place = match (&a.in_place, &packed) {
                (Some((o, why)), Some((p, packed))) if !refine => {
                    let at = format!(
                        "'{}' at {}",
                        ctx.op_name(*o),
                        aic::printer::location_text(ctx.uniquer(), ctx.op(*o).loc)
                    );
                    return Err(op_error(
                        ctx,
                        *p,
                        format!(
                            "{packed}, which needs the dynamic dimensions packed at the front of each tensor, while another op ({at}) {why}, which needs them padded in place: aic compiles one layout a function"
                        ),
                    ));
                }
                (Some(_), _) => true,
                _ => false,
            };
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
                } else if let Some(c) = &forced {
                    c.get(s).copied()
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
                a.materialize(ctx, f, &syms)?;
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
                ctx.set_attr(f, u.ident(SIZE_ARGS_ATTR), strings(syms.clone()));
                if in_place {
                    ctx.set_attr(f, u.ident(LAYOUT_ATTR), u.string_attr(IN_PLACE));
                }
            }
        }
        Ok(true)
    }
}

/// A copy of function `f` and of every function it calls (transitively),
/// each named with `suffix` and placed after its original, the copies'
/// calls retargeted to the copies: `f`'s copy.
fn clone_closure(ctx: &mut Context, f: Op, suffix: &str) -> Op {
    let mut closure = vec![f];
    let mut i = 0;
    while i < closure.len() {
        let g = closure[i];
        let mut callees = Vec::new();
        ctx.walk(g, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if func::Call::is(ctx, o)
                && let Some(c) = op_attr(ctx, o, "callee")
                    .and_then(|a| aic::symbol::lookup_nearest_symbol_from(ctx, o, a))
            {
                callees.push(c);
            }
        });
        for c in callees {
            if !closure.contains(&c) {
                closure.push(c);
            }
        }
        i += 1;
    }
    let u = ctx.uniquer().clone();
    let mut renamed: HashMap<String, String> = HashMap::new();
    let mut copies = Vec::new();
    for g in &closure {
        let name = aic::symbol::symbol_name(ctx, *g)
            .unwrap_or_default()
            .to_string();
        let new_name = format!("{name}{suffix}");
        let copy = ctx.clone_op(*g, &mut aic::ir::ValueMap::default());
        let at = match ctx.next_op(*g) {
            Some(n) => InsertPoint::Before(n),
            None => InsertPoint::End(ctx.parent_block(*g).expect("a function in a module")),
        };
        ctx.insert_op(at, copy);
        ctx.set_inherent_attr(copy, u.ident("sym_name"), u.string_attr(&new_name));
        renamed.insert(name, new_name);
        copies.push(copy);
    }
    for c in &copies {
        let mut calls = Vec::new();
        ctx.walk(*c, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if func::Call::is(ctx, o) {
                calls.push(o);
            }
        });
        for o in calls {
            let target = op_attr(ctx, o, "callee").and_then(|a| match ctx.attr_kind(a) {
                AttrKind::SymbolRef { root, .. } => Some(u.str(*root).to_string()),
                _ => None,
            });
            if let Some(n) = target.and_then(|t| renamed.get(&t)) {
                ctx.set_inherent_attr(o, u.ident("callee"), u.flat_symbol_ref(n));
            }
        }
    }
    copies[0]
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

/// Whether a reshape of `from` into `to` keeps the elements inside the
/// sizes inside them, each tensor padded in each dim to its bound: each
/// group of dims it merges or splits must hold its dynamic factor in the
/// group's first dim on both sides (`[b, 16] -> [16*b]` does; `[16, b] ->
/// [16*b]` or `[b, s] -> [b*s]` interleave padding with data). Unit dims
/// join any group.
fn reshape_keeps_padding(from: &[Dim], to: &[Dim]) -> Result<(), String> {
    let one = Dim::fixed(1);
    let a: Vec<&Dim> = from.iter().filter(|d| **d != one).collect();
    let b: Vec<&Dim> = to.iter().filter(|d| **d != one).collect();
    let bad = || {
        format!(
            "reshapes [{}] to [{}]: merging or splitting a dynamic dimension with one before it would interleave its padding with data",
            text(from),
            text(to)
        )
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (gi, gj) = (i, j);
        let (Some(p0), Some(q0)) = (a.get(i), b.get(j)) else {
            return Err(bad());
        };
        let (mut p, mut q) = ((*p0).clone(), (*q0).clone());
        i += 1;
        j += 1;
        while p != q {
            if q.div(&p).is_some() && i < a.len() {
                p = p.mul(a[i]).ok_or_else(bad)?;
                i += 1;
            } else if p.div(&q).is_some() && j < b.len() {
                q = q.mul(b[j]).ok_or_else(bad)?;
                j += 1;
            } else {
                return Err(bad());
            }
        }
        let rest_static = |g: &[&Dim]| g.iter().skip(1).all(|d| !d.is_dynamic());
        if !rest_static(&a[gi..i]) || !rest_static(&b[gj..j]) {
            return Err(bad());
        }
    }
    Ok(())
}

/// What a reduction or contraction over a dynamic dimension needs: operand
/// `operand` of `op` masked along `dims` (each index and its dim), elements
/// past the sizes replaced by `fill`.
#[derive(Clone, Debug)]
struct Need {
    op: Op,
    operand: usize,
    dims: Vec<(usize, Dim)>,
    fill: Fill,
}

/// What a mask fills the padding with.
#[derive(Clone, Copy, Debug)]
enum Fill {
    /// The reduction's init value, its operand at this index (a constant).
    Init(usize),
    /// Zero, for a contraction.
    Zero,
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
    /// Masks reductions and contractions over dynamic dims need, in
    /// program order.
    needs: Vec<Need>,
    /// The first op (and why) that needs tensors padded in place in each
    /// dynamic dim: a dynamic dim after a static one, a reduction or
    /// contraction over one.
    in_place: Option<(Op, String)>,
    /// The first op (and why) that needs the dynamic leading dims packed at
    /// the front: a reshape merging two of them.
    packed: std::cell::RefCell<Option<(Op, String)>>,
    /// `get_dimension_size` ops of dynamic dims, with the dim.
    size_ops: Vec<(Op, Dim)>,
    /// Each function's value of each dim (`tensor<i32>`).
    dim_values: HashMap<(Op, String), Value>,
    /// The masks built: each mask's value, the dims it masks and its fill
    /// (the attribute and its value).
    masks: HashMap<Value, (Vec<usize>, Attr, f64)>,
    /// [`Analysis::sign`] of each value asked (None while being asked:
    /// a call cycle proves nothing).
    signs: std::cell::RefCell<HashMap<Value, Option<Sign>>>,
    module: Op,
}

/// What is known of the values a tensor holds past the sizes, given
/// finite arguments: finite, also at least zero, or also above zero (each
/// implies the ones before). Overflow is not modelled: a product of finite
/// values counts as finite, as the values inside the sizes would overflow
/// alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sign {
    Finite,
    NonNeg,
    Positive,
}

impl Analysis {
    fn new(refine: bool, module: Op) -> Analysis {
        Analysis {
            refine,
            shapes: HashMap::new(),
            scalars: HashMap::new(),
            preds: HashSet::new(),
            done: HashMap::new(),
            erase: Vec::new(),
            needs: Vec::new(),
            in_place: None,
            packed: Default::default(),
            size_ops: Vec::new(),
            dim_values: HashMap::new(),
            masks: HashMap::new(),
            signs: Default::default(),
            module,
        }
    }

    /// What `v` is known to hold past the sizes when the public function's
    /// arguments are finite ([`Sign`]; `None`: it may be infinite or NaN
    /// there). The arguments are zero past the sizes (the runtime pads
    /// them so), and what they pass on keeps its sign through the
    /// arithmetic a layer norm or a projection does: `x * x`, sums and
    /// means, `var + eps` with a positive epsilon, `rsqrt` of a positive
    /// value, products and contractions.
    fn sign(&self, ctx: &Context, v: Value) -> Option<Sign> {
        if let Some(s) = self.signs.borrow().get(&v) {
            return *s;
        }
        self.signs.borrow_mut().insert(v, None);
        let s = self.sign_of(ctx, v);
        self.signs.borrow_mut().insert(v, s);
        s
    }

    fn sign_of(&self, ctx: &Context, v: Value) -> Option<Sign> {
        use Sign::{Finite, NonNeg, Positive};
        let ty = ctx.value_type(v);
        let float = ctx
            .type_kind(ty)
            .element_type()
            .is_some_and(|e| ctx.type_kind(e).is_float());
        if !float {
            return Some(Finite);
        }
        let o = match ctx.value_def(v) {
            aic::ir::ValueDef::Result(o, _) => o,
            aic::ir::ValueDef::Arg(b, i) => {
                let f = ctx.block_owner(b).filter(|f| func::Func::is(ctx, *f))?;
                if aic::symbol::visibility(ctx, f) != Some(aic::symbol::Visibility::Private) {
                    return Some(Finite);
                }
                let calls = calls_of(ctx, self.module, f);
                return calls
                    .iter()
                    .map(|c| {
                        ctx.operands(*c)
                            .get(i as usize)
                            .and_then(|a| self.sign(ctx, *a))
                    })
                    .min()
                    .flatten()
                    .filter(|_| !calls.is_empty());
            }
            _ => return None,
        };
        let ops = ctx.operands(o);
        let of = |i: usize| ops.get(i).and_then(|x| self.sign(ctx, *x));
        let all = || ops.iter().map(|x| self.sign(ctx, *x)).min().flatten();
        if shlo::Constant::is(ctx, o) {
            let t = op_attr(ctx, o, "value").and_then(|a| tensor_of_attr(ctx.uniquer(), a, ty))?;
            let vals = t.to_f64s();
            return if vals.iter().all(|x| *x > 0.0) {
                Some(Positive)
            } else if vals.iter().all(|x| *x >= 0.0) {
                Some(NonNeg)
            } else {
                vals.iter().all(|x| x.is_finite()).then_some(Finite)
            };
        }
        if shlo::Iota::is(ctx, o) {
            return Some(NonNeg);
        }
        let view = shlo::Convert::is(ctx, o)
            || shlo::BroadcastInDim::is(ctx, o)
            || shlo::dynamic::DynamicBroadcastInDim::is(ctx, o)
            || shlo::Reshape::is(ctx, o)
            || shlo::dynamic::DynamicReshape::is(ctx, o)
            || shlo::Transpose::is(ctx, o)
            || shlo::Slice::is(ctx, o)
            || shlo::Reverse::is(ctx, o);
        if view {
            return of(0);
        }
        if shlo::Concatenate::is(ctx, o) || shlo::Minimum::is(ctx, o) {
            return all();
        }
        if shlo::Select::is(ctx, o) {
            return of(1).min(of(2));
        }
        if shlo::Negate::is(ctx, o) || shlo::Subtract::is(ctx, o) {
            return all().map(|_| Finite);
        }
        if shlo::Abs::is(ctx, o) {
            return of(0).map(|s| s.max(NonNeg));
        }
        if shlo::Tanh::is(ctx, o) {
            return of(0).map(|_| Finite);
        }
        if shlo::Logistic::is(ctx, o) {
            return of(0).map(|_| NonNeg);
        }
        if shlo::Rsqrt::is(ctx, o) {
            return (of(0) == Some(Positive)).then_some(Positive);
        }
        if shlo::Sqrt::is(ctx, o) {
            return of(0).filter(|s| *s >= NonNeg);
        }
        if shlo::Add::is(ctx, o) {
            let (a, b) = (of(0)?, of(1)?);
            return Some(if a >= NonNeg && b >= NonNeg {
                a.max(b)
            } else {
                Finite
            });
        }
        if shlo::Maximum::is(ctx, o) {
            let (a, b) = (of(0)?, of(1)?);
            return Some(a.max(b));
        }
        if shlo::Multiply::is(ctx, o) {
            if ops.len() == 2 && ops[0] == ops[1] {
                return of(0).map(|s| s.max(NonNeg));
            }
            let (a, b) = (of(0)?, of(1)?);
            return Some(a.min(b));
        }
        if shlo::Divide::is(ctx, o) {
            let (a, b) = (of(0)?, of(1)?);
            return (b == Positive).then_some(a);
        }
        if DotGeneral::is(ctx, o) {
            return all().map(|_| Finite);
        }
        if Reduce::is(ctx, o) {
            // A sum, maximum or minimum of its operands and inits.
            let body = ctx.regions(o).first().and_then(|g| ctx.entry_block(*g))?;
            let combine = ctx.block_ops(body).next()?;
            let kept = shlo::Add::is(ctx, combine)
                || shlo::Maximum::is(ctx, combine)
                || shlo::Minimum::is(ctx, combine);
            return kept.then(all).flatten().map(|s| s.min(NonNeg));
        }
        None
    }

    /// Notes that `o` needs tensors padded in place (the first such op).
    fn note_in_place(&mut self, o: Op, why: String) {
        if self.in_place.is_none() && !self.refine {
            self.in_place = Some((o, why));
        }
    }

    /// Notes that `o` needs the dynamic leading dims packed at the front.
    fn note_packed(&self, o: Op, why: String) {
        let mut p = self.packed.borrow_mut();
        if p.is_none() && !self.refine {
            *p = Some((o, why));
        }
    }

    /// A tensor of `dims` made by `o`: a dynamic dim after a static one
    /// needs tensors padded in place.
    fn note_layout(&mut self, o: Op, dims: &[Dim]) {
        let lead = dims.iter().take_while(|d| d.is_dynamic()).count();
        if let Some(d) = dims[lead..].iter().find(|d| d.is_dynamic()) {
            self.note_in_place(
                o,
                format!(
                    "has dynamic dimension '{d}' after a static one in [{}]",
                    text(dims)
                ),
            );
        }
    }

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

    /// A slice's start, limit and stride per dim: `real_dynamic_slice`'s
    /// operands, or a `dynamic_gather` that is a slice (what `x[..., :k]`
    /// of a symbolic shape exports: constant starts, every dim an offset
    /// dim, nothing collapsed), its starts clamped as gather clamps them.
    fn slice_bounds(&self, ctx: &Context, o: Op) -> Option<[Vec<Dim>; 3]> {
        let ops = ctx.operands(o);
        let rank = shape_of_type(ctx, ctx.value_type(ops[0])).len();
        if shlo::dynamic::RealDynamicSlice::is(ctx, o) {
            let get = |k: usize| self.sizes(ctx, ops[k]).filter(|v| v.len() == rank);
            return Some([get(1)?, get(2)?, get(3)?]);
        }
        let g = gather_slice(ctx, o)?;
        let xd = self.dims(ctx, ops[0]);
        let sizes = self.sizes(ctx, ops[2]).filter(|v| v.len() == rank)?;
        let mut start = vec![Dim::fixed(0); rank];
        let mut limit = sizes.clone();
        for (d, s0) in g {
            let (n, size) = (&xd[d], &sizes[d]);
            if n.is_dynamic() || size.is_dynamic() {
                if s0 != 0 && n != size {
                    return None;
                }
                continue;
            }
            let s0 = s0.clamp(0, (n.coef - size.coef).max(0));
            start[d] = Dim::fixed(s0);
            limit[d] = Dim::fixed(s0 + size.coef);
        }
        Some([start, limit, vec![Dim::fixed(1); rank]])
    }

    /// The sizes integer tensor `v` holds (a constant, or computed from
    /// sizes).
    fn sizes(&self, ctx: &Context, v: Value) -> Option<Vec<Dim>> {
        if let Some(s) = self.scalars.get(&v) {
            return Some(s.clone());
        }
        // Shape arithmetic on constants alone (JAX's slice bounds) was not
        // followed as sizes: evaluate it here.
        let o = ctx.defining_op(v)?;
        if shlo::Concatenate::is(ctx, o) {
            let parts: Option<Vec<Vec<Dim>>> = ctx
                .operands(o)
                .iter()
                .map(|x| self.sizes(ctx, *x))
                .collect();
            return parts.map(|p| p.concat());
        }
        if shlo::Reshape::is(ctx, o) || shlo::Convert::is(ctx, o) {
            return self.sizes(ctx, ctx.operands(o)[0]);
        }
        Some(constant_ints(ctx, v)?.into_iter().map(Dim::fixed).collect())
    }

    fn op(&mut self, ctx: &Context, o: Op) -> Result<(), Diagnostic> {
        let fail = |m: String| Err(op_error(ctx, o, m));
        let operands: Vec<Value> = ctx.operands(o).to_vec();
        let dyn_in: Vec<Value> = operands
            .iter()
            .copied()
            .filter(|v| self.shapes.contains_key(v))
            .collect();
        let dyn_out = ctx
            .results(o)
            .any(|r| is_dynamic_type(ctx, ctx.value_type(r)));
        let sizes_of = shlo::GetDimensionSize::is(ctx, o);
        let size_any = operands.iter().any(|v| self.scalars.contains_key(v));
        let pred_in = operands.iter().any(|v| self.preds.contains(v));
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
            if dim.is_dynamic() {
                self.size_ops.push((o, dim.clone()));
            }
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
        // A size read as a value (a mean's count, a mask's length) is one:
        // the rewrite gives it the run time's size.
        if let Some(c) = func::Call::of(ctx, o) {
            return self.call(ctx, c);
        }
        let (out, needs) = self.infer(ctx, o)?;
        if let Some(n) = needs.first() {
            self.note_in_place(
                o,
                format!(
                    "reduces or contracts over dynamic dimension '{}'",
                    n.dims[0].1
                ),
            );
        }
        self.needs.extend(needs);
        for (r, dims) in ctx.results(o).zip(out) {
            if dims.iter().any(Dim::is_dynamic) {
                self.note_layout(o, &dims);
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
            || is_dynamic_slice(ctx, o)
        {
            let (out, needs) = self.infer(ctx, o)?;
            self.needs.extend(needs);
            for (r, dims) in ctx.results(o).zip(out) {
                if dims.iter().any(Dim::is_dynamic) {
                    self.note_layout(o, &dims);
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

    /// The dims of `o`'s results, checking (when compiling) that each
    /// result element inside the sizes comes from operand elements inside
    /// them, and the masks that makes so: a reduction or contraction over a
    /// dynamic dimension reads its operands' padding unless it is masked.
    fn infer(&self, ctx: &Context, o: Op) -> Result<(Vec<Vec<Dim>>, Vec<Need>), Diagnostic> {
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
            // Padded in each dim, a reshape keeps the elements inside the
            // sizes inside them where each group of dims it merges or splits
            // has its dynamic factor in the group's first dim on both sides.
            if !self.refine
                && let Err(m) = reshape_keeps_padding(&xd, &dims)
            {
                self.note_packed(o, m);
            }
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
            for (a, b) in dd.lhs_contract.iter().zip(&dd.rhs_contract) {
                let (a, b) = (&ld[*a as usize], &rd[*b as usize]);
                if a != b && (a.is_dynamic() || b.is_dynamic()) {
                    return Err(fail(format!(
                        "contracts dimension '{a}' with '{b}': dynamic dimensions of different names cannot meet"
                    )));
                }
            }
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
        } else if is_dynamic_slice(ctx, o) {
            let x = operands[0];
            let xd = self.dims(ctx, x);
            let [start, limit, step] = self
                .slice_bounds(ctx, o)
                .ok_or_else(|| fail("has slice bounds aic cannot follow".into()))?;
            let mut dims = Vec::new();
            let mut map = Vec::new();
            for j in 0..xd.len() {
                let whole =
                    start[j] == Dim::fixed(0) && step[j] == Dim::fixed(1) && limit[j] == xd[j];
                if whole {
                    dims.push(xd[j].clone());
                    map.push(Some(j));
                } else if let (false, false, false) = (
                    start[j].is_dynamic(),
                    limit[j].is_dynamic(),
                    step[j].is_dynamic(),
                ) {
                    let (s0, l, t) = (start[j].coef, limit[j].coef, step[j].coef.max(1));
                    if xd[j].is_dynamic() && !self.refine {
                        return Err(fail(format!(
                            "changes dynamic dimension '{}': aic slices, pads and reverses static dimensions only",
                            xd[j]
                        )));
                    }
                    dims.push(Dim::fixed((l - s0 + t - 1) / t));
                    map.push(None);
                } else {
                    return Err(fail(format!(
                        "slices dimension {j} from '{}' to '{}': aic slices a dynamic dimension only whole",
                        start[j], limit[j]
                    )));
                }
            }
            (vec![dims], vec![(x, map)], true)
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
            // Padded in each dim, an iota holds the same values inside the
            // sizes at any bound, along whichever dim it counts.
            (vec![dims], Vec::new(), false)
        } else if self.refine || operands.iter().all(|v| !self.shapes.contains_key(v)) {
            // Refining, or reading no dynamic tensor (a size as a value): an
            // op aic cannot follow must have static results.
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
        let mut needs = Vec::new();
        if joint && !self.refine {
            let reduce = Reduce::is(ctx, o);
            let dot = DotGeneral::is(ctx, o);
            for (x, map) in &maps {
                let xd = self.dims(ctx, *x);
                let Some(operand) = operands.iter().position(|v| v == x) else {
                    continue;
                };
                let mut masked = Vec::new();
                for (k, d) in xd.iter().enumerate() {
                    if !d.is_dynamic() {
                        continue;
                    }
                    let kept = out.iter().any(|dims| {
                        map.iter()
                            .enumerate()
                            .any(|(j, m)| *m == Some(k) && dims.get(j) == Some(d))
                    });
                    if kept {
                        continue;
                    }
                    if !(reduce || dot) {
                        return Err(fail(format!(
                            "moves elements along dynamic dimension '{d}' of [{}]: aic compiles ops that keep each element's place in the dynamic dimensions, or reduce or contract over them",
                            text(&xd)
                        )));
                    }
                    masked.push((k, d.clone()));
                }
                if !masked.is_empty() {
                    let fill = if reduce {
                        Fill::Init(operands.len() / 2 + operand)
                    } else {
                        Fill::Zero
                    };
                    needs.push(Need {
                        op: o,
                        operand,
                        dims: masked,
                        fill,
                    });
                }
            }
        }
        Ok((out, needs))
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
                || is_dynamic_slice(ctx, o)
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
            // A slice's bounds at these sizes.
            let bounds: Option<Vec<Vec<i64>>> = is_dynamic_slice(ctx, o)
                .then(|| {
                    self.slice_bounds(ctx, o)?
                        .iter()
                        .map(|v| v.iter().map(|d| d.eval(&at)).collect::<Option<Vec<i64>>>())
                        .collect::<Option<Vec<_>>>()
                })
                .flatten();
            if is_dynamic_slice(ctx, o) && bounds.is_none() {
                return Err(op_error(ctx, o, "has slice bounds aic cannot follow"));
            }
            let mut b = Builder {
                ctx,
                ip: InsertPoint::Before(o),
                loc,
            };
            let new = if let Some(bs) = &bounds {
                let u = b.ctx.uniquer().clone();
                aic::op_def::build(
                    &mut b,
                    &shlo::SLICE,
                    &[&[x]],
                    &[
                        ("start_indices", Some(u.i64_array(&bs[0]))),
                        ("limit_indices", Some(u.i64_array(&bs[1]))),
                        ("strides", Some(u.i64_array(&bs[2]))),
                    ],
                    &[&[ty]],
                )
            } else if shlo::dynamic::DynamicBroadcastInDim::is(b.ctx, o) {
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
            func::sync_function_type(ctx, f);
        }
        Ok(())
    }

    /// Compiling: the entry `f` takes each size as a trailing `tensor<i32>`
    /// argument (`syms`, in order); sizes read as values become those
    /// arguments' values; and each reduction or contraction over a dynamic
    /// dim reads its operand masked to the sizes.
    fn materialize(&mut self, ctx: &mut Context, f: Op, syms: &[String]) -> Result<(), Diagnostic> {
        let block = body(ctx, f).ok_or_else(|| op_error(ctx, f, "a function without a body"))?;
        let u = ctx.uniquer().clone();
        let i32t = u.tensor_type(&[], u.int_type(32));
        let mut attrs = arg_attrs(ctx, f);
        for s in syms {
            let v = ctx.add_block_arg(block, i32t, None);
            self.dim_values.insert((f, Dim::sym(s).to_string()), v);
            attrs.push(u.dict_attr(vec![(u.ident("aic.size"), u.string_attr(s))]));
        }
        set_arg_attrs(ctx, f, attrs);
        for (o, dim) in std::mem::take(&mut self.size_ops) {
            if ctx.is_erased(o) {
                continue;
            }
            let g = enclosing_func(ctx, o).ok_or_else(|| op_error(ctx, o, "outside a function"))?;
            let v = self.dim_value(ctx, g, &dim)?;
            let r = ctx.result(o, 0);
            if ctx.value_type(r) != ctx.value_type(v) {
                return Err(op_error(
                    ctx,
                    o,
                    "a dimension size that is not a tensor<i32>",
                ));
            }
            ctx.replace_all_uses(r, v);
            ctx.erase_op(o);
        }
        for need in std::mem::take(&mut self.needs) {
            self.mask(ctx, &need)?;
        }
        let mut funcs = Vec::new();
        ctx.walk(self.module, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if func::Func::is(ctx, o) {
                funcs.push(o);
            }
        });
        for g in funcs {
            func::sync_function_type(ctx, g);
        }
        Ok(())
    }

    /// Function `g`'s value of `dim`: an entry's size argument, a JAX
    /// `jax.global_constant` parameter of that name, or a parameter added to
    /// `g` (and passed by each of its callers); products computed at the
    /// start of `g`.
    fn dim_value(&mut self, ctx: &mut Context, g: Op, dim: &Dim) -> Result<Value, Diagnostic> {
        let key = (g, dim.to_string());
        if let Some(v) = self.dim_values.get(&key) {
            return Ok(*v);
        }
        let block = body(ctx, g).ok_or_else(|| op_error(ctx, g, "a function without a body"))?;
        let u = ctx.uniquer().clone();
        let i32t = u.tensor_type(&[], u.int_type(32));
        let v = if let [s] = dim.syms.as_slice()
            && dim.coef == 1
        {
            let params = arg_attrs(ctx, g);
            let named = params.iter().position(|a| {
                u.dict_entries(*a).iter().any(|(k, v)| {
                    u.str(*k) == "jax.global_constant" && u.attr_str(*v) == Some(s.as_str())
                })
            });
            let args: Vec<Value> = ctx.block_args(block).to_vec();
            match named.and_then(|i| args.get(i).copied()) {
                Some(p) if ctx.value_type(p) == i32t => p,
                _ => {
                    // A parameter of its own, passed by every caller.
                    let p = ctx.add_block_arg(block, i32t, None);
                    let mut attrs = params;
                    attrs.resize(args.len(), u.dict_attr(Vec::new()));
                    attrs.push(u.dict_attr(vec![(u.ident("aic.size"), u.string_attr(s))]));
                    set_arg_attrs(ctx, g, attrs);
                    self.dim_values.insert(key.clone(), p);
                    for call in calls_of(ctx, self.module, g) {
                        let caller = enclosing_func(ctx, call)
                            .ok_or_else(|| op_error(ctx, call, "outside a function"))?;
                        let x = self.dim_value(ctx, caller, dim)?;
                        let mut ops = ctx.operands(call).to_vec();
                        ops.push(x);
                        ctx.set_operands(call, &ops);
                    }
                    p
                }
            }
        } else {
            let mut acc: Option<Value> = None;
            for s in dim.syms.clone() {
                let x = self.dim_value(ctx, g, &Dim::sym(&s))?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => emit(
                        ctx,
                        at_start(ctx, block),
                        &shlo::MULTIPLY,
                        &[a, x],
                        &[],
                        i32t,
                    ),
                });
            }
            let coef = constant(ctx, at_start(ctx, block), i32t, dim.coef as f64);
            match acc {
                Some(a) if dim.coef != 1 => emit(
                    ctx,
                    at_start(ctx, block),
                    &shlo::MULTIPLY,
                    &[a, coef],
                    &[],
                    i32t,
                ),
                Some(a) => a,
                None => coef,
            }
        };
        self.dim_values.insert(key, v);
        Ok(v)
    }

    /// The value the elements past the sizes of `v` along its dim `k` are
    /// known to hold, if any: a mask's fill, carried through what keeps it
    /// (`exp(-inf) = 0`, `-inf - m`, `0 * m` and `0 / m` for `m` the same
    /// along `k`, conversions).
    fn pad(&self, ctx: &Context, v: Value, k: usize) -> Option<f64> {
        if let Some((dims, _, fill)) = self.masks.get(&v) {
            return dims.contains(&k).then_some(*fill);
        }
        let o = ctx.defining_op(v)?;
        let ops = ctx.operands(o);
        let along = |x: Value| flat_along(ctx, x, k);
        if shlo::Convert::is(ctx, o) {
            self.pad(ctx, ops[0], k)
        } else if shlo::Exponential::is(ctx, o) {
            (self.pad(ctx, ops[0], k) == Some(f64::NEG_INFINITY)).then_some(0.0)
        } else if shlo::Subtract::is(ctx, o) {
            (self.pad(ctx, ops[0], k) == Some(f64::NEG_INFINITY) && along(ops[1]))
                .then_some(f64::NEG_INFINITY)
        } else if shlo::Multiply::is(ctx, o) || shlo::Divide::is(ctx, o) {
            let zero = |a: Value, b: Value| self.pad(ctx, a, k) == Some(0.0) && along(b);
            (zero(ops[0], ops[1]) || (shlo::Multiply::is(ctx, o) && zero(ops[1], ops[0])))
                .then_some(0.0)
        } else {
            None
        }
    }

    /// Whether `need` is a contraction's operand whose partner is zero past
    /// the sizes along every dim masked (softmax's P against V): each
    /// product there is zero whatever the operand holds, if it is finite.
    fn partner_zero(&self, ctx: &Context, need: &Need) -> bool {
        let Some(dot) = DotGeneral::of(ctx, need.op) else {
            return false;
        };
        let Some(dd) = dot
            .dot_dimension_numbers(ctx)
            .and_then(|a| DotDims::of(ctx, a).cloned())
        else {
            return false;
        };
        let (mine, theirs, other) = match need.operand {
            0 => (&dd.lhs_contract, &dd.rhs_contract, dot.rhs(ctx)),
            1 => (&dd.rhs_contract, &dd.lhs_contract, dot.lhs(ctx)),
            _ => return false,
        };
        need.dims.iter().all(|(k, _)| {
            mine.iter()
                .position(|d| *d as usize == *k)
                .is_some_and(|i| self.pad(ctx, other, theirs[i] as usize) == Some(0.0))
        })
    }

    /// Masks `need`'s operand: where the reduced value is made, so that
    /// every reader sees the fill past the sizes (they are padding to all
    /// of them), or at the use when that value is already masked with
    /// another fill. Nothing when the padding already holds the fill.
    fn mask(&mut self, ctx: &mut Context, need: &Need) -> Result<(), Diagnostic> {
        let o = need.op;
        let x = ctx.operands(o)[need.operand];
        let u = ctx.uniquer().clone();
        let xt = ctx.value_type(x);
        let elem = ctx
            .type_kind(xt)
            .element_type()
            .ok_or_else(|| op_error(ctx, o, "reduces a value that is not a tensor"))?;
        let scalar = u.tensor_type(&[], elem);
        let fill = match need.fill {
            Fill::Init(i) => {
                let init = ctx.operands(o).get(i).copied();
                let c = init.and_then(|v| shlo::Constant::defining(ctx, v));
                match c.and_then(|c| op_attr(ctx, c.op(), "value")) {
                    Some(a) => a,
                    None => {
                        return Err(op_error(
                            ctx,
                            o,
                            format!(
                                "reduces over dynamic dimension '{}' from an init value that is not a constant: aic masks the padding with the init value",
                                need.dims[0].1
                            ),
                        ));
                    }
                }
            }
            Fill::Zero => {
                let t = if ctx.type_kind(elem).is_float() {
                    Tensor::from_f64s(&u, scalar, [0.0])
                } else {
                    Tensor::from_i64s(&u, scalar, [0])
                };
                attr_of_tensor(&u, &t)
            }
        };
        let fill_value = tensor_of_attr(&u, fill, scalar)
            .and_then(|t| t.to_f64s().first().copied())
            .unwrap_or(f64::NAN);
        let ks: Vec<usize> = need.dims.iter().map(|(k, _)| *k).collect();
        if let Some((dims, a, _)) = self.masks.get(&x)
            && *a == fill
            && ks.iter().all(|k| dims.contains(k))
        {
            return Ok(());
        }
        if !fill_value.is_nan() && ks.iter().all(|k| self.pad(ctx, x, *k) == Some(fill_value)) {
            return Ok(());
        }
        if self.partner_zero(ctx, need) && self.sign(ctx, x).is_some() {
            return Ok(());
        }
        let g = enclosing_func(ctx, o).ok_or_else(|| op_error(ctx, o, "outside a function"))?;
        // Where the value is made, unless it is a mask of another fill.
        let whole = !self.masks.contains_key(&x);
        let anchor = match (whole, ctx.value_def(x)) {
            (true, aic::ir::ValueDef::Result(d, _)) => ctx.next_op(d).unwrap_or(o),
            (true, aic::ir::ValueDef::Arg(b, _)) => ctx.first_op(b).unwrap_or(o),
            _ => o,
        };
        let mut sizes = Vec::new();
        for (_, d) in &need.dims {
            sizes.push(self.dim_value(ctx, g, d)?);
        }
        let shape = shape_of_type(ctx, xt);
        let i32s = u.tensor_type(&shape, u.int_type(32));
        let i1s = u.tensor_type(&shape, u.int_type(1));
        let at = InsertPoint::Before(anchor);
        let mut pred: Option<Value> = None;
        for ((k, _), n) in need.dims.iter().zip(sizes) {
            let dim = u.attr(AttrKind::Integer {
                value: *k as i128,
                ty: u.int_type(64),
            });
            let iota = emit(ctx, at, &shlo::IOTA, &[], &[("iota_dimension", dim)], i32s);
            let bn = emit(
                ctx,
                at,
                &shlo::BROADCAST_IN_DIM,
                &[n],
                &[("broadcast_dimensions", u.i64_array(&[]))],
                i32s,
            );
            let lt = emit(
                ctx,
                at,
                &shlo::COMPARE,
                &[iota, bn],
                &[
                    (
                        "comparison_direction",
                        shlo::ComparisonDirection::Lt.attr(&u),
                    ),
                    ("compare_type", shlo::ComparisonType::Signed.attr(&u)),
                ],
                i1s,
            );
            pred = Some(match pred {
                None => lt,
                Some(p) => emit(ctx, at, &shlo::AND, &[p, lt], &[], i1s),
            });
        }
        let pred = pred.ok_or_else(|| op_error(ctx, o, "a mask of no dimension"))?;
        let c = emit(ctx, at, &shlo::CONSTANT, &[], &[("value", fill)], scalar);
        let splat = emit(
            ctx,
            at,
            &shlo::BROADCAST_IN_DIM,
            &[c],
            &[("broadcast_dimensions", u.i64_array(&[]))],
            xt,
        );
        let masked = emit(ctx, at, &shlo::SELECT, &[pred, x, splat], &[], xt);
        if whole {
            let sel = ctx.defining_op(masked).expect("a select");
            ctx.replace_all_uses(x, masked);
            ctx.set_operand(sel, 1, x);
        } else {
            ctx.set_operand(o, need.operand, masked);
        }
        if let Some(d) = self.shapes.get(&x).cloned() {
            self.shapes.insert(masked, d);
        }
        self.masks.insert(masked, (ks, fill, fill_value));
        Ok(())
    }
}

/// Whether `o` is a slice given by operands: `real_dynamic_slice`, or a
/// `dynamic_gather` of the slice form ([`gather_slice`]).
fn is_dynamic_slice(ctx: &Context, o: Op) -> bool {
    shlo::dynamic::RealDynamicSlice::is(ctx, o) || gather_slice(ctx, o).is_some()
}

/// A `dynamic_gather` that is a slice: every result dim an offset dim,
/// nothing collapsed or batched, one constant start index vector. Each
/// started operand dim with its start.
fn gather_slice(ctx: &Context, o: Op) -> Option<Vec<(usize, i64)>> {
    let g = shlo::dynamic::DynamicGather::of(ctx, o)?;
    let dn = shlo::attrs::GatherDims::of(ctx.uniquer(), g.dimension_numbers(ctx)?)?;
    let rank = shape_of_type(ctx, ctx.value_type(g.operand(ctx))).len() as i64;
    let idx = g.start_indices(ctx);
    let ishape = shape_of_type(ctx, ctx.value_type(idx));
    let plain = dn.offset_dims == (0..rank).collect::<Vec<_>>()
        && dn.collapsed_slice_dims.is_empty()
        && dn.operand_batching_dims.is_empty()
        && dn.start_indices_batching_dims.is_empty()
        && ishape == [dn.start_index_map.len() as i64]
        && dn.index_vector_dim == 0;
    if !plain {
        return None;
    }
    let starts = const_ints(ctx, idx)?;
    Some(
        dn.start_index_map
            .iter()
            .zip(starts)
            .map(|(d, s)| (*d as usize, s))
            .collect(),
    )
}

/// The integers of `v` where a `stablehlo.constant` defines it.
fn constant_ints(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    let c = shlo::Constant::defining(ctx, v)?;
    let t = tensor_of_attr(
        ctx.uniquer(),
        op_attr(ctx, c.op(), "value")?,
        ctx.value_type(v),
    )?;
    Some(t.to_i64s())
}

/// The integers `v` holds where they are constants: a constant, a splat
/// of one (`broadcast_in_dim` of a scalar), or a reshape or conversion of
/// those.
fn const_ints(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    let o = ctx.defining_op(v)?;
    if let Some(x) = constant_ints(ctx, v) {
        return Some(x);
    }
    if shlo::Reshape::is(ctx, o) || shlo::Convert::is(ctx, o) {
        return const_ints(ctx, ctx.operands(o)[0]);
    }
    if shlo::BroadcastInDim::is(ctx, o) {
        let x = const_ints(ctx, ctx.operands(o)[0])?;
        let n: i64 = shape_of_type(ctx, ctx.value_type(v)).iter().product();
        return (x.len() == 1).then(|| vec![x[0]; n.max(0) as usize]);
    }
    None
}

/// Builds one op of one result at `at`.
fn emit(
    ctx: &mut Context,
    at: InsertPoint,
    spec: &'static aic::dialect::OpSpec,
    operands: &[Value],
    attrs: &[(&str, Attr)],
    ty: Type,
) -> Value {
    let loc = ctx.uniquer().unknown_loc();
    let mut b = Builder { ctx, ip: at, loc };
    let attrs: Vec<(&str, Option<Attr>)> = attrs.iter().map(|(n, a)| (*n, Some(*a))).collect();
    let op = aic::op_def::build(&mut b, spec, &[operands], &attrs, &[&[ty]]);
    b.ctx.result(op, 0)
}

/// A splat constant of type `ty`.
fn constant(ctx: &mut Context, at: InsertPoint, ty: Type, v: f64) -> Value {
    let u = ctx.uniquer().clone();
    let float = ctx
        .type_kind(ty)
        .element_type()
        .is_some_and(|e| ctx.type_kind(e).is_float());
    let t = if float {
        Tensor::from_f64s(&u, ty, [v])
    } else {
        Tensor::from_i64s(&u, ty, [v as i64])
    };
    emit(
        ctx,
        at,
        &shlo::CONSTANT,
        &[],
        &[("value", attr_of_tensor(&u, &t))],
        ty,
    )
}

/// Before the first op of `block`.
fn at_start(ctx: &Context, block: aic::ir::Block) -> InsertPoint {
    match ctx.first_op(block) {
        Some(o) => InsertPoint::Before(o),
        None => InsertPoint::End(block),
    }
}

/// Whether `x` is the same along its dim `k`: a constant splat, or a
/// broadcast whose operand has no dim there (or one of size 1).
fn flat_along(ctx: &Context, x: Value, k: usize) -> bool {
    let Some(o) = ctx.defining_op(x) else {
        return false;
    };
    if shlo::Constant::is(ctx, o) {
        return op_attr(ctx, o, "value")
            .and_then(|a| tensor_of_attr(ctx.uniquer(), a, ctx.value_type(x)))
            .is_some_and(|t| {
                let v = t.to_f64s();
                v.iter().all(|e| e.to_bits() == v[0].to_bits())
            });
    }
    if shlo::Convert::is(ctx, o) {
        return flat_along(ctx, ctx.operands(o)[0], k);
    }
    if shlo::BroadcastInDim::is(ctx, o) {
        let y = ctx.operands(o)[0];
        let ys = shape_of_type(ctx, ctx.value_type(y));
        let bd =
            aic::constraints::i64_array_attr(ctx, o, "broadcast_dimensions").unwrap_or_default();
        return match bd.iter().position(|d| *d == k as i64) {
            None => true,
            Some(i) => ys.get(i) == Some(&1),
        };
    }
    false
}

/// The function holding `o`.
fn enclosing_func(ctx: &Context, o: Op) -> Option<Op> {
    let mut p = ctx.parent_op(o);
    while let Some(x) = p {
        if func::Func::is(ctx, x) {
            return Some(x);
        }
        p = ctx.parent_op(x);
    }
    None
}

/// The calls of function `g` in `module`.
fn calls_of(ctx: &Context, module: Op, g: Op) -> Vec<Op> {
    let mut out = Vec::new();
    ctx.walk(module, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if func::Call::is(ctx, o)
            && op_attr(ctx, o, "callee")
                .and_then(|a| aic::symbol::lookup_nearest_symbol_from(ctx, o, a))
                == Some(g)
        {
            out.push(o);
        }
    });
    out
}

/// Function `f`'s argument attributes, one dictionary per argument.
fn arg_attrs(ctx: &Context, f: Op) -> Vec<Attr> {
    let n = body(ctx, f).map_or(0, |b| ctx.block_args(b).len());
    let empty = ctx.uniquer().dict_attr(Vec::new());
    let mut out = match op_attr(ctx, f, "arg_attrs").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.to_vec(),
        _ => Vec::new(),
    };
    out.resize(n, empty);
    out
}

fn set_arg_attrs(ctx: &mut Context, f: Op, attrs: Vec<Attr>) {
    let u = ctx.uniquer().clone();
    let a = u.attr(AttrKind::Array(attrs.into()));
    ctx.set_inherent_attr(f, u.ident("arg_attrs"), a);
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
    fn reshapes_keep_padding_in_first_dims() {
        let d = |s: &str| s.parse::<Dim>().unwrap();
        let ds = |x: &str| x.split(',').map(|s| d(s.trim())).collect::<Vec<_>>();
        assert_eq!(d("4*b*s").div(&d("b")), Some(d("4*s")));
        assert_eq!(d("4*b").div(&d("s")), None);
        for (from, to) in [
            ("b, 16", "16*b"),
            ("16*b", "b, 4, 4"),
            ("b, s, 12, 64", "b, s, 768"),
            ("b, s, 768", "b, 1, s, 12, 64"),
            ("b, 8", "b, 2, 4"),
        ] {
            assert_eq!(
                reshape_keeps_padding(&ds(from), &ds(to)),
                Ok(()),
                "{from} -> {to}"
            );
        }
        for (from, to) in [("16, b", "16*b"), ("b, s", "b*s"), ("b, 6", "2, 3*b")] {
            assert!(
                reshape_keeps_padding(&ds(from), &ds(to)).is_err(),
                "{from} -> {to}"
            );
        }
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
