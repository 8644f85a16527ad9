//! What `aic-run --bench` prints and `--trace` writes: the whole run's median time, a
//! per-kernel table (kernel, kind, time, share, achieved TFLOP/s or GB/s), and a
//! Chrome-trace JSON of one run's kernels.

use aic_runtime::cuda::median;
use aic_runtime::plan::Launcher;
use aic_runtime::{CudaError, DevicePlan, KernelInfo, Plan, Timings};

/// A kernel's kind: its manifest `kind` when the compiler set one, otherwise its name
/// without the `_N` suffix code generation numbers kernels with (`gemm_3` → `gemm`).
pub fn kind(k: &KernelInfo) -> String {
    if let Some(kind) = &k.kind {
        return kind.clone();
    }
    match k.name.rsplit_once('_') {
        Some((stem, n)) if !stem.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            stem.to_string()
        }
        _ => k.name.clone(),
    }
}

/// The bytes one launch of `k` moves: every parameter read or written once.
fn bytes(k: &KernelInfo) -> u64 {
    k.params.iter().map(|p| p.bytes).sum()
}

/// The rate `k` achieved in `ms` milliseconds: TFLOP/s when its flops are known,
/// otherwise GB/s of its parameters' bytes.
pub fn rate(k: &KernelInfo, ms: f64) -> String {
    if ms <= 0.0 {
        return "-".into();
    }
    let s = ms / 1e3;
    match k.flops {
        Some(f) => format!("{:.2} TFLOP/s", f as f64 / s / 1e12),
        None => format!("{:.1} GB/s", bytes(k) as f64 / s / 1e9),
    }
}

/// The report `--bench` prints: `what` says what ran (function, device, how), then the
/// whole run's median and one line per launch, in order.
pub fn table(what: &str, kernels: &[KernelInfo], t: &Timings, warmup: u32) -> String {
    let mut runs = t.runs.clone();
    let whole = if runs.is_empty() {
        0.0
    } else {
        median(&mut runs)
    };
    let per = per_launch(t);
    let sum: f64 = per.iter().sum();
    let mut out = format!(
        "bench: {what}: {} runs after {warmup} warm-up: median {whole:.4} ms a run\n",
        t.runs.len()
    );
    out += &format!(
        "{:<32} {:<12} {:>12} {:>7}  {}\n",
        "kernel", "kind", "time (us)", "share", "rate"
    );
    for (k, ms) in kernels.iter().zip(&per) {
        let share = if sum > 0.0 { 100.0 * ms / sum } else { 0.0 };
        out += &format!(
            "{:<32} {:<12} {:>12.3} {:>6.1}%  {}\n",
            k.name,
            kind(k),
            ms * 1e3,
            share,
            rate(k, *ms)
        );
    }
    out += &format!(
        "{:<32} {:<12} {:>12.3} {:>6.1}%  ({} launches, timed one by one)\n",
        "total",
        "",
        sum * 1e3,
        100.0,
        kernels.len()
    );
    out
}

/// Each launch's median time in milliseconds, in plan order (0 for one
/// never timed).
pub fn per_launch(t: &Timings) -> Vec<f64> {
    t.launches
        .iter()
        .map(|v| {
            if v.is_empty() {
                0.0
            } else {
                median(&mut v.clone())
            }
        })
        .collect()
}

/// Times `plan` on the host: `warmup` untimed runs, then `reps` runs with
/// each launch timed by the wall clock (the launch sequence has no events
/// to time on the host). Gives every run's time, each launch's, and the
/// last run's trace.
pub fn time_host_plan(
    plan: &Plan,
    kernels: &[KernelInfo],
    inputs: &[&[u8]],
    launch: &mut Launcher<'_>,
    (warmup, reps): (u32, u32),
) -> Result<Timings, String> {
    let n = plan.launches(kernels).count();
    for _ in 0..warmup {
        plan.run_host(kernels, inputs, launch, &mut |_| {})?;
    }
    let mut t = Timings {
        runs: Vec::new(),
        launches: vec![Vec::new(); n],
        trace: Vec::new(),
    };
    for _ in 0..reps.max(1) {
        let start = std::time::Instant::now();
        // Each launch run, by its launch number, and when it ended.
        let mut ends = Vec::with_capacity(n);
        plan.run_host(kernels, inputs, launch, &mut |i| {
            ends.push((i, start.elapsed().as_secs_f64() * 1e3))
        })?;
        t.runs.push(start.elapsed().as_secs_f64() * 1e3);
        // A launch in a loop runs many times: its time is the sum over the
        // run, its trace entry its first start and that sum.
        let mut sum = vec![0.0; n];
        let mut first: Vec<Option<f64>> = vec![None; n];
        let mut prev = 0.0;
        for (i, end) in ends {
            if let Some(s) = sum.get_mut(i) {
                *s += end - prev;
                first[i].get_or_insert(prev);
            }
            prev = end;
        }
        t.trace.clear();
        for (i, times) in t.launches.iter_mut().enumerate() {
            times.push(sum[i]);
            t.trace.push((first[i].unwrap_or(0.0), sum[i]));
        }
    }
    Ok(t)
}

/// The median wall-clock milliseconds of one whole call of `dp` from the host,
/// as a caller of the bundle waits for it (what `aic.Function` does on CUDA):
/// every input copied in, the graph replayed, the results copied back; after
/// `warmup` untimed calls.
pub fn time_device_calls(
    dp: &mut DevicePlan<'_>,
    inputs: &[&[u8]],
    (warmup, reps): (u32, u32),
) -> Result<f64, CudaError> {
    let call = |dp: &mut DevicePlan<'_>| {
        dp.upload(inputs, true)?;
        dp.run()?;
        dp.outputs()
    };
    for _ in 0..warmup {
        call(dp)?;
    }
    let mut runs = Vec::with_capacity(reps.max(1) as usize);
    for _ in 0..reps.max(1) {
        let start = std::time::Instant::now();
        std::hint::black_box(call(dp)?);
        runs.push(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(median(&mut runs))
}

/// The line `--bench` adds for a CUDA plan: [`time_device_calls`]'s median.
pub fn call_line(ms: f64) -> String {
    format!(
        "call: median {ms:.4} ms a call from the host (inputs copied in, graph replayed, results copied back)\n"
    )
}

/// A Chrome-trace JSON (`chrome://tracing`, Perfetto) of one run: one complete event
/// (`"ph": "X"`) per launch, with its start and duration in microseconds.
pub fn trace_json(kernels: &[KernelInfo], t: &Timings) -> String {
    let events: Vec<serde_json::Value> = kernels
        .iter()
        .zip(&t.trace)
        .map(|(k, (start, dur))| {
            serde_json::json!({
                "name": k.name,
                "cat": kind(k),
                "ph": "X",
                "ts": start * 1e3,
                "dur": dur * 1e3,
                "pid": 1,
                "tid": 1,
                "args": {"grid": k.grid, "block": k.block, "bytes": bytes(k), "flops": k.flops},
            })
        })
        .collect();
    let doc = serde_json::json!({"traceEvents": events, "displayTimeUnit": "ms"});
    format!("{doc}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic_runtime::Param;

    fn kernel(name: &str, kind: Option<&str>, flops: Option<u64>) -> KernelInfo {
        KernelInfo {
            name: name.into(),
            grid: [2, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![Param {
                elem: "f32".into(),
                shape: vec![250],
                bytes: 1000,
                output: true,
            }],
            kind: kind.map(str::to_string),
            flops,
            tune: None,
            tensor_maps: Vec::new(),
        }
    }

    #[test]
    fn kinds_fall_back_to_the_kernel_name() {
        assert_eq!(kind(&kernel("gemm_12", None, None)), "gemm");
        assert_eq!(
            kind(&kernel("gemm_12", Some("gemm+gelu"), None)),
            "gemm+gelu"
        );
        assert_eq!(kind(&kernel("rows", None, None)), "rows");
        assert_eq!(kind(&kernel("_1", None, None)), "_1");
    }

    #[test]
    fn rates_are_flops_when_known_else_bytes() {
        // 1000 bytes in 1 us: 1 GB/s; 2e6 flops in 1 us: 2 TFLOP/s.
        assert_eq!(rate(&kernel("k", None, None), 1e-3), "1.0 GB/s");
        assert_eq!(
            rate(&kernel("k", None, Some(2_000_000)), 1e-3),
            "2.00 TFLOP/s"
        );
    }

    #[test]
    fn table_and_trace_have_one_entry_per_launch() {
        let ks = [
            kernel("gemm_0", None, Some(4_000_000)),
            kernel("rows_1", None, None),
        ];
        let t = Timings {
            runs: vec![0.004, 0.003, 0.005],
            launches: vec![vec![0.002, 0.003], vec![0.001, 0.001]],
            trace: vec![(0.0, 0.003), (0.003, 0.001)],
        };
        let table = table("@main on test", &ks, &t, 1);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5, "{table}");
        assert!(
            lines[0].contains("3 runs after 1 warm-up: median 0.0040 ms"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("gemm_0") && lines[2].contains("71.4%"),
            "{table}"
        );
        assert!(
            lines[2].contains("TFLOP/s") && lines[3].contains("GB/s"),
            "{table}"
        );
        assert!(lines[4].starts_with("total"), "{table}");
        let json: serde_json::Value = serde_json::from_str(&trace_json(&ks, &t)).unwrap();
        let ev = json["traceEvents"].as_array().unwrap();
        assert_eq!(ev.len(), 2);
        assert_eq!(ev[1]["ph"], "X");
        assert_eq!(ev[1]["name"], "rows_1");
        assert_eq!(ev[1]["ts"], 3.0);
        assert_eq!(ev[1]["dur"], 1.0);
    }
}
