//! NKI tiles as values: `!nki.tile<128x512xbf16, sbuf>`, the partition
//! dimension first, in on-chip SBUF or PSUM.

use aic::dialect::{DialectSyntax, TypeConstraint};
use aic::ir::Uniquer;
use aic::types::{DialectObject, DialectValue, Type, TypeKind};
use std::fmt::Write as _;

aic::dialect_enum! {
    /// The on-chip memory a tile lives in, `#nki<space sbuf>`.
    pub enum Space = "nki<space ", "on-chip memory (sbuf, psum)" {
        /// The state buffer, the engines' working memory.
        Sbuf = "sbuf",
        /// The partial-sum buffer the Tensor engine writes (fp32 accumulation).
        Psum = "psum",
    }
}

/// A tile type: `shape[0]` partitions of `shape[1..]` free elements each.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NkiTile {
    /// Partition dimension first, then the free dimensions.
    pub shape: Vec<i64>,
    /// The element type.
    pub elem: Type,
    /// Where it lives.
    pub space: Space,
}

impl NkiTile {
    /// The partition dimension.
    pub fn partitions(&self) -> i64 {
        self.shape[0]
    }

    /// Elements per partition (the product of the free dimensions).
    pub fn free(&self) -> i64 {
        self.shape[1..].iter().product()
    }

    /// Bytes per partition for elements of `bytes` bytes.
    pub fn free_bytes(&self, elem_bytes: i64) -> i64 {
        self.free().saturating_mul(elem_bytes)
    }

    fn parse(u: &Uniquer, text: &str) -> Option<NkiTile> {
        let body = text.strip_prefix("nki.tile<")?.strip_suffix('>')?;
        let (dims, space) = body.rsplit_once(',')?;
        let space = Space::from_keyword(space.trim())?;
        let mut shape = Vec::new();
        let mut elem_text = dims.trim();
        while let Some((d, rest)) = elem_text.split_once('x') {
            let Ok(d) = d.parse::<i64>() else { break };
            shape.push(d);
            elem_text = rest;
        }
        if shape.len() < 2 || shape.iter().any(|d| *d < 1) {
            return None;
        }
        let elem = aic::syntax::parse_type(u, &Default::default(), elem_text).ok()?;
        Some(NkiTile { shape, elem, space })
    }
}

impl DialectValue for NkiTile {
    fn print(&self, u: &Uniquer, out: &mut String) {
        out.push_str("nki.tile<");
        for d in &self.shape {
            let _ = write!(out, "{d}x");
        }
        aic::printer::write_type(u, self.elem, out);
        let _ = write!(out, ", {}>", self.space.keyword());
    }
}

/// The tile type `t` is, if it is one.
pub fn nki_tile(u: &Uniquer, t: Type) -> Option<&NkiTile> {
    u.dialect_type(t)
}

/// The interned type of tile `t`.
pub fn make_nki_tile(u: &Uniquer, shape: Vec<i64>, elem: Type, space: Space) -> Type {
    u.ty(TypeKind::dialect(NkiTile { shape, elem, space }))
}

/// Whether `t` is `!nki.tile<...>` text that did not read as a tile.
pub(super) fn malformed(t: &TypeKind) -> bool {
    matches!(t, TypeKind::Opaque(s) if s.starts_with("nki.tile<"))
}

/// An NKI tile (or malformed tile text, for the op verifier to report).
pub(super) const TILE: TypeConstraint = TypeConstraint {
    desc: "nki tile",
    check: |t, _| t.dialect_value::<NkiTile>().is_some() || malformed(t),
    build: None,
};

/// The dialect's type and attribute syntax.
pub static SYNTAX: DialectSyntax = DialectSyntax {
    dialect: "nki",
    parse_type: Some(|u, body| Ok(NkiTile::parse(u, body).map(DialectObject::new))),
    parse_attr: Some(|_, body| {
        Ok(Space::parse_attr(body)
            .or_else(|| super::Engine::parse_attr(body))
            .or_else(|| super::Alu::parse_attr(body))
            .or_else(|| super::Act::parse_attr(body))
            .or_else(|| super::ReduceOp::parse_attr(body))
            .or_else(|| super::Arch::parse_attr(body)))
    }),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_read_and_print() {
        let u = Uniquer::default();
        let t = NkiTile::parse(&u, "nki.tile<128x4x8xbf16, psum>").expect("reads");
        assert_eq!(t.shape, vec![128, 4, 8]);
        assert_eq!((t.partitions(), t.free(), t.space), (128, 32, Space::Psum));
        let mut s = String::new();
        t.print(&u, &mut s);
        assert_eq!(s, "nki.tile<128x4x8xbf16, psum>");
        assert!(NkiTile::parse(&u, "nki.tile<128xf32, sbuf>").is_none());
        assert!(NkiTile::parse(&u, "nki.tile<4x8xf32, hbm>").is_none());
    }
}
