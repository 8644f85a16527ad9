//! Tile sizes and pipelining: per-target heuristics, and the JSON tuning
//! cache an autotuner fills.

use crate::legality::HOPPER_SHARED;
use aic_dialects::tile::CopyKind;

/// Tunings by key (`target/arch/signature`, see [`Signature`]; older caches'
/// `target/template/shape` keys are still read), from a JSON tuning cache.
pub type Cache = std::collections::HashMap<String, Entry>;

/// One entry of a tuning cache: the tile sizes, and what the autotuner
/// measured when it chose them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The choice.
    pub tuning: Tuning,
    /// The kernel's time with it, in microseconds (the tuner's median).
    pub us: Option<f64>,
    /// The kernel's time with the built-in heuristic's choice.
    pub heuristic_us: Option<f64>,
    /// How many candidates the tuner measured.
    pub tried: Option<i64>,
}

impl From<Tuning> for Entry {
    fn from(tuning: Tuning) -> Entry {
        Entry {
            tuning,
            us: None,
            heuristic_us: None,
            tried: None,
        }
    }
}

/// Read a tuning cache: a JSON object from keys such as
/// `h100/sm_90a/gemm/1x4096x768x768/f16` to objects with integer `bm`, `bn`,
/// `bk`, and optionally `stages` and `threads`, and what the autotuner
/// measured (`us`, `heuristic_us`, `tried`). Errors name the entry and say
/// what is wrong with it.
pub fn read_cache(text: &str) -> Result<Cache, String> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a JSON tuning cache: {e}"))?;
    let serde_json::Value::Object(entries) = doc else {
        return Err("not a tuning cache: expected a JSON object of entries".into());
    };
    let mut out = Cache::new();
    for (key, v) in entries {
        let bad = |why: String| format!("entry '{key}': {why}");
        if !is_key(&key) {
            return Err(bad(
                "not a tuning key (target/arch/template/shape/elements, or target/template/shape)"
                    .into(),
            ));
        }
        let serde_json::Value::Object(fields) = v else {
            return Err(bad("expected an object of tile sizes".into()));
        };
        let (mut bm, mut bn, mut bk, mut stages, mut threads) = (None, None, None, 1, 0);
        let (mut copy, mut persistent, mut group, mut split, mut consumers) = (None, 0, 0, 0, 0);
        let mut e = Entry::from(Tuning {
            bm: 0,
            bn: 0,
            bk: 0,
            stages: 1,
            threads: 0,
            ..Tuning::default()
        });
        for (f, v) in &fields {
            let int = || {
                v.as_i64()
                    .ok_or_else(|| bad(format!("'{f}' must be an integer")))
            };
            let num = || {
                v.as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad(format!("'{f}' must be a non-negative number")))
            };
            match f.as_str() {
                "bm" => bm = Some(int()?),
                "bn" => bn = Some(int()?),
                "bk" => bk = Some(int()?),
                "stages" => stages = int()?,
                "threads" => threads = int()?,
                "copy" => {
                    let c = v.as_str().and_then(CopyKind::from_keyword);
                    copy = Some(c.ok_or_else(|| {
                        bad(format!(
                            "'copy' must be one of {}",
                            CopyKind::KEYWORDS.join(", ")
                        ))
                    })?);
                }
                "persistent" => persistent = int()?,
                "group" => group = int()?,
                "split" => split = int()?,
                "consumers" => consumers = int()?,
                "us" => e.us = Some(num()?),
                "heuristic_us" => e.heuristic_us = Some(num()?),
                "tried" => e.tried = Some(int()?),
                other => return Err(bad(format!("unknown field '{other}'"))),
            }
        }
        let (Some(bm), Some(bn), Some(bk)) = (bm, bn, bk) else {
            return Err(bad("needs bm, bn and bk".into()));
        };
        if !(0..=1 << 16).contains(&persistent) {
            return Err(bad(
                "'persistent' must be a block count from 0 to 65536".into()
            ));
        }
        if !(0..=1 << 16).contains(&group) {
            return Err(bad(
                "'group' must be a number of tiles from 0 to 65536".into()
            ));
        }
        if !(0..=MAX_SPLIT).contains(&split) {
            return Err(bad(format!(
                "'split' must be a number of K slices from 0 to {MAX_SPLIT}"
            )));
        }
        if !(0..=2).contains(&consumers) {
            return Err(bad(
                "'consumers' must be 2 (two groups taking turns), 1 or 0".into(),
            ));
        }
        if consumers == 2 && persistent == 0 {
            return Err(bad(
                "'consumers' 2 needs a persistent kernel (\"persistent\": blocks)".into(),
            ));
        }
        if persistent > 0 && copy != Some(CopyKind::TmaWs) {
            return Err(bad(
                "'persistent' needs \"copy\": \"tma_ws\" (a warp-specialised loop)".into(),
            ));
        }
        if [bm, bn, bk, stages].iter().any(|v| *v < 1) || threads < 0 {
            return Err(bad("sizes must be positive".into()));
        }
        if [bm, bn, bk].iter().any(|v| *v > 1 << 16) || stages > 16 || threads > 1024 {
            return Err(bad(
                "sizes out of range (tiles up to 65536, 16 stages, 1024 threads)".into(),
            ));
        }
        e.tuning = Tuning {
            bm,
            bn,
            bk,
            stages,
            threads,
            copy,
            persistent,
            group,
            split,
            consumers,
        };
        out.insert(key, e);
    }
    Ok(out)
}

/// A tuning cache as JSON text, its keys sorted (what [`read_cache`] reads).
pub fn write_cache(cache: &Cache) -> String {
    let mut keys: Vec<&String> = cache.keys().collect();
    keys.sort();
    let mut out = String::from("{\n");
    for (i, k) in keys.iter().enumerate() {
        let e = &cache[*k];
        let t = e.tuning;
        let mut fields = format!(
            "\"bm\": {}, \"bn\": {}, \"bk\": {}, \"stages\": {}, \"threads\": {}",
            t.bm, t.bn, t.bk, t.stages, t.threads
        );
        if let Some(c) = t.copy {
            fields += &format!(", \"copy\": \"{}\"", c.keyword());
        }
        if t.persistent > 0 {
            fields += &format!(", \"persistent\": {}", t.persistent);
        }
        if t.group > 0 {
            fields += &format!(", \"group\": {}", t.group);
        }
        if t.split > 1 {
            fields += &format!(", \"split\": {}", t.split);
        }
        if t.consumers > 1 {
            fields += &format!(", \"consumers\": {}", t.consumers);
        }
        if let Some(us) = e.us {
            fields += &format!(", \"us\": {us:.3}");
        }
        if let Some(us) = e.heuristic_us {
            fields += &format!(", \"heuristic_us\": {us:.3}");
        }
        if let Some(n) = e.tried {
            fields += &format!(", \"tried\": {n}");
        }
        let sep = if i + 1 < keys.len() { "," } else { "" };
        out += &format!(
            "  {}: {{{fields}}}{sep}\n",
            serde_json::Value::from(k.as_str())
        );
    }
    out + "}\n"
}

/// Whether `key` has the shape of a tuning key: `target/arch/template/…`
/// or the older `target/template/shape`, in plain characters.
fn is_key(key: &str) -> bool {
    let parts: Vec<&str> = key.split('/').collect();
    parts.len() >= 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
        })
}

/// What kind of kernel a tuning is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// GEMMs sharing A (one, or siblings), with prologues and epilogues.
    Gemm,
    /// A convolution as an implicit GEMM.
    Conv,
    /// A GEMM of a 2:4-sparse weight given compressed (`graph.sparse_matmul`):
    /// K steps of whole k32 groups (sparse tensor cores' `mma.sp`).
    SparseGemm,
    /// Two GEMMs in a row, the first's rows kept on chip; `n2` is the
    /// second's N.
    GemmChain { n2: i64 },
    /// FlashAttention: `m` queries by `n` keys of head dim `k`, values of
    /// head dim `dv`, under a causal mask or not.
    Attention { dv: i64, causal: bool },
}

/// What a kernel's tile sizes depend on: its template, problem size and
/// element types, and how many GEMMs share its block. Printed, it is the
/// tail of its tuning-cache key after `target/arch/`, for example
/// `gemm/1x4096x768x768/f16`, `gemm/0x4096x768x768/f16/x3/rows`,
/// `gemm_chain/64x64x64x64/f32`, `attention/96x512x512x64x64/f16`,
/// `attention/128x1024x1024x64x64/f16/causal`.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    /// The template.
    pub template: Template,
    /// Batches (0: not batched).
    pub batch: i64,
    /// Rows of C.
    pub m: i64,
    /// Columns of C (the widest sibling's).
    pub n: i64,
    /// The reduction depth.
    pub k: i64,
    /// The storage element types of A and B: `f16`, or `f16xf32` when they
    /// differ.
    pub elem: String,
    /// GEMMs sharing A (1: one).
    pub siblings: i64,
    /// Whether the block holds whole rows (a row normalisation follows).
    pub rows: bool,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (b, m, n, k) = (self.batch, self.m, self.n, self.k);
        match self.template {
            Template::Gemm => write!(f, "gemm/{b}x{m}x{n}x{k}")?,
            Template::Conv => write!(f, "conv/{b}x{m}x{n}x{k}")?,
            Template::SparseGemm => write!(f, "sparse_gemm/{b}x{m}x{n}x{k}")?,
            Template::GemmChain { n2 } => write!(f, "gemm_chain/{m}x{n}x{k}x{n2}")?,
            Template::Attention { dv, .. } => write!(f, "attention/{b}x{m}x{n}x{k}x{dv}")?,
        }
        write!(f, "/{}", self.elem)?;
        if let Template::Attention { causal: true, .. } = self.template {
            write!(f, "/causal")?;
        }
        if self.siblings > 1 {
            write!(f, "/x{}", self.siblings)?;
        }
        if self.rows {
            write!(f, "/rows")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Signature {
    type Err = String;
    /// A signature from its printed form (what [`Signature`]'s `Display`
    /// writes).
    fn from_str(s: &str) -> Result<Signature, String> {
        let bad = || format!("'{s}' is not a kernel signature (such as gemm/1x64x64x64/f16)");
        let mut parts = s.split('/');
        let (Some(template), Some(dims), Some(elem)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let d: Vec<i64> = dims
            .split('x')
            .map(|t| t.parse::<i64>().ok().filter(|v| *v >= 0))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        let (template, batch, m, n, k) = match (template, &d[..]) {
            ("gemm", &[b, m, n, k]) => (Template::Gemm, b, m, n, k),
            ("conv", &[b, m, n, k]) => (Template::Conv, b, m, n, k),
            ("sparse_gemm", &[b, m, n, k]) => (Template::SparseGemm, b, m, n, k),
            ("gemm_chain", &[m, n, k, n2]) => (Template::GemmChain { n2 }, 0, m, n, k),
            ("attention", &[b, m, n, k, dv]) => {
                (Template::Attention { dv, causal: false }, b, m, n, k)
            }
            _ => return Err(bad()),
        };
        let mut sig = Signature {
            template,
            batch,
            m,
            n,
            k,
            elem: elem.to_string(),
            siblings: 1,
            rows: false,
        };
        for p in parts {
            match p.strip_prefix('x').map(str::parse::<i64>) {
                Some(Ok(x)) if x > 1 => sig.siblings = x,
                _ if p == "rows" && !sig.rows => sig.rows = true,
                _ if p == "causal" => match &mut sig.template {
                    Template::Attention { causal, .. } if !*causal => *causal = true,
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            }
        }
        if elem.is_empty() || !elem.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(bad());
        }
        Ok(sig)
    }
}

impl Signature {
    /// The tuning-cache key of this kernel on `target` (`h100`, …) and
    /// `arch` (`sm_90a`, `gfx942`, `host`, …).
    pub fn key(&self, target: &str, arch: &str) -> String {
        format!("{target}/{arch}/{self}")
    }

    /// The key older caches used: `target/gemm/MxNxK`,
    /// `target/gemm_chain/MxNxKxN2`, `target/attention/SQxSKxD`.
    pub fn legacy_key(&self, target: &str) -> String {
        match self.template {
            Template::GemmChain { n2 } => {
                format!("{target}/gemm_chain/{}x{}x{}x{n2}", self.m, self.n, self.k)
            }
            Template::Attention { .. } => {
                format!("{target}/attention/{}x{}x{}", self.m, self.n, self.k)
            }
            // Newer than the old keys: its own.
            Template::SparseGemm => {
                format!("{target}/sparse_gemm/{}x{}x{}", self.m, self.n, self.k)
            }
            _ => format!("{target}/gemm/{}x{}x{}", self.m, self.n, self.k),
        }
    }

    /// Whether A and B are f16 or bf16 (tensor-core operands).
    fn half(&self) -> bool {
        matches!(self.elem.as_str(), "f16" | "bf16")
    }

    /// Whether the kernel is one f16 (or bf16) GEMM whose block holds only
    /// its accumulator: tensor-core tiles.
    pub fn mma_sized(&self) -> bool {
        self.half()
            && self.siblings == 1
            && !self.rows
            && matches!(self.template, Template::Gemm | Template::Conv)
    }

    /// Whether the kernel is one f16 (or bf16) GEMM of a 2:4-sparse weight:
    /// sparse tensor cores' tiles (mma.sync's blocks, whole k32 K steps).
    pub fn sparse_sized(&self) -> bool {
        self.half() && self.siblings == 1 && !self.rows && self.template == Template::SparseGemm
    }

    /// Whether the kernel is one GEMM of byte operands (i8, or fp8 off
    /// wgmma) whose block holds only its accumulator: mma.sync's k32 byte
    /// forms, fed by cp.async rings of whole 64-byte K steps.
    pub fn byte_sized(&self) -> bool {
        matches!(self.elem.as_str(), "i8" | "f8E4M3FN" | "f8E5M2")
            && self.siblings == 1
            && !self.rows
            && self.template == Template::Gemm
    }

    /// Whether the kernel is one fp8 GEMM (`f8E4M3FN` / `f8E5M2` A and B)
    /// whose block holds only its accumulator: wgmma's k32 tiles.
    pub fn fp8_sized(&self) -> bool {
        matches!(self.elem.as_str(), "f8E4M3FN" | "f8E5M2")
            && self.siblings == 1
            && !self.rows
            && self.template == Template::Gemm
    }

    /// The built-in choice for this kernel on `target`, with GEMM tiles for
    /// Hopper's warpgroup MMA where `wgmma`.
    pub fn heuristic(&self, target: &str, wgmma: bool) -> Tuning {
        let (m, n, k) = (self.m, self.n, self.k);
        if let Template::Attention { dv, causal } = self.template {
            let shape = (m, n, k, dv);
            return attention_heuristic(target, wgmma, self.batch, shape, self.half(), causal);
        }
        if let Some(t) = self.tiny_m(target, wgmma) {
            return t;
        }
        if let Some(t) = self.split_tiles(target, wgmma) {
            return t;
        }
        let mut t = match self.template {
            Template::GemmChain { n2 } => Tuning::heuristic(target, m, n2, k),
            Template::Gemm if self.mma_sized() && wgmma => {
                Tuning::ping_pong(target, self.batch, m, n, k)
                    .unwrap_or_else(|| Tuning::heuristic_wgmma(target, self.batch, m, n, k))
            }
            _ if self.mma_sized() && wgmma => Tuning::heuristic_wgmma(target, self.batch, m, n, k),
            _ if self.fp8_sized() && wgmma => {
                Tuning::heuristic_wgmma_fp8(target, self.batch, m, n, k)
            }
            _ if self.mma_sized() => Tuning::heuristic_f16_gemm(target, self.batch, m, n, k),
            _ if self.sparse_sized() => Tuning::heuristic_sparse_gemm(target, self.batch, m, n, k),
            _ if self.byte_sized() => {
                let t = Tuning::heuristic_f16_gemm(target, self.batch, m, n, k);
                Tuning {
                    bk: fit(t.bk.max(64), k),
                    ..t
                }
            }
            _ => Tuning::heuristic(target, m, n, k),
        };
        if self.rows {
            t.bn = n;
        }
        if target == "h100" && (self.mma_sized() || self.fp8_sized()) {
            let split = split_k(tiles_of(self.batch, m, n, t.bm, t.bn), k, t.bk);
            let s = Tuning { split, ..t };
            if self.split_fits(&s).is_ok() {
                t = s;
            }
        }
        t
    }

    /// A split-K GEMM's tiles on Hopper's warpgroup MMA, where its K loop
    /// splits ([`split_k`], where even the unsplit heuristic's narrower
    /// tiles leave half the SMs idle): the widest tiles, 128 x 256 in 4
    /// stages, their K loop in as many slices as fill a wave (below 128
    /// rows, [`Tuning::few_rows`]' tiles split by [`Signature::heuristic`]
    /// instead). Measured by aic-tune on the
    /// H200 (`bench/gpu/results/h200-2026-11-28-aic-tune-splitk.txt`):
    /// 1024x1024x16384 69.7 us in 4 slices of 128 x 256 tiles, against
    /// 77.5 in 2 of 128 x 128 (the widths that fill the wave best
    /// unsplit) and 161.1 unsplit; 256x4096x8192 with bias and GeLU 49.1
    /// against 59.1.
    fn split_tiles(&self, target: &str, wgmma: bool) -> Option<Tuning> {
        if target != "h100" || !wgmma || !self.mma_sized() || self.m < 128 {
            return None;
        }
        let (m, n, k) = (self.m, self.n, self.k);
        // Not where the unsplit tiles (as narrow as fill the last wave)
        // keep half the SMs busy already: a Llama block's 2048 x 1024 x
        // 4096 runs 128 tiles of 128 x 128, and slices would only add the
        // summing kernel.
        let unsplit = Tuning::heuristic_wgmma(target, self.batch, m, n, k);
        if 2 * tiles_of(self.batch, m, n, unsplit.bm, unsplit.bn) > H100_SMS {
            return None;
        }
        let t = Tuning {
            bm: 128,
            bn: fit(256, n),
            bk: fit(64, k),
            stages: 4,
            threads: 256,
            ..Tuning::default()
        };
        let split = split_k(tiles_of(self.batch, m, n, t.bm, t.bn), k, t.bk);
        let t = Tuning { split, ..t };
        (split > 1 && self.split_fits(&t).is_ok()).then_some(t)
    }

    /// Whether tuning `t`'s `split` (where it splits at all) fits this
    /// kernel: one GEMM, not batched, its result not whole normalised
    /// rows, floats (an integer GEMM's exact i32 sums are not split), and
    /// K in `split` slices of whole K steps.
    pub fn split_fits(&self, t: &Tuning) -> Result<(), String> {
        if t.split <= 1 {
            return Ok(());
        }
        if self.template != Template::Gemm || self.batch > 0 || self.siblings > 1 || self.rows {
            return Err("split-K needs one GEMM, not batched, without a row normalisation".into());
        }
        if self.elem.starts_with('i') || self.elem.starts_with("ui") {
            return Err("split-K of an integer GEMM".into());
        }
        if self.k % t.split != 0 || (self.k / t.split) % t.bk != 0 {
            return Err(format!(
                "a K of {} is not {} slices of whole K steps of {}",
                self.k, t.split, t.bk
            ));
        }
        Ok(())
    }

    /// Whether tuning `t`'s consumer groups taking turns (`consumers`
    /// 2) fit this kernel: one GEMM kernel (not attention) whose epilogue
    /// exchanges nothing through shared memory (no row normalisation: the
    /// two groups would share the scratch region), not split.
    pub fn consumers_fit(&self, t: &Tuning) -> Result<(), String> {
        if t.consumers <= 1 {
            return Ok(());
        }
        if self.template != Template::Gemm || self.rows {
            return Err("consumers taking turns need a GEMM without a row normalisation".into());
        }
        if t.split > 1 {
            return Err("consumers taking turns of a split-K GEMM".into());
        }
        Ok(())
    }

    /// A GEMM of a few rows on an H100 (a diffusion model's time embedding,
    /// 2x1280 by 1280x320): a matrix-vector product in all but name. Its
    /// rows padded to 16 so that mma.sync's tensor cores do the arithmetic
    /// (a block GEMM of 2 rows runs on the SIMT cores, each thread's
    /// products one after another: 46.5 us at 2 x 64 x 32 tiles, aic-tune's
    /// best 2 x 64 x 64 36.1), long K steps and narrow columns (more blocks
    /// streaming B). Not under `wgmma` where one warpgroup's 64 x 32
    /// tiles fill the SMs ([`Tuning::few_rows`]): a decode step of one or
    /// eight tokens by a 4096 x 4096 weight took 0.0240 and 0.0247 ms so on
    /// the H200, 0.0201 and 0.0204 on those (cuBLAS 0.0188, 0.0189;
    /// `bench/gpu/results/h200-2026-11-28-tiny-rows.json`).
    fn tiny_m(&self, target: &str, wgmma: bool) -> Option<Tuning> {
        (target == "h100"
            && self.m <= TINY_M
            && self.k >= TINY_M_K
            && self.mma_sized()
            && self.template == Template::Gemm
            && !(wgmma && few_rows_fill(self.batch, self.m, self.n)))
        .then(|| Tuning {
            bm: 16,
            bn: fit(32, self.n),
            bk: fit(256, self.k),
            stages: 2,
            threads: 128,
            ..Tuning::default()
        })
    }

    /// The configurations an autotuner should measure for this kernel on
    /// `target` (with warpgroup-MMA tiles where `wgmma`): the heuristic's
    /// choice first, then the target's other plausible block tiles, K
    /// steps, stages and block sizes, none larger than the problem needs
    /// (rounded up to a power of two) nor than a block's shared memory, and
    /// no warpgroup block whose accumulator its registers cannot hold.
    pub fn candidates(&self, target: &str, wgmma: bool) -> Vec<Tuning> {
        let (m, n, k) = (self.m, self.n, self.k);
        let first = self.heuristic(target, wgmma);
        if let Template::Attention { dv, .. } = self.template {
            return attention_candidates(target, wgmma, (m, n, k, dv), self.half(), first);
        }
        let mut out = vec![first];
        let mut push = |t: Tuning| {
            let bn_ok = self.rows || within(t.bn, n);
            // A warpgroup's 64 rows are the least a warpgroup tile has.
            let bm_ok = within(t.bm, m) || (t.bm == 64 && t.threads == 128);
            if bm_ok && bn_ok && within(t.bk, k) && !out.contains(&t) {
                out.push(t);
            }
        };
        let shared = |t: &Tuning| 2 * (t.bm + t.bn) * t.bk * t.stages;
        let bns = |list: &[i64]| -> Vec<i64> { if self.rows { vec![n] } else { list.to_vec() } };
        match target {
            "h100" if self.tiny_m(target, wgmma).is_some() => {
                for bn in [16, 32, 64] {
                    for bk in [64, 128, 256, 512] {
                        for stages in [2, 3] {
                            push(Tuning {
                                bm: 16,
                                bn: fit(bn, n),
                                bk: fit(bk, k),
                                stages,
                                threads: 128,
                                ..Tuning::default()
                            });
                        }
                    }
                }
            }
            "h100" if self.mma_sized() && wgmma => {
                // The cooperative tiles (both warpgroups on each tile) the
                // heuristic takes where its groups do not take turns.
                let first = Tuning::heuristic_wgmma(target, self.batch, m, n, k);
                push(first);
                // The heuristic's tiles warp-specialised (a producer
                // warpgroup's TMA), and persistent on the H100's 132 SMs.
                for persistent in [0, H100_SMS] {
                    push(Tuning {
                        copy: Some(CopyKind::TmaWs),
                        persistent,
                        ..first
                    });
                }
                // Persistent in 3 stages: room beside the rings for the
                // epilogue's staging tile where 4 leave none (128 x 256).
                push(Tuning {
                    copy: Some(CopyKind::TmaWs),
                    persistent: H100_SMS,
                    stages: 3,
                    ..first
                });
                // The heuristic's tiles in the grid's plain order (rows of
                // tiles first), where it groups them.
                push(Tuning { group: 0, ..first });
                // And filled by cp.async in 4 stages, where it makes them
                // persistent.
                push(Tuning {
                    copy: None,
                    persistent: 0,
                    stages: 4,
                    ..first
                });
                // Two consumer warpgroups taking turns on tiles of their
                // own (a GEMM's: [`Signature::consumers_fit`]): 64 rows by
                // 256, 192 or 128 columns, or 128 x 128 (two m64 row
                // blocks a warpgroup), in as many stages as leave room for
                // each group's staging tile.
                if self.template == Template::Gemm {
                    for (bm, bn, stages) in
                        [(64, 256, 4), (64, 192, 5), (64, 128, 6), (128, 128, 4)]
                    {
                        push(Tuning {
                            bm,
                            bn: fit(bn, n),
                            bk: fit(64, k),
                            stages,
                            threads: 128,
                            copy: Some(CopyKind::TmaWs),
                            persistent: H100_SMS,
                            group: wgmma_group(self.batch, (m, n, k), bm, bn),
                            consumers: 2,
                            ..Tuning::default()
                        });
                    }
                }
                // Whole warpgroups of 64 rows; the ring unpadded.
                for bm in [64, 128, 256] {
                    for bn in bns(&[64, 128, 192, 256]) {
                        for stages in [3, 4, 5] {
                            let t = Tuning {
                                bm,
                                bn,
                                bk: fit(64, k),
                                stages,
                                threads: 2 * bm,
                                group: wgmma_group(self.batch, (m, n, k), bm, bn),
                                ..Tuning::default()
                            };
                            if shared(&t) <= HOPPER_SHARED && registers_fit(&t) {
                                push(t);
                            }
                        }
                    }
                }
            }
            "h100" if self.mma_sized() || self.sparse_sized() || self.byte_sized() => {
                for (bm, bn, threads) in [
                    (64, 64, 128),
                    (64, 128, 128),
                    (128, 64, 128),
                    (128, 128, 128),
                    (128, 128, 256),
                    (128, 256, 256),
                ] {
                    for bk in [32, 64] {
                        for stages in [3, 4] {
                            let t = Tuning {
                                bm,
                                bn,
                                bk: fit(bk, k),
                                stages,
                                threads,
                                ..Tuning::default()
                            };
                            if shared(&t) <= HOPPER_SHARED {
                                push(t);
                            }
                        }
                    }
                }
            }
            "h100" | "mi300" => {
                let bk = if target == "mi300" { 16 } else { 32 };
                for bm in [32, 64, 128] {
                    for bn in bns(&[32, 64, 128]) {
                        for stages in [2, 3] {
                            push(Tuning {
                                bm,
                                bn,
                                bk: fit(bk, k),
                                stages,
                                threads: 0,
                                ..Tuning::default()
                            });
                        }
                    }
                }
            }
            "trn1" => {
                // NeuronCore matmuls: the stationary operand's free size
                // (rows) at most 128, the moving one's (columns) at most
                // 512 (one fp32 PSUM bank), a depth of at most 128
                // partitions; one or two buffers of each operand.
                for bm in [32, 64, 128] {
                    for bn in bns(&[128, 256, 512]) {
                        for bk in [64, 128] {
                            for stages in [1, 2] {
                                push(Tuning {
                                    bm: fit(bm, m),
                                    bn: if self.rows { bn } else { fit(bn, n) },
                                    bk: fit(bk, k),
                                    stages,
                                    threads: 0,
                                    ..Tuning::default()
                                });
                            }
                        }
                    }
                }
            }
            _ => {
                for bm in [16, 32, 64] {
                    for bn in bns(&[16, 32, 64]) {
                        for bk in [16, 32, 64] {
                            push(Tuning {
                                bm,
                                bn,
                                bk: fit(bk, k),
                                stages: 1,
                                threads: 0,
                                ..Tuning::default()
                            });
                        }
                    }
                }
            }
        }
        // Where the heuristic's tiles leave SMs idle: its tiles, the widest
        // wgmma tiles and whole warpgroups of 64 rows, each filled by
        // cp.async or a producer warpgroup's TMA, with the K loop in
        // slices (split-K) or not: up to as many slices as fill four waves
        // (small tiles share an SM), each at least 256 long.
        if target == "h100"
            && (self.mma_sized() || self.fp8_sized())
            && self.tiny_m(target, wgmma).is_none()
        {
            let mut bases = vec![first];
            if wgmma && self.mma_sized() {
                // Narrow tiles too below 128 rows: B, the most of what such
                // a GEMM reads, is read once however narrow its tiles.
                let narrow: &[(i64, i64, i64)] = if m < 128 {
                    &[(64, 32, 6), (64, 32, 8), (64, 64, 5), (64, 64, 6)]
                } else {
                    &[]
                };
                for &(bm, bn, stages) in [(128, 256, 4), (64, 128, 5), (64, 256, 4)]
                    .iter()
                    .chain(narrow)
                {
                    let t = Tuning {
                        bm,
                        bn: fit(bn, n),
                        bk: fit(64, k),
                        stages,
                        threads: 2 * bm,
                        ..Tuning::default()
                    };
                    if shared(&t) <= HOPPER_SHARED && registers_fit(&t) {
                        bases.push(t);
                    }
                }
            }
            for base in bases {
                let tiles = tiles_of(self.batch, m, n, base.bm, base.bn);
                if tiles >= H100_SMS {
                    continue;
                }
                let copies = if wgmma && self.mma_sized() && base.threads == 2 * base.bm {
                    vec![None, Some(CopyKind::TmaWs)]
                } else {
                    vec![base.copy]
                };
                for copy in copies {
                    for split in [0, 2, 4, 8, 16] {
                        let t = Tuning {
                            split,
                            copy,
                            persistent: 0,
                            ..base
                        };
                        let fills =
                            split == 0 || (tiles * split <= 4 * H100_SMS && k / split >= 256);
                        if fills && self.split_fits(&t).is_ok() {
                            push(t);
                        }
                    }
                }
            }
        }
        out
    }
}

/// How generators pick a kernel's tile sizes: the tuning cache's entry for
/// its signature on this target and architecture (or an older cache's
/// entry for its shape), else the built-in heuristic.
pub(super) struct Tuner<'a> {
    pub(super) target: &'a str,
    pub(super) arch: &'a str,
    /// GEMM tiles for Hopper's warpgroup MMA.
    pub(super) wgmma: bool,
    pub(super) cache: &'a Cache,
}

impl Tuner<'_> {
    /// Checks the cache's entries for this compile's target and arch: an
    /// error naming the entry where its `split` does not fit its kernel
    /// ([`Signature::split_fits`]), or where it gives an f16 or bf16 GEMM
    /// warpgroup-MMA tiles (`threads` two per row) whose share of the
    /// accumulator a thread's registers cannot hold ([`registers_fit`]),
    /// which ptxas would reject only when the driver loads the kernel.
    pub(super) fn check(&self) -> Result<(), String> {
        let prefix = format!("{}/{}/", self.target, self.arch);
        let mut keys: Vec<&String> = self.cache.keys().collect();
        keys.sort();
        for key in keys {
            let Some(sig) = key
                .strip_prefix(&prefix)
                .and_then(|s| s.parse::<Signature>().ok())
            else {
                continue;
            };
            let t = self.cache[key].tuning;
            sig.split_fits(&t)
                .map_err(|why| format!("entry '{key}': 'split' {}: {why}", t.split))?;
            sig.consumers_fit(&t)
                .map_err(|why| format!("entry '{key}': 'consumers' {}: {why}", t.consumers))?;
            if self.wgmma && sig.mma_sized() && t.threads == 2 * t.bm && !registers_fit(&t) {
                let (need, have) = registers(&t);
                return Err(format!(
                    "entry '{key}': a {} x {} warpgroup tile of {} threads needs about {need} registers a thread (half a row of its f32 accumulator, and the loop's), more than the {have} a block of {} threads leaves each",
                    t.bm, t.bn, t.threads, t.threads
                ));
            }
        }
        Ok(())
    }

    /// Whether the cache has an entry for a kernel of signature `sig`.
    pub(super) fn cached(&self, sig: &Signature) -> bool {
        self.cache.contains_key(&sig.key(self.target, self.arch))
            || self.cache.contains_key(&sig.legacy_key(self.target))
    }

    /// The tiles of a kernel of signature `sig`, and its tuning-cache key.
    pub(super) fn pick(&self, sig: &Signature) -> (Tuning, String) {
        let key = sig.key(self.target, self.arch);
        let t = self
            .cache
            .get(&key)
            .or_else(|| self.cache.get(&sig.legacy_key(self.target)))
            .map(|e| e.tuning)
            .unwrap_or_else(|| sig.heuristic(self.target, self.wgmma));
        (t, key)
    }
}

/// Whether an attention of head dims `d` and `dv` takes Hopper's form
/// under `wgmma`: f16 or bf16 operands (`half`) and head dims of whole
/// 128-byte swizzled rows of halves (64, 128, 192, 256).
pub(super) fn hopper_attention(wgmma: bool, half: bool, d: i64, dv: i64) -> bool {
    wgmma && half && [d, dv].iter().all(|x| x % 64 == 0 && *x <= 256)
}

/// The built-in tiles of an attention of `sq` queries by `sk` keys, head
/// dims `d` and `dv`, on `target` (`half`: f16 or bf16 operands, tensor
/// cores; `wgmma`: Hopper's warpgroup MMA). `bm` queries a block and `bn`
/// keys a step, in `stages`; `bk` is unused.
///
/// On h100, an f16 attention (the tensor-core loop) whose grid still gives
/// every SM two blocks of 128 queries takes them in 2 stages, 128 keys a
/// step for head dims up to 64 (the scores and the output then fill a
/// lane's registers), else 64 (b4 h16 s4096 d64 on an H100: 0.954 ms at
/// 128 x 128, 1.006 at 128 x 64 (1.039 in 3 stages), 1.193 at 64 x 64 in 3
/// stages); other attentions keep [`Tuning::heuristic`], on trn1 with key
/// blocks of at most 128 (P·V contracts over the keys, which a NeuronCore
/// matmul takes on its 128 partitions).
/// Under wgmma, with head dims of whole 128-byte rows, a 128-query block
/// is two warpgroups (256 threads), 128 keys a step (the scores' and the
/// output's accumulators, 64 and D/2 registers a thread, fit beside P's)
/// except head dim 64 over at most 2048 keys, which takes 64: more, shorter
/// steps for the two stages to overlap, and less of a causal diagonal
/// masked (on the H100: BERT's 512 keys 48.9 -> 40.0 us, GPT-2's causal
/// 1024 101.7 -> 86.1; Llama's head dim 128 over 2048 keys keeps 128, 122
/// against 139). Head dim 64 over at most 512 keys takes blocks of one
/// warpgroup, 64 queries, and 128 keys a step: the loop is short, so twice
/// the blocks, each alone on its warpgroup, hide one another's softmax and
/// fills better than two warpgroups in step (against 128 x 64: BERT's 512
/// keys 35.6 -> 33.4 us, ViT's 197 36.9 -> 32.3; 64 x 64 gave 34.0 and
/// 34.1, 128 x 128 47 and 40).
fn attention_heuristic(
    target: &str,
    wgmma: bool,
    batch: i64,
    (sq, sk, d, dv): (i64, i64, i64, i64),
    half: bool,
    causal: bool,
) -> Tuning {
    let base = Tuning::heuristic(target, sq, sk, d);
    let t = if target == "trn1" {
        Tuning {
            bn: base.bn.min(128),
            ..base
        }
    } else if target == "h100" && half && batch.max(1) * ((sq + 127) / 128) >= H100_BLOCKS {
        Tuning {
            bm: 128,
            bn: if d <= 64 { 128 } else { 64 },
            stages: 2,
            ..base
        }
    } else {
        base
    };
    if !hopper_attention(wgmma, half, d, dv) || t.bm != 128 {
        return t;
    }
    if sk <= 512 && d.max(dv) == 64 {
        return Tuning {
            bm: 64,
            bn: 128,
            threads: 128,
            ..t
        };
    }
    let bn = match d.max(dv) {
        64 if sk <= 2048 => 64,
        x if x <= 128 => 128,
        _ => 64,
    };
    // Long sequences (4096 keys or more, whole key blocks) at head dims up
    // to 128 take the warp-specialised loop, which aic-tune picks there, in
    // 3 stages, 4 at head dim 64 (b4 h16 s4096 on the H100: d64 0.7225 ->
    // 0.6451 ms, d128 1.1731 -> 0.9613; causal, two key loops on one ring,
    // d64 0.3796 -> 0.3438, d128 0.6088 -> 0.5351; bench/gpu/RESULTS.md; d128's
    // 4 stages do not fit in shared memory). Shorter ones are unmeasured and
    // keep cp.async.
    //
    // Without a causal mask, head dim 64's blocks are three consumer
    // warpgroups, 192 queries (FlashAttention-3's block height there): each
    // key block's K and V, copied once, serve half as many queries again
    // (b4 h16 s4096 d64 on an H200: 0.6426 -> 0.5918 ms, against cuDNN's
    // 0.6188; taking turns in three, 0.6043, so they do not). Causal keeps
    // 128: a 192-query block's diagonal spans two key blocks of 128 (0.3570
    // -> 0.3716 ms).
    let widest = d.max(dv);
    let ws = target == "h100" && sk >= 4096 && sk % bn == 0 && widest <= 128;
    let ws_stages = if widest <= 64 { 4 } else { 3 };
    let bm = if ws && widest <= 64 && !causal {
        192
    } else {
        t.bm
    };
    Tuning {
        bm,
        bn,
        threads: 2 * bm,
        stages: if ws { ws_stages } else { t.stages },
        copy: ws.then_some(CopyKind::TmaWs),
        ..t
    }
}

/// The tiles an autotuner should measure for an attention (see
/// [`attention_heuristic`]), `first` first: on h100 with tensor cores,
/// blocks of 64 or 128 queries (whole warpgroups, 2 threads a query row,
/// under wgmma with whole-row head dims), 64 or 128 keys a step, 2 or 3
/// stages (warp-specialised under wgmma, 3 or 4), where the shared tiles
/// (Q once, K and V staged) fit a block and
/// a warpgroup's accumulators its registers; elsewhere blocks of 32 or 64
/// queries and keys. None larger than the problem needs.
fn attention_candidates(
    target: &str,
    wgmma: bool,
    (sq, sk, d, dv): (i64, i64, i64, i64),
    half: bool,
    first: Tuning,
) -> Vec<Tuning> {
    let mut out = vec![first];
    let mut push = |t: Tuning| {
        if within(t.bm, sq) && within(t.bn, sk) && !out.contains(&t) {
            out.push(t);
        }
    };
    let hopper = hopper_attention(wgmma, half, d, dv);
    if target == "h100" && half {
        // 192 queries (three warpgroups) warp-specialised only.
        for bm in [64, 128, 192] {
            for bn in [64, 128] {
                for stages in [2, 3, 4] {
                    let t = Tuning {
                        bm,
                        bn,
                        bk: first.bk,
                        stages,
                        threads: if hopper { 2 * bm } else { 0 },
                        ..Tuning::default()
                    };
                    let shared = 2 * (bm * d + stages * bn * (d + dv));
                    // A warpgroup's scores (bn/2 f32), P (bn/4 pairs) and
                    // output (dv/2) beside the addressing. Warp-specialised,
                    // the scores live beside the P kept for the step's P·V
                    // (the new P replaces them), within what the register
                    // split gives a consumer (232 of two warpgroups, 160 of
                    // three; one keeps up to 255).
                    let regs = bn / 2 + bn / 4 + dv / 2 + 48;
                    let consumer = crate::tile_to_gpu::register_split(2 * bm).map_or(255, |r| r.1);
                    let ws_regs = bn / 2 + bn / 4 + dv / 2 + 32 <= consumer;
                    if shared <= HOPPER_SHARED && (!hopper || regs <= 255) {
                        if stages <= 3 && bm != 192 {
                            push(t);
                        }
                        // Warp-specialised (a producer warpgroup's TMA, the
                        // loop in FlashAttention-3's order, which needs a
                        // third stage; a fourth paid at head dim 64), where
                        // whole key blocks tile the keys (TMA's boxes stay
                        // in their batch).
                        if hopper && stages >= 3 && sk % bn == 0 && ws_regs {
                            push(Tuning {
                                copy: Some(CopyKind::TmaWs),
                                ..t
                            });
                        }
                    }
                }
            }
        }
    } else {
        for bm in [32, 64] {
            for bn in [32, 64] {
                push(Tuning {
                    bm: fit(bm, sq),
                    bn: fit(bn, sk),
                    ..first
                });
            }
        }
    }
    out
}

/// Whether a warpgroup-MMA block's accumulator fits its threads' registers:
/// each thread holds `bn / 2` f32 of it, and the 64K registers of an SM
/// shared by the block's threads leave each at most 255 (128 at 512
/// threads), of which the addressing and the pipeline take about 48. (On an
/// H100, ptxas rejected every 256 x 256 block of four warpgroups aic-tune
/// tried: 128 registers cannot hold the 128-float accumulator.)
fn registers_fit(t: &Tuning) -> bool {
    let (need, have) = registers(t);
    need <= have
}

/// The registers a thread of a warpgroup-MMA block of `t` needs (its
/// share of the accumulator and the loop's) and those its block leaves
/// it ([`registers_fit`]).
fn registers(t: &Tuning) -> (i64, i64) {
    (t.bn / 2 + 48, (65_536 / t.threads.max(1)).min(255))
}

/// Tile sizes and pipelining of a GEMM kernel. Its default is no tile at
/// all (sizes 0) and nothing beyond the tile sizes: plain blocks of the
/// target's threads, each a tile.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Tuning {
    /// Rows of C per block.
    pub bm: i64,
    /// Columns of C per block.
    pub bn: i64,
    /// The K step.
    pub bk: i64,
    /// Stages of the shared-memory pipeline.
    pub stages: i64,
    /// Threads of the kernel's blocks; 0: the target's (tile-to-gpu's option).
    pub threads: i64,
    /// How the kernel's pipelined loops fill their shared rings (written
    /// on them as `copy`, which the layout passes keep where it can be
    /// done); `None`: tile-to-gpu's `copy` option decides.
    pub copy: Option<CopyKind>,
    /// Blocks of a persistent kernel (its loop warp-specialised), written
    /// as the kernel's `persistent`; 0: a block a tile.
    pub persistent: i64,
    /// Tiles a group down the rows of C in the grid's order (written as
    /// the kernel's `group`, Triton's `GROUP_SIZE_M`): the blocks running
    /// at once then read fewer operand blocks, more of them from L2; 0:
    /// none (the rows first, all of them).
    pub group: i64,
    /// Slices of the K loop run as blocks of their own (split-K): a first
    /// kernel's blocks each sum one slice of K into f32 partial products
    /// (`split` x M x N), a second sums the partials and applies the
    /// epilogue. Where a GEMM's tiles leave most SMs idle (a few rows, a
    /// long K) the slices fill them. 0 or 1: none.
    pub split: i64,
    /// Groups of `threads` consumers a block of a persistent kernel runs
    /// (written as the kernel's `consumers`): 2, each taking every other
    /// tile and their K loops in turns, so that one's epilogue runs while
    /// the other's K loop does (CUTLASS's ping-pong); 0 or 1: one group
    /// (all of a block's threads on each tile).
    pub consumers: i64,
}

impl Tuning {
    /// The built-in choice for `target` and an M x N x K problem: the
    /// target's preferred block, shrunk (to powers of two) where the
    /// problem is smaller.
    pub fn heuristic(target: &str, m: i64, n: i64, k: i64) -> Tuning {
        let (bm, bn, bk, stages) = match target {
            "mi300" => (64, 64, 16, 2),
            // A NeuronCore matmul: 128 rows (the stationary operand's
            // free size), 512 columns (the moving one's, one fp32 PSUM
            // bank) and a depth of 128 partitions.
            "trn1" => (128, 512, 128, 2),
            "cpu" => (32, 32, 32, 1),
            _ => (64, 64, 32, 3),
        };
        Tuning {
            bm: fit(bm, m),
            bn: fit(bn, n),
            bk: fit(bk, k),
            stages,
            threads: 0,
            ..Tuning::default()
        }
    }
}

/// The columns of 128-row wgmma blocks for an `m x n` output on H100's 132
/// SMs: 256 unless its last wave of blocks leaves more than a sixth of the
/// SMs idle, then 192 or 128 where that fills the last wave clearly better
/// (BERT's 4096 x 768 is 128 blocks of 192 columns, one wave, where 256
/// leaves 96 blocks and 128 makes 192, a wave and a half). `n` below 256
/// keeps 128.
fn wave_columns(m: i64, n: i64) -> i64 {
    if n < 256 {
        return 128;
    }
    let fill = |bn: i64| {
        let blocks = tiles_of(0, m, n, 128, bn);
        let waves = (blocks + H100_SMS - 1) / H100_SMS;
        blocks as f64 / (waves * H100_SMS) as f64
    };
    // The widest blocks unless their last wave leaves a sixth of the SMs
    // idle and a narrower width fills it better.
    if fill(256) >= 0.85 {
        return 256;
    }
    [192, 128]
        .into_iter()
        .fold((256, fill(256)), |(best, f), bn| {
            let g = fill(bn);
            if g > f + 0.05 { (bn, g) } else { (best, f) }
        })
        .0
}

/// H100's multiprocessors.
const H100_SMS: i64 = 132;

/// The longest K loop [`Tuning::heuristic_wgmma`] makes persistent
/// (16 steps of 64).
const SHORT_K: i64 = 1024;

/// The blocks of an M x N GEMM (`batch` of them, 0 or 1: one) in `bm` x
/// `bn` tiles.
fn tiles_of(batch: i64, m: i64, n: i64, bm: i64, bn: i64) -> i64 {
    (m + bm - 1) / bm * ((n + bn - 1) / bn) * batch.max(1)
}

/// The most K slices [`Tuning::split`] takes.
pub const MAX_SPLIT: i64 = 16;

/// The shortest K slice [`split_k`] makes: 8 steps of 64, long enough for
/// a ring of stages to fill and drain once.
const SPLIT_MIN_K: i64 = 512;

/// The shortest K loop [`split_k`] splits: below it, what a slice saves
/// (half of 16 steps of 128 x 256 x 64, about 4.5 us on an SM) is about
/// what the kernel summing the slices costs.
const SPLIT_FROM_K: i64 = 2048;

/// The K slices (see [`Tuning::split`]) for a GEMM of `tiles` blocks
/// with a K loop of `k` in steps of `bk` on H100's SMs: none where its
/// tiles keep half the SMs busy or K is shorter than [`SPLIT_FROM_K`];
/// else the most slices (a power of two, at most [`MAX_SPLIT`]) whose
/// blocks still fit one wave, each slice at least [`SPLIT_MIN_K`] long
/// and whole K steps.
fn split_k(tiles: i64, k: i64, bk: i64) -> i64 {
    if 2 * tiles > H100_SMS || k < SPLIT_FROM_K {
        return 0;
    }
    let mut s = 1;
    while 2 * s <= MAX_SPLIT
        && tiles * 2 * s <= H100_SMS
        && k % (2 * s * bk) == 0
        && k / (2 * s) >= SPLIT_MIN_K
    {
        s *= 2;
    }
    if s > 1 { s } else { 0 }
}

/// The group of a wgmma GEMM's `bm` x `bn` tiles ([`l2_group`]) where its
/// f16 A (M x K) outgrows the L2, else none: the heuristic's and every
/// aic-tune candidate's, so that the tiles compared run in the same kind
/// of order.
fn wgmma_group(batch: i64, (m, n, k): (i64, i64, i64), bm: i64, bn: i64) -> i64 {
    l2_group(tiles_of(batch, m, n, bm, bn), bm, bn) * i64::from(2 * m * k > H100_L2_BYTES)
}

/// H100's L2 cache (50 MiB).
const H100_L2_BYTES: i64 = 50 << 20;

/// The group (see [`Tuning::group`]) for a grid of `tiles` blocks of
/// `bm` x `bn`: none where one wave runs them all; else about the rows
/// of tiles that, with the columns that fill a wave, read the fewest
/// operand bytes at once (`g` rows of `bm` and `SMs / g` columns of
/// `bn`: `g = sqrt(SMs bn / bm)`, to a power of two).
///
/// [`Tuning::heuristic_wgmma`] groups only where A is larger than the L2:
/// in the plain order every wave reads all of A again, from memory once
/// it no longer fits (8192³ f16 on the H200: 1.7616 -> 1.6692 ms with
/// groups of 16), while an A that stays in L2 lost by grouping (the CK
/// GEMM's 3840 x 4096, 31 MiB: 0.2343 -> 0.2478;
/// `bench/gpu/results/h200-2026-11-28-grouped-order.json`).
fn l2_group(tiles: i64, bm: i64, bn: i64) -> i64 {
    if tiles <= H100_SMS {
        return 0;
    }
    let best = ((H100_SMS * bn) as f64 / bm as f64).sqrt();
    let mut g = 1;
    while ((g * 2) as f64) <= best * std::f64::consts::SQRT_2 {
        g *= 2;
    }
    g
}

/// Whether a candidate's block `b` along a dim of `d` is no larger than
/// the dim needs (rounded up to a power of two; 16 always).
fn within(b: i64, d: i64) -> bool {
    b <= fit(b, d).max(16)
}

/// Block size `b` along a dim of `d`, shrunk to a power of two where the
/// dim is smaller.
fn fit(b: i64, d: i64) -> i64 {
    b.min((d.max(1) as u64).next_power_of_two() as i64).max(1)
}

/// The most rows of a GEMM [`Signature::tiny_m`] takes as a matrix-vector
/// product.
const TINY_M: i64 = 8;

/// The fewest rows [`Tuning::few_rows`] takes (more than [`TINY_M`]),
/// but see [`few_rows_fill`].
const FEW_ROWS: i64 = TINY_M + 1;

/// Whether [`Tuning::few_rows`]' narrowest tiles (64 x 32) fill nine
/// tenths of H100's SMs: then it takes GEMMs of [`TINY_M`] rows or fewer
/// too.
fn few_rows_fill(batch: i64, m: i64, n: i64) -> bool {
    10 * tiles_of(batch, m, n, 64, 32) >= 9 * H100_SMS
}

/// The shortest K for which [`Signature::tiny_m`]'s long steps pay (shorter
/// ones take the usual tiles).
const TINY_M_K: i64 = 512;

/// Blocks that H100's 132 SMs should get at least, two each, for a
/// GEMM to take its larger tiles.
const H100_BLOCKS: i64 = 2 * 132;

impl Tuning {
    /// The built-in choice for one f16 GEMM (tensor cores, the epilogue on
    /// the accumulator's fragments) on h100, where the problem still gives
    /// every SM two blocks: 128 x 256 blocks of 8 warps (64 x 64 each) and
    /// a K step of 64, else 128 x 128 blocks of the target's 4 warps.
    /// Measured on the H100 (one run): gemm + bias + GeLU 4096x1024x4096
    /// 0.166 ms (128x128x32: 0.170, 64x64: 0.243), GEMM + add + add +
    /// FastGeLU 3840x4096x4096 0.436 ms (128x128x32: 0.486). Elsewhere, and
    /// for smaller problems, [`Tuning::heuristic`].
    pub fn heuristic_f16_gemm(target: &str, batch: i64, m: i64, n: i64, k: i64) -> Tuning {
        let base = Tuning::heuristic(target, m, n, k);
        let blocks = |bm: i64, bn: i64| batch.max(1) * ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
        if target != "h100" {
            base
        } else if blocks(128, 256) >= H100_BLOCKS {
            Tuning {
                bm: 128,
                bn: 256,
                bk: fit(64, k),
                threads: 256,
                ..base
            }
        } else if blocks(128, 128) >= H100_BLOCKS {
            Tuning {
                bm: 128,
                bn: 128,
                ..base
            }
        } else {
            base
        }
    }

    /// The built-in choice for one GEMM of a 2:4-sparse f16 weight on
    /// sparse tensor cores (mma.sp's k32 steps): the mma.sync choice
    /// ([`Tuning::heuristic_f16_gemm`]) with whole k32 steps, and on a grid
    /// of 128 x 256 blocks that fills the H100, K steps of 128 and two
    /// stages (four mma.sp steps between barriers). Measured on an H100
    /// (bench/precision/results/h100-2026-11-27-sparse-tiles.txt), 4096^3:
    /// 0.413 ms at 128 x 256 x 128, 2 stages (256 x 128 x 128: 0.416),
    /// against 0.44 to 0.52 at K steps of 64 or 3 stages.
    pub fn heuristic_sparse_gemm(target: &str, batch: i64, m: i64, n: i64, k: i64) -> Tuning {
        let t = Tuning::heuristic_f16_gemm(target, batch, m, n, k);
        if target == "h100" && (t.bm, t.bn) == (128, 256) {
            return Tuning {
                bk: fit(128, k),
                stages: 2,
                ..t
            };
        }
        Tuning {
            bk: fit(t.bk.max(32), k),
            ..t
        }
    }

    /// The built-in choice for one f16 GEMM on Hopper's warpgroup MMA
    /// (sm_90a): 128-row blocks of two warpgroups, 256, 192 or 128 columns
    /// wide, whichever fills the last wave best ([`wave_columns`]), a K
    /// step of 64 and 4 stages (5 below 256 columns), even
    /// where the grid leaves SMs idle; elsewhere, and for fewer than 128
    /// rows, [`Tuning::heuristic_f16_gemm`] made fit for wgmma. Measured by
    /// aic-tune on an H100 (bench/models/results/h100-2026-11-26-aic-tune-f16.txt):
    /// BERT's 4096x768x768 GEMM 21.4 us at 128x256 against 43.5 at the
    /// mma.sync heuristic's 64x64, 4096x768x3072 45.3 against 148.3, GPT-2's
    /// 8192x1024x1024 50.0 against 54.6 at 128x128. Its tiles run in
    /// groups of rows ([`l2_group`]) where A outgrows the L2. A K of at
    /// most [`SHORT_K`] over two and a half waves of tiles or more runs
    /// warp-specialised and persistent on the SMs in 3 stages, its
    /// epilogue staged beside the rings. On the H200: 4096x4096x1024
    /// 0.0593 -> 0.0580 ms and with bias and GeLU 0.0706 -> 0.0693
    /// (aic-tune 66.5 -> 64.4 us), BERT's FFN GEMM+GeLU 4096x3072x768
    /// 52.3 -> 47.0 us, GPT-2's 8192x4096x1024 132.2 -> 127.5, ViT's
    /// 6304x2304x768 50.4 -> 48.7; but slower over fewer waves (GPT-2's
    /// 8192x1024x1024, 1.9 waves, 38.0 -> 44.4; ViT's 6304x768x768, 1.5,
    /// 29.6 -> 35.3), hence the bound, and ViT's 6304x3072x768 (4.5
    /// waves) 83.3 -> 85.8; and where K is long (3840x4096x4096 0.2316 ->
    /// 0.2359; `bench/gpu/results/h200-2026-11-28-persistent-staged.json`,
    /// `bench/models/results/h200-2026-11-28-short-k-persistent-ab.txt`).
    pub fn heuristic_wgmma(target: &str, batch: i64, m: i64, n: i64, k: i64) -> Tuning {
        let base = Tuning::heuristic_f16_gemm(target, batch, m, n, k);
        if target == "h100" && m < 128 && n >= 128 && (m >= FEW_ROWS || few_rows_fill(batch, m, n))
        {
            return Tuning::few_rows(batch, m, n, k);
        }
        if target != "h100" || m < 128 || n < 128 {
            return base.for_wgmma(k);
        }
        let bn = wave_columns(batch.max(1) * m, n);
        let tiles = tiles_of(batch, m, n, 128, bn);
        // A short K loop over two and a half waves of tiles or more:
        // persistent, so that the producer fills the next tile's ring while
        // the consumers store one, in 3 stages to leave the epilogue's
        // staging tile room.
        let persistent = k <= SHORT_K && 2 * tiles >= 5 * H100_SMS;
        Tuning {
            bm: 128,
            bn,
            bk: fit(64, k),
            stages: match (persistent, bn) {
                (true, _) => 3,
                // 256 columns: the most stages a block's shared memory holds.
                (false, 256) => 4,
                // Narrower: one more (a Llama block's 2048x1024x4096 on
                // 128 x 128, 0.0406-0.0415 -> 0.0356-0.0365 ms on the H200;
                // BERT's 4096x768x768 on 128 x 192, 0.0176-0.0181 ->
                // 0.0164-0.0171; `bench/gpu/results/h200-2026-11-28-stages.txt`).
                (false, _) => 5,
            },
            threads: 256,
            copy: persistent.then_some(CopyKind::TmaWs),
            persistent: if persistent { H100_SMS } else { 0 },
            group: wgmma_group(batch, (m, n, k), 128, bn),
            ..Tuning::default()
        }
    }

    /// A GEMM's tiles where two consumer warpgroups take turns (the
    /// kernel's `consumers = 2`, CUTLASS's ping-pong): warp-specialised
    /// and persistent on the SMs, each warpgroup its own 64 x 256 tiles
    /// in 4 stages (the most that leave both staging tiles room), so that
    /// one's epilogue runs while the other's K loop does. Where K is at
    /// most [`SHORT_K`] (the epilogue a large share of a tile's time) and
    /// the tiles are at least two an SM; else `None`. (The turns need TMA
    /// copies of both operands: fusion-to-tile keeps the cooperative tiles
    /// where a view rules them out, `tile_to_gpu::copies_2d`.) On the H200 against
    /// the cooperative tiles (both warpgroups on each 128-row tile;
    /// `bench/gpu/results/h200-2026-11-28-pingpong-{first,linear}.json`):
    /// 4096x4096x1024 with bias and GeLU 0.0691 -> 0.0604 ms (cuBLASLt's
    /// fused epilogue 0.0597), alone 0.0574 -> 0.0549 (cuBLAS 0.0534);
    /// BERT's FFN 4096x3072x768 with GeLU 0.0443 -> 0.0396, GPT-2's
    /// 8192x1024x1024 0.0339 -> 0.0315 and 8192x4096x1024 with GeLU
    /// 0.1347 -> 0.1248, ViT's 6304x768x768 0.0240 -> 0.0211,
    /// 6304x2304x768 0.0498 -> 0.0411 and 6304x3072x768 with GeLU 0.0714
    /// -> 0.0571. Not for a batched GEMM (not measured; a batch's boxes
    /// may keep TMA, and so the turns, from its loop: GPT-2's attention
    /// scores 128 x 1024 x 1024 x 64 would run on 64 x 256 tiles without
    /// them), nor where the tiles are fewer (BERT's 4096x768x768, 192
    /// tiles: 0.0149 -> 0.0156) nor where K is long (4096x768x3072 0.0343
    /// -> 0.0465, the CK GEMM's 3840x4096x4096 0.2358 -> 0.2487, 8192³
    /// 1.703 -> 1.743).
    pub fn ping_pong(target: &str, batch: i64, m: i64, n: i64, k: i64) -> Option<Tuning> {
        let fits = target == "h100"
            && batch == 0
            && k <= SHORT_K
            && m >= 128
            && n >= 256
            && tiles_of(batch, m, n, 64, 256) >= 2 * H100_SMS;
        fits.then(|| Tuning {
            bm: 64,
            bn: 256,
            bk: fit(64, k),
            stages: 4,
            threads: 128,
            copy: Some(CopyKind::TmaWs),
            persistent: H100_SMS,
            group: wgmma_group(batch, (m, n, k), 64, 256),
            consumers: 2,
            ..Tuning::default()
        })
    }

    /// A GEMM of 9 to 127 rows on Hopper's warpgroup MMA: one warpgroup's
    /// 64 rows (a decode step's few tokens, masked), and the widest of
    /// 128, 64 and 32 columns whose tiles fill nine tenths of the SMs
    /// (else 32), in 5, 6 or 8 stages: B, nearly all that such a GEMM
    /// reads, is read once however narrow the tiles. Where even 32 leave
    /// half the SMs idle, [`Signature::heuristic`] splits the K loop too
    /// ([`split_k`], as for any GEMM's tiles). Measured by
    /// aic-tune on the H200 for 4096 x 4096 weights
    /// (`bench/gpu/results/h200-2026-11-28-aic-tune-few-rows.txt`): 16
    /// rows 26.3 us at 64 x 32 in 8 stages, 32 rows 27.5, 64 rows 27.1
    /// (26.8 in 4 slices of 64 x 128), against 49.2, 48.7 and 64.8 at
    /// mma.sync's tiles.
    pub fn few_rows(batch: i64, m: i64, n: i64, k: i64) -> Tuning {
        let fills = |bn: i64| 10 * tiles_of(batch, m, n, 64, bn) >= 9 * H100_SMS;
        let (bn, stages) = [(128, 5), (64, 6)]
            .into_iter()
            .find(|(bn, _)| fills(*bn))
            .unwrap_or((32, 8));
        Tuning {
            bm: 64,
            bn: fit(bn, n),
            bk: fit(64, k),
            stages,
            threads: 128,
            ..Tuning::default()
        }
    }

    /// fp8 GEMM tiles for Hopper's warpgroup MMA (sm_90a): the f16
    /// choice ([`Tuning::heuristic_wgmma`]) with a K step of 128 (a
    /// 128-byte swizzled line of bytes, four k32 wgmmas), the same bytes
    /// a stage as f16's K step of 64. Not measured yet (the H100 run
    /// after this change says).
    pub fn heuristic_wgmma_fp8(target: &str, batch: i64, m: i64, n: i64, k: i64) -> Tuning {
        // Below 128 rows, the mma.sync-sized tiles made fit for wgmma (the
        // f16 choice's few rows, [`Tuning::few_rows`], are not measured
        // for fp8).
        let t = if m < 128 {
            Tuning::heuristic_f16_gemm(target, batch, m, n, k).for_wgmma(k)
        } else {
            Tuning::heuristic_wgmma(target, batch, m, n, k)
        };
        Tuning {
            bk: fit(128, k),
            stages: 4,
            copy: None,
            persistent: 0,
            ..t
        }
    }

    /// This choice for Hopper's warpgroup MMA (sm_90a), where a warpgroup
    /// of 128 threads owns 64 rows: a 128-row block takes two warpgroups
    /// (256 threads), a K step of 64 (a 128-byte swizzled row) where `k`
    /// allows, and 4 stages (the ring is unpadded, and the loop keeps two
    /// stages of copies in flight besides the one its wgmmas read and the
    /// one they last read).
    pub fn for_wgmma(self, k: i64) -> Tuning {
        if self.bm != 128 {
            return self;
        }
        Tuning {
            bk: fit(64, k),
            stages: self.stages.max(4),
            threads: 256,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_caches_read_and_say_what_is_wrong() {
        let c = read_cache(
            r#"{ "h100/gemm/64x64x32": {"bm": 32, "bn": 64, "bk": 16, "stages": 4, "threads": 64},
            "mi300/gemm/1x1x1": {"bm": 1, "bn": 1, "bk": 1},
            "h100/sm_90a/gemm/1x64x64x64/f16": {"bm": 64, "bn": 64, "bk": 64, "stages": 3,
              "threads": 128, "us": 12.5, "heuristic_us": 20, "tried": 7},
            "h100/sm_90a/gemm/1x4096x4096x4096/f16": {"bm": 128, "bn": 256, "bk": 64,
              "stages": 4, "threads": 256, "copy": "tma_ws", "persistent": 132, "group": 16} }"#,
        )
        .unwrap();
        let ws = c["h100/sm_90a/gemm/1x4096x4096x4096/f16"].tuning;
        assert_eq!(
            (ws.copy, ws.persistent, ws.group),
            (Some(CopyKind::TmaWs), 132, 16)
        );
        assert_eq!(
            c["h100/gemm/64x64x32"].tuning,
            Tuning {
                bm: 32,
                bn: 64,
                bk: 16,
                stages: 4,
                threads: 64,
                ..Tuning::default()
            }
        );
        assert_eq!(c["mi300/gemm/1x1x1"].tuning.stages, 1);
        assert_eq!(c["mi300/gemm/1x1x1"].tuning.threads, 0);
        let e = c["h100/sm_90a/gemm/1x64x64x64/f16"];
        assert_eq!(
            (e.us, e.heuristic_us, e.tried),
            (Some(12.5), Some(20.0), Some(7))
        );
        // What it writes, it reads back.
        assert_eq!(read_cache(&write_cache(&c)).unwrap(), c);
        let err = |text: &str| read_cache(text).unwrap_err();
        assert!(
            err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "threads": -1}}"#).contains("positive")
        );
        assert!(read_cache("{}").unwrap().is_empty());
        assert!(err(r#"{"a/b/c": {"bm": 1, "bn": 1}}"#).contains("entry 'a/b/c': needs"));
        assert!(
            err(r#"{"a/b/c": {"bm": "x", "bn": 1, "bk": 1}}"#).contains("'bm' must be an integer")
        );
        assert!(err(r#"{"a/b/c": {"bq": 1}}"#).contains("unknown field 'bq'"));
        assert!(err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1}} x"#).contains("not a JSON"));
        assert!(
            err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "us": -1}}"#).contains("non-negative")
        );
        assert!(err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 99999999}}"#).contains("out of range"));
        // Another tool's JSON is not a tuning cache.
        assert!(err(r#"[1, 2]"#).contains("expected a JSON object"));
        assert!(err(r#"{"version": 2}"#).contains("entry 'version': not a tuning key"));
        assert!(err(r#"{"a/b/c": [64]}"#).contains("expected an object"));
        // Ring copies by name; persistent kernels warp-specialised.
        let bad_copy = err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "copy": "dma"}}"#);
        assert!(bad_copy.contains("entry 'a/b/c': 'copy' must be one of cp_async, tma"));
        let lone = err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "persistent": 132}}"#);
        assert!(lone.contains("'persistent' needs"), "{lone}");
        let neg = r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "copy": "tma_ws", "persistent": -1}}"#;
        assert!(err(neg).contains("block count"));
        let group = err(r#"{"a/b/c": {"bm": 1, "bn": 1, "bk": 1, "group": -1}}"#);
        assert!(group.contains("entry 'a/b/c': 'group' must be a number of tiles"));
    }

    #[test]
    fn sparse_gemms_have_their_own_key_and_whole_k32_steps() {
        let sig: Signature = "sparse_gemm/0x4096x4096x4096/f16".parse().unwrap();
        let dense: Signature = "gemm/0x4096x4096x4096/f16".parse().unwrap();
        assert_ne!(sig.key("h100", "sm_90a"), dense.key("h100", "sm_90a"));
        assert_ne!(sig.legacy_key("h100"), dense.legacy_key("h100"));
        // mma.sync's blocks (no wgmma: sparse tensor cores are mma.sp's).
        let t = sig.heuristic("h100", true);
        assert_eq!(t, sig.heuristic("h100", false));
        assert_eq!(t.bk % 32, 0, "{t:?}");
        let small: Signature = "sparse_gemm/0x64x64x64/f16".parse().unwrap();
        assert_eq!(small.heuristic("h100", false).bk % 32, 0);
        assert!(sig.candidates("h100", true).iter().all(|c| c.bk % 32 == 0));
    }

    #[test]
    fn signatures_print_and_parse_back() {
        for s in [
            "gemm/1x4096x768x768/f16",
            "gemm/0x4096x2304x768/bf16/x3",
            "gemm/0x4096x256x768/f16xf32/rows",
            "conv/0x100352x64x576/f16",
            "sparse_gemm/0x4096x4096x4096/f16",
            "gemm_chain/64x64x64x32/f32",
            "attention/96x512x512x64x64/f16",
            "attention/128x1024x1024x64x64/bf16/causal",
        ] {
            let sig: Signature = s.parse().unwrap();
            assert_eq!(sig.to_string(), s);
        }
        let att: Signature = "attention/32x2048x2048x128x128/f16/causal".parse().unwrap();
        assert_eq!(
            att.template,
            Template::Attention {
                dv: 128,
                causal: true
            }
        );
        assert_eq!((att.batch, att.m, att.n, att.k), (32, 2048, 2048, 128));
        assert_eq!(att.legacy_key("h100"), "h100/attention/2048x2048x128");
        let sig: Signature = "gemm/2x64x32x16/f16/x2/rows".parse().unwrap();
        assert_eq!((sig.batch, sig.m, sig.n, sig.k), (2, 64, 32, 16));
        assert_eq!((sig.siblings, sig.rows), (2, true));
        assert_eq!(
            sig.key("h100", "sm_90a"),
            "h100/sm_90a/gemm/2x64x32x16/f16/x2/rows"
        );
        assert_eq!(sig.legacy_key("h100"), "h100/gemm/64x32x16");
        for bad in [
            "gemm/1x2x3/f16",
            "gemm/1x2x3x4",
            "mlp/1x2x3x4/f16",
            "gemm/1x2x3x4/f16/x1",
            "gemm/1x2x3x4/f16/rows/rows",
            "gemm/1x-2x3x4/f16",
            "gemm/1x2x3x4/f 16",
            "attention/1x2x3x4/f16",
            "attention/1x2x3x4x5/f16/causal/causal",
            "gemm/1x2x3x4/f16/causal",
        ] {
            assert!(bad.parse::<Signature>().is_err(), "{bad}");
        }
    }

    #[test]
    fn candidates_start_with_the_heuristic_and_fit_the_problem() {
        let sig: Signature = "gemm/0x4096x768x768/f16".parse().unwrap();
        for (target, wgmma) in [
            ("h100", true),
            ("h100", false),
            ("mi300", false),
            ("cpu", false),
        ] {
            let c = sig.candidates(target, wgmma);
            assert_eq!(c[0], sig.heuristic(target, wgmma), "{target}");
            assert!(c.len() > 8, "{target}: {}", c.len());
            for (i, t) in c.iter().enumerate() {
                assert!(!c[..i].contains(t), "{target}: {t:?} twice");
                assert!(2 * (t.bm + t.bn) * t.bk * t.stages <= HOPPER_SHARED || target != "h100");
            }
        }
        // Warpgroup tiles: whole warpgroups of 64 rows, K steps of 64, an
        // accumulator the registers hold (no 256 x 256 of 512 threads).
        // (Or, of two consumer groups taking turns, 128 rows a warpgroup.)
        for t in &sig.candidates("h100", true)[1..] {
            assert_eq!(t.bk, 64);
            let two_blocks = t.consumers == 2 && (t.bm, t.bn, t.threads) == (128, 128, 128);
            assert!(t.threads == 2 * t.bm || two_blocks, "{t:?}");
            assert!(registers_fit(t), "{t:?}");
        }
        assert!(
            !sig.candidates("h100", true)
                .iter()
                .any(|t| (t.bm, t.bn) == (256, 256))
        );
        // More than a wave of tiles: the heuristic groups them, and the
        // plain order is a candidate too.
        let big: Signature = "gemm/0x8192x8192x8192/f16".parse().unwrap();
        let c = big.candidates("h100", true);
        assert_eq!(c[0].group, 16);
        assert!(c.contains(&Tuning { group: 0, ..c[0] }));
        // Every other tile runs grouped too (by its own shape's group).
        assert_eq!(c.iter().filter(|t| t.group == 0).count(), 1);
        assert!(c.iter().any(|t| (t.bm, t.bn, t.group) == (256, 128, 8)));
        assert!(
            sig.candidates("h100", true)
                .iter()
                .any(|t| (t.bm, t.bn) == (256, 128))
        );
        // The heuristic's tiles warp-specialised, persistent or not, on
        // wgmma only.
        let c = sig.candidates("h100", true);
        for persistent in [0, H100_SMS] {
            let ws = Tuning {
                copy: Some(CopyKind::TmaWs),
                persistent,
                ..c[0]
            };
            assert!(c.contains(&ws), "{ws:?}");
        }
        let plain = sig.candidates("h100", false);
        assert!(plain.iter().all(|t| t.copy.is_none() && t.persistent == 0));
        // A small problem gets no tiles larger than it.
        let small: Signature = "gemm/0x32x16x8/f32".parse().unwrap();
        for t in small.candidates("cpu", false) {
            assert!(t.bm <= 32 && t.bn <= 16 && t.bk <= 8, "{t:?}");
        }
        // A block holding whole rows keeps them.
        let rows: Signature = "gemm/0x512x96x64/f16/rows".parse().unwrap();
        assert!(rows.candidates("h100", true).iter().all(|t| t.bn == 96));
    }

    #[test]
    fn attention_tiles_follow_the_keys_and_candidates_fit_a_block() {
        let bert: Signature = "attention/96x512x512x64x64/f16".parse().unwrap();
        let gpt2: Signature = "attention/128x1024x1024x64x64/f16/causal".parse().unwrap();
        let llama: Signature = "attention/32x2048x2048x128x128/f16/causal".parse().unwrap();
        let t = |bm, bn, stages, threads| Tuning {
            bm,
            bn,
            bk: 32,
            stages,
            threads,
            ..Tuning::default()
        };
        // Hopper: one warpgroup over at most 512 keys, two over more.
        assert_eq!(bert.heuristic("h100", true), t(64, 128, 2, 128));
        assert_eq!(gpt2.heuristic("h100", true), t(128, 64, 2, 256));
        assert_eq!(llama.heuristic("h100", true), t(128, 128, 2, 256));
        // Long sequences: warp-specialised in 3 stages (head dims up to
        // 128, whole key blocks), 4 at head dim 64, causal or not.
        let ws = |bm, bn| Tuning {
            copy: Some(CopyKind::TmaWs),
            ..t(bm, bn, 3, 256)
        };
        let ws4 = |bm, bn| Tuning {
            stages: 4,
            ..ws(bm, bn)
        };
        // Head dim 64 without a mask: three warpgroups, 192 queries.
        let ws4_192 = Tuning {
            bm: 192,
            threads: 384,
            ..ws4(128, 128)
        };
        for (sig, want) in [
            ("attention/64x4096x4096x64x64/f16", Some(ws4_192)),
            ("attention/64x4096x4096x128x128/f16", Some(ws(128, 128))),
            ("attention/64x8192x8192x128x128/f16", Some(ws(128, 128))),
            (
                "attention/64x4096x4096x128x128/f16/causal",
                Some(ws(128, 128)),
            ),
            (
                "attention/64x4096x4096x64x64/f16/causal",
                Some(ws4(128, 128)),
            ),
            ("attention/64x4096x4000x64x64/f16/causal", None),
            ("attention/64x4096x4000x128x128/f16", None),
            ("attention/64x2048x2048x128x128/f16", None),
            ("attention/16x4096x4096x256x256/f16", None),
        ] {
            let s: Signature = sig.parse().unwrap();
            let h = s.heuristic("h100", true);
            match want {
                Some(w) => assert_eq!(h, w, "{sig}"),
                None => assert_eq!(h.copy, None, "{sig}: {h:?}"),
            }
            assert_eq!(s.heuristic("h100", false).copy, None, "{sig}");
            assert_eq!(s.heuristic("mi300", true).copy, None, "{sig}");
        }
        // mma.sync: 128 queries, 128 keys a step at head dim 64.
        assert_eq!(bert.heuristic("h100", false), t(128, 128, 2, 0));
        assert_eq!(llama.heuristic("h100", false).bn, 64);
        for sig in [&bert, &gpt2, &llama] {
            let Template::Attention { dv, .. } = sig.template else {
                unreachable!()
            };
            for wgmma in [true, false] {
                let c = sig.candidates("h100", wgmma);
                assert_eq!(c[0], sig.heuristic("h100", wgmma));
                assert!(c.len() >= 6, "{sig}: {c:?}");
                for x in &c {
                    let shared = 2 * (x.bm * sig.k + x.stages * x.bn * (sig.k + dv));
                    assert!(shared <= HOPPER_SHARED, "{sig}: {x:?}");
                    assert!([64, 128, 192].contains(&x.bm) && [64, 128].contains(&x.bn));
                    // Hopper's blocks are whole warpgroups of 64 queries;
                    // three of them warp-specialised only, within the 160
                    // registers a consumer then gets.
                    assert_eq!(x.threads, if wgmma { 2 * x.bm } else { 0 }, "{x:?}");
                    if x.bm == 192 {
                        assert!(x.copy.is_some() && x.bn / 2 + x.bn / 4 + dv / 2 + 32 <= 160);
                    }
                    // Warp-specialised: wgmma, three or four stages, whole
                    // key blocks; never persistent. cp.async: two or three.
                    if x.copy.is_some() {
                        let stages = (3..=4).contains(&x.stages);
                        assert!(wgmma && stages && sig.n % x.bn == 0, "{x:?}");
                        assert_eq!(x.copy, Some(CopyKind::TmaWs));
                    } else {
                        assert!((2..=3).contains(&x.stages), "{x:?}");
                    }
                    assert_eq!(x.persistent, 0);
                }
                assert_eq!(c.iter().any(|x| x.copy.is_some()), wgmma, "{sig}");
            }
        }
        // Elsewhere the target's blocks, none larger than the problem.
        let small: Signature = "attention/4x48x40x16x16/f32".parse().unwrap();
        let c = small.candidates("cpu", false);
        assert_eq!(c[0], small.heuristic("cpu", false));
        assert!(c.len() > 1 && c.iter().all(|x| x.bm <= 64 && x.bn <= 64));
    }

    #[test]
    fn neuroncore_candidates_keep_to_the_matmul_limits() {
        // Rows at most the stationary free size (128), columns the moving
        // one's (512), depth the partitions (128); the heuristic first.
        let sig: Signature = "gemm/0x4096x4096x1024/bf16".parse().unwrap();
        let c = sig.candidates("trn1", false);
        assert_eq!(c[0], sig.heuristic("trn1", false));
        assert_eq!((c[0].bm, c[0].bn, c[0].bk), (128, 512, 128));
        assert!(c.len() >= 24, "{}", c.len());
        for t in &c {
            assert!(t.bm <= 128 && t.bn <= 512 && t.bk <= 128, "{t:?}");
            assert!(t.bn >= 128 && (1..=2).contains(&t.stages), "{t:?}");
        }
        // Smaller problems, smaller tiles.
        let small: Signature = "gemm/0x4x32x16/f32".parse().unwrap();
        for t in small.candidates("trn1", false) {
            assert!(t.bm <= 4 && t.bn <= 32 && t.bk <= 16, "{t:?}");
        }
    }

    #[test]
    fn wgmma_columns_fill_the_last_wave() {
        // BERT's projections: one wave of 128 x 192 blocks.
        assert_eq!(wave_columns(4096, 768), 192);
        // Its FFN: 384 blocks of 256 columns fill 2.9 waves, as well as
        // narrower ones would.
        assert_eq!(wave_columns(4096, 3072), 256);
        assert_eq!(wave_columns(4096, 320), 128);
        assert_eq!(wave_columns(8192, 8192), 256);
    }

    #[test]
    fn gemms_of_a_few_rows_take_long_k_steps_on_h100() {
        // SD's time embedding: 2 rows, K of 1280.
        let temb: Signature = "gemm/0x2x320x1280/f16".parse().unwrap();
        let t = temb.heuristic("h100", true);
        assert_eq!((t.bm, t.bn, t.bk, t.stages), (16, 32, 256, 2));
        let c = temb.candidates("h100", true);
        assert!(c.len() > 8, "{c:?}");
        assert!(c.iter().all(|t| t.bm == 16 && t.bk >= 64 && t.bn <= 64));
        // Not for short K, f32, other targets or many rows.
        for (sig, target) in [
            ("gemm/0x2x320x256/f16", "h100"),
            ("gemm/0x2x320x1280/f32", "h100"),
            ("gemm/0x2x320x1280/f16", "mi300"),
            ("gemm/0x64x320x1280/f16", "h100"),
        ] {
            let s: Signature = sig.parse().unwrap();
            assert!(s.tiny_m(target, true).is_none(), "{sig} on {target}");
        }
    }

    #[test]
    fn heuristics_fit_the_problem() {
        assert_eq!(
            Tuning::heuristic("h100", 4096, 4096, 4096),
            Tuning {
                bm: 64,
                bn: 64,
                bk: 32,
                stages: 3,
                threads: 0,
                ..Tuning::default()
            }
        );
        let small = Tuning::heuristic("h100", 5, 1, 3);
        assert_eq!((small.bm, small.bn, small.bk), (8, 1, 4));
        assert_eq!(Tuning::heuristic("mi300", 999, 999, 999).bk, 16);
    }

    #[test]
    fn f16_gemms_take_larger_tiles_on_h100_when_the_grid_stays_full() {
        let t = Tuning::heuristic_f16_gemm("h100", 1, 4096, 4096, 1024);
        assert_eq!(
            (t.bm, t.bn, t.bk, t.stages, t.threads),
            (128, 256, 64, 3, 256)
        );
        let t = Tuning::heuristic_f16_gemm("h100", 1, 2048, 4096, 1024);
        assert_eq!((t.bm, t.bn, t.bk, t.threads), (128, 128, 32, 0));
        let small = Tuning::heuristic_f16_gemm("h100", 1, 1024, 1024, 1024);
        assert_eq!((small.bm, small.bn, small.threads), (64, 64, 0));
        let batched = Tuning::heuristic_f16_gemm("h100", 16, 1024, 1024, 1024);
        assert_eq!((batched.bm, batched.bn), (128, 256));
        let shallow = Tuning::heuristic_f16_gemm("h100", 1, 4096, 4096, 40);
        assert_eq!((shallow.bn, shallow.bk), (256, 64));
        assert_eq!(
            Tuning::heuristic_f16_gemm("cpu", 1, 4096, 4096, 4096),
            Tuning::heuristic("cpu", 4096, 4096, 4096)
        );
    }

    #[test]
    fn wgmma_tiles_are_128_rows_as_wide_as_the_last_wave_allows() {
        let t = |m, n| {
            let t = Tuning::heuristic_wgmma("h100", 0, m, n, 768);
            (t.bm, t.bn, t.bk, t.stages, t.threads)
        };
        // BERT's 4096 x 768: 128 blocks of 192 columns, one wave, in 5
        // stages (4 fill the shared memory at 256 columns).
        assert_eq!(t(4096, 768), (128, 192, 64, 5, 256));
        // 384 blocks: persistent, in 3 stages (see below).
        assert_eq!(t(4096, 3072), (128, 256, 64, 3, 256));
        assert_eq!(t(4096, 192), (128, 128, 64, 5, 256));
        // Fewer rows: one warpgroup's 64, as wide as fills the SMs (below
        // 9 rows, mma.sync's tiles).
        assert_eq!(t(64, 768), (64, 32, 64, 8, 128));
        assert_eq!(t(100, 768), (64, 32, 64, 8, 128));
        assert_eq!(t(16, 4096), (64, 32, 64, 8, 128));
        assert_eq!(t(64, 8192), (64, 64, 64, 6, 128));
        assert_eq!(t(64, 16384), (64, 128, 64, 5, 128));
        let small = Tuning::heuristic_f16_gemm("h100", 0, 8, 768, 768).for_wgmma(768);
        assert_eq!(Tuning::heuristic_wgmma("h100", 0, 8, 768, 768), small);
        // 8 rows or fewer too where 64 x 32 tiles fill the SMs (a decode
        // step of one token by a 4096 x 4096 weight), in place of the
        // matrix-vector tiles.
        assert_eq!(t(1, 4096), (64, 32, 64, 8, 128));
        let one: Signature = "gemm/0x1x4096x4096/f16".parse().unwrap();
        assert!(one.tiny_m("h100", true).is_none() && one.tiny_m("h100", false).is_some());
        assert_eq!(one.heuristic("h100", true).bm, 64);
        let sig: Signature = "gemm/0x4096x768x768/f16".parse().unwrap();
        assert_eq!(
            sig.heuristic("h100", true),
            Tuning::heuristic_wgmma("h100", 0, 4096, 768, 768)
        );
    }

    #[test]
    fn warpgroup_tiles_whose_accumulator_the_registers_cannot_hold_are_errors() {
        let cache = read_cache(
            r#"{"h100/sm_90a/gemm/0x8192x8192x8192/f16": {"bm": 192, "bn": 256, "bk": 64, "stages": 3, "threads": 384},
                "h100/sm_90a/gemm/0x4096x4096x4096/f16": {"bm": 192, "bn": 128, "bk": 64, "stages": 4, "threads": 384}}"#,
        )
        .unwrap();
        let tuner = |wgmma| Tuner {
            target: "h100",
            arch: "sm_90a",
            wgmma,
            cache: &cache,
        };
        let e = tuner(true).check().unwrap_err();
        assert!(
            e.starts_with("entry 'h100/sm_90a/gemm/0x8192x8192x8192/f16': a 192 x 256 warpgroup tile of 384 threads needs about 176 registers a thread"),
            "{e}"
        );
        assert!(
            e.ends_with("more than the 170 a block of 384 threads leaves each"),
            "{e}"
        );
        // Without wgmma (mma.sync's tiles) the entries are not warpgroups';
        // another arch's entries are not this compile's.
        assert!(tuner(false).check().is_ok());
        let other = Tuner {
            arch: "sm_90",
            ..tuner(true)
        };
        assert!(other.check().is_ok());
    }

    #[test]
    fn wgmma_tiles_take_groups_where_more_than_a_wave_runs() {
        let g = |m, n, k| Tuning::heuristic_wgmma("h100", 0, m, n, k).group;
        // One wave (BERT's 4096 x 768: 128 blocks): no group.
        assert_eq!(g(4096, 768, 768), 0);
        // 8192 x 8192 in 128 x 256 blocks: 64 rows of tiles, 2048 blocks;
        // 16 rows by the 8 columns that fill a wave read the fewest bytes.
        assert_eq!(g(8192, 8192, 8192), 16);
        // Where A stays in L2 (31 MiB), the plain order.
        assert_eq!(g(3840, 4096, 4096), 0);
        assert_eq!(g(4096, 4096, 1024), 0);
    }

    #[test]
    fn gemms_leaving_half_the_sms_idle_split_their_long_k_loops() {
        // As many slices as fill a wave, each at least 512 long.
        assert_eq!(split_k(64, 16384, 64), 2);
        assert_eq!(split_k(32, 16384, 64), 4);
        assert_eq!(split_k(32, 2048, 64), 4);
        assert_eq!(split_k(1, 1 << 20, 64), MAX_SPLIT);
        // Not where half the SMs are busy, nor a K loop under 2048, nor
        // slices that are not whole K steps.
        assert_eq!(split_k(67, 16384, 64), 0);
        assert_eq!(split_k(4, 1024, 64), 0);
        assert_eq!(split_k(32, 2048 + 64, 64), 0);
        let sig = |s: &str| s.parse::<Signature>().unwrap();
        let t = sig("gemm/0x1024x1024x16384/f16").heuristic("h100", true);
        assert_eq!((t.bm, t.bn, t.split), (128, 256, 4));
        // Not where the unsplit heuristic's 128 x 128 tiles fill a wave.
        let t = sig("gemm/0x2048x1024x4096/f16").heuristic("h100", true);
        assert_eq!((t.bm, t.bn, t.split), (128, 128, 0));
        // A few rows take narrow tiles first (128 of 64 x 32 fill the
        // SMs: no slices), and slices where even those leave SMs idle.
        let t = sig("gemm/0x64x4096x4096/f16").heuristic("h100", true);
        assert_eq!((t.bm, t.bn, t.threads, t.split), (64, 32, 128, 0));
        let t = sig("gemm/0x64x1024x8192/f16").heuristic("h100", true);
        assert_eq!((t.bm, t.bn, t.threads, t.split), (64, 32, 128, 4));
        // Batched, sibling and integer GEMMs, and other targets, never.
        for s in [
            "gemm/2x1024x1024x16384/f16",
            "gemm/0x1024x1024x16384/f16/x2",
            "gemm/0x1024x1024x16384/i8",
        ] {
            assert_eq!(sig(s).heuristic("h100", true).split, 0, "{s}");
        }
        assert_eq!(
            sig("gemm/0x1024x1024x16384/f16")
                .heuristic("mi300", false)
                .split,
            0
        );
        // A split must cut K into whole steps of a single, unbatched GEMM.
        let t = Tuning {
            split: 3,
            ..sig("gemm/0x1024x1024x16384/f16").heuristic("h100", true)
        };
        let e = sig("gemm/0x1024x1024x16384/f16")
            .split_fits(&t)
            .unwrap_err();
        assert!(e.contains("not 3 slices of whole K steps of 64"), "{e}");
        let e = sig("gemm/2x64x64x4096/f16")
            .split_fits(&Tuning { split: 2, ..t })
            .unwrap_err();
        assert!(e.contains("not batched"), "{e}");
        let e = sig("gemm/0x64x64x4096/i8")
            .split_fits(&Tuning { split: 2, ..t })
            .unwrap_err();
        assert!(e.contains("integer"), "{e}");
        // The cache holds it; aic-tune offers the heuristic's tiles with
        // and without slices.
        let text = r#"{"h100/sm_90a/gemm/0x64x4096x4096/f16": {"bm": 64, "bn": 128, "bk": 64, "stages": 5, "threads": 128, "split": 4}}"#;
        let cache = read_cache(text).unwrap();
        assert_eq!(cache["h100/sm_90a/gemm/0x64x4096x4096/f16"].tuning.split, 4);
        assert_eq!(read_cache(&write_cache(&cache)).unwrap(), cache);
        let c = sig("gemm/0x1024x1024x16384/f16").candidates("h100", true);
        assert_eq!(c[0].split, 4);
        assert!(c.contains(&Tuning { split: 0, ..c[0] }));
        assert!(c.contains(&Tuning { split: 8, ..c[0] }));
        assert!(c.iter().all(|t| t.split <= 1 || 16384 / t.split >= 256));
    }

    #[test]
    fn short_k_wgmma_gemms_over_two_and_a_half_waves_are_persistent() {
        let t = |m, n, k| {
            let t = Tuning::heuristic_wgmma("h100", 0, m, n, k);
            (t.stages, t.copy, t.persistent)
        };
        let ws = (3, Some(CopyKind::TmaWs), 132);
        let plain = (4, None, 0);
        assert_eq!(t(4096, 4096, 1024), ws);
        // 384 tiles, 2.9 waves.
        assert_eq!(t(4096, 3072, 768), ws);
        // Fewer than two and a half waves: GPT-2's 8192 x 1024 x 1024
        // (256 tiles), ViT's 6304 x 768 x 768 (200).
        assert_eq!(t(8192, 1024, 1024), plain);
        // (192 columns wide: 5 stages.)
        let narrow = (5, None, 0);
        assert_eq!(t(6304, 768, 768), narrow);
        // A long K loop, or one wave of tiles (BERT's 4096 x 768): not.
        assert_eq!(t(3840, 4096, 4096), plain);
        assert_eq!(t(4096, 768, 768), narrow);
        // fp8's K steps of 128 keep cp.async.
        let f8 = Tuning::heuristic_wgmma_fp8("h100", 0, 4096, 4096, 1024);
        assert_eq!((f8.stages, f8.copy, f8.persistent), plain);
        // aic-tune still measures the cp.async form.
        let sig: Signature = "gemm/0x4096x4096x1024/f16".parse().unwrap();
        let c = sig.candidates("h100", true);
        let coop = Tuning::heuristic_wgmma("h100", 0, 4096, 4096, 1024);
        assert!(c.contains(&Tuning {
            copy: None,
            persistent: 0,
            stages: 4,
            ..coop
        }));
        assert_eq!(l2_group(132, 128, 256), 0);
        assert_eq!(l2_group(133, 128, 128), 16);
        assert_eq!(l2_group(1000, 256, 64), 8);
    }

    #[test]
    fn short_k_gemms_of_two_tiles_an_sm_take_turns() {
        let pick = |key: &str| {
            let sig: Signature = key.parse().unwrap();
            sig.heuristic("h100", true)
        };
        // 64 x 256 tiles, two consumer warpgroups taking turns, persistent.
        let turns = |t: Tuning| {
            (
                t.bm,
                t.bn,
                t.stages,
                t.threads,
                t.copy,
                t.persistent,
                t.consumers,
            ) == (64, 256, 4, 128, Some(CopyKind::TmaWs), 132, 2)
        };
        for key in [
            "gemm/0x4096x4096x1024/f16",
            "gemm/0x4096x3072x768/bf16",
            "gemm/0x8192x1024x1024/f16",
            "gemm/0x6304x768x768/f16",
        ] {
            assert!(turns(pick(key)), "{key}: {:?}", pick(key));
        }
        // Fewer than two tiles an SM (192 of BERT's), or a long K: not.
        for key in [
            "gemm/0x4096x768x768/f16",
            "gemm/0x4096x768x3072/f16",
            "gemm/0x3840x4096x4096/f16",
        ] {
            assert_eq!(pick(key).consumers, 0, "{key}");
        }
        assert!(Tuning::ping_pong("mi300", 0, 4096, 4096, 1024).is_none());
        assert!(Tuning::ping_pong("h100", 32, 2048, 2048, 128).is_none());
        // Candidates: the cooperative tiles, and the groups' own.
        let sig: Signature = "gemm/0x4096x4096x1024/f16".parse().unwrap();
        let c = sig.candidates("h100", true);
        assert!(turns(c[0]));
        assert!(c.contains(&Tuning::heuristic_wgmma("h100", 0, 4096, 4096, 1024)));
        let own: Vec<(i64, i64)> = c
            .iter()
            .filter(|t| t.consumers == 2)
            .map(|t| (t.bm, t.bn))
            .collect();
        assert_eq!(own, [(64, 256), (64, 192), (64, 128), (128, 128)]);
        // Only a GEMM's without a row normalisation, not split.
        let t = c[0];
        assert!(sig.consumers_fit(&t).is_ok());
        let rows: Signature = "gemm/0x4096x1024x1024/f16/rows".parse().unwrap();
        assert!(rows.consumers_fit(&t).is_err());
        assert!(sig.consumers_fit(&Tuning { split: 2, ..t }).is_err());
    }

    #[test]
    fn wgmma_tiles_are_two_warpgroups_of_64_rows() {
        let big = Tuning::heuristic_f16_gemm("h100", 1, 4096, 4096, 1024).for_wgmma(1024);
        assert_eq!(
            (big.bm, big.bn, big.bk, big.stages, big.threads),
            (128, 256, 64, 4, 256)
        );
        let mid = Tuning::heuristic_f16_gemm("h100", 1, 2048, 4096, 1024).for_wgmma(1024);
        assert_eq!((mid.bm, mid.bn, mid.bk, mid.threads), (128, 128, 64, 256));
        let small = Tuning::heuristic_f16_gemm("h100", 1, 64, 64, 64);
        assert_eq!(small.for_wgmma(64), small);
    }
}
