//! The `amdgpu` dialect: AMD wavefront-level ops on register fragments,
//! between `gpu` kernels and the AMDGPU intrinsics. `tile-to-gpu{mma=amdgpu}`
//! writes it for `tile.gemm`s that CDNA matrix cores (gfx90a, gfx942) can
//! run; `backends/llvm` translates it for AMDGPU, and emulates it on the
//! host so that the lane layouts are tested without an AMD GPU.
//!
//! ```mlir
//! %d = amdgpu.mfma 16x16x16 %a * %b + %c blgp = none
//!     : vector<4xf16>, vector<4xf16>, vector<4xf32>
//! %e = amdgpu.mfma 32x32x8 %a * %b + %f blgp = none
//!     : vector<4xf16>, vector<4xf16>, vector<16xf32>
//! ```
//!
//! The op, its attributes (`m`, `n`, `k`, `blocks`, `cbsz`, `abid`, `blgp`,
//! `reducePrecision`, `negateA/B/C`) and its syntax are upstream MLIR 22's.
//! Only what the backend translates is accepted: the f16 instructions
//! `v_mfma_f32_32x32x8f16` and `v_mfma_f32_16x16x16f16` ([`INSTRUCTIONS`]),
//! one block, no lane broadcasts (`cbsz = abid = 0`, `blgp = none`).
//!
//! Lane `l` of a 64-lane wavefront holds, for an `MxNxK` instruction with
//! `M = N = T` (T = 16 or 32) and `K = 256 / T`:
//! A's elements `(l % T, (l / T)·4 + i)` and B's `((l / T)·4 + i, l % T)`
//! for `i` in 0..4; C's and D's element `r` is at row
//! `8·(r / 4) + 4·(l / T) + r % 4`, column `l % T` (for T = 16, `r < 4`,
//! so the row is `4·(l / 16) + r`).
//!
//! Like `nvgpu.mma.sync`, `mfma` is collective: every lane of the wavefront
//! runs it together, so the interpreter, which runs one thread, has no
//! semantics for it.

use aic::Diagnostic;
use aic::asm::Directive;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::{I32_ATTR, int_attr};
use aic::dialect::{Dialect, OpSpec, Traits, TypeConstraint, ac};
use aic::float::FloatKind;
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;

/// Lanes of the wavefront an `mfma` spans.
pub const WAVEFRONT: i64 = 64;

/// One MFMA instruction that aic translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// Its shape: rows of A and D, columns of B and D, the reduced length.
    pub m: i64,
    /// Columns of B and D.
    pub n: i64,
    /// The reduced length.
    pub k: i64,
    /// f16 elements of A (and of B) each lane holds.
    pub ab: i64,
    /// f32 elements of C (and of D) each lane holds.
    pub cd: i64,
    /// The LLVM intrinsic.
    pub intrinsic: &'static str,
}

/// The f16 x f16 -> f32 instructions of gfx90a and gfx942.
pub const INSTRUCTIONS: &[Instruction] = &[
    Instruction {
        m: 32,
        n: 32,
        k: 8,
        ab: 4,
        cd: 16,
        intrinsic: "llvm.amdgcn.mfma.f32.32x32x8f16",
    },
    Instruction {
        m: 16,
        n: 16,
        k: 16,
        ab: 4,
        cd: 4,
        intrinsic: "llvm.amdgcn.mfma.f32.16x16x16f16",
    },
];

/// The instruction of shape `m x n x k`, if aic has it.
pub fn instruction(m: i64, n: i64, k: i64) -> Option<&'static Instruction> {
    INSTRUCTIONS.iter().find(|i| (i.m, i.n, i.k) == (m, n, k))
}

fn i32_type(u: &Uniquer) -> Type {
    u.int_type(32)
}

fn i32_attr(u: &Uniquer, v: i64) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: i32_type(u),
    })
}

aic::dialect_enum! {
    /// The permutation of B's lanes (upstream's `MFMAPermB`),
    /// `#amdgpu<mfma_perm_b none>`, in value order.
    pub enum PermB = "amdgpu<mfma_perm_b ", "MFMA permutation of B" {
        /// No permutation.
        None = "none",
        /// The first 32 lanes broadcast.
        BcastFirst32 = "bcast_first_32",
        /// The second 32 lanes broadcast.
        BcastSecond32 = "bcast_second_32",
        /// Lanes rotated 16 right.
        Rotate16Right = "rotate_16_right",
        /// The first 16 lanes broadcast.
        BcastFirst16 = "bcast_first_16",
        /// The second 16 lanes broadcast.
        BcastSecond16 = "bcast_second_16",
        /// The third 16 lanes broadcast.
        BcastThird16 = "bcast_third_16",
        /// The fourth 16 lanes broadcast.
        BcastFourth16 = "bcast_fourth_16",
    }
}

/// The attributes of `amdgpu` as values: its enum.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "amdgpu",
    parse_type: None,
    parse_attr: Some(|_, body| Ok(PermB::parse_attr(body))),
};

const MFMA_OPERAND: TypeConstraint = TypeConstraint {
    desc: "scalar or vector",
    check: |t, _| {
        matches!(
            t,
            TypeKind::Vector { .. } | TypeKind::Float(_) | TypeKind::Integer { .. }
        )
    },
    build: None,
};

/// `custom<MNKDimensionList>($m, $n, $k)`: `32x32x8`.
pub const MNK: Directive = Directive {
    name: "MNKDimensionList",
    parse: |p, s| {
        let at = p.pos();
        let m = p.parse_integer()?;
        // The lexer sees `x32x8` as one word, as in a vector type's shape.
        let rest = p.parse_bare_word();
        let dims: Option<Vec<i64>> = rest
            .strip_prefix('x')
            .and_then(|r| r.split('x').map(|d| d.parse().ok()).collect());
        let Some(&[n, k]) = dims.as_deref() else {
            return Err(p.error_at(at, "expected the shape MxNxK"));
        };
        let u = p.uniquer();
        for (i, v) in [m, n, k].into_iter().enumerate() {
            s.set_attr(i, i32_attr(&u, v));
        }
        Ok(())
    },
    print: |pr, s| {
        let dims: Vec<String> = (0..3)
            .map(|i| match s.attr(pr, i).map(|a| pr.ctx().attr_kind(a)) {
                Some(AttrKind::Integer { value, .. }) => value.to_string(),
                _ => "?".into(),
            })
            .collect();
        pr.out.push_str(&dims.join("x"));
    },
};

aic::op! {
    /// `amdgpu.mfma MxNxK %a * %b + %c {..} blgp = P : A, B, C`.
    pub Mfma = MFMA {
        operands: [
            source_a = "sourceA": one(MFMA_OPERAND),
            source_b = "sourceB": one(MFMA_OPERAND),
            dest_c = "destC": one(MFMA_OPERAND),
        ],
        results: [dest_d = "destD": one(MFMA_OPERAND)],
        attributes: [
            m: required(I32_ATTR),
            n: required(I32_ATTR),
            k: required(I32_ATTR),
            blocks: defaulted(I32_ATTR, |u| i32_attr(u, 1)),
            cbsz: defaulted(I32_ATTR, |u| i32_attr(u, 0)),
            abid: defaulted(I32_ATTR, |u| i32_attr(u, 0)),
            blgp: defaulted(PermB::CONSTRAINT, |u| PermB::None.attr(u)) as PermB,
            reduce_precision = "reducePrecision": optional(ac::UNIT),
            negate_a = "negateA": optional(ac::UNIT),
            negate_b = "negateB": optional(ac::UNIT),
            negate_c = "negateC": optional(ac::UNIT),
        ],
        spec: OpSpec {
            summary: "a wavefront's matrix fused multiply-add on CDNA matrix cores, each lane holding fragments",
            traits: Traits::PURE,
            format: Some(
                "custom<MNKDimensionList>($m, $n, $k) $sourceA `*` $sourceB `+` $destC attr-dict `blgp` `=` $blgp `:` type($sourceA) `,` type($sourceB) `,` type($destC)",
            ),
            directives: &[MNK],
            infer_results: Some(|_, ops, _| Some(vec![*ops.get(2)?])),
            verify: Some(verify),
            interpret: Some(interpret),
            ..OpSpec::new("amdgpu.mfma")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "amdgpu",
    description: "AMD wavefront-level fragments (mfma on CDNA matrix cores)",
    ops: &[MFMA],
    materialize_constant: None,
};

/// The `(m, n, k)` of an `mfma`.
pub fn shape(ctx: &Context, op: Op) -> (i64, i64, i64) {
    let g = |n| int_attr(ctx, op, n).unwrap_or(0);
    (g("m"), g("n"), g("k"))
}

/// The instruction an `mfma` runs (verified ops have one).
pub fn instruction_of(ctx: &Context, op: Op) -> Option<&'static Instruction> {
    let (m, n, k) = shape(ctx, op);
    instruction(m, n, k)
}

fn vector_of(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.type_kind(t) {
        TypeKind::Vector { shape, elem, .. } => Some((shape.to_vec(), *elem)),
        _ => None,
    }
}

fn verify(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    let (m, n, k) = shape(ctx, op);
    let Some(ins) = instruction(m, n, k) else {
        let have: Vec<String> = INSTRUCTIONS
            .iter()
            .map(|i| format!("{}x{}x{}", i.m, i.n, i.k))
            .collect();
        return Err(err(format!(
            "shape {m}x{n}x{k} is not supported: only {}",
            have.join(", ")
        )));
    };
    for (name, want) in [("blocks", 1), ("cbsz", 0), ("abid", 0)] {
        let got = int_attr(ctx, op, name).unwrap_or(want);
        if got != want {
            return Err(err(format!("{name} = {got} is not supported: only {want}")));
        }
    }
    let blgp = ctx
        .find_ident("blgp")
        .and_then(|i| ctx.inherent_attr(op, i))
        .and_then(|a| PermB::of(ctx, a));
    if let Some(w) = blgp
        && w != PermB::None
    {
        return Err(err(format!(
            "blgp = {} is not supported: only none",
            w.keyword()
        )));
    }
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let t: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let res = ctx.value_type(ctx.result(op, 0));
    let is = |t: Type, len: i64, f: FloatKind| {
        vector_of(ctx, t).is_some_and(|(s, e)| {
            s == [len] && matches!(ctx.type_kind(e), TypeKind::Float(x) if *x == f)
        })
    };
    if !is(t[0], ins.ab, FloatKind::F16)
        || !is(t[1], ins.ab, FloatKind::F16)
        || !is(t[2], ins.cd, FloatKind::F32)
        || t[2] != res
    {
        return Err(err(format!(
            "{m}x{n}x{k} expects vector<{ab}xf16>, vector<{ab}xf16>, vector<{cd}xf32> -> vector<{cd}xf32>, not {}, {}, {} -> {}",
            text(t[0]),
            text(t[1]),
            text(t[2]),
            text(res),
            ab = ins.ab,
            cd = ins.cd,
        )));
    }
    Ok(())
}

fn interpret(_: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    Err(InterpError::at(
        op,
        "amdgpu.mfma is wavefront-collective and the interpreter runs one thread: compile for amdgpu or host",
    ))
}
