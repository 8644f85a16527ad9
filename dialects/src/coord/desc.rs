//! Tensor descriptors: Composable Kernel's tensor coordinate transformation.
//! A descriptor maps an upper (logical) index space to a lower (physical)
//! one through stages of transforms; each transform of a stage takes some
//! dims of the stage's upper coordinate and gives some dims of its lower
//! coordinate. The last stage's lower coordinate, read row-major, is the
//! element offset in memory; a coordinate is valid unless a `pad` maps it
//! outside its dimension (the padding reads as zero).
//!
//! Text, as held by `#coord.desc<...>`: the upper lengths, then stages
//! separated by `|`, each a comma-separated list of
//! `name<params> [upper dims] -> [lower dims]`:
//!
//! ```text
//! [6, 4] | pass [0] -> [1], pass [1] -> [0] | embed<24: 6, 1> [0, 1] -> [0]
//! ```
//!
//! is the transpose of a row-major 4x6 buffer.

use crate::memref::row_major_offset;
use std::fmt;

/// One transform: how some upper dims give some lower dims.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Transform {
    /// One dim, unchanged.
    Pass,
    /// One dim padded by `lo` before and `hi` after: upper `u` is lower
    /// `u - lo`, valid while that is inside the lower length.
    Pad {
        /// Elements before.
        lo: i64,
        /// Elements after.
        hi: i64,
    },
    /// One dim as a window of a longer one: upper `u` is lower `u + begin`.
    Slice {
        /// Where the window starts.
        begin: i64,
        /// The lower dim's length.
        len: i64,
    },
    /// Several dims to one, strided: lower is `offset + sum(u_i * strides_i)`,
    /// inside a lower dim of `len`.
    Embed {
        /// The lower dim's length.
        len: i64,
        /// One stride per upper dim.
        strides: Vec<i64>,
        /// A constant added (what folding frozen dims leaves).
        offset: i64,
    },
    /// One dim to several: the upper index delinearised (row-major) over
    /// `lens`.
    Merge {
        /// The lower lengths.
        lens: Vec<i64>,
    },
    /// Several dims to one, linearised row-major (the inverse of `merge`).
    Unmerge,
    /// Two dims, an outer one and a vector of `width`, to one: `outer * width
    /// + inner` (an `unmerge` whose inner length is the vector width).
    Vectorize {
        /// The vector width.
        width: i64,
    },
    /// No upper dim to one lower dim fixed at `value` of `len`.
    Freeze {
        /// The fixed index.
        value: i64,
        /// The lower dim's length.
        len: i64,
    },
    /// One upper dim to none: every index reads the same element (stride 0).
    Broadcast,
}

/// A transform with the dims it reads (of its stage's upper coordinate) and
/// writes (of the stage's lower coordinate).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The transform.
    pub t: Transform,
    /// Upper dims it reads.
    pub upper: Vec<usize>,
    /// Lower dims it gives.
    pub lower: Vec<usize>,
}

/// A descriptor: upper lengths and stages from upper to lower.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Desc {
    /// The logical shape.
    pub upper: Vec<i64>,
    /// The stages, upper first.
    pub stages: Vec<Vec<Step>>,
}

/// Every index of `shape`, in row-major order.
pub fn row_major_indices(shape: &[i64]) -> Vec<Vec<i64>> {
    let n: i64 = shape.iter().product();
    (0..n)
        .map(|mut k| {
            let mut idx = vec![0; shape.len()];
            for i in (0..shape.len()).rev() {
                idx[i] = k % shape[i];
                k /= shape[i];
            }
            idx
        })
        .collect()
}

/// A 2-d convolution's geometry, for its implicit-GEMM descriptors.
#[derive(Clone, Debug)]
pub struct Conv {
    /// NCHW input and OIHW filter (else NHWC and HWIO).
    pub nchw: bool,
    /// The input shape in its layout.
    pub input: [i64; 4],
    /// Filter height and width.
    pub filter: [i64; 2],
    /// Output channels.
    pub out_channels: i64,
    /// Row and column strides.
    pub strides: [i64; 2],
    /// Row and column dilations.
    pub dilations: [i64; 2],
    /// Padding: top, bottom, left, right.
    pub pads: [i64; 4],
    /// Channel groups.
    pub groups: i64,
}

impl Conv {
    /// The input shape as `[n, h, w, c]`.
    pub fn nhwc(&self) -> [i64; 4] {
        let x = self.input;
        if self.nchw {
            [x[0], x[2], x[3], x[1]]
        } else {
            x
        }
    }

    /// The output height and width.
    pub fn out(&self) -> [i64; 2] {
        let [_, h, w, _] = self.nhwc();
        let o = |len: i64, k: i64, s: i64, d: i64, lo: i64, hi: i64| {
            let (padded, span) = (len + lo + hi, d * (k - 1) + 1);
            if padded < span {
                0
            } else {
                (padded - span) / s + 1
            }
        };
        [
            o(
                h,
                self.filter[0],
                self.strides[0],
                self.dilations[0],
                self.pads[0],
                self.pads[1],
            ),
            o(
                w,
                self.filter[1],
                self.strides[1],
                self.dilations[1],
                self.pads[2],
                self.pads[3],
            ),
        ]
    }
}

fn step(t: Transform, upper: &[usize], lower: &[usize]) -> Step {
    Step {
        t,
        upper: upper.to_vec(),
        lower: lower.to_vec(),
    }
}

fn embed(len: i64, strides: &[i64], offset: i64) -> Transform {
    Transform::Embed {
        len,
        strides: strides.to_vec(),
        offset,
    }
}

impl Transform {
    /// The keyword of the transform in text.
    pub fn name(&self) -> &'static str {
        match self {
            Transform::Pass => "pass",
            Transform::Pad { .. } => "pad",
            Transform::Slice { .. } => "slice",
            Transform::Embed { .. } => "embed",
            Transform::Merge { .. } => "merge",
            Transform::Unmerge => "unmerge",
            Transform::Vectorize { .. } => "vectorize",
            Transform::Freeze { .. } => "freeze",
            Transform::Broadcast => "broadcast",
        }
    }

    /// How many upper and lower dims it has (`None`: as many as given).
    fn arity(&self) -> (Option<usize>, Option<usize>) {
        match self {
            Transform::Pass | Transform::Pad { .. } | Transform::Slice { .. } => (Some(1), Some(1)),
            Transform::Embed { strides, .. } => (Some(strides.len()), Some(1)),
            Transform::Merge { lens } => (Some(1), Some(lens.len())),
            Transform::Unmerge => (None, Some(1)),
            Transform::Vectorize { .. } => (Some(2), Some(1)),
            Transform::Freeze { .. } => (Some(0), Some(1)),
            Transform::Broadcast => (Some(1), Some(0)),
        }
    }

    /// The lower lengths from the upper ones, or why they do not fit.
    pub fn lower_lens(&self, up: &[i64]) -> Result<Vec<i64>, String> {
        let one = |v: i64| Ok(vec![v]);
        // Lengths and attributes come from user IR: every sum and product
        // is checked.
        let big = |e| match e {
            aic::shape::ShapeError::Dynamic => format!("{self:?}: a negative length in {up:?}"),
            aic::shape::ShapeError::Overflow => {
                format!("{self:?} over upper lengths {up:?} overflows an i64")
            }
        };
        match self {
            Transform::Pass => one(up[0]),
            Transform::Pad { lo, hi } => {
                let low = up[0].checked_sub(*lo).and_then(|l| l.checked_sub(*hi));
                match low {
                    Some(low) if *lo >= 0 && *hi >= 0 && low >= 1 => one(low),
                    _ => Err(format!(
                        "pad<{lo}, {hi}> does not fit an upper length of {}",
                        up[0]
                    )),
                }
            }
            Transform::Slice { begin, len } => {
                let end = aic::shape::add(*begin, up[0]).map_err(big)?;
                if *begin < 0 || end > *len {
                    return Err(format!(
                        "slice [{begin}, {end}) is out of range for a length of {len}"
                    ));
                }
                one(*len)
            }
            Transform::Embed {
                len,
                strides,
                offset,
            } => {
                if strides.iter().any(|s| *s < 0) || *offset < 0 {
                    return Err("embed strides and offset must not be negative".into());
                }
                let reach = up.iter().zip(strides).try_fold(*offset, |a, (l, s)| {
                    aic::shape::add(a, aic::shape::mul(l.saturating_sub(1), *s)?)
                });
                let reach = reach.map_err(big)?;
                if reach >= *len {
                    return Err(format!(
                        "embed reaches {reach} beyond a lower length of {len}"
                    ));
                }
                one(*len)
            }
            Transform::Merge { lens } => {
                // A length below 1 is an error either way; 0 stands in.
                let n = match lens.iter().any(|l| *l < 1) {
                    true => 0,
                    false => aic::shape::elements(lens).map_err(big)?,
                };
                if n != up[0] || lens.iter().any(|l| *l < 1) {
                    return Err(format!(
                        "merge of {lens:?} ({n} elements) does not match an upper length of {}",
                        up[0]
                    ));
                }
                Ok(lens.clone())
            }
            Transform::Unmerge => one(aic::shape::elements(up).map_err(big)?),
            Transform::Vectorize { width } => {
                if up[1] != *width {
                    return Err(format!(
                        "vectorize<{width}> needs an inner length of {width}, not {}",
                        up[1]
                    ));
                }
                one(aic::shape::mul(up[0], *width).map_err(big)?)
            }
            Transform::Freeze { value, len } => {
                if *value < 0 || value >= len {
                    return Err(format!("freeze at {value} is outside a length of {len}"));
                }
                one(*len)
            }
            Transform::Broadcast => Ok(Vec::new()),
        }
    }

    /// The lower index from the upper one, and whether it is valid.
    pub fn apply(&self, up: &[i64], up_lens: &[i64], low_lens: &[i64]) -> (Vec<i64>, bool) {
        match self {
            Transform::Pass => (vec![up[0]], true),
            Transform::Pad { lo, .. } => {
                let l = up[0] - lo;
                (vec![l], (0..low_lens[0]).contains(&l))
            }
            Transform::Slice { begin, .. } => (vec![up[0] + begin], true),
            Transform::Embed {
                strides, offset, ..
            } => (
                vec![offset + up.iter().zip(strides).map(|(u, s)| u * s).sum::<i64>()],
                true,
            ),
            Transform::Merge { lens } => {
                let mut rest = up[0];
                let mut out = vec![0; lens.len()];
                for (i, l) in lens.iter().enumerate().rev() {
                    out[i] = rest % l;
                    rest /= l;
                }
                (out, true)
            }
            Transform::Unmerge | Transform::Vectorize { .. } => {
                (vec![row_major_offset(up_lens, up)], true)
            }
            Transform::Freeze { value, .. } => (vec![*value], true),
            Transform::Broadcast => (Vec::new(), true),
        }
    }
}

impl Desc {
    /// The view of an index space of lengths `upper` as itself (no
    /// stages).
    pub fn identity(upper: &[i64]) -> Desc {
        Desc {
            upper: upper.to_vec(),
            stages: Vec::new(),
        }
    }

    /// A row-major buffer of `shape` seen as itself.
    ///
    /// `shape` must be static with an element count that fits an `i64`
    /// (checked by the caller with [`aic::shape::elements`]): then every
    /// stride and the length are bounded by that count.
    pub fn row_major(shape: &[i64]) -> Desc {
        if shape.is_empty() {
            // A scalar: one element at offset 0.
            return Desc::identity(&[]);
        }
        let mut strides = vec![1; shape.len()];
        for i in (0..shape.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * shape[i + 1];
        }
        Desc {
            upper: shape.to_vec(),
            stages: vec![vec![Step {
                t: Transform::Embed {
                    len: shape.iter().product(),
                    strides,
                    offset: 0,
                },
                upper: (0..shape.len()).collect(),
                lower: vec![0],
            }]],
        }
    }

    /// The lengths of every stage's lower coordinate, checking that each
    /// stage reads each of its upper dims once and writes each lower dim
    /// once, and that every transform fits its lengths.
    pub fn lens(&self) -> Result<Vec<Vec<i64>>, String> {
        if self.upper.iter().any(|l| *l < 1) {
            return Err(format!("upper lengths {:?} must be positive", self.upper));
        }
        let mut cur = self.upper.clone();
        let mut out = Vec::with_capacity(self.stages.len());
        for (k, stage) in self.stages.iter().enumerate() {
            let at = |m: String| format!("stage {}: {m}", k + 1);
            let mut read = vec![false; cur.len()];
            let width = stage
                .iter()
                .flat_map(|s| s.lower.iter())
                .map(|d| d + 1)
                .max()
                .unwrap_or(0);
            let mut low: Vec<Option<i64>> = vec![None; width];
            for s in stage {
                let (nu, nl) = s.t.arity();
                if nu.is_some_and(|n| n != s.upper.len())
                    || nl.is_some_and(|n| n != s.lower.len())
                    || (s.t == Transform::Unmerge && s.upper.is_empty())
                {
                    return Err(at(format!(
                        "{} takes {} upper and gives {} lower dims, not {} and {}",
                        s.t.name(),
                        nu.map_or("some".to_string(), |n| n.to_string()),
                        nl.map_or("some".to_string(), |n| n.to_string()),
                        s.upper.len(),
                        s.lower.len()
                    )));
                }
                for d in &s.upper {
                    match read.get_mut(*d) {
                        Some(r) if !*r => *r = true,
                        Some(_) => return Err(at(format!("upper dim {d} is read twice"))),
                        None => {
                            return Err(at(format!(
                                "upper dim {d} is out of range for rank {}",
                                cur.len()
                            )));
                        }
                    }
                }
                let up: Vec<i64> = s.upper.iter().map(|d| cur[*d]).collect();
                let lens = s.t.lower_lens(&up).map_err(at)?;
                for (d, l) in s.lower.iter().zip(lens) {
                    if low[*d].replace(l).is_some() {
                        return Err(at(format!("lower dim {d} is written twice")));
                    }
                }
            }
            if let Some(d) = read.iter().position(|r| !r) {
                return Err(at(format!("upper dim {d} is not read")));
            }
            let Some(next) = low.into_iter().collect::<Option<Vec<i64>>>() else {
                return Err(at("a lower dim is not written".into()));
            };
            out.push(next.clone());
            cur = next;
        }
        Ok(out)
    }

    /// The lower (physical) lengths.
    pub fn lower(&self) -> Result<Vec<i64>, String> {
        Ok(self.lens()?.pop().unwrap_or_else(|| self.upper.clone()))
    }

    /// The element offset of upper index `idx` and whether it is valid
    /// (`None` for an index outside the upper lengths or a bad descriptor).
    pub fn offset(&self, idx: &[i64]) -> Option<(i64, bool)> {
        let inside = idx.len() == self.upper.len()
            && idx
                .iter()
                .zip(&self.upper)
                .all(|(i, l)| (0..*l).contains(i));
        if !inside {
            return None;
        }
        self.locate(idx).ok()
    }

    /// The offset the transforms compute for `idx`, and whether it is valid:
    /// inside the upper lengths and in no padding. Indices outside the
    /// upper lengths (a boundary tile's) still get the formula's offset.
    pub fn locate(&self, idx: &[i64]) -> Result<(i64, bool), String> {
        let lens = self.lens()?;
        if idx.len() != self.upper.len() {
            return Err(format!(
                "{} indices for an upper rank of {}",
                idx.len(),
                self.upper.len()
            ));
        }
        let mut valid = idx
            .iter()
            .zip(&self.upper)
            .all(|(i, l)| (0..*l).contains(i));
        let mut cur = idx.to_vec();
        let mut cur_lens = self.upper.clone();
        for (stage, low_lens) in self.stages.iter().zip(&lens) {
            let mut next = vec![0; low_lens.len()];
            for s in stage {
                let up: Vec<i64> = s.upper.iter().map(|d| cur[*d]).collect();
                let ul: Vec<i64> = s.upper.iter().map(|d| cur_lens[*d]).collect();
                let ll: Vec<i64> = s.lower.iter().map(|d| low_lens[*d]).collect();
                let (low, ok) = s.t.apply(&up, &ul, &ll);
                valid &= ok;
                for (d, v) in s.lower.iter().zip(low) {
                    next[*d] = v;
                }
            }
            cur = next;
            cur_lens = low_lens.clone();
        }
        Ok((row_major_offset(&cur_lens, &cur), valid))
    }

    /// `self` viewed through `top`, whose lower space is `self`'s upper one.
    pub fn compose(&self, top: &Desc) -> Result<Desc, String> {
        let top_lower = top.lower()?;
        if top_lower != self.upper {
            return Err(format!(
                "a view with lower lengths {top_lower:?} cannot sit on a descriptor with upper lengths {:?}",
                self.upper
            ));
        }
        let mut stages = top.stages.clone();
        stages.extend(self.stages.iter().cloned());
        Ok(Desc {
            upper: top.upper.clone(),
            stages,
        })
    }

    /// The transpose view: upper dim `i` is lower dim `perm[i]` (as
    /// `graph.transpose` with `perm`, seen from its result).
    pub fn transpose(lower: &[i64], perm: &[usize]) -> Desc {
        Desc {
            upper: perm.iter().map(|p| lower[*p]).collect(),
            stages: vec![
                perm.iter()
                    .enumerate()
                    .map(|(i, p)| Step {
                        t: Transform::Pass,
                        upper: vec![i],
                        lower: vec![*p],
                    })
                    .collect(),
            ],
        }
    }

    /// The window `[begin, begin + len)` of each dim of a tensor of `lower`.
    pub fn slice(lower: &[i64], begin: &[i64], len: &[i64]) -> Desc {
        Desc {
            upper: len.to_vec(),
            stages: vec![
                (0..lower.len())
                    .map(|i| Step {
                        t: Transform::Slice {
                            begin: begin[i],
                            len: lower[i],
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// A tensor of `lower` broadcast to `upper`, lower dim `i` being upper
    /// dim `dims[i]` (as `graph.broadcast`); the other upper dims repeat.
    pub fn broadcast(lower: &[i64], upper: &[i64], dims: &[usize]) -> Desc {
        let steps = (0..upper.len())
            .map(|u| match dims.iter().position(|d| *d == u) {
                // A size-1 dim stretched is a broadcast of it plus a frozen 0.
                Some(i) if lower[i] == upper[u] => Step {
                    t: Transform::Pass,
                    upper: vec![u],
                    lower: vec![i],
                },
                _ => Step {
                    t: Transform::Broadcast,
                    upper: vec![u],
                    lower: vec![],
                },
            })
            .chain(
                dims.iter()
                    .enumerate()
                    .filter(|(i, d)| lower[*i] != upper[**d])
                    .map(|(i, _)| Step {
                        t: Transform::Freeze { value: 0, len: 1 },
                        upper: vec![],
                        lower: vec![i],
                    }),
            )
            .collect();
        Desc {
            upper: upper.to_vec(),
            stages: vec![steps],
        }
    }

    /// A strided slice (as `graph.slice`): upper index `u` of dim `i` reads
    /// `start[i] + u * strides[i]` of a tensor of `lower`.
    pub fn strided_slice(lower: &[i64], start: &[i64], limit: &[i64], strides: &[i64]) -> Desc {
        let upper: Vec<i64> = (0..lower.len())
            .map(|i| (limit[i] - start[i] + strides[i] - 1) / strides[i])
            .collect();
        Desc {
            upper,
            stages: vec![
                (0..lower.len())
                    .map(|i| Step {
                        t: Transform::Embed {
                            len: lower[i],
                            strides: vec![strides[i]],
                            offset: start[i],
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// One input of a concatenation along `axis`, seen from the result of
    /// length `total` there: valid where the input lies (from `before`),
    /// padding elsewhere, so a kernel reads each input through its own view.
    pub fn concat_part(part: &[i64], axis: usize, before: i64, total: i64) -> Desc {
        let mut upper = part.to_vec();
        upper[axis] = total;
        Desc {
            upper,
            stages: vec![
                (0..part.len())
                    .map(|i| Step {
                        t: if i == axis {
                            Transform::Pad {
                                lo: before,
                                hi: total - before - part[i],
                            }
                        } else {
                            Transform::Pass
                        },
                        upper: vec![i],
                        lower: vec![i],
                    })
                    .collect(),
            ],
        }
    }

    /// A tensor of `lower` read as `upper` (same element count, row-major).
    pub fn reshape(lower: &[i64], upper: &[i64]) -> Desc {
        // A scalar side has no dims to unmerge or merge: its one element
        // is the frozen index 0, or a dropped dim of length 1.
        let linear = if upper.is_empty() {
            Step {
                t: Transform::Freeze { value: 0, len: 1 },
                upper: vec![],
                lower: vec![0],
            }
        } else {
            Step {
                t: Transform::Unmerge,
                upper: (0..upper.len()).collect(),
                lower: vec![0],
            }
        };
        let split = if lower.is_empty() {
            Step {
                t: Transform::Broadcast,
                upper: vec![0],
                lower: vec![],
            }
        } else {
            Step {
                t: Transform::Merge {
                    lens: lower.to_vec(),
                },
                upper: vec![0],
                lower: (0..lower.len()).collect(),
            }
        };
        Desc {
            upper: upper.to_vec(),
            stages: vec![vec![linear], vec![split]],
        }
    }

    /// The A matrix of group `g` of a 2-d convolution as an implicit GEMM
    /// over its input buffer (no im2col): rows are output pixels `(n, ho,
    /// wo)`, columns filter taps `(kh, kw, c)` of the group's channels;
    /// padding reads as invalid (zero).
    pub fn conv_a(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_a_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// [`Desc::conv_a`] as a view of the input's logical 4-d index (not
    /// yet its buffer), for inputs computed on the fly.
    pub fn conv_a_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[0], g)
    }

    /// The convolution's A, B and C as views over every group at once,
    /// each with a leading group index: `[G, M, K]` over the input, `[G, K,
    /// N]` over the filter, `[G, M, N]` over the output (a batched implicit
    /// GEMM; group `g`'s channels are `g * C/G ..`).
    pub fn conv_views(conv: &Conv) -> [Desc; 3] {
        let [n, h, w, c] = conv.nhwc();
        let [kh, kw] = conv.filter;
        let [ho, wo] = conv.out();
        let groups = conv.groups;
        let (cg, kg) = (c / groups, conv.out_channels / groups);
        let [ph, pw] = [
            h + conv.pads[0] + conv.pads[1],
            w + conv.pads[2] + conv.pads[3],
        ];
        // Lower dims in the buffer's order.
        let (dn, dh, dw, dc) = if conv.nchw {
            (0, 2, 3, 1)
        } else {
            (0, 1, 2, 3)
        };
        let a = Desc {
            upper: vec![groups, n * ho * wo, kh * kw * cg],
            stages: vec![
                // [g, m, k] -> [n, ho, wo, kh, kw, c, g]
                vec![
                    step(
                        Transform::Merge {
                            lens: vec![n, ho, wo],
                        },
                        &[1],
                        &[0, 1, 2],
                    ),
                    step(
                        Transform::Merge {
                            lens: vec![kh, kw, cg],
                        },
                        &[2],
                        &[3, 4, 5],
                    ),
                    step(Transform::Pass, &[0], &[6]),
                ],
                // -> [n, padded row, padded column, channel]
                vec![
                    step(Transform::Pass, &[0], &[0]),
                    step(
                        embed(ph, &[conv.strides[0], conv.dilations[0]], 0),
                        &[1, 3],
                        &[1],
                    ),
                    step(
                        embed(pw, &[conv.strides[1], conv.dilations[1]], 0),
                        &[2, 4],
                        &[2],
                    ),
                    step(embed(c, &[cg, 1], 0), &[6, 5], &[3]),
                ],
                // -> the buffer's dims
                vec![
                    step(Transform::Pass, &[0], &[dn]),
                    step(
                        Transform::Pad {
                            lo: conv.pads[0],
                            hi: conv.pads[1],
                        },
                        &[1],
                        &[dh],
                    ),
                    step(
                        Transform::Pad {
                            lo: conv.pads[2],
                            hi: conv.pads[3],
                        },
                        &[2],
                        &[dw],
                    ),
                    step(Transform::Pass, &[3], &[dc]),
                ],
            ],
        };
        let b_dims = if conv.nchw {
            [2, 3, 1, 0]
        } else {
            [0, 1, 2, 3]
        };
        let c_dims = if conv.nchw {
            [0, 2, 3, 1]
        } else {
            [0, 1, 2, 3]
        };
        [
            a,
            Desc::channel_view([kh, kw, cg], b_dims, conv.out_channels, kg),
            Desc::channel_view([n, ho, wo], c_dims, conv.out_channels, kg),
        ]
    }

    /// Group `g`'s slice `[M, K]` of a view `[G, M, K]` (the group index
    /// frozen; simplification folds it into offsets).
    fn pick_group(grouped: &Desc, g: i64) -> Desc {
        let top = Desc {
            upper: grouped.upper[1..].to_vec(),
            stages: vec![vec![
                step(
                    Transform::Freeze {
                        value: g,
                        len: grouped.upper[0],
                    },
                    &[],
                    &[0],
                ),
                step(Transform::Pass, &[0], &[1]),
                step(Transform::Pass, &[1], &[2]),
            ]],
        };
        grouped
            .compose(&top)
            .expect("lengths agree by construction")
            .simplify()
    }

    /// The B matrix of group `g`: rows filter taps `(kh, kw, c)`, columns
    /// the group's output channels, over the filter buffer (HWIO for NHWC,
    /// OIHW for NCHW).
    pub fn conv_b(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_b_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// [`Desc::conv_b`] as a view of the filter's logical 4-d index.
    pub fn conv_b_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[1], g)
    }

    /// The C matrix of group `g`: rows output pixels, columns the group's
    /// output channels, over the output buffer.
    pub fn conv_c(conv: &Conv, g: i64) -> Desc {
        let v = Desc::conv_c_view(conv, g);
        let shape = v.lower().expect("lengths agree by construction");
        v.compose_onto(&Desc::row_major(&shape))
    }

    /// The C matrix of group `g` as a view of the output's logical 4-d
    /// index (not yet its buffer): what epilogue operands of the output's
    /// shape compose with.
    pub fn conv_c_view(conv: &Conv, g: i64) -> Desc {
        Desc::pick_group(&Desc::conv_views(conv)[2], g)
    }

    /// A matrix over a 4-d tensor whose rows merge three of its dims (of
    /// lengths `rows`, at dims `dims[..3]`) and whose `kg` columns are
    /// channels `first..first + kg` of its channel dim `dims[3]` (of
    /// `channels`): the convolution's B and C, as views.
    fn channel_view(rows: [i64; 3], dims: [usize; 4], channels: i64, kg: i64) -> Desc {
        Desc {
            upper: vec![channels / kg, rows.iter().product(), kg],
            stages: vec![vec![
                step(
                    Transform::Merge {
                        lens: rows.to_vec(),
                    },
                    &[1],
                    &dims[..3],
                ),
                step(embed(channels, &[kg, 1], 0), &[0, 2], &[dims[3]]),
            ]],
        }
    }

    /// `self` on top of `bottom` (see [`Desc::compose`]), for builders whose
    /// lengths are right by construction.
    fn compose_onto(self, bottom: &Desc) -> Desc {
        bottom
            .compose(&self)
            .expect("lengths agree by construction")
    }
}

// ---- simplification --------------------------------------------------------

impl Desc {
    /// An equal descriptor with fewer or cheaper transforms: trivial
    /// transforms become pass-throughs, frozen dims fold into the strides
    /// that read them, a merge undone by an unmerge (or the reverse)
    /// cancels, stages that only rename dims fold into the next, and
    /// identity stages go.
    pub fn simplify(&self) -> Desc {
        let mut d = self.clone();
        let Ok(lens) = d.lens() else {
            return d;
        };
        // Trivial transforms.
        let mut ups = vec![d.upper.clone()];
        ups.extend(lens.iter().cloned());
        for (k, stage) in d.stages.iter_mut().enumerate() {
            for s in stage.iter_mut() {
                let ul: Vec<i64> = s.upper.iter().map(|i| ups[k][*i]).collect();
                let trivial = match &s.t {
                    Transform::Pad { lo: 0, hi: 0 } => true,
                    Transform::Slice { begin: 0, len } => ul[0] == *len,
                    Transform::Embed {
                        len,
                        strides,
                        offset: 0,
                    } => strides == &[1] && ul[0] == *len,
                    Transform::Merge { lens } => lens.len() == 1,
                    Transform::Unmerge => s.upper.len() == 1,
                    _ => false,
                };
                if trivial {
                    s.t = Transform::Pass;
                }
                if let Transform::Vectorize { .. } = s.t {
                    s.t = Transform::Unmerge;
                }
            }
        }
        loop {
            let before = d.clone();
            d.fold_frozen();
            d.cancel_merges();
            d.fold_renames();
            d.sort_embeds();
            if d == before {
                break;
            }
        }
        d
    }

    /// An embed's terms in the order of the dims they read (a sum does not
    /// depend on it): one text per descriptor.
    fn sort_embeds(&mut self) {
        for s in self.stages.iter_mut().flatten() {
            if let Transform::Embed { strides, .. } = &mut s.t {
                let mut terms: Vec<(usize, i64)> = s
                    .upper
                    .iter()
                    .copied()
                    .zip(strides.iter().copied())
                    .collect();
                terms.sort_unstable();
                s.upper = terms.iter().map(|t| t.0).collect();
                *strides = terms.iter().map(|t| t.1).collect();
            }
        }
    }

    /// A dim frozen in one stage and read by an embed in the next becomes
    /// part of the embed's offset; one passed through the next stage is
    /// frozen there instead.
    fn fold_frozen(&mut self) {
        for k in 0..self.stages.len().saturating_sub(1) {
            while let Some((i, dim, t, r)) = self.stages[k].iter().enumerate().find_map(|(i, s)| {
                let Transform::Freeze { .. } = s.t else {
                    return None;
                };
                let dim = s.lower[0];
                let r = self.stages[k + 1]
                    .iter()
                    .position(|n| matches!(n.t, Transform::Pass) && n.upper == [dim])?;
                Some((i, dim, s.t.clone(), r))
            }) {
                let y = self.stages[k + 1][r].lower[0];
                self.stages[k + 1][r] = Step {
                    t,
                    upper: Vec::new(),
                    lower: vec![y],
                };
                self.stages[k].remove(i);
                self.drop_dim(k, dim);
            }
            // One at a time: folding renumbers the dims after it.
            while let Some((dim, value, r)) = self.stages[k].iter().find_map(|s| {
                let Transform::Freeze { value, .. } = s.t else {
                    return None;
                };
                let dim = s.lower[0];
                let r = self.stages[k + 1].iter().position(|n| {
                    matches!(n.t, Transform::Embed { .. })
                        && n.upper.contains(&dim)
                        && n.upper.len() > 1
                })?;
                Some((dim, value, r))
            }) {
                let s = &mut self.stages[k + 1][r];
                let at = s.upper.iter().position(|d| *d == dim).expect("read");
                if let Transform::Embed {
                    strides, offset, ..
                } = &mut s.t
                {
                    *offset += value * strides[at];
                    strides.remove(at);
                }
                s.upper.remove(at);
                self.stages[k]
                    .retain(|s| !(matches!(s.t, Transform::Freeze { .. }) && s.lower == [dim]));
                self.drop_dim(k, dim);
            }
        }
    }

    /// Remove lower dim `dim` of stage `k` (no longer written or read),
    /// renumbering the dims above it.
    fn drop_dim(&mut self, k: usize, dim: usize) {
        let shift = |d: &mut usize| {
            if *d > dim {
                *d -= 1;
            }
        };
        for s in self.stages[k].iter_mut() {
            s.lower.iter_mut().for_each(shift);
        }
        if let Some(next) = self.stages.get_mut(k + 1) {
            for s in next.iter_mut() {
                s.upper.iter_mut().for_each(shift);
            }
        }
    }

    /// `merge<lens> [a] -> [b..]` followed by `unmerge [b..] -> [c]` over the
    /// same dims in order is `pass [a] -> [c]`; `unmerge [x..] -> [m]`
    /// followed by `merge<lens> [m] -> [y..]`, the lens being the x's
    /// lengths, is `pass` of each `x` to its `y`.
    fn cancel_merges(&mut self) {
        for k in 0..self.stages.len().saturating_sub(1) {
            let Ok(lens) = self.lens() else { return };
            let ups = if k == 0 {
                self.upper.clone()
            } else {
                lens[k - 1].clone()
            };
            let found = self.stages[k].iter().enumerate().find_map(|(i, s)| {
                let j = self.stages[k + 1].iter().position(|n| {
                    n.upper == s.lower
                        && match (&s.t, &n.t) {
                            (Transform::Merge { .. }, Transform::Unmerge) => true,
                            (Transform::Unmerge, Transform::Merge { lens }) => {
                                s.upper.iter().map(|d| ups[*d]).collect::<Vec<_>>() == *lens
                            }
                            _ => false,
                        }
                })?;
                Some((i, j))
            });
            let Some((i, j)) = found else { continue };
            let (s, n) = (self.stages[k][i].clone(), self.stages[k + 1][j].clone());
            let pass = |u: usize, l: usize| Step {
                t: Transform::Pass,
                upper: vec![u],
                lower: vec![l],
            };
            if let Transform::Merge { .. } = s.t {
                self.stages[k][i] = pass(s.upper[0], s.lower[0]);
                self.stages[k + 1][j] = pass(s.lower[0], n.lower[0]);
                let mut gone: Vec<usize> = s.lower[1..].to_vec();
                gone.sort_unstable();
                for d in gone.into_iter().rev() {
                    self.drop_dim(k, d);
                }
            } else {
                // New dims at the end of stage k's lower coordinate.
                let width = lens[k].len();
                let mids: Vec<usize> = (0..s.upper.len())
                    .map(|t| if t == 0 { s.lower[0] } else { width + t - 1 })
                    .collect();
                self.stages[k].remove(i);
                for (u, m) in s.upper.iter().zip(&mids) {
                    self.stages[k].push(pass(*u, *m));
                }
                self.stages[k + 1].remove(j);
                for (m, y) in mids.iter().zip(&n.lower) {
                    self.stages[k + 1].push(pass(*m, *y));
                }
            }
        }
    }

    /// A stage of pass-throughs only renames dims: fold it into the next
    /// stage (or, last, into the one before), dropping identity stages.
    fn fold_renames(&mut self) {
        let mut k = 0;
        while k < self.stages.len() {
            let renames = self.stages[k].iter().all(|s| s.t == Transform::Pass);
            if !renames {
                k += 1;
                continue;
            }
            let map: Vec<(usize, usize)> = self.stages[k]
                .iter()
                .map(|s| (s.upper[0], s.lower[0]))
                .collect();
            let identity = map.iter().all(|(u, l)| u == l);
            if k + 1 < self.stages.len() {
                // Next stage reads lower dim l: read upper dim u instead.
                for s in self.stages[k + 1].iter_mut() {
                    for d in s.upper.iter_mut() {
                        *d = map.iter().find(|(_, l)| l == d).map_or(*d, |(u, _)| *u);
                    }
                }
                self.stages.remove(k);
            } else if k > 0 {
                for s in self.stages[k - 1].iter_mut() {
                    for d in s.lower.iter_mut() {
                        *d = map.iter().find(|(u, _)| u == d).map_or(*d, |(_, l)| *l);
                    }
                }
                self.stages.remove(k);
            } else if identity {
                self.stages.remove(k);
            } else {
                k += 1;
            }
        }
    }
}

// ---- text --------------------------------------------------------------------

fn list(v: &[impl fmt::Display]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Desc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", list(&self.upper))?;
        for stage in &self.stages {
            f.write_str(" |")?;
            for (i, s) in stage.iter().enumerate() {
                f.write_str(if i == 0 { " " } else { ", " })?;
                f.write_str(s.t.name())?;
                let params: Vec<String> = match &s.t {
                    Transform::Pad { lo, hi } => vec![lo.to_string(), hi.to_string()],
                    Transform::Slice { begin, len } => vec![begin.to_string(), len.to_string()],
                    Transform::Embed {
                        len,
                        strides,
                        offset,
                    } => {
                        let mut p: Vec<String> = strides.iter().map(|x| x.to_string()).collect();
                        match p.first_mut() {
                            Some(first) => *first = format!("{len}: {first}"),
                            None => p.push(format!("{len}:")),
                        }
                        if *offset != 0 {
                            p.push(format!("+{offset}"));
                        }
                        p
                    }
                    Transform::Merge { lens } => lens.iter().map(|x| x.to_string()).collect(),
                    Transform::Vectorize { width } => vec![width.to_string()],
                    Transform::Freeze { value, len } => vec![value.to_string(), len.to_string()],
                    _ => Vec::new(),
                };
                if !params.is_empty() {
                    write!(f, "<{}>", params.join(", "))?;
                }
                write!(f, " [{}] -> [{}]", list(&s.upper), list(&s.lower))?;
            }
        }
        Ok(())
    }
}

/// A small reader over descriptor text.
struct Reader<'a> {
    s: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s[self.at..].starts_with(char::is_whitespace) {
            self.at += self.s[self.at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.s[self.at..].starts_with(t) {
            self.at += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<(), String> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected '{t}' at column {}", self.at + 1))
        }
    }
    fn word(&mut self) -> &str {
        self.ws();
        let start = self.at;
        while self.s[self.at..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        &self.s[start..self.at]
    }
    fn int(&mut self) -> Result<i64, String> {
        self.ws();
        let start = self.at;
        if self.s[self.at..].starts_with(['-', '+']) {
            self.at += 1;
        }
        while self.s[self.at..].starts_with(|c: char| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.s[start..self.at]
            .parse()
            .map_err(|_| format!("expected an integer at column {}", start + 1))
    }
    fn ints(&mut self, open: &str, close: &str) -> Result<Vec<i64>, String> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.int()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }
    fn dims(&mut self) -> Result<Vec<usize>, String> {
        self.ints("[", "]")?
            .into_iter()
            .map(|d| usize::try_from(d).map_err(|_| format!("dim {d} is negative")))
            .collect()
    }
}

impl std::str::FromStr for Desc {
    type Err = String;

    /// Read a descriptor's text (see the module docs); the lengths are not
    /// checked here (see [`Desc::lens`]).
    fn from_str(s: &str) -> Result<Desc, String> {
        let mut r = Reader { s, at: 0 };
        let upper = r.ints("[", "]")?;
        let mut stages = Vec::new();
        while r.eat("|") {
            let mut stage = Vec::new();
            loop {
                let name = r.word().to_string();
                // `embed<len: strides.., +offset>` has its lower length first.
                let mut embed_len = None;
                let params = if r.s[r.at..].trim_start().starts_with('<') {
                    if name == "embed" {
                        r.expect("<")?;
                        embed_len = Some(r.int()?);
                        r.expect(":")?;
                        let mut v = Vec::new();
                        if !r.eat(">") {
                            v.push(r.int()?);
                            while r.eat(",") {
                                v.push(r.int()?);
                            }
                            r.expect(">")?;
                        }
                        v
                    } else {
                        r.ints("<", ">")?
                    }
                } else {
                    Vec::new()
                };
                let upper_dims = r.dims()?;
                r.expect("->")?;
                let lower_dims = r.dims()?;
                let n = params.len();
                let need = |k: usize| -> Result<(), String> {
                    if n == k {
                        Ok(())
                    } else {
                        Err(format!("{name} takes {k} parameters, not {n}"))
                    }
                };
                let t = match name.as_str() {
                    "pass" => need(0).map(|_| Transform::Pass)?,
                    "pad" => need(2).map(|_| Transform::Pad {
                        lo: params[0],
                        hi: params[1],
                    })?,
                    "slice" => need(2).map(|_| Transform::Slice {
                        begin: params[0],
                        len: params[1],
                    })?,
                    "embed" => {
                        let len = embed_len.ok_or("embed takes <len: strides>")?;
                        // A trailing parameter written `+k` is the offset.
                        let text = &r.s[..r.at];
                        let has_offset = text.rfind('<').is_some_and(|i| text[i..].contains('+'));
                        let (strides, offset) = if has_offset && n > 1 {
                            (params[..n - 1].to_vec(), params[n - 1])
                        } else {
                            (params.clone(), 0)
                        };
                        Transform::Embed {
                            len,
                            strides,
                            offset,
                        }
                    }
                    "merge" => Transform::Merge { lens: params },
                    "unmerge" => need(0).map(|_| Transform::Unmerge)?,
                    "vectorize" => need(1).map(|_| Transform::Vectorize { width: params[0] })?,
                    "freeze" => need(2).map(|_| Transform::Freeze {
                        value: params[0],
                        len: params[1],
                    })?,
                    "broadcast" => need(0).map(|_| Transform::Broadcast)?,
                    "" => return Err(format!("expected a transform at column {}", r.at + 1)),
                    other => {
                        return Err(format!(
                            "unknown transform '{other}' (pass, pad, slice, embed, merge, unmerge, vectorize, freeze, broadcast)"
                        ));
                    }
                };
                stage.push(Step {
                    t,
                    upper: upper_dims,
                    lower: lower_dims,
                });
                if !r.eat(",") {
                    break;
                }
            }
            stages.push(stage);
        }
        r.ws();
        if r.at != s.len() {
            return Err(format!(
                "unexpected '{}' at column {}",
                &s[r.at..],
                r.at + 1
            ));
        }
        Ok(Desc { upper, stages })
    }
}

/// Random descriptors, for property tests here and in the passes that lower
/// them.
pub mod sample {
    use super::{Desc, Step, Transform};

    /// A deterministic pseudo-random source.
    pub struct Rng(pub u64);

    impl Rng {
        /// A number in `0..n`.
        pub fn next(&mut self, n: u64) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) % n.max(1)) as i64
        }
    }

    /// A random view stage on top of upper lengths `cur`: each dim passed,
    /// padded, sliced, frozen, split (unmerge or embed), merged with the
    /// next, or broadcast beside; the result shuffled. Returns the stage and
    /// the new upper lengths.
    fn random_stage(r: &mut Rng, cur: &[i64]) -> (Vec<Step>, Vec<i64>) {
        let mut steps = Vec::new();
        let mut new: Vec<i64> = Vec::new();
        let mut d = 0;
        while d < cur.len() {
            let l = cur[d];
            let pick = r.next(9);
            let mut push = |t: Transform, lens: Vec<i64>, lower: Vec<usize>, new: &mut Vec<i64>| {
                let upper: Vec<usize> = (new.len()..new.len() + lens.len()).collect();
                new.extend(lens);
                steps.push(Step { t, upper, lower });
            };
            match pick {
                1 => {
                    let (lo, hi) = (r.next(3), r.next(3));
                    push(
                        Transform::Pad { lo, hi },
                        vec![l + lo + hi],
                        vec![d],
                        &mut new,
                    );
                }
                2 if l > 1 => {
                    let begin = r.next(l as u64);
                    let len = 1 + r.next((l - begin) as u64);
                    push(
                        Transform::Slice { begin, len: l },
                        vec![len],
                        vec![d],
                        &mut new,
                    );
                }
                3 if cur.len() > 1 => {
                    push(
                        Transform::Freeze {
                            value: r.next(l as u64),
                            len: l,
                        },
                        vec![],
                        vec![d],
                        &mut new,
                    );
                }
                4 if l % 2 == 0 && l > 2 => {
                    push(Transform::Unmerge, vec![l / 2, 2], vec![d], &mut new);
                }
                5 => {
                    // Two upper dims strided into this one.
                    let b = 1 + r.next(l.min(3) as u64);
                    let a = 1 + r.next((l / b).min(3) as u64);
                    let (s1, s0) = (1, b);
                    let offset = r.next((l - a * b + 1) as u64);
                    push(
                        Transform::Embed {
                            len: l,
                            strides: vec![s0, s1],
                            offset,
                        },
                        vec![a, b],
                        vec![d],
                        &mut new,
                    );
                }
                6 if d + 1 < cur.len() => {
                    let lens = vec![l, cur[d + 1]];
                    push(
                        Transform::Merge { lens: lens.clone() },
                        vec![l * cur[d + 1]],
                        vec![d, d + 1],
                        &mut new,
                    );
                    d += 1;
                }
                7 => {
                    push(Transform::Pass, vec![l], vec![d], &mut new);
                    push(Transform::Broadcast, vec![1 + r.next(3)], vec![], &mut new);
                }
                8 if l % 2 == 0 => {
                    push(
                        Transform::Vectorize { width: 2 },
                        vec![l / 2, 2],
                        vec![d],
                        &mut new,
                    );
                }
                _ => push(Transform::Pass, vec![l], vec![d], &mut new),
            }
            d += 1;
        }
        if new.is_empty() {
            new.push(1);
            steps.push(Step {
                t: Transform::Broadcast,
                upper: vec![0],
                lower: vec![],
            });
        }
        // Shuffle the new dims.
        let mut perm: Vec<usize> = (0..new.len()).collect();
        for i in (1..perm.len()).rev() {
            let j = r.next(i as u64 + 1) as usize;
            perm.swap(i, j);
        }
        for s in steps.iter_mut() {
            for u in s.upper.iter_mut() {
                *u = perm[*u];
            }
        }
        let mut lens = vec![0; new.len()];
        for (i, l) in new.iter().enumerate() {
            lens[perm[i]] = *l;
        }
        (steps, lens)
    }

    /// A random valid descriptor: a row-major buffer under up to three random
    /// view stages.
    pub fn random_desc(r: &mut Rng) -> Desc {
        let rank = 1 + r.next(3) as usize;
        let shape: Vec<i64> = (0..rank).map(|_| 1 + r.next(4)).collect();
        let mut d = Desc::row_major(&shape);
        for _ in 0..r.next(4) {
            let (stage, upper) = random_stage(r, &d.upper);
            d.stages.insert(0, stage);
            d.upper = upper;
            if d.upper.iter().product::<i64>() > 4000 {
                break;
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::sample::{Rng, random_desc};
    use super::*;

    /// A materialised view: the offset (or -1 where invalid) at every index
    /// of a labelled shape, built from the buffer up, one transform at a
    /// time, by moving data rather than composing index formulas.
    #[derive(Clone)]
    struct Arr {
        labels: Vec<(bool, usize)>,
        shape: Vec<usize>,
        data: Vec<i64>,
    }

    impl Arr {
        fn index_of(shape: &[usize], idx: &[usize]) -> usize {
            idx.iter().zip(shape).fold(0, |a, (i, l)| a * l + i)
        }

        fn each(shape: &[usize]) -> Vec<Vec<usize>> {
            let n: usize = shape.iter().product();
            (0..n)
                .map(|mut k| {
                    let mut idx = vec![0; shape.len()];
                    for i in (0..shape.len()).rev() {
                        idx[i] = k % shape[i];
                        k /= shape[i];
                    }
                    idx
                })
                .collect()
        }

        /// A new array whose element at each new index is the old element
        /// `from` names (or -1 for none).
        fn remap(
            &self,
            labels: Vec<(bool, usize)>,
            shape: Vec<usize>,
            from: impl Fn(&[usize]) -> Option<Vec<usize>>,
        ) -> Arr {
            let data = Arr::each(&shape)
                .iter()
                .map(|i| match from(i) {
                    Some(o) => self.data[Arr::index_of(&self.shape, &o)],
                    None => -1,
                })
                .collect();
            Arr {
                labels,
                shape,
                data,
            }
        }

        fn axis(&self, label: (bool, usize)) -> usize {
            self.labels.iter().position(|l| *l == label).expect("label")
        }
    }

    /// The reference: every upper index's offset, or -1.
    fn naive(d: &Desc) -> Vec<i64> {
        let lens = d.lens().expect("valid");
        let bottom = lens.last().cloned().unwrap_or_else(|| d.upper.clone());
        let shape: Vec<usize> = bottom.iter().map(|l| *l as usize).collect();
        let n: usize = shape.iter().product();
        let mut a = Arr {
            labels: (0..shape.len()).map(|i| (false, i)).collect(),
            shape,
            data: (0..n as i64).collect(),
        };
        for (k, stage) in d.stages.iter().enumerate().rev() {
            let ups: Vec<i64> = if k == 0 {
                d.upper.clone()
            } else {
                lens[k - 1].clone()
            };
            for s in stage {
                let ul: Vec<usize> = s.upper.iter().map(|u| ups[*u] as usize).collect();
                // The array's axes after this step: the lower axes this step
                // reads are replaced by its upper axes (appended).
                let mut labels: Vec<(bool, usize)> = a
                    .labels
                    .iter()
                    .copied()
                    .filter(|l| l.0 || !s.lower.contains(&l.1))
                    .collect();
                let keep = labels.clone();
                labels.extend(s.upper.iter().map(|u| (true, *u)));
                let mut shape: Vec<usize> = keep.iter().map(|l| a.shape[a.axis(*l)]).collect();
                shape.extend(ul.iter().copied());
                let lower_axes: Vec<usize> = s.lower.iter().map(|l| a.axis((false, *l))).collect();
                let low_lens: Vec<usize> = lower_axes.iter().map(|x| a.shape[*x]).collect();
                let kept_axes: Vec<usize> = keep.iter().map(|l| a.axis(*l)).collect();
                let rank = a.shape.len();
                let t = s.t.clone();
                let src = a.clone();
                a = src.remap(labels, shape, |i| {
                    let (kept, up) = i.split_at(kept_axes.len());
                    let up: Vec<i64> = up.iter().map(|x| *x as i64).collect();
                    let low: Vec<i64> = match &t {
                        Transform::Pass => vec![up[0]],
                        Transform::Pad { lo, .. } => vec![up[0] - lo],
                        Transform::Slice { begin, .. } => vec![up[0] + begin],
                        Transform::Embed {
                            strides, offset, ..
                        } => {
                            vec![offset + up.iter().zip(strides).map(|(u, s)| u * s).sum::<i64>()]
                        }
                        Transform::Merge { lens } => {
                            // Row-major split of one index.
                            let mut r = up[0];
                            let mut v = vec![0; lens.len()];
                            for j in (0..lens.len()).rev() {
                                v[j] = r % lens[j];
                                r /= lens[j];
                            }
                            v
                        }
                        Transform::Unmerge | Transform::Vectorize { .. } => {
                            vec![
                                up.iter()
                                    .zip(&ul)
                                    .fold(0, |acc, (u, l)| acc * *l as i64 + u),
                            ]
                        }
                        Transform::Freeze { value, .. } => vec![*value],
                        Transform::Broadcast => vec![],
                    };
                    let mut old = vec![0; rank];
                    for (x, v) in kept_axes.iter().zip(kept) {
                        old[*x] = *v;
                    }
                    for ((x, v), l) in lower_axes.iter().zip(&low).zip(&low_lens) {
                        if !(0..*l as i64).contains(v) {
                            return None;
                        }
                        old[*x] = *v as usize;
                    }
                    Some(old)
                });
            }
            // The stage's upper axes become the next stage's lower axes.
            for l in a.labels.iter_mut() {
                *l = (false, l.1);
            }
        }
        let order: Vec<usize> = (0..d.upper.len()).map(|u| a.axis((false, u))).collect();
        let up: Vec<usize> = d.upper.iter().map(|l| *l as usize).collect();
        Arr::each(&up)
            .iter()
            .map(|i| {
                let mut old = vec![0; a.shape.len()];
                for (u, x) in order.iter().enumerate() {
                    old[*x] = i[u];
                }
                a.data[Arr::index_of(&a.shape, &old)]
            })
            .collect()
    }

    /// Every upper index's offset by the descriptor, or -1 where invalid.
    fn by_desc(d: &Desc) -> Vec<i64> {
        let up: Vec<usize> = d.upper.iter().map(|l| *l as usize).collect();
        Arr::each(&up)
            .iter()
            .map(|i| {
                let i: Vec<i64> = i.iter().map(|x| *x as i64).collect();
                match d.offset(&i) {
                    Some((o, true)) => o,
                    Some((_, false)) => -1,
                    None => panic!("index inside the upper space"),
                }
            })
            .collect()
    }

    #[test]
    fn descriptors_agree_with_materialised_views() {
        let mut r = Rng(7);
        for case in 0..400 {
            let d = random_desc(&mut r);
            d.lens().unwrap_or_else(|e| panic!("case {case}: {d}: {e}"));
            assert_eq!(by_desc(&d), naive(&d), "case {case}: {d}");
        }
    }

    #[test]
    fn simplification_keeps_every_offset_and_validity() {
        let mut r = Rng(11);
        let mut shorter = 0;
        for case in 0..400 {
            let d = random_desc(&mut r);
            let s = d.simplify();
            s.lens()
                .unwrap_or_else(|e| panic!("case {case}: {d} simplified to {s}: {e}"));
            assert_eq!(
                by_desc(&s),
                by_desc(&d),
                "case {case}: {d} simplified to {s}"
            );
            let count = |d: &Desc| d.stages.iter().map(Vec::len).sum::<usize>();
            if count(&s) < count(&d) {
                shorter += 1;
            }
        }
        assert!(
            shorter > 50,
            "simplification rarely did anything ({shorter})"
        );
    }

    #[test]
    fn reshapes_to_and_from_a_scalar() {
        // [1, 1] read as a scalar and a scalar read as [1]: one element at 0.
        let to_scalar = Desc::row_major(&[1, 1])
            .compose(&Desc::reshape(&[1, 1], &[]))
            .unwrap();
        assert_eq!(to_scalar.lower().unwrap(), vec![1]);
        assert_eq!(to_scalar.locate(&[]).unwrap(), (0, true));
        let from_scalar = Desc::row_major(&[])
            .compose(&Desc::reshape(&[], &[1]))
            .unwrap();
        assert_eq!(from_scalar.locate(&[0]).unwrap(), (0, true));
        assert_eq!(from_scalar.simplify().locate(&[0]).unwrap(), (0, true));
    }

    #[test]
    fn text_round_trips() {
        let mut r = Rng(3);
        for _ in 0..200 {
            let d = random_desc(&mut r);
            let back: Desc = d.to_string().parse().unwrap_or_else(|e| panic!("{d}: {e}"));
            assert_eq!(back, d);
        }
    }

    #[test]
    fn simplification_rules() {
        let s = |t: &str| t.parse::<Desc>().unwrap().simplify().to_string();
        // merge then unmerge of the same dims cancels; identity stages go.
        assert_eq!(
            s("[12] | merge<3, 4> [0] -> [0, 1] | unmerge [0, 1] -> [0]"),
            "[12]"
        );
        // unmerge then merge back to the same lengths cancels.
        assert_eq!(
            s(
                "[3, 4] | unmerge [0, 1] -> [0] | merge<3, 4> [0] -> [0, 1] | embed<12: 4, 1> [0, 1] -> [0]"
            ),
            "[3, 4] | embed<12: 4, 1> [0, 1] -> [0]"
        );
        // A transpose stage folds into the embed it feeds.
        assert_eq!(
            s("[4, 3] | pass [0] -> [1], pass [1] -> [0] | embed<12: 4, 1> [0, 1] -> [0]"),
            "[4, 3] | embed<12: 1, 4> [0, 1] -> [0]"
        );
        // A frozen dim becomes an offset; trivial pads and slices pass.
        assert_eq!(
            s("[5] | freeze<2, 3> [] -> [0], pad<0, 0> [0] -> [1] | embed<15: 5, 1> [0, 1] -> [0]"),
            "[5] | embed<15: 1, +10> [0] -> [0]"
        );
        // A frozen dim passed through a stage is frozen below it, then folds.
        assert_eq!(
            s(
                "[5] | freeze<2, 3> [] -> [0], pass [0] -> [1] | pass [0] -> [0], pass [1] -> [1] | embed<15: 5, 1> [0, 1] -> [0]"
            ),
            "[5] | embed<15: 1, +10> [0] -> [0]"
        );
    }

    #[test]
    fn bad_descriptors_say_why() {
        let e = |t: &str| {
            t.parse::<Desc>()
                .and_then(|d| d.lens().map(|_| ()))
                .unwrap_err()
        };
        assert!(e("[4] | slice<2, 5> [0] -> [0]").contains("out of range"));
        assert!(e("[6] | merge<4, 2> [0] -> [0, 1]").contains("does not match"));
        assert!(e("[2, 3] | pass [0] -> [0], pass [0] -> [1]").contains("read twice"));
        assert!(e("[2, 3] | pass [0] -> [0]").contains("not read"));
        assert!(e("[2] | pass [3] -> [0]").contains("out of range for rank"));
        assert!(e("[2] | twist [0] -> [0]").contains("unknown transform"));
        assert!(e("[2] | pad<1> [0] -> [0]").contains("2 parameters"));
    }

    /// The convolution input element an im2col row and column read, by the
    /// textbook loops.
    #[test]
    fn convolution_as_implicit_gemm_matches_im2col() {
        let mut r = Rng(5);
        for _ in 0..60 {
            let (n, h, w, c) = (1 + r.next(2), 2 + r.next(4), 2 + r.next(4), 1 + r.next(3));
            let (kh, kw) = (1 + r.next(3), 1 + r.next(3));
            let (sh, sw, dh, dw) = (1 + r.next(2), 1 + r.next(2), 1 + r.next(2), 1 + r.next(2));
            let pads = [r.next(2), r.next(2), r.next(2), r.next(2)];
            if h + pads[0] + pads[1] < dh * (kh - 1) + 1
                || w + pads[2] + pads[3] < dw * (kw - 1) + 1
            {
                continue;
            }
            let conv = Conv {
                nchw: false,
                input: [n, h, w, c],
                filter: [kh, kw],
                out_channels: 1,
                strides: [sh, sw],
                dilations: [dh, dw],
                pads,
                groups: 1,
            };
            let d = Desc::conv_a(&conv, 0);
            d.lens().expect("valid");
            let ho = (h + pads[0] + pads[1] - dh * (kh - 1) - 1) / sh + 1;
            let wo = (w + pads[2] + pads[3] - dw * (kw - 1) - 1) / sw + 1;
            assert_eq!(d.upper, vec![n * ho * wo, kh * kw * c]);
            for m in 0..d.upper[0] {
                for k in 0..d.upper[1] {
                    let (b, oy, ox) = (m / (ho * wo), m / wo % ho, m % wo);
                    let (ky, kx, ch) = (k / (kw * c), k / c % kw, k % c);
                    let (y, x) = (oy * sh + ky * dh - pads[0], ox * sw + kx * dw - pads[2]);
                    let want = if (0..h).contains(&y) && (0..w).contains(&x) {
                        Some(((b * h + y) * w + x) * c + ch)
                    } else {
                        None
                    };
                    let (off, ok) = d.offset(&[m, k]).expect("inside");
                    assert_eq!(ok.then_some(off), want, "{d} at [{m}, {k}]");
                }
            }
            // Simplified, it reads the same.
            assert_eq!(by_desc(&d.simplify()), by_desc(&d));
        }
    }
}
