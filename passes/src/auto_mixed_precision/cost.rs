//! The cost model of `auto-mixed-precision`: every op is its own kernel,
//! as in `eqsat-fusion`'s model (launch, HBM bytes at each element type's
//! width, arithmetic), but arithmetic runs at the peak of its precision
//! (matrix units for contractions, vector units for the rest), and a cast
//! costs only the bytes it reads and writes: it fuses into a neighbouring
//! kernel's prologue or epilogue, so it launches nothing of its own.

use crate::eqsat_fusion::cost::{TARGETS, Target, VIEW_S, op_flops, type_bytes};
use crate::eqsat_fusion::fuse::is_index_only;
use aic::eqsat::{Graph, INPUT, Node};
use aic::float::FloatKind;
use aic::types::{Type, TypeKind};
use aic_dialects::graph::{self, Class};

/// A target's arithmetic peaks by precision, operations per second.
#[derive(Clone, Copy, Debug)]
pub struct Peaks {
    /// The `eqsat-fusion` target these figures go with (bandwidth, launch).
    pub target: &'static str,
    /// f32 matrix products (what aic's f32 GEMMs run on).
    pub f32_matrix: f64,
    /// f16 and bf16 matrix products on the matrix units, f32 accumulation.
    pub reduced_matrix: f64,
    /// f32 elementwise arithmetic.
    pub f32_vector: f64,
    /// f16 and bf16 elementwise arithmetic (packed pairs where the target
    /// has them).
    pub reduced_vector: f64,
}

/// Vendor figures (dense): H100 SXM (67 TFLOP/s f32 on the CUDA cores, 989
/// f16/bf16 on the tensor cores, 134 f16x2), MI300X (163.4 f32 matrix, 1307
/// f16/bf16 matrix), Trainium 1 (47.5 f32, 190 bf16/f16), Trainium 2 (181
/// f32, 667 bf16/f16), and a CPU that gains nothing from narrower floats but
/// their bytes.
pub const PEAKS: &[Peaks] = &[
    Peaks {
        target: "h100",
        f32_matrix: 67e12,
        reduced_matrix: 989e12,
        f32_vector: 67e12,
        reduced_vector: 134e12,
    },
    Peaks {
        target: "mi300",
        f32_matrix: 163.4e12,
        reduced_matrix: 1307e12,
        f32_vector: 81.7e12,
        reduced_vector: 163.4e12,
    },
    Peaks {
        target: "trn1",
        f32_matrix: 47.5e12,
        reduced_matrix: 190e12,
        f32_vector: 47.5e12,
        reduced_vector: 47.5e12,
    },
    Peaks {
        target: "trn2",
        f32_matrix: 181e12,
        reduced_matrix: 667e12,
        f32_vector: 181e12,
        reduced_vector: 181e12,
    },
    Peaks {
        target: "cpu",
        f32_matrix: 2e12,
        reduced_matrix: 2e12,
        f32_vector: 2e12,
        reduced_vector: 2e12,
    },
];

/// The model for one target.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    /// Bandwidth and launch.
    pub target: Target,
    /// Arithmetic peaks.
    pub peaks: Peaks,
}

impl Model {
    /// The model of the target named `name` (h100 where unknown).
    pub fn of(name: &str) -> Model {
        let target = TARGETS
            .iter()
            .copied()
            .find(|t| t.name == name)
            .unwrap_or(TARGETS[0]);
        let peaks = PEAKS
            .iter()
            .copied()
            .find(|p| p.target == target.name)
            .unwrap_or(PEAKS[0]);
        Model { target, peaks }
    }

    /// The peak at which `op` computes with results of element type `elem`.
    fn peak(&self, u: &aic::Uniquer, op: &str, out: Type) -> f64 {
        let matrix = graph::semantics(op).is_some_and(|s| s.class == Class::Contraction);
        let reduced = matches!(
            u.type_kind(element(u, out)),
            TypeKind::Float(FloatKind::F16 | FloatKind::BF16)
        );
        match (matrix, reduced) {
            (true, true) => self.peaks.reduced_matrix,
            (true, false) => self.peaks.f32_matrix,
            (false, true) => self.peaks.reduced_vector,
            (false, false) => self.peaks.f32_vector,
        }
    }

    /// The modelled seconds of `op` on operands of types `kids` with a
    /// result of type `out`: a cast its bytes, a view next to nothing,
    /// anything else a kernel.
    pub fn op_time(&self, u: &aic::Uniquer, op: &str, kids: &[Type], out: Type) -> f64 {
        if op == INPUT {
            return 0.0;
        }
        let moved: f64 = kids.iter().map(|t| type_bytes(u, *t)).sum::<f64>() + type_bytes(u, out);
        if op == graph::CAST.name {
            return moved / self.target.bytes_per_s + 1e-15;
        }
        if is_index_only(op) {
            return VIEW_S;
        }
        self.target.launch_s
            + moved / self.target.bytes_per_s
            + op_flops(u, op, kids, Some(out)) / self.peak(u, op, out)
            + 1e-15
    }

    /// The modelled seconds of an e-node (its operand classes' types and its
    /// own type, which every node of this pass's e-graphs carries).
    pub fn node_time(&self, g: &Graph, n: &Node) -> f64 {
        if n.op.as_str() == INPUT {
            return 0.0;
        }
        let kids: Vec<Type> = n.children.iter().filter_map(|c| g[*c].data).collect();
        let Some(out) = n.ty else {
            return f64::INFINITY;
        };
        self.op_time(&g.analysis.uniquer, n.op.as_str(), &kids, out)
    }
}

/// The element type of a tensor type (the type itself otherwise).
pub fn element(u: &aic::Uniquer, t: Type) -> Type {
    match u.type_kind(t) {
        TypeKind::Tensor { elem, .. } => *elem,
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor(u: &aic::Uniquer, shape: &[i64], k: FloatKind) -> Type {
        u.ty(TypeKind::Tensor {
            shape: shape.iter().copied().collect(),
            elem: u.ty(TypeKind::Float(k)),
            encoding: None,
        })
    }

    /// A GEMM is faster in f16 (tensor cores, half the bytes); a cast costs
    /// its bytes and no launch; every target has peaks.
    #[test]
    fn reduced_gemms_are_cheaper_and_casts_cost_bytes() {
        let u = aic::Uniquer::default();
        let m = Model::of("h100");
        let (a32, w32, o32) = (
            tensor(&u, &[512, 768], FloatKind::F32),
            tensor(&u, &[768, 768], FloatKind::F32),
            tensor(&u, &[512, 768], FloatKind::F32),
        );
        let (a16, w16, o16) = (
            tensor(&u, &[512, 768], FloatKind::F16),
            tensor(&u, &[768, 768], FloatKind::F16),
            tensor(&u, &[512, 768], FloatKind::F16),
        );
        let f32_time = m.op_time(&u, graph::MATMUL.name, &[a32, w32], o32);
        let f16_time = m.op_time(&u, graph::MATMUL.name, &[a16, w16], o16);
        assert!(f16_time * 2.0 < f32_time, "{f16_time} vs {f32_time}");
        let cast = m.op_time(&u, graph::CAST.name, &[a32], a16);
        let bytes = 512.0 * 768.0 * 6.0;
        assert!(
            (cast - bytes / m.target.bytes_per_s).abs() < 1e-12,
            "{cast}"
        );
        let add32 = m.op_time(&u, graph::ADD.name, &[o32, o32], o32);
        assert!(add32 > m.target.launch_s);
        for t in TARGETS {
            assert!(PEAKS.iter().any(|p| p.target == t.name), "{}", t.name);
        }
    }
}
