//! Collectives as steps of a plan: a partitioned program (one plan that
//! every device runs, SPMD) exchanges values between devices at its
//! [`Step::Collective`](crate::plan::Step::Collective) steps. What each
//! computes is StableHLO's meaning of the op over the step's device groups;
//! [`exchange`] computes it on the host from every member's bytes (the host
//! target's in-memory collectives, which run the same plan CI tests), and
//! [`crate::nccl`] hands it to NCCL on GPUs.
//!
//! Buffers are row-major; a collective along dimension `d` of shape `s`
//! moves, for each of the `outer = s[0] * ... * s[d-1]` outer indices, a
//! contiguous chunk of `s[d] * ... * s[rank-1]` elements.

use serde::{Deserialize, Serialize};

/// How partial values combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reduction {
    /// Elementwise sum.
    Sum,
    /// Elementwise maximum.
    Max,
    /// Elementwise minimum.
    Min,
}

/// What a collective step does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Collective {
    /// The group's inputs combined elementwise; every member gets the result.
    AllReduce {
        /// How they combine.
        reduction: Reduction,
    },
    /// The group's inputs concatenated along `dim`, in group order.
    AllGather {
        /// The dimension.
        dim: u32,
    },
    /// The group's inputs combined, then split along `dim`: member `i` keeps part `i`.
    ReduceScatter {
        /// The dimension.
        dim: u32,
        /// How they combine.
        reduction: Reduction,
    },
    /// Each input split along `split_dim` into one part per member, part `j`
    /// sent to member `j`; the parts received concatenated along `concat_dim`.
    AllToAll {
        /// The dimension split.
        split_dim: u32,
        /// The dimension concatenated.
        concat_dim: u32,
    },
    /// Each `[source, target]` pair: the target receives the source's input
    /// (a device no pair targets gets zeros).
    CollectivePermute {
        /// Device id pairs.
        pairs: Vec<[u32; 2]>,
    },
}

/// `(outer, chunk)`: how many outer indices, and the bytes of one chunk
/// from dimension `dim` on.
fn split_at(shape: &[i64], dim: usize, elem: usize) -> (usize, usize) {
    let outer: i64 = shape[..dim].iter().product();
    let inner: i64 = shape[dim..].iter().product();
    (outer.max(0) as usize, inner.max(0) as usize * elem)
}

/// `a op= b` elementwise, for the element type `elem` (as [`crate::Param::elem`]).
fn combine(elem: &str, r: Reduction, a: &mut [u8], b: &[u8]) -> Result<(), String> {
    macro_rules! each {
        ($t:ty, $n:expr) => {{
            for (x, y) in a.chunks_exact_mut($n).zip(b.chunks_exact($n)) {
                let p = <$t>::from_le_bytes(x.try_into().expect("chunk"));
                let q = <$t>::from_le_bytes(y.try_into().expect("chunk"));
                let v = match r {
                    Reduction::Sum => p + q,
                    Reduction::Max => {
                        if q > p {
                            q
                        } else {
                            p
                        }
                    }
                    Reduction::Min => {
                        if q < p {
                            q
                        } else {
                            p
                        }
                    }
                };
                x.copy_from_slice(&v.to_le_bytes());
            }
        }};
    }
    match elem {
        "f32" => each!(f32, 4),
        "f64" => each!(f64, 8),
        "i32" | "si32" => each!(i32, 4),
        "i64" | "si64" => each!(i64, 8),
        "ui32" => each!(u32, 4),
        "ui64" => each!(u64, 8),
        "f16" | "bf16" => {
            // Through f32, rounding to nearest even at the end.
            let widen = |h: u16| -> f32 {
                if elem == "bf16" {
                    f32::from_bits(u32::from(h) << 16)
                } else {
                    f16_to_f32(h)
                }
            };
            let narrow = |f: f32| -> u16 {
                if elem == "bf16" {
                    let bits = f.to_bits();
                    if f.is_nan() {
                        0x7fc0
                    } else {
                        ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) as u16
                    }
                } else {
                    f32_to_f16(f)
                }
            };
            for (x, y) in a.chunks_exact_mut(2).zip(b.chunks_exact(2)) {
                let p = widen(u16::from_le_bytes([x[0], x[1]]));
                let q = widen(u16::from_le_bytes([y[0], y[1]]));
                let v = match r {
                    Reduction::Sum => p + q,
                    Reduction::Max => p.max(q),
                    Reduction::Min => p.min(q),
                };
                x.copy_from_slice(&narrow(v).to_le_bytes());
            }
        }
        _ => {
            return Err(format!(
                "collectives on {elem} elements are not supported yet"
            ));
        }
    }
    Ok(())
}

fn f16_to_f32(h: u16) -> f32 {
    let s = u32::from(h >> 15) << 31;
    let e = u32::from((h >> 10) & 0x1f);
    let m = u32::from(h & 0x3ff);
    let bits = match (e, m) {
        (0, 0) => s,
        (0, _) => {
            // Subnormal: normalise.
            let mut e = 127 - 15 + 1;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            s | (e << 23) | ((m & 0x3ff) << 13)
        }
        (31, _) => s | 0x7f80_0000 | (m << 13),
        _ => s | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

fn f32_to_f16(f: f32) -> u16 {
    let bits = f.to_bits();
    let s = ((bits >> 16) & 0x8000) as u16;
    if f.is_nan() {
        return s | 0x7e00;
    }
    let e = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let m = bits & 0x7f_ffff;
    if e >= 31 {
        return s | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return s;
        }
        let m = m | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut v = (m >> shift) as u16;
        if rest > half || (rest == half && v & 1 == 1) {
            v += 1;
        }
        return s | v;
    }
    let mut v = ((e as u32) << 10 | (m >> 13)) as u16;
    let rest = m & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && v & 1 == 1) {
        v += 1;
    }
    s | v
}

/// The element size of `elem`, or an error.
fn elem_bytes(elem: &str) -> Result<usize, String> {
    crate::Param::elem_bytes(elem)
        .map(|b| b as usize)
        .ok_or_else(|| format!("no layout for {elem} elements"))
}

/// What member `me` of a group gets from collective `c`, given every
/// member's input (`inputs`, in group order) of shape `shape` and element
/// type `elem`; `ids` are the group's device ids. The result has the
/// step's output size.
pub fn exchange(
    c: &Collective,
    elem: &str,
    shape: &[i64],
    inputs: &[&[u8]],
    ids: &[u32],
    me: usize,
) -> Result<Vec<u8>, String> {
    let n = inputs.len();
    let eb = elem_bytes(elem)?;
    let reduce = |r: Reduction| -> Result<Vec<u8>, String> {
        let mut acc = inputs[0].to_vec();
        for i in &inputs[1..] {
            combine(elem, r, &mut acc, i)?;
        }
        Ok(acc)
    };
    let dim_ok = |d: u32| -> Result<usize, String> {
        let d = d as usize;
        if d < shape.len() {
            Ok(d)
        } else {
            Err(format!(
                "a collective along dimension {d} of a rank-{} tensor",
                shape.len()
            ))
        }
    };
    Ok(match c {
        Collective::AllReduce { reduction } => reduce(*reduction)?,
        Collective::AllGather { dim } => {
            let (outer, chunk) = split_at(shape, dim_ok(*dim)?, eb);
            let mut out = Vec::with_capacity(outer * chunk * n);
            for o in 0..outer {
                for i in inputs {
                    out.extend_from_slice(&i[o * chunk..(o + 1) * chunk]);
                }
            }
            out
        }
        Collective::ReduceScatter { dim, reduction } => {
            let all = reduce(*reduction)?;
            let (outer, chunk) = split_at(shape, dim_ok(*dim)?, eb);
            if chunk % n != 0 {
                return Err(format!("reduce_scatter of {chunk} bytes over {n} devices"));
            }
            let part = chunk / n;
            let mut out = Vec::with_capacity(outer * part);
            for o in 0..outer {
                let at = o * chunk + me * part;
                out.extend_from_slice(&all[at..at + part]);
            }
            out
        }
        Collective::AllToAll {
            split_dim,
            concat_dim,
        } => {
            let (sd, cd) = (dim_ok(*split_dim)?, dim_ok(*concat_dim)?);
            if shape[sd] % n as i64 != 0 {
                return Err(format!(
                    "all_to_all splits a dimension of {} into {n} parts",
                    shape[sd]
                ));
            }
            // Member j's part for me: its input sliced along sd.
            let mut part_shape = shape.to_vec();
            part_shape[sd] /= n as i64;
            let (souter, schunk) = split_at(shape, sd, eb);
            let spart = schunk / n;
            let parts: Vec<Vec<u8>> = inputs
                .iter()
                .map(|i| {
                    let mut p = Vec::with_capacity(souter * spart);
                    for o in 0..souter {
                        let at = o * schunk + me * spart;
                        p.extend_from_slice(&i[at..at + spart]);
                    }
                    p
                })
                .collect();
            let (couter, cchunk) = split_at(&part_shape, cd, eb);
            let mut out = Vec::with_capacity(couter * cchunk * n);
            for o in 0..couter {
                for p in &parts {
                    out.extend_from_slice(&p[o * cchunk..(o + 1) * cchunk]);
                }
            }
            out
        }
        Collective::CollectivePermute { pairs } => {
            let my = ids[me];
            match pairs.iter().find(|p| p[1] == my) {
                Some(p) => {
                    let k = ids
                        .iter()
                        .position(|d| *d == p[0])
                        .ok_or_else(|| format!("device {} is not in the permutation", p[0]))?;
                    inputs[k].to_vec()
                }
                None => vec![0; inputs[me].len()],
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn back(b: &[u8]) -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn collectives_follow_stablehlo() {
        let a = f32s(&[1.0, 2.0, 3.0, 4.0]);
        let b = f32s(&[10.0, 20.0, 30.0, 40.0]);
        let ins: [&[u8]; 2] = [&a, &b];
        let ids = [0, 1];
        let sum = Reduction::Sum;
        let ar = exchange(
            &Collective::AllReduce { reduction: sum },
            "f32",
            &[2, 2],
            &ins,
            &ids,
            1,
        );
        assert_eq!(back(&ar.unwrap()), [11.0, 22.0, 33.0, 44.0]);
        let ag = exchange(
            &Collective::AllGather { dim: 1 },
            "f32",
            &[2, 2],
            &ins,
            &ids,
            0,
        );
        assert_eq!(
            back(&ag.unwrap()),
            [1.0, 2.0, 10.0, 20.0, 3.0, 4.0, 30.0, 40.0]
        );
        let rs = Collective::ReduceScatter {
            dim: 1,
            reduction: sum,
        };
        assert_eq!(
            back(&exchange(&rs, "f32", &[2, 2], &ins, &ids, 1).unwrap()),
            [22.0, 44.0]
        );
        let mx = Collective::AllReduce {
            reduction: Reduction::Max,
        };
        assert_eq!(
            back(&exchange(&mx, "f32", &[4], &ins, &ids, 0).unwrap()),
            [10.0, 20.0, 30.0, 40.0]
        );
        // all_to_all: split rows, concatenate columns.
        let t = Collective::AllToAll {
            split_dim: 0,
            concat_dim: 1,
        };
        assert_eq!(
            back(&exchange(&t, "f32", &[2, 2], &ins, &ids, 0).unwrap()),
            [1.0, 2.0, 10.0, 20.0]
        );
        assert_eq!(
            back(&exchange(&t, "f32", &[2, 2], &ins, &ids, 1).unwrap()),
            [3.0, 4.0, 30.0, 40.0]
        );
        let p = Collective::CollectivePermute {
            pairs: vec![[0, 1]],
        };
        assert_eq!(
            back(&exchange(&p, "f32", &[4], &ins, &ids, 1).unwrap()),
            [1.0, 2.0, 3.0, 4.0]
        );
        assert_eq!(
            back(&exchange(&p, "f32", &[4], &ins, &ids, 0).unwrap()),
            [0.0; 4]
        );
        assert!(
            exchange(
                &Collective::AllGather { dim: 2 },
                "f32",
                &[2, 2],
                &ins,
                &ids,
                0
            )
            .is_err()
        );
    }

    #[test]
    fn half_floats_round_trip_and_sum() {
        for x in [0.0f32, 1.0, -2.5, 65504.0, 6.1e-5, 1.0e-7] {
            let h = f32_to_f16(x);
            assert!((f16_to_f32(h) - x).abs() <= x.abs() * 1e-3 + 6e-8, "{x}");
        }
        let mut a = f32_to_f16(1.5).to_le_bytes().to_vec();
        combine(
            "f16",
            Reduction::Sum,
            &mut a,
            &f32_to_f16(2.25).to_le_bytes(),
        )
        .unwrap();
        assert_eq!(f16_to_f32(u16::from_le_bytes([a[0], a[1]])), 3.75);
        assert!(combine("i8", Reduction::Sum, &mut [0], &[0]).is_err());
    }
}
