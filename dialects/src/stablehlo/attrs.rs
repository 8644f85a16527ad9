//! StableHLO's struct attributes. aic keeps them as opaque text
//! (`#stablehlo.dot<...>`,
//! `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`); this module reads
//! them into structures and writes them back in StableHLO's canonical form, so
//! the pretty syntax, the verifiers and the interpreter share one reading.

use aic::attributes::{Attr, AttrKind};
use aic::ir::Context;

/// The dimension numbers are the tensor kernels' (`crate::kernels`); this module reads
/// and writes their attributes.
pub use crate::kernels::{ConvDims, DotDims};

/// A value in a struct attribute (`key = value`).
#[derive(Clone, Debug, PartialEq)]
enum Field {
    Int(i64),
    Ints(Vec<i64>),
}

/// Read `<key = value, ...>` after `prefix` in `text`; `None` if malformed.
fn struct_fields(text: &str, prefix: &str) -> Option<Vec<(String, Field)>> {
    let body = text.strip_prefix(prefix)?.trim_start().strip_prefix('<')?;
    let body = body.trim_end().strip_suffix('>')?;
    let mut out = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let key = key.trim().to_string();
        let after = after.trim_start();
        let (field, tail) = if let Some(list) = after.strip_prefix('[') {
            let (inner, tail) = list.split_once(']')?;
            let ints = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().ok())
                .collect::<Option<Vec<i64>>>()?;
            (Field::Ints(ints), tail)
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (Field::Int(after[..end].trim().parse().ok()?), &after[end..])
        };
        out.push((key, field));
        rest = tail.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some(out)
}

fn ints_of(fields: &[(String, Field)], key: &str) -> Vec<i64> {
    fields
        .iter()
        .find_map(|(k, f)| match f {
            Field::Ints(v) if k == key => Some(v.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn int_of(fields: &[(String, Field)], key: &str) -> i64 {
    fields
        .iter()
        .find_map(|(k, f)| match f {
            Field::Int(v) if k == key => Some(*v),
            _ => None,
        })
        .unwrap_or(0)
}

fn only_keys(fields: &[(String, Field)], keys: &[&str]) -> bool {
    fields.iter().all(|(k, _)| keys.contains(&k.as_str()))
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// Print `name = [..]` fields that are not empty, StableHLO's `printStruct`.
fn print_struct(mnemonic: &str, lists: &[(&str, &[i64])], ints: &[(&str, i64)]) -> String {
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
    format!("stablehlo.{mnemonic}<{}>", parts.join(", "))
}

const DOT_KEYS: [&str; 4] = [
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
];

impl DotDims {
    /// Read the attribute.
    pub fn of(ctx: &Context, a: Attr) -> Option<DotDims> {
        let AttrKind::Opaque(text) = ctx.attr_kind(a) else {
            return None;
        };
        let f = struct_fields(text, "stablehlo.dot")?;
        only_keys(&f, &DOT_KEYS).then(|| DotDims {
            lhs_batch: ints_of(&f, DOT_KEYS[0]),
            rhs_batch: ints_of(&f, DOT_KEYS[1]),
            lhs_contract: ints_of(&f, DOT_KEYS[2]),
            rhs_contract: ints_of(&f, DOT_KEYS[3]),
        })
    }
    /// The attribute's canonical text (after `#`).
    pub fn text(&self) -> String {
        print_struct(
            "dot",
            &[
                (DOT_KEYS[0], &self.lhs_batch),
                (DOT_KEYS[1], &self.rhs_batch),
                (DOT_KEYS[2], &self.lhs_contract),
                (DOT_KEYS[3], &self.rhs_contract),
            ],
            &[],
        )
    }
}

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

impl ConvDims {
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
    /// Read the attribute (compact or `raw` struct form).
    pub fn of(ctx: &Context, a: Attr) -> Option<ConvDims> {
        let AttrKind::Opaque(text) = ctx.attr_kind(a) else {
            return None;
        };
        let body = text.strip_prefix("stablehlo.conv")?.trim_start();
        if let Some(raw) = body.strip_prefix("raw") {
            let f = struct_fields(raw, "")?;
            return Some(ConvDims {
                in_batch: int_of(&f, "input_batch_dimension"),
                in_feature: int_of(&f, "input_feature_dimension"),
                in_spatial: ints_of(&f, "input_spatial_dimensions"),
                k_in: int_of(&f, "kernel_input_feature_dimension"),
                k_out: int_of(&f, "kernel_output_feature_dimension"),
                k_spatial: ints_of(&f, "kernel_spatial_dimensions"),
                out_batch: int_of(&f, "output_batch_dimension"),
                out_feature: int_of(&f, "output_feature_dimension"),
                out_spatial: ints_of(&f, "output_spatial_dimensions"),
            });
        }
        Self::parse_compact(body.strip_prefix('<')?.strip_suffix('>')?)
    }
    /// The compact text.
    pub fn compact(&self) -> String {
        fn group(a: (i64, &str), b: (i64, &str), spatial: &[i64]) -> String {
            let n = spatial.len() + 2;
            let mut items = vec![String::new(); n];
            for (k, d) in [a, b] {
                if let Some(s) = items.get_mut(k as usize) {
                    *s = d.to_string();
                }
            }
            for (i, d) in spatial.iter().enumerate() {
                if let Some(s) = items.get_mut(*d as usize) {
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

/// `#stablehlo.gather<...>`.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Read the attribute.
    pub fn of(ctx: &Context, a: Attr) -> Option<GatherDims> {
        let AttrKind::Opaque(text) = ctx.attr_kind(a) else {
            return None;
        };
        let f = struct_fields(text, "stablehlo.gather")?;
        Some(GatherDims {
            offset_dims: ints_of(&f, "offset_dims"),
            collapsed_slice_dims: ints_of(&f, "collapsed_slice_dims"),
            operand_batching_dims: ints_of(&f, "operand_batching_dims"),
            start_indices_batching_dims: ints_of(&f, "start_indices_batching_dims"),
            start_index_map: ints_of(&f, "start_index_map"),
            index_vector_dim: int_of(&f, "index_vector_dim"),
        })
    }
}

/// `#stablehlo.scatter<...>`.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Read the attribute.
    pub fn of(ctx: &Context, a: Attr) -> Option<ScatterDims> {
        let AttrKind::Opaque(text) = ctx.attr_kind(a) else {
            return None;
        };
        let f = struct_fields(text, "stablehlo.scatter")?;
        Some(ScatterDims {
            update_window_dims: ints_of(&f, "update_window_dims"),
            inserted_window_dims: ints_of(&f, "inserted_window_dims"),
            input_batching_dims: ints_of(&f, "input_batching_dims"),
            scatter_indices_batching_dims: ints_of(&f, "scatter_indices_batching_dims"),
            scatter_dims_to_operand_dims: ints_of(&f, "scatter_dims_to_operand_dims"),
            index_vector_dim: int_of(&f, "index_vector_dim"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn struct_fields_read_lists_and_integers() {
        let f = struct_fields(
            "stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>",
            "stablehlo.gather",
        )
        .unwrap();
        assert_eq!(ints_of(&f, "offset_dims"), vec![1, 2]);
        assert_eq!(int_of(&f, "index_vector_dim"), 1);
        assert!(ints_of(&f, "collapsed_slice_dims").is_empty());
        assert!(struct_fields("stablehlo.gather<offset_dims = [1", "stablehlo.gather").is_none());
    }

    #[test]
    fn dot_dims_print_nonempty_fields_in_stablehlo_order() {
        let d = DotDims {
            lhs_batch: vec![0],
            rhs_batch: vec![0],
            lhs_contract: vec![2],
            rhs_contract: vec![1],
        };
        assert_eq!(
            d.text(),
            "stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>"
        );
        let e = DotDims {
            lhs_contract: vec![1],
            rhs_contract: vec![0],
            ..Default::default()
        };
        assert_eq!(
            e.text(),
            "stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"
        );
    }
}
