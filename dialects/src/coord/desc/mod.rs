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
use smallvec::SmallVec;

mod simplify;
mod text;
mod views;

pub use views::Conv;

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

    /// Where each element of a tile of `shape` at `origin` is (row-major
    /// order): its offset and whether it is valid ([`Desc::locate`]). The
    /// tile covers the trailing dims of `origin`.
    pub fn locate_tile(&self, origin: &[i64], shape: &[i64]) -> Result<Vec<(i64, bool)>, String> {
        let lead = origin.len() - shape.len();
        let loc = self.locator()?;
        let mut at = origin.to_vec();
        row_major_indices(shape)
            .iter()
            .map(|e| {
                for ((a, o), i) in at[lead..].iter_mut().zip(&origin[lead..]).zip(e) {
                    *a = o + i;
                }
                loc.locate(&at)
            })
            .collect()
    }

    /// The offset the transforms compute for `idx`, and whether it is valid:
    /// inside the upper lengths and in no padding. Indices outside the
    /// upper lengths (a boundary tile's) still get the formula's offset.
    /// (A caller locating many indices takes a [`Desc::locator`] once.)
    pub fn locate(&self, idx: &[i64]) -> Result<(i64, bool), String> {
        self.locator()?.locate(idx)
    }

    /// The descriptor ready to locate many indices: every stage's lengths
    /// ([`Desc::lens`]) computed once, not at each index.
    pub fn locator(&self) -> Result<Locator<'_>, String> {
        Ok(Locator {
            desc: self,
            lens: self.lens()?,
        })
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
}

/// A [`Desc`] with its stages' lengths computed ([`Desc::locator`]): what
/// probing a descriptor at many indices (the GPU lowering's contiguity
/// checks, the interpreters' tiles) locates with.
pub struct Locator<'d> {
    desc: &'d Desc,
    lens: Vec<Vec<i64>>,
}

impl Locator<'_> {
    /// [`Desc::locate`] of `idx`.
    pub fn locate(&self, idx: &[i64]) -> Result<(i64, bool), String> {
        let d = self.desc;
        if idx.len() != d.upper.len() {
            return Err(format!(
                "{} indices for an upper rank of {}",
                idx.len(),
                d.upper.len()
            ));
        }
        let mut valid = idx.iter().zip(&d.upper).all(|(i, l)| (0..*l).contains(i));
        let mut cur: SmallVec<[i64; 8]> = SmallVec::from_slice(idx);
        let mut cur_lens: &[i64] = &d.upper;
        let mut up: SmallVec<[i64; 8]> = SmallVec::new();
        let mut ul: SmallVec<[i64; 8]> = SmallVec::new();
        let mut ll: SmallVec<[i64; 8]> = SmallVec::new();
        for (stage, low_lens) in d.stages.iter().zip(&self.lens) {
            let mut next: SmallVec<[i64; 8]> = SmallVec::from_elem(0, low_lens.len());
            for s in stage {
                up.clear();
                up.extend(s.upper.iter().map(|k| cur[*k]));
                ul.clear();
                ul.extend(s.upper.iter().map(|k| cur_lens[*k]));
                ll.clear();
                ll.extend(s.lower.iter().map(|k| low_lens[*k]));
                let (low, ok) = s.t.apply(&up, &ul, &ll);
                valid &= ok;
                for (k, v) in s.lower.iter().zip(low) {
                    next[*k] = v;
                }
            }
            cur = next;
            cur_lens = low_lens;
        }
        Ok((row_major_offset(cur_lens, &cur), valid))
    }
}

pub mod sample;

#[cfg(test)]
mod tests;
