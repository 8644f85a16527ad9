//! What a fused kernel can hold, shared by the pass that forms fusion groups
//! (`eqsat-fusion`'s on-chip estimate) and the generators that lower them
//! (`fusion-to-tile`), so the search never forms a group its generator
//! would have to run badly or decline.

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

#[cfg(test)]
mod tests {
    use super::*;

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
