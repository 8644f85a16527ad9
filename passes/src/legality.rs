//! What a fused kernel can hold, shared by the pass that forms fusion groups
//! (`eqsat-fusion`'s on-chip estimate) and the generators that lower them
//! (`fusion-to-tile`), so the search never forms a group its generator
//! would have to run badly or decline.

/// The shared memory one Hopper (sm_90) block may have, 227 KiB: what
/// aic-tune's candidates and a persistent kernel's staged epilogue must fit
/// (the backend checks every kernel against its own target's limit).
pub const HOPPER_SHARED: i64 = 232_448;

/// The rows of a GEMM's output one thread block owns when it must hold
/// whole rows (GEMM + layernorm, a GEMM chain).
pub const ROW_BLOCK: i64 = 64;

/// The fp32 accumulator elements a thread block keeps in registers: 128
/// per lane over 4 warps, the most tensor-core fragments hold without
/// spilling (tile-to-gpu's mma warp grids allow 128 slots a lane).
pub const ACC_ELEMS: i64 = 128 * 128;

/// Whether a block can hold [`ROW_BLOCK`] whole rows of `n` fp32
/// accumulators in registers, as a GEMM whose rows a normalisation or a
/// second GEMM reads needs: 256 columns and fewer. Wider rows (BERT's 768,
/// GPT-2's 1024) run as a GEMM with an elementwise epilogue and a separate
/// rows kernel, as XLA and Inductor do; the accumulator would spill.
pub fn whole_rows_fit(n: i64) -> bool {
    ROW_BLOCK * n <= ACC_ELEMS
}

/// Whether a kernel of `gemms` GEMMs, `sparse` of them 2:4-sparse products
/// (`graph.sparse_matmul`), is one the GEMM generator takes: a sparse
/// product anchors a kernel of its own (with a prologue on A and an
/// epilogue), never beside or before another GEMM (no horizontal siblings,
/// GEMM chains or attention around it).
pub fn sparse_gemms_fit(gemms: usize, sparse: usize) -> bool {
    sparse == 0 || gemms <= 1
}

/// The most output rows (batch included) of a GEMM that streams B and
/// little else: a prologue on its A keeps the K loop from pipelining and
/// costs more than a kernel of its own for the tiny A (SD's time embedding,
/// silu(2x1280) @ 1280x320: 25.7 us at best with its prologue).
pub const FEW_ROWS: i64 = 8;

/// The shortest K loop whose pipelining a prologue's loss costs more than a
/// kernel of the prologue's own.
pub const LONG_K: i64 = 512;

/// A GEMM operand: the left (A, rows) or the right (B, columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The left operand, `M x K`.
    A,
    /// The right operand, `K x N`.
    B,
}

/// Whether a GEMM's K loop fills shared memory through a copy ring, on a
/// target with warpgroup MMA (`wgmma`): a convolution's implicit GEMM, or a
/// product with an f16/bf16 result (`half_result`) or fp8 operands
/// (`fp8_operands`), which run on warpgroup MMA.
pub fn fills_ring(wgmma: bool, conv: bool, half_result: bool, fp8_operands: bool) -> bool {
    wgmma && (conv || half_result || fp8_operands)
}

/// Whether a GEMM of `rows` output rows (batch included) and a K loop of
/// `k` runs well with an elementwise prologue (a cast, a scale, a
/// dequantisation, a ReLU: anything but a plain load through views)
/// computing its `side` operand, `ring` telling whether its K loop fills
/// shared memory through a copy ring (warpgroup-MMA GEMMs, and
/// convolutions' implicit GEMMs on tensor cores). A ring takes plain loads
/// only (cp.async or TMA), so a computed operand goes through registers and
/// the K loop does not pipeline: a GPT block's 2048x4096x4096 bf16
/// projections ran at 62 TFLOP/s with a norm's scale on A, an f32 BERT
/// layer after `auto-mixed-precision` (casts of the f32 weights on B) at a
/// quarter of the f16 layer's speed, and ResNet's 3x3 convolution with the
/// ReLU of its input as a prologue in 140 us against 27.5 with the ReLU in
/// its producer's epilogue. Where it does not fit, the prologue is computed
/// elsewhere (a producer's epilogue, or a kernel of its own writing its
/// result once in the GEMM's element type) and the GEMM pipelines; a short
/// K loop has little to pipeline, and a GEMM of [`FEW_ROWS`] rows streams B
/// at HBM speed either way.
pub fn prologue_fits(side: Side, rows: i64, k: i64, ring: bool) -> bool {
    if k < LONG_K {
        return true;
    }
    match side {
        Side::A => rows > FEW_ROWS && !ring,
        Side::B => rows <= FEW_ROWS || !ring,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_are_warpgroup_products_and_convolutions() {
        assert!(fills_ring(true, true, false, false));
        assert!(fills_ring(true, false, true, false));
        assert!(fills_ring(true, false, false, true));
        assert!(!fills_ring(true, false, false, false));
        assert!(!fills_ring(false, true, true, true));
    }

    #[test]
    fn prologues_fit_short_k_loops_only_on_copy_rings() {
        // Short K loops take any prologue.
        assert!(prologue_fits(Side::A, 4096, 256, true));
        assert!(prologue_fits(Side::B, 4096, 256, true));
        // A long K loop on a copy ring takes none on many rows...
        assert!(!prologue_fits(Side::A, 4096, 768, true));
        assert!(!prologue_fits(Side::B, 4096, 768, true));
        // ... but a dequantised B on a few rows streams either way.
        assert!(prologue_fits(Side::B, 8, 4096, true));
        assert!(!prologue_fits(Side::A, 8, 4096, true));
        // Without a ring a few rows decline A's prologue.
        assert!(prologue_fits(Side::A, 4096, 4096, false));
        assert!(!prologue_fits(Side::A, 8, 4096, false));
        assert!(prologue_fits(Side::B, 4096, 4096, false));
    }

    #[test]
    fn rows_up_to_256_wide_fit() {
        assert!(whole_rows_fit(64));
        assert!(whole_rows_fit(256));
        assert!(!whole_rows_fit(257));
        assert!(!whole_rows_fit(768));
    }

    #[test]
    fn a_sparse_product_fuses_alone() {
        assert!(sparse_gemms_fit(1, 1));
        assert!(sparse_gemms_fit(2, 0));
        assert!(!sparse_gemms_fit(2, 1));
    }
}
