//! `aic-tune`'s work: which kernels of a module to tune, their candidate tile
//! sizes, rounds of candidates compiled together, timing each round's kernels,
//! and the tuning cache that keeps the fastest.
//!
//! A round sets one candidate for every kernel signature still being tuned
//! (round 0 is the built-in heuristic's choice for all), so one compile and one
//! timed run measure a candidate of every kernel at once; the per-launch times
//! of `--bench` say which kernel took how long. Kernels of one signature (the
//! twelve layers of an encoder) share their candidate and their time is
//! summed.
//!
//! Compiling needs LLVM and timing needs the target, which need not be one
//! machine: [`Rounds`] is what the compiling side writes beside the round
//! bundles (`rounds.json`) and the timing side reads. Nothing here links LLVM
//! but the host target's rounds ([`host`]).

use aic_dialects::tile::CopyKind;
use aic_passes::fusion_to_tile::{Cache, Entry, Signature, Tuning};
use aic_runtime::{Bundle, FuncPlan, KernelInfo, Plan};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of `rounds.json` this code writes and reads.
pub const ROUNDS_VERSION: u32 = 5;

/// What the compiling side decided: the kernels being tuned and their
/// candidates, and what each round's bundle sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rounds {
    /// [`ROUNDS_VERSION`].
    pub version: u32,
    /// fusion-to-tile's target (`h100`, `cpu`, ...).
    pub target: String,
    /// The architecture (`sm_90a`, `native`, ...).
    pub arch: String,
    /// The host function timed.
    pub entry: String,
    /// By tuning-cache key: the kernel's candidates and what became of them.
    pub keys: BTreeMap<String, Tuned>,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
}

/// One kernel signature being tuned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// Its candidates ([`Packed`]), the heuristic's first.
    pub candidates: Vec<Packed>,
    /// How many kernels of the module have this key.
    pub kernels: usize,
    /// Candidates that failed to compile or run, by index, with why.
    #[serde(default)]
    pub failed: BTreeMap<usize, String>,
    /// Each measured candidate's time in microseconds (summed over the
    /// key's kernels), by index.
    #[serde(default)]
    pub us: BTreeMap<usize, f64>,
}

/// One round: the candidate (an index into [`Tuned::candidates`]) each key
/// takes, and the bundle compiled with them (a file name beside
/// `rounds.json`; none where the round did not compile).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub picks: BTreeMap<String, usize>,
    pub bundle: Option<String>,
}

/// A candidate as `rounds.json` holds it: `[bm, bn, bk, stages, threads,
/// copy, persistent, group, split, consumers]`, `copy` 0 for none
/// (tile-to-gpu's option) or one more than the ring copy's place in
/// [`CopyKind::KEYWORDS`].
pub type Packed = [i64; 10];

/// A tuning as the [`Packed`] array of `rounds.json`.
pub fn pack(t: Tuning) -> Packed {
    let copy = t
        .copy
        .and_then(|c| CopyKind::KEYWORDS.iter().position(|k| *k == c.keyword()))
        .map_or(0, |i| i as i64 + 1);
    [
        t.bm,
        t.bn,
        t.bk,
        t.stages,
        t.threads,
        copy,
        t.persistent,
        t.group,
        t.split,
        t.consumers,
    ]
}

/// The tuning of a [`Packed`] array.
pub fn unpack(t: Packed) -> Tuning {
    let copy = usize::try_from(t[5] - 1)
        .ok()
        .and_then(|i| CopyKind::KEYWORDS.get(i))
        .and_then(|k| CopyKind::from_keyword(k));
    Tuning {
        bm: t[0],
        bn: t[1],
        bk: t[2],
        stages: t[3],
        threads: t[4],
        copy,
        persistent: t[6],
        group: t[7],
        split: t[8],
        consumers: t[9],
    }
}

/// A candidate as the summary shows it: `bm bn bk stages threads`, then
/// its ring copy, persistent blocks and group where it sets them.
pub fn describe(c: Packed) -> String {
    let t = unpack(c);
    let mut out = format!("{} {} {} {} {}", t.bm, t.bn, t.bk, t.stages, t.threads);
    if let Some(copy) = t.copy {
        out += &format!(" {}", copy.keyword());
    }
    if t.persistent > 0 {
        out += &format!(" persistent {}", t.persistent);
    }
    if t.group > 0 {
        out += &format!(" group {}", t.group);
    }
    if t.split > 1 {
        out += &format!(" split {}", t.split);
    }
    if t.consumers > 1 {
        out += &format!(" consumers {}", t.consumers);
    }
    out
}

/// `key`'s signature: what follows `target/arch/`.
pub fn signature(key: &str) -> Result<Signature, String> {
    let mut parts = key.splitn(3, '/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(_), Some(_), Some(sig)) => sig.parse(),
        _ => Err(format!("'{key}' is not a tuning key")),
    }
}

impl Rounds {
    /// The rounds for a module whose kernels are `kernels` (compiled with the
    /// heuristics or `cache`): every key not in `cache` with a measured time
    /// (every key, with `retune`) gets its candidates for `target` (`wgmma`:
    /// warpgroup-MMA tiles), one a round.
    pub fn new(
        (target, arch, wgmma): (&str, &str, bool),
        entry: &str,
        kernels: &[KernelInfo],
        cache: &Cache,
        retune: bool,
    ) -> Result<Rounds, String> {
        let mut keys: BTreeMap<String, Tuned> = BTreeMap::new();
        for k in kernels {
            let Some(key) = &k.tune else { continue };
            if !retune && cache.get(key).is_some_and(|e| e.us.is_some()) {
                continue;
            }
            if let Some(t) = keys.get_mut(key) {
                t.kernels += 1;
                continue;
            }
            let sig = signature(key).map_err(|e| format!("kernel '{}': {e}", k.name))?;
            keys.insert(
                key.clone(),
                Tuned {
                    candidates: sig
                        .candidates(target, wgmma)
                        .into_iter()
                        .map(pack)
                        .collect(),
                    kernels: 1,
                    failed: BTreeMap::new(),
                    us: BTreeMap::new(),
                },
            );
        }
        let n = keys.values().map(|t| t.candidates.len()).max().unwrap_or(0);
        let rounds = (0..n)
            .map(|r| Round {
                picks: keys
                    .iter()
                    .filter(|(_, t)| r < t.candidates.len())
                    .map(|(k, _)| (k.clone(), r))
                    .collect(),
                bundle: None,
            })
            .collect();
        Ok(Rounds {
            version: ROUNDS_VERSION,
            target: target.into(),
            arch: arch.into(),
            entry: entry.into(),
            keys,
            rounds,
        })
    }

    /// The tuning cache a round compiles with: `base`'s entries, and this
    /// round's picks (leaving out `skip`).
    pub fn cache_for(&self, base: &Cache, picks: &BTreeMap<String, usize>) -> Cache {
        let mut c = base.clone();
        for (key, i) in picks {
            c.insert(
                key.clone(),
                Entry::from(unpack(self.keys[key].candidates[*i])),
            );
        }
        c
    }

    /// Records a round's times: each key's kernels' times summed, in
    /// microseconds, against the candidate the round picked for it.
    pub fn record(&mut self, round: usize, kernels: &[KernelInfo], per_launch_ms: &[f64]) {
        let mut sums: BTreeMap<&str, f64> = BTreeMap::new();
        for (k, ms) in kernels.iter().zip(per_launch_ms) {
            if let Some(key) = &k.tune {
                *sums.entry(key.as_str()).or_default() += ms * 1e3;
            }
        }
        for (key, i) in &self.rounds[round].picks {
            if let (Some(us), Some(t)) = (sums.get(key.as_str()), self.keys.get_mut(key)) {
                t.us.insert(*i, *us);
            }
        }
    }

    /// What round `round` measured, for the progress line: each key's
    /// candidate and its time (`88.7 us for 128 128 64 4 256 split 4`),
    /// the first three keys, then how many more.
    pub fn measured(&self, round: usize) -> String {
        let picks = &self.rounds[round].picks;
        let mut parts: Vec<String> = picks
            .iter()
            .filter_map(|(key, i)| {
                let t = self.keys.get(key)?;
                let us = t.us.get(i)?;
                Some(format!(
                    "{us:.1} us for {}",
                    describe(*t.candidates.get(*i)?)
                ))
            })
            .take(3)
            .collect();
        if picks.len() > 3 {
            parts.push(format!("{} more", picks.len() - 3));
        }
        parts.join("; ")
    }

    /// Records that `key`'s candidate `i` failed, and why.
    pub fn fail(&mut self, key: &str, i: usize, why: &str) {
        if let Some(t) = self.keys.get_mut(key) {
            t.failed.insert(i, why.to_string());
        }
    }

    /// The cache with every tuned key's fastest candidate added to `base`
    /// (with its time, the heuristic's and how many were measured); keys
    /// no candidate of which was measured are left as they were.
    pub fn best(&self, base: &Cache) -> Cache {
        let mut out = base.clone();
        for (key, t) in &self.keys {
            let Some((&i, &us)) = t.us.iter().min_by(|a, b| a.1.total_cmp(b.1)) else {
                continue;
            };
            out.insert(
                key.clone(),
                Entry {
                    tuning: unpack(t.candidates[i]),
                    us: Some(us),
                    heuristic_us: t.us.get(&0).copied(),
                    tried: Some(t.us.len() as i64),
                },
            );
        }
        out
    }

    /// The summary table: per key, its kernels, the heuristic's time, the
    /// best time and tiles, the speed-up, candidates measured and failed.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{:<48} {:>3} {:>12} {:>12} {:>7} {:>6} {:>6}  best tiles (bm bn bk stages threads[ copy][ persistent N][ group N][ split N][ consumers N])\n",
            "kernel signature", "n", "heuristic us", "best us", "speedup", "tried", "failed"
        );
        for (key, t) in &self.keys {
            let best = t.us.iter().min_by(|a, b| a.1.total_cmp(b.1));
            let h = t.us.get(&0).copied();
            let fmt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
            let speedup = match (h, best) {
                (Some(h), Some((_, b))) if *b > 0.0 => format!("{:.2}x", h / b),
                _ => "-".into(),
            };
            let tiles = best.map_or("-".to_string(), |(i, _)| describe(t.candidates[*i]));
            out += &format!(
                "{:<48} {:>3} {:>12} {:>12} {:>7} {:>6} {:>6}  {}\n",
                key,
                t.kernels,
                fmt(h),
                fmt(best.map(|b| *b.1)),
                speedup,
                t.us.len(),
                t.failed.len(),
                tiles
            );
            for (i, why) in &t.failed {
                out += &format!(
                    "    candidate {i} ({}) skipped: {why}\n",
                    describe(t.candidates[*i])
                );
            }
        }
        out
    }

    /// `rounds.json`'s text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("rounds serialise") + "\n"
    }

    /// Reads `rounds.json` (from `path`, which errors name).
    pub fn from_json(path: &str, text: &str) -> Result<Rounds, String> {
        let doc: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| format!("{path}: not aic-tune's rounds: {e}"))?;
        // The version first: an older aic-tune's candidates are shorter.
        let version = doc.get("version").and_then(serde_json::Value::as_u64);
        if let Some(v) = version.filter(|v| *v != u64::from(ROUNDS_VERSION)) {
            return Err(format!(
                "{path}: rounds version {v} (this aic-tune reads {ROUNDS_VERSION})"
            ));
        }
        let r: Rounds = serde_json::from_value(doc)
            .map_err(|e| format!("{path}: not aic-tune's rounds: {e}"))?;
        for (i, round) in r.rounds.iter().enumerate() {
            for (key, c) in &round.picks {
                let ok = r.keys.get(key).is_some_and(|t| *c < t.candidates.len());
                if !ok {
                    return Err(format!(
                        "{path}: round {i} picks candidate {c} of '{key}', which it does not list"
                    ));
                }
            }
        }
        Ok(r)
    }
}

/// What one try of a round (compiling it, and in one go timing it) gives.
pub type Attempt<T> = Result<T, String>;

/// A round's candidate per key: what a try compiles with.
pub type Picks = BTreeMap<String, usize>;

impl Rounds {
    /// Runs `try_picks` on round `r`'s picks; where it fails with several
    /// picks, tries each alone to find the candidates at fault, records
    /// them as failed (the round no longer picks them), and runs the rest
    /// together. Gives what the last successful try gave.
    pub fn isolate<T>(
        &mut self,
        r: usize,
        try_picks: &mut dyn FnMut(&Rounds, &Picks) -> Attempt<T>,
    ) -> Option<T> {
        let picks = self.rounds[r].picks.clone();
        let e = match try_picks(self, &picks) {
            Ok(t) => return Some(t),
            Err(e) => e,
        };
        let mut good = BTreeMap::new();
        for (k, i) in &picks {
            let one: BTreeMap<String, usize> = [(k.clone(), *i)].into();
            let alone = if picks.len() == 1 {
                Err(e.clone())
            } else {
                try_picks(self, &one).map(|_| ())
            };
            match alone {
                Ok(()) => {
                    good.insert(k.clone(), *i);
                }
                Err(e) => self.fail(k, *i, &e),
            }
        }
        self.rounds[r].picks = good.clone();
        if good.is_empty() {
            return None;
        }
        match try_picks(self, &good) {
            Ok(t) => Some(t),
            Err(e) => {
                for (k, i) in &good {
                    self.fail(k, *i, &format!("with the round's other candidates: {e}"));
                }
                self.rounds[r].picks.clear();
                None
            }
        }
    }
}

/// Reads the tuning cache at `path`; a missing file is an empty cache where
/// `missing_ok`. Errors name the file (and the entry, for a bad one).
pub fn read_cache_file(path: &str, missing_ok: bool) -> Result<Cache, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            aic_passes::fusion_to_tile::read_cache(&text).map_err(|e| format!("{path}: {e}"))
        }
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => Ok(Cache::new()),
        Err(e) => Err(format!("cannot read tuning cache '{path}': {e}")),
    }
}

/// Deterministic input bytes for a buffer of `elem` elements (`bytes` long):
/// small floats in [-0.25, 0.25) for float types (sums over the long
/// contractions of a model stay well inside f16's range), zeros for
/// integers (indices stay in range).
pub fn input_bytes(elem: &str, bytes: u64, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 0.5 - 0.25
    };
    let n = bytes as usize;
    let mut out = Vec::with_capacity(n);
    match elem {
        "f32" => (0..n / 4).for_each(|_| out.extend((next() as f32).to_le_bytes())),
        "f64" => (0..n / 8).for_each(|_| out.extend(next().to_le_bytes())),
        "f16" => (0..n / 2).for_each(|_| {
            out.extend(aic::float::FloatKind::F16.from_f64(next()).to_le_bytes()[..2].iter())
        }),
        "bf16" => (0..n / 2).for_each(|_| {
            out.extend(aic::float::FloatKind::BF16.from_f64(next()).to_le_bytes()[..2].iter())
        }),
        _ => {}
    }
    out.resize(n, 0);
    out
}

/// The inputs of `plan`: one buffer of [`input_bytes`] per argument.
pub fn plan_inputs(plan: &Plan) -> Vec<Vec<u8>> {
    plan.inputs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let b = &plan.buffers[*b as usize];
            input_bytes(&b.elem, b.bytes, i as u64 + 1)
        })
        .collect()
}

/// The plan of `entry` in a bundle's manifest.
pub fn entry_plan(bundle: &Bundle, entry: &str) -> Result<Plan, String> {
    match bundle.manifest.plans.iter().find(|p| p.func() == entry) {
        Some(FuncPlan::Planned(p)) => timeable(p).map(|()| p.clone()),
        Some(FuncPlan::Interpreted(_)) => Err(format!(
            "@{entry} still runs tensor ops on the host interpreter: nothing to time"
        )),
        None => Err(format!("the bundle has no plan for @{entry}")),
    }
}

/// Whether aic-tune can time `plan` on made-up inputs: not when it holds
/// loops or choices, whose trip counts and branches depend on the inputs
/// (a loop bound read from made-up bytes may not end).
fn timeable(plan: &Plan) -> Result<(), String> {
    if plan.has_control_flow() {
        return Err(format!(
            "@{} holds loops or choices, which depend on its inputs: aic-tune does not time it",
            plan.func
        ));
    }
    Ok(())
}

/// What timing a round gives: its kernels in launch order, each launch's
/// median time (ms), and the results with their element types.
pub type Timed = (Vec<KernelInfo>, Vec<f64>, Vec<(String, Vec<u8>)>);

/// The largest difference between two results' elements (`elem` typed),
/// relative to 1 + |reference|; integers must be equal (else infinity).
pub fn max_difference(elem: &str, got: &[u8], want: &[u8]) -> f64 {
    use aic::float::FloatKind;
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    let kind = match elem {
        "f16" => FloatKind::F16,
        "bf16" => FloatKind::BF16,
        "f32" => FloatKind::F32,
        "f64" => FloatKind::F64,
        _ => return if got == want { 0.0 } else { f64::INFINITY },
    };
    let w = (kind.bit_width() / 8) as usize;
    let val = |c: &[u8]| {
        let mut b = [0u8; 16];
        b[..w].copy_from_slice(c);
        kind.to_f64(u128::from_le_bytes(b))
    };
    got.chunks(w)
        .zip(want.chunks(w))
        .map(|(g, r)| {
            let (g, r) = (val(g), val(r));
            if (g.is_nan() && r.is_nan()) || (g.is_infinite() && g == r) {
                0.0
            } else {
                let d = (g - r).abs() / (1.0 + r.abs());
                if d.is_nan() { f64::INFINITY } else { d }
            }
        })
        .fold(0.0, f64::max)
}

/// Whether a round's results `got` agree with the heuristic round's `want`
/// (the same inputs): within a few units in the last place of the results'
/// formats (accumulation order differs between tile sizes). Else why not.
pub fn agree(got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)]) -> Result<(), String> {
    for (i, ((elem, g), (_, w))) in got.iter().zip(want).enumerate() {
        let tol = match elem.as_str() {
            "f16" => 2e-2,
            "bf16" => 8e-2,
            _ => 1e-3,
        };
        let d = max_difference(elem, g, w);
        if d > tol {
            return Err(format!(
                "result {i} differs from the heuristic tiles' by {d:.3e} (tolerance {tol:e})"
            ));
        }
    }
    Ok(())
}

/// The element types of `plan`'s results, in order.
fn result_elems(plan: &Plan) -> Vec<String> {
    plan.outputs
        .iter()
        .map(|b| plan.buffers[*b as usize].elem.clone())
        .collect()
}

/// Inputs made once and reused by every round whose plan takes the same
/// arguments (a model's weights are large: making them is slower than
/// timing a round).
#[derive(Default)]
pub struct Inputs {
    /// The arguments' element types and sizes, and the bytes made for them.
    made: Option<(Vec<Arg>, Vec<Vec<u8>>)>,
}

/// An argument's element type and size in bytes.
type Arg = (String, u64);

impl Inputs {
    /// The inputs of `plan`, made now or reused.
    pub fn of(&mut self, plan: &Plan) -> &[Vec<u8>] {
        let args: Vec<Arg> = plan
            .inputs
            .iter()
            .map(|b| {
                let b = &plan.buffers[*b as usize];
                (b.elem.clone(), b.bytes)
            })
            .collect();
        if self.made.as_ref().is_none_or(|(a, _)| *a != args) {
            self.made = Some((args, plan_inputs(plan)));
        }
        &self.made.as_ref().expect("made").1
    }
}

/// Times a CUDA bundle's `entry` on the GPU: `reps` runs after a warm-up.
pub fn time_cuda(
    bundle: &Bundle,
    entry: &str,
    reps: u32,
    made: &mut Inputs,
) -> Result<Timed, String> {
    let plan = entry_plan(bundle, entry)?;
    let inputs = made.of(&plan);
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let cu = |e: aic_runtime::CudaError| e.to_string();
    let cuda = aic_runtime::Cuda::load().map_err(cu)?;
    let module = cuda.load_module(&bundle.binary).map_err(cu)?;
    let mut dp = aic_runtime::DevicePlan::new(&cuda, &module, &plan, &bundle.manifest.kernels)
        .map_err(cu)?;
    dp.upload(&refs, true).map_err(cu)?;
    dp.run().map_err(cu)?;
    let outs = dp.outputs().map_err(cu)?;
    let t = dp.bench(&refs, 3, reps).map_err(cu)?;
    let kernels: Vec<KernelInfo> = dp.kernels().cloned().collect();
    let results = result_elems(&plan).into_iter().zip(outs).collect();
    Ok((kernels, crate::bench::per_launch(&t), results))
}

/// The host target: compiling a round and timing it in this process.
#[cfg(feature = "llvm")]
pub mod host {
    use super::*;

    /// Compiles `text` for the host with the tuning cache at `tuning` and
    /// times `entry`'s plan: `reps` runs after one warm-up, each launch by
    /// the wall clock. Gives the kernels in launch order and each launch's
    /// median time (ms).
    pub fn time(
        name: &str,
        text: &str,
        entry: &str,
        tuning: &str,
        reps: u32,
        dim_bounds: &[String],
    ) -> Result<Timed, String> {
        let (ctx, m, infos) = crate::translate::Translate {
            target: "host".into(),
            tuning: Some(tuning.into()),
            dim_bounds: dim_bounds.to_vec(),
            ..Default::default()
        }
        .lower(name, text)?;
        let plans = crate::plan::plans(&ctx, m, &infos, &[])?;
        let plan = match plans.into_iter().find(|p| p.func() == entry) {
            Some(FuncPlan::Planned(p)) => p,
            _ => return Err(format!("@{entry} has no plan to time")),
        };
        timeable(&plan)?;
        plan.validate(&infos)?;
        let inputs = plan_inputs(&plan);
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let hm = aic_llvm::HostModule::new(&ctx, m)?;
        let mut launch = |k: &KernelInfo, bufs: &mut [Vec<u8>]| {
            let mut slices: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
            hm.run(&k.name, &mut slices)
        };
        let kernels: Vec<KernelInfo> = plan.launches(&infos).map(|(k, _)| k.clone()).collect();
        // The first run gives the results and warms the caches up.
        let outs = plan.run_host(&infos, &refs, &mut launch, &mut |_| {})?;
        let t = crate::bench::time_host_plan(&plan, &infos, &refs, &mut launch, (0, reps))?;
        let results = result_elems(&plan).into_iter().zip(outs).collect();
        Ok((kernels, crate::bench::per_launch(&t), results))
    }
}

/// Tuning for NeuronCores: candidates timed by the NeuronCore simulator's
/// cost model (`aic-run --target=nki-sim`'s), nothing run.
pub mod nki {
    use super::*;
    use aic::ir::{Context, Op};
    use aic::op_def::OpHandle;
    use aic::syntax::parse_module;
    use aic::{SourceMap, verifier::verify};
    use aic_dialects::nki;
    use std::collections::HashMap;
    use std::sync::Arc;

    /// Compiles `text` for NeuronCore `arch` (`trn1`, `trn2`) with the
    /// tuning cache at `tuning` and models `entry`: gives each launch's
    /// kernel (with its tuning-cache key) and modelled time (ms), in order.
    /// The model computes no values: the results are empty.
    pub fn time(
        name: &str,
        text: &str,
        entry: &str,
        tuning: &str,
        arch: &str,
    ) -> Result<Timed, String> {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add(name, text.to_string());
        let m = parse_module(&mut ctx, &sm, id)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .map_err(|d| sm.render(ctx.uniquer(), &d).trim_end().to_string())?;
        let pipeline = crate::compile::nki_pipeline(Some(arch), Some(tuning))?;
        crate::compile::run_pipeline(&mut ctx, m, &pipeline)?;
        let f = crate::compile::top_ops::<aic_dialects::func::Func>(&ctx, m)
            .into_iter()
            .find(|f| aic::symbol::symbol_name(&ctx, f.op()) == Some(entry))
            .ok_or_else(|| format!("no function @{entry}"))?;
        let a = if arch == "trn2" {
            nki::Arch::Trn2
        } else {
            nki::Arch::Trn1
        };
        let report = nki::sim::model(&ctx, f.op(), nki::sim::Costs::of(a))?;
        let kernels: HashMap<String, Op> = crate::compile::top_ops::<nki::Kernel>(&ctx, m)
            .into_iter()
            .filter_map(|k| {
                let n = aic::symbol::symbol_name(&ctx, k.op())?.to_string();
                Some((n, k.op()))
            })
            .collect();
        let tune_of = |k: &str| {
            let op = kernels.get(k)?;
            let a = ctx
                .find_ident("aic.tune")
                .and_then(|i| ctx.attr_of(*op, i))?;
            ctx.uniquer().attr_str(a).map(str::to_string)
        };
        let infos = report
            .launch_times
            .iter()
            .map(|(k, _)| KernelInfo {
                name: k.clone(),
                grid: [1, 1, 1],
                block: [1, 1, 1],
                shared_bytes: 0,
                params: Vec::new(),
                kind: None,
                flops: None,
                tune: tune_of(k),
                tensor_maps: Vec::new(),
            })
            .collect();
        let ms = report.launch_times.iter().map(|(_, s)| s * 1e3).collect();
        Ok((infos, ms, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(name: &str, tune: Option<&str>) -> KernelInfo {
        KernelInfo {
            name: name.into(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            shared_bytes: 0,
            params: Vec::new(),
            kind: None,
            flops: None,
            tune: tune.map(str::to_string),
            tensor_maps: Vec::new(),
        }
    }

    #[test]
    fn rounds_measure_every_key_once_a_round_and_keep_the_fastest() {
        let a = "cpu/native/gemm/0x64x64x64/f32";
        let b = "cpu/native/gemm/0x32x16x8/f32";
        let kernels = [
            kernel("gemm_0", Some(a)),
            kernel("rows_1", None),
            kernel("gemm_2", Some(b)),
            kernel("gemm_3", Some(a)),
        ];
        let mut r = Rounds::new(
            ("cpu", "native", false),
            "main",
            &kernels,
            &Cache::new(),
            false,
        )
        .unwrap();
        assert_eq!(r.keys[a].kernels, 2);
        let (na, nb) = (r.keys[a].candidates.len(), r.keys[b].candidates.len());
        assert!(na > nb, "{na} {nb}");
        assert_eq!(r.rounds.len(), na);
        assert_eq!(r.rounds[nb].picks.len(), 1);
        // Round 0 is the heuristic's choice for all.
        let sig = signature(a).unwrap();
        assert_eq!(unpack(r.keys[a].candidates[0]), sig.heuristic("cpu", false));
        let c = r.cache_for(&Cache::new(), &r.rounds[1].picks.clone());
        assert_eq!(c[a].tuning, unpack(r.keys[a].candidates[1]));
        // Times: a's two kernels sum; b's second candidate is its best.
        r.record(0, &kernels, &[1.0, 5.0, 0.5, 1.0]);
        r.record(1, &kernels, &[0.25, 5.0, 0.25, 0.5]);
        // The progress line names each key's candidate and time.
        let said = r.measured(1);
        let desc_a = describe(r.keys[a].candidates[1]);
        assert!(said.contains(&format!("750.0 us for {desc_a}")), "{said}");
        assert!(said.contains("250.0 us for "), "{said}");
        r.fail(a, 2, "does not compile");
        let best = r.best(&Cache::new());
        assert_eq!(best[a].us, Some(750.0));
        assert_eq!(best[a].heuristic_us, Some(2000.0));
        assert_eq!(best[a].tried, Some(2));
        assert_eq!(best[b].tuning, unpack(r.keys[b].candidates[1]));
        let table = r.summary();
        assert!(table.contains("2.67x"), "{table}");
        assert!(table.contains("skipped: does not compile"), "{table}");
        // rounds.json reads back; a measured key is not tuned again.
        assert_eq!(Rounds::from_json("r.json", &r.to_json()).unwrap(), r);
        let again = Rounds::new(("cpu", "native", false), "main", &kernels, &best, false).unwrap();
        assert!(again.keys.is_empty() && again.rounds.is_empty());
        let retune = Rounds::new(("cpu", "native", false), "main", &kernels, &best, true).unwrap();
        assert_eq!(retune.keys.len(), 2);
    }

    #[test]
    fn a_candidate_that_fails_is_skipped_and_reported_and_the_rest_are_timed() {
        let (a, b) = (
            "cpu/native/gemm/0x64x64x64/f32",
            "cpu/native/gemm/0x32x32x32/f32",
        );
        let kernels = [kernel("gemm_0", Some(a)), kernel("gemm_1", Some(b))];
        let mut r = Rounds::new(
            ("cpu", "native", false),
            "main",
            &kernels,
            &Cache::new(),
            false,
        )
        .unwrap();
        let mut tries = Vec::new();
        // b's candidate 1 "does not compile"; together with it nothing does.
        let mut attempt = |_: &Rounds, picks: &BTreeMap<String, usize>| -> Attempt<usize> {
            tries.push(picks.len());
            if picks.get(b) == Some(&1) {
                Err("kernel 'gemm_1' needs too much shared memory".into())
            } else {
                Ok(picks.len())
            }
        };
        assert_eq!(r.isolate(1, &mut attempt), Some(1));
        assert_eq!(tries, [2, 1, 1, 1]);
        assert_eq!(r.rounds[1].picks.len(), 1);
        assert!(r.keys[b].failed[&1].contains("too much shared memory"));
        assert!(r.keys[a].failed.is_empty());
        // A round that works needs one try.
        assert_eq!(r.isolate(0, &mut |_, p| Ok(p.len())), Some(2));
    }

    #[test]
    fn foreign_rounds_and_keys_are_errors_naming_them() {
        assert!(
            Rounds::from_json("x.json", "{}")
                .unwrap_err()
                .starts_with("x.json: not aic-tune's rounds")
        );
        let mut r = Rounds::new(
            ("cpu", "native", false),
            "main",
            &[kernel("gemm_0", Some("cpu/native/gemm/0x8x8x8/f32"))],
            &Cache::new(),
            false,
        )
        .unwrap();
        r.rounds[0]
            .picks
            .insert("cpu/native/gemm/0x8x8x8/f32".into(), 999);
        let e = Rounds::from_json("x.json", &r.to_json()).unwrap_err();
        assert!(e.contains("round 0 picks candidate 999"), "{e}");
        let e = Rounds::new(
            ("cpu", "native", false),
            "main",
            &[kernel("gemm_0", Some("cpu/native/mlp/1"))],
            &Cache::new(),
            false,
        )
        .unwrap_err();
        assert!(e.contains("kernel 'gemm_0'"), "{e}");
        // An older aic-tune's rounds (5- or 7-wide candidates) name their
        // version.
        let old = r#"{"version": 1, "keys": {"a/b/c": {"candidates": [[1, 2, 3, 4, 5]]}}}"#;
        let e = Rounds::from_json("x.json", old).unwrap_err();
        assert!(e.contains("x.json: rounds version 1"), "{e}");
        let v2 = r#"{"version": 2, "keys": {"a/b/c": {"candidates": [[1, 2, 3, 4, 5, 0, 0]]}}}"#;
        let e = Rounds::from_json("x.json", v2).unwrap_err();
        assert!(e.contains("x.json: rounds version 2"), "{e}");
        let v3 = r#"{"version": 3, "keys": {"a/b/c": {"candidates": [[1, 2, 3, 4, 5, 0, 0, 0]]}}}"#;
        let e = Rounds::from_json("x.json", v3).unwrap_err();
        assert!(e.contains("x.json: rounds version 3"), "{e}");
        let v4 =
            r#"{"version": 4, "keys": {"a/b/c": {"candidates": [[1, 2, 3, 4, 5, 0, 0, 0, 0]]}}}"#;
        let e = Rounds::from_json("x.json", v4).unwrap_err();
        assert!(e.contains("x.json: rounds version 4"), "{e}");
    }

    #[test]
    fn candidates_pack_their_ring_copy_and_persistent_blocks() {
        let t = Tuning {
            bm: 128,
            bn: 256,
            bk: 64,
            stages: 4,
            threads: 256,
            copy: Some(CopyKind::TmaWs),
            persistent: 132,
            group: 16,
            ..Tuning::default()
        };
        assert_eq!(pack(t), [128, 256, 64, 4, 256, 4, 132, 16, 0, 0]);
        assert_eq!(unpack(pack(t)), t);
        assert_eq!(
            describe(pack(t)),
            "128 256 64 4 256 tma_ws persistent 132 group 16"
        );
        let plain = Tuning {
            copy: None,
            persistent: 0,
            group: 0,
            split: 0,
            ..t
        };
        assert_eq!(unpack(pack(plain)), plain);
        assert_eq!(describe(pack(plain)), "128 256 64 4 256");
        let split = Tuning { split: 4, ..plain };
        assert_eq!(unpack(pack(split)), split);
        assert_eq!(describe(pack(split)), "128 256 64 4 256 split 4");
        let turns = Tuning {
            bm: 128,
            bn: 128,
            threads: 128,
            consumers: 2,
            ..t
        };
        assert_eq!(pack(turns)[9], 2);
        assert_eq!(unpack(pack(turns)), turns);
        assert_eq!(
            describe(pack(turns)),
            "128 128 64 4 128 tma_ws persistent 132 group 16 consumers 2"
        );
        // Every ring copy round-trips.
        for k in CopyKind::KEYWORDS {
            let c = CopyKind::from_keyword(k);
            assert_eq!(unpack(pack(Tuning { copy: c, ..t })).copy, c);
        }
    }

    #[test]
    fn results_agree_within_their_formats_tolerance() {
        let f16 = |v: &[f64]| -> Vec<u8> {
            v.iter()
                .flat_map(|x| {
                    let b = aic::float::FloatKind::F16.from_f64(*x) as u16;
                    b.to_le_bytes()
                })
                .collect()
        };
        let want = vec![("f16".to_string(), f16(&[1.0, -2.0, 100.0]))];
        assert!(agree(&[("f16".into(), f16(&[1.0, -2.0, 100.5]))], &want).is_ok());
        let e = agree(&[("f16".into(), f16(&[1.0, -1.0, 100.0]))], &want).unwrap_err();
        assert!(e.contains("result 0 differs"), "{e}");
        assert_eq!(max_difference("i32", &[1, 0, 0, 0], &[1, 0, 0, 0]), 0.0);
        assert_eq!(
            max_difference("i32", &[1, 0, 0, 0], &[2, 0, 0, 0]),
            f64::INFINITY
        );
        assert_eq!(max_difference("f32", &[0; 4], &[0; 8]), f64::INFINITY);
    }

    #[test]
    fn inputs_are_small_floats_and_integer_zeros() {
        let f = input_bytes("f32", 4000, 1);
        let v: Vec<f32> = f
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(v.iter().all(|x| (-0.25..0.25).contains(x)));
        assert!(v.iter().any(|x| *x < -0.2) && v.iter().any(|x| *x > 0.2));
        assert_eq!(input_bytes("f16", 6, 2).len(), 6);
        assert_ne!(input_bytes("f16", 64, 2), vec![0; 64]);
        assert_eq!(input_bytes("i32", 8, 3), vec![0; 8]);
    }
}
