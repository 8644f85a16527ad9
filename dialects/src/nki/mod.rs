//! The `nki` dialect: kernels for AWS NeuronCores in the terms of the Neuron
//! Kernel Interface (`nki.language`, `nki.isa`). A kernel runs over a grid of
//! programs (`nl.program_id`) on HBM tensors (memref buffers); its values are
//! tiles in on-chip memory, `!nki.tile<128x512xbf16, sbuf>` (partition
//! dimension first, at most 128) or `psum` (the Tensor engine's fp32
//! accumulators):
//!
//! ```mlir
//! nki.kernel @scale grid = [1] arch = trn1 {
//! ^bb0(%x: memref<128x64xf32>, %y: memref<128x64xf32>):
//!   %c0 = arith.constant 0 : index
//!   %t = nki.load %x[%c0, %c0] : memref<128x64xf32> -> !nki.tile<128x64xf32, sbuf>
//!   %u = nki.activation exp %t scale = 2.0 : !nki.tile<128x64xf32, sbuf> -> !nki.tile<128x64xf32, sbuf>
//!   nki.store %u, %y[%c0, %c0] : !nki.tile<128x64xf32, sbuf>, memref<128x64xf32>
//!   nki.return
//! }
//! ```
//!
//! Every instruction names the engine that runs it ([`engine_of`]): DMA
//! queues (`load`, `store`), Tensor (`matmul`, `transpose`), Scalar
//! (`activation`), Vector (`tensor_reduce`; `tensor_tensor`,
//! `tensor_scalar`, `copy`, `memset`, `select` also on GpSimd), GpSimd
//! (`partition_reduce`, `partition_broadcast`, `iota`, `affine_select`,
//! `mask`).
//! Verifiers enforce the hardware's limits (partitions, matmul free sizes,
//! a PSUM bank per accumulator, SBUF and PSUM capacity of the kernel's
//! [`Arch`]); the interpreter computes every instruction in f64 from its
//! operands and rounds once to the result's element type (round to
//! nearest even, as the engines write bf16/fp16), with `matmul` adding each
//! product into its fp32 PSUM accumulator and `tensor_reduce` accumulating
//! in fp32 along the free axis.

mod interp;
mod ops;
pub mod sim;
mod types;

pub use ops::*;
pub use types::{NkiTile, SYNTAX, Space, make_nki_tile, nki_tile};

use aic::dialect::Dialect;
use aic::ir::{Context, Op};
use aic::types::{Signedness, TypeKind};

aic::dialect_enum! {
    /// The engine that runs an instruction, `#nki<engine vector>`.
    pub enum Engine = "nki<engine ", "engine (tensor, vector, scalar, gpsimd, dma)" {
        /// The 128x128 systolic array.
        Tensor = "tensor",
        /// Elementwise and free-axis reductions.
        Vector = "vector",
        /// Activation functions with a fused scale and bias.
        Scalar = "scalar",
        /// General-purpose cores, also across partitions.
        GpSimd = "gpsimd",
        /// The DMA queues between HBM and SBUF.
        Dma = "dma",
    }
}

aic::dialect_enum! {
    /// An arithmetic or comparison operator of the Vector and GpSimd engines
    /// (`nl.add`, `nl.greater`...), `#nki<alu add>`; comparisons give 1 or 0.
    pub enum Alu = "nki<alu ", "ALU operator" {
        /// a + b
        Add = "add",
        /// a - b
        Subtract = "subtract",
        /// a * b
        Multiply = "multiply",
        /// a / b
        Divide = "divide",
        /// max(a, b), NaN-propagating
        Max = "max",
        /// min(a, b), NaN-propagating
        Min = "min",
        /// a == b
        IsEqual = "is_equal",
        /// a != b
        NotEqual = "not_equal",
        /// a > b
        IsGt = "is_gt",
        /// a >= b
        IsGe = "is_ge",
        /// a < b
        IsLt = "is_lt",
        /// a <= b
        IsLe = "is_le",
        /// a ^ b
        Pow = "pow",
        /// a & b on integers (`logical_and` on booleans)
        BitwiseAnd = "bitwise_and",
        /// a | b on integers
        BitwiseOr = "bitwise_or",
        /// a xor b on integers
        BitwiseXor = "bitwise_xor",
        /// a << b on integers
        LeftShift = "left_shift",
        /// a >> b on integers, sign-extending
        RightShift = "right_shift",
    }
}

impl Alu {
    /// The operator on two numbers.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        let flag = |c: bool| if c { 1.0 } else { 0.0 };
        match self {
            Alu::Add => a + b,
            Alu::Subtract => a - b,
            Alu::Multiply => a * b,
            Alu::Divide => a / b,
            Alu::Max if a.is_nan() || b.is_nan() => f64::NAN,
            Alu::Min if a.is_nan() || b.is_nan() => f64::NAN,
            Alu::Max => a.max(b),
            Alu::Min => a.min(b),
            Alu::IsEqual => flag(a == b),
            Alu::NotEqual => flag(a != b),
            Alu::IsGt => flag(a > b),
            Alu::IsGe => flag(a >= b),
            Alu::IsLt => flag(a < b),
            Alu::IsLe => flag(a <= b),
            Alu::Pow => a.powf(b),
            // Integer operators see the operands' integer values (integer
            // tiles hold whole numbers; a shift of 64 or more gives 0 or -1).
            Alu::BitwiseAnd => ((a as i64) & (b as i64)) as f64,
            Alu::BitwiseOr => ((a as i64) | (b as i64)) as f64,
            Alu::BitwiseXor => ((a as i64) ^ (b as i64)) as f64,
            Alu::LeftShift => (a as i64).checked_shl(b as u32).unwrap_or(0) as f64,
            Alu::RightShift => {
                let x = a as i64;
                x.checked_shr(b as u32)
                    .unwrap_or(if x < 0 { -1 } else { 0 }) as f64
            }
        }
    }
}

aic::dialect_enum! {
    /// The Scalar engine's function table (`nl.exp`, ...), `#nki<act exp>`.
    pub enum Act = "nki<act ", "activation function" {
        /// x
        Copy = "copy",
        /// e^x
        Exp = "exp",
        /// ln x
        Log = "log",
        /// tanh x
        Tanh = "tanh",
        /// sqrt x
        Sqrt = "sqrt",
        /// 1 / sqrt x
        Rsqrt = "rsqrt",
        /// 1 / (1 + e^-x)
        Sigmoid = "sigmoid",
        /// max(x, 0)
        Relu = "relu",
        /// |x|
        Abs = "abs",
        /// sin x
        Sin = "sin",
        /// cos x
        Cos = "cos",
        /// x * x
        Square = "square",
        /// 1 / x
        Reciprocal = "reciprocal",
        /// -x
        Negative = "negative",
        /// The error function.
        Erf = "erf",
    }
}

impl Act {
    /// The function of one number.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Act::Copy => x,
            Act::Exp => x.exp(),
            Act::Log => x.ln(),
            Act::Tanh => x.tanh(),
            Act::Sqrt => x.sqrt(),
            Act::Rsqrt => 1.0 / x.sqrt(),
            Act::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            Act::Relu if x.is_nan() => x,
            Act::Relu => x.max(0.0),
            Act::Abs => x.abs(),
            Act::Sin => x.sin(),
            Act::Cos => x.cos(),
            Act::Square => x * x,
            Act::Reciprocal => 1.0 / x,
            Act::Negative => -x,
            Act::Erf => crate::math::fold::libm::erf(x),
        }
    }
}

aic::dialect_enum! {
    /// How a reduction combines, `#nki<reduce add>`.
    pub enum ReduceOp = "nki<reduce ", "reduction (add, max, min)" {
        /// The sum.
        Add = "add",
        /// The maximum.
        Max = "max",
        /// The minimum.
        Min = "min",
    }
}

impl ReduceOp {
    /// The operator as an ALU operator.
    pub fn alu(self) -> Alu {
        match self {
            ReduceOp::Add => Alu::Add,
            ReduceOp::Max => Alu::Max,
            ReduceOp::Min => Alu::Min,
        }
    }
}

aic::dialect_enum! {
    /// The NeuronCore generation a kernel is for, `#nki<arch trn1>`.
    pub enum Arch = "nki<arch ", "NeuronCore target (trn1, trn2)" {
        /// Trainium1 (and Inferentia2): NeuronCore-v2.
        Trn1 = "trn1",
        /// Trainium2: NeuronCore-v3.
        Trn2 = "trn2",
    }
}

/// The numbers of one NeuronCore generation the verifier and the
/// simulator use, from AWS's public architecture documentation.
#[derive(Clone, Copy, Debug)]
pub struct ArchSpec {
    /// The name (`trn1`).
    pub name: &'static str,
    /// SBUF bytes per partition (trn1: 24 MiB over 128 partitions; trn2: 28 MiB).
    pub sbuf_partition_bytes: i64,
    /// PSUM bytes per partition (2 MiB over 128 partitions).
    pub psum_partition_bytes: i64,
    /// One PSUM bank per partition: an accumulator's most (2 KiB, 512 fp32).
    pub psum_bank_bytes: i64,
    /// NeuronCores per chip.
    pub cores_per_chip: i64,
    /// The chip's dense bf16 peak, FLOP/s.
    pub chip_bf16_flops: f64,
    /// The chip's HBM bandwidth, bytes/s.
    pub chip_hbm_bytes_per_s: f64,
}

impl Arch {
    /// The generation's numbers.
    pub fn spec(self) -> ArchSpec {
        match self {
            Arch::Trn1 => ArchSpec {
                name: "trn1",
                sbuf_partition_bytes: 192 * 1024,
                psum_partition_bytes: 16 * 1024,
                psum_bank_bytes: 2048,
                cores_per_chip: 2,
                chip_bf16_flops: 190e12,
                chip_hbm_bytes_per_s: 820e9,
            },
            Arch::Trn2 => ArchSpec {
                name: "trn2",
                sbuf_partition_bytes: 224 * 1024,
                psum_partition_bytes: 16 * 1024,
                psum_bank_bytes: 2048,
                cores_per_chip: 8,
                chip_bf16_flops: 667e12,
                chip_hbm_bytes_per_s: 2.9e12,
            },
        }
    }
}

/// The most partitions a tile may have.
pub const PARTITIONS: i64 = 128;
/// The most free elements of a matmul's stationary operand.
pub const STATIONARY_FREE: i64 = 128;
/// The most free elements of a matmul's moving operand.
pub const MOVING_FREE: i64 = 512;

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "nki",
    description: "NeuronCore kernels: DMA, Tensor/Vector/Scalar/GpSimd instructions on SBUF and PSUM tiles",
    ops: &[
        KERNEL,
        RETURN,
        LAUNCH,
        PROGRAM_ID,
        AFFINE_RANGE,
        SEQUENTIAL_RANGE,
        YIELD,
        LOAD,
        STORE,
        MATMUL,
        TRANSPOSE,
        ACTIVATION,
        TENSOR_TENSOR,
        TENSOR_SCALAR,
        TENSOR_REDUCE,
        PARTITION_REDUCE,
        PARTITION_BROADCAST,
        FREE_BROADCAST,
        IOTA,
        SELECT,
        AFFINE_SELECT,
        MASK,
        COPY,
        BITCAST,
        MEMSET,
    ],
    materialize_constant: None,
};

aic::op_kinds! {
    /// Every nki op as a typed handle.
    pub enum NkiOp {
        Kernel, Return, Launch, ProgramId, AffineRange, SequentialRange, Yield, Load, Store,
        Matmul, Transpose, Activation, TensorTensor, TensorScalar, TensorReduce,
        PartitionReduce, PartitionBroadcast, FreeBroadcast, Iota, Select, AffineSelect, Mask, Copy,
        Bitcast, Memset,
    }
}

/// The value whose bits as `to` are those of `v` as `from` (two's
/// complement for integers).
pub fn reinterpret(from: &TypeKind, to: &TypeKind, v: f64) -> Option<f64> {
    let (bits, width) = match from {
        TypeKind::Float(k) => (k.from_f64(v), k.bit_width()),
        TypeKind::Integer { width, .. } => (v as i128 as u128, *width),
        _ => return None,
    };
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let bits = bits & mask;
    match to {
        TypeKind::Float(k) if k.bit_width() == width => Some(k.to_f64(bits)),
        TypeKind::Integer {
            width: w,
            signedness,
        } if *w == width => {
            let unsigned = matches!(signedness, Signedness::Unsigned) || width == 1;
            let negative = !unsigned && bits >> (width - 1) & 1 == 1;
            Some(if negative {
                (bits as i128 - (1i128 << width)) as f64
            } else {
                bits as f64
            })
        }
        _ => None,
    }
}

/// The engine that runs `op`, if it is an nki instruction: the op's fixed
/// engine, or the one its `engine` attribute chose.
pub fn engine_of(ctx: &Context, op: Op) -> Option<Engine> {
    use NkiOp as K;
    let chosen = |e: Option<Engine>, default| Some(e.unwrap_or(default));
    match NkiOp::of(ctx, op)? {
        K::Load(_) | K::Store(_) => Some(Engine::Dma),
        K::Matmul(_) | K::Transpose(_) => Some(Engine::Tensor),
        K::Activation(_) => Some(Engine::Scalar),
        K::TensorReduce(_) | K::FreeBroadcast(_) => Some(Engine::Vector),
        K::PartitionReduce(_)
        | K::PartitionBroadcast(_)
        | K::Iota(_)
        | K::AffineSelect(_)
        | K::Mask(_) => Some(Engine::GpSimd),
        K::TensorTensor(o) => chosen(o.engine(ctx), Engine::Vector),
        K::TensorScalar(o) => chosen(o.engine(ctx), Engine::Vector),
        K::Select(o) => chosen(o.engine(ctx), Engine::Vector),
        K::Copy(o) => chosen(o.engine(ctx), Engine::Vector),
        K::Memset(o) => chosen(o.engine(ctx), Engine::Vector),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::float::FloatKind;

    #[test]
    fn integer_operators_see_whole_numbers() {
        assert_eq!(Alu::BitwiseAnd.apply(12.0, 10.0), 8.0);
        assert_eq!(Alu::BitwiseOr.apply(12.0, 10.0), 14.0);
        assert_eq!(Alu::BitwiseXor.apply(-1.0, 2147483647.0), -2147483648.0);
        assert_eq!(Alu::LeftShift.apply(3.0, 4.0), 48.0);
        assert_eq!(Alu::RightShift.apply(-8.0, 1.0), -4.0);
        // Shifting everything out leaves the sign.
        assert_eq!(Alu::RightShift.apply(-8.0, 70.0), -1.0);
        assert_eq!(Alu::RightShift.apply(8.0, 70.0), 0.0);
        assert_eq!(Alu::LeftShift.apply(1.0, 64.0), 0.0);
    }

    #[test]
    fn bitcasts_reinterpret_bits() {
        let f32t = TypeKind::Float(FloatKind::F32);
        let i32t = TypeKind::Integer {
            width: 32,
            signedness: Signedness::Signless,
        };
        let u16t = TypeKind::Integer {
            width: 16,
            signedness: Signedness::Unsigned,
        };
        let f16t = TypeKind::Float(FloatKind::F16);
        assert_eq!(reinterpret(&f32t, &i32t, 1.0), Some(1065353216.0));
        assert_eq!(reinterpret(&f32t, &i32t, -1.0), Some(-1082130432.0));
        assert_eq!(reinterpret(&i32t, &f32t, 1065353216.0), Some(1.0));
        assert_eq!(reinterpret(&f16t, &u16t, -2.0), Some(49152.0));
        assert_eq!(reinterpret(&f32t, &u16t, 1.0), None, "widths differ");
    }
}
