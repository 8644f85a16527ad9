//! The lane layouts of `mma.sync`'s integer form, m16n8k32 `.s32.s8.s8.s32`
//! (PTX ISA, "Matrix Fragments for mma.m16n8k32"), as data: which element
//! of which operand each lane's register element holds. `tile-to-gpu`
//! gathers fragments by them and the host emulation of `nvgpu.mma.sync`
//! (`backends/llvm`) reads them back by the same tables, so a host run
//! checks the layout the lowering assumes.
//!
//! Lane `l` of a warp is in group `g = l / 4` with `t = l % 4` its place in
//! the group. Element `i` of its fragment lies at
//! `(g·group.0 + t·thread.0 + elems[i].0, g·group.1 + t·thread.1 + elems[i].1)`.
//! For s8 (four i8 to a 32-bit register, k32) A's 16 elements are rows `g`
//! and `g + 8` at columns `4t..4t+3` and `16 + 4t..16 + 4t + 3`; B's 8 are
//! rows (k) `4t..4t+3` and `16 + 4t..` of column `g`; the s32 accumulator
//! has f32's m16n8 layout (rows `g`, `g + 8`, columns `2t`, `2t + 1`).
//! f16's m16n8k16 A and B are the same with two halves to a register
//! instead of four bytes. The fp8 form, m16n8k32 `.f32.e4m3.e4m3.f32` (and
//! e5m2), has exactly these A and B byte layouts and f32's accumulator in
//! `S32_C`'s places: one table per layout serves both.

/// Where the elements of one lane's fragment lie in an operand's tile.
#[derive(Clone, Copy, Debug)]
pub struct Fragment {
    /// The operand tile's rows and columns.
    pub rows: i64,
    pub cols: i64,
    /// The (row, column) step of each group `g = lane / 4`.
    pub group: (i64, i64),
    /// The (row, column) step of each lane `t = lane % 4` within its group.
    pub thread: (i64, i64),
    /// Element `i`'s offset from its lane's origin.
    pub elems: &'static [(i64, i64)],
}

impl Fragment {
    /// The (row, column) of element `i` of lane `lane`.
    pub fn at(&self, lane: i64, i: usize) -> (i64, i64) {
        let (g, t) = (lane / 4, lane % 4);
        let (r, c) = self.elems[i];
        (
            g * self.group.0 + t * self.thread.0 + r,
            g * self.group.1 + t * self.thread.1 + c,
        )
    }

    /// The lane and element holding `(row, col)`.
    pub fn holder(&self, row: i64, col: i64) -> Option<(i64, usize)> {
        (0..32).find_map(|l| {
            (0..self.elems.len())
                .find(|i| self.at(l, *i) == (row, col))
                .map(|i| (l, i))
        })
    }
}

/// A of `mma.sync.m16n8k32.row.col.s32.s8.s8.s32`: 16 x 32 i8, 16 per lane
/// (`vector<4x4xi8>`, register `j` holding elements `4j..4j+3`).
pub const S8_A: Fragment = Fragment {
    rows: 16,
    cols: 32,
    group: (1, 0),
    thread: (0, 4),
    elems: &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (8, 0),
        (8, 1),
        (8, 2),
        (8, 3),
        (0, 16),
        (0, 17),
        (0, 18),
        (0, 19),
        (8, 16),
        (8, 17),
        (8, 18),
        (8, 19),
    ],
};

/// B of the same: 32 x 8 i8 (k x n), 8 per lane (`vector<2x4xi8>`).
pub const S8_B: Fragment = Fragment {
    rows: 32,
    cols: 8,
    group: (0, 1),
    thread: (4, 0),
    elems: &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (16, 0),
        (17, 0),
        (18, 0),
        (19, 0),
    ],
};

/// The s32 accumulator (C and D): 16 x 8, 4 per lane (`vector<2x2xi32>`),
/// the layout of m16n8k16's f32 accumulator.
pub const S32_C: Fragment = Fragment {
    rows: 16,
    cols: 8,
    group: (1, 0),
    thread: (0, 2),
    elems: &[(0, 0), (0, 1), (8, 0), (8, 1)],
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element of each operand is held by exactly one lane's element.
    #[test]
    fn s8_fragments_cover_their_tiles_once() {
        for f in [S8_A, S8_B, S32_C] {
            let mut seen = vec![0; (f.rows * f.cols) as usize];
            for l in 0..32 {
                for i in 0..f.elems.len() {
                    let (r, c) = f.at(l, i);
                    assert!(r < f.rows && c < f.cols, "{f:?} lane {l} element {i}");
                    seen[(r * f.cols + c) as usize] += 1;
                }
            }
            assert!(seen.iter().all(|n| *n == 1), "{f:?}");
            assert_eq!(f.holder(f.rows - 1, f.cols - 1).map(|(l, _)| l), Some(31));
        }
        // The PTX ISA's examples: lane 5 (g = 1, t = 1) holds A's (1, 4),
        // (9, 4) and (1, 20) as a0, a4, a8; B's (4, 1) and (20, 1) as b0,
        // b4; D's (1, 2) and (9, 3) as d0, d3.
        assert_eq!(
            (S8_A.at(5, 0), S8_A.at(5, 4), S8_A.at(5, 8)),
            ((1, 4), (9, 4), (1, 20))
        );
        assert_eq!((S8_B.at(5, 0), S8_B.at(5, 4)), ((4, 1), (20, 1)));
        assert_eq!((S32_C.at(5, 0), S32_C.at(5, 3)), ((1, 2), (9, 3)));
        // A's (9, 21): row g + 8 of group 1, column 16 + 4t + 1 of t = 1: lane 5, a13.
        assert_eq!(S8_A.holder(9, 21), Some((5, 13)));
    }
}
