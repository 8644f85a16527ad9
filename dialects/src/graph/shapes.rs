//! The graph ops' shape rules, one function per op (or family), named by the
//! op's row in [`super::SEMANTICS`]: each gives an op's result shapes from its
//! operand shapes and attributes ([`Query`]), `Ok(None)` where they do not
//! follow from them, or why the operands and attributes are wrong. The
//! verifier ([`super::verify`]) and the e-graph's type inference both apply
//! them.

use super::verify::norm_axis;
use crate::stablehlo::verify::{dims_compatible, list};
use aic::constraints::{i64_values, int_value};
use aic::types::DYNAMIC;

/// An op's result shapes, `Ok(None)` where they do not follow from its
/// operands and attributes, or why those are wrong.
pub type Shapes = Result<Option<Vec<Vec<i64>>>, String>;

/// A graph op's shape rule (see the [module documentation](self)).
pub type ShapeFn = fn(&Query<'_>, &[Vec<i64>]) -> Shapes;

/// What shape inference needs of an op besides its operand shapes: its
/// attributes by name and, for the ops whose result shape is not a function of
/// them (`reshape`, `broadcast`, `split`), the result shapes if known.
pub struct Query<'a> {
    /// Where attributes live.
    pub u: &'a aic::ir::Uniquer,
    /// The op's attribute named so, if set.
    pub attr: &'a dyn Fn(&str) -> Option<aic::attributes::Attr>,
    /// The result shapes, where the op is in the IR.
    pub results: Option<Vec<Vec<i64>>>,
}

impl Query<'_> {
    fn ints(&self, name: &str) -> Vec<i64> {
        (self.attr)(name)
            .and_then(|a| i64_values(self.u, a))
            .unwrap_or_default()
    }
    fn integer(&self, name: &str, default: i64) -> i64 {
        (self.attr)(name)
            .and_then(|a| int_value(self.u, a))
            .unwrap_or(default)
    }
    fn layout(&self) -> Option<super::ConvLayout> {
        super::ConvLayout::of(self.u, (self.attr)("layout")?)
    }
    pub(super) fn has(&self, name: &str) -> bool {
        (self.attr)(name).is_some()
    }
    fn result(&self, i: usize) -> Option<Vec<i64>> {
        self.results.as_ref()?.get(i).cloned()
    }
}

/// One result of shape `s`.
fn one(s: Vec<i64>) -> Shapes {
    Ok(Some(vec![s]))
}

/// The binary elementwise ops: operands of one shape, or one of rank 0 that broadcasts.
pub fn binary(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (a, b) = (&shapes[0], &shapes[1]);
    if a.is_empty() {
        one(b.clone())
    } else if b.is_empty() || dims_compatible(a, b) {
        one(a.clone())
    } else {
        Err(format!(
            "operand shapes {} and {} must be equal (or one of rank 0)",
            list(a),
            list(b)
        ))
    }
}

/// `select`: the three operands of one shape, any of them of rank 0.
pub fn select(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let full: Vec<&Vec<i64>> = shapes.iter().filter(|s| !s.is_empty()).collect();
    match full.first() {
        None => one(Vec::new()),
        Some(first) if full.iter().all(|s| dims_compatible(first, s)) => one((*first).clone()),
        Some(_) => Err(format!(
            "operand shapes {}, {} and {} must be equal (or of rank 0)",
            list(&shapes[0]),
            list(&shapes[1]),
            list(&shapes[2])
        )),
    }
}

/// `matmul`: `[..., M, K] x [..., K, N] -> [..., M, N]`, the rhs's batch dimensions optional.
pub fn matmul(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (mut a, mut b) = (shapes[0].clone(), shapes[1].clone());
    if a.len() < 2 || b.len() < 2 {
        return Err("operands must have rank at least 2".into());
    }
    let (la, lb) = (a.len(), b.len());
    if q.has("transpose_a") {
        a.swap(la - 1, la - 2);
    }
    if q.has("transpose_b") {
        b.swap(lb - 1, lb - 2);
    }
    let (m, k1, k2, n) = (a[la - 2], a[la - 1], b[lb - 2], b[lb - 1]);
    if k1 != k2 && k1 != DYNAMIC && k2 != DYNAMIC {
        return Err(format!("contracted dimensions differ: {k1} != {k2}"));
    }
    let (ba, bb) = (&a[..la - 2], &b[..lb - 2]);
    if !bb.is_empty() && !dims_compatible(ba, bb) {
        return Err(format!(
            "batch dimensions {} and {} differ",
            list(ba),
            list(bb)
        ));
    }
    let mut r = ba.to_vec();
    r.extend([m, n]);
    one(r)
}

/// `batch_matmul`: `matmul` on operands of rank 3.
pub fn batch_matmul(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (a, b) = (shapes[0].len(), shapes[1].len());
    if a >= 2 && b >= 2 && (a != 3 || b != 3) {
        return Err("operands must have rank 3".into());
    }
    matmul(q, shapes)
}

/// `conv2d`: the output size of each spatial dimension from the window.
pub fn conv2d(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (x, w) = (&shapes[0], &shapes[1]);
    if x.len() != 4 || w.len() != 4 {
        return Err("input and filter must have rank 4".into());
    }
    let nhwc = q.layout() != Some(super::ConvLayout::Nchw);
    let (strides, dil, pad) = (q.ints("strides"), q.ints("dilations"), q.ints("padding"));
    if strides.len() != 2 || dil.len() != 2 || pad.len() != 4 {
        return Err(
            "strides and dilations need 2 values, padding 4 (top, bottom, left, right)".into(),
        );
    }
    if strides.iter().chain(&dil).any(|v| *v <= 0) {
        return Err("strides and dilations must be positive".into());
    }
    let groups = q.integer("groups", 1);
    let (n, h, wd, c) = if nhwc {
        (x[0], x[1], x[2], x[3])
    } else {
        (x[0], x[2], x[3], x[1])
    };
    let (kh, kw, ci, co) = if nhwc {
        (w[0], w[1], w[2], w[3])
    } else {
        (w[2], w[3], w[1], w[0])
    };
    if groups <= 0 || (c != DYNAMIC && c % groups != 0) || (co != DYNAMIC && co % groups != 0) {
        return Err(format!(
            "groups {groups} must divide the input channels {c} and output channels {co}"
        ));
    }
    if c != DYNAMIC && ci != DYNAMIC && ci * groups != c {
        return Err(format!(
            "filter input channels {ci} times groups {groups} must equal the input channels {c}"
        ));
    }
    let out = |size: i64, k: i64, s: i64, d: i64, lo: i64, hi: i64| {
        if size == DYNAMIC || k == DYNAMIC {
            return DYNAMIC;
        }
        let span = (k - 1) * d + 1;
        let padded = size + lo + hi;
        if padded < span {
            0
        } else {
            (padded - span) / s + 1
        }
    };
    let oh = out(h, kh, strides[0], dil[0], pad[0], pad[1]);
    let ow = out(wd, kw, strides[1], dil[1], pad[2], pad[3]);
    one(if nhwc {
        vec![n, oh, ow, co]
    } else {
        vec![n, co, oh, ow]
    })
}

/// `bias_add`: a bias vector of the last dimension.
pub fn bias_add(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (x, b) = (&shapes[0], &shapes[1]);
    let last = x.last().copied();
    if b.len() != 1 || last.is_none() || !dims_compatible(&[last.unwrap_or(0)], b) {
        return Err(format!(
            "bias {} must be a vector of the last dimension of {}",
            list(b),
            list(x)
        ));
    }
    one(x.clone())
}

/// `softmax`: the shape kept, the axis in range.
pub fn softmax(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    if norm_axis(q.integer("axis", -1), x.len()).is_none() {
        return Err(format!(
            "axis {} is out of range for rank {}",
            q.integer("axis", -1),
            x.len()
        ));
    }
    one(x.clone())
}

/// `layernorm` and `rmsnorm`: scale and shift span the trailing dimensions.
pub fn norm(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    for p in &shapes[1..] {
        if p.is_empty() || p.len() > x.len() || !dims_compatible(p, &x[x.len() - p.len()..]) {
            return Err(format!(
                "scale and shift {} must match the trailing dimensions of {}",
                list(p),
                list(x)
            ));
        }
    }
    if shapes.len() == 3 && shapes[1] != shapes[2] {
        return Err("gamma and beta must have the same shape".into());
    }
    one(x.clone())
}

/// `groupnorm`: `x` is `[N, ..., C]` with `C` a multiple of `groups`; scale
/// and shift are vectors of `C`.
pub fn groupnorm(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let groups = q.integer("groups", 0);
    let Some(&c) = x.last().filter(|_| x.len() >= 2) else {
        return Err(format!(
            "the input {} must have a batch and a channel dimension",
            list(x)
        ));
    };
    if groups <= 0 || (c >= 0 && c % groups != 0) {
        return Err(format!(
            "{groups} groups do not divide the {c} channels of {}",
            list(x)
        ));
    }
    for p in &shapes[1..] {
        if !dims_compatible(p, &[c]) {
            return Err(format!(
                "scale and shift {} must be vectors of the {c} channels",
                list(p)
            ));
        }
    }
    one(x.clone())
}

/// `reduce`: the reduced axes dropped, or kept as 1 with `keep_dims`.
pub fn reduce(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let axes = q.ints("axes");
    let mut norm = Vec::new();
    for a in &axes {
        match norm_axis(*a, x.len()) {
            Some(n) if !norm.contains(&n) => norm.push(n),
            _ => {
                return Err(format!(
                    "axes {} must be distinct and in range for rank {}",
                    list(&axes),
                    x.len()
                ));
            }
        }
    }
    let keep = q.has("keep_dims");
    let r = (0..x.len())
        .filter_map(|i| match (norm.contains(&i), keep) {
            (true, true) => Some(1),
            (true, false) => None,
            _ => Some(x[i]),
        })
        .collect();
    one(r)
}

/// `transpose`: result dimension `i` is operand dimension `perm[i]`.
pub fn transpose(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let perm = q.ints("perm");
    let mut seen = vec![false; x.len()];
    if perm.len() != x.len()
        || perm.iter().any(|p| {
            *p < 0 || *p as usize >= x.len() || std::mem::replace(&mut seen[*p as usize], true)
        })
    {
        return Err(format!(
            "perm {} is not a permutation of [0, {})",
            list(&perm),
            x.len()
        ));
    }
    one(perm.iter().map(|p| x[*p as usize]).collect())
}

/// `reshape`: the result shape, if it holds as many elements.
pub fn reshape(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let Some(r) = q.result(0) else {
        return Ok(None);
    };
    // Counts of shapes from user IR: dynamic or overflowing ones
    // (errors of aic::shape) are not compared.
    let (na, nb) = (aic::shape::elements(&shapes[0]), aic::shape::elements(&r));
    if let (Ok(na), Ok(nb)) = (na, nb)
        && na != nb
    {
        return Err(format!("cannot reshape {} elements into {}", na, nb));
    }
    one(r)
}

/// `broadcast`: the result shape, if each operand dimension stretches to its place.
pub fn broadcast(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let Some(r) = q.result(0) else {
        return Ok(None);
    };
    let d = q.ints("dims");
    if d.len() != x.len() {
        return Err(format!(
            "dims {} must have one entry per operand dimension ({})",
            list(&d),
            x.len()
        ));
    }
    for (i, t) in d.iter().enumerate() {
        let ok = *t >= 0
            && (*t as usize) < r.len()
            && (x[i] == 1 || x[i] == r[*t as usize] || x[i] == DYNAMIC);
        if !ok || d[..i].contains(t) {
            return Err(format!(
                "operand dimension {i} of size {} cannot broadcast to result dimension {t}",
                x[i]
            ));
        }
    }
    one(r)
}

/// `slice`: the strided ranges' lengths.
pub fn slice(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let (s, l, st) = (q.ints("start"), q.ints("limit"), q.ints("strides"));
    if s.len() != x.len() || l.len() != x.len() || st.len() != x.len() {
        return Err(format!("start, limit and strides need {} entries", x.len()));
    }
    let mut r = Vec::new();
    for i in 0..x.len() {
        if s[i] < 0 || s[i] > l[i] || (x[i] != DYNAMIC && l[i] > x[i]) || st[i] <= 0 {
            return Err(format!(
                "slice {}:{}:{} is out of range for dimension {i} of size {}",
                s[i], l[i], st[i], x[i]
            ));
        }
        r.push((l[i] - s[i] + st[i] - 1) / st[i]);
    }
    one(r)
}

/// `concat`: the inputs' sizes along the axis added up.
pub fn concat(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let first = shapes.first().ok_or("needs at least one input")?;
    let axis = norm_axis(q.integer("axis", 0), first.len()).ok_or("axis is out of range")?;
    let mut r = first.clone();
    for s in &shapes[1..] {
        if s.len() != first.len()
            || (0..s.len()).any(|i| i != axis && !dims_compatible(&[s[i]], &[first[i]]))
        {
            return Err(format!(
                "shapes {} and {} differ outside the concatenation axis",
                list(first),
                list(s)
            ));
        }
        r[axis] = if r[axis] == DYNAMIC || s[axis] == DYNAMIC {
            DYNAMIC
        } else {
            r[axis] + s[axis]
        };
    }
    one(r)
}

/// `split`: the result shapes, if their sizes along the axis add up to the operand's.
pub fn split(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let axis = norm_axis(q.integer("axis", 0), x.len()).ok_or("axis is out of range")?;
    let Some(outs) = q.results.clone() else {
        return Ok(None);
    };
    let total: i64 = outs.iter().map(|s| s.get(axis).copied().unwrap_or(0)).sum();
    if x[axis] != DYNAMIC && total != x[axis] {
        return Err(format!(
            "result sizes along axis {axis} add up to {total}, not {}",
            x[axis]
        ));
    }
    for s in &outs {
        if s.len() != x.len()
            || (0..x.len()).any(|i| i != axis && !dims_compatible(&[s[i]], &[x[i]]))
        {
            return Err(format!(
                "result shape {} differs from {} outside the split axis",
                list(s),
                list(x)
            ));
        }
    }
    Ok(Some(outs))
}

/// `constant`: its type comes from its value, not from operands.
pub fn constant(_: &Query<'_>, _: &[Vec<i64>]) -> Shapes {
    Ok(None)
}

/// Unary elementwise ops and casts keep the shape.
pub fn same(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    one(shapes.first().cloned().unwrap_or_default())
}

/// `pad`: each dim `low + n + (n - 1) * interior + high` long, the value of
/// rank 0.
pub fn pad(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    let (lo, hi, int) = (
        q.ints("edge_padding_low"),
        q.ints("edge_padding_high"),
        q.ints("interior_padding"),
    );
    if lo.len() != x.len() || hi.len() != x.len() || int.len() != x.len() {
        return Err(format!("low, high and interior need {} entries", x.len()));
    }
    if !shapes[1].is_empty() {
        return Err("the padding value must have rank 0".into());
    }
    let mut r = Vec::new();
    for i in 0..x.len() {
        if int[i] < 0 {
            return Err(format!(
                "interior padding {} of dim {i} is negative",
                int[i]
            ));
        }
        if x[i] == DYNAMIC {
            r.push(DYNAMIC);
            continue;
        }
        let n = lo[i] + hi[i] + x[i] + (x[i] - 1).max(0) * int[i];
        if n < 0 {
            return Err(format!("dim {i} padded to a negative size {n}"));
        }
        r.push(n);
    }
    one(r)
}

/// The start operands of the dynamic slices: one of rank 0 per dim of `x`.
fn starts(x: &[i64], starts: &[Vec<i64>]) -> Result<(), String> {
    if starts.len() != x.len() || starts.iter().any(|s| !s.is_empty()) {
        return Err(format!(
            "needs {} start indices of rank 0, one per dim",
            x.len()
        ));
    }
    Ok(())
}

/// `dynamic_slice`: the sizes, each at most its dim.
pub fn dynamic_slice(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    starts(x, &shapes[1..])?;
    let sizes = q.ints("slice_sizes");
    if sizes.len() != x.len()
        || sizes
            .iter()
            .zip(x)
            .any(|(s, d)| *s < 0 || (*d != DYNAMIC && s > d))
    {
        return Err(format!(
            "slice sizes {} must fit the operand {}",
            list(&sizes),
            list(x)
        ));
    }
    one(sizes)
}

/// `dynamic_update_slice`: the operand's shape, the update fitting in it.
pub fn dynamic_update_slice(_: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (x, u) = (&shapes[0], &shapes[1]);
    starts(x, &shapes[2..])?;
    if u.len() != x.len()
        || u.iter()
            .zip(x)
            .any(|(a, b)| *a != DYNAMIC && *b != DYNAMIC && a > b)
    {
        return Err(format!(
            "the update {} must fit the operand {}",
            list(u),
            list(x)
        ));
    }
    one(x.clone())
}

/// `gather`: the batch dims of the indices (all but the index vector's),
/// with the slice's dims not collapsed (nor batching) at the offset dims.
pub fn gather(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (x, ind) = (&shapes[0], &shapes[1]);
    let d = (q.attr)("dimension_numbers")
        .and_then(|a| crate::stablehlo::attrs::GatherDims::of(q.u, a))
        .ok_or("needs gather dimension numbers")?;
    let sizes = q.ints("slice_sizes");
    if sizes.len() != x.len() {
        return Err(format!("slice sizes need {} entries", x.len()));
    }
    let ivd = d.index_vector_dim;
    if ivd < 0 || ivd as usize > ind.len() {
        return Err(format!("index vector dim {ivd} is out of range"));
    }
    let ivd = ivd as usize;
    let n = if ivd < ind.len() { ind[ivd] } else { 1 };
    if n != DYNAMIC && n != d.start_index_map.len() as i64 {
        return Err(format!(
            "index vectors of {n} components for a start index map of {}",
            d.start_index_map.len()
        ));
    }
    let in_range = |v: &[i64]| v.iter().all(|k| (0..x.len() as i64).contains(k));
    if !in_range(&d.start_index_map)
        || !in_range(&d.collapsed_slice_dims)
        || !in_range(&d.operand_batching_dims)
    {
        return Err("operand dims out of range in the dimension numbers".into());
    }
    for (k, s) in sizes.iter().enumerate() {
        let dropped = d.collapsed_slice_dims.contains(&(k as i64))
            || d.operand_batching_dims.contains(&(k as i64));
        if *s < 0 || (x[k] != DYNAMIC && *s > x[k]) || (dropped && *s > 1) {
            return Err(format!(
                "slice size {s} does not fit dim {k} of {}",
                list(x)
            ));
        }
    }
    let offsets: Vec<i64> = (0..x.len())
        .filter(|k| {
            !d.collapsed_slice_dims.contains(&(*k as i64))
                && !d.operand_batching_dims.contains(&(*k as i64))
        })
        .map(|k| sizes[k])
        .collect();
    if offsets.len() != d.offset_dims.len() {
        return Err(format!(
            "{} offset dims for {} slice dims kept",
            d.offset_dims.len(),
            offsets.len()
        ));
    }
    let batch: Vec<i64> = (0..ind.len())
        .filter(|k| *k != ivd)
        .map(|k| ind[k])
        .collect();
    let rank = batch.len() + offsets.len();
    if d.offset_dims.iter().any(|o| *o < 0 || *o as usize >= rank)
        || !d.offset_dims.windows(2).all(|w| w[0] < w[1])
    {
        return Err(format!(
            "offset dims {} must be sorted and in range for rank {rank}",
            list(&d.offset_dims)
        ));
    }
    let (mut b, mut o) = (batch.iter(), offsets.iter());
    let r = (0..rank as i64)
        .map(|k| {
            if d.offset_dims.contains(&k) {
                *o.next().unwrap_or(&0)
            } else {
                *b.next().unwrap_or(&0)
            }
        })
        .collect();
    one(r)
}

/// `reduce_window`: `(padded - span) / stride + 1` windows along each dim,
/// where `span` is the dilated window; the init of rank 0.
pub fn reduce_window(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let x = &shapes[0];
    if !shapes[1].is_empty() {
        return Err("the init value must have rank 0".into());
    }
    if (q.attr)("kind").and_then(|a| super::ReduceKind::of(q.u, a)) == Some(super::ReduceKind::Mean)
    {
        return Err("a window reduction sums, or takes the max or min".into());
    }
    let (w, s, dil, pad) = (
        q.ints("window_dimensions"),
        q.ints("window_strides"),
        q.ints("window_dilations"),
        q.ints("padding"),
    );
    let r = x.len();
    if w.len() != r || s.len() != r || dil.len() != r || pad.len() != 2 * r {
        return Err(format!(
            "window, strides and dilations need {r} entries, padding {}",
            2 * r
        ));
    }
    if w.iter().chain(&s).chain(&dil).any(|v| *v <= 0) {
        return Err("window sizes, strides and dilations must be positive".into());
    }
    let mut out = Vec::new();
    for i in 0..r {
        if x[i] == DYNAMIC {
            out.push(DYNAMIC);
            continue;
        }
        let padded = x[i] + pad[2 * i] + pad[2 * i + 1];
        let span = (w[i] - 1) * dil[i] + 1;
        out.push(if padded < span {
            0
        } else {
            (padded - span) / s[i] + 1
        });
    }
    one(out)
}

/// `scatter`: the operand's shape; the updates' scatter dims those of the
/// indices' batch, their window dims no longer than the operand's.
pub fn scatter(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (x, ind, upd) = (&shapes[0], &shapes[1], &shapes[2]);
    let d = (q.attr)("scatter_dimension_numbers")
        .and_then(|a| crate::stablehlo::attrs::ScatterDims::of(q.u, a))
        .ok_or("needs scatter dimension numbers")?;
    let ivd = d.index_vector_dim;
    if ivd < 0 || ivd as usize > ind.len() {
        return Err(format!("index vector dim {ivd} is out of range"));
    }
    let n = if (ivd as usize) < ind.len() {
        ind[ivd as usize]
    } else {
        1
    };
    if n != DYNAMIC && n != d.scatter_dims_to_operand_dims.len() as i64 {
        return Err(format!(
            "index vectors of {n} components for {} scattered dims",
            d.scatter_dims_to_operand_dims.len()
        ));
    }
    let in_range = |v: &[i64], r: usize| v.iter().all(|k| (0..r as i64).contains(k));
    if !in_range(&d.scatter_dims_to_operand_dims, x.len())
        || !in_range(&d.inserted_window_dims, x.len())
        || !in_range(&d.input_batching_dims, x.len())
        || !in_range(&d.update_window_dims, upd.len())
    {
        return Err("dims out of range in the dimension numbers".into());
    }
    let batch: Vec<i64> = (0..ind.len())
        .filter(|k| *k as i64 != ivd)
        .map(|k| ind[k])
        .collect();
    let scatter: Vec<i64> = (0..upd.len())
        .filter(|k| !d.update_window_dims.contains(&(*k as i64)))
        .map(|k| upd[k])
        .collect();
    if !dims_compatible(&batch, &scatter) {
        return Err(format!(
            "the updates' scatter dims {} differ from the indices' batch dims {}",
            list(&scatter),
            list(&batch)
        ));
    }
    let window: Vec<i64> = (0..x.len())
        .filter(|k| {
            !d.inserted_window_dims.contains(&(*k as i64))
                && !d.input_batching_dims.contains(&(*k as i64))
        })
        .map(|k| x[k])
        .collect();
    if window.len() != d.update_window_dims.len()
        || d.update_window_dims
            .iter()
            .zip(&window)
            .any(|(u, w)| *w != DYNAMIC && upd[*u as usize] != DYNAMIC && upd[*u as usize] > *w)
    {
        return Err(format!(
            "the update windows must fit the operand {}",
            list(x)
        ));
    }
    one(x.clone())
}

/// `sort`: every operand of one shape, kept; the dim in range.
pub fn sort(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let first = shapes.first().ok_or("needs at least one operand")?;
    if norm_axis(q.integer("dimension", 0), first.len()).is_none() {
        return Err(format!(
            "dim {} is out of range for rank {}",
            q.integer("dimension", 0),
            first.len()
        ));
    }
    if shapes.iter().any(|s| !dims_compatible(s, first)) {
        return Err("the operands must have one shape".into());
    }
    Ok(Some(shapes.to_vec()))
}
