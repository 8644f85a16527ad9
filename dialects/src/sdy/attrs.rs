//! Shardy's attributes as typed values: `#sdy.mesh<["x"=2, "y"=2]>`
//! ([`Mesh`]), `#sdy.sharding<@mesh, [{"x"}, {"y", ?}p1], replicated={"z"}>`
//! ([`Sharding`]), `#sdy.sharding_per_value<[...]>` ([`ShardingPerValue`]) and
//! `#sdy.manual_axes<{"x"}>` ([`ManualAxes`]).
//!
//! One grammar reads them, over any [`Tokens`]: the text after `#` that the
//! generic attribute parser hands the dialect ([`parse_attr`]), and the
//! stripped forms the ops' assembly writes (`<@mesh, [{}]>` without
//! `#sdy.sharding`), read token by token from the op parser. Each value prints
//! itself as Shardy's printer does (iota `device_ids` left out).

use aic::attributes::{Attr, AttrKind, DialectAttr};
use aic::dialect::{AttrConstraint, AttrSyntax};
use aic::ir::Uniquer;
use aic::types::{DialectObject, DialectValue};

type R<T> = Result<T, String>;

/// A mesh: named axes with their sizes, and the device of each position
/// (row-major over the axes; empty for the iota order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mesh {
    /// `(name, size)` of each axis, major to minor.
    pub axes: Vec<(String, i64)>,
    /// Explicit device ids (empty: `0..devices`).
    pub device_ids: Vec<i64>,
}

/// An axis, or a sub-axis `"x":(pre)size` (the `size` devices of `x` that
/// follow a stride of `pre`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AxisRef {
    /// The mesh axis.
    pub name: String,
    /// `(pre_size, size)` for a sub-axis.
    pub sub: Option<(i64, i64)>,
}

/// How one dimension is sharded: the axes it is split along, major first,
/// whether propagation may add more (open, `?`), and its priority.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DimSharding {
    /// Axes, major to minor.
    pub axes: Vec<AxisRef>,
    /// Closed `{"x"}` or open `{"x", ?}`.
    pub open: bool,
    /// `p<N>`.
    pub priority: Option<i64>,
}

/// Which mesh a sharding refers to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeshRef {
    /// `@name` of an `sdy.mesh`.
    Symbol(String),
    /// A mesh written in place, `mesh<[...]>`.
    Inline(Mesh),
}

/// `#sdy.sharding<...>`: a tensor's sharding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sharding {
    /// The mesh.
    pub mesh: MeshRef,
    /// One per dimension of the tensor.
    pub dims: Vec<DimSharding>,
    /// Axes the tensor is explicitly replicated along.
    pub replicated: Vec<AxisRef>,
    /// Axes along which the tensor holds unreduced partial values.
    pub unreduced: Vec<AxisRef>,
}

/// `#sdy.sharding_per_value<[...]>`: one sharding per value (an op's results,
/// a manual computation's operands or results).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShardingPerValue(pub Vec<Sharding>);

/// `#sdy.manual_axes<{"x", "y"}>`: the axes a manual computation's body is
/// written per device along.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ManualAxes(pub Vec<String>);

/// The constraint of an op attribute holding a `T`.
const fn constraint<T: DialectValue>(desc: &'static str) -> AttrConstraint {
    AttrConstraint {
        desc,
        check: |a, _| a.dialect_value::<T>().is_some(),
        syntax: AttrSyntax::Full,
    }
}

macro_rules! typed {
    ($t:ty, $desc:literal) => {
        impl $t {
            /// The constraint of an op attribute holding one.
            pub const CONSTRAINT: AttrConstraint = constraint::<$t>($desc);
            /// The value `a` holds, if it is one.
            pub fn of(u: &Uniquer, a: Attr) -> Option<&$t> {
                u.dialect_attr(a)
            }
            /// The attribute holding `self`.
            pub fn attr(self, u: &Uniquer) -> Attr {
                u.attr(AttrKind::Dialect(DialectObject::new(self)))
            }
        }
        impl aic::op_def::FromAttr for $t {
            fn from_attr(ctx: &aic::ir::Context, a: Attr) -> Option<$t> {
                <$t>::of(ctx, a).cloned()
            }
        }
    };
}

typed!(Mesh, "mesh");
typed!(Sharding, "sharding");
typed!(ShardingPerValue, "sharding per value");
typed!(ManualAxes, "list of manual axes");

// ---------------------------------------------------------------- queries

impl Mesh {
    /// How many devices the mesh has.
    pub fn devices(&self) -> i64 {
        self.axes.iter().map(|a| a.1).product()
    }
    /// The size of axis `name`.
    pub fn axis_size(&self, name: &str) -> Option<i64> {
        self.axes.iter().find(|a| a.0 == name).map(|a| a.1)
    }
    /// The index of axis `name`.
    pub fn axis_index(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.0 == name)
    }
    /// The coordinate of the device at position `device` along axis `k`
    /// (positions are row-major over the axes).
    pub fn coord(&self, device: i64, k: usize) -> i64 {
        let inner: i64 = self.axes[k + 1..].iter().map(|a| a.1).product();
        (device / inner) % self.axes[k].1
    }
    /// The device ids in position order.
    pub fn ids(&self) -> Vec<i64> {
        if self.device_ids.is_empty() {
            (0..self.devices()).collect()
        } else {
            self.device_ids.clone()
        }
    }
    /// Whether this mesh's device order is the identity.
    pub fn is_iota(&self) -> bool {
        self.ids().iter().enumerate().all(|(i, d)| *d == i as i64)
    }
}

impl AxisRef {
    /// A whole axis.
    pub fn axis(name: &str) -> AxisRef {
        AxisRef {
            name: name.to_string(),
            sub: None,
        }
    }
    /// How many devices the axis (or sub-axis) spans in `mesh`.
    pub fn size(&self, mesh: &Mesh) -> Option<i64> {
        match self.sub {
            Some((_, s)) => Some(s),
            None => mesh.axis_size(&self.name),
        }
    }
    /// This axis's coordinate of the device at `device` of `mesh`.
    pub fn coord(&self, mesh: &Mesh, device: i64) -> Option<i64> {
        let k = mesh.axis_index(&self.name)?;
        let c = mesh.coord(device, k);
        Some(match self.sub {
            Some((pre, size)) => (c / pre) % size,
            None => c,
        })
    }
}

impl DimSharding {
    /// A closed dimension sharded along `axes`.
    pub fn closed(axes: &[&str]) -> DimSharding {
        DimSharding {
            axes: axes.iter().map(|a| AxisRef::axis(a)).collect(),
            open: false,
            priority: None,
        }
    }
    /// How many shards the dimension is split into.
    pub fn shards(&self, mesh: &Mesh) -> Option<i64> {
        self.axes.iter().map(|a| a.size(mesh)).product()
    }
    /// Which shard the device at `device` holds.
    pub fn shard_of(&self, mesh: &Mesh, device: i64) -> Option<i64> {
        let mut s = 0;
        for a in &self.axes {
            s = s * a.size(mesh)? + a.coord(mesh, device)?;
        }
        Some(s)
    }
}

impl Sharding {
    /// Replicated on `mesh` for a tensor of `rank` dimensions.
    pub fn replicated(mesh: MeshRef, rank: usize) -> Sharding {
        Sharding {
            mesh,
            dims: vec![DimSharding::default(); rank],
            replicated: Vec::new(),
            unreduced: Vec::new(),
        }
    }
    /// Whether no dimension is split.
    pub fn is_replicated(&self) -> bool {
        self.dims.iter().all(|d| d.axes.is_empty())
    }
    /// Every axis this sharding splits a dimension along.
    pub fn used_axes(&self) -> impl Iterator<Item = &AxisRef> {
        self.dims.iter().flat_map(|d| d.axes.iter())
    }
}

// ---------------------------------------------------------------- printing

fn push_axes(out: &mut String, axes: &[AxisRef]) {
    for (i, a) in axes.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("{:?}", a.name));
        if let Some((pre, size)) = a.sub {
            out.push_str(&format!(":({pre}){size}"));
        }
    }
}

impl Mesh {
    /// The body `<["x"=2], device_ids=[...]>` after `mesh` or `#sdy.mesh`.
    pub fn print_body(&self, out: &mut String) {
        out.push_str("<[");
        for (i, (n, s)) in self.axes.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("{n:?}={s}"));
        }
        out.push(']');
        if !self.device_ids.is_empty() && !self.is_iota() {
            let ids: Vec<String> = self.device_ids.iter().map(i64::to_string).collect();
            out.push_str(&format!(", device_ids=[{}]", ids.join(", ")));
        }
        out.push('>');
    }
}

impl Sharding {
    /// The stripped form `<@mesh, [{"x"}, {}]>`.
    pub fn print_body(&self, out: &mut String) {
        out.push('<');
        match &self.mesh {
            MeshRef::Symbol(s) => {
                out.push('@');
                out.push_str(s);
            }
            MeshRef::Inline(m) => {
                out.push_str("mesh");
                m.print_body(out);
            }
        }
        out.push_str(", [");
        for (i, d) in self.dims.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('{');
            push_axes(out, &d.axes);
            if d.open {
                out.push_str(if d.axes.is_empty() { "?" } else { ", ?" });
            }
            out.push('}');
            if let Some(p) = d.priority {
                out.push_str(&format!("p{p}"));
            }
        }
        out.push(']');
        for (kw, axes) in [
            ("replicated", &self.replicated),
            ("unreduced", &self.unreduced),
        ] {
            if !axes.is_empty() {
                out.push_str(&format!(", {kw}={{"));
                push_axes(out, axes);
                out.push('}');
            }
        }
        out.push('>');
    }
}

impl ShardingPerValue {
    /// The stripped form `[<@mesh, [...]>, ...]`.
    pub fn print_body(&self, out: &mut String) {
        out.push('[');
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            s.print_body(out);
        }
        out.push(']');
    }
}

impl ManualAxes {
    /// The stripped form `{"x", "y"}`.
    pub fn print_body(&self, out: &mut String) {
        out.push('{');
        let quoted: Vec<String> = self.0.iter().map(|a| format!("{a:?}")).collect();
        out.push_str(&quoted.join(", "));
        out.push('}');
    }
}

impl DialectValue for Mesh {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str("sdy.mesh");
        self.print_body(out);
    }
}
impl DialectValue for Sharding {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str("sdy.sharding");
        self.print_body(out);
    }
}
impl DialectValue for ShardingPerValue {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str("sdy.sharding_per_value<");
        self.print_body(out);
        out.push('>');
    }
}
impl DialectValue for ManualAxes {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str("sdy.manual_axes<");
        self.print_body(out);
        out.push('>');
    }
}

// ---------------------------------------------------------------- parsing

/// The tokens the grammar reads: a cursor over attribute text, or the op
/// parser (see `syntax.rs`). Every method skips whitespace first.
pub trait Tokens {
    /// Consume `tok` if it is next.
    fn eat(&mut self, tok: &str) -> bool;
    /// A quoted string.
    fn string(&mut self) -> R<String>;
    /// A (possibly negative) integer.
    fn int(&mut self) -> R<i64>;
    /// A symbol reference `@name`, without the `@`.
    fn symbol(&mut self) -> R<String>;
    /// Whether the next byte is `c` (without consuming it).
    fn peek(&mut self, c: u8) -> bool;
    /// An error "expected ..." at the current position.
    fn expected(&mut self, what: &str) -> String;
    /// A priority `p<N>` after a dimension's `}`, if one is next.
    fn priority(&mut self) -> R<Option<i64>> {
        if self.eat("p") {
            self.int().map(Some)
        } else {
            Ok(None)
        }
    }
    /// `tok`, or an error.
    fn expect(&mut self, tok: &str) -> R<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{tok}'")))
        }
    }
}

/// A [`Tokens`] cursor over attribute text.
pub struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `s`.
    pub fn new(s: &'a str) -> Self {
        Cursor { s, i: 0 }
    }
    fn ws(&mut self) {
        while self.s[self.i..].starts_with(|c: char| c.is_whitespace()) {
            self.i += 1;
        }
    }
    /// Whether all of the text was read.
    pub fn at_end(&mut self) -> bool {
        self.ws();
        self.i == self.s.len()
    }
}

impl Tokens for Cursor<'_> {
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(tok) {
            self.i += tok.len();
            true
        } else {
            false
        }
    }
    fn string(&mut self) -> R<String> {
        self.ws();
        let rest = &self.s[self.i..];
        let Some(body) = rest.strip_prefix('"') else {
            return Err(self.expected("a quoted axis name"));
        };
        let Some(end) = body.find('"') else {
            return Err("unterminated string".into());
        };
        self.i += end + 2;
        Ok(body[..end].to_string())
    }
    fn int(&mut self) -> R<i64> {
        self.ws();
        let rest = &self.s[self.i..];
        let n = rest
            .char_indices()
            .take_while(|(k, c)| c.is_ascii_digit() || (*k == 0 && *c == '-'))
            .count();
        let v = rest[..n]
            .parse::<i64>()
            .map_err(|_| self.expected("an integer"))?;
        self.i += n;
        Ok(v)
    }
    fn symbol(&mut self) -> R<String> {
        if !self.eat("@") {
            return Err(self.expected("'@'"));
        }
        let rest = &self.s[self.i..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$-".contains(c)))
            .unwrap_or(rest.len());
        if n == 0 {
            return Err(self.expected("a symbol name"));
        }
        self.i += n;
        Ok(rest[..n].to_string())
    }
    fn peek(&mut self, c: u8) -> bool {
        self.ws();
        self.s.as_bytes().get(self.i) == Some(&c)
    }
    fn expected(&mut self, what: &str) -> String {
        self.ws();
        let near: String = self.s[self.i..].chars().take(12).collect();
        format!("expected {what} in sdy attribute, near '{near}'")
    }
}

/// `<[...], device_ids=[...]>`.
pub fn parse_mesh(t: &mut impl Tokens) -> R<Mesh> {
    t.expect("<")?;
    t.expect("[")?;
    let mut m = Mesh::default();
    if !t.eat("]") {
        loop {
            let name = t.string()?;
            t.expect("=")?;
            let size = t.int()?;
            if size <= 0 {
                return Err(format!("axis {name:?} has size {size}, not a positive one"));
            }
            if m.axis_size(&name).is_some() {
                return Err(format!("duplicate axis name {name:?} in mesh"));
            }
            m.axes.push((name, size));
            if t.eat("]") {
                break;
            }
            t.expect(",")?;
        }
    }
    if t.eat(",") {
        t.expect("device_ids")?;
        t.expect("=")?;
        t.expect("[")?;
        if !t.eat("]") {
            loop {
                m.device_ids.push(t.int()?);
                if t.eat("]") {
                    break;
                }
                t.expect(",")?;
            }
        }
    }
    t.expect(">")?;
    Ok(m)
}

fn parse_axis_ref(t: &mut impl Tokens) -> R<AxisRef> {
    let name = t.string()?;
    let sub = if t.eat(":") {
        t.expect("(")?;
        let pre = t.int()?;
        t.expect(")")?;
        let size = t.int()?;
        if pre <= 0 || size <= 1 {
            return Err(format!(
                "sub-axis {name:?}:({pre}){size} needs a positive pre-size and a size above 1"
            ));
        }
        Some((pre, size))
    } else {
        None
    };
    Ok(AxisRef { name, sub })
}

/// `{"x", "y"}` (after `replicated=`, `unreduced=`, `manual_axes=`).
fn parse_axis_set(t: &mut impl Tokens) -> R<Vec<AxisRef>> {
    t.expect("{")?;
    let mut axes = Vec::new();
    if t.eat("}") {
        return Ok(axes);
    }
    loop {
        axes.push(parse_axis_ref(t)?);
        if t.eat("}") {
            return Ok(axes);
        }
        t.expect(",")?;
    }
}

/// `{"x", ?}p1`.
fn parse_dim(t: &mut impl Tokens) -> R<DimSharding> {
    t.expect("{")?;
    let mut d = DimSharding::default();
    if !t.eat("}") {
        loop {
            if t.eat("?") {
                d.open = true;
                t.expect("}")?;
                break;
            }
            d.axes.push(parse_axis_ref(t)?);
            if t.eat("}") {
                break;
            }
            t.expect(",")?;
        }
    }
    if let Some(p) = t.priority()? {
        if p < 0 {
            return Err(format!("priority p{p} is negative"));
        }
        d.priority = Some(p);
    }
    Ok(d)
}

/// The stripped sharding `<@mesh, [{...}, ...], replicated={...}>`.
pub fn parse_sharding(t: &mut impl Tokens) -> R<Sharding> {
    t.expect("<")?;
    let mesh = if t.peek(b'@') {
        MeshRef::Symbol(t.symbol()?)
    } else if t.eat("mesh") {
        MeshRef::Inline(parse_mesh(t)?)
    } else {
        return Err(t.expected("a mesh ('@name' or 'mesh<...>')"));
    };
    t.expect(",")?;
    t.expect("[")?;
    let mut dims = Vec::new();
    if !t.eat("]") {
        loop {
            dims.push(parse_dim(t)?);
            if t.eat("]") {
                break;
            }
            t.expect(",")?;
        }
    }
    let mut s = Sharding {
        mesh,
        dims,
        replicated: Vec::new(),
        unreduced: Vec::new(),
    };
    while t.eat(",") {
        if t.eat("replicated") {
            t.expect("=")?;
            s.replicated = parse_axis_set(t)?;
        } else if t.eat("unreduced") {
            t.expect("=")?;
            s.unreduced = parse_axis_set(t)?;
        } else {
            return Err(t.expected("'replicated' or 'unreduced'"));
        }
    }
    t.expect(">")?;
    Ok(s)
}

/// The stripped list `[<...>, ...]`.
pub fn parse_sharding_list(t: &mut impl Tokens) -> R<ShardingPerValue> {
    t.expect("[")?;
    let mut v = Vec::new();
    if !t.eat("]") {
        loop {
            v.push(parse_sharding(t)?);
            if t.eat("]") {
                break;
            }
            t.expect(",")?;
        }
    }
    Ok(ShardingPerValue(v))
}

/// The stripped manual axes `{"x", "y"}`.
pub fn parse_manual_axes(t: &mut impl Tokens) -> R<ManualAxes> {
    let axes = parse_axis_set(t)?;
    let mut names = Vec::new();
    for a in axes {
        if a.sub.is_some() {
            return Err(format!("manual axis {:?} cannot be a sub-axis", a.name));
        }
        names.push(a.name);
    }
    Ok(ManualAxes(names))
}

/// The text of `#sdy.MNEMONIC<BODY>` after `#` as a typed value: `Ok(None)`
/// for one this dialect does not model (kept opaque), `Err` for malformed text.
pub fn parse_attr(_: &Uniquer, text: &str) -> R<Option<DialectAttr>> {
    let Some((mnemonic, rest)) = text.split_once('<') else {
        return Ok(None);
    };
    let body = &text[mnemonic.len()..];
    let mut t = Cursor::new(body);
    let v = match mnemonic {
        "sdy.mesh" => DialectObject::new(parse_mesh(&mut t)?),
        "sdy.sharding" => DialectObject::new(parse_sharding(&mut t)?),
        "sdy.sharding_per_value" => {
            t.expect("<")?;
            let v = parse_sharding_list(&mut t)?;
            t.expect(">")?;
            DialectObject::new(v)
        }
        "sdy.manual_axes" => {
            t.expect("<")?;
            let v = parse_manual_axes(&mut t)?;
            t.expect(">")?;
            DialectObject::new(v)
        }
        _ => {
            let _ = rest;
            return Ok(None);
        }
    };
    if !t.at_end() {
        return Err(t.expected("the end of the attribute"));
    }
    Ok(Some(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(text: &str) -> String {
        let u = Uniquer::default();
        let v = parse_attr(&u, text).unwrap().unwrap();
        let mut out = String::new();
        v.print(&u, &mut out);
        out
    }

    #[test]
    fn attributes_print_as_they_are_read() {
        for t in [
            r#"sdy.mesh<["x"=2, "y"=4]>"#,
            r#"sdy.mesh<[], device_ids=[3]>"#,
            r#"sdy.mesh<["a"=2], device_ids=[1, 0]>"#,
            r#"sdy.sharding<@mesh, [{"x"}, {}]>"#,
            r#"sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>"#,
            r#"sdy.sharding<@mesh, [{"a"}p0, {"b":(2)2}p1], unreduced={"c"}>"#,
            r#"sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>"#,
            r#"sdy.sharding<@mesh, []>"#,
            r#"sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, []>]>"#,
            r#"sdy.manual_axes<{"x", "y"}>"#,
        ] {
            assert_eq!(round(t), t);
        }
        // An iota device order is the default, and prints as it.
        assert_eq!(
            round(r#"sdy.mesh<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>"#),
            r#"sdy.mesh<["a"=2, "b"=2]>"#
        );
    }

    #[test]
    fn malformed_attributes_are_errors() {
        let u = Uniquer::default();
        for t in [
            r#"sdy.mesh<["x"=0]>"#,
            r#"sdy.mesh<["x"=2, "x"=2]>"#,
            r#"sdy.sharding<@mesh, [{"x"]>"#,
            r#"sdy.sharding<@mesh, [{"x"}p-1]>"#,
            r#"sdy.sharding<mesh, []>"#,
            r#"sdy.sharding<@mesh, [], color={"x"}>"#,
            r#"sdy.manual_axes<{"x":(1)2}>"#,
        ] {
            assert!(parse_attr(&u, t).is_err(), "{t}");
        }
    }

    #[test]
    fn shards_follow_the_row_major_mesh() {
        let m = Mesh {
            axes: vec![("x".into(), 2), ("y".into(), 2)],
            device_ids: Vec::new(),
        };
        let xy = DimSharding::closed(&["x", "y"]);
        let yx = DimSharding::closed(&["y", "x"]);
        let shards: Vec<i64> = (0..4).map(|d| xy.shard_of(&m, d).unwrap()).collect();
        assert_eq!(shards, [0, 1, 2, 3]);
        let shards: Vec<i64> = (0..4).map(|d| yx.shard_of(&m, d).unwrap()).collect();
        assert_eq!(shards, [0, 2, 1, 3]);
        assert_eq!(xy.shards(&m), Some(4));
    }
}
