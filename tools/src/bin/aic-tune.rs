//! `aic-tune FILE --target=cuda|host|nki-sim [--arch=ARCH] -o cache.json`:
//! measures candidate tile sizes for every tunable kernel of a module (or,
//! for NeuronCores, models them with the simulator's cost model) and writes
//! the fastest to a JSON tuning cache that `aic-translate`/`aic-run
//! --tuning` read. See [`aic_tools::tune`] for how rounds of candidates are compiled and
//! timed; `--emit-rounds`/`--measure` split the compiling (LLVM) from the
//! timing (the GPU) where they are different machines.

use aic_passes::fusion_to_tile::{Cache, write_cache};
use aic_tools::tune::{Attempt, Rounds, Timed, read_cache_file};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "OVERVIEW: aic autotuner: times candidate tile sizes of a module's kernels and keeps the fastest

USAGE: aic-tune <file> --target=<cuda|host|nki-sim> [--arch=<arch>] -o <cache.json> [options]
       aic-tune <file> --target=cuda --arch=<arch> --emit-rounds=<dir> [-o <cache.json>]
       aic-tune --measure=<dir> -o <cache.json> [--reps=<n>] [--budget=<s>]

OPTIONS:
  --target=<t>        cuda (NVIDIA GPU; compile with LLVM, time with CUDA events), host (this CPU),
                      or nki-sim (NeuronCores: candidates compared by the simulator's MODELLED
                      time, nothing run; needs no LLVM)
  --arch=<a>          sm_80 ... sm_90a for cuda (default sm_90; sm_90a: wgmma tiles); trn1 or trn2
                      for nki-sim (default trn1); entries are keyed by it
  -o <file>           The tuning cache to write. Its entries are kept; a kernel it already
                      holds a measured entry for is not tuned again (unless --retune)
  --entry=<@f>        The function to time (default @main)
  --budget=<s>        Stop starting rounds after this many seconds (default 600)
  --reps=<n>          Timed runs a round (default 20; the median counts)
  --retune            Tune kernels the cache already holds
  --dim-bounds=<NAME=N,...>  Bounds of dynamic (`?`) dimensions: kernels are tuned at the bound's bucket
                      (N rounded up to a power of two), so entries are keyed by bucket
  --emit-rounds=<dir> Only compile the rounds: bundles and rounds.json into <dir> (new or empty),
                      for --measure on a machine with the GPU
  --measure=<dir>     Only time the rounds --emit-rounds wrote (needs no LLVM)
  --help              Show this help
";

struct Options {
    input: Option<String>,
    target: Option<String>,
    arch: Option<String>,
    output: Option<String>,
    entry: String,
    budget: f64,
    reps: u32,
    retune: bool,
    emit_rounds: Option<String>,
    measure: Option<String>,
    dim_bounds: Vec<String>,
}

fn parse_args() -> Result<Option<Options>, String> {
    let mut o = Options {
        input: None,
        target: None,
        arch: None,
        output: None,
        entry: "main".into(),
        budget: 600.0,
        reps: 20,
        retune: false,
        emit_rounds: None,
        measure: None,
        dim_bounds: Vec::new(),
    };
    let mut args = aic_tools::Args::new(std::env::args().skip(1));
    while let Some((flag, inline)) = args.next_arg() {
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--target" => {
                let t = args.value("--target", inline)?;
                if !["cuda", "host", "nki-sim"].contains(&t.as_str()) {
                    return Err(format!(
                        "--target: expected cuda, host or nki-sim, got '{t}'"
                    ));
                }
                o.target = Some(t);
            }
            "--arch" => o.arch = Some(args.value("--arch", inline)?),
            "--dim-bounds" => o.dim_bounds.extend(
                args.value("--dim-bounds", inline)?
                    .split(',')
                    .map(str::to_string),
            ),
            "-o" => o.output = Some(args.value("-o", inline)?),
            "--entry" => {
                let e = args.value("--entry", inline)?;
                o.entry = e.strip_prefix('@').unwrap_or(&e).to_string();
            }
            "--budget" => {
                o.budget =
                    aic_tools::int_flag("--budget", &args.value("--budget", inline)?, 1, 86_400)?
                        as f64
            }
            "--reps" => {
                o.reps =
                    aic_tools::int_flag("--reps", &args.value("--reps", inline)?, 1, 10_000)? as u32
            }
            "--retune" => o.retune = true,
            "--emit-rounds" => o.emit_rounds = Some(args.value("--emit-rounds", inline)?),
            "--measure" => o.measure = Some(args.value("--measure", inline)?),
            f if f.starts_with('-') && f != "-" => return Err(format!("unknown option '{f}'")),
            _ if o.input.is_none() => o.input = Some(flag),
            _ => return Err(format!("unexpected argument '{flag}'")),
        }
    }
    if o.measure.is_some() {
        if o.input.is_some() || o.target.is_some() || o.emit_rounds.is_some() {
            return Err(
                "--measure times rounds already compiled: give no file, --target or --emit-rounds"
                    .into(),
            );
        }
        if o.output.is_none() {
            return Err("--measure needs -o <cache.json>".into());
        }
    } else {
        if o.input.is_none() {
            return Err("no input file (aic-tune --help)".into());
        }
        if o.target.is_none() {
            return Err("--target is required (cuda, host or nki-sim)".into());
        }
        if o.emit_rounds.is_none() && o.output.is_none() {
            return Err("-o <cache.json> is required".into());
        }
        if o.emit_rounds.is_some() && o.target.as_deref() != Some("cuda") {
            return Err(
                "--emit-rounds is for --target=cuda (the host target tunes in one go)".into(),
            );
        }
    }
    Ok(Some(o))
}

/// Writes the tuning cache: `best` merged over what `path` holds now.
fn write_result(path: &str, best: &Cache) -> Result<(), String> {
    let mut cache = read_cache_file(path, true)?;
    cache.extend(best.iter().map(|(k, v)| (k.clone(), *v)));
    aic_tools::output::write_file(path, write_cache(&cache).as_bytes())
}

/// A temporary tuning-cache file of this run (removed when dropped).
struct TempCache(std::path::PathBuf);

impl TempCache {
    fn new(tag: &str, cache: &Cache) -> Result<TempCache, String> {
        let p = std::env::temp_dir().join(format!("aic-tune-{}-{tag}.json", std::process::id()));
        std::fs::write(&p, write_cache(cache)).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(TempCache(p))
    }
    fn path(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for TempCache {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn progress(r: usize, rounds: &Rounds, what: &str, start: Instant) {
    eprintln!(
        "aic-tune: round {}/{} ({} kernel signatures): {what} [{:.1} s]",
        r + 1,
        rounds.rounds.len(),
        rounds.rounds[r].picks.len(),
        start.elapsed().as_secs_f64()
    );
}

/// The end of a tuning run: the summary table, the cache written.
fn finish(o: &Options, rounds: &Rounds, base: &Cache, done: usize) -> Result<(), String> {
    if done < rounds.rounds.len() {
        eprintln!(
            "aic-tune: budget of {} s spent after {done} of {} rounds",
            o.budget,
            rounds.rounds.len()
        );
    }
    print!("{}", rounds.summary());
    if !rounds.keys.is_empty() && rounds.keys.values().all(|t| t.us.is_empty()) {
        let why = rounds
            .keys
            .values()
            .flat_map(|t| t.failed.values())
            .next()
            .cloned()
            .unwrap_or_else(|| "the budget ran out first".into());
        return Err(format!("no candidate could be timed: {why}"));
    }
    let out = o.output.as_deref().expect("checked");
    write_result(out, &rounds.best(base))?;
    eprintln!(
        "aic-tune: wrote {} tuned kernel signatures to {out}",
        rounds.keys.values().filter(|t| !t.us.is_empty()).count()
    );
    Ok(())
}

/// Checks a round's results against round 0's (the heuristic tiles', which
/// become the reference when `r` is 0).
fn check(
    reference: &mut Option<Vec<(String, Vec<u8>)>>,
    r: usize,
    results: &[(String, Vec<u8>)],
) -> Result<(), String> {
    match reference {
        Some(want) => aic_tools::tune::agree(results, want),
        None if r == 0 => {
            *reference = Some(results.to_vec());
            Ok(())
        }
        None => Ok(()),
    }
}

/// `--target=nki-sim`: every round compiled for the NeuronCore `--arch` and
/// its launches modelled; the candidate of the least modelled time is kept.
fn tune_nki(o: &Options) -> Result<(), String> {
    let start = Instant::now();
    let input = o.input.as_deref().expect("checked");
    let text = aic_tools::read_text(input)?;
    let arch = o.arch.clone().unwrap_or_else(|| "trn1".into());
    if !aic_tools::compile::NKI_ARCHS.contains(&arch.as_str()) {
        return Err(format!(
            "--arch: expected trn1 or trn2 for nki-sim, got '{arch}'"
        ));
    }
    let base = match &o.output {
        Some(p) => read_cache_file(p, true)?,
        None => Cache::new(),
    };
    let time = |cache: &Cache, tag: &str| -> Attempt<Timed> {
        let tmp = TempCache::new(tag, cache)?;
        aic_tools::tune::nki::time(input, &text, &o.entry, &tmp.path(), &arch)
    };
    let (kernels, _, _) = time(&base, "base")?;
    let mut rounds = Rounds::new(("trn1", &arch, false), &o.entry, &kernels, &base, o.retune)?;
    eprintln!(
        "aic-tune: {} launches, {} signatures to tune, {} rounds (modelled by nki-sim, {arch})",
        kernels.len(),
        rounds.keys.len(),
        rounds.rounds.len()
    );
    let mut done = 0;
    for r in 0..rounds.rounds.len() {
        if start.elapsed().as_secs_f64() > o.budget {
            break;
        }
        done += 1;
        let mut attempt = |rs: &Rounds, picks: &BTreeMap<String, usize>| -> Attempt<Timed> {
            time(&rs.cache_for(&base, picks), &format!("r{r}"))
        };
        if let Some((kernels, ms, _)) = rounds.isolate(r, &mut attempt) {
            rounds.record(r, &kernels, &ms);
            progress(r, &rounds, "modelled", start);
        } else {
            progress(r, &rounds, "no candidate of it compiled", start);
        }
    }
    finish(o, &rounds, &base, done)
}

/// `--measure DIR`: times the rounds compiled elsewhere.
fn measure(o: &Options, dir: &str) -> Result<(), String> {
    let start = Instant::now();
    let path = format!("{dir}/rounds.json");
    let text = aic_tools::read_text(&path)?;
    let mut rounds = Rounds::from_json(&path, &text)?;
    let out = o.output.as_deref().expect("checked");
    let base = read_cache_file(out, true)?;
    let mut done = 0;
    let mut reference = None;
    let mut inputs = aic_tools::tune::Inputs::default();
    for r in 0..rounds.rounds.len() {
        if start.elapsed().as_secs_f64() > o.budget {
            break;
        }
        done += 1;
        let Some(name) = rounds.rounds[r].bundle.clone() else {
            continue;
        };
        let timed = aic_tools::read_bytes(&format!("{dir}/{name}")).and_then(|b| {
            let bundle = aic_runtime::Bundle::from_bytes(&b).map_err(|e| format!("{name}: {e}"))?;
            let t = aic_tools::tune::time_cuda(&bundle, &rounds.entry, o.reps, &mut inputs)?;
            check(&mut reference, r, &t.2)?;
            Ok(t)
        });
        match timed {
            Ok((kernels, ms, _)) => {
                rounds.record(r, &kernels, &ms);
                progress(r, &rounds, &format!("timed: {}", rounds.measured(r)), start);
            }
            Err(e) => {
                // The round's candidates share one binary: a launch that fails
                // fails them all.
                for (k, i) in rounds.rounds[r].picks.clone() {
                    rounds.fail(&k, i, &format!("round {}: {e}", r + 1));
                }
                progress(r, &rounds, &format!("failed: {e}"), start);
            }
        }
    }
    finish(o, &rounds, &base, done)
}

#[cfg(feature = "llvm")]
fn tune(o: &Options) -> Result<(), String> {
    use aic_tools::translate::Translate;
    let start = Instant::now();
    let input = o.input.as_deref().expect("checked");
    if let Some(dir) = &o.emit_rounds
        && std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
    {
        return Err(format!(
            "--emit-rounds: {dir} is not empty (aic-tune writes only into a new or empty folder)"
        ));
    }
    let text = aic_tools::read_text(input)?;
    let cuda = o.target.as_deref() == Some("cuda");
    let llvm_target = if cuda { "nvptx" } else { "host" };
    let arch = o
        .arch
        .clone()
        .unwrap_or_else(|| aic_tools::compile::default_arch(llvm_target).to_string());
    let base = match &o.output {
        Some(p) => read_cache_file(p, true)?,
        None => Cache::new(),
    };
    let wgmma = aic_tools::compile::arch_units(llvm_target, Some(&arch)) == Some("wgmma");
    let tiles = aic_tools::compile::TARGETS
        .iter()
        .find(|t| t.0 == llvm_target)
        .map(|t| t.1)
        .expect("a target");
    let translate = |tuning: &str| Translate {
        target: llvm_target.into(),
        arch: cuda.then(|| arch.clone()),
        emit: "bundle".into(),
        tuning: Some(tuning.into()),
        dim_bounds: o.dim_bounds.clone(),
        ..Translate::default()
    };
    // The module as the heuristics (and the cache) compile it: its kernels.
    let first = TempCache::new("base", &base)?;
    let bundle = translate(&first.path()).run(input, text.clone())?;
    let bundle = aic_runtime::Bundle::from_bytes(&bundle).map_err(|e| e.to_string())?;
    aic_tools::tune::entry_plan(&bundle, &o.entry)?;
    let mut rounds = Rounds::new(
        (tiles, &arch, wgmma),
        &o.entry,
        &bundle.manifest.kernels,
        &base,
        o.retune,
    )?;
    eprintln!(
        "aic-tune: {} kernels, {} signatures to tune, {} rounds",
        bundle.manifest.kernels.len(),
        rounds.keys.len(),
        rounds.rounds.len()
    );
    if let Some(dir) = &o.emit_rounds {
        return emit_rounds(o, dir, &mut rounds, &base, &translate, &text, start);
    }
    let mut done = 0;
    let mut reference = None;
    let mut inputs = aic_tools::tune::Inputs::default();
    for r in 0..rounds.rounds.len() {
        if start.elapsed().as_secs_f64() > o.budget {
            break;
        }
        done += 1;
        let mut attempt = |rs: &Rounds, picks: &BTreeMap<String, usize>| -> Attempt<Timed> {
            let tmp = TempCache::new(&format!("r{r}"), &rs.cache_for(&base, picks))?;
            let t = if cuda {
                let b = translate(&tmp.path()).run(input, text.clone())?;
                let b = aic_runtime::Bundle::from_bytes(&b).map_err(|e| e.to_string())?;
                aic_tools::tune::time_cuda(&b, &rs.entry, o.reps, &mut inputs)?
            } else {
                aic_tools::tune::host::time(
                    input,
                    &text,
                    &rs.entry,
                    &tmp.path(),
                    o.reps,
                    &o.dim_bounds,
                )?
            };
            check(&mut reference, r, &t.2)?;
            Ok(t)
        };
        if let Some((kernels, ms, _)) = rounds.isolate(r, &mut attempt) {
            rounds.record(r, &kernels, &ms);
            progress(r, &rounds, &format!("timed: {}", rounds.measured(r)), start);
        } else {
            progress(r, &rounds, "no candidate of it ran", start);
        }
    }
    finish(o, &rounds, &base, done)
}

/// `--emit-rounds DIR`: compiles every round into DIR with `rounds.json`.
#[cfg(feature = "llvm")]
fn emit_rounds(
    o: &Options,
    dir: &str,
    rounds: &mut Rounds,
    base: &Cache,
    translate: &dyn Fn(&str) -> aic_tools::translate::Translate,
    text: &str,
    start: Instant,
) -> Result<(), String> {
    let input = o.input.as_deref().expect("checked");
    std::fs::create_dir_all(dir).map_err(|e| format!("--emit-rounds: {dir}: {e}"))?;
    for r in 0..rounds.rounds.len() {
        let mut attempt = |rs: &Rounds, picks: &BTreeMap<String, usize>| -> Attempt<Vec<u8>> {
            let tmp = TempCache::new(&format!("r{r}"), &rs.cache_for(base, picks))?;
            translate(&tmp.path()).run(input, text.to_string())
        };
        if let Some(bytes) = rounds.isolate(r, &mut attempt) {
            let name = format!("round-{r}.bundle");
            aic_tools::output::write_file(&format!("{dir}/{name}"), &bytes)?;
            rounds.rounds[r].bundle = Some(name);
            progress(r, rounds, "compiled", start);
        } else {
            progress(r, rounds, "no candidate of it compiled", start);
        }
    }
    aic_tools::output::write_file(&format!("{dir}/rounds.json"), rounds.to_json().as_bytes())?;
    eprintln!(
        "aic-tune: {} rounds in {dir}; time them where the GPU is: aic-tune --measure={dir} -o cache.json",
        rounds.rounds.len()
    );
    Ok(())
}

#[cfg(not(feature = "llvm"))]
fn tune(_: &Options) -> Result<(), String> {
    Err("this aic-tune was built without LLVM (feature 'llvm'): it only times rounds compiled elsewhere (--measure)".into())
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("aic-tune: {e}");
            return ExitCode::from(1);
        }
    };
    let r = aic::syntax::with_parser_stack(move || match o.measure.clone() {
        Some(dir) => measure(&o, &dir),
        None if o.target.as_deref() == Some("nki-sim") => tune_nki(&o),
        None => tune(&o),
    });
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aic-tune: {e}");
            ExitCode::from(1)
        }
    }
}
