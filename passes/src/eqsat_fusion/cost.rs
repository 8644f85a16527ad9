//! The target cost model: an op that runs as its own kernel costs a launch,
//! the time to read its operands from and write its result to HBM, and its
//! arithmetic at the target's peak; the modelled time of a program is the sum
//! over its kernels.

use aic::eqsat::{Graph, INPUT, Node};
use aic::types::{Type, TypeKind};
use aic_dialects::graph::{self, Class};

/// A target's figures.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Name as given to the pass's `target` option.
    pub name: &'static str,
    /// HBM (or DRAM) bandwidth, bytes per second.
    pub bytes_per_s: f64,
    /// Peak arithmetic of its matrix units (contractions), operations per
    /// second.
    pub flops_per_s: f64,
    /// Peak of its vector lanes, where every other op runs: about one
    /// instruction an element per op (the cost model's count), so the FMA
    /// rate (on the H100, 67 TFLOP/s of f32 non-tensor FMAs: 33.5e12 a
    /// second). A prologue recomputed by every block column of a GEMM costs
    /// this, not the tensor cores' rate (an int8 GEMM's per-row quantisation
    /// of A, 6 ops an element recomputed 32 times, took 0.5 ms as its
    /// prologue against 25 us as a kernel of its own).
    pub vector_ops_per_s: f64,
    /// Launch overhead of one kernel, seconds.
    pub launch_s: f64,
    /// On-chip memory a fused kernel may hold (shared memory / SBUF), bytes.
    pub on_chip_bytes: f64,
    /// The output elements from which a GEMM fills the device on its own
    /// and is not joined with its siblings (horizontal fusion): the joint
    /// kernel holds several accumulators, so it gets neither the large
    /// tiles nor the single-GEMM pipelines of the matrix units, and saves
    /// only a launch and a re-read of the shared operand. On the H100, 132
    /// SMs of 128 x 128 blocks: aic-tune measured BERT's Q/K/V as one joint
    /// kernel at 85.6 us against 21.4 us for each GEMM alone, GPT-2's at
    /// 215 against 50.0 (bench/models/results/h100-2026-11-26-aic-tune-f16.txt).
    /// Infinite (always join) where nothing was measured.
    pub gemm_alone_elems: f64,
    /// Whether its GEMMs take a 2:4-sparse weight compressed
    /// (`graph.sparse_matmul` kept, `tile.sparse_gemm` in the kernel: NVIDIA's
    /// `mma.sp`, and the host); elsewhere the product is expanded to a dense
    /// one first.
    pub sparse_gemm: bool,
    /// Whether its f16/bf16 and fp8 matrix products run on warpgroup MMA
    /// (Hopper's wgmma), which pipelines plain loads only
    /// ([`crate::legality::prologue_fits`]).
    pub wgmma: bool,
}

impl Target {
    /// Operations a second `op` runs at: the matrix units' rate for a
    /// contraction, the vector lanes' for anything else.
    pub fn rate(&self, op: &str) -> f64 {
        if graph::semantics(op).is_some_and(|s| s.class == Class::Contraction) {
            self.flops_per_s
        } else {
            self.vector_ops_per_s
        }
    }
}

/// The targets of the `target` option (vendor peak figures: dense bf16/fp16
/// tensor throughput, HBM bandwidth).
pub const TARGETS: &[Target] = &[
    Target {
        name: "h100",
        bytes_per_s: 3.35e12,
        flops_per_s: 989e12,
        vector_ops_per_s: 33.5e12,
        launch_s: 3e-6,
        on_chip_bytes: 228.0 * 1024.0,
        gemm_alone_elems: 132.0 * 128.0 * 128.0,
        wgmma: true,
        sparse_gemm: true,
    },
    Target {
        name: "mi300",
        bytes_per_s: 5.3e12,
        flops_per_s: 1307e12,
        vector_ops_per_s: 81.7e12,
        launch_s: 4e-6,
        on_chip_bytes: 64.0 * 1024.0,
        gemm_alone_elems: f64::INFINITY,
        wgmma: false,
        sparse_gemm: false,
    },
    Target {
        name: "trn1",
        bytes_per_s: 0.82e12,
        flops_per_s: 190e12,
        vector_ops_per_s: 190e12,
        launch_s: 10e-6,
        on_chip_bytes: 24.0 * 1024.0 * 1024.0,
        gemm_alone_elems: f64::INFINITY,
        wgmma: false,
        sparse_gemm: false,
    },
    Target {
        name: "trn2",
        bytes_per_s: 2.9e12,
        flops_per_s: 667e12,
        vector_ops_per_s: 667e12,
        launch_s: 10e-6,
        on_chip_bytes: 28.0 * 1024.0 * 1024.0,
        gemm_alone_elems: f64::INFINITY,
        wgmma: false,
        sparse_gemm: false,
    },
    Target {
        name: "cpu",
        bytes_per_s: 100e9,
        flops_per_s: 2e12,
        vector_ops_per_s: 2e12,
        launch_s: 0.0,
        on_chip_bytes: 32.0 * 1024.0 * 1024.0,
        gemm_alone_elems: f64::INFINITY,
        wgmma: false,
        sparse_gemm: true,
    },
];

/// Bytes of a tensor type (dynamic dimensions count as 1).
pub fn bytes(egraph: &Graph, t: Type) -> f64 {
    type_bytes(&egraph.analysis.uniquer, t)
}

/// Bytes of a tensor type, from where types live.
pub fn type_bytes(u: &aic::Uniquer, t: Type) -> f64 {
    let (n, e) = match u.type_kind(t) {
        TypeKind::Tensor { shape, elem, .. } => (
            shape.iter().map(|d| (*d).max(1) as f64).product::<f64>(),
            *elem,
        ),
        _ => (1.0, t),
    };
    let w = match u.type_kind(e) {
        TypeKind::Float(k) => f64::from(k.bit_width()) / 8.0,
        TypeKind::Integer { width, .. } => f64::from(*width).max(8.0) / 8.0,
        _ => 4.0,
    };
    n * w
}

/// Arithmetic of an op: `2·M·N·K` for matrix products, `2·|out|·|kernel|/O`
/// for convolutions, the output size (times 8 for transcendental ops) for the
/// rest.
fn flops(egraph: &Graph, op: &str, kids: &[Type], out: Option<Type>) -> f64 {
    op_flops(&egraph.analysis.uniquer, op, kids, out)
}

/// Arithmetic of an op, from where types live (see [`flops`]).
pub fn op_flops(u: &aic::Uniquer, op: &str, kids: &[Type], out: Option<Type>) -> f64 {
    let shape = |t: Option<Type>| -> Vec<f64> {
        t.and_then(|t| {
            u.type_kind(t)
                .shape()
                .map(|s| s.iter().map(|d| (*d).max(1) as f64).collect())
        })
        .unwrap_or_default()
    };
    let n_out: f64 = shape(out).iter().product();
    let Some(sem) = graph::semantics(op) else {
        return n_out;
    };
    if sem.spec.name == graph::CONV2D.name {
        let w = shape(kids.get(1).copied());
        return 2.0 * n_out * w.iter().product::<f64>() / w.iter().copied().fold(1.0, f64::max);
    }
    match sem.class {
        // Matmuls: K is the dimension the operands share; the smaller of the
        // candidates keeps transposed forms honest enough.
        Class::Contraction => {
            let (a, b) = (shape(kids.first().copied()), shape(kids.get(1).copied()));
            let k = a.last().copied().unwrap_or(1.0).min(
                b.get(b.len().saturating_sub(2))
                    .copied()
                    .unwrap_or(1.0)
                    .max(b.last().copied().unwrap_or(1.0)),
            );
            2.0 * n_out * k
        }
        _ if sem.transcendental => 8.0 * n_out,
        // Views are addressing, not arithmetic.
        Class::View => 0.0,
        _ => n_out,
    }
}

/// The columns (rows) of a GEMM's output one block computes: a prologue on
/// its A (B) operand is recomputed once per block column (row).
const PROLOGUE_BLOCK: f64 = 128.0;

/// How many times a kernel computes each op of `body`: once, but for the
/// elementwise ops a GEMM reads as an operand (its prologue), which every
/// block along the other dim of the output computes again (a GeLU before a
/// GEMM of N = 768 runs six times over; as the producing GEMM's epilogue it
/// runs once, so the model prefers that).
pub fn prologue_repeats(u: &aic::Uniquer, body: &super::fuse::Body) -> Vec<f64> {
    use super::fuse::{Role, role};
    let mut repeats = vec![1.0; body.ops.len()];
    let dims = |t: Type| -> Vec<f64> {
        u.type_kind(t)
            .shape()
            .map(|s| s.iter().map(|d| (*d).max(1) as f64).collect())
            .unwrap_or_default()
    };
    for o in body
        .ops
        .iter()
        .filter(|o| role(o.op.as_str()) == Role::Gemm)
    {
        let out = dims(o.ty);
        let (m, n) = match out[..] {
            [.., m, n] => (m, n),
            _ => continue,
        };
        for (side, times) in [
            (0, (n / PROLOGUE_BLOCK).ceil()),
            (1, (m / PROLOGUE_BLOCK).ceil()),
        ] {
            let mut stack: Vec<i64> = o.args.get(side).copied().into_iter().collect();
            while let Some(a) = stack.pop() {
                let Ok(i) = usize::try_from(a) else { continue };
                let Some(p) = body.ops.get(i) else { continue };
                if role(p.op.as_str()) != Role::Elementwise || repeats[i] >= times {
                    continue;
                }
                repeats[i] = times;
                stack.extend(p.args.iter().copied());
            }
        }
    }
    repeats
}

/// For each op of `body`, whether its value is computed from the kernel's
/// inputs by elementwise ops (a prologue: `Some(true)`), or read from them
/// through views only (`Some(false)`); `None` where it depends on a
/// contraction or reduction of the body (a GEMM chain's, an attention's
/// operand), which its own template reads. One pass in body order (ops
/// follow their operands), so shared values are visited once.
fn computed_values(body: &super::fuse::Body) -> Vec<Option<bool>> {
    let mut out: Vec<Option<bool>> = Vec::with_capacity(body.ops.len());
    for o in &body.ops {
        let op = o.op.as_str();
        let own = match graph::semantics(op).map(|s| s.class) {
            Some(Class::Constant) => Some(false),
            // A concatenation or a padding view is a sum or a masked read,
            // not a load the copy ring takes.
            Some(Class::View | Class::Partition) => {
                Some(op == graph::CONCAT.name || op == graph::PAD.name)
            }
            Some(Class::Elementwise) => Some(true),
            _ => None,
        };
        let v = own.and_then(|own| {
            o.args.iter().try_fold(own, |any, &k| {
                let arg = match usize::try_from(k) {
                    Ok(j) => *out.get(j)?,
                    Err(_) => Some(false),
                };
                Some(any | arg?)
            })
        });
        out.push(v);
    }
    out
}

/// Whether every GEMM of `body` takes the prologues its operands have as
/// the GEMM generator runs them well ([`crate::legality::prologue_fits`]):
/// where `target`'s GEMMs fill a copy ring (warpgroup MMA, convolutions), a
/// computed operand of a long K loop would route it through registers and
/// unpipeline the loop, so the prologue is better computed elsewhere. `arg`
/// gives a body value's type.
fn prologues_fit(
    u: &aic::Uniquer,
    target: &Target,
    body: &super::fuse::Body,
    arg: &dyn Fn(i64) -> Option<Type>,
) -> bool {
    use crate::legality::{Side, prologue_fits};
    let elem = |t: Option<Type>| -> Option<aic::float::FloatKind> {
        let e = u.type_kind(t?).element_type()?;
        match u.type_kind(e) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        }
    };
    // Each GEMM's operands, output rows, K loop and whether it fills a ring.
    let mut gemms: Vec<(i64, i64, i64, i64, bool)> = Vec::new();
    for o in &body.ops {
        let op = o.op.as_str();
        if super::fuse::role(op) != super::fuse::Role::Gemm || o.args.len() < 2 {
            continue;
        }
        let out: Vec<i64> = u
            .type_kind(o.ty)
            .shape()
            .map(|s| s.iter().map(|d| (*d).max(1)).collect())
            .unwrap_or_default();
        let Some((_, lead)) = out.split_last() else {
            continue;
        };
        let rows: i64 = lead.iter().product();
        let kids: Vec<Type> = o.args.iter().filter_map(|a| arg(*a)).collect();
        let n_out: f64 = out.iter().map(|d| *d as f64).product();
        let k = (op_flops(u, op, &kids, Some(o.ty)) / (2.0 * n_out)).round() as i64;
        use aic::float::FloatKind as F;
        let ring = crate::legality::fills_ring(
            target.wgmma,
            op == graph::CONV2D.name,
            matches!(elem(Some(o.ty)), Some(F::F16 | F::BF16)),
            matches!(elem(arg(o.args[0])), Some(F::F8E4M3FN | F::F8E5M2)),
        );
        gemms.push((o.args[0], o.args[1], rows, k, ring));
    }
    let values = computed_values(body);
    let computed =
        |a: i64| usize::try_from(a).map_or(Some(false), |i| values.get(i).copied().flatten());
    gemms.iter().enumerate().all(|(i, &(a, b, rows, k, ring))| {
        // A GEMM that a later one of the kernel reads (attention's Q K^T,
        // a GEMM chain's first) streams its B along the later one's K loop
        // (attention's keys): a RoPE computed on K inside attention would
        // unpipeline the key loop (and, staged as parts, overflow shared
        // memory: a Llama block after auto-mixed-precision asked 240128
        // bytes of 232448).
        let b_loop = gemms[i + 1..].iter().map(|g| g.3).fold(k, i64::max);
        (computed(a) != Some(true) || prologue_fits(Side::A, rows, k, ring))
            && (computed(b) != Some(true) || prologue_fits(Side::B, rows, b_loop, ring))
    })
}

/// Modelled seconds, for egg's extraction: every op is its own kernel.
pub struct KernelTime<'a> {
    /// The e-graph (for the classes' types).
    pub egraph: &'a Graph,
    /// The target.
    pub target: Target,
    /// Node times already computed (a node's time depends only on the node:
    /// its operand classes' types never change).
    pub cache: &'a Cache,
}

/// The modelled time of an index-only op between kernels (a transpose,
/// reshape, broadcast, slice or concat of another kernel's result): none
/// beyond a tie-breaking epsilon, as the kernels reading it fold it into
/// their accessors (memory fusion) instead of running it.
pub const VIEW_S: f64 = 1e-12;

/// Memo tables shared by the cost model and fusion growth across rounds.
#[derive(Default)]
pub struct Cache {
    /// Modelled time of each node.
    pub times: std::cell::RefCell<std::collections::HashMap<Node, f64>>,
    /// Decoded fused bodies by their attribute.
    pub bodies:
        std::cell::RefCell<std::collections::HashMap<aic::Attr, std::rc::Rc<super::fuse::Body>>>,
}

impl Cache {
    /// The body of a fused node's attribute, decoded once.
    pub fn body(&self, u: &aic::Uniquer, a: aic::Attr) -> Option<std::rc::Rc<super::fuse::Body>> {
        if let Some(b) = self.bodies.borrow().get(&a) {
            return Some(b.clone());
        }
        let b = std::rc::Rc::new(super::fuse::Body::from_attr(u, a)?);
        self.bodies.borrow_mut().insert(a, b.clone());
        Some(b)
    }
}

/// The modelled time of one op as its own kernel on `target`, from where
/// types live (what [`KernelTime::op_time`] computes without an e-graph).
pub fn standalone_time(
    u: &aic::Uniquer,
    target: &Target,
    op: &str,
    kids: &[Type],
    out: Option<Type>,
) -> f64 {
    let moved: f64 =
        kids.iter().map(|t| type_bytes(u, *t)).sum::<f64>() + out.map_or(0.0, |t| type_bytes(u, t));
    target.launch_s + moved / target.bytes_per_s + op_flops(u, op, kids, out) / target.rate(op)
}

impl KernelTime<'_> {
    /// The modelled time of one op as its own kernel: launch, reading its
    /// operands and writing its result at HBM bandwidth, and its arithmetic.
    pub fn op_time(&self, op: &str, kids: &[Type], out: Option<Type>) -> f64 {
        if op == INPUT {
            return 0.0;
        }
        let u = &self.egraph.analysis.uniquer;
        // A tiny positive floor keeps costs strictly increasing up the tree.
        standalone_time(u, &self.target, op, kids, out) + 1e-15
    }

    /// The modelled time of an e-node (its operand classes' types; its own
    /// type inferred where it can be). A fused node is one kernel: it reads
    /// its external inputs, writes its result, and does all its body's work.
    pub fn node_time(&self, node: &Node) -> f64 {
        if let Some(t) = self.cache.times.borrow().get(node) {
            return *t;
        }
        let t = self.compute_node_time(node);
        self.cache.times.borrow_mut().insert(node.clone(), t);
        t
    }

    fn compute_node_time(&self, node: &Node) -> f64 {
        let g = self.egraph;
        let kids: Vec<Type> = node.children.iter().filter_map(|c| g[*c].data).collect();
        if node.op.as_str() == super::fuse::GROUP {
            let Some(body) = node
                .attrs
                .and_then(|a| self.cache.body(&g.analysis.uniquer, a))
            else {
                return f64::INFINITY;
            };
            return self.kernel_time(&body, &kids);
        }
        if super::fuse::is_index_only(node.op.as_str()) {
            return VIEW_S;
        }
        // The node's own type where it came from the IR: a cast's or a
        // widened product's (i8 x i8 -> i32, e4m3 x e4m3 -> f32) does not
        // follow from its operands, and without it the op would be priced as
        // writing nothing (an fp8 GEMM at a tenth of its time, so extraction
        // kept its dequantising epilogue apart).
        let out = node.ty.or_else(|| {
            (g.analysis.infer)(&g.analysis.uniquer, node.op.as_str(), node.attrs, &kids)
        });
        self.op_time(node.op.as_str(), &kids, out)
    }

    /// Bytes a kernel moves to and from HBM: its operands and its result.
    pub fn traffic(&self, inputs: &[Type], out: Option<Type>) -> f64 {
        let g = self.egraph;
        inputs.iter().map(|t| bytes(g, *t)).sum::<f64>() + out.map_or(0.0, |t| bytes(g, t))
    }

    /// The modelled time of a node of an extracted term whose operands have
    /// types `kids`.
    pub fn node_time_of(&self, node: &Node, kids: &[Type]) -> f64 {
        node.attrs
            .and_then(|a| self.cache.body(&self.egraph.analysis.uniquer, a))
            .map_or(f64::INFINITY, |b| self.kernel_time(&b, kids))
    }

    /// The modelled time of a fused kernel over inputs of types `inputs`.
    pub fn kernel_time(&self, body: &super::fuse::Body, inputs: &[Type]) -> f64 {
        let g = self.egraph;
        let t = &self.target;
        let arg = |a: i64| -> Option<Type> {
            if a < 0 {
                inputs.get((-1 - a) as usize).copied()
            } else {
                body.ops.get(a as usize).map(|o| o.ty)
            }
        };
        let repeats = prologue_repeats(&g.analysis.uniquer, body);
        // Seconds of arithmetic, each op at its units' rate.
        let work: f64 = body
            .ops
            .iter()
            .zip(&repeats)
            .map(|(o, r)| {
                let kids: Vec<Type> = o.args.iter().filter_map(|a| arg(*a)).collect();
                r * flops(g, o.op.as_str(), &kids, Some(o.ty)) / t.rate(o.op.as_str())
            })
            .sum();
        // An input the kernel only slices is read only where sliced.
        let read: f64 = inputs
            .iter()
            .enumerate()
            .map(|(k, ty)| {
                let full = bytes(g, *ty);
                let k = -1 - k as i64;
                let users: Vec<&super::fuse::BodyOp> =
                    body.ops.iter().filter(|o| o.args.contains(&k)).collect();
                if !users.is_empty() && users.iter().all(|o| o.op.as_str() == graph::SLICE.name) {
                    users.iter().map(|o| bytes(g, o.ty)).sum::<f64>().min(full)
                } else {
                    full
                }
            })
            .sum();
        // A body that does not fit on chip, or whose GEMM would lose its
        // pipeline to a prologue, is a step of the search, never a kernel.
        if body.on_chip_bytes(&g.analysis.uniquer) > t.on_chip_bytes
            || !prologues_fit(&g.analysis.uniquer, t, body, &arg)
        {
            return f64::INFINITY;
        }
        let moved = read + body.ops.last().map_or(0.0, |o| bytes(g, o.ty));
        t.launch_s + moved / t.bytes_per_s + work + 1e-15
    }
}
