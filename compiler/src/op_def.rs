//! Typed op handles generated from op specs.
//!
//! An op is declared once with [`op!`](crate::op!): its operand, result,
//! attribute and region groups by name, and the rest of its [`OpSpec`]. The
//! macro makes the `OpSpec` constant (the registry's entry, which generic
//! parsing, printing and verification use) and a handle type: a `Copy`
//! wrapper around an [`Op`] with a named accessor per group, a `build`
//! function that creates the op, and [`OpHandle::of`] that recognises one.
//!
//! ```ignore
//! aic::op! {
//!     /// `tile.program_id <axis> : index`.
//!     pub ProgramId = PROGRAM_ID {
//!         results: [id: one(tc::INDEX)],
//!         attributes: [axis: required(I64_ATTR) as i64],
//!         spec: OpSpec {
//!             traits: Traits::PURE,
//!             format: Some("$axis attr-dict `:` type($id)"),
//!             ..OpSpec::new("tile.program_id")
//!         },
//!     }
//! }
//! // In a pass:
//! if let Some(p) = ProgramId::of(ctx, op) {
//!     let axis = p.axis(ctx);   // Option<i64>
//!     let id = p.id(ctx);       // Value
//! }
//! let p = ProgramId::build(&mut b, u.i64_attr(0), index);
//! ```
//!
//! A group's accessor is named after it; `lower_bound = "lowerBound": one(…)`
//! names the accessor `lower_bound` and the group (as the assembly format
//! and generic form know it) `lowerBound`.
//!
//! Accessors follow the groups' arity: a single operand or result is a
//! [`Value`], an optional one an `Option<Value>`, a variadic operand group a
//! slice and a variadic result group a vector; an attribute is an
//! `Option<Attr>`, or with `as T` an `Option<T>` read through [`FromAttr`]; a
//! region is a [`Region`] (a slice for a variadic one). Accessors assume a
//! verified op (as MLIR's do): on an op that breaks its spec an operand
//! accessor may panic. `build` takes the operands, then the attributes
//! (`Attr` for a required one, `Option<Attr>` otherwise), then the result
//! types, in declaration order; it sets `operandSegmentSizes` where several
//! operand groups are not single, and creates each single region empty (a
//! variadic region group's regions the caller adds).

use crate::attributes::{Attr, AttrKind};
use crate::dialect::{Arity, OpSpec, ValueSpec};
use crate::ir::{Build, Context, Op, OpState, Region, Value};
use crate::types::Type;
use smallvec::SmallVec;

/// A typed handle of one op kind (made by [`op!`](crate::op!)).
pub trait OpHandle: Copy {
    /// The op's spec.
    const SPEC: &'static OpSpec;
    /// The handle of `op`, whatever its kind (see [`OpHandle::of`]).
    fn wrap(op: Op) -> Self;
    /// The op.
    fn op(self) -> Op;
    /// The handle of `op` if it is of this kind.
    fn of(ctx: &Context, op: Op) -> Option<Self> {
        (ctx.op_name(op) == Self::SPEC.name).then(|| Self::wrap(op))
    }
    /// Whether `op` is of this kind.
    fn is(ctx: &Context, op: Op) -> bool {
        ctx.op_name(op) == Self::SPEC.name
    }
    /// The handle of the op defining `v`, if it is of this kind.
    fn defining(ctx: &Context, v: Value) -> Option<Self> {
        ctx.defining_op(v).and_then(|d| Self::of(ctx, d))
    }
}

/// Reads a Rust value out of an attribute (the `as T` of an attribute
/// group in [`op!`](crate::op!)).
pub trait FromAttr: Sized {
    /// The value `a` holds, if it holds one of this type.
    fn from_attr(ctx: &Context, a: Attr) -> Option<Self>;
}

impl FromAttr for i64 {
    fn from_attr(ctx: &Context, a: Attr) -> Option<i64> {
        match ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
            _ => None,
        }
    }
}

impl FromAttr for bool {
    fn from_attr(ctx: &Context, a: Attr) -> Option<bool> {
        match ctx.attr_kind(a) {
            AttrKind::Bool(b) => Some(*b),
            AttrKind::Unit => Some(true),
            AttrKind::Integer { value, ty }
                if matches!(
                    ctx.type_kind(*ty),
                    crate::types::TypeKind::Integer { width: 1, .. }
                ) =>
            {
                Some(*value != 0)
            }
            _ => None,
        }
    }
}

impl FromAttr for Type {
    fn from_attr(ctx: &Context, a: Attr) -> Option<Type> {
        match ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        }
    }
}

impl FromAttr for String {
    fn from_attr(ctx: &Context, a: Attr) -> Option<String> {
        match ctx.attr_kind(a) {
            AttrKind::String { value, .. } => String::from_utf8(value.to_vec()).ok(),
            AttrKind::SymbolRef { root, nested } if nested.is_empty() => {
                Some(ctx.str(*root).to_string())
            }
            _ => None,
        }
    }
}

/// The integers of an `array<i64: …>` attribute or of an array of integer
/// attributes.
impl FromAttr for Vec<i64> {
    fn from_attr(ctx: &Context, a: Attr) -> Option<Vec<i64>> {
        match ctx.attr_kind(a) {
            AttrKind::DenseArray { values, .. } => Some(values.iter().map(|v| *v as i64).collect()),
            AttrKind::Array(xs) => xs.iter().map(|x| i64::from_attr(ctx, *x)).collect(),
            _ => None,
        }
    }
}

/// Where group `i` of `groups` lies among `n` values: without allocating
/// when at most one group is not single (the common case), else through the
/// op's segment sizes.
fn group_range(
    groups: &[ValueSpec],
    i: usize,
    n: usize,
    segmented: impl FnOnce() -> Vec<std::ops::Range<usize>>,
) -> std::ops::Range<usize> {
    let flexible = groups.iter().filter(|g| g.arity != Arity::One).count();
    if flexible > 1 {
        return segmented().get(i).cloned().unwrap_or(0..0);
    }
    let fixed = groups.len() - flexible;
    let spare = n.saturating_sub(fixed);
    let start: usize = groups[..i]
        .iter()
        .map(|g| if g.arity == Arity::One { 1 } else { spare })
        .sum();
    let len = if groups[i].arity == Arity::One {
        1
    } else {
        spare
    };
    start.min(n)..(start + len).min(n)
}

/// The operands of group `i` of `op` (used by generated accessors).
#[doc(hidden)]
pub fn operand_group<'c>(ctx: &'c Context, op: Op, spec: &OpSpec, i: usize) -> &'c [Value] {
    let all = ctx.operands(op);
    let r = group_range(spec.operands, i, all.len(), || spec.operand_ranges(ctx, op));
    &all[r]
}

/// The results of group `i` of `op` (used by generated accessors).
#[doc(hidden)]
pub fn result_group(ctx: &Context, op: Op, spec: &OpSpec, i: usize) -> Values {
    let n = ctx.num_results(op);
    let r = group_range(spec.results, i, n, || spec.result_ranges(ctx, op));
    r.map(|k| ctx.result(op, k)).collect()
}

/// The single operand of group `i` (used by generated accessors).
#[doc(hidden)]
pub fn one_operand(ctx: &Context, op: Op, spec: &OpSpec, i: usize) -> Value {
    operand_group(ctx, op, spec, i)[0]
}

/// The single result of group `i` (used by generated accessors).
#[doc(hidden)]
pub fn one_result(ctx: &Context, op: Op, spec: &OpSpec, i: usize) -> Value {
    let n = ctx.num_results(op);
    let r = group_range(spec.results, i, n, || spec.result_ranges(ctx, op));
    ctx.result(op, r.start)
}

/// The inherent attribute `name` of `op` (used by generated accessors).
#[doc(hidden)]
pub fn attribute(ctx: &Context, op: Op, name: &str) -> Option<Attr> {
    ctx.find_ident(name).and_then(|i| ctx.inherent_attr(op, i))
}

/// Region `i` of `op`, counting a variadic region group as its regions
/// (used by generated accessors).
#[doc(hidden)]
pub fn regions<'c>(ctx: &'c Context, op: Op, spec: &OpSpec, i: usize) -> &'c [Region] {
    let all = ctx.regions(op);
    let fixed = spec.regions.iter().filter(|r| !r.variadic).count();
    let spare = all.len().saturating_sub(fixed);
    let start: usize = spec.regions[..i]
        .iter()
        .map(|r| if r.variadic { spare } else { 1 })
        .sum();
    let len = if spec.regions[i].variadic { spare } else { 1 };
    &all[start.min(all.len())..(start + len).min(all.len())]
}

/// The values of a variadic result group.
pub type Values = SmallVec<[Value; 4]>;

/// One group's values as the builder receives them.
#[doc(hidden)]
pub trait GroupValues<T: Copy> {
    /// The values.
    fn values(&self) -> &[T];
}

impl<T: Copy> GroupValues<T> for T {
    fn values(&self) -> &[T] {
        std::slice::from_ref(self)
    }
}

impl<T: Copy> GroupValues<T> for Option<T> {
    fn values(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy> GroupValues<T> for &[T] {
    fn values(&self) -> &[T] {
        self
    }
}

/// Creates an op of `spec` (used by generated builders): operand groups,
/// attributes by name (absent ones left out, or given their default as the
/// parser does), result-type groups, and one
/// empty region per single region group (a variadic group gets none: the
/// caller adds its regions).
#[doc(hidden)]
pub fn build(
    b: &mut impl Build,
    spec: &'static OpSpec,
    operands: &[&[Value]],
    attrs: &[(&str, Option<Attr>)],
    results: &[&[Type]],
) -> Op {
    let u = b.context().uniquer().clone();
    let mut st = OpState::new(u.ident(spec.name), b.location());
    st.operands = operands.iter().flat_map(|g| g.iter().copied()).collect();
    st.result_types = results.iter().flat_map(|g| g.iter().copied()).collect();
    let mut props: Vec<_> = attrs
        .iter()
        .filter_map(|(k, v)| Some((u.ident(k), (*v)?)))
        .collect();
    let segments = |groups: &[ValueSpec], sizes: &mut dyn Iterator<Item = usize>| {
        (groups.iter().filter(|g| g.arity != Arity::One).count() > 1).then(|| {
            u.attr(AttrKind::DenseArray {
                elem: u.int_type(32),
                values: sizes.map(|n| n as u64).collect(),
            })
        })
    };
    if let Some(a) = segments(spec.operands, &mut operands.iter().map(|g| g.len())) {
        props.push((u.ident("operandSegmentSizes"), a));
    }
    if let Some(a) = segments(spec.results, &mut results.iter().map(|g| g.len())) {
        props.push((u.ident("resultSegmentSizes"), a));
    }
    // Absent attributes with a default take it, as the parser gives them.
    crate::asm::add_defaults(&u, spec, &mut props);
    if !props.is_empty() {
        st.props = Some(u.dict_attr(props));
    }
    st.num_regions = spec.regions.iter().filter(|r| !r.variadic).count();
    b.insert_state(st)
}

/// Declares an op: its [`OpSpec`] constant and its typed handle (see the
/// [module documentation](crate::op_def)).
#[macro_export]
macro_rules! op {
    (
        $(#[$meta:meta])*
        $vis:vis $Handle:ident = $SPEC:ident {
            $(operands: [$($on:ident $(= $os:literal)? : $oa:ident ($oty:expr)),* $(,)?],)?
            $(results: [$($rn:ident $(= $rs:literal)? : $ra:ident ($rty:expr)),* $(,)?],)?
            $(attributes: [$($an:ident $(= $as:literal)? : $aa:ident ($($aarg:expr),+) $(as $at:ty)?),* $(,)?],)?
            $(regions: [$($gn:ident $(= $gs:literal)? : $ga:ident),* $(,)?],)?
            spec: $base:expr $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis const $SPEC: $crate::dialect::OpSpec = $crate::dialect::OpSpec {
            $(operands: &[$($crate::dialect::ValueSpec::$oa($crate::op!(@name $on $($os)?), $oty)),*],)?
            $(results: &[$($crate::dialect::ValueSpec::$ra($crate::op!(@name $rn $($rs)?), $rty)),*],)?
            $(attributes: &[$($crate::dialect::AttrSpec::$aa($crate::op!(@name $an $($as)?), $($aarg),+)),*],)?
            $(regions: &[$($crate::dialect::RegionSpec::$ga($crate::op!(@name $gn $($gs)?))),*],)?
            ..$base
        };

        #[doc = concat!("A handle of [`", stringify!($SPEC), "`].")]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis struct $Handle(pub $crate::ir::Op);

        impl $crate::op_def::OpHandle for $Handle {
            const SPEC: &'static $crate::dialect::OpSpec = &$SPEC;
            fn wrap(op: $crate::ir::Op) -> Self {
                $Handle(op)
            }
            fn op(self) -> $crate::ir::Op {
                self.0
            }
        }

        #[allow(dead_code, clippy::too_many_arguments)]
        impl $Handle {
            $crate::op!(@operands $SPEC; 0usize; $($($on $oa,)*)?);
            $crate::op!(@results $SPEC; 0usize; $($($rn $ra,)*)?);
            $($($crate::op!(@attr $an ($crate::op!(@name $an $($as)?)) $(as $at)?);)*)?
            $crate::op!(@regions $SPEC; 0usize; $($($gn $ga,)*)?);
            /// Creates the op at the builder's insertion point: operands, then
            /// attributes, then result types, in declaration order.
            pub fn build(
                b: &mut impl $crate::ir::Build,
                $($($on: $crate::op!(@operand_param $oa),)*)?
                $($($an: $crate::op!(@attr_param $aa),)*)?
                $($($rn: $crate::op!(@result_param $ra),)*)?
            ) -> Self {
                #[allow(unused_imports)]
                use $crate::op_def::GroupValues as _;
                let op = $crate::op_def::build(
                    b,
                    &$SPEC,
                    &[$($($on.values(),)*)?],
                    &[$($(($crate::op!(@name $an $($as)?), $crate::op!(@attr_value $aa $an)),)*)?],
                    &[$($($rn.values(),)*)?],
                );
                $Handle(op)
            }
        }
    };

    (@operands $S:ident; $i:expr; ) => {};
    (@operands $S:ident; $i:expr; $n:ident one, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` operand.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> $crate::ir::Value {
            $crate::op_def::one_operand(ctx, self.0, &$S, $i)
        }
        $crate::op!(@operands $S; $i + 1usize; $($rest)*);
    };
    (@operands $S:ident; $i:expr; $n:ident optional, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` operand, if present.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> Option<$crate::ir::Value> {
            $crate::op_def::operand_group(ctx, self.0, &$S, $i).first().copied()
        }
        $crate::op!(@operands $S; $i + 1usize; $($rest)*);
    };
    (@operands $S:ident; $i:expr; $n:ident variadic, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` operands.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> &[$crate::ir::Value] {
            $crate::op_def::operand_group(ctx, self.0, &$S, $i)
        }
        $crate::op!(@operands $S; $i + 1usize; $($rest)*);
    };

    (@results $S:ident; $i:expr; ) => {};
    (@results $S:ident; $i:expr; $n:ident one, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` result.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> $crate::ir::Value {
            $crate::op_def::one_result(ctx, self.0, &$S, $i)
        }
        $crate::op!(@results $S; $i + 1usize; $($rest)*);
    };
    (@results $S:ident; $i:expr; $n:ident optional, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` result, if present.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> Option<$crate::ir::Value> {
            $crate::op_def::result_group(ctx, self.0, &$S, $i).first().copied()
        }
        $crate::op!(@results $S; $i + 1usize; $($rest)*);
    };
    (@results $S:ident; $i:expr; $n:ident variadic, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` results.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> $crate::op_def::Values {
            $crate::op_def::result_group(ctx, self.0, &$S, $i)
        }
        $crate::op!(@results $S; $i + 1usize; $($rest)*);
    };

    (@name $n:ident) => { stringify!($n) };
    (@name $n:ident $s:literal) => { $s };
    (@attr $n:ident ($s:expr)) => {
        #[doc = concat!("The `", stringify!($n), "` attribute.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> Option<$crate::attributes::Attr> {
            $crate::op_def::attribute(ctx, self.0, $s)
        }
    };
    (@attr $n:ident ($s:expr) as $t:ty) => {
        #[doc = concat!("The `", stringify!($n), "` attribute's value.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> Option<$t> {
            let a = $crate::op_def::attribute(ctx, self.0, $s)?;
            <$t as $crate::op_def::FromAttr>::from_attr(ctx, a)
        }
    };

    (@regions $S:ident; $i:expr; ) => {};
    (@regions $S:ident; $i:expr; $n:ident variadic_sized, $($rest:tt)*) => {
        $crate::op!(@regions $S; $i; $n variadic, $($rest)*);
    };
    (@regions $S:ident; $i:expr; $n:ident variadic, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` regions.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> &[$crate::ir::Region] {
            $crate::op_def::regions(ctx, self.0, &$S, $i)
        }
        $crate::op!(@regions $S; $i + 1usize; $($rest)*);
    };
    (@regions $S:ident; $i:expr; $n:ident $kind:ident, $($rest:tt)*) => {
        #[doc = concat!("The `", stringify!($n), "` region.")]
        pub fn $n(self, ctx: &$crate::ir::Context) -> $crate::ir::Region {
            $crate::op_def::regions(ctx, self.0, &$S, $i)[0]
        }
        $crate::op!(@regions $S; $i + 1usize; $($rest)*);
    };

    (@operand_param one) => { $crate::ir::Value };
    (@operand_param optional) => { Option<$crate::ir::Value> };
    (@operand_param variadic) => { &[$crate::ir::Value] };
    (@result_param one) => { $crate::types::Type };
    (@result_param optional) => { Option<$crate::types::Type> };
    (@result_param variadic) => { &[$crate::types::Type] };
    (@attr_param required) => { $crate::attributes::Attr };
    (@attr_param optional) => { Option<$crate::attributes::Attr> };
    (@attr_param defaulted) => { Option<$crate::attributes::Attr> };
    (@attr_value required $v:ident) => { Some($v) };
    (@attr_value optional $v:ident) => { $v };
    (@attr_value defaulted $v:ident) => { $v };
}

/// Declares an enum of op handles, for passes that dispatch on which of
/// several ops they see: `aic::op_kinds! { pub enum TileOp { Gemm, Load } }`
/// makes `TileOp::Gemm(Gemm)`, … and `TileOp::of(ctx, op) -> Option<TileOp>`,
/// so a `match` on ops has one typed arm per kind instead of name strings.
#[macro_export]
macro_rules! op_kinds {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($handle:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis enum $name {
            $(
                #[doc = concat!("A [`", stringify!($handle), "`].")]
                $handle($handle),
            )*
        }

        impl $name {
            /// The kind of `op`, if it is one of these.
            pub fn of(ctx: &$crate::ir::Context, op: $crate::ir::Op) -> Option<Self> {
                let name = ctx.op_name(op);
                $(
                    if name == <$handle as $crate::op_def::OpHandle>::SPEC.name {
                        return Some($name::$handle($handle(op)));
                    }
                )*
                None
            }
        }
    };
}
