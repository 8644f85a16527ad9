//! Running a [`Plan`] on a CUDA device: one arena, one stream, one CUDA graph.
//!
//! [`DevicePlan::new`] checks the plan against the bundle's kernels, checks that its
//! arena fits the device's free memory (an error naming the bytes needed, before
//! anything runs), allocates the arena once, uploads the constants and resolves every
//! launch to a function and the device addresses of its buffers. [`DevicePlan::run`]
//! replays the launch sequence, captured once as a CUDA graph on the plan's stream;
//! inputs are uploaded before ([`DevicePlan::upload`]: all of them, or only the per-call
//! ones when the kept ones are in place) and results downloaded after
//! ([`DevicePlan::outputs`]). [`DevicePlan::bench`] times graph replays and each launch
//! with CUDA events.

use crate::bundle::KernelInfo;
use crate::cuda::{Cuda, CudaError, DeviceBuffer, Event, Function, Graph, Module, Stream};
use crate::plan::{Plan, Source};

/// A plan ready to run on one device.
pub struct DevicePlan<'c> {
    cuda: &'c Cuda,
    plan: Plan,
    arena: DeviceBuffer<'c>,
    stream: Stream<'c>,
    /// Each launch: its kernel, function and argument addresses.
    launches: Vec<(KernelInfo, Function, Vec<u64>)>,
    graph: Option<Graph<'c>>,
}

/// What [`DevicePlan::bench`] measured, in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Timings {
    /// One whole run (a graph replay) per repetition.
    pub runs: Vec<f64>,
    /// Per launch, in plan order: its time in each repetition of the launch-by-launch
    /// pass.
    pub launches: Vec<Vec<f64>>,
    /// The last launch-by-launch repetition: each launch's start after the first
    /// launch's start, and its duration (what a trace of one run shows).
    pub trace: Vec<(f64, f64)>,
}

/// One device's part of a plan: its arena (allocated once, zeroed, holding
/// the constants and the device's partition id), a stream, and each launch
/// resolved to a function and its buffers' addresses. [`DevicePlan`] holds
/// one; [`crate::MultiDevicePlan`] one per device.
pub(crate) struct Resident<'c> {
    pub(crate) cuda: &'c Cuda,
    pub(crate) arena: DeviceBuffer<'c>,
    pub(crate) stream: Stream<'c>,
    /// Each launch: its kernel, function and argument addresses.
    pub(crate) launches: Vec<(KernelInfo, Function, Vec<u64>)>,
}

impl<'c> Resident<'c> {
    /// Sets up `plan` (already validated against `kernels`, which `module`
    /// holds) on `cuda`'s device as device `device` of the plan; `name`
    /// names the device in the error when the arena does not fit its free
    /// memory (checked before anything is allocated).
    pub(crate) fn new(
        cuda: &'c Cuda,
        module: &Module<'c>,
        plan: &Plan,
        kernels: &[KernelInfo],
        device: u32,
        name: &str,
    ) -> Result<Resident<'c>, CudaError> {
        cuda.make_current()?;
        let (free, total) = cuda.mem_info()?;
        if plan.arena_bytes > free {
            return Err(CudaError::Invalid(format!(
                "@{} needs {} bytes ({:.2} GiB) of device memory for its planned arena, but {name} has {} bytes ({:.2} GiB) free of {}",
                plan.func,
                plan.arena_bytes,
                gib(plan.arena_bytes),
                free,
                gib(free),
                total
            )));
        }
        let arena = cuda.alloc(plan.arena_bytes)?;
        arena.zero()?;
        let base = arena.device_ptr();
        let launches = plan
            .launches(kernels)
            .map(|(k, args)| {
                let f = cuda.kernel_function(module, k)?;
                let ptrs = args
                    .iter()
                    .map(|a| base + plan.buffers[*a as usize].offset)
                    .collect();
                Ok((k.clone(), f, ptrs))
            })
            .collect::<Result<Vec<_>, CudaError>>()?;
        let stream = cuda.stream()?;
        let constants = plan.arena_constants(device).map_err(CudaError::Invalid)?;
        for (offset, data) in &constants {
            // SAFETY: validate checked the constant lies inside the arena; `constants`
            // outlives the synchronization below.
            unsafe { cuda.upload_async(base + offset, data, &stream)? };
        }
        cuda.sync(&stream)?;
        Ok(Resident {
            cuda,
            arena,
            stream,
            launches,
        })
    }
}

impl<'c> DevicePlan<'c> {
    /// Prepares `plan` (validated against `kernels`, which `module` holds) on `cuda`'s
    /// device: the arena allocated and zeroed, the constants uploaded.
    pub fn new(
        cuda: &'c Cuda,
        module: &Module<'c>,
        plan: &Plan,
        kernels: &[KernelInfo],
    ) -> Result<DevicePlan<'c>, CudaError> {
        plan.validate(kernels).map_err(CudaError::Invalid)?;
        if plan.devices > 1 {
            return Err(CudaError::Invalid(format!(
                "@{} is partitioned for {} devices: it runs on several GPUs with NCCL (`aic-run --target=cuda --devices=...`), not as one device's plan",
                plan.func, plan.devices
            )));
        }
        let Resident {
            cuda,
            arena,
            stream,
            launches,
        } = Resident::new(cuda, module, plan, kernels, 0, &cuda.device_name()?)?;
        Ok(DevicePlan {
            cuda,
            plan: plan.clone(),
            arena,
            stream,
            launches,
            graph: None,
        })
    }

    /// The plan this runs.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The kernel of each launch, in order.
    pub fn kernels(&self) -> impl Iterator<Item = &KernelInfo> {
        self.launches.iter().map(|(k, ..)| k)
    }

    /// Uploads the function's arguments (one byte buffer each); with `kept == false`
    /// only those passed per call (the kept ones already in place).
    pub fn upload(&self, inputs: &[&[u8]], kept: bool) -> Result<(), CudaError> {
        self.plan.check_inputs(inputs).map_err(CudaError::Invalid)?;
        for (data, b) in inputs.iter().zip(&self.plan.inputs) {
            let b = &self.plan.buffers[*b as usize];
            if matches!(b.source, Source::Input { kept: true, .. }) && !kept {
                continue;
            }
            // SAFETY: check_inputs checked the size; validate, that the buffer lies in
            // the arena; `inputs` outlives the synchronization below.
            unsafe {
                self.cuda
                    .upload_async(self.arena.device_ptr() + b.offset, data, &self.stream)?
            };
        }
        self.cuda.sync(&self.stream)
    }

    /// Enqueues every launch on the plan's stream.
    fn enqueue(&self) -> Result<(), CudaError> {
        for (k, f, ptrs) in &self.launches {
            // SAFETY: validate checked every argument lies in the arena and is as large
            // as its param.
            unsafe { self.cuda.launch_on(*f, k, ptrs, Some(&self.stream))? };
        }
        Ok(())
    }

    /// Enqueues one replay of the launch sequence, captured as a graph the first time.
    fn replay(&mut self) -> Result<(), CudaError> {
        if self.graph.is_none() {
            self.cuda.begin_capture(&self.stream)?;
            let enqueued = self.enqueue();
            let graph = self.cuda.end_capture(&self.stream);
            enqueued?;
            self.graph = Some(graph?);
        }
        match &self.graph {
            Some(g) => self.cuda.replay(g, &self.stream),
            None => Ok(()),
        }
    }

    /// Runs the plan once (a replay of its graph) and waits for it.
    pub fn run(&mut self) -> Result<(), CudaError> {
        self.replay()?;
        self.cuda
            .sync(&self.stream)
            .map_err(|e| with_func(e, &self.plan.func))
    }

    /// The results' bytes, downloaded from the arena.
    pub fn outputs(&self) -> Result<Vec<Vec<u8>>, CudaError> {
        let mut outs: Vec<Vec<u8>> = self
            .plan
            .outputs
            .iter()
            .map(|b| vec![0u8; self.plan.buffers[*b as usize].bytes as usize])
            .collect();
        for (out, b) in outs.iter_mut().zip(&self.plan.outputs) {
            let b = &self.plan.buffers[*b as usize];
            // SAFETY: the buffer lies in the arena; `outs` outlives the sync below.
            unsafe {
                self.cuda
                    .download_async(self.arena.device_ptr() + b.offset, out, &self.stream)?
            };
        }
        self.cuda.sync(&self.stream)?;
        Ok(outs)
    }

    /// Times the plan: `warmup` untimed replays, then `reps` replays each between two
    /// events, then `reps` launch-by-launch runs with an event between launches.
    /// `inputs` (the per-call ones) are uploaded before every repetition, untimed, since
    /// a run may reuse their bytes after their last reader.
    pub fn bench(
        &mut self,
        inputs: &[&[u8]],
        warmup: u32,
        reps: u32,
    ) -> Result<Timings, CudaError> {
        let reps = reps.max(1);
        for _ in 0..warmup {
            self.upload(inputs, false)?;
            self.run()?;
        }
        let (start, stop) = (self.cuda.event()?, self.cuda.event()?);
        let mut runs = Vec::with_capacity(reps as usize);
        for _ in 0..reps {
            self.upload(inputs, false)?;
            if self.graph.is_none() {
                self.run()?;
            }
            self.cuda.record(&start, &self.stream)?;
            self.replay()?;
            self.cuda.record(&stop, &self.stream)?;
            self.cuda
                .sync(&self.stream)
                .map_err(|e| with_func(e, &self.plan.func))?;
            runs.push(self.cuda.elapsed(&start, &stop)?);
        }
        let events: Vec<Event<'_>> = (0..=self.launches.len())
            .map(|_| self.cuda.event())
            .collect::<Result<_, _>>()?;
        let mut launches = vec![Vec::with_capacity(reps as usize); self.launches.len()];
        let mut trace = Vec::new();
        for _ in 0..reps {
            self.upload(inputs, false)?;
            self.cuda.record(&events[0], &self.stream)?;
            for (i, (k, f, ptrs)) in self.launches.iter().enumerate() {
                // SAFETY: as in `enqueue`.
                unsafe { self.cuda.launch_on(*f, k, ptrs, Some(&self.stream))? };
                self.cuda.record(&events[i + 1], &self.stream)?;
            }
            self.cuda
                .sync(&self.stream)
                .map_err(|e| with_func(e, &self.plan.func))?;
            trace.clear();
            for (i, times) in launches.iter_mut().enumerate() {
                let dur = self.cuda.elapsed(&events[i], &events[i + 1])?;
                times.push(dur);
                trace.push((self.cuda.elapsed(&events[0], &events[i])?, dur));
            }
        }
        Ok(Timings {
            runs,
            launches,
            trace,
        })
    }
}

/// Bytes in GiB, for messages.
fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// A driver error with the function whose run raised it.
fn with_func(e: CudaError, func: &str) -> CudaError {
    match e {
        CudaError::Call {
            call,
            code,
            message,
            log,
        } => CudaError::Call {
            call,
            code,
            message: format!("{message} while running @{func}"),
            log,
        },
        other => other,
    }
}
