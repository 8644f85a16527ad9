//! Which graph ops may compute in reduced precision (f16 or bf16): the
//! white, gray and black lists of automatic mixed precision (PAI's and
//! PyTorch autocast's), as one typed table with a row per op. The
//! `auto-mixed-precision` pass reads it; its cost model, not this table,
//! decides where a white or gray op actually runs in reduced precision.

use super::*;

/// How an op may compute when its f32 program is made mixed-precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// White list: a matrix product or convolution, which gains the matrix
    /// units' reduced-precision rate; its reduced form accumulates in f32
    /// (the tensor cores' and the interpreter's `dot`).
    Reduced,
    /// Gray list: exact or well-conditioned elementwise work and views,
    /// which may follow their neighbours into reduced precision (a cast is
    /// saved, bytes halve) or stay in f32.
    Follow,
    /// Black list: statistics, reductions, transcendental and
    /// ill-conditioned functions, and everything that is not float
    /// arithmetic: always f32 (its reduced-precision operands are cast up).
    F32,
}

use Precision::{F32, Follow, Reduced};

/// Every graph op's [`Precision`], one row per op.
pub static PRECISION: &[(&OpSpec, Precision)] = &[
    // White: the matrix units.
    (&MATMUL, Reduced),
    (&BATCH_MATMUL, Reduced),
    (&SPARSE_MATMUL, Reduced),
    (&CONV2D, Reduced),
    // Gray: elementwise arithmetic that loses nothing beyond the rounding
    // of its result (division too: it is correctly rounded, as JAX's
    // reduced-precision models scale attention scores), the activations,
    // views, and select (it only picks).
    (&ADD, Follow),
    (&SUB, Follow),
    (&MUL, Follow),
    (&DIV, Follow),
    (&MAX, Follow),
    (&MIN, Follow),
    (&NEG, Follow),
    (&ABS, Follow),
    (&RELU, Follow),
    (&SIGMOID, Follow),
    (&SILU, Follow),
    (&GELU, Follow),
    (&GELU_TANH, Follow),
    (&FAST_GELU, Follow),
    (&TANH, Follow),
    (&BIAS_ADD, Follow),
    (&TRANSPOSE, Follow),
    (&RESHAPE, Follow),
    (&BROADCAST, Follow),
    (&SLICE, Follow),
    (&CONCAT, Follow),
    (&SELECT, Follow),
    // Black: statistics and reductions (softmax, the normalisations,
    // sums), functions whose error grows with their argument, and ops that
    // are not float arithmetic.
    (&SOFTMAX, F32),
    (&LAYERNORM, F32),
    (&GROUPNORM, F32),
    (&RMSNORM, F32),
    (&REDUCE, F32),
    (&EXP, F32),
    (&LOG, F32),
    (&LOG1P, F32),
    (&EXPM1, F32),
    (&POW, F32),
    (&REM, F32),
    (&SQRT, F32),
    (&RSQRT, F32),
    (&ERF, F32),
    (&ERFC, F32),
    (&SIN, F32),
    (&COS, F32),
    (&FLOOR, F32),
    (&CEIL, F32),
    (&ROUND_EVEN, F32),
    (&AND, F32),
    (&OR, F32),
    (&XOR, F32),
    (&NOT, F32),
    (&CAST, F32),
    (&COMPARE, F32),
    (&SPLIT, F32),
    (&IOTA, F32),
    (&CONSTANT, F32),
    (&PAD, F32),
    (&DYNAMIC_SLICE, F32),
    (&DYNAMIC_UPDATE_SLICE, F32),
    (&GATHER, F32),
    (&REDUCE_WINDOW, F32),
    (&SCATTER, F32),
    (&SORT, F32),
];

/// The [`Precision`] of the op named `name` (`F32` for ops that are not
/// graph ops).
pub fn precision(name: &str) -> Precision {
    PRECISION
        .iter()
        .find(|(s, _)| s.name == name)
        .map_or(F32, |(_, p)| *p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every graph op has one row, and every row is a graph op.
    #[test]
    fn every_op_has_one_row() {
        for sem in SEMANTICS {
            let rows = PRECISION
                .iter()
                .filter(|(s, _)| s.name == sem.spec.name)
                .count();
            assert_eq!(rows, 1, "{} has {rows} precision rows", sem.spec.name);
        }
        assert_eq!(PRECISION.len(), SEMANTICS.len());
    }

    /// The white list is the contractions; statistics are black; only
    /// elementwise ops and views are gray.
    #[test]
    fn the_lists_follow_the_classes() {
        for (spec, p) in PRECISION {
            let sem = semantics(spec.name).expect("a graph op");
            match p {
                Reduced => assert_eq!(sem.class, Class::Contraction, "{}", spec.name),
                Follow => assert!(
                    matches!(sem.class, Class::Elementwise | Class::View),
                    "{}",
                    spec.name
                ),
                F32 => {}
            }
            if sem.class == Class::Reduction {
                assert_eq!(*p, F32, "{} is a statistic", spec.name);
            }
        }
        assert_eq!(precision(MATMUL.name), Reduced);
        assert_eq!(precision(SOFTMAX.name), F32);
        assert_eq!(precision(RELU.name), Follow);
        assert_eq!(precision("arith.addf"), F32);
    }
}
