//! StableHLO's struct attributes as typed dialect values: `#stablehlo.dot<...>`
//! ([`DotDims`]), `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`
//! ([`ConvDims`], also read in its `raw` form), `#stablehlo.gather<...>`
//! ([`GatherDims`]), `#stablehlo.scatter<...>` ([`ScatterDims`]) and
//! `#stablehlo.dot_algorithm<...>` ([`DotAlgorithm`]). The dialect's syntax
//! ([`parse_attr`]) reads their text once into interned values; each prints
//! itself in StableHLO's canonical form, and the pretty syntax, the verifiers
//! and the interpreter read the values ([`DotDims::of`], ...).

use aic::attributes::{Attr, DialectAttr};
use aic::dialect::{AttrConstraint, AttrSyntax};
use aic::ir::Uniquer;
use aic::types::{DialectObject, DialectValue, Type};

/// The dimension numbers are the tensor kernels' (`crate::kernels`); this module
/// reads and writes their attributes.
pub use crate::kernels::{ConvDims, DotDims};

type R<T> = Result<T, String>;

/// The text of `#stablehlo.MNEMONIC<BODY>` after `#` as a typed value: `Ok(None)`
/// for text that is not one of the struct attributes (kept opaque), `Err` for one
/// that is malformed (a diagnostic at the attribute).
pub fn parse_attr(u: &Uniquer, text: &str) -> R<Option<DialectAttr>> {
    let Some((mnemonic, rest)) = text.split_once('<') else {
        return Ok(None);
    };
    let body = || {
        rest.strip_suffix('>')
            .ok_or_else(|| format!("expected '>' at the end of #{text}"))
    };
    Ok(Some(match mnemonic {
        "stablehlo.dot" => DialectObject::new(DotDims::parse_body(body()?)?),
        "stablehlo.conv" => DialectObject::new(ConvDims::parse_body(body()?)?),
        "stablehlo.gather" => DialectObject::new(GatherDims::parse_body(body()?)?),
        "stablehlo.scatter" => DialectObject::new(ScatterDims::parse_body(body()?)?),
        "stablehlo.dot_algorithm" => DialectObject::new(DotAlgorithm::parse_body(u, body()?)?),
        "stablehlo.channel_handle" => DialectObject::new(ChannelHandle::parse_body(body()?)?),
        _ => return Ok(None),
    }))
}

/// The constraint of an op attribute holding a `T`.
const fn constraint<T: DialectValue>(desc: &'static str) -> AttrConstraint {
    AttrConstraint {
        desc,
        check: |a, _| a.dialect_value::<T>().is_some(),
        syntax: AttrSyntax::Full,
    }
}

// ---------------------------------------------------------------- struct bodies

/// The values of the `key = value` fields of a struct body (`offset_dims = [1],
/// index_vector_dim = 1`), one per key of `keys` (`None` where absent), as
/// StableHLO's `parseStruct` reads them: any order, each key at most once.
pub(crate) fn struct_fields<'a>(
    name: &str,
    body: &'a str,
    keys: &[&str],
) -> R<Vec<Option<&'a str>>> {
    let mut values = vec![None; keys.len()];
    if body.trim().is_empty() {
        return Ok(values);
    }
    for item in split_top_level(body) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!(
                "expected 'key = value' in #{name}<...>, got '{}'",
                item.trim()
            ));
        };
        let key = key.trim();
        let Some(k) = keys.iter().position(|x| *x == key) else {
            return Err(format!(
                "unknown field '{key}' in #{name}<...>; expected one of: {}",
                keys.join(", ")
            ));
        };
        if values[k].replace(value.trim()).is_some() {
            return Err(format!("duplicate field '{key}' in #{name}<...>"));
        }
    }
    Ok(values)
}

/// `text` split at the commas outside brackets.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '<' | '(' | '{' => depth += 1,
            ']' | '>' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// An integer field.
fn int_field(key: &str, value: &str) -> R<i64> {
    value
        .parse()
        .map_err(|_| format!("expected an integer for '{key}', got '{value}'"))
}

/// An integer list field `[a, b, ...]`.
fn ints_field(key: &str, value: &str) -> R<Vec<i64>> {
    let bad = || format!("expected an integer list for '{key}', got '{value}'");
    let inner = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(bad)?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner
        .split(',')
        .map(|s| s.trim().parse().map_err(|_| bad()))
        .collect()
}

/// An optional integer field (0 when absent).
fn opt_int(key: &str, value: Option<&str>) -> R<i64> {
    value.map_or(Ok(0), |v| int_field(key, v))
}

/// An optional integer list field (empty when absent).
pub(crate) fn opt_ints(key: &str, value: Option<&str>) -> R<Vec<i64>> {
    value.map_or(Ok(Vec::new()), |v| ints_field(key, v))
}

pub(crate) fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// Print `name = [..]` fields that are not empty and integer fields that are not
/// 0, StableHLO's `printStruct`.
fn print_struct(out: &mut String, mnemonic: &str, lists: &[(&str, &[i64])], ints: &[(&str, i64)]) {
    let mut parts = Vec::new();
    for (k, v) in lists {
        if !v.is_empty() {
            parts.push(format!("{k} = [{}]", join(v)));
        }
    }
    for (k, v) in ints {
        if *v != 0 {
            parts.push(format!("{k} = {v}"));
        }
    }
    out.push_str(&format!("stablehlo.{mnemonic}<{}>", parts.join(", ")));
}

// ---------------------------------------------------------------- dot

const DOT_KEYS: [&str; 4] = [
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
];

impl DotDims {
    /// The constraint of an attribute holding dot dimension numbers.
    pub const CONSTRAINT: AttrConstraint =
        constraint::<DotDims>("Attribute that models the dimension information for dot.");
    /// The dimension numbers `a` holds, if it is a `#stablehlo.dot<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&DotDims> {
        u.dialect_attr(a)
    }
    /// The attribute holding these dimension numbers.
    pub fn attr(&self, u: &Uniquer) -> Attr {
        u.attr(aic::attributes::AttrKind::dialect(self.clone()))
    }
    /// Read the body of `#stablehlo.dot<BODY>`.
    pub fn parse_body(body: &str) -> R<DotDims> {
        let f = struct_fields("stablehlo.dot", body, &DOT_KEYS)?;
        Ok(DotDims {
            lhs_batch: opt_ints(DOT_KEYS[0], f[0])?,
            rhs_batch: opt_ints(DOT_KEYS[1], f[1])?,
            lhs_contract: opt_ints(DOT_KEYS[2], f[2])?,
            rhs_contract: opt_ints(DOT_KEYS[3], f[3])?,
        })
    }
}

impl DialectValue for DotDims {
    fn print(&self, _: &Uniquer, out: &mut String) {
        print_struct(
            out,
            "dot",
            &[
                (DOT_KEYS[0], &self.lhs_batch),
                (DOT_KEYS[1], &self.rhs_batch),
                (DOT_KEYS[2], &self.lhs_contract),
                (DOT_KEYS[3], &self.rhs_contract),
            ],
            &[],
        );
    }
}

// ---------------------------------------------------------------- convolution

/// Why a convolution's dimension numbers do not read.
pub const INVALID_CONV_DIMS: &str = "invalid convolution dimension numbers: each of input/kernel/output needs its two non-spatial dimensions (b/f, i/o) once and spatial dimensions 0..n-1 once";

/// One `[b, 0, 1, f]` group: (first letter's dim, second letter's dim, spatial dims).
fn conv_group(s: &str, a: char, b: char) -> Option<(i64, i64, Vec<i64>)> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?;
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    let (mut da, mut db) = (None, None);
    let mut spatial: Vec<Option<i64>> = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let c = it.chars().next()?;
        if it.len() == 1 && c == a && da.is_none() {
            da = Some(i as i64);
        } else if it.len() == 1 && c == b && db.is_none() {
            db = Some(i as i64);
        } else {
            let k: usize = it.parse().ok()?;
            if k >= items.len() {
                return None;
            }
            if spatial.len() <= k {
                spatial.resize(k + 1, None);
            }
            if spatial[k].is_some() {
                return None;
            }
            spatial[k] = Some(i as i64);
        }
    }
    Some((da?, db?, spatial.into_iter().collect::<Option<Vec<_>>>()?))
}

const CONV_RAW_KEYS: [&str; 9] = [
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
];

impl ConvDims {
    /// The constraint of an attribute holding convolution dimension numbers.
    pub const CONSTRAINT: AttrConstraint =
        constraint::<ConvDims>("Structure of dimension information for conv op");
    /// The dimension numbers `a` holds, if it is a `#stablehlo.conv<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&ConvDims> {
        u.dialect_attr(a)
    }
    /// The attribute holding these dimension numbers.
    pub fn attr(&self, u: &Uniquer) -> Attr {
        u.attr(aic::attributes::AttrKind::dialect(self.clone()))
    }
    /// Read the compact text `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
    pub fn parse_compact(s: &str) -> Option<ConvDims> {
        let (lhs, out) = s.split_once("->")?;
        let (input, kernel) = lhs.split_once('x')?;
        let (in_batch, in_feature, in_spatial) = conv_group(input, 'b', 'f')?;
        let (k_in, k_out, k_spatial) = conv_group(kernel, 'i', 'o')?;
        let (out_batch, out_feature, out_spatial) = conv_group(out, 'b', 'f')?;
        Some(ConvDims {
            in_batch,
            in_feature,
            in_spatial,
            k_in,
            k_out,
            k_spatial,
            out_batch,
            out_feature,
            out_spatial,
        })
    }
    /// Read the body of `#stablehlo.conv<BODY>`: the compact form or, after
    /// `raw`, StableHLO's struct of the nine fields. Dimension numbers that the
    /// compact form cannot write are an error.
    pub fn parse_body(body: &str) -> R<ConvDims> {
        let body = body.trim();
        let d = match body.strip_prefix("raw") {
            Some(raw) if raw.starts_with(char::is_whitespace) => {
                let f = struct_fields("stablehlo.conv", raw, &CONV_RAW_KEYS)?;
                let int = |k: usize| opt_int(CONV_RAW_KEYS[k], f[k]);
                let ints = |k: usize| opt_ints(CONV_RAW_KEYS[k], f[k]);
                ConvDims {
                    in_batch: int(0)?,
                    in_feature: int(1)?,
                    in_spatial: ints(2)?,
                    k_in: int(3)?,
                    k_out: int(4)?,
                    k_spatial: ints(5)?,
                    out_batch: int(6)?,
                    out_feature: int(7)?,
                    out_spatial: ints(8)?,
                }
            }
            _ => ConvDims::parse_compact(body).ok_or(INVALID_CONV_DIMS)?,
        };
        // The value prints compactly: it must read back as itself.
        if ConvDims::parse_compact(&d.compact()).as_ref() != Some(&d) {
            return Err(INVALID_CONV_DIMS.into());
        }
        Ok(d)
    }
    /// The compact text.
    pub fn compact(&self) -> String {
        fn group(a: (i64, &str), b: (i64, &str), spatial: &[i64]) -> String {
            let n = spatial.len() + 2;
            let mut items = vec![String::new(); n];
            for (k, d) in [a, b] {
                if let Some(s) = usize::try_from(k).ok().and_then(|k| items.get_mut(k)) {
                    *s = d.to_string();
                }
            }
            for (i, d) in spatial.iter().enumerate() {
                if let Some(s) = usize::try_from(*d).ok().and_then(|d| items.get_mut(d)) {
                    *s = i.to_string();
                }
            }
            format!("[{}]", items.join(", "))
        }
        format!(
            "{}x{}->{}",
            group(
                (self.in_batch, "b"),
                (self.in_feature, "f"),
                &self.in_spatial
            ),
            group((self.k_in, "i"), (self.k_out, "o"), &self.k_spatial),
            group(
                (self.out_batch, "b"),
                (self.out_feature, "f"),
                &self.out_spatial
            )
        )
    }
}

impl DialectValue for ConvDims {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str("stablehlo.conv<");
        out.push_str(&self.compact());
        out.push('>');
    }
}

// ---------------------------------------------------------------- gather, scatter

const GATHER_KEYS: [&str; 6] = [
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
    "index_vector_dim",
];

/// `#stablehlo.gather<...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GatherDims {
    /// Output dimensions that index into a slice.
    pub offset_dims: Vec<i64>,
    /// Operand dimensions whose slice size is 1 and that are dropped.
    pub collapsed_slice_dims: Vec<i64>,
    /// Operand batching dimensions.
    pub operand_batching_dims: Vec<i64>,
    /// Start-indices batching dimensions.
    pub start_indices_batching_dims: Vec<i64>,
    /// Which operand dimension each index component starts.
    pub start_index_map: Vec<i64>,
    /// The dimension of the start indices holding the index vectors.
    pub index_vector_dim: i64,
}

impl GatherDims {
    /// The constraint of an attribute holding gather dimension numbers.
    pub const CONSTRAINT: AttrConstraint =
        constraint::<GatherDims>("Attribute that models the dimension information for gather");
    /// The dimension numbers `a` holds, if it is a `#stablehlo.gather<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&GatherDims> {
        u.dialect_attr(a)
    }
    /// Read the body of `#stablehlo.gather<BODY>`.
    pub fn parse_body(body: &str) -> R<GatherDims> {
        let f = struct_fields("stablehlo.gather", body, &GATHER_KEYS)?;
        let ints = |k: usize| opt_ints(GATHER_KEYS[k], f[k]);
        Ok(GatherDims {
            offset_dims: ints(0)?,
            collapsed_slice_dims: ints(1)?,
            operand_batching_dims: ints(2)?,
            start_indices_batching_dims: ints(3)?,
            start_index_map: ints(4)?,
            index_vector_dim: opt_int(GATHER_KEYS[5], f[5])?,
        })
    }
}

impl DialectValue for GatherDims {
    fn print(&self, _: &Uniquer, out: &mut String) {
        print_struct(
            out,
            "gather",
            &[
                (GATHER_KEYS[0], &self.offset_dims),
                (GATHER_KEYS[1], &self.collapsed_slice_dims),
                (GATHER_KEYS[2], &self.operand_batching_dims),
                (GATHER_KEYS[3], &self.start_indices_batching_dims),
                (GATHER_KEYS[4], &self.start_index_map),
            ],
            &[(GATHER_KEYS[5], self.index_vector_dim)],
        );
    }
}

const CHANNEL_KEYS: [&str; 2] = ["handle", "type"];

/// `#stablehlo.channel_handle<handle = 1, type = 0>`: which channel a
/// collective or send/recv uses; a handle above 0 makes collectives work
/// across partitions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChannelHandle {
    /// The channel's id.
    pub handle: i64,
    /// The channel's kind (0 invalid, 1 device to device, 2 device to host,
    /// 3 host to device).
    pub kind: i64,
}

impl ChannelHandle {
    /// The constraint of an attribute holding a channel handle.
    pub const CONSTRAINT: AttrConstraint =
        constraint::<ChannelHandle>("two 64-bit integers 'handle' and 'type'");
    /// The handle `a` holds, if it is a `#stablehlo.channel_handle<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&ChannelHandle> {
        u.dialect_attr(a)
    }
    /// Read the body of `#stablehlo.channel_handle<BODY>`.
    pub fn parse_body(body: &str) -> R<ChannelHandle> {
        let f = struct_fields("stablehlo.channel_handle", body, &CHANNEL_KEYS)?;
        Ok(ChannelHandle {
            handle: opt_int(CHANNEL_KEYS[0], f[0])?,
            kind: opt_int(CHANNEL_KEYS[1], f[1])?,
        })
    }
}

impl DialectValue for ChannelHandle {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str(&format!(
            "stablehlo.channel_handle<handle = {}, type = {}>",
            self.handle, self.kind
        ));
    }
}

const SCATTER_KEYS: [&str; 6] = [
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
    "index_vector_dim",
];

/// `#stablehlo.scatter<...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScatterDims {
    /// Update dimensions that index into a window.
    pub update_window_dims: Vec<i64>,
    /// Operand dimensions of size-1 windows left out of the updates.
    pub inserted_window_dims: Vec<i64>,
    /// Operand batching dimensions.
    pub input_batching_dims: Vec<i64>,
    /// Scatter-indices batching dimensions.
    pub scatter_indices_batching_dims: Vec<i64>,
    /// Which operand dimension each index component addresses.
    pub scatter_dims_to_operand_dims: Vec<i64>,
    /// The dimension of the indices holding the index vectors.
    pub index_vector_dim: i64,
}

impl ScatterDims {
    /// The constraint of an attribute holding scatter dimension numbers.
    pub const CONSTRAINT: AttrConstraint =
        constraint::<ScatterDims>("Attribute that models the dimension information for scatter");
    /// The dimension numbers `a` holds, if it is a `#stablehlo.scatter<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&ScatterDims> {
        u.dialect_attr(a)
    }
    /// Read the body of `#stablehlo.scatter<BODY>`.
    pub fn parse_body(body: &str) -> R<ScatterDims> {
        let f = struct_fields("stablehlo.scatter", body, &SCATTER_KEYS)?;
        let ints = |k: usize| opt_ints(SCATTER_KEYS[k], f[k]);
        Ok(ScatterDims {
            update_window_dims: ints(0)?,
            inserted_window_dims: ints(1)?,
            input_batching_dims: ints(2)?,
            scatter_indices_batching_dims: ints(3)?,
            scatter_dims_to_operand_dims: ints(4)?,
            index_vector_dim: opt_int(SCATTER_KEYS[5], f[5])?,
        })
    }
}

impl DialectValue for ScatterDims {
    fn print(&self, _: &Uniquer, out: &mut String) {
        print_struct(
            out,
            "scatter",
            &[
                (SCATTER_KEYS[0], &self.update_window_dims),
                (SCATTER_KEYS[1], &self.inserted_window_dims),
                (SCATTER_KEYS[2], &self.input_batching_dims),
                (SCATTER_KEYS[3], &self.scatter_indices_batching_dims),
                (SCATTER_KEYS[4], &self.scatter_dims_to_operand_dims),
            ],
            &[(SCATTER_KEYS[5], self.index_vector_dim)],
        );
    }
}

// ---------------------------------------------------------------- dot algorithm

/// `#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32,
/// accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1,
/// num_primitive_operations = 1, allow_imprecise_accumulation = false>`: how a
/// `dot_general` computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotAlgorithm {
    /// The precision the lhs is rounded to.
    pub lhs_precision_type: Type,
    /// The precision the rhs is rounded to.
    pub rhs_precision_type: Type,
    /// The accumulation's type.
    pub accumulation_type: Type,
    /// How many components the lhs is split into.
    pub lhs_component_count: i64,
    /// How many components the rhs is split into.
    pub rhs_component_count: i64,
    /// How many primitive dots make up the dot.
    pub num_primitive_operations: i64,
    /// Whether the accumulation may lose precision.
    pub allow_imprecise_accumulation: bool,
}

/// One field of a [`DotAlgorithm`] being read.
#[derive(Clone, Copy, Debug)]
pub enum DotAlgorithmField {
    /// A type (the first three fields).
    Type(Type),
    /// An integer (the counts).
    Int(i64),
    /// A boolean (`allow_imprecise_accumulation`).
    Bool(bool),
}

/// What a [`DotAlgorithm`] field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotAlgorithmFieldKind {
    /// A type.
    Type,
    /// An integer.
    Int,
    /// `true` or `false`.
    Bool,
}

/// The fields of a [`DotAlgorithm`] in the order StableHLO prints them.
const DOT_ALGORITHM_KEYS: [&str; 7] = [
    "lhs_precision_type",
    "rhs_precision_type",
    "accumulation_type",
    "lhs_component_count",
    "rhs_component_count",
    "num_primitive_operations",
    "allow_imprecise_accumulation",
];

impl DotAlgorithm {
    /// The constraint of an attribute holding a dot algorithm.
    pub const CONSTRAINT: AttrConstraint = constraint::<DotAlgorithm>(
        "Attribute that models the algorithm constraints to use for computing dot.",
    );
    /// The algorithm `a` holds, if it is a `#stablehlo.dot_algorithm<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&DotAlgorithm> {
        u.dialect_attr(a)
    }
    /// The index and kind of the field named `key`, or the error naming the
    /// fields.
    pub fn field(key: &str) -> R<(usize, DotAlgorithmFieldKind)> {
        let k = DOT_ALGORITHM_KEYS
            .iter()
            .position(|x| *x == key)
            .ok_or_else(|| {
                format!(
                    "unknown dot algorithm field '{key}'; expected one of: {}",
                    DOT_ALGORITHM_KEYS.join(", ")
                )
            })?;
        let kind = match k {
            0..=2 => DotAlgorithmFieldKind::Type,
            3..=5 => DotAlgorithmFieldKind::Int,
            _ => DotAlgorithmFieldKind::Bool,
        };
        Ok((k, kind))
    }
    /// The algorithm of the fields read by index (see [`field`](Self::field)), each
    /// once and all present.
    pub fn from_fields(fields: &[(usize, DotAlgorithmField)]) -> R<DotAlgorithm> {
        let mut slots: [Option<DotAlgorithmField>; 7] = [None; 7];
        for (k, v) in fields {
            if slots[*k].replace(*v).is_some() {
                return Err(format!(
                    "duplicate dot algorithm field '{}'",
                    DOT_ALGORITHM_KEYS[*k]
                ));
            }
        }
        let missing = |k: usize| format!("missing dot algorithm field '{}'", DOT_ALGORITHM_KEYS[k]);
        let ty = |k: usize| match slots[k] {
            Some(DotAlgorithmField::Type(t)) => Ok(t),
            _ => Err(missing(k)),
        };
        let int = |k: usize| match slots[k] {
            Some(DotAlgorithmField::Int(v)) => Ok(v),
            _ => Err(missing(k)),
        };
        Ok(DotAlgorithm {
            lhs_precision_type: ty(0)?,
            rhs_precision_type: ty(1)?,
            accumulation_type: ty(2)?,
            lhs_component_count: int(3)?,
            rhs_component_count: int(4)?,
            num_primitive_operations: int(5)?,
            allow_imprecise_accumulation: match slots[6] {
                Some(DotAlgorithmField::Bool(b)) => b,
                _ => return Err(missing(6)),
            },
        })
    }
    /// Read the body of `#stablehlo.dot_algorithm<BODY>`.
    pub fn parse_body(u: &Uniquer, body: &str) -> R<DotAlgorithm> {
        let f = struct_fields("stablehlo.dot_algorithm", body, &DOT_ALGORITHM_KEYS)?;
        let mut fields = Vec::new();
        for (k, v) in f.into_iter().enumerate() {
            let Some(v) = v else { continue };
            let key = DOT_ALGORITHM_KEYS[k];
            let value = match DotAlgorithm::field(key)?.1 {
                DotAlgorithmFieldKind::Type => DotAlgorithmField::Type(
                    aic::syntax::parse_type(u, &Default::default(), v)
                        .map_err(|d| format!("bad type for '{key}': {}", d.message))?,
                ),
                DotAlgorithmFieldKind::Int => DotAlgorithmField::Int(int_field(key, v)?),
                DotAlgorithmFieldKind::Bool => DotAlgorithmField::Bool(match v {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("expected true or false for '{key}', got '{v}'")),
                }),
            };
            fields.push((k, value));
        }
        DotAlgorithm::from_fields(&fields)
    }
    /// The text between `#stablehlo.dot_algorithm` and the end: `<... >`.
    pub fn body(&self, u: &Uniquer) -> String {
        let ty = |t| aic::printer::type_text(u, t);
        format!(
            "<{} = {}, {} = {}, {} = {}, {} = {}, {} = {}, {} = {}, {} = {}>",
            DOT_ALGORITHM_KEYS[0],
            ty(self.lhs_precision_type),
            DOT_ALGORITHM_KEYS[1],
            ty(self.rhs_precision_type),
            DOT_ALGORITHM_KEYS[2],
            ty(self.accumulation_type),
            DOT_ALGORITHM_KEYS[3],
            self.lhs_component_count,
            DOT_ALGORITHM_KEYS[4],
            self.rhs_component_count,
            DOT_ALGORITHM_KEYS[5],
            self.num_primitive_operations,
            DOT_ALGORITHM_KEYS[6],
            self.allow_imprecise_accumulation,
        )
    }
}

impl DialectValue for DotAlgorithm {
    fn print(&self, u: &Uniquer, out: &mut String) {
        out.push_str("stablehlo.dot_algorithm");
        out.push_str(&self.body(u));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` (after `#`) read by the registered stablehlo syntax, printed, read
    /// again: the same interned attribute and the same text.
    fn round_trip(text: &str) -> (Uniquer, Attr) {
        let reg = crate::all_dialects();
        let u = Uniquer::default();
        let a = reg
            .parse_dialect_attr(&u, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .expect("a value");
        let printed = aic::printer::attr_text(&u, a);
        assert_eq!(printed, format!("#{text}"));
        assert_eq!(reg.parse_dialect_attr(&u, &printed[1..]), Ok(Some(a)));
        (u, a)
    }

    /// The diagnostic for `text`.
    fn error(text: &str) -> String {
        let u = Uniquer::default();
        match crate::all_dialects().parse_dialect_attr(&u, text) {
            Err(e) => e,
            Ok(a) => panic!("{text} read as {a:?}"),
        }
    }

    #[test]
    fn dot_dims_round_trip() {
        let (u, a) = round_trip(
            "stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
        );
        let d = DotDims::of(&u, a).expect("dot dims");
        assert_eq!(
            (&d.lhs_contract[..], &d.rhs_batch[..]),
            (&[2][..], &[0][..])
        );
        assert_eq!(d.attr(&u), a);
        round_trip(
            "stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>",
        );
        round_trip("stablehlo.dot<>");
        assert!(
            error("stablehlo.dot<lhs_contracting_dimensions = [1, x]>").contains("integer list")
        );
        assert!(error("stablehlo.dot<lhs_dims = [1]>").contains("unknown field 'lhs_dims'"));
    }

    #[test]
    fn conv_dims_round_trip_through_the_compact_form() {
        let s = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]";
        let d = ConvDims::parse_compact(s).unwrap();
        assert_eq!((d.in_batch, d.in_feature), (0, 3));
        assert_eq!(d.k_spatial, vec![0, 1]);
        assert_eq!((d.k_in, d.k_out), (2, 3));
        assert_eq!(d.compact(), s);
        let nchw = "[b, f, 1, 0]x[o, i, 0, 1]->[b, f, 0, 1]";
        let d = ConvDims::parse_compact(nchw).unwrap();
        assert_eq!(d.in_spatial, vec![3, 2]);
        assert_eq!(d.compact(), nchw);
        assert!(ConvDims::parse_compact("[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]").is_none());
        assert!(ConvDims::parse_compact("[b, 0, 1]x[0, 1, i, o]->[b, 0, 1, f]").is_none());
        assert!(ConvDims::parse_compact("[b, 99999999999, f]x[0, i, o]->[b, 0, f]").is_none());

        let (u, a) = round_trip(&format!("stablehlo.conv<{nchw}>"));
        assert_eq!(ConvDims::of(&u, a), Some(&d));
        assert_eq!(d.attr(&u), a);
        assert_eq!(
            error("stablehlo.conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>"),
            INVALID_CONV_DIMS
        );
    }

    #[test]
    fn conv_dims_read_the_raw_form_and_print_compactly() {
        let reg = crate::all_dialects();
        let u = Uniquer::default();
        let raw = "stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, \
                   input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, \
                   kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], \
                   output_batch_dimension = 0, output_feature_dimension = 3, \
                   output_spatial_dimensions = [1, 2]>";
        let a = reg.parse_dialect_attr(&u, raw).unwrap().unwrap();
        assert_eq!(
            aic::printer::attr_text(&u, a),
            "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"
        );
        // Dimension numbers the compact form cannot write.
        assert_eq!(
            error("stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0>"),
            INVALID_CONV_DIMS
        );
    }

    #[test]
    fn gather_and_scatter_dims_round_trip() {
        let (u, a) = round_trip(
            "stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], \
             start_index_map = [0], index_vector_dim = 1>",
        );
        let g = GatherDims::of(&u, a).expect("gather dims");
        assert_eq!((&g.offset_dims[..], g.index_vector_dim), (&[1][..], 1));
        // index_vector_dim = 0 is not printed, as StableHLO's printStruct.
        round_trip(
            "stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1]>",
        );
        let (u, a) = round_trip(
            "stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], \
             scatter_dims_to_operand_dims = [0], index_vector_dim = 1>",
        );
        let s = ScatterDims::of(&u, a).expect("scatter dims");
        assert_eq!(s.scatter_dims_to_operand_dims, vec![0]);
        assert_eq!(GatherDims::of(&u, a), None);
        assert!(
            error("stablehlo.gather<offset_dims = [1], offset_dims = [2]>")
                .contains("duplicate field 'offset_dims'")
        );
        assert!(
            error("stablehlo.scatter<index_vector_dim = one>")
                .contains("expected an integer for 'index_vector_dim'")
        );
        assert!(error("stablehlo.scatter<update_window_dims>").contains("expected 'key = value'"));
    }

    #[test]
    fn dot_algorithm_round_trips() {
        let (u, a) = round_trip(
            "stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, \
             accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, \
             num_primitive_operations = 3, allow_imprecise_accumulation = false>",
        );
        let d = DotAlgorithm::of(&u, a).expect("an algorithm");
        assert_eq!(d.num_primitive_operations, 3);
        assert_eq!(aic::printer::type_text(&u, d.accumulation_type), "f32");
        assert!(
            error("stablehlo.dot_algorithm<lhs_precision_type = tf32>")
                .contains("missing dot algorithm field 'rhs_precision_type'")
        );
        assert!(
            error(
                "stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, \
             accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, \
             num_primitive_operations = 3, allow_imprecise_accumulation = maybe>"
            )
            .contains("expected true or false")
        );
        assert!(error("stablehlo.dot_algorithm<lhs_precision_type = 7>").contains("bad type"));
    }

    #[test]
    fn other_stablehlo_text_stays_opaque() {
        let u = Uniquer::default();
        assert_eq!(
            parse_attr(&u, "stablehlo.output_operand_alias<operand_index = 0>"),
            Ok(None)
        );
        assert_eq!(
            parse_attr(&u, "stablehlo<comparison_direction LT>"),
            Ok(None)
        );
    }
}
