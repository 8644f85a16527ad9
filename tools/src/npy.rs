//! Reading and writing NumPy `.npy` files (format version 1.0/2.0, little-endian,
//! C order) as interpreter tensors of a given IR type.

use aic::Context;
use aic::float::FloatKind;
use aic::interp::{Data, Elem, Tensor};
use aic::types::{Signedness, Type};

/// The `.npy` dtype string of an element kind, if NumPy has one.
pub fn dtype(e: Elem) -> Option<&'static str> {
    Some(match e {
        Elem::Int { width: 1, .. } => "|b1",
        Elem::Int { width, signedness } => {
            let unsigned = signedness == Signedness::Unsigned;
            match (width, unsigned) {
                (8, false) => "|i1",
                (8, true) => "|u1",
                (16, false) => "<i2",
                (16, true) => "<u2",
                (32, false) => "<i4",
                (32, true) => "<u4",
                (64, false) => "<i8",
                (64, true) => "<u8",
                _ => return None,
            }
        }
        Elem::Index => "<i8",
        Elem::Float(FloatKind::F16) => "<f2",
        // NumPy has no bfloat16: `ml_dtypes`' bfloat16 arrays save as
        // two-byte void elements, which is how aic reads and writes them.
        Elem::Float(FloatKind::BF16) => "<V2",
        // Nor fp8: `ml_dtypes`' float8_e4m3fn / float8_e5m2 arrays save as
        // one-byte void elements (the format's bytes).
        Elem::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2) => "|V1",
        Elem::Float(FloatKind::F32) => "<f4",
        Elem::Float(FloatKind::F64) => "<f8",
        Elem::Complex(FloatKind::F32) => "<c8",
        Elem::Complex(FloatKind::F64) => "<c16",
        _ => return None,
    })
}

fn item_size(d: &str) -> usize {
    d[2..].parse::<usize>().unwrap_or(1)
}

/// An `.npy` file's header, and the bytes after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The dtype (`<f4`, `|b1`, ...), as written.
    pub descr: String,
    /// The dimensions; their element count fits an `i64`.
    pub shape: Vec<i64>,
    /// The element data (possibly more bytes than the elements need).
    pub data: &'a [u8],
}

/// Parses the header of `.npy` bytes (format versions 1.0, 2.0 and 3.0;
/// the header must be ASCII): every malformed or unsupported header
/// (Fortran order, a negative or overflowing shape) is an error.
pub fn parse(bytes: &[u8]) -> Result<Header<'_>, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not an .npy file".into());
    }
    let (hlen, start) = match bytes[6] {
        1 => (
            usize::from(u16::from_le_bytes([bytes[8], bytes[9]])),
            10usize,
        ),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        2 | 3 => return Err("truncated .npy header".into()),
        v => return Err(format!("unsupported .npy format version {v}")),
    };
    let header = start
        .checked_add(hlen)
        .and_then(|end| bytes.get(start..end))
        .ok_or("truncated .npy header")?;
    // ASCII only, so that every byte offset below is a character boundary.
    if !header.is_ascii() {
        return Err("the .npy header is not ASCII".into());
    }
    let data = &bytes[start + hlen..];
    let header = std::str::from_utf8(header).map_err(|_| "the .npy header is not ASCII")?;
    let field = |key: &str| -> Option<&str> {
        let i = header.find(&format!("'{key}':"))? + key.len() + 3;
        Some(header[i..].trim_start())
    };
    let descr = field("descr")
        .and_then(|s| s.strip_prefix('\''))
        .and_then(|s| s.split_once('\''))
        .map(|(d, _)| d.to_string())
        .ok_or("no 'descr' in the .npy header")?;
    match field("fortran_order") {
        Some(s) if s.starts_with("False") => {}
        Some(s) if s.starts_with("True") => {
            return Err("Fortran-ordered .npy arrays are not supported".into());
        }
        _ => return Err("no 'fortran_order' in the .npy header".into()),
    }
    let shape_text = field("shape")
        .and_then(|s| s.strip_prefix('('))
        .and_then(|s| s.split_once(')'))
        .map(|(s, _)| s)
        .ok_or("no 'shape' in the .npy header")?;
    let shape: Vec<i64> = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s.parse::<i64>() {
            Ok(d) if d >= 0 => Ok(d),
            _ => Err(format!("bad shape '({shape_text})'")),
        })
        .collect::<Result<_, _>>()?;
    aic::shape::elements(&shape)
        .map_err(|_| format!("shape {shape:?} has more elements than an .npy array can address"))?;
    Ok(Header { descr, shape, data })
}

/// Parse `.npy` bytes as a tensor of type `ty`; errors say what did not match.
pub fn read(ctx: &Context, bytes: &[u8], ty: Type) -> Result<Tensor, String> {
    let Header { descr, shape, data } = parse(bytes)?;
    let descr = descr.as_str();
    let elem = Elem::of(ctx, ty).ok_or("unsupported argument type")?;
    let want = dtype(elem).ok_or("no .npy dtype for this element type")?;
    let descr = match descr {
        "<b1" => "|b1",
        "|V2" => "<V2",
        d => d,
    };
    let same = descr == want
        || (descr.len() > 1 && want.len() > 1 && descr[1..] == want[1..] && item_size(want) == 1);
    if !same {
        return Err(format!(
            "dtype '{descr}' does not match the argument's element type ('{want}')"
        ));
    }
    let want_shape = ctx
        .type_kind(ty)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    // A dynamic dimension (`?`) takes the file's size.
    let fits = shape.len() == want_shape.len()
        && shape
            .iter()
            .zip(&want_shape)
            .all(|(s, w)| s == w || *w == aic::types::DYNAMIC);
    if !fits {
        let text: Vec<String> = want_shape
            .iter()
            .map(|d| match *d {
                aic::types::DYNAMIC => "?".to_string(),
                d => d.to_string(),
            })
            .collect();
        return Err(format!(
            "shape {shape:?} does not match the argument's shape [{}]",
            text.join(", ")
        ));
    }
    let size = if want == "|b1" { 1 } else { item_size(want) };
    // `parse` bounded the count; the bytes are checked here.
    let n = aic::shape::elements(&shape).map_err(|_| "the .npy shape overflows")?;
    let need = aic::shape::bytes(&shape, size as u64)
        .ok()
        .and_then(|b| usize::try_from(b).ok());
    if need.is_none_or(|b| data.len() < b) {
        return Err(format!(
            "{} bytes of data for {n} elements of {size} bytes",
            data.len()
        ));
    }
    let n = n as usize;
    let word = |i: usize, w: usize| -> u128 {
        data[i * w..(i + 1) * w]
            .iter()
            .rev()
            .fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
    };
    let d = match elem {
        Elem::Int { .. } | Elem::Index => {
            Data::from_i64s(elem, (0..n).map(|i| elem.wrap(word(i, size) as i128)))
        }
        Elem::Float(k) => Data::from_f64s(k, (0..n).map(|i| k.to_f64(word(i, size)))),
        Elem::Complex(k) => {
            let h = size / 2;
            Data::from_complex(
                k,
                (0..n).map(|i| {
                    let (re, im) = (word(2 * i, h), word(2 * i + 1, h));
                    (k.to_f64(re), k.to_f64(im))
                }),
            )
        }
    };
    let _ = size;
    // The tensor's type is static: the file's shape where `ty` has `?`.
    let ty = match ctx.type_kind(ty) {
        aic::types::TypeKind::Tensor { elem, encoding, .. } if want_shape != shape => {
            ctx.uniquer().ty(aic::types::TypeKind::Tensor {
                shape: shape.iter().copied().collect(),
                elem: *elem,
                encoding: *encoding,
            })
        }
        _ => ty,
    };
    Ok(Tensor::new(ctx, ty, d))
}

/// The `.npy` bytes of a tensor.
pub fn write(ctx: &Context, t: &Tensor) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write_to(ctx, t, &mut out)?;
    Ok(out)
}

/// Writes the `.npy` form of a tensor to `w`, element by element (no copy
/// of the whole file in memory; give a buffered writer).
pub fn write_to(ctx: &Context, t: &Tensor, w: &mut impl std::io::Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let elem = t.elem(ctx);
    let d = dtype(elem).ok_or("no .npy dtype for this element type")?;
    let shape = match t.shape.len() {
        0 => "()".to_string(),
        1 => format!("({},)", t.shape[0]),
        _ => format!(
            "({})",
            t.shape
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{d}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    w.write_all(b"\x93NUMPY\x01\x00").map_err(io)?;
    w.write_all(&(header.len() as u16).to_le_bytes())
        .map_err(io)?;
    w.write_all(header.as_bytes()).map_err(io)?;
    let size = if d == "|b1" { 1 } else { item_size(d) };
    // Elements go out a chunk at a time: the file is never whole in memory.
    const CHUNK: usize = 1 << 13;
    let mut buf = Vec::with_capacity(CHUNK * size);
    let mut out = |buf: &mut Vec<u8>| -> Result<(), String> {
        w.write_all(buf).map_err(io)?;
        buf.clear();
        Ok(())
    };
    let chunks = (0..t.len())
        .step_by(CHUNK)
        .map(|s| s..(s + CHUNK).min(t.len()));
    match (&t.data, elem) {
        (Data::Int(v), _) => {
            for c in chunks {
                for x in c.map(|i| v.get(i)) {
                    let x = if size == 1 && d == "|b1" {
                        i64::from(x != 0)
                    } else {
                        x
                    };
                    buf.extend_from_slice(&x.to_le_bytes()[..size]);
                }
                out(&mut buf)?;
            }
        }
        (Data::Float(v), Elem::Float(k)) => {
            for c in chunks {
                for i in c {
                    buf.extend_from_slice(&v.bits(k, i).to_le_bytes()[..size]);
                }
                out(&mut buf)?;
            }
        }
        (Data::Complex(v), Elem::Complex(k)) => {
            for c in chunks {
                for (re, im) in c.map(|i| v.get(i)) {
                    buf.extend_from_slice(&k.from_f64(re).to_le_bytes()[..size / 2]);
                    buf.extend_from_slice(&k.from_f64(im).to_le_bytes()[..size / 2]);
                }
                out(&mut buf)?;
            }
        }
        _ => return Err("inconsistent tensor".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::types::TypeKind;
    use std::sync::Arc;

    fn f32_tensor_type(ctx: &Context, shape: &[i64]) -> Type {
        let u = ctx.uniquer();
        u.ty(TypeKind::Tensor {
            shape: shape.iter().copied().collect(),
            elem: u.ty(TypeKind::Float(aic::float::FloatKind::F32)),
            encoding: None,
        })
    }

    #[test]
    fn round_trips_and_rejects_mismatched_shapes() {
        let ctx = Context::new(Arc::new(aic::DialectRegistry::new()));
        let ty = f32_tensor_type(&ctx, &[2, 3]);
        let t = Tensor::from_f64s(&ctx, ty, [1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
        let bytes = write(&ctx, &t).unwrap();
        assert_eq!(read(&ctx, &bytes, ty).unwrap(), t);
        let other = f32_tensor_type(&ctx, &[3, 2]);
        assert!(read(&ctx, &bytes, other).unwrap_err().contains("shape"));
    }

    #[test]
    fn bfloat16_is_two_byte_void_as_ml_dtypes_saves_it() {
        let ctx = Context::new(Arc::new(aic::DialectRegistry::new()));
        let u = ctx.uniquer();
        let ty = u.ty(TypeKind::Tensor {
            shape: [3].into_iter().collect(),
            elem: u.ty(TypeKind::Float(aic::float::FloatKind::BF16)),
            encoding: None,
        });
        let t = Tensor::from_f64s(&ctx, ty, [1.0, -2.5, 0.15625]);
        let bytes = write(&ctx, &t).unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains("'descr': '<V2'"));
        assert_eq!(read(&ctx, &bytes, ty).unwrap(), t);
        // 1.0 in bfloat16 is 0x3f80, little-endian; '|V2' reads the same.
        let one = npy(
            "{'descr': '|V2', 'fortran_order': False, 'shape': (1,), }\n",
            &[0x80, 0x3f],
        );
        let ty1 = u.ty(TypeKind::Tensor {
            shape: [1].into_iter().collect(),
            elem: u.ty(TypeKind::Float(aic::float::FloatKind::BF16)),
            encoding: None,
        });
        let got = read(&ctx, &one, ty1).unwrap();
        assert_eq!(got, Tensor::from_f64s(&ctx, ty1, [1.0]));
        // An f16 file is not a bf16 argument.
        let f16 = npy(
            "{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }\n",
            &[0, 0x3c],
        );
        assert!(read(&ctx, &f16, ty1).unwrap_err().contains("dtype"));
    }

    #[test]
    fn fp8_is_one_byte_void_as_ml_dtypes_saves_it() {
        let ctx = Context::new(Arc::new(aic::DialectRegistry::new()));
        let u = ctx.uniquer();
        let ty = u.ty(TypeKind::Tensor {
            shape: [3].into_iter().collect(),
            elem: u.ty(TypeKind::Float(aic::float::FloatKind::F8E4M3FN)),
            encoding: None,
        });
        let t = Tensor::from_f64s(&ctx, ty, [1.0, -2.5, 448.0]);
        let bytes = write(&ctx, &t).unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains("'descr': '|V1'"));
        assert_eq!(read(&ctx, &bytes, ty).unwrap(), t);
        // 1.0 in e4m3 is 0x38, 448 is 0x7e; torch's int8 view, saved as '|V1'.
        let raw = npy(
            "{'descr': '|V1', 'fortran_order': False, 'shape': (3,), }\n",
            &[0x38, 0xc2, 0x7e],
        );
        assert_eq!(read(&ctx, &raw, ty).unwrap(), t);
    }

    /// `.npy` bytes (version 1.0) with header dictionary `dict` and `data`.
    fn npy(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn overflowing_shapes_and_odd_headers_are_errors() {
        let ctx = Context::new(Arc::new(aic::DialectRegistry::new()));
        let big = 99_999_999_999i64;
        let header = |descr: &str, shape: &str| {
            npy(
                &format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}\n"),
                &[0; 16],
            )
        };
        // An element count past i64 (it panicked in debug builds).
        let b = header("<f4", &format!("({big}, {big})"));
        let e = read(&ctx, &b, f32_tensor_type(&ctx, &[big, big])).unwrap_err();
        assert!(e.contains("more elements"), "{e}");
        // 2^32 x 2^32 x 8 wraps to 0 elements in release builds: not an empty array.
        let s = [1i64 << 32, 1 << 32, 8];
        let b = header("<f4", "(4294967296, 4294967296, 8)");
        assert!(parse(&b).is_err());
        assert!(read(&ctx, &b, f32_tensor_type(&ctx, &s)).is_err());
        // Elements that fit an i64 but whose bytes do not.
        let s = [1i64 << 62];
        let b = header("<f4", "(4611686018427387904,)");
        let e = read(&ctx, &b, f32_tensor_type(&ctx, &s)).unwrap_err();
        assert!(e.contains("bytes of data"), "{e}");
        // A non-ASCII dtype (slicing it inside a character panicked).
        let b = header("\u{e9}", "(4,)");
        assert!(
            read(&ctx, &b, f32_tensor_type(&ctx, &[4]))
                .unwrap_err()
                .contains("ASCII")
        );
        let b = header("<\u{e9}", "(4,)");
        assert!(read(&ctx, &b, f32_tensor_type(&ctx, &[4])).is_err());
        // Negative dims, unknown versions, a missing fortran_order.
        assert!(parse(&header("<f4", "(-1, 4)")).is_err());
        let mut b = header("<f4", "(4,)");
        b[6] = 9;
        assert!(parse(&b).unwrap_err().contains("version"));
        let b = npy("{'descr': '<f4', 'shape': (4,), }\n", &[0; 16]);
        assert!(parse(&b).is_err());
        // And a good one.
        let good = header("<f4", "(2, 2)");
        let h = parse(&good).unwrap();
        assert_eq!(
            (h.descr.as_str(), &h.shape[..], h.data.len()),
            ("<f4", &[2, 2][..], 16)
        );
    }

    #[test]
    fn damaged_files_give_errors_not_panics() {
        let ctx = Context::new(Arc::new(aic::DialectRegistry::new()));
        let ty = f32_tensor_type(&ctx, &[2, 3]);
        let t = Tensor::from_f64s(&ctx, ty, [0.5; 6]);
        let bytes = write(&ctx, &t).unwrap();
        // Every truncation, and every byte changed to a few awkward values.
        for n in 0..bytes.len() {
            assert!(read(&ctx, &bytes[..n], ty).is_err(), "truncated at {n}");
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..bytes.len() {
            for v in [0u8, 0xff, b'(', b')', b',', b'\'', b'9'] {
                let mut b = bytes.clone();
                b[i] = v;
                let _ = read(&ctx, &b, ty);
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut b = bytes.clone();
            b[i] = seed as u8;
            let _ = read(&ctx, &b, ty);
        }
    }
}
