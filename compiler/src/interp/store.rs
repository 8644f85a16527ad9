//! Element buffers at each element type's natural width: `i8` and `i1` in
//! one byte, `f16` and `bf16` in two (as bits), `f32` and `i32` in four, and
//! so on. Readers see every integer as an `i64` (normalised to its width)
//! and every float as an `f64`; writers hand `i64`/`f64` values that the
//! buffer wraps or rounds to the element type as it stores them.

use super::{Elem, round_to};
use crate::float::FloatKind;

/// Element-wise read access shared by the buffers (and slices), for code
/// that works on any of them.
pub trait Buffer {
    /// The value an element reads as.
    type Item: Copy;
    /// Number of elements.
    fn count(&self) -> usize;
    /// Element `i`.
    fn item(&self, i: usize) -> Self::Item;
    /// Element `i`, or element 0 of a one-element buffer (a broadcast scalar).
    fn at(&self, i: usize) -> Self::Item {
        self.item(if self.count() == 1 { 0 } else { i })
    }
}

impl<T: Copy> Buffer for [T] {
    type Item = T;
    fn count(&self) -> usize {
        self.len()
    }
    fn item(&self, i: usize) -> T {
        self[i]
    }
}

macro_rules! buffer {
    ($($t:ty => $item:ty),*) => {$(
        impl Buffer for $t {
            type Item = $item;
            fn count(&self) -> usize {
                self.len()
            }
            #[inline]
            fn item(&self, i: usize) -> $item {
                self.get(i)
            }
        }
    )*};
}
buffer!(Ints => i64, Floats => f64, Complexes => (f64, f64));

/// A machine integer that integer elements are kept in.
pub trait IntLane: Copy + Default {
    /// `x` truncated to this type.
    fn of(x: i64) -> Self;
    /// The value, sign- or zero-extended.
    fn get(self) -> i64;
}

macro_rules! int_lanes {
    ($($t:ty),*) => {$(
        impl IntLane for $t {
            #[inline]
            fn of(x: i64) -> Self {
                x as $t
            }
            #[inline]
            fn get(self) -> i64 {
                self as i64
            }
        }
    )*};
}
int_lanes!(i8, u8, i16, u16, i32, u32, i64);

/// Integer (and `index`) elements, each in the smallest machine integer
/// that holds its width: signless and signed kinds sign-extend, unsigned
/// ones zero-extend when read as `i64`. Widths over 32 (and `index`) take
/// 64 bits.
#[derive(Clone, Debug, PartialEq)]
pub enum Ints {
    /// Signless/signed widths 1..=8.
    I8(Vec<i8>),
    /// Unsigned widths 1..=8.
    U8(Vec<u8>),
    /// Signless/signed widths 9..=16.
    I16(Vec<i16>),
    /// Unsigned widths 9..=16.
    U16(Vec<u16>),
    /// Signless/signed widths 17..=32.
    I32(Vec<i32>),
    /// Unsigned widths 17..=32.
    U32(Vec<u32>),
    /// Widths 33..=64 and `index`.
    I64(Vec<i64>),
}

/// `$body` with `$v` bound to the vector of whichever variant `$x` is.
macro_rules! each_int {
    ($x:expr, $v:ident => $body:expr) => {
        match $x {
            Ints::I8($v) => $body,
            Ints::U8($v) => $body,
            Ints::I16($v) => $body,
            Ints::U16($v) => $body,
            Ints::I32($v) => $body,
            Ints::U32($v) => $body,
            Ints::I64($v) => $body,
        }
    };
}

/// `$body` (a vector) in the variant that `$x` is.
macro_rules! same_int {
    ($x:expr, $v:ident => $body:expr) => {
        match $x {
            Ints::I8($v) => Ints::I8($body),
            Ints::U8($v) => Ints::U8($body),
            Ints::I16($v) => Ints::I16($body),
            Ints::U16($v) => Ints::U16($body),
            Ints::I32($v) => Ints::I32($body),
            Ints::U32($v) => Ints::U32($body),
            Ints::I64($v) => Ints::I64($body),
        }
    };
}

/// The machine integer of an integer kind, and whether storing a value in
/// it needs wrapping first (odd widths such as `i3`).
fn int_lane(e: Elem) -> (Ints, bool) {
    let (width, unsigned) = match e {
        Elem::Int { width, .. } => (width, e.is_unsigned()),
        _ => (64, false),
    };
    let lane = match (width, unsigned) {
        (0..=8, false) => Ints::I8(Vec::new()),
        (0..=8, true) => Ints::U8(Vec::new()),
        (9..=16, false) => Ints::I16(Vec::new()),
        (9..=16, true) => Ints::U16(Vec::new()),
        (17..=32, false) => Ints::I32(Vec::new()),
        (17..=32, true) => Ints::U32(Vec::new()),
        _ => Ints::I64(Vec::new()),
    };
    let exact = matches!(e, Elem::Index) || matches!(width, 8 | 16 | 32 | 64);
    (lane, !exact)
}

fn collect_lane<T: IntLane>(it: impl Iterator<Item = i64>) -> Vec<T> {
    it.map(T::of).collect()
}

fn try_collect<T>(n: usize, it: impl Iterator<Item = T>) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.extend(it.take(n));
    Some(v)
}

impl Ints {
    /// Elements of kind `e` (an integer or `index`) from `values`, each
    /// wrapped to the width.
    pub fn from_iter(e: Elem, values: impl IntoIterator<Item = i64>) -> Ints {
        let (lane, wrap) = int_lane(e);
        let it = values
            .into_iter()
            .map(move |x| if wrap { e.wrap(i128::from(x)) } else { x });
        same_int!(lane, _v => collect_lane(it))
    }
    /// `n` elements of kind `e`, element `i` being `f(i)` wrapped to the width.
    pub fn from_fn(e: Elem, n: usize, f: impl FnMut(usize) -> i64) -> Ints {
        Ints::from_iter(e, (0..n).map(f))
    }
    /// [`Ints::from_fn`], or `None` where the memory cannot be had.
    pub fn try_from_fn(e: Elem, n: usize, f: impl FnMut(usize) -> i64) -> Option<Ints> {
        let (lane, wrap) = int_lane(e);
        let it = (0..n)
            .map(f)
            .map(move |x| if wrap { e.wrap(i128::from(x)) } else { x });
        Some(same_int!(lane, _v => try_collect(n, it.map(IntLane::of))?))
    }
    /// No elements, in the storage of kind `e`.
    pub fn empty(e: Elem) -> Ints {
        int_lane(e).0
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        each_int!(self, v => v.len())
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes the elements take.
    pub fn byte_len(&self) -> usize {
        each_int!(self, v => std::mem::size_of_val(&v[..]))
    }
    /// Element `i`.
    #[inline]
    pub fn get(&self, i: usize) -> i64 {
        each_int!(self, v => v[i].get())
    }
    /// Element `i`, or element 0 of a one-element buffer (a broadcast scalar).
    #[inline]
    pub fn at(&self, i: usize) -> i64 {
        self.get(if self.len() == 1 { 0 } else { i })
    }
    /// The first element, or 0.
    pub fn first(&self) -> i64 {
        if self.is_empty() { 0 } else { self.get(0) }
    }
    /// Store `x` (already normalised to the width) at `i`.
    #[inline]
    pub fn set(&mut self, i: usize, x: i64) {
        each_int!(self, v => v[i] = IntLane::of(x))
    }
    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = i64> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    /// The elements as `i64`s (for ops that compute over a copy).
    pub fn to_vec(&self) -> Vec<i64> {
        each_int!(self, v => v.iter().map(|x| x.get()).collect())
    }
    /// The elements at `idx`, in the same storage (`None`: `pad`).
    pub fn take(&self, idx: impl Iterator<Item = Option<usize>>, pad: i64) -> Ints {
        same_int!(self, v => {
            let p = IntLane::of(pad);
            idx.map(|i| i.map_or(p, |i| v[i])).collect()
        })
    }
    /// `self` followed by the elements of `more` (of the same kind).
    pub fn extend_from(&mut self, more: &Ints) {
        match (self, more) {
            (Ints::I8(a), Ints::I8(b)) => a.extend_from_slice(b),
            (Ints::U8(a), Ints::U8(b)) => a.extend_from_slice(b),
            (Ints::I16(a), Ints::I16(b)) => a.extend_from_slice(b),
            (Ints::U16(a), Ints::U16(b)) => a.extend_from_slice(b),
            (Ints::I32(a), Ints::I32(b)) => a.extend_from_slice(b),
            (Ints::U32(a), Ints::U32(b)) => a.extend_from_slice(b),
            (Ints::I64(a), Ints::I64(b)) => a.extend_from_slice(b),
            (a, b) => {
                let mut all = a.to_vec();
                all.extend(b.iter());
                *a = same_int!(&*a, _v => collect_lane(all.into_iter()));
            }
        }
    }
}

/// Float elements: `f64` and wider formats as `f64`, `f32` and `tf32` as
/// `f32`, 16-bit formats and the 8-bit-and-narrower ones as their bits.
#[derive(Clone, Debug, PartialEq)]
pub enum Floats {
    /// `f64`, `f80`, `f128` (the latter two rounded to `f64`, as before).
    F64(Vec<f64>),
    /// `f32` and `tf32` (whose values `f32` holds exactly).
    F32(Vec<f32>),
    /// `f16`, `bf16`: the bit patterns.
    Bits16(FloatKind, Vec<u16>),
    /// Formats of 8 bits or fewer: the bit patterns.
    Bits8(FloatKind, Vec<u8>),
}

/// `$body` with `$v` bound to the vector of whichever variant `$x` is
/// (and `$k` to the float kind of the bit-pattern variants, `F64`/`F32`
/// for the others).
macro_rules! each_float {
    ($x:expr, $v:ident => $body:expr) => {
        match $x {
            Floats::F64($v) => $body,
            Floats::F32($v) => $body,
            Floats::Bits16(_, $v) => $body,
            Floats::Bits8(_, $v) => $body,
        }
    };
}

/// Decoding a 16-bit pattern: `bf16` by a shift, others by a table built on
/// first use.
fn decode16(k: FloatKind, b: u16) -> f64 {
    use std::sync::OnceLock;
    static F16: OnceLock<Vec<f64>> = OnceLock::new();
    match k {
        FloatKind::BF16 => f64::from(f32::from_bits(u32::from(b) << 16)),
        FloatKind::F16 => F16.get_or_init(|| {
            (0..=u16::MAX)
                .map(|b| FloatKind::F16.to_f64(u128::from(b)))
                .collect()
        })[usize::from(b)],
        _ => k.to_f64(u128::from(b)),
    }
}

impl Floats {
    /// Elements of kind `k` from `values`, each rounded to `k`.
    pub fn from_iter(k: FloatKind, values: impl IntoIterator<Item = f64>) -> Floats {
        let it = values.into_iter();
        match k.bit_width() {
            0..=8 => Floats::Bits8(k, it.map(|x| k.from_f64(x) as u8).collect()),
            9..=16 => Floats::Bits16(k, it.map(|x| k.from_f64(x) as u16).collect()),
            _ if k == FloatKind::F32 => Floats::F32(it.map(|x| x as f32).collect()),
            17..=32 => Floats::F32(it.map(|x| round_to(k, x) as f32).collect()),
            _ if k == FloatKind::F64 => Floats::F64(it.collect()),
            _ => Floats::F64(it.map(|x| round_to(k, x)).collect()),
        }
    }
    /// `n` elements of kind `k`, element `i` being `f(i)` rounded to `k`.
    pub fn from_fn(k: FloatKind, n: usize, f: impl FnMut(usize) -> f64) -> Floats {
        Floats::from_iter(k, (0..n).map(f))
    }
    /// `n` elements of kind `k` given as bit patterns, or `None` where the
    /// memory cannot be had.
    pub fn try_from_bits(k: FloatKind, n: usize, f: impl FnMut(usize) -> u128) -> Option<Floats> {
        let it = (0..n).map(f);
        Some(match k.bit_width() {
            0..=8 => Floats::Bits8(k, try_collect(n, it.map(|b| b as u8))?),
            9..=16 => Floats::Bits16(k, try_collect(n, it.map(|b| b as u16))?),
            17..=32 => Floats::F32(try_collect(n, it.map(|b| k.to_f64(b) as f32))?),
            _ => Floats::F64(try_collect(n, it.map(|b| k.to_f64(b)))?),
        })
    }
    /// The float kind the storage rounds to (`f32` for `tf32`, `f64` for
    /// the wider formats).
    pub fn kind(&self) -> FloatKind {
        match self {
            Floats::F64(_) => FloatKind::F64,
            Floats::F32(_) => FloatKind::F32,
            Floats::Bits16(k, _) | Floats::Bits8(k, _) => *k,
        }
    }
    /// No elements, in the storage of kind `k`.
    pub fn empty(k: FloatKind) -> Floats {
        Floats::from_iter(k, [])
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        each_float!(self, v => v.len())
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes the elements take.
    pub fn byte_len(&self) -> usize {
        each_float!(self, v => std::mem::size_of_val(&v[..]))
    }
    /// Element `i`.
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Floats::F64(v) => v[i],
            Floats::F32(v) => f64::from(v[i]),
            Floats::Bits16(k, v) => decode16(*k, v[i]),
            Floats::Bits8(k, v) => k.to_f64(u128::from(v[i])),
        }
    }
    /// Element `i`, or element 0 of a one-element buffer (a broadcast scalar).
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        self.get(if self.len() == 1 { 0 } else { i })
    }
    /// The first element, or 0.
    pub fn first(&self) -> f64 {
        if self.is_empty() { 0.0 } else { self.get(0) }
    }
    /// Store `x` rounded to the element kind at `i`.
    #[inline]
    pub fn set(&mut self, i: usize, x: f64) {
        match self {
            Floats::F64(v) => v[i] = x,
            Floats::F32(v) => v[i] = x as f32,
            Floats::Bits16(k, v) => v[i] = k.from_f64(x) as u16,
            Floats::Bits8(k, v) => v[i] = k.from_f64(x) as u8,
        }
    }
    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    /// The elements as `f64`s (for ops that compute over a copy).
    pub fn to_vec(&self) -> Vec<f64> {
        self.iter().collect()
    }
    /// The bit pattern of element `i` in its format.
    pub fn bits(&self, k: FloatKind, i: usize) -> u128 {
        match self {
            Floats::Bits16(_, v) => u128::from(v[i]),
            Floats::Bits8(_, v) => u128::from(v[i]),
            _ => k.from_f64(self.get(i)),
        }
    }
    /// The elements at `idx`, in the same storage (`None`: element 0 of `pad`).
    pub fn take(&self, idx: impl Iterator<Item = Option<usize>>, pad: Option<&Floats>) -> Floats {
        fn pick<T: Copy + Default>(
            v: &[T],
            idx: impl Iterator<Item = Option<usize>>,
            pad: Option<&[T]>,
        ) -> Vec<T> {
            let p = pad.and_then(|p| p.first().copied()).unwrap_or_default();
            idx.map(|i| i.map_or(p, |i| v[i])).collect()
        }
        match (self, pad) {
            (Floats::F64(v), Some(Floats::F64(p))) => Floats::F64(pick(v, idx, Some(p))),
            (Floats::F64(v), _) => Floats::F64(pick(v, idx, None)),
            (Floats::F32(v), Some(Floats::F32(p))) => Floats::F32(pick(v, idx, Some(p))),
            (Floats::F32(v), _) => Floats::F32(pick(v, idx, None)),
            (Floats::Bits16(k, v), Some(Floats::Bits16(_, p))) => {
                Floats::Bits16(*k, pick(v, idx, Some(p)))
            }
            (Floats::Bits16(k, v), _) => Floats::Bits16(*k, pick(v, idx, None)),
            (Floats::Bits8(k, v), Some(Floats::Bits8(_, p))) => {
                Floats::Bits8(*k, pick(v, idx, Some(p)))
            }
            (Floats::Bits8(k, v), _) => Floats::Bits8(*k, pick(v, idx, None)),
        }
    }
    /// `self` followed by the elements of `more` (of the same kind).
    pub fn extend_from(&mut self, more: &Floats) {
        match (self, more) {
            (Floats::F64(a), Floats::F64(b)) => a.extend_from_slice(b),
            (Floats::F32(a), Floats::F32(b)) => a.extend_from_slice(b),
            (Floats::Bits16(_, a), Floats::Bits16(_, b)) => a.extend_from_slice(b),
            (Floats::Bits8(_, a), Floats::Bits8(_, b)) => a.extend_from_slice(b),
            (a, b) => {
                let all: Vec<f64> = a.iter().chain(b.iter()).collect();
                *a = Floats::from_iter(a.kind(), all);
            }
        }
    }
}

/// Complex elements: pairs (real, imaginary) of `f32` for components of 32
/// bits or fewer, of `f64` otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Complexes {
    /// Components of 32 bits or fewer.
    F32(Vec<(f32, f32)>),
    /// Wider components.
    F64(Vec<(f64, f64)>),
}

impl Complexes {
    /// Elements with components of kind `k` from `values`, each component
    /// rounded to `k`.
    pub fn from_iter(k: FloatKind, values: impl IntoIterator<Item = (f64, f64)>) -> Complexes {
        let it = values.into_iter();
        if k.bit_width() <= 32 {
            Complexes::F32(
                it.map(|(a, b)| (round_to(k, a) as f32, round_to(k, b) as f32))
                    .collect(),
            )
        } else {
            Complexes::F64(it.map(|(a, b)| (round_to(k, a), round_to(k, b))).collect())
        }
    }
    /// `n` elements, element `i` being `f(i)` rounded to `k`.
    pub fn from_fn(k: FloatKind, n: usize, f: impl FnMut(usize) -> (f64, f64)) -> Complexes {
        Complexes::from_iter(k, (0..n).map(f))
    }
    /// `n` elements given as (real, imaginary) bit patterns, or `None`
    /// where the memory cannot be had.
    pub fn try_from_bits(
        k: FloatKind,
        n: usize,
        f: impl FnMut(usize) -> (u128, u128),
    ) -> Option<Complexes> {
        let it = (0..n).map(f).map(|(a, b)| (k.to_f64(a), k.to_f64(b)));
        Some(if k.bit_width() <= 32 {
            Complexes::F32(try_collect(n, it.map(|(a, b)| (a as f32, b as f32)))?)
        } else {
            Complexes::F64(try_collect(n, it)?)
        })
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Complexes::F32(v) => v.len(),
            Complexes::F64(v) => v.len(),
        }
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes the elements take.
    pub fn byte_len(&self) -> usize {
        match self {
            Complexes::F32(v) => std::mem::size_of_val(&v[..]),
            Complexes::F64(v) => std::mem::size_of_val(&v[..]),
        }
    }
    /// Element `i`.
    #[inline]
    pub fn get(&self, i: usize) -> (f64, f64) {
        match self {
            Complexes::F32(v) => (f64::from(v[i].0), f64::from(v[i].1)),
            Complexes::F64(v) => v[i],
        }
    }
    /// Element `i`, or element 0 of a one-element buffer (a broadcast scalar).
    #[inline]
    pub fn at(&self, i: usize) -> (f64, f64) {
        self.get(if self.len() == 1 { 0 } else { i })
    }
    /// Store `x` (rounded to the component kind) at `i`.
    pub fn set(&mut self, i: usize, x: (f64, f64)) {
        match self {
            Complexes::F32(v) => v[i] = (x.0 as f32, x.1 as f32),
            Complexes::F64(v) => v[i] = x,
        }
    }
    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (f64, f64)> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    /// The elements as pairs of `f64`.
    pub fn to_vec(&self) -> Vec<(f64, f64)> {
        self.iter().collect()
    }
    /// The elements at `idx`, in the same storage (`None`: element 0 of `pad`).
    pub fn take(
        &self,
        idx: impl Iterator<Item = Option<usize>>,
        pad: Option<&Complexes>,
    ) -> Complexes {
        let p = pad
            .filter(|p| !p.is_empty())
            .map_or((0.0, 0.0), |p| p.get(0));
        match self {
            Complexes::F32(v) => {
                let p = (p.0 as f32, p.1 as f32);
                Complexes::F32(idx.map(|i| i.map_or(p, |i| v[i])).collect())
            }
            Complexes::F64(v) => Complexes::F64(idx.map(|i| i.map_or(p, |i| v[i])).collect()),
        }
    }
    /// `self` followed by the elements of `more` (of the same kind).
    pub fn extend_from(&mut self, more: &Complexes) {
        match (self, more) {
            (Complexes::F32(a), Complexes::F32(b)) => a.extend_from_slice(b),
            (Complexes::F64(a), Complexes::F64(b)) => a.extend_from_slice(b),
            (Complexes::F32(a), b) => a.extend(b.iter().map(|(x, y)| (x as f32, y as f32))),
            (Complexes::F64(a), b) => a.extend(b.iter()),
        }
    }
}

/// Bytes the interpreter keeps per element of kind `e`.
pub(super) fn storage_bytes(e: Elem) -> u64 {
    let by_width = |w: u32| match w {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        _ => 8,
    };
    match e {
        Elem::Int { width, .. } => by_width(width),
        Elem::Index => 8,
        Elem::Float(k) => by_width(k.bit_width()),
        Elem::Complex(k) => 2 * if k.bit_width() <= 32 { 4 } else { 8 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Signedness;

    fn int(width: u32, signedness: Signedness) -> Elem {
        Elem::Int { width, signedness }
    }

    #[test]
    fn integers_round_trip_at_their_width() {
        let cases = [
            (int(1, Signedness::Signless), 1, vec![0, -1]),
            (int(8, Signedness::Signless), 1, vec![-128, -1, 0, 127]),
            (int(8, Signedness::Unsigned), 1, vec![0, 1, 255]),
            (int(16, Signedness::Signed), 2, vec![-32768, 32767]),
            (int(16, Signedness::Unsigned), 2, vec![0, 65535]),
            (
                int(32, Signedness::Signless),
                4,
                vec![i64::from(i32::MIN), 7],
            ),
            (int(32, Signedness::Unsigned), 4, vec![i64::from(u32::MAX)]),
            (int(64, Signedness::Signless), 8, vec![i64::MIN, i64::MAX]),
            (int(3, Signedness::Signless), 1, vec![-4, 3]),
            (Elem::Index, 8, vec![-1, 1 << 40]),
        ];
        for (e, bytes, values) in cases {
            let v = Ints::from_iter(e, values.iter().copied());
            assert_eq!(v.to_vec(), values, "{e:?}");
            assert_eq!(v.byte_len(), bytes * values.len(), "{e:?}");
            assert_eq!(storage_bytes(e), bytes as u64, "{e:?}");
        }
    }

    #[test]
    fn integers_wrap_to_their_width_when_stored() {
        let i8s = Ints::from_iter(int(8, Signedness::Signless), [128, 255, -129]);
        assert_eq!(i8s.to_vec(), [-128, -1, 127]);
        let u8s = Ints::from_iter(int(8, Signedness::Unsigned), [256, -1, 300]);
        assert_eq!(u8s.to_vec(), [0, 255, 44]);
        let i1s = Ints::from_iter(int(1, Signedness::Signless), [1, 2, 3]);
        assert_eq!(i1s.to_vec(), [-1, 0, -1]);
        let i3s = Ints::from_iter(int(3, Signedness::Signless), [4, 7, 8]);
        assert_eq!(i3s.to_vec(), [-4, -1, 0]);
    }

    #[test]
    fn floats_round_to_their_kind_when_stored() {
        // 1 + 2^-11 is halfway between two f16 values: ties to even gives 1.
        let x = 1.0 + f64::powi(2.0, -11);
        let h = Floats::from_iter(FloatKind::F16, [x, 65520.0, 0.1]);
        assert_eq!(h.byte_len(), 6);
        assert_eq!(h.get(0), 1.0);
        assert_eq!(h.get(1), f64::INFINITY);
        assert_eq!(h.get(2), round_to(FloatKind::F16, 0.1));
        let b = Floats::from_iter(FloatKind::BF16, [x, 3.0, -0.0]);
        assert_eq!(b.byte_len(), 6);
        assert_eq!(b.to_vec(), [1.0, 3.0, -0.0]);
        assert!(b.get(2).is_sign_negative());
        let f = Floats::from_iter(FloatKind::F32, [0.1]);
        assert_eq!((f.byte_len(), f.get(0)), (4, f64::from(0.1f32)));
        let e = Floats::from_iter(FloatKind::F8E4M3FN, [1.0, 0.3]);
        assert_eq!(e.byte_len(), 2);
        assert_eq!(e.get(1), round_to(FloatKind::F8E4M3FN, 0.3));
        let mut g = Floats::from_iter(FloatKind::F16, [0.0]);
        g.set(0, x);
        assert_eq!(g.get(0), 1.0);
        assert!(
            Floats::from_iter(FloatKind::F16, [f64::NAN])
                .get(0)
                .is_nan()
        );
    }

    #[test]
    fn every_16_bit_pattern_decodes_as_the_generic_conversion_does() {
        for k in [FloatKind::F16, FloatKind::BF16] {
            for b in 0..=u16::MAX {
                let (fast, slow) = (decode16(k, b), k.to_f64(u128::from(b)));
                assert!(fast.to_bits() == slow.to_bits() || (fast.is_nan() && slow.is_nan()));
            }
        }
    }

    #[test]
    fn complex_components_take_their_kind_width() {
        let c = Complexes::from_iter(FloatKind::F32, [(0.1, -2.0)]);
        assert_eq!(c.byte_len(), 8);
        assert_eq!(c.get(0), (f64::from(0.1f32), -2.0));
        assert_eq!(storage_bytes(Elem::Complex(FloatKind::F32)), 8);
        assert_eq!(storage_bytes(Elem::Complex(FloatKind::F64)), 16);
    }

    #[test]
    fn a_million_narrow_elements_take_one_or_two_bytes_each() {
        let n = 1 << 20;
        let i8s = Ints::from_fn(int(8, Signedness::Signless), n, |i| i as i64);
        assert_eq!(i8s.byte_len(), n);
        let f16s = Floats::from_fn(FloatKind::F16, n, |i| i as f64);
        assert_eq!(f16s.byte_len(), 2 * n);
        assert_eq!(super::super::Data::Float(f16s).byte_len(), 2 * n);
    }

    #[test]
    fn take_and_extend_keep_the_storage() {
        let e = int(16, Signedness::Unsigned);
        let mut v = Ints::from_iter(e, [1, 2, 3]);
        let t = v.take([Some(2), None, Some(0)].into_iter(), 9);
        assert_eq!((t.to_vec(), t.byte_len()), (vec![3, 9, 1], 6));
        v.extend_from(&t);
        assert_eq!(v.to_vec(), [1, 2, 3, 3, 9, 1]);
        assert!(matches!(v, Ints::U16(_)));
    }
}
