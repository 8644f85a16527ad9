//! MLIR affine expressions, affine maps and integer sets as plain values.
//!
//! Expressions are built through simplifying constructors (the `+`, `-`, `*`,
//! `%` operators, [`AffineExpr::floor_div`] and [`AffineExpr::ceil_div`]) that
//! reproduce the folding MLIR 22 performs when it uniques an expression
//! (`simplifyAdd`, `simplifyMul`, ... in `mlir/lib/IR/AffineExpr.cpp`). The
//! parser builds through the same constructors, left to right, so a parsed map
//! has the shape MLIR would give it, and [`fmt::Display`] then prints it
//! byte-for-byte like MLIR's `AsmPrinter` (without the `affine_map<...>` /
//! `affine_set<...>` wrapper). The behaviour was matched against
//! `mlir-opt-22` (LLVM 22.1.8) on tens of thousands of random expressions.
//!
//! Known differences from MLIR:
//! - MLIR 22.1 rewrites `e + ((e floordiv q) * q - 1)` to `e mod q`, which
//!   changes the value (fixed upstream after 22.1); this module does not.
//! - Multiplying two non-symbolic expressions through the API yields an
//!   unsimplified product instead of an assertion failure.
//! - Diagnostics: a syntax error anywhere wins over a semantic error
//!   (undeclared name, non-affine product, oversized constant) earlier in the
//!   text; an undeclared identifier is named and pointed at directly; more
//!   than 256 nested parentheses or an expression tree deeper than 1000 levels
//!   is rejected, where MLIR would recurse on.
//! - [`AffineExpr::eval`] treats division or `mod` by a non-positive value as
//!   an error; MLIR leaves it undefined.

use std::fmt;

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};

// The derive also generates a `pub enum Rule`; the private module keeps it
// out of this module's public API.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "syntax/affine.pest"]
    pub(super) struct AffineParser;
}
use grammar::{AffineParser, Rule};

/// An affine (or semi-affine) expression over dimensions `d0..` and symbols `s0..`.
///
/// The variants are the raw tree; nothing stops a caller from building an
/// unsimplified tree directly. Use the operators and
/// [`floor_div`](Self::floor_div)/[`ceil_div`](Self::ceil_div) to get MLIR's
/// canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// Dimension `d<n>`.
    Dim(u32),
    /// Symbol `s<n>`.
    Symbol(u32),
    /// Integer constant.
    Constant(i64),
    /// `lhs + rhs`.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs * rhs`.
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs mod rhs`, non-negative for a positive `rhs`.
    Mod(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs floordiv rhs`.
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs ceildiv rhs`.
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
}

/// An affine map `(d0, ..)[s0, ..] -> (results..)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of dimension inputs.
    pub num_dims: u32,
    /// Number of symbol inputs.
    pub num_symbols: u32,
    /// One expression per result; may be empty.
    pub results: Vec<AffineExpr>,
}

/// An integer set `(d0, ..)[s0, ..] : (constraints..)`, the conjunction of
/// `expr == 0` / `expr >= 0` constraints.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// Number of dimension inputs.
    pub num_dims: u32,
    /// Number of symbol inputs.
    pub num_symbols: u32,
    /// Each constraint with `true` for `expr == 0` and `false` for `expr >= 0`.
    pub constraints: Vec<(AffineExpr, bool)>,
}

/// Parse error: byte offset into the given text, and a message saying what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineError {
    /// Byte offset into the parsed text where the problem was detected.
    pub offset: usize,
    /// What was expected or what is wrong, mostly in MLIR's own wording.
    pub message: String,
}

impl AffineError {
    fn new(offset: usize, message: impl Into<String>) -> Self {
        AffineError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for AffineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for AffineError {}

/// Most parentheses an expression text may nest; the pest grammar recurses
/// once per level.
const MAX_PAREN_DEPTH: usize = 256;

/// Deepest expression tree the parser will build. Every algorithm here
/// (simplification, printing, evaluation, even `Drop`) recurses over the tree,
/// and a long `a + b + c + ...` chain is as deep as it is long, so the bound
/// keeps hostile input from overflowing the stack.
const MAX_EXPR_DEPTH: usize = 1000;

// ---------------------------------------------------------------------------
// Construction with MLIR's simplifications
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinKind {
    Add,
    Mul,
    Mod,
    FloorDiv,
    CeilDiv,
}

use AffineExpr::{Add, CeilDiv, Constant, Dim, FloorDiv, Mod, Mul, Symbol};

fn bx(e: AffineExpr) -> Box<AffineExpr> {
    Box::new(e)
}

/// Unsimplified node.
fn raw(kind: BinKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    let (l, r) = (bx(lhs), bx(rhs));
    match kind {
        BinKind::Add => Add(l, r),
        BinKind::Mul => Mul(l, r),
        BinKind::Mod => Mod(l, r),
        BinKind::FloorDiv => FloorDiv(l, r),
        BinKind::CeilDiv => CeilDiv(l, r),
    }
}

/// `mlir::getAffineBinaryOpExpr`: build with simplification.
fn build(kind: BinKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    let simplified = match kind {
        BinKind::Add => simplify_add(&lhs, &rhs),
        BinKind::Mul => simplify_mul(&lhs, &rhs),
        BinKind::Mod => simplify_mod(&lhs, &rhs),
        BinKind::FloorDiv => simplify_floor_div(&lhs, &rhs),
        BinKind::CeilDiv => simplify_ceil_div(&lhs, &rhs),
    };
    if let Some(e) = simplified {
        return e;
    }
    // Since MLIR 21 (llvm/llvm-project#146895) a sum or product of two bare
    // dims/symbols that survives simplification is stored in a fixed order:
    // dims before symbols, then by position.
    let leaf_key = |e: &AffineExpr| match e {
        Dim(i) => Some((0, *i)),
        Symbol(i) => Some((1, *i)),
        _ => None,
    };
    if matches!(kind, BinKind::Add | BinKind::Mul)
        && let (Some(l), Some(r)) = (leaf_key(&lhs), leaf_key(&rhs))
        && r < l
    {
        return raw(kind, rhs, lhs);
    }
    raw(kind, lhs, rhs)
}

fn add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    build(BinKind::Add, lhs, rhs)
}

fn mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    build(BinKind::Mul, lhs, rhs)
}

fn neg(e: AffineExpr) -> AffineExpr {
    mul(e, Constant(-1))
}

/// The greatest common divisor of `a` and `b` (Euclid's; `gcd(0, 0)` is 0).
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Floor (`ceil == false`) or ceiling division for any nonzero divisor, as
/// `llvm::divideFloorSigned`/`divideCeilSigned`; `None` on overflow
/// (`i64::MIN / -1`), where MLIR leaves the expression unfolded.
fn div_round(lhs: i64, rhs: i64, ceil: bool) -> Option<i64> {
    let q = lhs.checked_div(rhs)?;
    let inexact = lhs % rhs != 0;
    let same_sign = (lhs < 0) == (rhs < 0);
    Some(match (inexact, ceil, same_sign) {
        (true, false, false) => q - 1,
        (true, true, true) => q + 1,
        _ => q,
    })
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    if let (Constant(a), Constant(b)) = (lhs, rhs) {
        // MLIR 22 refuses to fold an overflowing sum and keeps `c1 + c2` as is
        // (observed: `9223372036854775807 + 1` prints unchanged).
        return a.checked_add(*b).map(Constant);
    }
    // Constants, then symbolic terms, go to the right.
    if matches!(lhs, Constant(_))
        || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant())
    {
        return Some(add(rhs.clone(), lhs.clone()));
    }
    if let Constant(0) = rhs {
        return Some(lhs.clone());
    }
    // (e + c1) + c2 -> e + (c1 + c2). MLIR adds the raw int64s here, so the
    // sum wraps (it prints `d0 + 9223372036854775807 + 1` as
    // `d0 - -9223372036854775808`, which no parser reads back); an overflowing
    // sum stays unfolded here, as for two constants.
    if let (Add(ll, lr), Constant(c2)) = (lhs, rhs)
        && let Constant(c1) = **lr
    {
        return c1
            .checked_add(*c2)
            .map(|c| add((**ll).clone(), Constant(c)));
    }
    // c1 * e + c2 * e -> (c1 + c2) * e, with a bare `e` counting as `1 * e`.
    let (c1, first) = match lhs {
        Mul(x, c) if matches!(**c, Constant(_)) => (const_value(c), &**x),
        _ => (1, lhs),
    };
    let (c2, second) = match rhs {
        Mul(x, c) if matches!(**c, Constant(_)) => (const_value(c), &**x),
        _ => (1, rhs),
    };
    if first == second {
        // MLIR wraps the coefficient; an overflowing one stays unfolded here.
        return c1.checked_add(c2).map(|c| mul(first.clone(), Constant(c)));
    }
    // (e1 + c) + e2 -> (e1 + e2) + c keeps the constant outermost.
    if let Add(ll, lr) = lhs
        && let Constant(c) = **lr
    {
        return Some(add(add((**ll).clone(), rhs.clone()), Constant(c)));
    }
    // e - q * (e floordiv q) -> e mod q. After canonicalisation the product
    // is either `((e floordiv q) * q) * -1` (symbolic q) or
    // `(e floordiv c) * -c` (constant c, which must be positive: MLIR does
    // not introduce `mod` by a negative number).
    //
    // MLIR 22.1 matches the first form without checking that `rhs` is a
    // product, so it also turns `e + ((e floordiv q) * q - 1)` into `e mod q`
    // (fixed upstream by llvm/llvm-project#181613); that changes the value,
    // so the check is kept here.
    let Mul(rl, rr) = rhs else {
        return None;
    };
    if **rr == Constant(-1)
        && let Mul(x, q) = &**rl
    {
        if let FloorDiv(e, q2) = &**x
            && q2 == q
            && **e == *lhs
        {
            return Some(lhs.clone() % (**q).clone());
        }
        return None;
    }
    let FloorDiv(e, q) = &**rl else {
        return None;
    };
    if matches!(**q, Constant(c) if c > 0) && **e == *lhs && **q == neg((**rr).clone()) {
        return Some(lhs.clone() % (**q).clone());
    }
    // (a + b) + (x floordiv q) * r -> a + (b + (x floordiv q) * r) whenever
    // the inner sum simplifies, which catches `(a + e) - (e floordiv c) * c`
    // -> `a + e mod c` (MLIR's "enhanced" mod detection). It fires on any
    // simplification of the inner sum, including the mere swap that moves a
    // symbolic `b` to the right, and MLIR's output reflects that.
    if let Add(a, b) = lhs
        && let Some(inner) = simplify_add(b, rhs)
    {
        return Some(add((**a).clone(), inner));
    }
    None
}

fn const_value(e: &AffineExpr) -> i64 {
    match e {
        Constant(c) => *c,
        _ => 0,
    }
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    if let (Constant(a), Constant(b)) = (lhs, rhs) {
        // As for add: an overflowing product stays unfolded in MLIR 22.
        return a.checked_mul(*b).map(Constant);
    }
    let (lsym, rsym) = (lhs.is_symbolic_or_constant(), rhs.is_symbolic_or_constant());
    if !lsym && !rsym {
        // MLIR asserts here; the parser rejects such products before building
        // them, and for API callers an unsimplified node beats a panic.
        return None;
    }
    // The constant (or else the symbolic) operand goes to the right.
    if !rsym || matches!(lhs, Constant(_)) {
        return Some(mul(rhs.clone(), lhs.clone()));
    }
    match rhs {
        Constant(1) => return Some(lhs.clone()),
        Constant(0) => return Some(Constant(0)),
        _ => {}
    }
    if let Mul(ll, lr) = lhs
        && let Constant(c1) = **lr
    {
        // (e * c1) * c2 -> e * (c1 * c2); MLIR multiplies raw int64s and
        // wraps, an overflowing product stays unfolded here.
        if let Constant(c2) = rhs {
            return c1
                .checked_mul(*c2)
                .map(|c| mul((**ll).clone(), Constant(c)));
        }
        // (e * c) * s -> (e * s) * c keeps the constant outermost.
        return Some(mul(mul((**ll).clone(), rhs.clone()), Constant(c1)));
    }
    None
}

/// The positive constant divisor, if `rhs` is one; MLIR leaves `mod` by
/// anything else (symbols, zero, negatives) untouched.
fn positive_divisor(rhs: &AffineExpr) -> Option<i64> {
    match rhs {
        Constant(c) if *c >= 1 => Some(*c),
        _ => None,
    }
}

/// `(e * k) floordiv c` or `ceildiv c` -> `e * (k / c)` when `c` divides `k`.
fn fold_scaled_div(lhs: &AffineExpr, c: i64) -> Option<AffineExpr> {
    if let Mul(ll, lr) = lhs
        && let Constant(k) = **lr
        && k.checked_rem(c)? == 0
    {
        return Some(mul((**ll).clone(), Constant(k.checked_div(c)?)));
    }
    None
}

fn simplify_div(lhs: &AffineExpr, rhs: &AffineExpr, ceil: bool) -> Option<AffineExpr> {
    // Since llvm/llvm-project#97031 floordiv and ceildiv fold for negative
    // divisors too; only division by zero (or by a non-constant) is kept.
    let c = match rhs {
        Constant(c) if *c != 0 => *c,
        _ => return None,
    };
    if let Constant(a) = lhs {
        return div_round(*a, c, ceil).map(Constant);
    }
    if c == 1 {
        return Some(lhs.clone());
    }
    if let Some(e) = fold_scaled_div(lhs, c) {
        return Some(e);
    }
    // (a + b) floordiv c splits when either side is a known multiple of c.
    if !ceil
        && let Add(a, b) = lhs
        && (a.largest_known_divisor().wrapping_rem(c) == 0
            || b.largest_known_divisor().wrapping_rem(c) == 0)
    {
        return Some(add(
            (**a).clone().floor_div(Constant(c)),
            (**b).clone().floor_div(Constant(c)),
        ));
    }
    None
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    simplify_div(lhs, rhs, false)
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    simplify_div(lhs, rhs, true)
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = positive_divisor(rhs)?;
    if let Constant(a) = lhs {
        return Some(Constant(a.rem_euclid(c)));
    }
    if lhs.largest_known_divisor() % c == 0 {
        return Some(Constant(0));
    }
    match lhs {
        // (a + b) mod c drops a side that is a known multiple of c.
        Add(a, b) => {
            if a.largest_known_divisor() % c == 0 {
                Some((**b).clone() % Constant(c))
            } else if b.largest_known_divisor() % c == 0 {
                Some((**a).clone() % Constant(c))
            } else {
                None
            }
        }
        // (e mod k) mod c -> e mod c when c divides k.
        Mod(e, k) if matches!(**k, Constant(k) if k >= 1 && k.rem_euclid(c) == 0) => {
            Some((**e).clone() % Constant(c))
        }
        _ => None,
    }
}

impl std::ops::Add for AffineExpr {
    type Output = AffineExpr;
    /// `self + rhs`, simplified as MLIR does.
    fn add(self, rhs: AffineExpr) -> AffineExpr {
        add(self, rhs)
    }
}

impl std::ops::Sub for AffineExpr {
    type Output = AffineExpr;
    /// `self + rhs * -1`, which is how MLIR represents subtraction.
    fn sub(self, rhs: AffineExpr) -> AffineExpr {
        add(self, neg(rhs))
    }
}

impl std::ops::Mul for AffineExpr {
    type Output = AffineExpr;
    /// `self * rhs`, simplified as MLIR does. If neither side is
    /// symbolic-or-constant the product is not affine; it is returned
    /// unsimplified instead of asserting like MLIR.
    fn mul(self, rhs: AffineExpr) -> AffineExpr {
        mul(self, rhs)
    }
}

impl std::ops::Neg for AffineExpr {
    type Output = AffineExpr;
    /// `self * -1`.
    fn neg(self) -> AffineExpr {
        neg(self)
    }
}

impl std::ops::Rem for AffineExpr {
    type Output = AffineExpr;
    /// `self mod rhs`, simplified as MLIR does.
    fn rem(self, rhs: AffineExpr) -> AffineExpr {
        build(BinKind::Mod, self, rhs)
    }
}

impl From<i64> for AffineExpr {
    /// A constant expression.
    fn from(value: i64) -> Self {
        Constant(value)
    }
}

impl AffineExpr {
    /// `self floordiv rhs`, simplified as MLIR does.
    #[must_use]
    pub fn floor_div(self, rhs: AffineExpr) -> AffineExpr {
        build(BinKind::FloorDiv, self, rhs)
    }

    /// `self ceildiv rhs`, simplified as MLIR does.
    #[must_use]
    pub fn ceil_div(self, rhs: AffineExpr) -> AffineExpr {
        build(BinKind::CeilDiv, self, rhs)
    }

    fn as_binary(&self) -> Option<(BinKind, &AffineExpr, &AffineExpr)> {
        match self {
            Add(l, r) => Some((BinKind::Add, l, r)),
            Mul(l, r) => Some((BinKind::Mul, l, r)),
            Mod(l, r) => Some((BinKind::Mod, l, r)),
            FloorDiv(l, r) => Some((BinKind::FloorDiv, l, r)),
            CeilDiv(l, r) => Some((BinKind::CeilDiv, l, r)),
            Dim(_) | Symbol(_) | Constant(_) => None,
        }
    }

    /// True if the expression mentions no dimension (only symbols and constants).
    #[must_use]
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self.as_binary() {
            None => !matches!(self, Dim(_)),
            Some((_, l, r)) => l.is_symbolic_or_constant() && r.is_symbolic_or_constant(),
        }
    }

    /// True if multiplication, division and `mod` only ever involve constant
    /// right-hand sides (or a constant factor), i.e. the expression is affine
    /// rather than semi-affine.
    #[must_use]
    pub fn is_pure_affine(&self) -> bool {
        match self.as_binary() {
            None => true,
            Some((BinKind::Add, l, r)) => l.is_pure_affine() && r.is_pure_affine(),
            Some((BinKind::Mul, l, r)) => {
                l.is_pure_affine()
                    && r.is_pure_affine()
                    && (matches!(l, Constant(_)) || matches!(r, Constant(_)))
            }
            Some((_, l, r)) => l.is_pure_affine() && matches!(r, Constant(_)),
        }
    }

    /// `AffineExpr::getLargestKnownDivisor`, with MLIR's unsigned gcd and
    /// wrapping int64 arithmetic so the folds that consult it agree with MLIR
    /// even at the edges of the range.
    fn largest_known_divisor(&self) -> i64 {
        match self {
            Dim(_) | Symbol(_) => 1,
            // A quotient by a constant that divides the dividend's known
            // divisor keeps the rest of it; division by zero is left alone.
            FloorDiv(l, r) | CeilDiv(l, r) => match **r {
                Constant(c) if c != 0 => {
                    let d = l.largest_known_divisor();
                    if d.wrapping_rem(c) == 0 {
                        d.wrapping_div(c).wrapping_abs()
                    } else {
                        1
                    }
                }
                _ => 1,
            },
            Constant(c) => c.wrapping_abs(),
            Mul(l, r) => l
                .largest_known_divisor()
                .wrapping_mul(r.largest_known_divisor()),
            Add(l, r) | Mod(l, r) => gcd(
                l.largest_known_divisor() as u64,
                r.largest_known_divisor() as u64,
            ) as i64,
        }
    }

    fn depth(&self) -> usize {
        match self.as_binary() {
            None => 1,
            Some((_, l, r)) => 1 + l.depth().max(r.depth()),
        }
    }

    /// Substitute `dims[i]` for `d<i>` and `syms[i]` for `s<i>` (positions
    /// past the end of either slice are kept) and re-simplify, like MLIR's
    /// `replaceDimsAndSymbols`: a subtree whose operands come back unchanged is
    /// kept as it was rather than rebuilt.
    #[must_use]
    pub fn replace_dims_and_symbols(&self, dims: &[AffineExpr], syms: &[AffineExpr]) -> AffineExpr {
        match self {
            Dim(i) => dims.get(*i as usize).unwrap_or(self).clone(),
            Symbol(i) => syms.get(*i as usize).unwrap_or(self).clone(),
            Constant(_) => self.clone(),
            Add(l, r) | Mul(l, r) | Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => {
                let nl = l.replace_dims_and_symbols(dims, syms);
                let nr = r.replace_dims_and_symbols(dims, syms);
                if nl == **l && nr == **r {
                    return self.clone();
                }
                let kind = self.as_binary().map_or(BinKind::Add, |(k, _, _)| k);
                build(kind, nl, nr)
            }
        }
    }

    /// Evaluate with MLIR semantics: `floordiv`/`ceildiv` round toward
    /// negative/positive infinity and `mod` is non-negative. A divisor that is
    /// not positive, an out-of-range dimension or symbol, or an `i64`
    /// overflow is an error.
    ///
    /// # Errors
    ///
    /// A description of the first failing subexpression.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Result<i64, String> {
        let overflow = || format!("integer overflow evaluating `{self}`");
        match self {
            Dim(i) => dims.get(*i as usize).copied().ok_or_else(|| {
                format!(
                    "d{i} is out of range: {} dimension values given",
                    dims.len()
                )
            }),
            Symbol(i) => syms
                .get(*i as usize)
                .copied()
                .ok_or_else(|| format!("s{i} is out of range: {} symbol values given", syms.len())),
            Constant(c) => Ok(*c),
            Add(l, r) => l
                .eval(dims, syms)?
                .checked_add(r.eval(dims, syms)?)
                .ok_or_else(overflow),
            Mul(l, r) => l
                .eval(dims, syms)?
                .checked_mul(r.eval(dims, syms)?)
                .ok_or_else(overflow),
            Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => {
                let (a, b) = (l.eval(dims, syms)?, r.eval(dims, syms)?);
                if b <= 0 {
                    return Err(format!("non-positive divisor {b} evaluating `{self}`"));
                }
                match self {
                    Mod(..) => Ok(a.rem_euclid(b)),
                    FloorDiv(..) => div_round(a, b, false).ok_or_else(overflow),
                    _ => div_round(a, b, true).ok_or_else(overflow),
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Maps and sets
// ---------------------------------------------------------------------------

fn check_arity(what: &str, expected: u32, given: usize) -> Result<(), String> {
    if given == expected as usize {
        Ok(())
    } else {
        Err(format!("expected {expected} {what} values, got {given}"))
    }
}

impl AffineMap {
    /// Evaluate every result for the given dimension and symbol values, which
    /// must match `num_dims` and `num_symbols` in number.
    ///
    /// # Errors
    ///
    /// A count mismatch, or the first result whose [`AffineExpr::eval`] fails.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Result<Vec<i64>, String> {
        check_arity("dimension", self.num_dims, dims.len())?;
        check_arity("symbol", self.num_symbols, syms.len())?;
        self.results.iter().map(|e| e.eval(dims, syms)).collect()
    }

    /// `(d0, .., d<n-1>) -> (d0, .., d<n-1>)`.
    #[must_use]
    pub fn identity(n: u32) -> Self {
        AffineMap {
            num_dims: n,
            num_symbols: 0,
            results: (0..n).map(Dim).collect(),
        }
    }

    /// True if result `i` is `d<i>` for every `i` and there are as many
    /// results as dimensions; symbols are ignored, as in MLIR.
    #[must_use]
    pub fn is_identity(&self) -> bool {
        self.num_dims as usize == self.results.len()
            && self.results.iter().zip(0..).all(|(e, i)| *e == Dim(i))
    }

    /// `self ∘ other`: feed `other`'s results into `self`'s dimensions, as
    /// MLIR's `AffineMap::compose`. The result has `other`'s dimensions and
    /// `self.num_symbols + other.num_symbols` symbols, `self`'s first.
    ///
    /// # Panics
    ///
    /// If `self.num_dims != other.results.len()` (MLIR asserts the same).
    #[must_use]
    pub fn compose(&self, other: &AffineMap) -> AffineMap {
        assert_eq!(
            self.num_dims as usize,
            other.results.len(),
            "AffineMap::compose: {} dimensions cannot take {} results",
            self.num_dims,
            other.results.len()
        );
        let num_dims = other.num_dims;
        let num_symbols = self.num_symbols + other.num_symbols;
        let new_dims: Vec<_> = (0..num_dims).map(Dim).collect();
        let new_syms: Vec<_> = (self.num_symbols..num_symbols).map(Symbol).collect();
        let shifted: Vec<_> = other
            .results
            .iter()
            .map(|e| e.replace_dims_and_symbols(&new_dims, &new_syms))
            .collect();
        AffineMap {
            num_dims,
            num_symbols,
            results: self
                .results
                .iter()
                .map(|e| e.replace_dims_and_symbols(&shifted, &[]))
                .collect(),
        }
    }
}

impl IntegerSet {
    /// True if every constraint holds for the given values, which must match
    /// `num_dims` and `num_symbols` in number.
    ///
    /// # Errors
    ///
    /// A count mismatch, or a constraint whose [`AffineExpr::eval`] fails.
    pub fn contains(&self, dims: &[i64], syms: &[i64]) -> Result<bool, String> {
        check_arity("dimension", self.num_dims, dims.len())?;
        check_arity("symbol", self.num_symbols, syms.len())?;
        for (e, is_eq) in &self.constraints {
            let v = e.eval(dims, syms)?;
            if (*is_eq && v != 0) || (!is_eq && v < 0) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

// ---------------------------------------------------------------------------
// Printing (mlir/lib/IR/AsmPrinter.cpp, printAffineExprInternal & friends)
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    Weak,
    Strong,
}

fn print_expr(f: &mut fmt::Formatter<'_>, e: &AffineExpr, enclosing: Binding) -> fmt::Result {
    let (kind, lhs, rhs) = match e.as_binary() {
        Some(parts) => parts,
        None => {
            return match e {
                Dim(i) => write!(f, "d{i}"),
                Symbol(i) => write!(f, "s{i}"),
                // `-9223372036854775808` does not parse (its magnitude is
                // beyond `i64`, as in MLIR), so it prints as a sum that does.
                Constant(i64::MIN) => write!(f, "(-{} - 1)", i64::MAX),
                _ => write!(f, "{}", const_value(e)),
            };
        }
    };
    let strong = enclosing == Binding::Strong;
    if strong {
        f.write_str("(")?;
    }
    if kind != BinKind::Add {
        if kind == BinKind::Mul && *rhs == Constant(-1) {
            f.write_str("-")?;
            print_expr(f, lhs, Binding::Strong)?;
        } else {
            print_expr(f, lhs, Binding::Strong)?;
            f.write_str(match kind {
                BinKind::Mul => " * ",
                BinKind::FloorDiv => " floordiv ",
                BinKind::CeilDiv => " ceildiv ",
                _ => " mod ",
            })?;
            print_expr(f, rhs, Binding::Strong)?;
        }
    } else {
        print_expr(f, lhs, Binding::Weak)?;
        match rhs {
            // Adding a negated term reads as a subtraction.
            Mul(x, c) if **c == Constant(-1) => {
                f.write_str(" - ")?;
                let inner = if matches!(**x, Add(..)) {
                    Binding::Strong
                } else {
                    Binding::Weak
                };
                print_expr(f, x, inner)?;
            }
            // A coefficient or constant of i64::MIN has no negation in `i64`
            // (MLIR prints `- -9223372036854775808`); it is added as is.
            Mul(x, c) if const_value(c) < -1 && const_value(c) != i64::MIN => {
                f.write_str(" - ")?;
                print_expr(f, x, Binding::Strong)?;
                write!(f, " * {}", -const_value(c))?;
            }
            Constant(c) if *c < 0 && *c != i64::MIN => write!(f, " - {}", -c)?,
            // MLIR prints a right-nested sum without parentheses too.
            _ => {
                f.write_str(" + ")?;
                print_expr(f, rhs, Binding::Weak)?;
            }
        }
    }
    if strong {
        f.write_str(")")?;
    }
    Ok(())
}

impl fmt::Display for AffineExpr {
    /// MLIR's textual form, e.g. `d0 - s0 * 2 + (d1 floordiv 4) mod 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_expr(f, self, Binding::Weak)
    }
}

fn print_ids(f: &mut fmt::Formatter<'_>, num_dims: u32, num_symbols: u32) -> fmt::Result {
    f.write_str("(")?;
    for i in 0..num_dims {
        write!(f, "{}d{i}", if i == 0 { "" } else { ", " })?;
    }
    f.write_str(")")?;
    if num_symbols != 0 {
        f.write_str("[")?;
        for i in 0..num_symbols {
            write!(f, "{}s{i}", if i == 0 { "" } else { ", " })?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

impl fmt::Display for AffineMap {
    /// MLIR's form of the `affine_map<...>` body, e.g. `(d0)[s0] -> (d0 + s0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_ids(f, self.num_dims, self.num_symbols)?;
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i != 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for IntegerSet {
    /// MLIR's form of the `affine_set<...>` body, e.g. `(d0)[s0] : (d0 - s0 >= 0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print_ids(f, self.num_dims, self.num_symbols)?;
        f.write_str(" : (")?;
        for (i, (e, is_eq)) in self.constraints.iter().enumerate() {
            if i != 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e} {} 0", if *is_eq { "==" } else { ">=" })?;
        }
        f.write_str(")")
    }
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

/// Parse the body of an `affine_map<...>` attribute, e.g.
/// `(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)`. Dimension and symbol names
/// are arbitrary identifiers bound by position. The expressions are
/// simplified as MLIR 22 does while parsing.
///
/// # Errors
///
/// Syntax errors, undeclared or redefined names, constants beyond `i64`,
/// products of two non-symbolic operands, divisors that are not
/// symbolic-or-constant, and nesting deeper than the parser's limits, each
/// with the byte offset MLIR would point at.
pub fn parse_affine_map(text: &str) -> Result<AffineMap, AffineError> {
    let top = parse_top(text, Rule::affine_map)?;
    let mut b = Builder::new();
    let mut results = Vec::new();
    for pair in top {
        match pair.as_rule() {
            Rule::dim_list => b.declare_dims(pair)?,
            Rule::sym_list => b.declare_symbols(pair)?,
            Rule::expr => results.push(b.expr(pair)?),
            _ => {}
        }
    }
    Ok(AffineMap {
        num_dims: b.num_dims,
        num_symbols: b.num_symbols,
        results,
    })
}

/// Parse the body of an `affine_set<...>` attribute, e.g.
/// `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`. As in MLIR 22 a constraint may
/// compare two expressions (`a >= b`, `a <= b`, `a == b`); it is stored as
/// `a - b` (`b - a` for `<=`) against zero. An empty constraint list means
/// "always true" and becomes the single constraint `0 == 0`.
///
/// # Errors
///
/// As for [`parse_affine_map`].
pub fn parse_integer_set(text: &str) -> Result<IntegerSet, AffineError> {
    let top = parse_top(text, Rule::integer_set)?;
    let mut b = Builder::new();
    let mut constraints = Vec::new();
    for pair in top {
        match pair.as_rule() {
            Rule::dim_list => b.declare_dims(pair)?,
            Rule::sym_list => b.declare_symbols(pair)?,
            Rule::constraint => constraints.push(b.constraint(pair)?),
            _ => {}
        }
    }
    if constraints.is_empty() {
        constraints.push((Constant(0), true));
    }
    Ok(IntegerSet {
        num_dims: b.num_dims,
        num_symbols: b.num_symbols,
        constraints,
    })
}

/// Run the pest grammar and return the children of the top rule.
fn parse_top(text: &str, rule: Rule) -> Result<Pairs<'_, Rule>, AffineError> {
    check_paren_depth(text)?;
    let mut pairs = match AffineParser::parse(rule, text) {
        Ok(pairs) => pairs,
        Err(e) => {
            return Err(wrong_kind(text, rule, &e).unwrap_or_else(|| syntax_error(text, rule, &e)));
        }
    };
    pairs
        .next()
        .map(Pair::into_inner)
        .ok_or_else(|| AffineError::new(0, "internal error: empty parse"))
}

/// MLIR parses a map and a set with the same code and only afterwards
/// complains about getting the wrong one, so a set given where a map is
/// expected (or the reverse) reports the first error of the other kind, if
/// any, and otherwise the mismatch at offset 0.
fn wrong_kind(text: &str, rule: Rule, err: &pest::error::Error<Rule>) -> Option<AffineError> {
    let pos = error_pos(err);
    let rest = &text[pos..];
    let (other, msg) = match rule {
        Rule::affine_map if rest.starts_with(':') => {
            (Rule::integer_set, "expected AffineMap, but got IntegerSet")
        }
        Rule::integer_set if rest.starts_with("->") => {
            (Rule::affine_map, "expected IntegerSet, but got AffineMap")
        }
        _ => return None,
    };
    if !expected(err)
        .iter()
        .any(|r| matches!(r, Rule::arrow | Rule::colon))
    {
        return None;
    }
    Some(match AffineParser::parse(other, text) {
        Ok(_) => AffineError::new(0, msg),
        Err(e) => syntax_error(text, other, &e),
    })
}

fn error_pos(err: &pest::error::Error<Rule>) -> usize {
    match err.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    }
}

/// The rules pest tried at the failure position, positive and negative.
fn expected(err: &pest::error::Error<Rule>) -> Vec<Rule> {
    match &err.variant {
        pest::error::ErrorVariant::ParsingError {
            positives,
            negatives,
        } => positives.iter().chain(negatives).copied().collect(),
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    }
}

/// Reject deep parenthesis nesting before pest recurses into it.
fn check_paren_depth(text: &str) -> Result<(), AffineError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                depth += 1;
                if depth > MAX_PAREN_DEPTH {
                    return Err(AffineError::new(
                        i,
                        format!("parentheses nested deeper than {MAX_PAREN_DEPTH} levels"),
                    ));
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.')
}

/// Turn pest's furthest-failure report into MLIR's diagnostic for the same
/// situation. MLIR reports a missing closing token at the end of the previous
/// token (`emitWrongTokenError`) and everything else at the offending token;
/// the offsets follow suit.
fn syntax_error(text: &str, top: Rule, err: &pest::error::Error<Rule>) -> AffineError {
    let pos = error_pos(err);
    let expected = expected(err);
    let has = |r: Rule| expected.contains(&r);
    let before = text[..pos].trim_end_matches([' ', '\t', '\r', '\n']);
    let prev_token_end = before.len();
    let wrong_token = |msg: &str| AffineError::new(prev_token_end, msg);
    let rest = &text[pos..];

    if has(Rule::expr_rparen) && !has(Rule::plus) {
        // Only the `!expr_rparen` lookahead in `paren` fails right after `(`.
        return AffineError::new(pos, "no expression inside parentheses");
    }
    if has(Rule::factor) || has(Rule::operand) || has(Rule::float) {
        let ends_with_word = |s: &str, w: &str| {
            s.ends_with(w)
                && !s[..s.len() - w.len()]
                    .bytes()
                    .last()
                    .is_some_and(is_ident_byte)
        };
        let after_binary_op = {
            // Skip back over unary minuses: MLIR only says "missing right
            // operand" when a binary operator precedes them.
            let mut s = before;
            loop {
                if let Some(t) = s.strip_suffix('-') {
                    let t = t.trim_end();
                    if t.ends_with(')') || t.bytes().last().is_some_and(is_ident_byte) {
                        break true;
                    }
                    s = t;
                } else {
                    break s.ends_with(['+', '*'])
                        || ["floordiv", "ceildiv", "mod"]
                            .iter()
                            .any(|w| ends_with_word(s, w));
                }
            }
        };
        let msg = if after_binary_op {
            "missing right operand of binary operator"
        } else if rest.starts_with(['+', '*']) {
            "missing left operand of binary operator"
        } else {
            "expected affine expression"
        };
        return AffineError::new(pos, msg);
    }
    if has(Rule::ge) {
        // MLIR has already consumed a lone `>`, `<` or `=` when it gives up.
        let mut at = pos;
        if rest.starts_with(['>', '<', '=']) {
            at += 1;
            at += text[at..].len() - text[at..].trim_start().len();
        }
        return AffineError::new(
            at,
            "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
        );
    }
    let kind = if top == Rule::affine_map {
        "affine map"
    } else {
        "integer set"
    };
    if has(Rule::map_rparen) {
        return wrong_token("expected ')' in affine map range");
    }
    if has(Rule::set_rparen) {
        return wrong_token("expected ')' in integer set constraint list");
    }
    if has(Rule::expr_rparen) {
        return wrong_token("expected ')'");
    }
    if has(Rule::ident) {
        return wrong_token("expected bare identifier");
    }
    if has(Rule::dims_rparen) {
        return wrong_token("expected ')' in dimensional identifier list");
    }
    if has(Rule::syms_rsquare) {
        return wrong_token("expected ']' in symbol list");
    }
    if has(Rule::lparen) {
        return wrong_token("expected '(' in dimensional identifier list");
    }
    if has(Rule::arrow) || has(Rule::colon) {
        return wrong_token("expected '->' or ':'");
    }
    if has(Rule::map_lparen) {
        return wrong_token("expected '(' in affine map range");
    }
    if has(Rule::set_lparen) {
        return wrong_token("expected '(' in integer set constraint list");
    }
    if has(Rule::EOI) {
        // In MLIR the body is followed by the attribute's closing `>`.
        return wrong_token(&format!("expected '>' in {kind}"));
    }
    AffineError::new(pos, format!("syntax error in {kind}"))
}

fn internal(offset: usize) -> AffineError {
    AffineError::new(offset, "internal error: unexpected parse tree")
}

/// Folds the parse tree into expressions in MLIR's evaluation order, so that
/// simplification and the first reported semantic error match MLIR's.
struct Builder<'t> {
    /// Dimension names then symbol names, bound by position.
    names: Vec<(&'t str, AffineExpr)>,
    num_dims: u32,
    num_symbols: u32,
}

impl<'t> Builder<'t> {
    fn new() -> Self {
        Builder {
            names: Vec::new(),
            num_dims: 0,
            num_symbols: 0,
        }
    }

    fn declare(&mut self, pair: &Pair<'t, Rule>, e: AffineExpr) -> Result<(), AffineError> {
        let name = pair.as_str();
        if self.names.iter().any(|(n, _)| *n == name) {
            return Err(AffineError::new(
                pair.as_span().start(),
                format!("redefinition of identifier '{name}'"),
            ));
        }
        self.names.push((name, e));
        Ok(())
    }

    fn declare_dims(&mut self, list: Pair<'t, Rule>) -> Result<(), AffineError> {
        for p in list.into_inner().filter(|p| p.as_rule() == Rule::ident) {
            self.declare(&p, Dim(self.num_dims))?;
            self.num_dims += 1;
        }
        Ok(())
    }

    fn declare_symbols(&mut self, list: Pair<'t, Rule>) -> Result<(), AffineError> {
        for p in list.into_inner().filter(|p| p.as_rule() == Rule::ident) {
            self.declare(&p, Symbol(self.num_symbols))?;
            self.num_symbols += 1;
        }
        Ok(())
    }

    fn checked_depth(e: AffineExpr, offset: usize) -> Result<AffineExpr, AffineError> {
        if e.depth() > MAX_EXPR_DEPTH {
            return Err(AffineError::new(
                offset,
                format!("affine expression nested deeper than {MAX_EXPR_DEPTH} levels"),
            ));
        }
        Ok(e)
    }

    fn constraint(&self, pair: Pair<'t, Rule>) -> Result<(AffineExpr, bool), AffineError> {
        let start = pair.as_span().start();
        let mut it = pair.into_inner();
        let (Some(lhs), Some(op), Some(rhs)) = (it.next(), it.next(), it.next()) else {
            return Err(internal(start));
        };
        let at = op.as_span().start();
        let (lhs, rhs) = (self.expr(lhs)?, self.expr(rhs)?);
        let (e, is_eq) = match op.as_rule() {
            Rule::ge => (lhs - rhs, false),
            Rule::le => (rhs - lhs, false),
            _ => (lhs - rhs, true),
        };
        Ok((Self::checked_depth(e, at)?, is_eq))
    }

    fn expr(&self, pair: Pair<'t, Rule>) -> Result<AffineExpr, AffineError> {
        let start = pair.as_span().start();
        let mut it = pair.into_inner();
        let mut acc = self.term(it.next().ok_or_else(|| internal(start))?)?;
        while let Some(op) = it.next() {
            let at = op.as_span().start();
            let rhs = self.term(it.next().ok_or_else(|| internal(at))?)?;
            acc = match op.as_rule() {
                Rule::plus => acc + rhs,
                _ => acc - rhs,
            };
            acc = Self::checked_depth(acc, at)?;
        }
        Ok(acc)
    }

    fn term(&self, pair: Pair<'t, Rule>) -> Result<AffineExpr, AffineError> {
        let start = pair.as_span().start();
        let mut it = pair.into_inner().peekable();
        let mut acc = self.factor(it.next().ok_or_else(|| internal(start))?)?;
        while let Some(op) = it.next() {
            let operand = it.next().ok_or_else(|| internal(op.as_span().start()))?;
            let rhs = self.factor(operand)?;
            // MLIR reports a non-affine combination at the operator that
            // follows it, if any, else at its own operator.
            let at = it.peek().unwrap_or(&op).as_span().start();
            acc = self.high_prec(op.as_rule(), acc, rhs, at)?;
        }
        Ok(acc)
    }

    fn high_prec(
        &self,
        op: Rule,
        lhs: AffineExpr,
        rhs: AffineExpr,
        at: usize,
    ) -> Result<AffineExpr, AffineError> {
        let (kind, name) = match op {
            Rule::star => (BinKind::Mul, "*"),
            Rule::floordiv => (BinKind::FloorDiv, "floordiv"),
            Rule::ceildiv => (BinKind::CeilDiv, "ceildiv"),
            _ => (BinKind::Mod, "mod"),
        };
        if kind == BinKind::Mul {
            if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
                return Err(AffineError::new(
                    at,
                    "non-affine expression: at least one of the multiply operands has to be \
                     either a constant or symbolic",
                ));
            }
        } else if !rhs.is_symbolic_or_constant() {
            return Err(AffineError::new(
                at,
                format!(
                    "non-affine expression: right operand of {name} has to be either a constant \
                     or symbolic"
                ),
            ));
        }
        Self::checked_depth(build(kind, lhs, rhs), at)
    }

    fn factor(&self, pair: Pair<'t, Rule>) -> Result<AffineExpr, AffineError> {
        let start = pair.as_span().start();
        let mut negations = 0usize;
        let mut operand = None;
        for p in pair.into_inner() {
            if p.as_rule() == Rule::negate {
                negations += 1;
            } else {
                operand = Some(p);
            }
        }
        let operand = operand.and_then(|p| p.into_inner().next());
        let mut e = self.operand(operand.ok_or_else(|| internal(start))?)?;
        for _ in 0..negations {
            e = Self::checked_depth(-e, start)?;
        }
        Ok(e)
    }

    fn operand(&self, pair: Pair<'t, Rule>) -> Result<AffineExpr, AffineError> {
        let start = pair.as_span().start();
        match pair.as_rule() {
            Rule::ident => {
                let name = pair.as_str();
                self.names
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, e)| e.clone())
                    .ok_or_else(|| {
                        AffineError::new(start, format!("use of undeclared identifier '{name}'"))
                    })
            }
            Rule::integer => {
                let s = pair.as_str();
                let value = match s.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => s.parse::<u64>().ok(),
                };
                value
                    .and_then(|v| i64::try_from(v).ok())
                    .map(Constant)
                    .ok_or_else(|| AffineError::new(start, "constant too large for index"))
            }
            Rule::paren => {
                let inner = pair.into_inner().find(|p| p.as_rule() == Rule::expr);
                self.expr(inner.ok_or_else(|| internal(start))?)
            }
            Rule::ssa_symbol => {
                // MLIR parses on into `symbol(%ssa)` and fails inside it.
                let text = pair.as_str();
                match text.find('(') {
                    Some(open) => {
                        // MLIR's offset: just past the `(`.
                        Err(AffineError::new(
                            start + open + 1,
                            "unexpected ssa identifier",
                        ))
                    }
                    None => Err(AffineError::new(
                        pair.as_span().end(),
                        "expected '(' at start of SSA symbol",
                    )),
                }
            }
            _ => Err(internal(start)),
        }
    }
}

#[cfg(test)]
mod tests;
