//! `fusion-to-tile`: fused groups become tile kernels. Each group a
//! generator handles is replaced by a `tile.launch` of a `tile.kernel`
//! built for it (IR built in Rust from the group's body and a tile
//! configuration, not text templates); a group no generator handles stays
//! as it is, with a remark when `remarks` is set.
//!
//! Generators so far:
//! - GEMM: a matmul, or a convolution as an implicit GEMM (the input read
//!   through the im2col descriptor, never materialised; one group, NHWC or
//!   NCHW), (either matmul operand possibly transposed, read through a
//!   transposing descriptor; leading batch dims of A folded into M) with any
//!   chain of elementwise epilogue ops (bias adds, adds and products with
//!   other tensors of the output's shape, activations) and trailing
//!   reshapes/transposes (the store's descriptor), as a grid of BM x BN
//!   blocks running a K loop that stages A and B tiles into shared memory
//!   and accumulates with a block GEMM, then applies the epilogue with
//!   `tile.map` and stores with masks at the ragged edges;
//! - rows: an elementwise prologue, a softmax, layernorm, rmsnorm or
//!   reduction over the last dimension, and an elementwise epilogue, as
//!   blocks of whole rows;
//! - elementwise: a DAG of elementwise ops whose inputs enter directly or
//!   through broadcasts, transposes, reshapes and slices (descriptors on
//!   the loads).
//!
//! A kernel-sized graph op on its own (a matmul, a softmax) is first put in
//! a group of one.
//!
//! Tile sizes and pipelining depth come from per-target heuristics
//! ([`Tuning::heuristic`]), clamped to the problem, unless the JSON tuning
//! cache given with `tuning=` has an entry for the target, template and
//! shape (`h100/gemm/MxNxK`), which an autotuner can fill.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Block, Builder, Context, InsertPoint, Op, OpState, Region, Value};
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::coord::{self, Conv, Desc};
use aic_dialects::graph::verify::ints;
use aic_dialects::tile::{self, Space};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "fusion-to-tile",
    name: "FusionToTile",
    summary: "Lower fusion groups to tile kernels launched on their inputs",
    anchor: None,
    options: &[
        OptSpec {
            name: "target",
            kind: OptKind::Enum(&["h100", "mi300", "trn1", "cpu"]),
            default: "h100",
            help: "Target whose tile-size heuristics to use",
        },
        OptSpec {
            name: "tuning",
            kind: OptKind::Str,
            default: "",
            help: "A JSON tuning cache overriding the heuristics: {\"h100/gemm/MxNxK\": {\"bm\": 64, \"bn\": 64, \"bk\": 32, \"stages\": 3}}",
        },
        OptSpec {
            name: "remarks",
            kind: OptKind::Bool,
            default: "false",
            help: "Say on standard error which groups no generator handles, and why",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(FusionToTile {
            target: o.str("target").to_string(),
            tuning: o.str("tuning").to_string(),
            remarks: o.bool("remarks"),
        })
    },
};

struct FusionToTile {
    target: String,
    tuning: String,
    remarks: bool,
}

/// Tunings by key (`target/template/shape`), from a JSON tuning cache.
pub type Cache = std::collections::HashMap<String, Tuning>;

/// Read a tuning cache: a JSON object from keys such as `h100/gemm/64x64x32`
/// to objects with integer `bm`, `bn`, `bk` and `stages` (the autotuner's
/// output). Errors say where the text is wrong.
pub fn read_cache(text: &str) -> Result<Cache, String> {
    let mut r = Json {
        s: text.as_bytes(),
        at: 0,
    };
    let mut out = Cache::new();
    r.expect(b'{')?;
    if r.eat(b'}') {
        return Ok(out);
    }
    loop {
        let key = r.string()?;
        r.expect(b':')?;
        r.expect(b'{')?;
        let (mut bm, mut bn, mut bk, mut stages) = (None, None, None, Some(1));
        if !r.eat(b'}') {
            loop {
                let f = r.string()?;
                r.expect(b':')?;
                let v = r.int()?;
                match f.as_str() {
                    "bm" => bm = Some(v),
                    "bn" => bn = Some(v),
                    "bk" => bk = Some(v),
                    "stages" => stages = Some(v),
                    other => return Err(format!("{key}: unknown field '{other}'")),
                }
                if r.eat(b'}') {
                    break;
                }
                r.expect(b',')?;
            }
        }
        let (Some(bm), Some(bn), Some(bk), Some(stages)) = (bm, bn, bk, stages) else {
            return Err(format!("{key}: needs bm, bn and bk"));
        };
        if [bm, bn, bk, stages].iter().any(|v| *v < 1) {
            return Err(format!("{key}: sizes must be positive"));
        }
        out.insert(key, Tuning { bm, bn, bk, stages });
        if r.eat(b'}') {
            break;
        }
        r.expect(b',')?;
    }
    r.ws();
    if r.at != r.s.len() {
        return Err(format!("unexpected text at byte {}", r.at));
    }
    Ok(out)
}

/// A reader for the small JSON subset of tuning caches.
struct Json<'a> {
    s: &'a [u8],
    at: usize,
}

impl Json<'_> {
    fn ws(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", c as char, self.at))
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let start = self.at;
        while self.s.get(self.at).is_some_and(|c| *c != b'"') {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).map_err(|e| e.to_string())?;
        self.expect(b'"')?;
        Ok(text.to_string())
    }
    fn int(&mut self) -> Result<i64, String> {
        self.ws();
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'-')
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.s[start..self.at])
            .ok()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("expected an integer at byte {start}"))
    }
}

/// Tile sizes and pipelining of a GEMM kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Rows of C per block.
    pub bm: i64,
    /// Columns of C per block.
    pub bn: i64,
    /// The K step.
    pub bk: i64,
    /// Stages of the shared-memory pipeline.
    pub stages: i64,
}

impl Tuning {
    /// The built-in choice for `target` and an M x N x K problem: the
    /// target's preferred block, shrunk (to powers of two) where the
    /// problem is smaller.
    pub fn heuristic(target: &str, m: i64, n: i64, k: i64) -> Tuning {
        let (bm, bn, bk, stages) = match target {
            "mi300" => (64, 64, 16, 2),
            "trn1" => (128, 128, 32, 2),
            "cpu" => (32, 32, 32, 1),
            _ => (64, 64, 32, 3),
        };
        let fit = |b: i64, d: i64| b.min((d.max(1) as u64).next_power_of_two() as i64).max(1);
        Tuning {
            bm: fit(bm, m),
            bn: fit(bn, n),
            bk: fit(bk, k),
            stages,
        }
    }
}

/// Why a group is left alone.
type Skip = String;

/// The epilogue ops a GEMM kernel applies element by element, and whether
/// each takes a second operand.
const EPILOGUE: &[(&str, bool)] = &[
    ("graph.relu", false),
    ("graph.neg", false),
    ("graph.abs", false),
    ("graph.exp", false),
    ("graph.log", false),
    ("graph.tanh", false),
    ("graph.sqrt", false),
    ("graph.rsqrt", false),
    ("graph.sigmoid", false),
    ("graph.silu", false),
    ("graph.gelu", false),
    ("graph.gelu_tanh", false),
    ("graph.add", true),
    ("graph.sub", true),
    ("graph.mul", true),
    ("graph.div", true),
    ("graph.max", true),
    ("graph.min", true),
    ("graph.bias_add", true),
];

/// Builds ops at the end of a block.
struct B<'c> {
    ctx: &'c mut Context,
    block: Block,
    loc: Attr,
}

impl B<'_> {
    /// The framework's builder at the end of this block.
    fn at_end(&mut self) -> Builder<'_> {
        Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::End(self.block),
            loc: self.loc,
        }
    }

    fn op(&mut self, name: &str, args: &[Value], results: &[Type], props: Vec<(&str, Attr)>) -> Op {
        self.at_end().create_with_props(name, args, results, &props)
    }

    fn val(&mut self, name: &str, args: &[Value], ty: Type, props: Vec<(&str, Attr)>) -> Value {
        let op = self.op(name, args, &[ty], props);
        self.ctx.result(op, 0)
    }

    /// An op of `name` with one region holding `body`, at the end of the
    /// block.
    fn region_op(&mut self, name: &str, args: &[Value], results: &[Type], body: Block) -> Op {
        let r = self.ctx.create_region();
        self.ctx.append_block(r, body);
        let mut st = OpState::new(self.ctx.ident(name), self.loc);
        st.operands.extend(args.iter().copied());
        st.result_types.extend(results.iter().copied());
        st.regions.push(r);
        self.at_end().insert(st)
    }

    fn index(&mut self, v: i64) -> Value {
        let u = self.ctx.uniquer().clone();
        let t = u.ty(TypeKind::Index);
        let a = u.attr(AttrKind::Integer {
            value: i128::from(v),
            ty: t,
        });
        self.val("arith.constant", &[], t, vec![("value", a)])
    }

    fn float(&mut self, v: f64, ty: Type) -> Value {
        let u = self.ctx.uniquer().clone();
        let k = match u.type_kind(ty) {
            TypeKind::Float(k) => *k,
            _ => aic::float::FloatKind::F32,
        };
        let a = u.attr(AttrKind::Float {
            bits: k.from_f64(v),
            ty,
        });
        self.val("arith.constant", &[], ty, vec![("value", a)])
    }

    fn i64_attr(&self, v: i64) -> Attr {
        let u = self.ctx.uniquer();
        u.attr(AttrKind::Integer {
            value: i128::from(v),
            ty: u.int_type(64),
        })
    }

    fn i64s(&self, v: &[i64]) -> Attr {
        self.ctx.uniquer().i64_array(v)
    }

    /// The scalar computation of an epilogue op in a map body.
    fn scalar(&mut self, op: &str, x: Value, y: Option<Value>, ty: Type) -> Value {
        let f = |b: &mut B<'_>, n: &str, a: &[Value]| b.val(n, a, ty, vec![]);
        match (op, y) {
            ("graph.add" | "graph.bias_add", Some(y)) => f(self, "arith.addf", &[x, y]),
            ("graph.sub", Some(y)) => f(self, "arith.subf", &[x, y]),
            ("graph.mul", Some(y)) => f(self, "arith.mulf", &[x, y]),
            ("graph.div", Some(y)) => f(self, "arith.divf", &[x, y]),
            ("graph.max", Some(y)) => f(self, "arith.maximumf", &[x, y]),
            ("graph.min", Some(y)) => f(self, "arith.minimumf", &[x, y]),
            ("graph.relu", _) => {
                let z = self.float(0.0, ty);
                f(self, "arith.maximumf", &[x, z])
            }
            ("graph.neg", _) => f(self, "arith.negf", &[x]),
            ("graph.abs", _) => f(self, "math.absf", &[x]),
            ("graph.exp", _) => f(self, "math.exp", &[x]),
            ("graph.log", _) => f(self, "math.log", &[x]),
            ("graph.tanh", _) => f(self, "math.tanh", &[x]),
            ("graph.sqrt", _) => f(self, "math.sqrt", &[x]),
            ("graph.rsqrt", _) => f(self, "math.rsqrt", &[x]),
            ("graph.sigmoid" | "graph.silu", _) => {
                let n = f(self, "arith.negf", &[x]);
                let e = f(self, "math.exp", &[n]);
                let one = self.float(1.0, ty);
                let d = f(self, "arith.addf", &[one, e]);
                let s = f(self, "arith.divf", &[one, d]);
                if op == "graph.silu" {
                    f(self, "arith.mulf", &[x, s])
                } else {
                    s
                }
            }
            ("graph.gelu", _) => {
                // x * (1 + erf(x / sqrt(2))) / 2
                let r = self.float(std::f64::consts::FRAC_1_SQRT_2, ty);
                let xs = f(self, "arith.mulf", &[x, r]);
                let e = f(self, "math.erf", &[xs]);
                let one = self.float(1.0, ty);
                let half = self.float(0.5, ty);
                let p = f(self, "arith.addf", &[one, e]);
                let hx = f(self, "arith.mulf", &[half, x]);
                f(self, "arith.mulf", &[hx, p])
            }
            _ => {
                // gelu_tanh: x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2
                let c = self.float((2.0 / std::f64::consts::PI).sqrt(), ty);
                let k = self.float(0.044_715, ty);
                let x2 = f(self, "arith.mulf", &[x, x]);
                let x3 = f(self, "arith.mulf", &[x2, x]);
                let kx3 = f(self, "arith.mulf", &[k, x3]);
                let inner = f(self, "arith.addf", &[x, kx3]);
                let arg = f(self, "arith.mulf", &[c, inner]);
                let t = f(self, "math.tanh", &[arg]);
                let one = self.float(1.0, ty);
                let half = self.float(0.5, ty);
                let p = f(self, "arith.addf", &[one, t]);
                let hx = f(self, "arith.mulf", &[half, x]);
                f(self, "arith.mulf", &[hx, p])
            }
        }
    }
}

/// The group's body ops (without its yield).
fn body_ops(ctx: &Context, group: Op) -> (Block, Vec<Op>) {
    let b = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .expect("a group has a body");
    let ops = ctx
        .block_ops(b)
        .filter(|o| ctx.op_name(*o) != "fusion.yield")
        .collect();
    (b, ops)
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.type_kind(ctx.value_type(v))
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default()
}

fn has(ctx: &Context, op: Op, name: &str) -> bool {
    ctx.find_ident(name)
        .and_then(|i| ctx.inherent_attr(op, i))
        .is_some()
}

/// The body block of a kernel for `group`: one memref buffer per group
/// input, then one for the result of type `out_ty`. Returns the block and
/// its buffers.
fn kernel_block(ctx: &mut Context, group: Op, out_ty: Type, loc: Attr) -> (Block, Vec<Value>) {
    let mut types: Vec<(Type, Option<Attr>)> = ctx
        .operands(group)
        .iter()
        .map(|v| (memref_of(ctx, ctx.value_type(*v)), Some(loc)))
        .collect();
    types.push((memref_of(ctx, out_ty), Some(loc)));
    let kb = ctx.create_block(&types);
    let bufs = ctx.block_args(kb).to_vec();
    (kb, bufs)
}

/// The float element type of `ty`, or why a generator does not take it.
fn float_elem(ctx: &Context, ty: Type) -> Result<Type, Skip> {
    let elem = ctx.type_kind(ty).element_type().ok_or("no element type")?;
    if matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        Ok(elem)
    } else {
        Err("integer element types are not generated yet".into())
    }
}

/// Rows per block of the row and elementwise generators: 16, or fewer
/// (a power of two) when there are fewer rows.
fn rows_per_block(rows: i64) -> i64 {
    16.min((rows.max(1) as u64).next_power_of_two() as i64)
}

/// The memref type of a tensor type.
fn memref_of(ctx: &Context, t: Type) -> Type {
    let k = ctx.type_kind(t);
    let (shape, elem) = (
        k.shape().map(<[i64]>::to_vec).unwrap_or_default(),
        k.element_type().unwrap_or(t),
    );
    ctx.uniquer().ty(TypeKind::MemRef {
        shape: shape.into(),
        elem,
        layout: None,
        memory_space: None,
    })
}

/// An elementwise chain on a running value: each step's op and its other
/// operand, if any (a group input, and whether it is a bias vector over the
/// last dimension).
type Chain = Vec<(&'static str, Option<(Value, bool)>)>;

/// Read the elementwise ops of `ops` that apply in turn to `cur` (of shape
/// `full`, last dimension `n`), their other operands being group inputs of
/// the full shape or bias vectors; with `views_ok`, trailing reshapes and
/// transposes too. Returns the chain, the views, the last value and how
/// many ops were read (the first op not read ends it).
fn read_chain(
    ctx: &Context,
    ops: &[Op],
    mut cur: Value,
    gargs: &[Value],
    full: &[i64],
    n: i64,
    views_ok: bool,
) -> Result<(Chain, Vec<Op>, Value, usize), Skip> {
    let ty = ctx.value_type(cur);
    let mut chain = Chain::new();
    let mut views: Vec<Op> = Vec::new();
    for (i, &o) in ops.iter().enumerate() {
        let name = ctx.op_name(o);
        if views_ok
            && matches!(name, "graph.reshape" | "graph.transpose")
            && ctx.operands(o)[0] == cur
        {
            views.push(o);
            cur = ctx.result(o, 0);
            continue;
        }
        let Some(&(name, binary)) = EPILOGUE.iter().find(|(n, _)| *n == name) else {
            return Ok((chain, views, cur, i));
        };
        if !views.is_empty() {
            return Err(format!("{name} after a reshape or transpose of the result"));
        }
        if ctx.value_type(ctx.result(o, 0)) != ty {
            return Err(format!("{name} changes the type"));
        }
        match (binary, ctx.operands(o)) {
            (false, [x]) if *x == cur => chain.push((name, None)),
            (true, [x, y]) if *x == cur || (*y == cur && name != "graph.bias_add") => {
                let other = if *x == cur { *y } else { *x };
                if other == cur {
                    chain.push((name, Some((other, false))));
                } else if !gargs.contains(&other) {
                    return Err(format!("{name} reads a value computed outside the chain"));
                } else {
                    let s = shape(ctx, other);
                    let bias = name == "graph.bias_add";
                    if (bias && s != [n]) || (!bias && s != full) {
                        return Err(format!("{name}'s other operand has shape {s:?}"));
                    }
                    // Non-commutative ops with the chain on the right keep their order.
                    if *y == cur && matches!(name, "graph.sub" | "graph.div") {
                        return Err(format!("{name} with the running value on the right"));
                    }
                    chain.push((name, Some((other, bias))));
                }
            }
            _ => return Err(format!("{name} is not applied to the running value")),
        }
        cur = ctx.result(o, 0);
    }
    Ok((chain, views, cur, ops.len()))
}

/// A `tile.map` of `inputs` (tiles of `ty`) applying `f` to their elements.
fn map(
    e: &mut B<'_>,
    inputs: &[Value],
    ty: Type,
    elem: Type,
    f: &mut dyn FnMut(&mut B<'_>, &[Value]) -> Value,
) -> Value {
    let loc = e.loc;
    let mb = e.ctx.create_block(&vec![(elem, Some(loc)); inputs.len()]);
    let margs: Vec<Value> = e.ctx.block_args(mb).to_vec();
    {
        let mut s = B {
            ctx: e.ctx,
            block: mb,
            loc,
        };
        let r = f(&mut s, &margs);
        s.op("tile.yield", &[r], &[], vec![]);
    }
    let mo = e.region_op("tile.map", inputs, &[ty], mb);
    e.ctx.result(mo, 0)
}

/// Apply `chain` to the tile `value`, one map per op; `other` gives the
/// tile of an op's other operand.
fn emit_chain(
    e: &mut B<'_>,
    chain: &Chain,
    mut value: Value,
    ty: Type,
    elem: Type,
    other: &mut dyn FnMut(&mut B<'_>, Value, bool) -> Value,
) -> Value {
    for (name, o) in chain {
        let mut inputs = vec![value];
        if let Some((v, bias)) = o {
            inputs.push(other(e, *v, *bias));
        }
        value = map(e, &inputs, ty, elem, &mut |s, a| {
            s.scalar(name, a[0], a.get(1).copied(), elem)
        });
    }
    value
}

/// The reductions the row generator handles (over the last dimension).
const ROW_OPS: &[&str] = &[
    "graph.softmax",
    "graph.layernorm",
    "graph.rmsnorm",
    "graph.reduce",
];

/// Lower one row-reduction group: an elementwise prologue, a softmax,
/// layernorm, rmsnorm or reduction over the last dimension, and an
/// elementwise epilogue, as a grid of blocks of whole rows (each block
/// holds `BR` rows of `N` in registers; rows past the end are masked).
fn rows(ctx: &mut Context, group: Op, func: Op, n_kernel: usize) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let r = ops
        .iter()
        .position(|o| ROW_OPS.contains(&ctx.op_name(*o)))
        .ok_or("no row reduction")?;
    let red = ops[r];
    let rname = ctx.op_name(red).to_string();
    let x0 = if r == 0 {
        ctx.operands(red)[0]
    } else {
        ctx.operands(ops[0])[0]
    };
    if !gargs.contains(&x0) {
        return Err("the rows do not come from a group input".into());
    }
    let full = shape(ctx, x0);
    let Some(&n) = full.last() else {
        return Err("a scalar input".into());
    };
    let rows_n: i64 = full[..full.len() - 1].iter().product();
    let (pro, _, cur, used) = read_chain(ctx, &ops[..r], x0, &gargs, &full, n, false)?;
    if used < r || ctx.operands(red)[0] != cur {
        return Err("the prologue is not a chain into the reduction".into());
    }
    let last = full.len() as i64 - 1;
    let attr = |name: &str| ctx.find_ident(name).and_then(|i| ctx.inherent_attr(red, i));
    let kind = match rname.as_str() {
        "graph.softmax" => {
            let axis = attr("axis")
                .and_then(|a| aic_dialects::stablehlo::attrs::int(ctx.uniquer(), a))
                .unwrap_or(-1);
            if axis != -1 && axis != last {
                return Err("a softmax not over the last dimension".into());
            }
            "softmax".to_string()
        }
        "graph.reduce" => {
            let axes = ints(ctx, red, "axes");
            if axes != [last] && axes != [-1] {
                return Err("a reduction not over the last dimension alone".into());
            }
            attr("kind")
                .and_then(|a| {
                    aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::REDUCE_PREFIX)
                })
                .ok_or("a reduction without a kind")?
                .to_string()
        }
        other => {
            for p in &ctx.operands(red)[1..] {
                if !gargs.contains(p) || shape(ctx, *p) != [n] {
                    return Err(format!(
                        "{other}'s scale is not a vector of the last dimension"
                    ));
                }
            }
            other.trim_start_matches("graph.").to_string()
        }
    };
    let eps = attr("epsilon")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                TypeKind::Float(k) => Some(k.to_f64(*bits)),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or(1e-5);
    let rshape = shape(ctx, ctx.result(red, 0));
    let (epi, _, _, used) = read_chain(
        ctx,
        &ops[r + 1..],
        ctx.result(red, 0),
        &gargs,
        &rshape,
        n,
        false,
    )?;
    if used < ops.len() - r - 1 {
        return Err(format!(
            "{} is not an epilogue op",
            ctx.op_name(ops[r + 1 + used])
        ));
    }
    let reduces = matches!(kind.as_str(), "sum" | "max" | "min" | "mean");
    if reduces && epi.iter().any(|(_, o)| o.is_some_and(|(_, bias)| bias)) {
        return Err("a bias after a reduction".into());
    }
    let out_ty = ctx.value_type(ctx.result(*ops.last().expect("ops"), 0));
    let elem = float_elem(ctx, out_ty)?;
    let br = rows_per_block(rows_n);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, out_ty, loc);
    let buf_of = |v: Value| bufs[gargs.iter().position(|x| *x == v).expect("a group input")];
    let out_buf = *bufs.last().expect("the output");
    let tile_t = |shape: Vec<i64>| tile::plain_tile(&u, shape, elem, Space::Register);
    let (row_t, col_t, one_t) = (tile_t(vec![br, n]), tile_t(vec![n]), tile_t(vec![br]));
    let flat2 = coord::desc_attr(&u, &Desc::row_major(&[rows_n, n]));
    let flat1 = coord::desc_attr(&u, &Desc::row_major(&[rows_n]));
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let p = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let cbr = e.index(br);
    let r0 = e.val("arith.muli", &[p, cbr], index, vec![]);
    let c0 = e.index(0);
    let x = e.val(
        "tile.load",
        &[buf_of(x0), r0, c0],
        row_t,
        vec![("desc", flat2)],
    );
    let mut full_operand = |e: &mut B<'_>, v: Value, bias: bool| {
        if bias {
            let ld = e.val("tile.load", &[buf_of(v), c0], col_t, vec![]);
            e.val("tile.broadcast", &[ld], row_t, vec![("dims", e.i64s(&[1]))])
        } else {
            e.val(
                "tile.load",
                &[buf_of(v), r0, c0],
                row_t,
                vec![("desc", flat2)],
            )
        }
    };
    let v = emit_chain(&mut e, &pro, x, row_t, elem, &mut full_operand);
    let sum = aic::dialect::enum_attr(&u, tile::KIND_PREFIX, "sum");
    let reduce = |e: &mut B<'_>, t: Value, k: &str| {
        let kind = aic::dialect::enum_attr(&u, tile::KIND_PREFIX, k);
        let axis = e.i64_attr(1);
        e.val(
            "tile.reduce",
            &[t],
            one_t,
            vec![("kind", kind), ("axis", axis)],
        )
    };
    let spread = |e: &mut B<'_>, t: Value| {
        e.val("tile.broadcast", &[t], row_t, vec![("dims", e.i64s(&[0]))])
    };
    let inv_n = 1.0 / n as f64;
    let f = |name: &'static str| move |s: &mut B<'_>, a: &[Value]| s.val(name, a, elem, vec![]);
    let scaled = |e: &mut B<'_>, t: Value| {
        map(e, &[t], one_t, elem, &mut |s, a| {
            let c = s.float(inv_n, elem);
            s.val("arith.mulf", &[a[0], c], elem, vec![])
        })
    };
    let inv_std = |e: &mut B<'_>, t: Value| {
        map(e, &[t], one_t, elem, &mut |s, a| {
            let c = s.float(eps, elem);
            let y = s.val("arith.addf", &[a[0], c], elem, vec![]);
            s.val("math.rsqrt", &[y], elem, vec![])
        })
    };
    let result = match kind.as_str() {
        "softmax" => {
            let m = reduce(&mut e, v, "max");
            let mb = spread(&mut e, m);
            let d = map(&mut e, &[v, mb], row_t, elem, &mut f("arith.subf"));
            let ex = map(&mut e, &[d], row_t, elem, &mut f("math.exp"));
            let sm = e.val(
                "tile.reduce",
                &[ex],
                one_t,
                vec![("kind", sum), ("axis", e.i64_attr(1))],
            );
            let sb = spread(&mut e, sm);
            map(&mut e, &[ex, sb], row_t, elem, &mut f("arith.divf"))
        }
        "layernorm" | "rmsnorm" => {
            let (centred, sq_of) = if kind == "layernorm" {
                let s1 = reduce(&mut e, v, "sum");
                let mean = scaled(&mut e, s1);
                let mb = spread(&mut e, mean);
                let xc = map(&mut e, &[v, mb], row_t, elem, &mut f("arith.subf"));
                (xc, xc)
            } else {
                (v, v)
            };
            let sq = map(&mut e, &[sq_of, sq_of], row_t, elem, &mut f("arith.mulf"));
            let ss = reduce(&mut e, sq, "sum");
            let var = scaled(&mut e, ss);
            let rs = inv_std(&mut e, var);
            let rb = spread(&mut e, rs);
            let nrm = map(&mut e, &[centred, rb], row_t, elem, &mut f("arith.mulf"));
            let scale = ctx_operand(&e, red, 1);
            let g = full_operand(&mut e, scale, true);
            let mut y = map(&mut e, &[nrm, g], row_t, elem, &mut f("arith.mulf"));
            if kind == "layernorm" {
                let shift = ctx_operand(&e, red, 2);
                let b = full_operand(&mut e, shift, true);
                y = map(&mut e, &[y, b], row_t, elem, &mut f("arith.addf"));
            }
            y
        }
        k => {
            let t = reduce(&mut e, v, if k == "mean" { "sum" } else { k });
            if k == "mean" { scaled(&mut e, t) } else { t }
        }
    };
    let (res_t, res_desc) = if reduces {
        (one_t, flat1)
    } else {
        (row_t, flat2)
    };
    let mut reduced_operand = |e: &mut B<'_>, v: Value, _: bool| {
        let t = if reduces { one_t } else { row_t };
        let at: Vec<Value> = if reduces {
            vec![buf_of(v), r0]
        } else {
            vec![buf_of(v), r0, c0]
        };
        let d = if reduces {
            coord::desc_attr(&u, &Desc::row_major(&[rows_n]))
        } else {
            flat2
        };
        e.val("tile.load", &at, t, vec![("desc", d)])
    };
    let y = emit_chain(&mut e, &epi, result, res_t, elem, &mut reduced_operand);
    let at: Vec<Value> = if reduces {
        vec![y, out_buf, r0]
    } else {
        vec![y, out_buf, r0, c0]
    };
    e.op("tile.store", &at, &[], vec![("desc", res_desc)]);
    e.op("tile.return", &[], &[], vec![]);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("rows_{n_kernel}"),
        &[(rows_n + br - 1) / br],
        out_ty,
        loc,
    );
    Ok(())
}

/// Lower one elementwise group: a DAG of elementwise ops over one output
/// shape whose inputs enter directly or through broadcasts, transposes,
/// reshapes and slices (read through descriptors), as blocks of rows of the
/// output viewed as `[R, N]`.
fn elementwise(ctx: &mut Context, group: Op, func: Op, n_kernel: usize) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let out = ctx.result(*ops.last().ok_or("empty body")?, 0);
    let out_ty = ctx.value_type(out);
    let full = shape(ctx, out);
    let Some(&n) = full.last() else {
        return Err("a scalar result".into());
    };
    let rows_n: i64 = full[..full.len() - 1].iter().product();
    let elem = float_elem(ctx, out_ty)?;
    // Views of inputs (chains of broadcasts, transposes, reshapes and
    // slices): each view value, the input it reads, and its descriptor.
    let as_rows = Desc::reshape(&full, &[rows_n, n]);
    let mut views: std::collections::HashMap<Value, (Value, Desc)> = Default::default();
    let mut reads: Vec<(Value, Value, Desc)> = Vec::new();
    for &o in &ops {
        let name = ctx.op_name(o);
        let x = ctx.operands(o).first().copied();
        let base = x.and_then(|x| {
            if gargs.contains(&x) {
                Some((x, Desc::row_major(&shape(ctx, x))))
            } else {
                views.get(&x).cloned()
            }
        });
        if let (Some((src, parent)), Some(x)) = (base, x) {
            let (from, to) = (shape(ctx, x), shape(ctx, ctx.result(o, 0)));
            let view = match name {
                "graph.broadcast" => {
                    let dims: Vec<usize> = ints(ctx, o, "dims")
                        .into_iter()
                        .map(|d| d as usize)
                        .collect();
                    Some(Desc::broadcast(&from, &to, &dims))
                }
                "graph.transpose" => {
                    let perm: Vec<usize> = ints(ctx, o, "perm")
                        .into_iter()
                        .map(|d| d as usize)
                        .collect();
                    Some(Desc::transpose(&from, &perm))
                }
                "graph.reshape" => Some(Desc::reshape(&from, &to)),
                "graph.slice" => Some(Desc::strided_slice(
                    &from,
                    &ints(ctx, o, "start"),
                    &ints(ctx, o, "limit"),
                    &ints(ctx, o, "strides"),
                )),
                _ => None,
            };
            if let Some(v) = view {
                let d = parent.compose(&v).map_err(|e| e.to_string())?;
                views.insert(ctx.result(o, 0), (src, d));
                continue;
            }
        }
        let known = EPILOGUE.iter().any(|(e, _)| *e == name) && name != "graph.bias_add";
        if !known || ctx.value_type(ctx.result(o, 0)) != out_ty {
            return Err(format!(
                "{name} is not an elementwise op of the result's type"
            ));
        }
        for x in ctx.operands(o) {
            if reads.iter().any(|(v, _, _)| v == x) {
                continue;
            }
            let (src, d) = if gargs.contains(x) {
                (*x, Desc::row_major(&shape(ctx, *x)))
            } else if let Some((src, d)) = views.get(x) {
                (*src, d.clone())
            } else {
                continue;
            };
            if shape(ctx, *x) != full {
                return Err(format!("{name} reads an input of another shape"));
            }
            let d = d.compose(&as_rows).map_err(|e| e.to_string())?;
            reads.push((*x, src, d.simplify()));
        }
    }
    let br = rows_per_block(rows_n);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, out_ty, loc);
    let out_buf = *bufs.last().expect("the output");
    let row_t = tile::plain_tile(&u, vec![br, n], elem, Space::Register);
    let flat = coord::desc_attr(&u, &Desc::row_major(&[rows_n, n]));
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let p = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let cbr = e.index(br);
    let r0 = e.val("arith.muli", &[p, cbr], index, vec![]);
    let c0 = e.index(0);
    let mut tiles: std::collections::HashMap<Value, Value> = Default::default();
    for (v, src, d) in &reads {
        let buf = bufs[gargs.iter().position(|x| x == src).expect("a group input")];
        let t = e.val(
            "tile.load",
            &[buf, r0, c0],
            row_t,
            vec![("desc", coord::desc_attr(&u, d))],
        );
        tiles.insert(*v, t);
    }
    for &o in &ops {
        let res = e.ctx.result(o, 0);
        if tiles.contains_key(&res) || views.contains_key(&res) {
            continue;
        }
        let name: &'static str = EPILOGUE
            .iter()
            .find(|(x, _)| *x == e.ctx.op_name(o))
            .map(|(x, _)| *x)
            .expect("checked");
        let xs: Vec<Value> = e.ctx.operands(o).iter().map(|x| tiles[x]).collect();
        let t = map(&mut e, &xs, row_t, elem, &mut |s, a| {
            s.scalar(name, a[0], a.get(1).copied(), elem)
        });
        tiles.insert(res, t);
    }
    let y = tiles[&out];
    e.op(
        "tile.store",
        &[y, out_buf, r0, c0],
        &[],
        vec![("desc", flat)],
    );
    e.op("tile.return", &[], &[], vec![]);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("elementwise_{n_kernel}"),
        &[(rows_n + br - 1) / br],
        out_ty,
        loc,
    );
    Ok(())
}

/// Put a single op into a `fusion.group` of its own.
fn wrap(ctx: &mut Context, op: Op) {
    let loc = ctx.op(op).loc;
    let u = ctx.uniquer().clone();
    let mut ins: Vec<Value> = Vec::new();
    for v in ctx.operands(op).to_vec() {
        if !ins.contains(&v) {
            ins.push(v);
        }
    }
    let types: Vec<(Type, Option<Attr>)> = ins
        .iter()
        .map(|v| (ctx.value_type(*v), Some(loc)))
        .collect();
    let b = ctx.create_block(&types);
    let args = ctx.block_args(b).to_vec();
    let mut map = aic::ir::ValueMap::default();
    for (v, a) in ins.iter().zip(&args) {
        map.values.insert(*v, *a);
    }
    let inner = ctx.clone_op(op, &mut map);
    ctx.append_op(b, inner);
    let mut y = OpState::new(ctx.ident("fusion.yield"), loc);
    y.operands.push(ctx.result(inner, 0));
    let y = ctx.create_op(y);
    ctx.append_op(b, y);
    let r = ctx.create_region();
    ctx.append_block(r, b);
    let mut st = OpState::new(ctx.ident("fusion.group"), loc);
    st.operands.extend(ins);
    st.result_types.push(ctx.value_type(ctx.result(op, 0)));
    st.regions.push(r);
    let kind = if ctx.op_name(op) == "graph.matmul" {
        "vertical"
    } else {
        "reduction"
    };
    st.props = Some(u.dict_attr(vec![(
        u.ident("kind"),
        aic_dialects::fusion::kind_attr(ctx, kind),
    )]));
    let g = ctx.create_op(st);
    ctx.insert_op(InsertPoint::Before(op), g);
    let (old, new) = (ctx.result(op, 0), ctx.result(g, 0));
    ctx.replace_all_uses(old, new);
    ctx.erase_op(op);
}

/// Operand `i` of body op `op`, as the kernel's buffer argument stands for it.
fn ctx_operand(e: &B<'_>, op: Op, i: usize) -> Value {
    e.ctx.operands(op)[i]
}

/// Wrap kernel body `kb` into `tile.kernel @name grid` before `func` and
/// replace `group` by a launch of it.
#[allow(clippy::too_many_arguments)]
fn finish(
    ctx: &mut Context,
    group: Op,
    func: Op,
    kb: Block,
    name: &str,
    grid: &[i64],
    out_ty: Type,
    loc: Attr,
) {
    let u = ctx.uniquer().clone();
    let kr: Region = ctx.create_region();
    ctx.append_block(kr, kb);
    let mut st = OpState::new(ctx.ident("tile.kernel"), loc);
    st.props = Some(u.dict_attr(vec![
        (u.ident("sym_name"), u.string_attr(name)),
        (u.ident("grid"), u.i64_array(grid)),
    ]));
    st.regions.push(kr);
    let kop = ctx.create_op(st);
    ctx.insert_op(InsertPoint::Before(func), kop);
    let mut st = OpState::new(ctx.ident("tile.launch"), loc);
    st.operands.extend(ctx.operands(group).iter().copied());
    st.result_types.push(out_ty);
    let sym = u.attr(AttrKind::SymbolRef {
        root: u.ident(name),
        nested: Default::default(),
    });
    st.props = Some(u.dict_attr(vec![(u.ident("kernel"), sym)]));
    let launch = ctx.create_op(st);
    ctx.insert_op(InsertPoint::Before(group), launch);
    let (old, new) = (ctx.result(group, 0), ctx.result(launch, 0));
    ctx.replace_all_uses(old, new);
    ctx.erase_op(group);
}

/// Where the GEMM's `[m, n]` result element goes in the buffer of the
/// group's result when reshapes and transposes follow it: the rows split
/// back into the batch dims, then each view applied to the index (a reshape
/// relinearises it, a transpose moves its dims), then the final buffer,
/// row-major. `None` when no view follows.
fn store_view(
    ctx: &Context,
    oshape: &[i64],
    m: i64,
    n: i64,
    views: &[Op],
) -> Result<Option<Attr>, Skip> {
    if views.is_empty() {
        return Ok(None);
    }
    let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
    let r = oshape.len();
    let mut stages = vec![vec![
        step(
            coord::Transform::Merge {
                lens: oshape[..r - 1].to_vec(),
            },
            vec![0],
            (0..r - 1).collect(),
        ),
        step(coord::Transform::Pass, vec![1], vec![r - 1]),
    ]];
    let mut cur = oshape.to_vec();
    for &v in views {
        let to = shape(ctx, ctx.result(v, 0));
        if ctx.op_name(v) == "graph.reshape" {
            stages.push(vec![step(
                coord::Transform::Unmerge,
                (0..cur.len()).collect(),
                vec![0],
            )]);
            stages.push(vec![step(
                coord::Transform::Merge { lens: to.clone() },
                vec![0],
                (0..to.len()).collect(),
            )]);
        } else {
            let perm: Vec<usize> = ints(ctx, v, "perm")
                .into_iter()
                .map(|p| p as usize)
                .collect();
            if perm.is_empty() {
                return Err("a transpose without a permutation".into());
            }
            // Result dim i is input dim perm[i]: input dim j goes to where perm is j.
            stages.push(
                perm.iter()
                    .enumerate()
                    .map(|(i, p)| step(coord::Transform::Pass, vec![*p], vec![i]))
                    .collect(),
            );
        }
        cur = to;
    }
    let view = Desc {
        upper: vec![m, n],
        stages,
    };
    let d = Desc::row_major(&cur)
        .compose(&view)
        .map_err(|e| e.to_string())?;
    Ok(Some(coord::desc_attr(ctx.uniquer(), &d.simplify())))
}

/// A GEMM as the kernel sees it: its operands, its sizes, and how A, B and
/// C (with the residuals of C's shape) are addressed as `[M, K]`, `[K, N]`
/// and `[M, N]` (`None`: row-major as they are).
struct Problem {
    a: Value,
    b: Value,
    m: i64,
    n: i64,
    k: i64,
    a_view: Option<Attr>,
    b_view: Option<Attr>,
    flat: Option<Attr>,
}

/// A matmul: transposed operands through transposing views, leading batch
/// dims of A (weights shared across them) folded into M.
fn matmul_problem(ctx: &Context, mm: Op, gargs: &[Value]) -> Result<Problem, Skip> {
    let (a, b) = (ctx.operands(mm)[0], ctx.operands(mm)[1]);
    let (sa, sb) = (shape(ctx, a), shape(ctx, b));
    if sa.len() < 2 || sb.len() != 2 || !gargs.contains(&a) || !gargs.contains(&b) {
        return Err("not a GEMM of the group's inputs with a 2-d right operand".into());
    }
    let (ta, tb) = (has(ctx, mm, "transpose_a"), has(ctx, mm, "transpose_b"));
    // The rows of every batch, one after another, are one taller GEMM.
    let nb = sa.len() - 2;
    let batch = &sa[..nb];
    let (m1, k) = if ta {
        (sa[nb + 1], sa[nb])
    } else {
        (sa[nb], sa[nb + 1])
    };
    let m = batch.iter().product::<i64>() * m1;
    let n = if tb { sb[0] } else { sb[1] };
    let a_view = if nb == 0 && !ta {
        None
    } else {
        let (mpos, kpos) = if ta { (nb + 1, nb) } else { (nb, nb + 1) };
        let mut lens = batch.to_vec();
        lens.push(m1);
        let mut rows: Vec<usize> = (0..nb).collect();
        rows.push(mpos);
        let view = Desc {
            upper: vec![m, k],
            stages: vec![vec![
                coord::Step {
                    t: coord::Transform::Merge { lens },
                    upper: vec![0],
                    lower: rows,
                },
                coord::Step {
                    t: coord::Transform::Pass,
                    upper: vec![1],
                    lower: vec![kpos],
                },
            ]],
        };
        let d = Desc::row_major(&sa)
            .compose(&view)
            .map_err(|e| e.to_string())?;
        Some(coord::desc_attr(ctx.uniquer(), &d.simplify()))
    };
    let b_view = tb.then(|| {
        let d = Desc::row_major(&sb)
            .compose(&Desc::transpose(&sb, &[1, 0]))
            .expect("a transpose composes")
            .simplify();
        coord::desc_attr(ctx.uniquer(), &d)
    });
    // Outputs and residuals of [batch.., M, N] are the same memory as [M, N].
    let flat = (nb > 0).then(|| coord::desc_attr(ctx.uniquer(), &Desc::row_major(&[m, n])));
    Ok(Problem {
        a,
        b,
        m,
        n,
        k,
        a_view,
        b_view,
        flat,
    })
}

/// A convolution as an implicit GEMM: A the input through the im2col
/// descriptor (no buffer), B the filter, C the output, all through
/// coordinate views (one group; NHWC, or NCHW without a bias).
fn conv_problem(ctx: &Context, conv: Op, gargs: &[Value]) -> Result<Problem, Skip> {
    let (x, w) = (ctx.operands(conv)[0], ctx.operands(conv)[1]);
    if !gargs.contains(&x) || !gargs.contains(&w) {
        return Err("a convolution of computed values".into());
    }
    let attr = |n: &str| ctx.find_ident(n).and_then(|i| ctx.inherent_attr(conv, i));
    let groups = attr("groups")
        .and_then(|a| aic_dialects::stablehlo::attrs::int(ctx.uniquer(), a))
        .unwrap_or(1);
    if groups != 1 {
        return Err("grouped convolutions are not generated yet".into());
    }
    let nchw = attr("layout").and_then(|a| {
        aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::LAYOUT_PREFIX)
    }) == Some("NCHW");
    let (xs, ws) = (shape(ctx, x), shape(ctx, w));
    let (st, di, pa) = (
        ints(ctx, conv, "strides"),
        ints(ctx, conv, "dilations"),
        ints(ctx, conv, "padding"),
    );
    if xs.len() != 4 || ws.len() != 4 || st.len() != 2 || di.len() != 2 || pa.len() != 4 {
        return Err("a convolution of unexpected rank".into());
    }
    let (filter, out_channels) = if nchw {
        ([ws[2], ws[3]], ws[0])
    } else {
        ([ws[0], ws[1]], ws[3])
    };
    let c = Conv {
        nchw,
        input: [xs[0], xs[1], xs[2], xs[3]],
        filter,
        out_channels,
        strides: [st[0], st[1]],
        dilations: [di[0], di[1]],
        pads: [pa[0], pa[1], pa[2], pa[3]],
        groups: 1,
    };
    let (a, b, cd) = (
        Desc::conv_a(&c, 0),
        Desc::conv_b(&c, 0),
        Desc::conv_c(&c, 0),
    );
    let u = ctx.uniquer();
    Ok(Problem {
        a: x,
        b: w,
        m: a.upper[0],
        n: b.upper[1],
        k: a.upper[1],
        a_view: Some(coord::desc_attr(u, &a.simplify())),
        b_view: Some(coord::desc_attr(u, &b.simplify())),
        flat: Some(coord::desc_attr(u, &cd.simplify())),
    })
}

/// Lower one GEMM + epilogue group: the kernel (inserted before `func`)
/// and the launch replacing the group.
fn gemm(
    ctx: &mut Context,
    group: Op,
    func: Op,
    target: &str,
    cache: &Cache,
    n_kernel: usize,
) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let Some((&mm, epi)) = ops.split_first() else {
        return Err("empty body".into());
    };
    let p = match ctx.op_name(mm) {
        "graph.matmul" => matmul_problem(ctx, mm, &gargs)?,
        "graph.conv2d" => conv_problem(ctx, mm, &gargs)?,
        other => return Err(format!("starts with {other}, not a matmul")),
    };
    let Problem {
        a,
        b,
        m,
        n,
        k,
        a_view,
        b_view,
        flat,
    } = p;
    let oshape = shape(ctx, ctx.result(mm, 0));
    let out_ty = ctx.value_type(ctx.result(mm, 0));
    let elem = float_elem(ctx, out_ty)?;
    let (chain, views, _, used) =
        read_chain(ctx, epi, ctx.result(mm, 0), &gargs, &oshape, n, true)?;
    if used < epi.len() {
        return Err(format!("{} is not an epilogue op", ctx.op_name(epi[used])));
    }
    if ctx.op_name(mm) == "graph.conv2d" {
        let nchw = ctx
            .find_ident("layout")
            .and_then(|i| ctx.inherent_attr(mm, i))
            .and_then(|a| {
                aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::LAYOUT_PREFIX)
            })
            == Some("NCHW");
        if !views.is_empty() {
            return Err("views after a convolution".into());
        }
        // A bias adds along the last dim, the width in NCHW: not the GEMM's columns.
        if nchw && chain.iter().any(|(_, o)| o.is_some_and(|(_, bias)| bias)) {
            return Err("a bias over an NCHW convolution's width".into());
        }
    }
    let store_view = store_view(ctx, &oshape, m, n, &views)?;
    let tuning = cache
        .get(&format!("{target}/gemm/{m}x{n}x{k}"))
        .copied()
        .unwrap_or_else(|| Tuning::heuristic(target, m, n, k));
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let final_ty = ctx.value_type(ctx.result(*ops.last().expect("ops"), 0));
    let (kb, bufs) = kernel_block(ctx, group, final_ty, loc);
    let buf_of = |v: Value| bufs[gargs.iter().position(|x| *x == v).expect("a group input")];
    let out_buf = *bufs.last().expect("the output");
    let tile_t = |shape: Vec<i64>, space: Space| tile::plain_tile(&u, shape, elem, space);
    let acc_t = tile_t(vec![tuning.bm, tuning.bn], Space::Register);
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let pm = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let pn = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(1))]);
    let (cbm, cbn) = (e.index(tuning.bm), e.index(tuning.bn));
    let m0 = e.val("arith.muli", &[pm, cbm], index, vec![]);
    let n0 = e.val("arith.muli", &[pn, cbn], index, vec![]);
    let zero = e.float(0.0, elem);
    let acc0 = e.val(
        "tile.broadcast",
        &[zero],
        acc_t,
        vec![("dims", e.i64s(&[]))],
    );
    let (c0, ck, cbk) = (e.index(0), e.index(k), e.index(tuning.bk));
    // The K loop.
    let lb = e
        .ctx
        .create_block(&[(index, Some(loc)), (acc_t, Some(loc))]);
    let (kv, acc_i) = (e.ctx.block_args(lb)[0], e.ctx.block_args(lb)[1]);
    {
        let mut l = B {
            ctx: e.ctx,
            block: lb,
            loc,
        };
        let load = |l: &mut B<'_>,
                    buf: Value,
                    at: [Value; 2],
                    rows: i64,
                    cols: i64,
                    desc: Option<Attr>| {
            let t = tile_t(vec![rows, cols], Space::Register);
            let props = desc.map(|d| vec![("desc", d)]).unwrap_or_default();
            let ld = l.val("tile.load", &[buf, at[0], at[1]], t, props);
            let st = tile_t(vec![rows, cols], Space::Shared);
            let space = aic::dialect::enum_attr(&u, tile::SPACE_PREFIX, "shared");
            let depth = l.i64_attr(tuning.stages);
            l.val(
                "tile.transfer",
                &[ld],
                st,
                vec![("space", space), ("depth", depth)],
            )
        };
        let sa_t = load(&mut l, buf_of(a), [m0, kv], tuning.bm, tuning.bk, a_view);
        let sb_t = load(&mut l, buf_of(b), [kv, n0], tuning.bk, tuning.bn, b_view);
        let level = aic::dialect::enum_attr(&u, tile::LEVEL_PREFIX, "block");
        let r = l.val(
            "tile.gemm",
            &[sa_t, sb_t, acc_i],
            acc_t,
            vec![("level", level)],
        );
        l.op("tile.yield", &[r], &[], vec![]);
    }
    let f = e.region_op("tile.for", &[c0, ck, cbk, acc0], &[acc_t], lb);
    let mut value = e.ctx.result(f, 0);
    // The epilogue, one map per op.
    let bias_t = tile_t(vec![tuning.bn], Space::Register);
    let mut other = |e: &mut B<'_>, v: Value, bias: bool| {
        if bias {
            let ld = e.val("tile.load", &[buf_of(v), n0], bias_t, vec![]);
            e.val("tile.broadcast", &[ld], acc_t, vec![("dims", e.i64s(&[1]))])
        } else {
            let props = flat.map(|d| vec![("desc", d)]).unwrap_or_default();
            e.val("tile.load", &[buf_of(v), m0, n0], acc_t, props)
        }
    };
    value = emit_chain(&mut e, &chain, value, acc_t, elem, &mut other);
    let store_desc = if store_view.is_some() {
        store_view
    } else {
        flat
    };
    let props = store_desc.map(|d| vec![("desc", d)]).unwrap_or_default();
    e.op("tile.store", &[value, out_buf, m0, n0], &[], props);
    e.op("tile.return", &[], &[], vec![]);
    let grid = [
        (m + tuning.bm - 1) / tuning.bm,
        (n + tuning.bn - 1) / tuning.bn,
    ];
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("gemm_{n_kernel}"),
        &grid,
        final_ty,
        loc,
    );
    Ok(())
}

impl Pass for FusionToTile {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        // A kernel-sized graph op left on its own (a matmul, a softmax) is a
        // group of one.
        let mut alone = Vec::new();
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            let n = ctx.op_name(o);
            let inside = ctx
                .parent_op(o)
                .is_some_and(|p| ctx.op_name(p) == "fusion.group");
            if !inside && (n == "graph.matmul" || ROW_OPS.contains(&n)) {
                alone.push(o);
            }
        });
        for o in alone {
            wrap(ctx, o);
        }
        let mut groups: Vec<(Op, Op)> = Vec::new();
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if ctx.op_name(o) == "fusion.group" {
                // The function (a child of the module) holding the group.
                let mut f = o;
                while let Some(p) = ctx.parent_op(f) {
                    if p == root {
                        break;
                    }
                    f = p;
                }
                groups.push((o, f));
            }
        });
        let cache = if self.tuning.is_empty() {
            Cache::new()
        } else {
            let text = std::fs::read_to_string(&self.tuning).map_err(|e| {
                Diagnostic::error(format!("cannot read tuning cache '{}': {e}", self.tuning))
            })?;
            read_cache(&text).map_err(|e| Diagnostic::error(format!("{}: {e}", self.tuning)))?
        };
        let mut changed = false;
        for (i, (g, f)) in groups.into_iter().enumerate() {
            if ctx.results(g).count() != 1 {
                if self.remarks {
                    eprintln!("fusion-to-tile: group {i} left as it is: several results");
                }
                continue;
            }
            let made = gemm(ctx, g, f, &self.target, &cache, i).or_else(|why| {
                if !why.starts_with("starts with") {
                    return Err(why);
                }
                rows(ctx, g, f, i).or_else(|why| {
                    if why == "no row reduction" {
                        elementwise(ctx, g, f, i)
                    } else {
                        Err(why)
                    }
                })
            });
            match made {
                Ok(()) => changed = true,
                Err(why) => {
                    if self.remarks {
                        eprintln!("fusion-to-tile: group {i} left as it is: {why}");
                    }
                }
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_caches_read_and_say_what_is_wrong() {
        let c = read_cache(
            r#"{ "h100/gemm/64x64x32": {"bm": 32, "bn": 64, "bk": 16, "stages": 4},
            "mi300/gemm/1x1x1": {"bm": 1, "bn": 1, "bk": 1} }"#,
        )
        .unwrap();
        assert_eq!(
            c["h100/gemm/64x64x32"],
            Tuning {
                bm: 32,
                bn: 64,
                bk: 16,
                stages: 4
            }
        );
        assert_eq!(c["mi300/gemm/1x1x1"].stages, 1);
        assert!(read_cache("{}").unwrap().is_empty());
        assert!(
            read_cache(r#"{"k": {"bm": 1, "bn": 1}}"#)
                .unwrap_err()
                .contains("needs")
        );
        assert!(
            read_cache(r#"{"k": {"bm": x}}"#)
                .unwrap_err()
                .contains("integer")
        );
        assert!(
            read_cache(r#"{"k": {"bq": 1}}"#)
                .unwrap_err()
                .contains("unknown field")
        );
        assert!(
            read_cache(r#"{"k": {"bm": 1, "bn": 1, "bk": 1}} x"#)
                .unwrap_err()
                .contains("unexpected")
        );
    }

    #[test]
    fn heuristics_fit_the_problem() {
        assert_eq!(
            Tuning::heuristic("h100", 4096, 4096, 4096),
            Tuning {
                bm: 64,
                bn: 64,
                bk: 32,
                stages: 3
            }
        );
        let small = Tuning::heuristic("h100", 5, 1, 3);
        assert_eq!((small.bm, small.bn, small.bk), (8, 1, 4));
        assert_eq!(Tuning::heuristic("mi300", 999, 999, 999).bk, 16);
    }
}
