//! MLIR's `quant` dialect, its types only: `!quant.uniform<i8:f32, 0.1:-30>`
//! (one scale and zero point) and `!quant.uniform<i8<-127:127>:f32:1,
//! {0.1:-30, 0.5}>` (one per index of a quantized dimension), a
//! [`UniformQuantized`] value. Elements of a quantized type are stored as
//! their storage integer ([`aic::types::DialectValue::storage_type`]), so the
//! interpreter holds them as it holds integers; [`UniformQuantized::quantize`]
//! and [`UniformQuantized::dequantize`] convert per the StableHLO spec.

use aic::ir::Uniquer;
use aic::syntax::Aliases;
use aic::types::{DialectObject, DialectValue, Signedness, Type, TypeKind};

/// `!quant.uniform<...>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UniformQuantized {
    /// The storage type, always signless (`i8` for `i8` and `u8` alike).
    pub storage: Type,
    /// Whether the storage integer is signed (`i8`) or not (`u8`).
    pub signed: bool,
    /// The least and greatest storage values (the type's own range unless
    /// written `i8<-127:127>`).
    pub range: (i64, i64),
    /// Whether the range was written.
    pub explicit_range: bool,
    /// The float type the values stand for.
    pub expressed: Type,
    /// The quantized dimension (`None`: one scale for the whole tensor).
    pub axis: Option<i64>,
    /// The scales' bits (`f64::to_bits`), one per index of `axis` or one.
    pub scales: Vec<u64>,
    /// The zero points, as many as the scales.
    pub zero_points: Vec<i64>,
}

impl UniformQuantized {
    /// The quantized type `t` is or has as its element type, if any.
    pub fn of(u: &Uniquer, t: Type) -> Option<&UniformQuantized> {
        let e = u.type_kind(t).element_type().unwrap_or(t);
        u.dialect_type::<UniformQuantized>(e)
    }
    /// Scale and zero point of the element at index `i` of a tensor of `shape`.
    fn params(&self, shape: &[i64], i: usize) -> (f64, i64) {
        let k = match self.axis {
            Some(a) => {
                let a = a as usize;
                let inner: i64 = shape.get(a + 1..).map_or(1, |s| s.iter().product());
                let size = shape.get(a).copied().unwrap_or(1).max(1);
                ((i as i64 / inner.max(1)) % size) as usize
            }
            None => 0,
        };
        let k = k.min(self.scales.len().saturating_sub(1));
        (f64::from_bits(self.scales[k]), self.zero_points[k])
    }
    /// The storage values of `values` (a tensor of `shape`): `x / scale +
    /// zero_point` rounded to nearest even, clamped to the storage range.
    pub fn quantize(&self, shape: &[i64], values: &[f64]) -> Vec<i64> {
        values
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let (s, z) = self.params(shape, i);
                let q = (x / s + z as f64).round_ties_even();
                if q.is_nan() {
                    0
                } else {
                    q.clamp(self.range.0 as f64, self.range.1 as f64) as i64
                }
            })
            .collect()
    }
    /// The values that the storage values `q` (a tensor of `shape`) stand
    /// for: `(q - zero_point) * scale`.
    pub fn dequantize(&self, shape: &[i64], q: &[i64]) -> Vec<f64> {
        q.iter()
            .enumerate()
            .map(|(i, v)| {
                let (s, z) = self.params(shape, i);
                (v - z) as f64 * s
            })
            .collect()
    }

    /// Read the text after `!quant.uniform<` up to its closing `>`.
    fn parse_body(u: &Uniquer, body: &str) -> Result<UniformQuantized, String> {
        let bad = |m: &str| format!("malformed !quant.uniform<{body}>: {m}");
        // Storage: `i8`, `u8`, optionally `<min:max>`.
        let (signed, rest) = match body.as_bytes().first() {
            Some(b'i') => (true, &body[1..]),
            Some(b'u') => (false, &body[1..]),
            _ => return Err(bad("expected a storage type (i8, u8, ...)")),
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let width: u32 = rest[..digits]
            .parse()
            .map_err(|_| bad("expected the storage width"))?;
        if !(1..=32).contains(&width) {
            return Err(bad("storage widths are 1 to 32 bits"));
        }
        let mut rest = rest[digits..].trim_start();
        let full = if signed {
            (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
        } else {
            (0, (1i64 << width) - 1)
        };
        let mut range = full;
        let mut explicit_range = false;
        if let Some(r) = rest.strip_prefix('<') {
            let end = r.find('>').ok_or_else(|| bad("unclosed storage range"))?;
            let (lo, hi) = r[..end]
                .split_once(':')
                .ok_or_else(|| bad("expected <min:max>"))?;
            let lo: i64 = lo.trim().parse().map_err(|_| bad("storage minimum"))?;
            let hi: i64 = hi.trim().parse().map_err(|_| bad("storage maximum"))?;
            if lo < full.0 || hi > full.1 || lo > hi {
                return Err(bad("the storage range lies outside the storage type"));
            }
            range = (lo, hi);
            explicit_range = true;
            rest = r[end + 1..].trim_start();
        }
        let rest = rest.strip_prefix(':').ok_or_else(|| bad("expected ':'"))?;
        // Expressed type, then `:axis` or `,`.
        let (expressed_text, rest) = match rest.find([':', ',']) {
            Some(k) => (&rest[..k], &rest[k..]),
            None => return Err(bad("expected the scales")),
        };
        let expressed = aic::syntax::parse_type(u, &Aliases::default(), expressed_text.trim())
            .map_err(|d| bad(&d.message))?;
        if !matches!(u.type_kind(expressed), TypeKind::Float(_)) {
            return Err(bad("the expressed type must be a float type"));
        }
        let (axis, rest) = match rest.strip_prefix(':') {
            Some(r) => {
                let (a, r) = r.split_once(',').ok_or_else(|| bad("expected ','"))?;
                (
                    Some(
                        a.trim()
                            .parse::<i64>()
                            .map_err(|_| bad("the quantized dimension"))?,
                    ),
                    r,
                )
            }
            None => (None, &rest[1..]),
        };
        let params = rest.trim();
        let params = match axis {
            Some(_) => params
                .strip_prefix('{')
                .and_then(|p| p.strip_suffix('}'))
                .ok_or_else(|| bad("per-axis scales are written {s:z, ...}"))?,
            None => params,
        };
        let (mut scales, mut zero_points) = (Vec::new(), Vec::new());
        for item in params.split(',') {
            let (s, z) = match item.split_once(':') {
                Some((s, z)) => (s, z.trim().parse().map_err(|_| bad("a zero point"))?),
                None => (item, 0),
            };
            let s: f64 = s.trim().parse().map_err(|_| bad("a scale"))?;
            if !(s.is_finite() && s > 0.0) {
                return Err(bad("scales must be positive and finite"));
            }
            if z < range.0 || z > range.1 {
                return Err(bad("a zero point lies outside the storage range"));
            }
            scales.push(s.to_bits());
            zero_points.push(z);
        }
        if axis.is_none() && scales.len() != 1 {
            return Err(bad("one scale without a quantized dimension"));
        }
        Ok(UniformQuantized {
            storage: u.ty(TypeKind::Integer {
                width,
                signedness: if signed {
                    Signedness::Signless
                } else {
                    Signedness::Unsigned
                },
            }),
            signed,
            range,
            explicit_range,
            expressed,
            axis,
            scales,
            zero_points,
        })
    }
}

impl DialectValue for UniformQuantized {
    fn print(&self, u: &Uniquer, out: &mut String) {
        let width = match u.type_kind(self.storage) {
            TypeKind::Integer { width, .. } => *width,
            _ => 8,
        };
        out.push_str(&format!(
            "quant.uniform<{}{width}",
            if self.signed { 'i' } else { 'u' }
        ));
        if self.explicit_range {
            out.push_str(&format!("<{}:{}>", self.range.0, self.range.1));
        }
        out.push(':');
        out.push_str(&aic::printer::type_text(u, self.expressed));
        let param = |k: usize| {
            format!(
                "{:?}:{}",
                f64::from_bits(self.scales[k]),
                self.zero_points[k]
            )
        };
        match self.axis {
            Some(a) => {
                let ps: Vec<String> = (0..self.scales.len()).map(param).collect();
                out.push_str(&format!(":{a}, {{{}}}>", ps.join(",")));
            }
            None => out.push_str(&format!(", {}>", param(0))),
        }
    }
    fn storage_type(&self) -> Option<Type> {
        Some(self.storage)
    }
}

/// The `quant` dialect's types.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "quant",
    parse_type: Some(|u, text| {
        let Some(body) = text
            .strip_prefix("quant.uniform<")
            .and_then(|b| b.strip_suffix('>'))
        else {
            return Ok(None);
        };
        UniformQuantized::parse_body(u, body).map(|q| Some(DialectObject::new(q)))
    }),
    parse_attr: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_prints_and_converts() {
        let u = Uniquer::default();
        let q = UniformQuantized::parse_body(&u, "i8:f32:0, {0.1:-30,0.5:-20}").unwrap();
        assert_eq!(q.axis, Some(0));
        assert_eq!(q.range, (-128, 127));
        let mut s = String::new();
        q.print(&u, &mut s);
        assert_eq!(s, "quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>");
        assert_eq!(q.quantize(&[2], &[4.0, 15.0]), vec![10, 10]);
        assert_eq!(q.dequantize(&[2], &[10, 10]), vec![4.0, 15.0]);
        let r = UniformQuantized::parse_body(&u, "u8<1:200>:f32, 2.0:1").unwrap();
        // 3 / 2 + 1 = 2.5 rounds to even.
        assert_eq!(r.quantize(&[3], &[-5.0, 3.0, 1e9]), vec![1, 2, 200]);
        assert!(UniformQuantized::parse_body(&u, "i8:f32, -1.0:0").is_err());
        assert!(UniformQuantized::parse_body(&u, "i8:i32, 1.0:0").is_err());
    }
}
