//! Descriptors against materialised views, simplification, text and
//! convolutions.

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
    // A merge of rows an embed walks evenly is one stride of the embed
    // (a [8, 512, 768] activation read as [4096, 768]); an uneven one stays.
    assert_eq!(
        s(
            "[4096, 768] | merge<8, 512> [0] -> [0, 1], pass [1] -> [2] | embed<3145728: 393216, 768, 1> [0, 1, 2] -> [0]"
        ),
        "[4096, 768] | embed<3145728: 768, 1> [0, 1] -> [0]"
    );
    assert_eq!(
        s(
            "[4096, 768] | merge<8, 512> [0] -> [0, 1], pass [1] -> [2] | embed<3670016: 458752, 768, 1> [0, 1, 2] -> [0]"
        ),
        "[4096, 768] | merge<8, 512> [0] -> [0, 1], pass [1] -> [2] | embed<3670016: 458752, 768, 1> [0, 1, 2] -> [0]"
    );
    // A reshape keeping its leading dims keeps them as dims of their own:
    // attention's [b, h, s, d] output read as [b·s, h·d] rows is merges of
    // each dim, then one embed (no unmerge of rows and columns together).
    assert_eq!(
        s(
            "[4096, 768] | merge<8, 512> [0] -> [0, 1], pass [1] -> [2] | unmerge [0, 1, 2] -> [0] | merge<8, 512, 12, 64> [0] -> [0, 1, 2, 3] | embed<3145728: 393216, 64, 32768, 1> [0, 1, 2, 3] -> [0]"
        ),
        "[4096, 768] | merge<8, 512> [0] -> [0, 1], pass [1] -> [2] | merge<12, 64> [2] -> [2, 3], pass [0] -> [0], pass [1] -> [1] | embed<3145728: 393216, 64, 32768, 1> [0, 1, 2, 3] -> [0]"
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
        if h + pads[0] + pads[1] < dh * (kh - 1) + 1 || w + pads[2] + pads[3] < dw * (kw - 1) + 1 {
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
