//! The seeded random numbers and tensor types the differential tests share:
//! Marsaglia's xorshift (the 13/7/17 triple), the same sequence on every
//! machine, so a failing seed names one failing program.

/// A xorshift generator; its state must not be zero.
pub struct Rng(pub u64);

impl Rng {
    /// The next state.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// An integer in `[lo, hi]`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// An index below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// One of the 2001 values from -1 to 1 in steps of 1/1000.
    pub fn value(&mut self) -> f64 {
        (self.next() % 2001) as f64 / 1000.0 - 1.0
    }
}

/// The tensor type `tensor<AxBx...xelem>` of `shape` (`tensor<elem>` for a
/// scalar).
pub fn ty(shape: &[i64], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{}{elem}>", dims.concat())
}
