//! Random descriptors, for property tests here and in the passes that lower
//! them.

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
