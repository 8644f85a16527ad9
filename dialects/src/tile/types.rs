//! Tile types, `!tile.tile<16x32xf16(, shared)?(, LAYOUT)?>`, as values: their
//! space and layout, parsing and printing.

use aic::dialect::{DialectSyntax, TypeConstraint};
use aic::ir::Uniquer;
use aic::types::{DialectObject, DialectValue, Type, TypeKind};
use std::fmt::Write as _;

aic::dialect_enum! {
    /// Where a tile lives, `#tile<space shared>`.
    pub enum Space = "tile<space ", "tile space (register, shared)" {
        /// Registers (the default).
        Register = "register",
        /// Shared memory (LDS on AMD).
        Shared = "shared",
    }
}

/// A tile type: shape, element type, space and, optionally, how its
/// elements are laid out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileType {
    /// The tile's shape.
    pub shape: Vec<i64>,
    /// The element type.
    pub elem: Type,
    /// Where it lives.
    pub space: Space,
    /// How the elements are distributed (None: left to the backend).
    pub layout: Option<Layout>,
}

/// How a tile's elements are laid out; the interpreter ignores it (a layout
/// never changes a value), the verifier checks it fits the tile, and a
/// backend follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Register fragments of an `m x n x k` matrix instruction (mma.sync on
    /// NVIDIA, MFMA on AMD) run by a `wm x wn` grid of warps, each owning a
    /// block of `M/wm x N/wn` of the tile in whole fragments:
    /// `mma<16, 8, 16, 2, 2>` (`mma<16, 8, 16>`: one warp).
    Mma {
        /// Rows of one fragment.
        m: i64,
        /// Columns of one fragment.
        n: i64,
        /// The instruction's depth.
        k: i64,
        /// Warps along the rows.
        wm: i64,
        /// Warps along the columns.
        wn: i64,
    },
    /// The accumulator of Hopper's warpgroup MMA, m64nNk16 per warpgroup
    /// stacked along the rows: `wgmma<64, N, 16>` (N the tile's columns);
    /// each warp holds 16 rows in mma.sync's m16n8 fragments, N/8 of them.
    Wgmma {
        /// The instruction's (and the tile's) columns.
        n: i64,
    },
    /// Shared memory with CuTe's XOR swizzle, `swizzle<b, m, s>`: 2^b rows
    /// of 2^m-element units, the row bits shifted by s, to avoid bank
    /// conflicts; `swizzle<b, m, s, trans>` stores the tile transposed
    /// (column after column, a column a line).
    Swizzle {
        /// Bits of the row index XOR-ed in.
        b: i64,
        /// Bits of the unit.
        m: i64,
        /// The shift.
        s: i64,
        /// Stored column after column.
        trans: bool,
    },
    /// Shared memory whose lines (rows, or columns where `trans`) are `row`
    /// elements apart, more than their length so that the lines of an 8x8
    /// matrix ldmatrix reads fall in distinct banks: `padded<72>`,
    /// `padded<40, trans>`.
    Padded {
        /// Elements from one line's start to the next's.
        row: i64,
        /// Stored column after column.
        trans: bool,
    },
    /// The rows of a 2-D register tile each held by one warp,
    /// `warp_rows<lanes, v, warps>`: lane `l` of warp `w` holds runs of `v`
    /// neighbouring elements at columns `l * v`, `(lanes + l) * v`, ... of
    /// rows `w`, `w + warps`, ..., so that a row reduces by shuffles alone.
    WarpRows {
        /// Lanes of a warp.
        lanes: i64,
        /// Elements of a run.
        v: i64,
        /// Warps of the block.
        warps: i64,
    },
}

impl Layout {
    fn parse(text: &str) -> Option<Layout> {
        let (name, rest) = text.split_once('<')?;
        let mut parts: Vec<&str> = rest.strip_suffix('>')?.split(',').map(str::trim).collect();
        // A shared layout's storage order, last.
        let trans = parts.last() == Some(&"trans");
        if trans {
            parts.pop();
        }
        let nums: Vec<i64> = parts
            .iter()
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?;
        match (name.trim(), nums.as_slice()) {
            ("swizzle", &[b, m, s]) if b >= 0 && m >= 0 && s >= 0 => {
                Some(Layout::Swizzle { b, m, s, trans })
            }
            ("padded", &[row]) if row > 0 => Some(Layout::Padded { row, trans }),
            _ if trans => None,
            ("mma", &[m, n, k]) if m > 0 && n > 0 && k > 0 => Some(Layout::Mma {
                m,
                n,
                k,
                wm: 1,
                wn: 1,
            }),
            ("mma", &[m, n, k, wm, wn]) if [m, n, k, wm, wn].iter().all(|x| *x > 0) => {
                Some(Layout::Mma { m, n, k, wm, wn })
            }
            ("wgmma", &[64, n, 16]) if n > 0 && n % 8 == 0 => Some(Layout::Wgmma { n }),
            ("warp_rows", &[lanes, v, warps]) if lanes > 0 && v > 0 && warps > 0 => {
                Some(Layout::WarpRows { lanes, v, warps })
            }
            _ => None,
        }
    }

    fn text(self) -> String {
        match self {
            Layout::Mma {
                m,
                n,
                k,
                wm: 1,
                wn: 1,
            } => format!("mma<{m}, {n}, {k}>"),
            Layout::Mma { m, n, k, wm, wn } => format!("mma<{m}, {n}, {k}, {wm}, {wn}>"),
            Layout::Wgmma { n } => format!("wgmma<64, {n}, 16>"),
            Layout::Swizzle { b, m, s, trans } => {
                format!(
                    "swizzle<{b}, {m}, {s}{}>",
                    if trans { ", trans" } else { "" }
                )
            }
            Layout::Padded { row, trans } => {
                format!("padded<{row}{}>", if trans { ", trans" } else { "" })
            }
            Layout::WarpRows { lanes, v, warps } => format!("warp_rows<{lanes}, {v}, {warps}>"),
        }
    }

    /// Why this layout does not fit a tile of `shape` in `space`, if it
    /// does not.
    pub fn misfit(self, shape: &[i64], space: Space) -> Option<String> {
        match self {
            Layout::Mma { m, n, wm, wn, .. } => {
                if space != Space::Register {
                    return Some("an mma layout is for register tiles".into());
                }
                let fits = shape.len() == 2 && shape[0] % m == 0 && shape[1] % n == 0;
                if !fits {
                    return Some(format!(
                        "{shape:?} is not a whole number of {m}x{n} fragments"
                    ));
                }
                let spread = shape[0] % (m * wm) == 0 && shape[1] % (n * wn) == 0;
                (!spread).then(|| {
                    format!("{shape:?} does not spread over {wm}x{wn} warps in {m}x{n} fragments")
                })
            }
            Layout::Wgmma { n } => {
                if space != Space::Register {
                    return Some("a wgmma layout is for register tiles".into());
                }
                let fits = shape.len() == 2 && shape[0] % 64 == 0 && shape[1] == n;
                (!fits).then(|| format!("{shape:?} is not rows of 64 by {n} columns"))
            }
            Layout::Swizzle { trans, .. } => {
                if space != Space::Shared {
                    return Some("a swizzle is for shared tiles".into());
                }
                (trans && shape.len() != 2).then(|| "a transposed tile has two dims".into())
            }
            Layout::Padded { row, trans } => {
                if space != Space::Shared {
                    return Some("padded rows are for shared tiles".into());
                }
                if shape.len() != 2 {
                    return Some(format!("{shape:?} is not a tile of rows"));
                }
                let line = if trans { shape[0] } else { shape[1] };
                (row < line).then(|| format!("lines {row} apart overlap lines of {line}"))
            }
            Layout::WarpRows { lanes, v, warps } => {
                if space != Space::Register {
                    return Some("warp rows are for register tiles".into());
                }
                let fits = shape.len() == 2 && shape[0] % warps == 0 && shape[1] % (lanes * v) == 0;
                (!fits).then(|| {
                    format!(
                        "{shape:?} is not rows of a multiple of {warps} each a multiple of {lanes}x{v} elements"
                    )
                })
            }
        }
    }
}

/// Split `text` at the commas outside angle brackets.
fn top_level_parts(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// The tile type `t` is, if it is one.
pub fn tile_type(u: &Uniquer, t: Type) -> Option<&TileType> {
    u.dialect_type(t)
}

impl TileType {
    /// Reads the body of `!tile.tile<16x8xf16(, shared)?(, LAYOUT)?>` (after `!`);
    /// `None` if it is not a well-formed tile type.
    fn parse(u: &Uniquer, text: &str) -> Option<TileType> {
        let body = text.strip_prefix("tile.tile<")?.strip_suffix('>')?;
        let parts = top_level_parts(body);
        let (dims, rest) = parts.split_first()?;
        let (mut space, mut layout) = (Space::Register, None);
        for (i, p) in rest.iter().enumerate() {
            match *p {
                "register" if i == 0 => space = Space::Register,
                "shared" if i == 0 => space = Space::Shared,
                _ if layout.is_none() && i + 1 == rest.len() => layout = Some(Layout::parse(p)?),
                _ => return None,
            }
        }
        // `16x8xindex`: sizes, each followed by an `x`, then the element type
        // (which may itself hold an `x`).
        let mut shape = Vec::new();
        let mut elem_text = *dims;
        while let Some((d, rest)) = elem_text.split_once('x') {
            let Ok(d) = d.parse::<i64>() else { break };
            shape.push(d);
            elem_text = rest;
        }
        if shape.is_empty() || shape.iter().any(|d| *d < 1) {
            return None;
        }
        let elem = aic::syntax::parse_type(u, &Default::default(), elem_text).ok()?;
        Some(TileType {
            shape,
            elem,
            space,
            layout,
        })
    }
}

impl DialectValue for TileType {
    fn print(&self, u: &Uniquer, out: &mut String) {
        out.push_str("tile.tile<");
        for d in &self.shape {
            let _ = write!(out, "{d}x");
        }
        aic::printer::write_type(u, self.elem, out);
        if self.space == Space::Shared {
            out.push_str(", shared");
        }
        if let Some(l) = self.layout {
            let _ = write!(out, ", {}", l.text());
        }
        out.push('>');
    }
}

/// The types and attributes of `tile` (and of `coord`, whose descriptors tile ops
/// take) as values.
pub static SYNTAX: DialectSyntax = DialectSyntax {
    dialect: "tile",
    // A malformed `!tile.tile<...>` stays opaque text for the op verifier to
    // report, naming the op that uses it.
    parse_type: Some(|u, body| Ok(TileType::parse(u, body).map(DialectObject::new))),
    parse_attr: Some(|_, body| {
        Ok(super::Level::parse_attr(body)
            .or_else(|| Space::parse_attr(body))
            .or_else(|| super::ReduceKind::parse_attr(body))
            .or_else(|| super::CopyKind::parse_attr(body)))
    }),
};

/// The type of a tile of `shape` and `elem` in `space`, its layout left to
/// the backend.
pub fn plain_tile(u: &Uniquer, shape: Vec<i64>, elem: Type, space: Space) -> Type {
    make_tile(
        u,
        &TileType {
            shape,
            elem,
            space,
            layout: None,
        },
    )
}

/// The type of a tile.
pub fn make_tile(u: &Uniquer, t: &TileType) -> Type {
    u.ty(TypeKind::dialect(t.clone()))
}

/// Whether `t` is spelled as a tile type the tile parser could not read, which the
/// verifier reports as malformed.
pub(super) fn malformed_tile(t: &TypeKind) -> bool {
    matches!(t, TypeKind::Opaque(s) if s.starts_with("tile.tile<"))
}

pub(super) const TILE: TypeConstraint = TypeConstraint {
    desc: "tile",
    check: |t, _| t.dialect_value::<TileType>().is_some() || malformed_tile(t),
    build: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mma_layouts_read_print_and_fit() {
        let one = Layout::parse("mma<16, 8, 16>").expect("reads");
        assert_eq!(
            one,
            Layout::Mma {
                m: 16,
                n: 8,
                k: 16,
                wm: 1,
                wn: 1
            }
        );
        assert_eq!(one.text(), "mma<16, 8, 16>");
        let grid = Layout::parse("mma<16, 8, 16, 2, 2>").expect("reads");
        assert_eq!(grid.text(), "mma<16, 8, 16, 2, 2>");
        assert_eq!(Layout::parse("mma<16, 8, 16, 0, 2>"), None);
        assert_eq!(Layout::parse("mma<16, 8, 16, 2>"), None);
        assert_eq!(grid.misfit(&[64, 32], Space::Register), None);
        assert!(grid.misfit(&[16, 32], Space::Register).is_some());
        assert!(grid.misfit(&[64, 8], Space::Register).is_some());
        assert!(grid.misfit(&[64, 32], Space::Shared).is_some());
        let wg = Layout::parse("wgmma<64, 128, 16>").expect("reads");
        assert_eq!(wg, Layout::Wgmma { n: 128 });
        assert_eq!(wg.text(), "wgmma<64, 128, 16>");
        assert_eq!(Layout::parse("wgmma<64, 12, 16>"), None);
        assert_eq!(Layout::parse("wgmma<32, 128, 16>"), None);
        assert_eq!(wg.misfit(&[128, 128], Space::Register), None);
        assert!(wg.misfit(&[96, 128], Space::Register).is_some());
        assert!(wg.misfit(&[128, 64], Space::Register).is_some());
    }

    #[test]
    fn shared_layouts_read_print_and_fit() {
        let p = Layout::parse("padded<72>").expect("reads");
        assert_eq!(
            p,
            Layout::Padded {
                row: 72,
                trans: false
            }
        );
        assert_eq!(p.text(), "padded<72>");
        let t = Layout::parse("padded<40, trans>").expect("reads");
        assert_eq!(
            t,
            Layout::Padded {
                row: 40,
                trans: true
            }
        );
        assert_eq!(t.text(), "padded<40, trans>");
        assert_eq!(Layout::parse("padded<0>"), None);
        assert_eq!(Layout::parse("padded<72, 1>"), None);
        assert_eq!(Layout::parse("mma<16, 8, 16, trans>"), None);
        assert_eq!(p.misfit(&[64, 64], Space::Shared), None);
        assert!(p.misfit(&[64, 80], Space::Shared).is_some());
        assert!(p.misfit(&[64, 64], Space::Register).is_some());
        assert!(p.misfit(&[4096], Space::Shared).is_some());
        assert_eq!(t.misfit(&[32, 128], Space::Shared), None);
        assert!(t.misfit(&[64, 16], Space::Shared).is_some());
        let s = Layout::parse("swizzle<3, 3, 3, trans>").expect("reads");
        assert_eq!(
            s,
            Layout::Swizzle {
                b: 3,
                m: 3,
                s: 3,
                trans: true
            }
        );
        assert_eq!(s.text(), "swizzle<3, 3, 3, trans>");
        let plain = Layout::parse("swizzle<3, 3, 3>").expect("reads");
        assert_eq!(plain.text(), "swizzle<3, 3, 3>");
        assert_eq!(s.misfit(&[64, 64], Space::Shared), None);
        assert!(s.misfit(&[4096], Space::Shared).is_some());
        assert_eq!(plain.misfit(&[4096], Space::Shared), None);
        assert!(plain.misfit(&[64, 64], Space::Register).is_some());
    }

    #[test]
    fn warp_rows_read_print_and_fit() {
        let l = Layout::parse("warp_rows<32, 8, 2>").expect("reads");
        assert_eq!(
            l,
            Layout::WarpRows {
                lanes: 32,
                v: 8,
                warps: 2
            }
        );
        assert_eq!(l.text(), "warp_rows<32, 8, 2>");
        assert_eq!(Layout::parse("warp_rows<32, 0, 2>"), None);
        assert_eq!(Layout::parse("warp_rows<32, 8>"), None);
        assert_eq!(l.misfit(&[4, 512], Space::Register), None);
        assert!(l.misfit(&[3, 512], Space::Register).is_some());
        assert!(l.misfit(&[4, 128], Space::Register).is_some());
        assert!(l.misfit(&[2048], Space::Register).is_some());
        assert!(l.misfit(&[4, 512], Space::Shared).is_some());
    }
}
