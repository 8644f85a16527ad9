//! Hash-consing storage for types, attributes and identifiers.
//!
//! Values are stored once and named by a dense `u32` index, so equality of two
//! interned values is an integer comparison. The storage is append-only with
//! stable addresses, which lets readers borrow `&T` without holding a lock and
//! lets several threads intern concurrently (passes over functions may run in
//! parallel while sharing one uniquer).

use hashbrown::HashTable;
use std::cell::UnsafeCell;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Chunk `i` holds `BASE << i` slots, so 40 chunks cover every `u32` index.
const BASE: usize = 64;
const CHUNKS: usize = 40;

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

/// The hash kept in the dedup table: 32 bits are plenty to tell entries apart
/// before comparing values, and keep an entry at 8 bytes.
fn short_hash<T: Hash + ?Sized>(v: &T) -> u32 {
    let h = hash_of(v);
    (h ^ (h >> 32)) as u32
}

/// The table's 64-bit hash of a stored 32-bit one (hashbrown takes its bucket from
/// the low bits and its tag from the top seven).
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn locate(index: usize) -> (usize, usize) {
    // Chunk boundaries are at BASE * (2^i - 1).
    let n = index / BASE + 1;
    let chunk = (usize::BITS - 1 - n.leading_zeros()) as usize;
    let start = BASE * ((1usize << chunk) - 1);
    (chunk, index - start)
}

/// A chunk of slots, written once each under the interner's lock.
type Chunk<T> = Box<[UnsafeCell<MaybeUninit<T>>]>;

/// An append-only, thread-safe interner: `intern` returns the index of an
/// equal value if one exists, otherwise stores the value.
///
/// Memory is what matters at a million ops (every op's location is interned):
/// chunks are allocated uninitialised, so the unused tail of the newest chunk
/// costs no resident memory, and the dedup table holds 8-byte (hash, index)
/// entries rather than a map of hash to list of indices.
pub struct Interner<T> {
    chunks: [OnceLock<Chunk<T>>; CHUNKS],
    /// Number of published values; slots below it are initialised.
    len: AtomicUsize,
    /// (32-bit hash, index) pairs: the table can grow without rehashing values.
    dedup: Mutex<HashTable<(u32, u32)>>,
}

// SAFETY: slots are written only under `dedup`'s lock, each exactly once, before
// `len` is raised past them with release ordering; readers check an index against
// `len` with acquire ordering before reading, so they never see a slot being written.
// Values may be read from any thread (`&T` shared), hence `T: Sync`, and are dropped
// by whichever thread drops the interner, hence `T: Send`.
unsafe impl<T: Send + Sync> Sync for Interner<T> {}
// SAFETY: as above; the interner owns its values.
unsafe impl<T: Send> Send for Interner<T> {}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Self {
            chunks: std::array::from_fn(|_| OnceLock::new()),
            len: AtomicUsize::new(0),
            dedup: Mutex::new(HashTable::new()),
        }
    }
}

impl<T> Drop for Interner<T> {
    fn drop(&mut self) {
        let len = *self.len.get_mut();
        for i in 0..len {
            let (chunk, off) = locate(i);
            if let Some(c) = self.chunks[chunk].get_mut() {
                // SAFETY: every slot below `len` was initialised exactly once.
                unsafe { c[off].get_mut().assume_init_drop() };
            }
        }
    }
}

impl<T> Interner<T> {
    /// The value in a slot known to be published (below `len`).
    fn slot(&self, index: usize) -> &T {
        let (chunk, off) = locate(index);
        let c = self.chunks[chunk]
            .get()
            .expect("a published slot's chunk exists");
        // SAFETY: callers only pass indices below `len` (see the `Sync` impl).
        unsafe { (*c[off].get()).assume_init_ref() }
    }

    /// The value stored at `index`. Panics only for an index this interner never returned.
    pub fn get(&self, index: u32) -> &T {
        let index = index as usize;
        assert!(
            index < self.len.load(Ordering::Acquire),
            "index from another interner"
        );
        self.slot(index)
    }

    /// Number of values stored.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Whether nothing has been interned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Hash + Eq> Interner<T> {
    /// Return the index of `value`, storing it first if it is new.
    pub fn intern(&self, value: T) -> u32 {
        let h = short_hash(&value);
        let mut table = self.dedup.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, i)) = table.find(spread(h), |&(eh, i)| {
            eh == h && *self.slot(i as usize) == value
        }) {
            return i;
        }
        let idx = self.len.load(Ordering::Relaxed);
        assert!(idx < u32::MAX as usize, "interner overflow");
        let (chunk, off) = locate(idx);
        let slots = self.chunks[chunk].get_or_init(|| {
            let b: Box<[MaybeUninit<T>]> = Box::new_uninit_slice(BASE << chunk);
            // SAFETY: `UnsafeCell` is `repr(transparent)`, so the slice layouts agree.
            unsafe { Box::from_raw(Box::into_raw(b) as *mut [UnsafeCell<MaybeUninit<T>>]) }
        });
        // SAFETY: slot `idx` is unpublished, so no reader can hold a reference to
        // it, and writers are serialised by the lock we hold.
        unsafe { (*slots[off].get()).write(value) };
        self.len.store(idx + 1, Ordering::Release);
        table.insert_unique(spread(h), (h, idx as u32), |&(eh, _)| spread(eh));
        idx as u32
    }

    /// Look up an index without storing anything; `value` may be any borrowed
    /// form of `T` that hashes the same (`&str` for `Box<str>`).
    pub fn find<Q: Hash + Eq + ?Sized>(&self, value: &Q) -> Option<u32>
    where
        T: std::borrow::Borrow<Q>,
    {
        let h = short_hash(value);
        let table = self.dedup.lock().unwrap_or_else(|e| e.into_inner());
        table
            .find(spread(h), |&(eh, i)| {
                eh == h && self.slot(i as usize).borrow() == value
            })
            .map(|&(_, i)| i)
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
        if let Some(i) = self.inner.find(s) {
            return i;
        }
        self.inner.intern(s.into())
    }
    /// Find `s` without interning it.
    pub fn find(&self, s: &str) -> Option<u32> {
        self.inner.find(s)
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
    fn strings_are_found_by_borrowed_form_and_dropped() {
        let s = StrInterner::default();
        let a = s.intern("alpha");
        assert_eq!(s.find("alpha"), Some(a));
        assert_eq!(s.find("beta"), None);
        // Enough values to fill several chunks, each owning heap memory that the
        // interner must drop (checked under Miri/ASan runs, and for leaks by valgrind).
        let ids: Vec<u32> = (0..5000).map(|n| s.intern(&format!("s{n}"))).collect();
        assert_eq!(s.get(ids[4321]), "s4321");
        assert_eq!(s.intern("alpha"), a);
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
