//! Simplification: an equal descriptor with fewer or cheaper transforms.

use super::{Desc, Step, Transform};

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
            d.merge_into_embeds();
            d.split_common_prefix();
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

    /// Every stage's lower lengths, and the lengths stage `k` reads (the
    /// upper ones for the first); none for a malformed descriptor.
    fn stage_lens(&self, k: usize) -> Option<(Vec<Vec<i64>>, Vec<i64>)> {
        let lens = self.lens().ok()?;
        let ups = if k == 0 {
            self.upper.clone()
        } else {
            lens[k - 1].clone()
        };
        Some((lens, ups))
    }

    /// `unmerge [x0, x1..] -> [m]` then `merge<l0, l1..> [m] -> [y0, y1..]`
    /// where `x0`'s length is `l0`: `x0` passes to `y0`, and the rest stays
    /// an unmerge then a merge (a reshape that keeps its leading dims, such
    /// as `[b, s, h·d]` to `[b, s, h, d]`, keeps them as dims of their own).
    fn split_common_prefix(&mut self) {
        for k in 0..self.stages.len().saturating_sub(1) {
            loop {
                let Some((lens, ups)) = self.stage_lens(k) else {
                    return;
                };
                let found = self.stages[k].iter().enumerate().find_map(|(i, s)| {
                    if s.t != Transform::Unmerge || s.upper.len() < 2 {
                        return None;
                    }
                    let j = self.stages[k + 1].iter().position(|n| {
                        n.upper == s.lower
                            && matches!(&n.t, Transform::Merge { lens } if lens.len() >= 2 && lens[0] == ups[s.upper[0]])
                    })?;
                    Some((i, j))
                });
                let Some((i, j)) = found else { break };
                let width = lens[k].len();
                let x0 = self.stages[k][i].upper.remove(0);
                let g = &mut self.stages[k + 1][j];
                let y0 = g.lower.remove(0);
                if let Transform::Merge { lens } = &mut g.t {
                    lens.remove(0);
                }
                let pass = |u: usize, l: usize| Step {
                    t: Transform::Pass,
                    upper: vec![u],
                    lower: vec![l],
                };
                self.stages[k].push(pass(x0, width));
                self.stages[k + 1].push(pass(width, y0));
                // What is left of one dim each is a pass.
                if self.stages[k][i].upper.len() == 1 {
                    self.stages[k][i].t = Transform::Pass;
                }
                if self.stages[k + 1][j].lower.len() == 1 {
                    self.stages[k + 1][j].t = Transform::Pass;
                }
            }
        }
    }

    /// `merge<l0, .., ln> [a] -> [b0, .., bn]` whose dims only an embed
    /// reads, with strides such that each is the next one's times its
    /// length (`s_i = s_{i+1} * l_{i+1}`: the merged index walks memory
    /// evenly, as rows of `[batch, seq]` viewed as one dim do), is the
    /// embed reading `a` with the last stride: `sum b_i s_i = a s_n`.
    fn merge_into_embeds(&mut self) {
        for k in 0..self.stages.len().saturating_sub(1) {
            let found = self.stages[k].iter().enumerate().find_map(|(i, s)| {
                let Transform::Merge { lens } = &s.t else {
                    return None;
                };
                let readers: Vec<usize> = self.stages[k + 1]
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.upper.iter().any(|u| s.lower.contains(u)))
                    .map(|(j, _)| j)
                    .collect();
                let [j] = readers[..] else { return None };
                let n = &self.stages[k + 1][j];
                let Transform::Embed { strides, .. } = &n.t else {
                    return None;
                };
                let stride = |d: usize| {
                    let at = n.upper.iter().position(|u| *u == d)?;
                    Some(strides[at])
                };
                let st: Vec<i64> = s.lower.iter().map(|d| stride(*d)).collect::<Option<_>>()?;
                let even = (0..st.len() - 1).all(|t| st[t] == st[t + 1] * lens[t + 1]);
                even.then_some((i, j, st[st.len() - 1]))
            });
            let Some((i, j, last)) = found else { continue };
            let s = self.stages[k][i].clone();
            self.stages[k][i] = Step {
                t: Transform::Pass,
                upper: s.upper.clone(),
                lower: vec![s.lower[0]],
            };
            let n = &mut self.stages[k + 1][j];
            if let Transform::Embed { strides, .. } = &mut n.t {
                let mut terms: Vec<(usize, i64)> = Vec::new();
                for (u, st) in n.upper.iter().zip(strides.iter()) {
                    if *u == s.lower[0] {
                        terms.push((*u, last));
                    } else if !s.lower.contains(u) {
                        terms.push((*u, *st));
                    }
                }
                n.upper = terms.iter().map(|t| t.0).collect();
                *strides = terms.iter().map(|t| t.1).collect();
            }
            let mut gone: Vec<usize> = s.lower[1..].to_vec();
            gone.sort_unstable();
            for d in gone.into_iter().rev() {
                self.drop_dim(k, d);
            }
        }
    }

    /// `merge<lens> [a] -> [b..]` followed by `unmerge [b..] -> [c]` over the
    /// same dims in order is `pass [a] -> [c]`; `unmerge [x..] -> [m]`
    /// followed by `merge<lens> [m] -> [y..]`, the lens being the x's
    /// lengths, is `pass` of each `x` to its `y`.
    fn cancel_merges(&mut self) {
        for k in 0..self.stages.len().saturating_sub(1) {
            let Some((lens, ups)) = self.stage_lens(k) else {
                return;
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
