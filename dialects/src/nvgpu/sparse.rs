//! The sparse tensor-core form `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32`
//! (T `f16` or `bf16`, PTX ISA "Matrix Fragments for sparse mma.m16n8k32
//! with .f16 and .bf16 types" and "Sparse matrix storage") as data: the lane
//! layouts of its operands and where each group's metadata lies, read by the
//! host emulation of `nvgpu.mma.sp.sync` (`backends/llvm`) and by whoever
//! packs metadata at compile time ([`pack_metadata`]).
//!
//! A is 16 x 32 and 2:4 sparse along K: each lane holds two of the four
//! elements of four groups (eight values, [`SP_A`], in the compressed 16 x 16
//! tile: rows `g` and `g + 8`, groups `t` and `t + 4`). B is 32 x 8 dense
//! ([`SP_B`]: rows `2t, 2t + 1, 2t + 8, ...` of column `g`); C and D have
//! m16n8k16's f32 layout ([`super::fragments::S32_C`]).
//!
//! Metadata: a group's two positions `i0 < i1` (in 0..4) make a 4-bit code
//! `i0 | i1 << 2` (the ISA's meaningful values 0b0100, 0b1000, 0b1001,
//! 0b1100, 0b1101, 0b1110). With sparsity selector 0 the thread pair T0, T1
//! of each group of four lanes holds them: lane `4·(r % 8) + c / 4` holds
//! row `r`'s group `c` (of 8) at code `4·(r / 8) + c % 4` of its `.b32`
//! register (bits `4·code .. 4·code + 3`): T0 has groups 0..3 of rows `g`
//! (low half) and `g + 8` (high half), T1 groups 4..7; T2 and T3 hold none.

use super::fragments::Fragment;
use super::{INT_ARRAY, interpret, is_float, mma_shape, vector_of};
use crate::gpu::verify_in_kernel;
use aic::Diagnostic;
use aic::constraints::VECTOR;
use aic::dialect::{OpSpec, Traits, TypeConstraint};
use aic::float::FloatKind;
use aic::ir::{Context, Op};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;

const I32: TypeConstraint = TypeConstraint {
    desc: "i32",
    check: |t, _| matches!(t, TypeKind::Integer { width: 32, .. }),
    build: Some(|u| u.int_type(32)),
};

aic::op! {
    /// `nvgpu.mma.sp.sync(%a, %b, %c) metadata(%e) {mmaShape = [16, 8, 32]} :
    /// (vector<4x2xT>, vector<4x2xT>, vector<2x2xf32>) -> vector<2x2xf32>`:
    /// `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32` with sparsity
    /// selector 0, T `f16` or `bf16`; `%e` is the lane's `.b32` metadata
    /// register ([`pack_metadata`]).
    pub MmaSpSync = MMA_SP_SYNC {
        operands: [
            matrix_a = "matrixA": one(VECTOR),
            matrix_b = "matrixB": one(VECTOR),
            matrix_c = "matrixC": one(VECTOR),
            metadata = "sparseMetadata": one(I32),
        ],
        results: [res: one(VECTOR)],
        attributes: [mma_shape = "mmaShape": required(INT_ARRAY)],
        spec: OpSpec {
            summary: "a warp's 2:4-sparse matrix multiply-accumulate on tensor cores (A compressed, with metadata)",
            traits: Traits::PURE,
            format: Some(
                "`(` $matrixA `,` $matrixB `,` $matrixC `)` `metadata` `(` $sparseMetadata `)` attr-dict `:` `(` type($matrixA) `,` type($matrixB) `,` type($matrixC) `)` `->` type($res)",
            ),
            verify: Some(verify_mma_sp_sync),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.mma.sp.sync")
        },
    }
}

fn verify_mma_sp_sync(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let shape = mma_shape(ctx, op);
    if shape != [16, 8, 32] {
        return Err(err(format!(
            "mmaShape {shape:?} is not supported: only [16, 8, 32] (f16, bf16)"
        )));
    }
    let t: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let res = ctx.value_type(ctx.result(op, 0));
    let is = |v: Option<(Vec<i64>, Type)>, s: &[i64], k: FloatKind| {
        v.is_some_and(|(sh, e)| sh == s && is_float(ctx, e, k))
    };
    let ab = |k| is(vector_of(ctx, t[0]), &[4, 2], k) && is(vector_of(ctx, t[1]), &[4, 2], k);
    if !(ab(FloatKind::F16) || ab(FloatKind::BF16))
        || !is(vector_of(ctx, t[2]), &[2, 2], FloatKind::F32)
        || t[2] != res
    {
        return Err(err(format!(
            "expects (vector<4x2xT>, vector<4x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not ({}, {}, {}) -> {}",
            text(t[0]),
            text(t[1]),
            text(t[2]),
            text(res)
        )));
    }
    Ok(())
}

/// The compressed A of `mma.sp` m16n8k32 f16/bf16: 16 x 16 (two kept values
/// of each group of four), 8 per lane (`vector<4x2xT>`, register `j` holding
/// elements `2j, 2j + 1`: a group's two values).
pub const SP_A: Fragment = Fragment {
    rows: 16,
    cols: 16,
    group: (1, 0),
    thread: (0, 2),
    elems: &[
        (0, 0),
        (0, 1),
        (8, 0),
        (8, 1),
        (0, 8),
        (0, 9),
        (8, 8),
        (8, 9),
    ],
};

/// B of the same: 32 x 8 (k x n), 8 per lane (`vector<4x2xT>`).
pub const SP_B: Fragment = Fragment {
    rows: 32,
    cols: 8,
    group: (0, 1),
    thread: (2, 0),
    elems: &[
        (0, 0),
        (1, 0),
        (8, 0),
        (9, 0),
        (16, 0),
        (17, 0),
        (24, 0),
        (25, 0),
    ],
};

/// The 4-bit code of a group keeping positions `i0 < i1` (both in 0..4).
pub fn code(i0: u32, i1: u32) -> Option<u32> {
    (i0 < i1 && i1 < 4).then_some(i0 | (i1 << 2))
}

/// The lane and code index (of eight 4-bit codes in its register) holding
/// the metadata of group `chunk` (0..8) of row `row` (0..16), selector 0.
pub fn metadata_at(row: usize, chunk: usize) -> (usize, usize) {
    (4 * (row % 8) + chunk / 4, 4 * (row / 8) + chunk % 4)
}

/// The metadata registers of the 32 lanes for one 16 x 32 tile of A whose
/// group `c` of row `r` keeps positions `pos[r][c]` (sparsity selector 0;
/// lanes T2 and T3 of each group hold zero); `None` if a pair is not two
/// increasing positions in 0..4.
pub fn pack_metadata(pos: &[[(u32, u32); 8]; 16]) -> Option<[u32; 32]> {
    let mut regs = [0u32; 32];
    for (r, row) in pos.iter().enumerate() {
        for (c, (i0, i1)) in row.iter().enumerate() {
            let (lane, at) = metadata_at(r, c);
            regs[lane] |= code(*i0, *i1)? << (4 * at);
        }
    }
    Some(regs)
}

/// The positions of group `chunk` of row `row` in the lanes' metadata
/// registers `regs` (the inverse of [`pack_metadata`]).
pub fn unpack_metadata(regs: &[u32; 32], row: usize, chunk: usize) -> (u32, u32) {
    let (lane, at) = metadata_at(row, chunk);
    let c = (regs[lane] >> (4 * at)) & 0xf;
    (c & 3, c >> 2)
}

/// What one `mma.sp` computes, lane by lane, in f64: each lane's A values
/// (`a[lane]`, [`SP_A`]), B values ([`SP_B`]), C accumulator (m16n8's f32
/// layout) and metadata register give D. The host emulation in
/// `backends/llvm` generates this computation; tests compare both with a
/// dense product.
pub fn emulate(
    a: &[[f64; 8]; 32],
    b: &[[f64; 8]; 32],
    c: &[[f64; 4]; 32],
    meta: &[u32; 32],
) -> [[f64; 4]; 32] {
    use super::fragments::S32_C;
    // The dense A, 16 x 32.
    let mut dense = [[0.0f64; 32]; 16];
    for (r, row) in dense.iter_mut().enumerate() {
        for chunk in 0..8 {
            let (i0, i1) = unpack_metadata(meta, r, chunk);
            for (j, p) in [i0, i1].into_iter().enumerate() {
                let (l, e) = SP_A
                    .holder(r as i64, (2 * chunk + j) as i64)
                    .expect("covers");
                row[4 * chunk + p as usize] += a[l as usize][e];
            }
        }
    }
    let mut d = *c;
    for (lane, out) in d.iter_mut().enumerate() {
        for (ci, acc) in out.iter_mut().enumerate() {
            let (r, n) = S32_C.at(lane as i64, ci);
            for (k, x) in dense[r as usize].iter().enumerate() {
                let (l, e) = SP_B.holder(k as i64, n).expect("covers");
                *acc += x * b[l as usize][e];
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::super::fragments::S32_C;
    use super::*;

    #[test]
    fn sparse_fragments_cover_their_tiles_once() {
        for f in [SP_A, SP_B] {
            let mut seen = vec![0; (f.rows * f.cols) as usize];
            for l in 0..32 {
                for i in 0..f.elems.len() {
                    let (r, c) = f.at(l, i);
                    seen[(r * f.cols + c) as usize] += 1;
                }
            }
            assert!(seen.iter().all(|n| *n == 1), "{f:?}");
        }
        // The ISA's A: lane 5 (g = 1, t = 1) holds a0, a1 of row 1 in dense
        // columns 4..7 (group 1: compressed 2, 3), a2, a3 of row 9, and
        // a4..a7 of dense columns 20..23 (group 5: compressed 10, 11).
        assert_eq!((SP_A.at(5, 0), SP_A.at(5, 1)), ((1, 2), (1, 3)));
        assert_eq!((SP_A.at(5, 2), SP_A.at(5, 4)), ((9, 2), (1, 10)));
        assert_eq!(SP_A.at(5, 7), (9, 11));
        // B: lane 5 holds column 1, rows 2, 3, 10, 11, 18, 19, 26, 27.
        let rows: Vec<i64> = (0..8).map(|i| SP_B.at(5, i).0).collect();
        assert_eq!(rows, vec![2, 3, 10, 11, 18, 19, 26, 27]);
        assert!((0..8).all(|i| SP_B.at(5, i).1 == 1));
    }

    /// The ISA's description of the metadata: the meaningful codes, and
    /// where each group's code lies with selector 0.
    #[test]
    fn metadata_is_packed_as_the_isa_describes() {
        let codes: Vec<u32> = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]
            .iter()
            .map(|(a, b)| code(*a, *b).expect("valid"))
            .collect();
        assert_eq!(codes, vec![0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110]);
        assert_eq!(code(1, 1), None);
        assert_eq!(code(2, 1), None);
        // T0 of group g holds row g's groups 0..3 in its low 16 bits and row
        // g + 8's in the high 16; T1 groups 4..7; T2 and T3 nothing.
        assert_eq!(metadata_at(0, 0), (0, 0));
        assert_eq!(metadata_at(0, 3), (0, 3));
        assert_eq!(metadata_at(8, 0), (0, 4));
        assert_eq!(metadata_at(0, 4), (1, 0));
        assert_eq!(metadata_at(15, 7), (29, 7));
        let mut pos = [[(0, 1); 8]; 16];
        pos[0][0] = (2, 3);
        pos[8][2] = (1, 3);
        pos[3][5] = (0, 2);
        let regs = pack_metadata(&pos).expect("valid");
        // Lane 0: row 0 group 0 = 0xE, groups 1..3 = 0x4; row 8: groups 0, 1,
        // 3 = 0x4, group 2 = 0xD (code 6, bits 24..27).
        assert_eq!(regs[0], 0x4D44_444E);
        // Lane 13 (g = 3, T1): row 3 groups 4..7, group 5 = 0x8.
        assert_eq!(regs[13], 0x4444_4484);
        assert!((0..32).filter(|l| l % 4 >= 2).all(|l| regs[l] == 0));
        for (r, row) in pos.iter().enumerate() {
            for (c, p) in row.iter().enumerate() {
                assert_eq!(unpack_metadata(&regs, r, c), *p);
            }
        }
        pos[1][1] = (3, 3);
        assert_eq!(pack_metadata(&pos), None);
    }

    /// A random 2:4 A, distributed to the lanes with packed metadata, gives
    /// through [`emulate`] the dense product A·B + C.
    #[test]
    fn emulation_is_the_dense_product() {
        let mut s = 12345u64;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        let mut dense = [[0.0f64; 32]; 16];
        let mut pos = [[(0u32, 1u32); 8]; 16];
        let mut vals = [[0.0f64; 16]; 16];
        for r in 0..16 {
            for c in 0..8 {
                let i0 = (next() % 3) as u32;
                let i1 = i0 + 1 + (next() % (3 - i0 as u64)) as u32;
                pos[r][c] = (i0, i1);
                for (j, p) in [i0, i1].into_iter().enumerate() {
                    let v = (next() % 17) as f64 - 8.0;
                    vals[r][2 * c + j] = v;
                    dense[r][4 * c + p as usize] = v;
                }
            }
        }
        let bm: Vec<Vec<f64>> = (0..32)
            .map(|_| (0..8).map(|_| (next() % 9) as f64 - 4.0).collect())
            .collect();
        let (mut a, mut b, mut c) = ([[0.0; 8]; 32], [[0.0; 8]; 32], [[0.0; 4]; 32]);
        for l in 0..32 {
            for i in 0..8 {
                let (r, k) = SP_A.at(l, i);
                a[l as usize][i] = vals[r as usize][k as usize];
                let (k, n) = SP_B.at(l, i);
                b[l as usize][i] = bm[k as usize][n as usize];
            }
            for (i, x) in c[l as usize].iter_mut().enumerate() {
                *x = (l * 4 + i as i64) as f64;
            }
        }
        let meta = pack_metadata(&pos).expect("valid");
        let d = emulate(&a, &b, &c, &meta);
        for l in 0..32 {
            for i in 0..4 {
                let (r, n) = S32_C.at(l, i);
                let want: f64 = c[l as usize][i]
                    + (0..32)
                        .map(|k| dense[r as usize][k] * bm[k][n as usize])
                        .sum::<f64>();
                assert_eq!(d[l as usize][i], want, "lane {l} element {i}");
            }
        }
    }
}
