//! Printing of builtin types, attributes and locations exactly as MLIR 22 spells them.
//!
//! The op printer builds on these; they are kept free of op state so that
//! diagnostics and tests can print a type or attribute on its own.

use crate::attributes::{Attr, AttrKind, DenseData, LocKind};
use crate::float::print_mlir;
use crate::ir::Uniquer;
use crate::types::{DYNAMIC, Signedness, Type, TypeKind};
use std::fmt::Write;

/// Print a type.
pub fn type_text(u: &Uniquer, t: Type) -> String {
    let mut s = String::new();
    write_type(u, t, &mut s);
    s
}

/// Print an attribute (with its type where MLIR prints one).
pub fn attr_text(u: &Uniquer, a: Attr) -> String {
    let mut s = String::new();
    write_attr(u, a, false, &mut s);
    s
}

/// Print a location as `loc(...)`.
pub fn location_text(u: &Uniquer, a: Attr) -> String {
    let mut s = String::new();
    write_location(Pr::plain(u), a, false, &mut s);
    s
}

/// Alias names of attributes (`#map`, `#loc3`), as the op printer assigns them.
pub trait AliasLookup {
    /// The alias of `a` without the `#`, if it has one.
    fn alias(&self, a: Attr) -> Option<&str>;
    /// The alias of `t` without the `!`, if it has one.
    fn type_alias(&self, _t: Type) -> Option<&str> {
        None
    }
}

/// What attribute and type printing needs: the uniquer and, when printing a whole
/// module, the aliases to use for nested attributes.
#[derive(Clone, Copy)]
pub struct Pr<'a> {
    /// Where types and attributes live.
    pub u: &'a Uniquer,
    /// Aliases to print instead of the attributes they name.
    pub aliases: Option<&'a dyn AliasLookup>,
}

impl<'a> Pr<'a> {
    /// Printing without aliases.
    pub fn plain(u: &'a Uniquer) -> Self {
        Pr { u, aliases: None }
    }
    fn alias(&self, a: Attr) -> Option<&'a str> {
        self.aliases.and_then(|m| m.alias(a))
    }
    fn type_alias(&self, t: Type) -> Option<&'a str> {
        self.aliases.and_then(|m| m.type_alias(t))
    }
}

/// `loc(...)`, or `loc(#alias)` when the location has an alias and `allow_alias`
/// (MLIR prints block-argument locations in full, op locations by alias).
pub fn write_location(p: Pr<'_>, a: Attr, allow_alias: bool, out: &mut String) {
    out.push_str("loc(");
    match p.alias(a).filter(|_| allow_alias) {
        Some(name) => {
            out.push('#');
            out.push_str(name);
        }
        None => write_loc_inner_in(p, a, out),
    }
    out.push(')');
}

/// Append the definition body of an aliased attribute (`affine_map<...>`,
/// `loc(...)`): the attribute itself in full, its nested attributes by alias.
pub fn write_alias_definition(p: Pr<'_>, a: Attr, out: &mut String) {
    if matches!(p.u.attr_kind(a), AttrKind::Location(_)) {
        write_location(p, a, false, out);
    } else {
        write_attr_in(Pr { aliases: None, ..p }, a, false, out);
    }
}

/// Append the definition body of an aliased type (`tuple<...>`): the type itself in
/// full, the aliased types inside it by alias.
pub fn write_type_definition(p: Pr<'_>, t: Type, out: &mut String) {
    write_type_body(p, t, out);
}

/// Append the text of a type.
pub fn write_type(u: &Uniquer, t: Type, out: &mut String) {
    write_type_in(Pr::plain(u), t, out);
}

/// Append the text of an attribute. `elide_i64_f64` is MLIR's `AttrTypeElision::May`,
/// used for array elements, where `: i64` and `: f64` are left off.
pub fn write_attr(u: &Uniquer, a: Attr, elide_i64_f64: bool, out: &mut String) {
    write_attr_in(Pr::plain(u), a, elide_i64_f64, out);
}

/// Append an attribute without its `: type` where the type is implied by context
/// (MLIR's `printAttributeWithoutType`): integers and floats lose the suffix.
pub fn write_attr_without_type(u: &Uniquer, a: Attr, out: &mut String) {
    write_attr_without_type_in(Pr::plain(u), a, out);
}

/// Append `a = 1, b` dictionary entries (unit values print as the bare name).
pub fn write_dict_entries(
    u: &Uniquer,
    entries: &[(crate::attributes::Ident, Attr)],
    out: &mut String,
) {
    write_dict_entries_in(Pr::plain(u), entries, out);
}

fn write_dims(shape: &[i64], scalable: Option<&[bool]>, out: &mut String) {
    for (i, &d) in shape.iter().enumerate() {
        let sc = scalable.is_some_and(|s| s.get(i).copied().unwrap_or(false));
        if sc {
            out.push('[');
        }
        if d == DYNAMIC {
            out.push('?');
        } else {
            let _ = write!(out, "{d}");
        }
        if sc {
            out.push(']');
        }
        out.push('x');
    }
}

fn write_type_list_in(p: Pr<'_>, ts: &[Type], out: &mut String) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type_in(p, *t, out);
    }
}

/// [`write_type`] with aliases for nested attributes.
pub fn write_type_in(p: Pr<'_>, t: Type, out: &mut String) {
    if let Some(name) = p.type_alias(t) {
        out.push('!');
        out.push_str(name);
        return;
    }
    write_type_body(p, t, out);
}

fn write_type_body(p: Pr<'_>, t: Type, out: &mut String) {
    let u = p.u;
    match u.type_kind(t) {
        TypeKind::Integer { width, signedness } => {
            let p = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(out, "{p}{width}");
        }
        TypeKind::Index => out.push_str("index"),
        TypeKind::Float(k) => out.push_str(k.keyword()),
        TypeKind::None => out.push_str("none"),
        TypeKind::Complex(e) => {
            out.push_str("complex<");
            write_type_in(p, *e, out);
            out.push('>');
        }
        TypeKind::Tensor {
            shape,
            elem,
            encoding,
        } => {
            out.push_str("tensor<");
            write_dims(shape, None, out);
            write_type_in(p, *elem, out);
            if let Some(e) = encoding {
                out.push_str(", ");
                write_attr_in(p, *e, false, out);
            }
            out.push('>');
        }
        TypeKind::UnrankedTensor(e) => {
            out.push_str("tensor<*x");
            write_type_in(p, *e, out);
            out.push('>');
        }
        TypeKind::MemRef {
            shape,
            elem,
            layout,
            memory_space,
        } => {
            out.push_str("memref<");
            write_dims(shape, None, out);
            write_type_in(p, *elem, out);
            // MLIR leaves out an identity layout and `: i64` on an integer memory space.
            let layout = layout
                .filter(|l| !matches!(u.attr_kind(*l), AttrKind::AffineMap(m) if m.is_identity()));
            for a in [layout.as_ref(), memory_space.as_ref()]
                .into_iter()
                .flatten()
            {
                out.push_str(", ");
                write_attr_in(p, *a, true, out);
            }
            out.push('>');
        }
        TypeKind::UnrankedMemRef { elem, memory_space } => {
            out.push_str("memref<*x");
            write_type_in(p, *elem, out);
            if let Some(m) = memory_space {
                out.push_str(", ");
                write_attr_in(p, *m, true, out);
            }
            out.push('>');
        }
        TypeKind::Vector {
            shape,
            scalable,
            elem,
        } => {
            out.push_str("vector<");
            write_dims(shape, Some(scalable), out);
            write_type_in(p, *elem, out);
            out.push('>');
        }
        TypeKind::Tuple(ts) => {
            out.push_str("tuple<");
            write_type_list_in(p, ts, out);
            out.push('>');
        }
        TypeKind::Function { inputs, results } => {
            out.push('(');
            write_type_list_in(p, inputs, out);
            out.push_str(") -> ");
            // A single non-function result prints bare, as MLIR does.
            if results.len() == 1 && !matches!(u.type_kind(results[0]), TypeKind::Function { .. }) {
                write_type_in(p, results[0], out);
            } else {
                out.push('(');
                write_type_list_in(p, results, out);
                out.push(')');
            }
        }
        TypeKind::Dialect(d) => {
            out.push('!');
            d.print(u, out);
        }
        TypeKind::Opaque(body) => {
            out.push('!');
            out.push_str(body);
        }
    }
}

/// Append an MLIR string literal: printable ASCII stays, `\` doubles, `"` and the rest become `\XX`.
pub fn write_string(bytes: &[u8], out: &mut String) {
    out.push('"');
    for &b in bytes {
        match b {
            // MLIR's printEscapedString: a backslash doubles, a quote goes hex.
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
}

fn int_value_text(u: &Uniquer, value: i128, ty: Type) -> String {
    match u.type_kind(ty) {
        TypeKind::Integer {
            width,
            signedness: Signedness::Unsigned,
        } if *width <= 128 => {
            let mask = if *width >= 128 {
                u128::MAX
            } else {
                (1u128 << width) - 1
            };
            format!("{}", (value as u128) & mask)
        }
        _ => format!("{value}"),
    }
}

fn float_text(u: &Uniquer, bits: u128, ty: Type) -> String {
    match u.type_kind(ty) {
        TypeKind::Float(k) => print_mlir(*k, bits),
        _ => format!("{bits}"),
    }
}

fn is_i1(u: &Uniquer, t: Type) -> bool {
    matches!(
        u.type_kind(t),
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// [`write_attr`] with aliases for nested attributes.
pub fn write_attr_in(p: Pr<'_>, a: Attr, elide_i64_f64: bool, out: &mut String) {
    let u = p.u;
    if let Some(name) = p.alias(a) {
        out.push('#');
        out.push_str(name);
        return;
    }
    match u.attr_kind(a) {
        AttrKind::Unit => out.push_str("unit"),
        AttrKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        AttrKind::Integer { value, ty } => {
            if is_i1(u, *ty) {
                out.push_str(if *value != 0 { "true" } else { "false" });
                return;
            }
            out.push_str(&int_value_text(u, *value, *ty));
            if !(elide_i64_f64 && *u.type_kind(*ty) == TypeKind::int(64)) {
                out.push_str(" : ");
                write_type_in(p, *ty, out);
            }
        }
        AttrKind::Float { bits, ty } => {
            out.push_str(&float_text(u, *bits, *ty));
            let is_f64 = matches!(
                u.type_kind(*ty),
                TypeKind::Float(crate::float::FloatKind::F64)
            );
            if !(elide_i64_f64 && is_f64) {
                out.push_str(" : ");
                write_type_in(p, *ty, out);
            }
        }
        AttrKind::String { value, ty } => {
            write_string(value, out);
            if let Some(t) = ty {
                out.push_str(" : ");
                write_type_in(p, *t, out);
            }
        }
        AttrKind::Array(xs) => {
            out.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_attr_in(p, *x, true, out);
            }
            out.push(']');
        }
        AttrKind::Dict(entries) => {
            out.push('{');
            write_dict_entries_in(p, entries, out);
            out.push('}');
        }
        AttrKind::Type(t) => write_type_in(p, *t, out),
        AttrKind::SymbolRef { root, nested } => {
            write_symbol(u.str(*root), out);
            for n in nested.iter() {
                out.push_str("::");
                write_symbol(u.str(*n), out);
            }
        }
        AttrKind::DenseElements { ty, data } => {
            out.push_str("dense<");
            write_dense(u, *ty, data, out);
            out.push_str("> : ");
            write_type_in(p, *ty, out);
        }
        AttrKind::DenseResource { handle, ty } => {
            let _ = write!(out, "dense_resource<{}> : ", u.str(*handle));
            write_type_in(p, *ty, out);
        }
        AttrKind::DenseArray { elem, values } => {
            out.push_str("array<");
            write_type_in(p, *elem, out);
            for (i, v) in values.iter().enumerate() {
                out.push_str(if i == 0 { ": " } else { ", " });
                match u.type_kind(*elem) {
                    TypeKind::Float(k) => out.push_str(&print_mlir(*k, u128::from(*v))),
                    TypeKind::Integer { width: 1, .. } => {
                        out.push_str(if *v != 0 { "true" } else { "false" })
                    }
                    TypeKind::Integer { width, .. } => {
                        let sh = 64 - (*width).min(64);
                        let _ = write!(out, "{}", ((*v << sh) as i64) >> sh);
                    }
                    _ => {
                        let _ = write!(out, "{v}");
                    }
                }
            }
            out.push('>');
        }
        AttrKind::AffineMap(m) => {
            let _ = write!(out, "affine_map<{m}>");
        }
        AttrKind::IntegerSet(s) => {
            let _ = write!(out, "affine_set<{s}>");
        }
        AttrKind::Strided { offset, strides } => {
            let d = |v: i64| {
                if v == DYNAMIC {
                    "?".to_string()
                } else {
                    v.to_string()
                }
            };
            out.push_str("strided<[");
            out.push_str(&strides.iter().map(|s| d(*s)).collect::<Vec<_>>().join(", "));
            out.push(']');
            if *offset != 0 {
                let _ = write!(out, ", offset: {}", d(*offset));
            }
            out.push('>');
        }
        AttrKind::Location(_) => write_location(p, a, true, out),
        AttrKind::Dialect(d) => {
            out.push('#');
            d.print(u, out);
        }
        AttrKind::Opaque(body) => {
            out.push('#');
            out.push_str(body);
        }
    }
}

/// [`write_attr_without_type`] with aliases for nested attributes.
pub fn write_attr_without_type_in(p: Pr<'_>, a: Attr, out: &mut String) {
    let u = p.u;
    match u.attr_kind(a) {
        AttrKind::Integer { value, ty } if !is_i1(u, *ty) => {
            out.push_str(&int_value_text(u, *value, *ty))
        }
        AttrKind::Float { bits, ty } => out.push_str(&float_text(u, *bits, *ty)),
        AttrKind::String { value, .. } => write_string(value, out),
        _ => write_attr_in(p, a, false, out),
    }
}

/// [`write_dict_entries`] with aliases for nested attributes.
pub fn write_dict_entries_in(
    p: Pr<'_>,
    entries: &[(crate::attributes::Ident, Attr)],
    out: &mut String,
) {
    let u = p.u;
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_key(u.str(*k), out);
        if !matches!(u.attr_kind(*v), AttrKind::Unit) {
            out.push_str(" = ");
            write_attr_in(p, *v, false, out);
        }
    }
}

fn is_bare_id(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

fn write_key(k: &str, out: &mut String) {
    if is_bare_id(k) {
        out.push_str(k);
    } else {
        write_string(k.as_bytes(), out);
    }
}

fn write_symbol(s: &str, out: &mut String) {
    out.push('@');
    write_key(s, out);
}

fn write_dense(u: &Uniquer, ty: Type, data: &DenseData, out: &mut String) {
    let tk = u.type_kind(ty);
    let shape: Vec<i64> = tk.shape().map(<[i64]>::to_vec).unwrap_or_default();
    let elem = tk.element_type().unwrap_or(ty);
    let n = tk.num_elements().unwrap_or(0);
    // MLIR detects splats when it builds the attribute: one element, or all equal.
    let splat = match data {
        DenseData::Raw { splat, bytes } => {
            let w = scalar_bytes(u, elem).max(1);
            *splat || (n > 0 && bytes.chunks(w).all(|c| c == &bytes[..w.min(bytes.len())]))
        }
        DenseData::Strings { splat, values } => {
            *splat || (n > 0 && values.iter().all(|v| *v == values[0]))
        }
    };
    if n == 0 && !splat {
        return;
    }
    let scalar = |i: usize, out: &mut String| match data {
        DenseData::Strings { values, .. } => write_string(&values[i], out),
        DenseData::Raw { bytes, .. } => write_raw_scalar(u, elem, bytes, i, out),
    };
    if splat {
        scalar(0, out);
        return;
    }
    let limit = ELEMENTS_HEX_LIMIT.load(std::sync::atomic::Ordering::Relaxed);
    if let DenseData::Raw { bytes, .. } = data
        && limit >= 0
        && n as i64 > limit
    {
        write_hex(u, elem, bytes, n as usize, out);
        return;
    }
    // Nested lists, one level per dimension.
    let mut idx = 0usize;
    write_nested(&shape, 0, &mut idx, &scalar, out);
}

fn write_nested(
    shape: &[i64],
    dim: usize,
    idx: &mut usize,
    scalar: &dyn Fn(usize, &mut String),
    out: &mut String,
) {
    if dim == shape.len() {
        scalar(*idx, out);
        *idx += 1;
        return;
    }
    out.push('[');
    for i in 0..shape[dim].max(0) {
        if i > 0 {
            out.push_str(", ");
        }
        write_nested(shape, dim + 1, idx, scalar, out);
    }
    out.push(']');
}

/// Dense elements attributes with more elements than this print as a hex string
/// (`dense<"0x...">`), as with mlir-opt's
/// `--mlir-print-elementsattrs-with-hex-if-larger` (default 100; negative: never).
pub static ELEMENTS_HEX_LIMIT: std::sync::atomic::AtomicI64 =
    std::sync::atomic::AtomicI64::new(100);

/// The bits of one scalar of `elem` (a component, for complex numbers).
fn scalar_bits(u: &Uniquer, elem: Type) -> u32 {
    match u.type_kind(elem) {
        TypeKind::Integer { width, .. } => *width,
        TypeKind::Float(k) => k.bit_width(),
        TypeKind::Complex(e) => scalar_bits(u, *e),
        _ => 64,
    }
}

/// `"0x..."`: MLIR's raw buffer of a dense elements attribute, element by
/// element in little-endian bytes masked to the element's width, with `i1`
/// packed eight to a byte (least significant bit first).
fn write_hex(u: &Uniquer, elem: Type, bytes: &[u8], n: usize, out: &mut String) {
    out.push_str("\"0x");
    let w = scalar_bytes(u, elem).max(1);
    let mut raw = Vec::with_capacity(n * w);
    if matches!(u.type_kind(elem), TypeKind::Integer { width: 1, .. }) {
        raw.resize(n.div_ceil(8), 0u8);
        for i in 0..n {
            if bytes.get(i).is_some_and(|b| *b != 0) {
                raw[i / 8] |= 1 << (i % 8);
            }
        }
    } else {
        let parts = if matches!(u.type_kind(elem), TypeKind::Complex(_)) {
            2
        } else {
            1
        };
        let pw = w / parts;
        let bits = scalar_bits(u, elem);
        let mask = if bits >= 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        for c in bytes.chunks(pw).take(n * parts) {
            let v = read_le(c) & mask;
            raw.extend_from_slice(&v.to_le_bytes()[..pw]);
        }
    }
    for b in raw {
        let _ = write!(out, "{b:02X}");
    }
    out.push('"');
}

/// Bytes one scalar of `elem` takes in dense storage.
pub fn scalar_bytes(u: &Uniquer, elem: Type) -> usize {
    match u.type_kind(elem) {
        TypeKind::Integer { width, .. } => (*width as usize).div_ceil(8).max(1),
        TypeKind::Index => 8,
        TypeKind::Float(k) => (k.bit_width() as usize).div_ceil(8),
        TypeKind::Complex(e) => 2 * scalar_bytes(u, *e),
        _ => 0,
    }
}

fn read_le(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
}

fn write_raw_scalar(u: &Uniquer, elem: Type, bytes: &[u8], i: usize, out: &mut String) {
    let w = scalar_bytes(u, elem);
    let Some(chunk) = bytes.get(i * w..(i + 1) * w) else {
        return;
    };
    match u.type_kind(elem) {
        TypeKind::Complex(e) => {
            let h = w / 2;
            out.push('(');
            write_raw_scalar(u, *e, &chunk[..h], 0, out);
            out.push(',');
            write_raw_scalar(u, *e, &chunk[h..], 0, out);
            out.push(')');
        }
        TypeKind::Float(k) => out.push_str(&print_mlir(*k, read_le(chunk))),
        TypeKind::Integer { width: 1, .. } => {
            out.push_str(if chunk[0] != 0 { "true" } else { "false" })
        }
        TypeKind::Integer { width, signedness } => {
            let raw = read_le(chunk);
            let bits = (*width).min(128);
            if *signedness == Signedness::Unsigned {
                let _ = write!(out, "{raw}");
            } else {
                let sh = 128 - bits;
                let _ = write!(out, "{}", ((raw << sh) as i128) >> sh);
            }
        }
        TypeKind::Index => {
            let _ = write!(out, "{}", read_le(chunk) as u64 as i64);
        }
        _ => {}
    }
}

/// A location nested in another: by alias when it has one (`#loc3`).
fn write_loc_child(p: Pr<'_>, a: Attr, out: &mut String) {
    match p.alias(a) {
        Some(name) => {
            out.push('#');
            out.push_str(name);
        }
        None => write_loc_inner_in(p, a, out),
    }
}

fn write_loc_inner_in(p: Pr<'_>, a: Attr, out: &mut String) {
    let u = p.u;
    let AttrKind::Location(l) = u.attr_kind(a) else {
        write_attr_in(p, a, false, out);
        return;
    };
    match l {
        LocKind::Unknown => out.push_str("unknown"),
        LocKind::FileLineCol {
            file,
            line,
            col,
            end,
        } => {
            write_string(u.str(*file).as_bytes(), out);
            let _ = write!(out, ":{line}:{col}");
            if let Some((el, ec)) = end {
                if el == line {
                    let _ = write!(out, " to :{ec}");
                } else {
                    let _ = write!(out, " to {el}:{ec}");
                }
            }
        }
        LocKind::Name { name, child } => {
            write_string(u.str(*name).as_bytes(), out);
            if let Some(c) =
                child.filter(|c| !matches!(u.attr_kind(*c), AttrKind::Location(LocKind::Unknown)))
            {
                out.push('(');
                write_loc_child(p, c, out);
                out.push(')');
            }
        }
        LocKind::CallSite { callee, caller } => {
            out.push_str("callsite(");
            write_loc_child(p, *callee, out);
            out.push_str(" at ");
            write_loc_child(p, *caller, out);
            out.push(')');
        }
        LocKind::Fused { metadata, locs } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                write_attr_in(p, *m, false, out);
                out.push('>');
            }
            out.push('[');
            for (i, x) in locs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_loc_child(p, *x, out);
            }
            out.push(']');
        }
    }
}
