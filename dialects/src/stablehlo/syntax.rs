//! StableHLO's custom assembly pieces: the `custom<...>` directives its op
//! formats use (as in StableHLO's `AssemblyFormat.cpp`), and the hand-written
//! syntax of `constant`, `reduce` and `while`.

use super::Precision;
use super::attrs::{
    ConvDims, DotAlgorithm, DotAlgorithmField, DotAlgorithmFieldKind, DotDims, INVALID_CONV_DIMS,
};
use aic::Diagnostic;
use aic::asm::{Directive, PrintSlots, Slots};
use aic::attributes::{Attr, AttrKind, Ident};
use aic::constraints::i64_values;
use aic::dialect::OpSpec;
use aic::ir::{Op, OpState, Value};
use aic::op_printer::OpPrinter;
use aic::syntax::parser::{Argument, OpParser, UnresolvedOperand};
use aic::types::{Type, TypeKind};

type R<T> = Result<T, Diagnostic>;

// ---------------------------------------------------------------- types

/// Give the type arguments `0..n-1` (operands) and `n-1` (result) the parts of a
/// function type, or one type to all.
fn assign_same_or_functional(p: &mut OpParser<'_, '_>, s: &mut Slots<'_, '_>) -> R<()> {
    let at = p.pos();
    let t = p.parse_type()?;
    let n = s.len();
    if let Some((ins, outs)) = p.function_type_parts(t) {
        let total: usize = (0..n - 1).map(|k| if s.is_single(k) { 1 } else { 0 }).sum();
        let variadic = (0..n - 1).any(|k| !s.is_single(k));
        if (!variadic && ins.len() != total) || outs.len() != 1 {
            return Err(p.error_at(
                at,
                format!(
                    "expected {} operand type(s) and 1 result type in the function type",
                    n - 1
                ),
            ));
        }
        if variadic {
            s.set_types(0, ins);
        } else {
            for (k, ty) in ins.into_iter().enumerate() {
                s.set_types(k, vec![ty]);
            }
        }
        s.set_types(n - 1, outs);
    } else {
        for k in 0..n - 1 {
            let count = if s.is_single(k) {
                1
            } else {
                s.operand_count(k)
            };
            s.set_types(k, vec![t; count]);
        }
        s.set_types(n - 1, vec![t]);
    }
    Ok(())
}

fn all_types(pr: &OpPrinter, s: &PrintSlots, upto: usize) -> Vec<Type> {
    (0..upto).flat_map(|k| s.types(pr, k)).collect()
}

/// `custom<SameOperandsAndResultType>(type($a)..., type($result))`: one type when
/// all agree, else the function type.
pub const SAME_TYPE: Directive = Directive {
    name: "SameOperandsAndResultType",
    parse: assign_same_or_functional,
    print: |pr, s| {
        let n = s.len();
        let ins = all_types(pr, s, n - 1);
        let out = s.types(pr, n - 1);
        if out.len() == 1 && ins.iter().all(|t| *t == out[0]) {
            pr.ty(out[0]);
        } else {
            pr.functional_type(&ins, &out);
        }
    },
};

/// `custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))`:
/// `pred_type, result_type` or the function type.
pub const SELECT_TYPE: Directive = Directive {
    name: "SelectOpType",
    parse: |p, s| {
        let at = p.pos();
        let tys = p.parse_type_list()?;
        match tys[..] {
            [pred, t] => {
                s.set_types(0, vec![pred]);
                for k in 1..4 {
                    s.set_types(k, vec![t]);
                }
                Ok(())
            }
            [f] => match p.function_type_parts(f) {
                Some((ins, outs)) if ins.len() == 3 && outs.len() == 1 => {
                    for (k, t) in ins.into_iter().enumerate() {
                        s.set_types(k, vec![t]);
                    }
                    s.set_types(3, outs);
                    Ok(())
                }
                _ => Err(p.error_at(at, "expected functional type or list of two types")),
            },
            _ => Err(p.error_at(at, "expected functional type or list of two types")),
        }
    },
    print: |pr, s| {
        let t = all_types(pr, s, 4);
        if t[1] == t[3] && t[2] == t[3] {
            pr.ty(t[0]);
            pr.out.push_str(", ");
            pr.ty(t[3]);
        } else {
            pr.functional_type(&t[..3], &t[3..]);
        }
    },
};

/// The real type with the shape of a complex shaped type.
fn real_type(ctx: &aic::ir::Context, t: Type) -> Option<Type> {
    let u = ctx.uniquer();
    match ctx.type_kind(t) {
        TypeKind::Tensor {
            shape,
            elem,
            encoding,
        } => match ctx.type_kind(*elem) {
            TypeKind::Complex(e) => Some(u.ty(TypeKind::Tensor {
                shape: shape.clone(),
                elem: *e,
                encoding: *encoding,
            })),
            _ => None,
        },
        TypeKind::UnrankedTensor(elem) => match ctx.type_kind(*elem) {
            TypeKind::Complex(e) => Some(u.ty(TypeKind::UnrankedTensor(*e))),
            _ => None,
        },
        _ => None,
    }
}

/// `custom<ComplexOpType>(type($lhs), type($rhs), type($result))`: the complex
/// result type alone when the operands are its real counterpart.
pub const COMPLEX_TYPE: Directive = Directive {
    name: "ComplexOpType",
    parse: |p, s| {
        let at = p.pos();
        let t = p.parse_type()?;
        if let Some((ins, outs)) = p.function_type_parts(t) {
            if ins.len() != 2 || outs.len() != 1 {
                return Err(p.error_at(at, "expected 2 operand types and 1 result type"));
            }
            s.set_types(0, vec![ins[0]]);
            s.set_types(1, vec![ins[1]]);
            s.set_types(2, outs);
            return Ok(());
        }
        let Some(real) = real_type(p.context(), t) else {
            return Err(p.error_at(at, "expected tensor with complex element type"));
        };
        s.set_types(0, vec![real]);
        s.set_types(1, vec![real]);
        s.set_types(2, vec![t]);
        Ok(())
    },
    print: |pr, s| {
        let t = all_types(pr, s, 3);
        let real = real_type(pr.ctx(), t[2]);
        if real == Some(t[0]) && real == Some(t[1]) {
            pr.ty(t[2]);
        } else {
            pr.functional_type(&t[..2], &t[2..]);
        }
    },
};

/// `custom<TupleOpType>(type($val), type($result))`: the tuple type, whose
/// elements are the operand types.
pub const TUPLE_TYPE: Directive = Directive {
    name: "TupleOpType",
    parse: |p, s| {
        let at = p.pos();
        let t = p.parse_type()?;
        let TypeKind::Tuple(elems) = p.context().type_kind(t).clone() else {
            return Err(p.error_at(at, "expected tuple type"));
        };
        s.set_types(0, elems.to_vec());
        s.set_types(1, vec![t]);
        Ok(())
    },
    print: |pr, s| {
        let t = s.types(pr, 1);
        pr.types(&t);
    },
};

/// `custom<PairwiseOpType>(type($operand), type($result))`: the operand types,
/// which the results share.
pub const PAIRWISE_TYPE: Directive = Directive {
    name: "PairwiseOpType",
    parse: |p, s| {
        let tys = p.parse_type_list()?;
        s.set_types(0, tys.clone());
        s.set_types(1, tys);
        Ok(())
    },
    print: |pr, s| {
        let t = s.types(pr, 0);
        pr.types(&t);
    },
};

// ---------------------------------------------------------------- operands and attributes

/// `custom<VariadicOperandWithAttribute>($xs)`: operands each followed by a comma.
pub const OPERANDS_WITH_ATTRIBUTE: Directive = Directive {
    name: "VariadicOperandWithAttribute",
    parse: |p, s| {
        let mut ops: Vec<UnresolvedOperand<'_>> = Vec::new();
        while p.peek_byte() == Some(b'%') {
            ops.push(p.parse_operand()?);
            p.expect_token(",")?;
        }
        s.set_operands(0, ops);
        Ok(())
    },
    print: |pr, s| {
        let vs = s.operands(pr, 0);
        pr.values(&vs);
        pr.out.push(',');
    },
};

fn i64_array(p: &OpParser<'_, '_>, values: &[i64]) -> Attr {
    let u = p.uniquer();
    u.attr(AttrKind::DenseArray {
        elem: u.int_type(64),
        values: values.iter().map(|v| *v as u64).collect(),
    })
}

fn parse_int_list(p: &mut OpParser<'_, '_>) -> R<Vec<i64>> {
    p.expect_token("[")?;
    let mut out = Vec::new();
    if p.eat_token("]") {
        return Ok(out);
    }
    loop {
        if p.eat_keyword("true") {
            out.push(1);
        } else if p.eat_keyword("false") {
            out.push(0);
        } else {
            out.push(p.parse_integer()?);
        }
        if p.eat_token("]") {
            return Ok(out);
        }
        p.expect_token(",")?;
    }
}

fn list(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `custom<SliceRanges>($start_indices, $limit_indices, $strides)`: `[1:3, 4:8:2]`.
pub const SLICE_RANGES: Directive = Directive {
    name: "SliceRanges",
    parse: |p, s| {
        p.expect_token("[")?;
        let (mut start, mut limit, mut stride) = (Vec::new(), Vec::new(), Vec::new());
        if !p.eat_token("]") {
            loop {
                start.push(p.parse_integer()?);
                p.expect_token(":")?;
                limit.push(p.parse_integer()?);
                stride.push(if p.eat_token(":") {
                    p.parse_integer()?
                } else {
                    1
                });
                if p.eat_token("]") {
                    break;
                }
                p.expect_token(",")?;
            }
        }
        for (k, v) in [start, limit, stride].iter().enumerate() {
            let a = i64_array(p, v);
            s.set_attr(k, a);
        }
        Ok(())
    },
    print: |pr, s| {
        let get = |k| {
            s.attr(pr, k)
                .and_then(|a| i64_values(pr.ctx(), a))
                .unwrap_or_default()
        };
        let (a, b, c) = (get(0), get(1), get(2));
        pr.out.push('[');
        let items: Vec<String> = (0..a.len().min(b.len()).min(c.len()))
            .map(|i| {
                if c[i] == 1 {
                    format!("{}:{}", a[i], b[i])
                } else {
                    format!("{}:{}:{}", a[i], b[i], c[i])
                }
            })
            .collect();
        pr.out.push_str(&items.join(", "));
        pr.out.push(']');
    },
};

/// `custom<ConvolutionDimensions>($dimension_numbers)`: `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
pub const CONV_DIMS: Directive = Directive {
    name: "ConvolutionDimensions",
    parse: |p, s| {
        let at = p.pos();
        let mut text = String::new();
        // Three bracketed groups joined by `x` and `->`.
        for sep in ["x", "->", ""] {
            p.expect_token("[")?;
            let mut items = Vec::new();
            loop {
                if p.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
                    items.push(p.parse_integer()?.to_string());
                } else {
                    items.push(p.parse_bare_word().to_string());
                }
                if p.eat_token("]") {
                    break;
                }
                p.expect_token(",")?;
            }
            text.push_str(&format!("[{}]", items.join(", ")));
            if !sep.is_empty() {
                if sep == "x" {
                    p.expect_keyword("x")?;
                } else {
                    p.expect_token(sep)?;
                }
                text.push_str(sep);
            }
        }
        let Some(d) = ConvDims::parse_compact(&text) else {
            return Err(p.error_at(at, INVALID_CONV_DIMS));
        };
        let a = d.attr(&p.uniquer());
        s.set_attr(0, a);
        Ok(())
    },
    print: |pr, s| {
        let Some(a) = s.attr(pr, 0) else { return };
        match ConvDims::of(pr.ctx(), a) {
            Some(d) => pr.out.push_str(&d.compact()),
            None => pr.attr(a),
        }
    },
};

const WINDOW_KEYS: [&str; 5] = ["stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"];

/// `custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
/// $rhs_dilation, $window_reversal)`: `stride = [..], pad = [[l, h], ..], ...`.
pub const WINDOW_ATTRS: Directive = Directive {
    name: "WindowAttributes",
    parse: |p, s| {
        let mut seen = [false; 5];
        loop {
            let at = p.pos();
            let Some(k) = WINDOW_KEYS.iter().position(|w| p.peek_keyword(w)) else {
                break;
            };
            p.parse_bare_word();
            if seen[k] {
                return Err(p.error_at(at, format!("Unexpected keyword {}", WINDOW_KEYS[k])));
            }
            seen[k] = true;
            p.expect_token("=")?;
            let u = p.uniquer();
            let attr = if k == 1 {
                p.expect_token("[")?;
                let mut values = Vec::new();
                if !p.eat_token("]") {
                    loop {
                        let at = p.pos();
                        let pair = parse_int_list(p)?;
                        if pair.len() != 2 {
                            return Err(p.error_at(
                                at,
                                format!(
                                    "Expected array with 2 elements, got {} elements instead",
                                    pair.len()
                                ),
                            ));
                        }
                        values.extend(pair);
                        if p.eat_token("]") {
                            break;
                        }
                        p.expect_token(",")?;
                    }
                }
                let i64t = u.int_type(64);
                let ty = u.ty(TypeKind::Tensor {
                    shape: [values.len() as i64 / 2, 2].into_iter().collect(),
                    elem: i64t,
                    encoding: None,
                });
                let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                u.attr(AttrKind::DenseElements {
                    ty,
                    data: aic::attributes::DenseData::Raw {
                        splat: false,
                        bytes: bytes.into(),
                    },
                })
            } else {
                let v = parse_int_list(p)?;
                let elem = u.int_type(if k == 4 { 1 } else { 64 });
                u.attr(AttrKind::DenseArray {
                    elem,
                    values: v
                        .iter()
                        .map(|x| {
                            if k == 4 {
                                u64::from(*x != 0)
                            } else {
                                *x as u64
                            }
                        })
                        .collect(),
                })
            };
            s.set_attr(k, attr);
            if !p.eat_token(",") {
                break;
            }
        }
        Ok(())
    },
    print: |pr, s| {
        let mut parts = Vec::new();
        for (k, key) in WINDOW_KEYS.iter().enumerate() {
            let Some(a) = s.attr(pr, k) else { continue };
            let Some(v) = i64_values(pr.ctx(), a) else {
                continue;
            };
            let body = match k {
                1 => {
                    let pairs: Vec<String> = v
                        .chunks(2)
                        .map(|c| {
                            format!(
                                "[{}]",
                                c.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                            )
                        })
                        .collect();
                    format!("[{}]", pairs.join(", "))
                }
                4 => format!(
                    "[{}]",
                    v.iter()
                        .map(|x| if *x != 0 { "true" } else { "false" })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => list(&v),
            };
            parts.push(format!("{key} = {body}"));
        }
        pr.out.push_str(&parts.join(", "));
    },
};

/// `custom<CustomCallTarget>($call_target_name)`: `@name` or `@"name"`.
pub const CUSTOM_CALL_TARGET: Directive = Directive {
    name: "CustomCallTarget",
    parse: |p, s| {
        let name = p.parse_symbol_name()?;
        let a = p.uniquer().string_attr(&name);
        s.set_attr(0, a);
        Ok(())
    },
    print: |pr, s| {
        let name = s
            .attr(pr, 0)
            .and_then(|a| pr.ctx().attr_str(a).map(str::to_string))
            .unwrap_or_default();
        pr.symbol_name(&name);
    },
};

fn parse_precision_list(p: &mut OpParser<'_, '_>) -> R<Attr> {
    p.expect_keyword("precision")?;
    p.expect_token("=")?;
    p.expect_token("[")?;
    let mut items = Vec::new();
    let u = p.uniquer();
    if !p.eat_token("]") {
        loop {
            let at = p.pos();
            let Some(w) = Precision::from_keyword(p.parse_bare_word()) else {
                return Err(p.error_at(
                    at,
                    format!(
                        "expected precision to be one of: {}",
                        Precision::KEYWORDS.join(", ")
                    ),
                ));
            };
            items.push(w.attr(&u));
            if p.eat_token("]") {
                break;
            }
            p.expect_token(",")?;
        }
    }
    Ok(u.attr(AttrKind::Array(items.into())))
}

fn print_precision(pr: &mut OpPrinter, a: Option<Attr>) {
    let Some(a) = a else { return };
    let ctx = pr.ctx();
    let AttrKind::Array(items) = ctx.attr_kind(a) else {
        return;
    };
    let words: Vec<String> = items
        .iter()
        .map(|x| {
            Precision::of(ctx, *x)
                .map(|w| w.keyword().to_string())
                .unwrap_or_else(|| format!("{x:?}"))
        })
        .collect();
    pr.out
        .push_str(&format!(", precision = [{}]", words.join(", ")));
}

/// `custom<PrecisionConfig>($precision_config)`: an optional `, precision = [DEFAULT, ...]`.
pub const PRECISION_CONFIG: Directive = Directive {
    name: "PrecisionConfig",
    parse: |p, s| {
        if p.eat_token(",") {
            let a = parse_precision_list(p)?;
            s.set_attr(0, a);
        }
        Ok(())
    },
    print: |pr, s| {
        let a = s.attr(pr, 0);
        print_precision(pr, a);
    },
};

/// `custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm)`.
pub const PRECISION_AND_ALGORITHM: Directive = Directive {
    name: "PrecisionConfigAndAlgorithm",
    parse: |p, s| {
        if !p.eat_token(",") {
            return Ok(());
        }
        if !p.peek_keyword("algorithm") {
            let a = parse_precision_list(p)?;
            s.set_attr(0, a);
            if !p.eat_token(",") {
                return Ok(());
            }
        }
        p.expect_keyword("algorithm")?;
        p.expect_token("=")?;
        let a = parse_dot_algorithm(p)?;
        s.set_attr(1, a);
        Ok(())
    },
    print: |pr, s| {
        let a = s.attr(pr, 0);
        print_precision(pr, a);
        if let Some(alg) = s.attr(pr, 1) {
            pr.out.push_str(", algorithm = ");
            match DotAlgorithm::of(pr.ctx(), alg) {
                Some(d) => {
                    let body = d.body(pr.ctx());
                    pr.out.push_str(&body)
                }
                None => pr.attr(alg),
            }
        }
    },
};

/// The body of `#stablehlo.dot_algorithm<lhs_precision_type = tf32, ...,
/// allow_imprecise_accumulation = false>`: `key = value` fields in any order,
/// each once, whose values are types, integers or booleans (see [`DotAlgorithm`]).
fn parse_dot_algorithm(p: &mut OpParser<'_, '_>) -> R<Attr> {
    let start = p.pos();
    p.expect_token("<")?;
    let mut fields = Vec::new();
    loop {
        let at = p.pos();
        let key = p.parse_bare_word();
        if key.is_empty() {
            return Err(p.error_at(at, "expected a dot algorithm field name"));
        }
        let (k, kind) = DotAlgorithm::field(key).map_err(|m| p.error_at(at, m))?;
        p.expect_token("=")?;
        let at = p.pos();
        let value = match kind {
            DotAlgorithmFieldKind::Type => DotAlgorithmField::Type(p.parse_type()?),
            DotAlgorithmFieldKind::Int => DotAlgorithmField::Int(p.parse_integer()?),
            DotAlgorithmFieldKind::Bool if p.eat_keyword("true") => DotAlgorithmField::Bool(true),
            DotAlgorithmFieldKind::Bool if p.eat_keyword("false") => DotAlgorithmField::Bool(false),
            DotAlgorithmFieldKind::Bool => return Err(p.error_at(at, "expected true or false")),
        };
        fields.push((k, value));
        if p.eat_token(">") {
            break;
        }
        p.expect_token(",")?;
    }
    let d = DotAlgorithm::from_fields(&fields).map_err(|m| p.error_at(start, m))?;
    Ok(p.uniquer().attr(AttrKind::dialect(d)))
}

/// `custom<DotDimensionNumbers>($dot_dimension_numbers)`:
/// `batching_dims = [0] x [0], contracting_dims = [2] x [1]`.
pub const DOT_DIMS: Directive = Directive {
    name: "DotDimensionNumbers",
    parse: |p, s| {
        let mut d = DotDims::default();
        if p.eat_keyword("batching_dims") {
            p.expect_token("=")?;
            d.lhs_batch = parse_int_list(p)?;
            p.expect_keyword("x")?;
            d.rhs_batch = parse_int_list(p)?;
            p.expect_token(",")?;
        }
        p.expect_keyword("contracting_dims")?;
        p.expect_token("=")?;
        d.lhs_contract = parse_int_list(p)?;
        p.expect_keyword("x")?;
        d.rhs_contract = parse_int_list(p)?;
        let a = d.attr(&p.uniquer());
        s.set_attr(0, a);
        Ok(())
    },
    print: |pr, s| {
        let Some(a) = s.attr(pr, 0) else { return };
        let Some(d) = DotDims::of(pr.ctx(), a) else {
            pr.attr(a);
            return;
        };
        if !d.lhs_batch.is_empty() || !d.rhs_batch.is_empty() {
            pr.out.push_str(&format!(
                "batching_dims = {} x {}, ",
                list(&d.lhs_batch),
                list(&d.rhs_batch)
            ));
        }
        pr.out.push_str(&format!(
            "contracting_dims = {} x {}",
            list(&d.lhs_contract),
            list(&d.rhs_contract)
        ));
    },
};

/// `custom<ExponentMantissa>($exponent_bits, $mantissa_bits)`: `e8m10`.
pub const EXPONENT_MANTISSA: Directive = Directive {
    name: "ExponentMantissa",
    parse: |p, s| {
        let at = p.pos();
        let w = p.parse_bare_word();
        let parsed = w
            .strip_prefix('e')
            .and_then(|r| r.split_once('m'))
            .and_then(|(e, m)| Some((e.parse::<i64>().ok()?, m.parse::<i64>().ok()?)));
        let Some((e, m)) = parsed else {
            return Err(p.error_at(
                at,
                format!("expected exponent mantissa in format e#m#, saw {w}"),
            ));
        };
        let u = p.uniquer();
        let i32t = u.int_type(32);
        for (k, v) in [(0, e), (1, m)] {
            let a = u.attr(AttrKind::Integer {
                value: i128::from(v),
                ty: i32t,
            });
            s.set_attr(k, a);
        }
        Ok(())
    },
    print: |pr, s| {
        let get = |k| {
            s.attr(pr, k)
                .and_then(|a| aic::constraints::int_value(pr.ctx(), a))
                .unwrap_or(0)
        };
        let (e, m) = (get(0), get(1));
        pr.out.push_str(&format!("e{e}m{m}"));
    },
};

// ---------------------------------------------------------------- constant

/// `stablehlo.constant dense<...> : tensor<...>` (or the generic-like
/// `stablehlo.constant() <{value = ...}> : () -> type`).
pub fn parse_constant(p: &mut OpParser<'_, '_>, st: &mut OpState, spec: &OpSpec) -> R<()> {
    let u = p.uniquer();
    let value = u.ident("value");
    if p.eat_token("(") {
        p.expect_token(")")?;
        let mut props: Vec<(Ident, Attr)> = Vec::new();
        if p.eat_token("<") {
            let at = p.pos();
            let d = p.parse_attribute(None)?;
            match p.context().attr_kind(d) {
                AttrKind::Dict(entries) => props.extend(entries.iter().copied()),
                _ => return Err(p.error_at(at, "expected a properties dictionary")),
            }
            p.expect_token(">")?;
        }
        let dict = p.parse_optional_attr_dict()?;
        aic::asm::split_attr_dict(&u, spec, dict, &mut props, st);
        p.expect_token(":")?;
        p.expect_token("(")?;
        p.expect_token(")")?;
        p.expect_token("->")?;
        let t = p.parse_type()?;
        st.result_types.push(t);
        st.props = Some(u.dict_attr(props));
        return Ok(());
    }
    let dict = p.parse_optional_attr_dict()?;
    let at = p.pos();
    let a = p.parse_attribute(None)?;
    let ty = match p.context().attr_kind(a) {
        AttrKind::DenseElements { ty, .. } | AttrKind::DenseResource { ty, .. } => *ty,
        _ => return Err(p.error_at(at, "expected a dense elements attribute for 'value'")),
    };
    let mut props = vec![(value, a)];
    aic::asm::split_attr_dict(&u, spec, dict, &mut props, st);
    st.props = Some(u.dict_attr(props));
    st.result_types.push(ty);
    Ok(())
}

/// Print `stablehlo.constant`.
pub fn print_constant(pr: &mut OpPrinter<'_>, op: Op, spec: &OpSpec) {
    let ctx = pr.ctx();
    let Some(v) = spec.attr(ctx, op, "value") else {
        return;
    };
    let ty = match ctx.attr_kind(v) {
        AttrKind::DenseElements { ty, .. } | AttrKind::DenseResource { ty, .. } => Some(*ty),
        _ => None,
    };
    let result = ctx.value_type(ctx.result(op, 0));
    if ty != Some(result) {
        pr.out.push_str("() <{value = ");
        pr.attr(v);
        pr.out.push_str("}>");
        pr.attr_dict(op, &["value"], false);
        pr.out.push_str(" : () -> ");
        pr.ty(result);
        return;
    }
    pr.attr_dict(op, &["value"], false);
    pr.out.push(' ');
    pr.attr(v);
}

// ---------------------------------------------------------------- reduce

fn scalar_tensor(ctx: &aic::ir::Context, t: Type) -> Type {
    let elem = ctx.type_kind(t).element_type().unwrap_or(t);
    ctx.uniquer().ty(TypeKind::Tensor {
        shape: Default::default(),
        elem,
        encoding: None,
    })
}

/// `stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : type`
/// or with a `reducer(%a: t, %b: t) { ... }` region.
pub fn parse_reduce(p: &mut OpParser<'_, '_>, st: &mut OpState, spec: &OpSpec) -> R<()> {
    let start = p.pos();
    let (mut inputs, mut inits) = (Vec::new(), Vec::new());
    loop {
        if !p.eat_token("(") {
            break;
        }
        inputs.push(p.parse_operand()?);
        p.expect_keyword("init")?;
        p.expect_token(":")?;
        inits.push(p.parse_operand()?);
        p.expect_token(")")?;
        if !p.eat_token(",") {
            break;
        }
    }
    let operands: Vec<UnresolvedOperand<'_>> = inputs.into_iter().chain(inits).collect();
    let applies = if p.eat_keyword("applies") {
        let at = p.pos();
        let name = p.parse_bare_word().to_string();
        let ok = p.context().registry().op(&name).is_some_and(|s| {
            s.dialect() == "stablehlo"
                && s.operands.len() == 2
                && s.results.len() == 1
                && s.regions.is_empty()
                && s.has(aic::dialect::Traits::COMMUTATIVE)
        });
        if !ok {
            return Err(p.error_at(
                at,
                "expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, producing single result",
            ));
        }
        Some(name)
    } else {
        None
    };
    p.expect_keyword("across")?;
    p.expect_keyword("dimensions")?;
    p.expect_token("=")?;
    let dims = parse_int_list(p)?;
    let dict = p.parse_optional_attr_dict()?;
    p.expect_token(":")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let Some((ins, outs)) = p.function_type_parts(fty) else {
        return Err(p.error_at(at, "expected function type"));
    };
    if ins.is_empty() {
        return Err(p.error_at(at, "input types missing in reduce-op function type"));
    }
    if ins.len() != operands.len() {
        return Err(p.error_at(
            start,
            format!(
                "{} operands present, but expected {}",
                operands.len(),
                ins.len()
            ),
        ));
    }
    for (u, t) in operands.iter().zip(&ins) {
        let v = p.resolve_operand(u, *t)?;
        st.operands.push(v);
    }
    st.result_types.extend(outs.iter().copied());
    let region = match applies {
        Some(name) => {
            let ctx = p.context();
            let t = scalar_tensor(ctx, ins[0]);
            let loc = st.loc;
            let b = ctx.create_block(&[(t, Some(loc)), (t, Some(loc))]);
            let args: Vec<Value> = ctx.block_args(b).to_vec();
            let mut inner = OpState::new(ctx.ident(&name), loc);
            inner.operands.extend(args);
            inner.result_types.push(t);
            let inner = ctx.create_op(inner);
            ctx.append_op(b, inner);
            let mut ret = OpState::new(ctx.ident("stablehlo.return"), loc);
            ret.operands.push(ctx.result(inner, 0));
            let ret = ctx.create_op(ret);
            ctx.append_op(b, ret);
            let r = ctx.create_region();
            ctx.append_block(r, b);
            r
        }
        None => {
            p.expect_keyword("reducer")?;
            let (mut a, mut b) = (Vec::new(), Vec::new());
            while p.eat_token("(") {
                let u = p.parse_operand()?;
                p.expect_token(":")?;
                let t = p.parse_type()?;
                a.push(Argument::named(&u, t));
                p.expect_token(",")?;
                let u = p.parse_operand()?;
                p.expect_token(":")?;
                let t = p.parse_type()?;
                b.push(Argument::named(&u, t));
                p.expect_token(")")?;
            }
            a.extend(b);
            p.parse_region(&a)?
        }
    };
    st.regions.push(region);
    let u = p.uniquer();
    let dims_attr = i64_array(p, &dims);
    let mut props = vec![(u.ident("dimensions"), dims_attr)];
    aic::asm::split_attr_dict(&u, spec, dict, &mut props, st);
    st.props = Some(u.dict_attr(props));
    Ok(())
}

/// Whether a reduce can be printed in the compact `applies` form (StableHLO's
/// criteria E1-E5).
fn compact_inner(ctx: &aic::ir::Context, op: Op) -> Option<Op> {
    let region = *ctx.regions(op).first()?;
    let block = ctx.entry_block(region)?;
    let ops: Vec<Op> = ctx.block_ops(block).collect();
    let [inner, ret] = ops[..] else { return None };
    let spec = ctx.op_spec(inner)?;
    if spec.dialect() != "stablehlo"
        || ctx.operands(inner).len() != 2
        || ctx.num_results(inner) != 1
        || !ctx.regions(inner).is_empty()
        || !spec.has(aic::dialect::Traits::COMMUTATIVE)
    {
        return None;
    }
    let t = ctx.value_type(ctx.result(inner, 0));
    if ctx.operands(inner).iter().any(|v| ctx.value_type(*v) != t) {
        return None;
    }
    let first = *ctx.operands(op).first()?;
    if t != scalar_tensor(ctx, ctx.value_type(first)) {
        return None;
    }
    if ctx.block_args(block) != ctx.operands(inner) {
        return None;
    }
    if ctx.op_name(ret) != "stablehlo.return" || ctx.operands(ret) != [ctx.result(inner, 0)] {
        return None;
    }
    if !ctx.op(inner).attrs.is_empty() {
        return None;
    }
    Some(inner)
}

/// Print `stablehlo.reduce`.
pub fn print_reduce(pr: &mut OpPrinter<'_>, op: Op, spec: &OpSpec) {
    let ctx = pr.ctx();
    let ops: Vec<Value> = ctx.operands(op).to_vec();
    let n = ops.len() / 2;
    for i in 0..n {
        pr.out.push_str(if i == 0 { "(" } else { ", (" });
        pr.value(ops[i]);
        pr.out.push_str(" init: ");
        pr.value(ops[i + n]);
        pr.out.push(')');
    }
    let inner = compact_inner(ctx, op);
    if let Some(inner) = inner {
        pr.out.push_str(" applies ");
        pr.out.push_str(ctx.op_name(inner));
    }
    let dims = spec
        .attr(ctx, op, "dimensions")
        .and_then(|a| i64_values(ctx, a))
        .unwrap_or_default();
    pr.out.push_str(" across dimensions = ");
    pr.out.push_str(&list(&dims));
    pr.attr_dict(op, &["dimensions"], false);
    pr.out.push_str(" : ");
    let ins: Vec<Type> = ops.iter().map(|v| ctx.value_type(*v)).collect();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    pr.functional_type(&ins, &outs);
    if inner.is_none() {
        let region = ctx.regions(op)[0];
        pr.newline();
        pr.out.push_str(" reducer");
        if let Some(b) = ctx.entry_block(region) {
            let args: Vec<Value> = ctx.block_args(b).to_vec();
            let half = args.len() / 2;
            for i in 0..half {
                pr.out.push('(');
                for (k, a) in [args[i], args[i + half]].into_iter().enumerate() {
                    if k > 0 {
                        pr.out.push_str(", ");
                    }
                    pr.value(a);
                    pr.out.push_str(": ");
                    pr.ty(ctx.value_type(a));
                }
                pr.out.push_str(") ");
            }
        }
        pr.out.push(' ');
        pr.region(region, false, true);
    }
}

// ---------------------------------------------------------------- while

/// `stablehlo.while(%iter = %init) : types attributes {..} cond { } do { }`.
pub fn parse_while(p: &mut OpParser<'_, '_>, st: &mut OpState, spec: &OpSpec) -> R<()> {
    let at = p.pos();
    let (iters, inits) = p.parse_assignment_list()?;
    let mut types = Vec::new();
    if !inits.is_empty() {
        p.expect_token(":")?;
        types = p.parse_type_list()?;
    }
    if types.len() != inits.len() {
        return Err(p.error_at(
            at,
            format!(
                "{} operands present, but expected {}",
                inits.len(),
                types.len()
            ),
        ));
    }
    for (u, t) in inits.iter().zip(&types) {
        let v = p.resolve_operand(u, *t)?;
        st.operands.push(v);
    }
    st.result_types.extend(types.iter().copied());
    let mut props = Vec::new();
    if p.eat_keyword("attributes") {
        let dict = p.parse_optional_attr_dict()?;
        aic::asm::split_attr_dict(&p.uniquer(), spec, dict, &mut props, st);
    }
    let args: Vec<Argument<'_>> = iters
        .iter()
        .zip(&types)
        .map(|(u, t)| Argument::named(u, *t))
        .collect();
    p.expect_keyword("cond")?;
    let cond = p.parse_region(&args)?;
    p.expect_keyword("do")?;
    let body = p.parse_region(&args)?;
    st.regions.push(cond);
    st.regions.push(body);
    if !props.is_empty() {
        st.props = Some(p.uniquer().dict_attr(props));
    }
    Ok(())
}

/// Print `stablehlo.while`.
pub fn print_while(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let regions = ctx.regions(op).to_vec();
    let ops: Vec<Value> = ctx.operands(op).to_vec();
    let args: Vec<Value> = regions
        .get(1)
        .and_then(|r| ctx.entry_block(*r))
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    pr.out.push('(');
    pr.assignments(&args, &ops);
    pr.out.push(')');
    if !ops.is_empty() {
        pr.out.push_str(" : ");
        let tys: Vec<Type> = ops.iter().map(|v| ctx.value_type(*v)).collect();
        pr.types(&tys);
    }
    pr.attr_dict(op, &[], true);
    pr.newline();
    pr.out.push_str("cond ");
    pr.region(regions[0], false, true);
    pr.out.push_str(" do ");
    pr.region(regions[1], false, true);
}
