//! A test per e-graph rule: every rule of every set `rule_set` knows has a row
//! below with an input where it fires and a near miss where it must not (a
//! guard fails, a type or an operand differs). Each input is a function body
//! over the arguments of [`ARGS`], built into an e-graph as `eqsat-fusion`
//! builds it (typed, through `from_block`), and run with that rule alone; the
//! rule fired where egg counts a new application of it. The two directions
//! of a `<=>` rule are separate rewrites (`name` and `name-rev`) and each has
//! its own row. A rule without a row fails `every_rule_has_a_row`.

use aic::eqsat;
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use aic_passes::eqsat_fusion::RULE_SETS;
use aic_passes::eqsat_fusion::natives::NATIVES;
use std::sync::Arc;

/// The arguments every body may use.
const ARGS: &str = "%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>, \
%i: tensor<4xi32>, %j: tensor<4xi32>, %k: tensor<4xi32>, %s: tensor<f32>, %t: tensor<f32>, \
%m: tensor<2x3xf32>, %a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %w: tensor<16x32xf32>, \
%v: tensor<32xf32>, %q: tensor<4x16xf32>, %g: tensor<16xf32>, %h: tensor<16xf32>, \
%at: tensor<16x8xf32>, %bt: tensor<32x16xf32>, %a2: tensor<8x16xf32>";

const F: &str = "tensor<4xf32>";

/// Broadcasts of scalar constants, by name (`%one` is 1.0 as tensor<4xf32>...).
const CONSTS: &str = "
  %c1 = graph.constant dense<1.0> : tensor<f32>
  %one = graph.broadcast %c1, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %c2 = graph.constant dense<2.0> : tensor<f32>
  %two = graph.broadcast %c2, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %c0 = graph.constant dense<0.0> : tensor<f32>
  %zero = graph.broadcast %c0, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ci = graph.constant dense<0xFF800000> : tensor<f32>
  %ninf = graph.broadcast %ci, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ch = graph.constant dense<0.5> : tensor<f32>
  %half = graph.broadcast %ch, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %cs = graph.constant dense<0.707106769> : tensor<f32>
  %sqrt1_2 = graph.broadcast %cs, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %cc = graph.constant dense<0.797884583> : tensor<f32>
  %sqrt2_pi = graph.broadcast %cc, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ck = graph.constant dense<0.044715> : tensor<f32>
  %kk = graph.broadcast %ck, dims = [] : (tensor<f32>) -> tensor<4xf32>
";

/// One rule's row: its name, a body where it fires, a near miss.
struct Row {
    rule: &'static str,
    fires: String,
    misses: String,
}

fn row(rule: &'static str, fires: impl Into<String>, misses: impl Into<String>) -> Row {
    Row {
        rule,
        fires: fires.into(),
        misses: misses.into(),
    }
}

/// `%r = op %p, %q : tensor<4xf32>` lines.
fn bin(op: &str, p: &str, q: &str) -> String {
    format!("  %r = graph.{op} %{p}, %{q} : {F}\n")
}

/// `%n = op %p` then `%r = outer %n`.
fn un2(outer: &str, inner: &str, p: &str) -> String {
    format!("  %n = graph.{inner} %{p} : {F}\n  %r = graph.{outer} %n : {F}\n")
}

/// `(outer (inner p q) r)` or, with `right`, `(outer p (inner q r))`.
fn nest(outer: &str, inner: &str, right: bool, ty: &str, v: [&str; 3]) -> String {
    let [p, q, r] = v;
    if right {
        format!("  %n = graph.{inner} %{q}, %{r} : {ty}\n  %r = graph.{outer} %{p}, %n : {ty}\n")
    } else {
        format!("  %n = graph.{inner} %{p}, %{q} : {ty}\n  %r = graph.{outer} %n, %{r} : {ty}\n")
    }
}

fn sink_un(op: &str, from: &str) -> String {
    format!(
        "  %n = graph.broadcast %{from}, dims = [] : (tensor<f32>) -> {F}\n  %r = graph.{op} %n : {F}\n"
    )
}

fn sink_bin(op: &str, second: &str) -> String {
    format!(
        "  %n = graph.broadcast %s, dims = [] : (tensor<f32>) -> {F}\n  %o = graph.broadcast %t, dims = [] : (tensor<f32>) -> {F}\n  %r = graph.{op} %n, %{second} : {F}\n"
    )
}

fn fold(op: &str, second: &str) -> String {
    format!(
        "  %p = graph.constant dense<3.0> : tensor<f32>\n  %u = graph.constant dense<2.0> : tensor<f32>\n  %r = graph.{op} %p, %{second} : tensor<f32>\n"
    )
}

const SOFTMAX: &str = "
  %1 = graph.reduce max %q, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>
  %5 = graph.broadcast %1, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>
  %7 = graph.sub %q, %5 : tensor<4x16xf32>
  %8 = graph.exp %7 : tensor<4x16xf32>
  %10 = graph.reduce sum %8, axes = [AXIS] : (tensor<4x16xf32>) -> tensor<4xf32>
  %12 = graph.broadcast %10, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>
  %r = graph.div %8, %12 : tensor<4x16xf32>
";

const LAYERNORM: &str = "
  %5 = graph.reduce mean %q, axes = [1] keep_dims : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %6 = graph.broadcast %5, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x16xf32>
  %7 = graph.sub %q, %6 : tensor<4x16xf32>
  %8 = graph.mul %7, %7 : tensor<4x16xf32>
  %14 = graph.reduce mean %8, axes = [1] keep_dims : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %17 = graph.constant dense<9.99999974E-6> : tensor<f32>
  %18 = graph.broadcast %17, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %19 = graph.add %14, %18 : tensor<4x1xf32>
  %20 = graph.rsqrt %19 : tensor<4x1xf32>
  %21 = graph.broadcast %20, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x16xf32>
  %22 = graph.mul %7, %21 : tensor<4x16xf32>
  %24 = graph.broadcast %g, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %25 = graph.mul %22, %24 : tensor<4x16xf32>
  %27 = graph.broadcast %h, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %r = graph.add %25, %27 : tensor<4x16xf32>
";

/// A group norm of `%q` as `[N, C]` = `[4, 16]` in 4 groups of 4 channels,
/// its statistics over `AXES` of the grouped `[4, 4, 4]` (kept as `KEPT`).
const GROUPNORM: &str = "
  %x5 = graph.reshape %q : (tensor<4x16xf32>) -> tensor<4x4x4xf32>
  %5 = graph.reduce mean %x5, axes = AXES keep_dims : (tensor<4x4x4xf32>) -> KEPT
  %6 = graph.broadcast %5, dims = [0, 1, 2] : (KEPT) -> tensor<4x4x4xf32>
  %7 = graph.sub %x5, %6 : tensor<4x4x4xf32>
  %8 = graph.mul %7, %7 : tensor<4x4x4xf32>
  %14 = graph.reduce mean %8, axes = AXES keep_dims : (tensor<4x4x4xf32>) -> KEPT
  %17 = graph.constant dense<9.99999974E-6> : tensor<f32>
  %18 = graph.broadcast %17, dims = [] : (tensor<f32>) -> KEPT
  %19 = graph.add %14, %18 : KEPT
  %20 = graph.rsqrt %19 : KEPT
  %21 = graph.broadcast %20, dims = [0, 1, 2] : (KEPT) -> tensor<4x4x4xf32>
  %22 = graph.mul %7, %21 : tensor<4x4x4xf32>
  %23 = graph.reshape %22 : (tensor<4x4x4xf32>) -> tensor<4x16xf32>
  %24 = graph.broadcast %g, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %25 = graph.mul %23, %24 : tensor<4x16xf32>
  %27 = graph.broadcast %h, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %r = graph.add %25, %27 : tensor<4x16xf32>
";

const RMSNORM: &str = "
  %sq = graph.mul %q, %q : tensor<4x16xf32>
  %mn = graph.reduce mean %sq, axes = [1] keep_dims : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %ep = graph.constant dense<1.0e-6> : tensor<f32>
  %eb = graph.broadcast %ep, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %vv = graph.add %mn, %eb : tensor<4x1xf32>
  %rs = graph.rsqrt %vv : tensor<4x1xf32>
  %rb = graph.broadcast %rs, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x16xf32>
  %n = graph.mul %q, %rb : tensor<4x16xf32>
  %gb = graph.broadcast %g, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %r = graph.mul %n, %gb : tensor<4x16xf32>
";

fn gelu_erfc(s: &str) -> String {
    format!(
        "{CONSTS}  %p = graph.mul %half, %x : {F}\n  %n = graph.neg %x : {F}\n  %o = graph.mul %n, %{s} : {F}\n  %e = graph.erfc %o : {F}\n  %r = graph.mul %p, %e : {F}\n"
    )
}

fn gelu_erf(one: &str) -> String {
    format!(
        "{CONSTS}  %p = graph.mul %half, %x : {F}\n  %o = graph.mul %x, %sqrt1_2 : {F}\n  %e = graph.erf %o : {F}\n  %u = graph.add %{one}, %e : {F}\n  %r = graph.mul %p, %u : {F}\n"
    )
}

fn gelu_tanh(k: &str) -> String {
    format!(
        "{CONSTS}  %x2 = graph.mul %x, %x : {F}\n  %x3 = graph.mul %x2, %x : {F}\n  %kx = graph.mul %{k}, %x3 : {F}\n  %in = graph.add %x, %kx : {F}\n  %sc = graph.mul %sqrt2_pi, %in : {F}\n  %th = graph.tanh %sc : {F}\n  %u = graph.add %one, %th : {F}\n  %hu = graph.mul %half, %u : {F}\n  %r = graph.mul %x, %hu : {F}\n"
    )
}

fn rows() -> Vec<Row> {
    let i = "tensor<4xi32>";
    let mut rows = Vec::new();
    for op in ["add", "mul", "max", "min"] {
        let name: &'static str = Box::leak(format!("{op}-comm").into_boxed_str());
        // An op that does not commute.
        rows.push(row(name, bin(op, "x", "y"), bin("sub", "x", "y")));
    }
    for (op, other) in [("max", "min"), ("min", "max")] {
        let n: &'static str = Box::leak(format!("{op}-assoc").into_boxed_str());
        let r: &'static str = Box::leak(format!("{op}-assoc-rev").into_boxed_str());
        rows.push(row(
            n,
            nest(op, op, false, F, ["x", "y", "z"]),
            nest(op, other, false, F, ["x", "y", "z"]),
        ));
        rows.push(row(
            r,
            nest(op, op, true, F, ["x", "y", "z"]),
            nest(op, other, true, F, ["x", "y", "z"]),
        ));
        let idem: &'static str = Box::leak(format!("{op}-idem").into_boxed_str());
        rows.push(row(idem, bin(op, "x", "x"), bin(op, "x", "y")));
    }
    for op in ["add", "mul"] {
        let n: &'static str = Box::leak(format!("{op}-assoc-int").into_boxed_str());
        let r: &'static str = Box::leak(format!("{op}-assoc-int-rev").into_boxed_str());
        // Floats do not reassociate.
        rows.push(row(
            n,
            nest(op, op, false, i, ["i", "j", "k"]),
            nest(op, op, false, F, ["x", "y", "z"]),
        ));
        rows.push(row(
            r,
            nest(op, op, true, i, ["i", "j", "k"]),
            nest(op, op, true, F, ["x", "y", "z"]),
        ));
    }
    rows.push(row(
        "neg-neg",
        un2("neg", "neg", "x"),
        un2("neg", "abs", "x"),
    ));
    rows.push(row(
        "abs-neg",
        un2("abs", "neg", "x"),
        un2("abs", "relu", "x"),
    ));
    rows.push(row(
        "abs-abs",
        un2("abs", "abs", "x"),
        un2("abs", "neg", "x"),
    ));
    rows.push(row(
        "relu-relu",
        un2("relu", "relu", "x"),
        un2("relu", "neg", "x"),
    ));
    rows.push(row(
        "neg-mul-neg",
        format!(
            "  %p = graph.neg %x : {F}\n  %n = graph.neg %y : {F}\n  %r = graph.mul %p, %n : {F}\n"
        ),
        format!("  %n = graph.neg %y : {F}\n  %r = graph.mul %x, %n : {F}\n"),
    ));
    rows.push(row(
        "sub-neg",
        format!("  %n = graph.neg %y : {F}\n  %r = graph.sub %x, %n : {F}\n"),
        format!("  %n = graph.abs %y : {F}\n  %r = graph.sub %x, %n : {F}\n"),
    ));
    rows.push(row(
        "add-neg",
        bin("add", "x", "y"),
        "  %r = graph.add %i, %j : tensor<4xi32>\n",
    ));
    rows.push(row(
        "neg-sub",
        format!("  %n = graph.sub %x, %y : {F}\n  %r = graph.neg %n : {F}\n"),
        format!("  %n = graph.add %x, %y : {F}\n  %r = graph.neg %n : {F}\n"),
    ));
    for op in ["mul", "div"] {
        let n: &'static str = Box::leak(format!("{op}-one").into_boxed_str());
        rows.push(row(
            n,
            format!("{CONSTS}{}", bin(op, "x", "one")),
            format!("{CONSTS}{}", bin(op, "x", "two")),
        ));
    }
    rows.push(row(
        "transpose-transpose",
        "  %n = graph.transpose %m, perm = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n  %r = graph.transpose %n, perm = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>\n",
        "  %n = graph.neg %m : tensor<2x3xf32>\n  %r = graph.transpose %n, perm = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n",
    ));
    rows.push(row(
        "reshape-reshape",
        "  %n = graph.reshape %m : (tensor<2x3xf32>) -> tensor<6xf32>\n  %r = graph.reshape %n : (tensor<6xf32>) -> tensor<3x2xf32>\n",
        "  %n = graph.neg %m : tensor<2x3xf32>\n  %r = graph.reshape %n : (tensor<2x3xf32>) -> tensor<3x2xf32>\n",
    ));
    rows.push(row(
        "broadcast-broadcast",
        "  %n = graph.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>\n  %r = graph.broadcast %n, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>\n",
        "  %r = graph.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>\n",
    ));
    rows.push(row(
        "splat-broadcast",
        "  %r = graph.constant dense<1.0> : tensor<2x4xf32>\n",
        "  %r = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n",
    ));
    rows.push(row(
        "matmul-transpose-a",
        "  %n = graph.transpose %at, perm = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>\n  %r = graph.matmul %n, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
        "  %n = graph.neg %a : tensor<8x16xf32>\n  %r = graph.matmul %n, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
    ));
    rows.push(row(
        "matmul-transpose-b",
        "  %n = graph.transpose %bt, perm = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>\n  %r = graph.matmul %a, %n : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
        "  %n = graph.neg %b : tensor<16x32xf32>\n  %r = graph.matmul %a, %n : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
    ));
    rows.push(row(
        "matmul-flags",
        "  %r = graph.matmul %a, %bt transpose_b : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>\n",
        "  %r = graph.matmul %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
    ));
    for op in ["exp", "log", "neg", "rsqrt", "sqrt"] {
        let n: &'static str = Box::leak(format!("sink-{op}").into_boxed_str());
        rows.push(row(
            n,
            sink_un(op, "s"),
            format!("  %r = graph.{op} %x : {F}\n"),
        ));
    }
    for op in ["add", "sub", "mul", "div"] {
        let n: &'static str = Box::leak(format!("sink-{op}").into_boxed_str());
        rows.push(row(n, sink_bin(op, "o"), sink_bin(op, "x")));
    }
    for op in ["add", "sub", "mul", "div", "max", "min"] {
        let n: &'static str = Box::leak(format!("fold-{op}").into_boxed_str());
        rows.push(row(n, fold(op, "u"), fold(op, "s")));
    }
    rows.push(row(
        "fold-neg",
        "  %p = graph.constant dense<3.0> : tensor<f32>\n  %r = graph.neg %p : tensor<f32>\n",
        "  %r = graph.neg %s : tensor<f32>\n",
    ));
    // raising
    rows.push(row(
        "max-neg-inf",
        format!("{CONSTS}{}", bin("max", "ninf", "x")),
        format!("{CONSTS}{}", bin("max", "zero", "x")),
    ));
    let mean = |n: &str| {
        format!(
            "  %su = graph.reduce sum %q, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>\n  %cn = graph.constant dense<{n}> : tensor<f32>\n  %nb = graph.broadcast %cn, dims = [] : (tensor<f32>) -> tensor<4xf32>\n  %r = graph.div %su, %nb : tensor<4xf32>\n"
        )
    };
    rows.push(row("mean", mean("16.0"), mean("15.0")));
    // The sum over another axis than the maximum.
    rows.push(row(
        "softmax",
        SOFTMAX.replace("AXIS", "1"),
        SOFTMAX
            .replace("AXIS", "0")
            .replace("-> tensor<4xf32>\n  %12", "-> tensor<16xf32>\n  %12")
            .replace(
                "%12 = graph.broadcast %10, dims = [0] : (tensor<4xf32>)",
                "%12 = graph.broadcast %10, dims = [1] : (tensor<16xf32>)",
            ),
    ));
    // The bias broadcast along the other axis.
    rows.push(row(
        "layernorm",
        LAYERNORM,
        LAYERNORM.replace(
            "%27 = graph.broadcast %h, dims = [1] : (tensor<16xf32>)",
            "%27 = graph.broadcast %x, dims = [0] : (tensor<4xf32>)",
        ),
    ));
    // Statistics over the groups (axis 1) instead of within them.
    rows.push(row(
        "groupnorm",
        GROUPNORM
            .replace("AXES", "[2]")
            .replace("KEPT", "tensor<4x4x1xf32>"),
        GROUPNORM
            .replace("AXES", "[1]")
            .replace("KEPT", "tensor<4x1x4xf32>"),
    ));
    rows.push(row(
        "rmsnorm",
        RMSNORM,
        RMSNORM
            .replace("%n = graph.mul %q, %rb", "%n = graph.mul %e2, %rb")
            .replace(
                "%sq = graph.mul %q, %q",
                "%e2 = graph.exp %q : tensor<4x16xf32>\n  %sq = graph.mul %q, %q",
            ),
    ));
    rows.push(row(
        "bias-add",
        "  %o = graph.broadcast %g, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n  %r = graph.add %q, %o : tensor<4x16xf32>\n",
        "  %o = graph.broadcast %x, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>\n  %r = graph.add %q, %o : tensor<4x16xf32>\n",
    ));
    rows.push(row(
        "relu",
        format!("{CONSTS}{}", bin("max", "x", "zero")),
        format!("{CONSTS}{}", bin("max", "x", "one")),
    ));
    rows.push(row(
        "sigmoid",
        format!("{CONSTS}  %n = graph.neg %x : {F}\n  %e = graph.exp %n : {F}\n  %d = graph.add %one, %e : {F}\n  %r = graph.div %one, %d : {F}\n"),
        format!("{CONSTS}  %n = graph.neg %x : {F}\n  %e = graph.exp %n : {F}\n  %d = graph.add %two, %e : {F}\n  %r = graph.div %one, %d : {F}\n"),
    ));
    rows.push(row(
        "silu",
        format!("  %n = graph.sigmoid %x : {F}\n  %r = graph.mul %x, %n : {F}\n"),
        format!("  %n = graph.sigmoid %x : {F}\n  %r = graph.mul %y, %n : {F}\n"),
    ));
    rows.push(row("gelu-erfc", gelu_erfc("sqrt1_2"), gelu_erfc("half")));
    rows.push(row("gelu-erf", gelu_erf("one"), gelu_erf("two")));
    rows.push(row("gelu-tanh", gelu_tanh("kk"), gelu_tanh("half")));
    // fusion
    rows.push(row(
        "horizontal-gemm",
        "  %p = graph.matmul %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n  %r = graph.matmul %a, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
        "  %p = graph.matmul %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n  %r = graph.matmul %a2, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n",
    ));
    rows
}

/// Every rule of every set, by name, read as `eqsat-fusion` reads them.
fn all_rules(ctx: &Context) -> Vec<egg::Rewrite<eqsat::Node, eqsat::Types>> {
    let reg = ctx.registry().clone();
    let known_op = move |op: &str| reg.op(op).is_some();
    RULE_SETS
        .iter()
        .flat_map(|(_, text)| {
            eqsat::parse_rules_with(text, &NATIVES, &known_op).expect("rules parse")
        })
        .collect()
}

/// How often `rule` newly applied to `body`, run alone.
fn applications(
    ctx: &mut Context,
    rule: &egg::Rewrite<eqsat::Node, eqsat::Types>,
    body: &str,
) -> usize {
    let text = format!("func.func @f({ARGS}) {{\n{body}  return\n}}\n");
    let mut sm = SourceMap::new();
    let id = sm.add("row.mlir", text.clone());
    let m = parse_module(ctx, &sm, id).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let mut block = None;
    ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
        if ctx.op_name(op) == "func.func" {
            block = ctx.regions(op).first().and_then(|r| ctx.entry_block(*r));
        }
    });
    let fb = eqsat::from_block(
        ctx,
        block.expect("a function"),
        aic_dialects::graph::verify::infer_type,
    );
    let runner = eqsat::runner(fb.egraph)
        .with_iter_limit(2)
        .with_node_limit(10_000)
        .run(std::slice::from_ref(rule));
    assert_eq!(
        runner.egraph.analysis.conflicts, 0,
        "{}: a union joined different types",
        rule.name
    );
    eqsat::rules_fired(&runner.iterations)
        .iter()
        .filter(|(r, _)| *r == rule.name)
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn every_rule_fires_on_its_row_and_not_on_its_near_miss() {
    with_parser_stack(|| {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let rules = all_rules(&ctx);
        let mut wrong = Vec::new();
        for r in rows() {
            let rule = rules
                .iter()
                .find(|x| x.name.as_str() == r.rule)
                .unwrap_or_else(|| panic!("row for unknown rule {}", r.rule));
            if applications(&mut ctx, rule, &r.fires) == 0 {
                wrong.push(format!("{}: did not fire", r.rule));
            }
            let n = applications(&mut ctx, rule, &r.misses);
            if n != 0 {
                wrong.push(format!("{}: fired {n}× on its near miss", r.rule));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}

#[test]
fn every_rule_has_a_row() {
    let ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
    let rows: Vec<&str> = rows().iter().map(|r| r.rule).collect();
    let missing: Vec<String> = all_rules(&ctx)
        .iter()
        .map(|r| r.name.to_string())
        .filter(|n| !rows.contains(&n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a row in passes/tests/eqsat_rules.rs: {}",
        missing.join(", ")
    );
    let mut seen = rows.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), rows.len(), "a rule has two rows");
}
