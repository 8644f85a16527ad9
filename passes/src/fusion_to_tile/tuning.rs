//! Tile sizes and pipelining: per-target heuristics, and the JSON tuning
//! cache an autotuner fills.

/// Tunings by key (`target/template/shape`), from a JSON tuning cache.
pub type Cache = std::collections::HashMap<String, Tuning>;

/// Read a tuning cache: a JSON object from keys such as `h100/gemm/64x64x32`
/// to objects with integer `bm`, `bn`, `bk`, and optionally `stages` and
/// `threads` (the autotuner's output). Errors say where the text is wrong.
pub fn read_cache(text: &str) -> Result<Cache, String> {
    let mut r = Json {
        s: text.as_bytes(),
        at: 0,
    };
    let mut out = Cache::new();
    r.expect(b'{')?;
    if r.eat(b'}') {
        return Ok(out);
    }
    loop {
        let key = r.string()?;
        r.expect(b':')?;
        r.expect(b'{')?;
        let (mut bm, mut bn, mut bk, mut stages, mut threads) =
            (None, None, None, Some(1), Some(0));
        if !r.eat(b'}') {
            loop {
                let f = r.string()?;
                r.expect(b':')?;
                let v = r.int()?;
                match f.as_str() {
                    "bm" => bm = Some(v),
                    "bn" => bn = Some(v),
                    "bk" => bk = Some(v),
                    "stages" => stages = Some(v),
                    "threads" => threads = Some(v),
                    other => return Err(format!("{key}: unknown field '{other}'")),
                }
                if r.eat(b'}') {
                    break;
                }
                r.expect(b',')?;
            }
        }
        let (Some(bm), Some(bn), Some(bk), Some(stages), Some(threads)) =
            (bm, bn, bk, stages, threads)
        else {
            return Err(format!("{key}: needs bm, bn and bk"));
        };
        if [bm, bn, bk, stages].iter().any(|v| *v < 1) || threads < 0 {
            return Err(format!("{key}: sizes must be positive"));
        }
        out.insert(
            key,
            Tuning {
                bm,
                bn,
                bk,
                stages,
                threads,
            },
        );
        if r.eat(b'}') {
            break;
        }
        r.expect(b',')?;
    }
    r.ws();
    if r.at != r.s.len() {
        return Err(format!("unexpected text at byte {}", r.at));
    }
    Ok(out)
}

/// A reader for the small JSON subset of tuning caches.
pub(super) struct Json<'a> {
    s: &'a [u8],
    at: usize,
}

impl Json<'_> {
    pub(super) fn ws(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }
    pub(super) fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", c as char, self.at))
        }
    }
    pub(super) fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let start = self.at;
        while self.s.get(self.at).is_some_and(|c| *c != b'"') {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).map_err(|e| e.to_string())?;
        self.expect(b'"')?;
        Ok(text.to_string())
    }
    pub(super) fn int(&mut self) -> Result<i64, String> {
        self.ws();
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'-')
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.s[start..self.at])
            .ok()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("expected an integer at byte {start}"))
    }
}

/// Tile sizes and pipelining of a GEMM kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
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
}

impl Tuning {
    /// The built-in choice for `target` and an M x N x K problem: the
    /// target's preferred block, shrunk (to powers of two) where the
    /// problem is smaller.
    pub fn heuristic(target: &str, m: i64, n: i64, k: i64) -> Tuning {
        let (bm, bn, bk, stages) = match target {
            "mi300" => (64, 64, 16, 2),
            "trn1" => (128, 128, 32, 2),
            "cpu" => (32, 32, 32, 1),
            _ => (64, 64, 32, 3),
        };
        Tuning {
            bm: fit(bm, m),
            bn: fit(bn, n),
            bk: fit(bk, k),
            stages,
            threads: 0,
        }
    }
}

/// Block size `b` along a dim of `d`, shrunk to a power of two where the
/// dim is smaller.
fn fit(b: i64, d: i64) -> i64 {
    b.min((d.max(1) as u64).next_power_of_two() as i64).max(1)
}

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
            "mi300/gemm/1x1x1": {"bm": 1, "bn": 1, "bk": 1} }"#,
        )
        .unwrap();
        assert_eq!(
            c["h100/gemm/64x64x32"],
            Tuning {
                bm: 32,
                bn: 64,
                bk: 16,
                stages: 4,
                threads: 64
            }
        );
        assert_eq!(c["mi300/gemm/1x1x1"].stages, 1);
        assert_eq!(c["mi300/gemm/1x1x1"].threads, 0);
        assert!(
            read_cache(r#"{"k": {"bm": 1, "bn": 1, "bk": 1, "threads": -1}}"#)
                .unwrap_err()
                .contains("positive")
        );
        assert!(read_cache("{}").unwrap().is_empty());
        assert!(
            read_cache(r#"{"k": {"bm": 1, "bn": 1}}"#)
                .unwrap_err()
                .contains("needs")
        );
        assert!(
            read_cache(r#"{"k": {"bm": x}}"#)
                .unwrap_err()
                .contains("integer")
        );
        assert!(
            read_cache(r#"{"k": {"bq": 1}}"#)
                .unwrap_err()
                .contains("unknown field")
        );
        assert!(
            read_cache(r#"{"k": {"bm": 1, "bn": 1, "bk": 1}} x"#)
                .unwrap_err()
                .contains("unexpected")
        );
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
                threads: 0
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
