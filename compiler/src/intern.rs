//! Hash-consing storage for types, attributes and identifiers.
//!
//! Values are stored once and named by a dense `u32` index, so equality of two
//! interned values is an integer comparison. The storage is append-only with
//! stable addresses, which lets readers borrow `&T` without holding a lock and
//! lets several threads intern concurrently (passes over functions may run in
//! parallel while sharing one uniquer).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// Chunk `i` holds `BASE << i` slots, so 40 chunks cover every `u32` index.
const BASE: usize = 64;
const CHUNKS: usize = 40;

/// A `Hasher` that passes a precomputed `u64` through unchanged: the dedup
/// map is keyed by hashes we already computed with a real hasher.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// FNV-1a over the bytes a value feeds its `Hash` impl: small, fast for the short
/// keys interned here, and deterministic across runs.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(23);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// The `BuildHasher` used by maps keyed by interned ids throughout aic.
pub type FxBuild = BuildHasherDefault<FxHasher>;

fn hash_of<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = FxHasher::default();
    v.hash(&mut h);
    h.finish()
}

/// Stored indices by hash; collisions are told apart by comparing stored values.
type DedupMap = HashMap<u64, smallvec::SmallVec<[u32; 1]>, BuildHasherDefault<IdentityHasher>>;

fn locate(index: usize) -> (usize, usize) {
    // Chunk boundaries are at BASE * (2^i - 1).
    let n = index / BASE + 1;
    let chunk = (usize::BITS - 1 - n.leading_zeros()) as usize;
    let start = BASE * ((1usize << chunk) - 1);
    (chunk, index - start)
}

/// An append-only, thread-safe interner: `intern` returns the index of an
/// equal value if one exists, otherwise stores the value.
pub struct Interner<T> {
    chunks: [OnceLock<Box<[OnceLock<T>]>>; CHUNKS],
    dedup: Mutex<(usize, DedupMap)>,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Self {
            chunks: std::array::from_fn(|_| OnceLock::new()),
            dedup: Mutex::new((0, HashMap::default())),
        }
    }
}

impl<T: Hash + Eq> Interner<T> {
    /// Return the index of `value`, storing it first if it is new.
    pub fn intern(&self, value: T) -> u32 {
        let h = hash_of(&value);
        let mut guard = self.dedup.lock().unwrap_or_else(|e| e.into_inner());
        let (len, map) = &mut *guard;
        if let Some(cands) = map.get(&h) {
            for &c in cands {
                if *self.get(c) == value {
                    return c;
                }
            }
        }
        let idx = *len;
        assert!(idx < u32::MAX as usize, "interner overflow");
        let (chunk, off) = locate(idx);
        let slots = self.chunks[chunk]
            .get_or_init(|| (0..(BASE << chunk)).map(|_| OnceLock::new()).collect());
        let _ = slots[off].set(value);
        *len += 1;
        map.entry(h).or_default().push(idx as u32);
        idx as u32
    }

    /// Look up an index without storing anything.
    pub fn find(&self, value: &T) -> Option<u32> {
        let h = hash_of(value);
        let guard = self.dedup.lock().unwrap_or_else(|e| e.into_inner());
        guard
            .1
            .get(&h)?
            .iter()
            .copied()
            .find(|&c| self.get(c) == value)
    }

    /// The value stored at `index`. Panics only for an index this interner never returned.
    pub fn get(&self, index: u32) -> &T {
        let (chunk, off) = locate(index as usize);
        self.chunks[chunk]
            .get()
            .and_then(|c| c[off].get())
            .expect("index from another interner")
    }

    /// Number of values stored.
    pub fn len(&self) -> usize {
        self.dedup.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    /// Whether nothing has been interned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Interned strings (identifiers, op names, attribute names).
#[derive(Default)]
pub struct StrInterner {
    inner: Interner<Box<str>>,
}

impl StrInterner {
    /// Intern `s`.
    pub fn intern(&self, s: &str) -> u32 {
        // Avoid allocating when the string is already present.
        if let Some(i) = self.inner.find(&Box::<str>::from(s)) {
            return i;
        }
        self.inner.intern(s.into())
    }
    /// Find `s` without interning it.
    pub fn find(&self, s: &str) -> Option<u32> {
        self.inner.find(&Box::<str>::from(s))
    }
    /// The string at `index`.
    pub fn get(&self, index: u32) -> &str {
        self.inner.get(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_covers_chunk_boundaries() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(63), (0, 63));
        assert_eq!(locate(64), (1, 0));
        assert_eq!(locate(191), (1, 127));
        assert_eq!(locate(192), (2, 0));
    }

    #[test]
    fn interning_dedups_and_is_stable() {
        let i: Interner<String> = Interner::default();
        let ids: Vec<u32> = (0..1000).map(|n| i.intern(format!("v{n}"))).collect();
        for (n, id) in ids.iter().enumerate() {
            assert_eq!(i.intern(format!("v{n}")), *id);
            assert_eq!(i.get(*id), &format!("v{n}"));
        }
        assert_eq!(i.len(), 1000);
        assert_eq!(i.find(&"nope".to_string()), None);
    }

    #[test]
    fn concurrent_interning_agrees() {
        let i: Interner<u64> = Interner::default();
        let results: Vec<Vec<u32>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..500u64).map(|v| i.intern(v)).collect()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for r in &results[1..] {
            assert_eq!(r, &results[0]);
        }
        assert_eq!(i.len(), 500);
    }
}
