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
//!
//! A plan with loops or choices ([`Step::While`], [`Step::Case`]) cannot be one
//! graph: its straight-line stretches (launches and copies) are segments, each
//! captured as a graph on its first run and replayed after; at a loop test or a
//! choice the host waits for the stream, downloads the one-element test or
//! branch number and decides. A plan without them is one segment: one graph,
//! as before.

use crate::bundle::KernelInfo;
use crate::cuda::{Cuda, CudaError, DeviceBuffer, Event, Function, Graph, Module, Stream};
use crate::plan::{Plan, Source, Step, branch, selector};

/// A plan ready to run on one device.
pub struct DevicePlan<'c> {
    cuda: &'c Cuda,
    plan: Plan,
    arena: DeviceBuffer<'c>,
    stream: Stream<'c>,
    /// Each launch: its kernel, function and argument addresses.
    launches: Vec<(KernelInfo, Function, Vec<u64>)>,
    /// The steps as the device runs them.
    nodes: Vec<Node<'c>>,
    /// Whether a run has captured the graphs (of the segments it reached).
    captured: bool,
    /// The event [`DevicePlan::follow_streams`] orders with, made at
    /// its first use.
    order: Option<Event<'c>>,
}

/// One argument of [`DevicePlan::call`]: bytes in host memory, or the
/// device address of another library's buffer (a DLPack tensor's data),
/// borrowed for the call.
pub enum Arg<'a> {
    Host(&'a [u8]),
    Device(u64),
}

/// A plan's steps as one device runs them.
enum Node<'c> {
    /// Straight-line work, captured as one graph on its first run and
    /// replayed after.
    Segment {
        items: Vec<Item>,
        graph: Option<Graph<'c>>,
    },
    /// A loop ([`Step::While`]): its test's nodes, the test, its body's.
    While {
        cond: Vec<Node<'c>>,
        pred: Scalar,
        body: Vec<Node<'c>>,
    },
    /// A choice ([`Step::Case`]): the branch number and each branch's nodes.
    Case {
        index: Scalar,
        branches: Vec<Vec<Node<'c>>>,
    },
}

/// One piece of straight-line work.
enum Item {
    /// The launch of this number ([`Plan::launches`]).
    Launch(usize),
    /// A device-to-device copy ([`Step::Copy`]).
    Copy { dst: u64, src: u64, bytes: u64 },
}

/// A one-element buffer the host reads to decide: its address, size and
/// element type.
struct Scalar {
    ptr: u64,
    bytes: usize,
    elem: String,
}

/// `steps` as nodes over an arena at `base`; `next` is the number of the
/// first launch in them, and is left past the last.
fn nodes<'c>(plan: &Plan, steps: &[Step], base: u64, next: &mut usize) -> Vec<Node<'c>> {
    let at = |b: u32| base + plan.buffers[b as usize].offset;
    let scalar = |b: u32| {
        let buf = &plan.buffers[b as usize];
        Scalar {
            ptr: at(b),
            bytes: buf.bytes as usize,
            elem: buf.elem.clone(),
        }
    };
    let mut out = Vec::new();
    let mut items = Vec::new();
    let flush = |items: &mut Vec<Item>, out: &mut Vec<Node<'c>>| {
        if !items.is_empty() {
            out.push(Node::Segment {
                items: std::mem::take(items),
                graph: None,
            });
        }
    };
    for step in steps {
        match step {
            Step::Launch { .. } => {
                items.push(Item::Launch(*next));
                *next += 1;
            }
            Step::Copy { from, to } => items.push(Item::Copy {
                dst: at(*to),
                src: at(*from),
                bytes: plan.buffers[*to as usize].bytes,
            }),
            Step::While { cond, pred, body } => {
                flush(&mut items, &mut out);
                let cond = nodes(plan, cond, base, next);
                let body = nodes(plan, body, base, next);
                out.push(Node::While {
                    cond,
                    pred: scalar(*pred),
                    body,
                });
            }
            Step::Case { index, branches } => {
                flush(&mut items, &mut out);
                let branches = branches
                    .iter()
                    .map(|b| nodes(plan, b, base, next))
                    .collect();
                out.push(Node::Case {
                    index: scalar(*index),
                    branches,
                });
            }
            // Views run nothing; a one-device plan's collectives are its
            // identity.
            Step::Alias { .. } | Step::Collective { .. } => {}
        }
    }
    flush(&mut items, &mut out);
    out
}

/// How [`DevicePlan::exec`] runs straight-line work: each segment's graph,
/// or launch by launch between events (for timing: `events[2j]` and
/// `events[2j + 1]` around the `j`th launch run, `ran[j]` its number).
enum Mode<'a, 'c> {
    Graphs,
    Timed {
        events: &'a mut Vec<Event<'c>>,
        ran: &'a mut Vec<usize>,
    },
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
        let nodes = nodes(plan, &plan.steps, arena.device_ptr(), &mut 0);
        Ok(DevicePlan {
            cuda,
            plan: plan.clone(),
            arena,
            stream,
            launches,
            nodes,
            captured: false,
            order: None,
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

    /// Enqueues `items` on the plan's stream (launches, as many events
    /// around each as `mode` asks for).
    fn enqueue(&self, items: &[Item], mode: &mut Mode<'_, 'c>) -> Result<(), CudaError> {
        for item in items {
            match *item {
                Item::Launch(i) => {
                    let (k, f, ptrs) = &self.launches[i];
                    if let Mode::Timed { events, ran } = mode {
                        let j = ran.len();
                        while events.len() < 2 * j + 2 {
                            events.push(self.cuda.event()?);
                        }
                        self.cuda.record(&events[2 * j], &self.stream)?;
                        // SAFETY: validate checked every argument lies in the arena and
                        // is as large as its param.
                        unsafe { self.cuda.launch_on(*f, k, ptrs, Some(&self.stream))? };
                        self.cuda.record(&events[2 * j + 1], &self.stream)?;
                        ran.push(i);
                    } else {
                        // SAFETY: as above.
                        unsafe { self.cuda.launch_on(*f, k, ptrs, Some(&self.stream))? };
                    }
                }
                Item::Copy { dst, src, bytes } => {
                    // SAFETY: validate checked both buffers lie in the arena, of
                    // one size, not overlapping.
                    unsafe { self.cuda.copy_async(dst, src, bytes, &self.stream)? };
                }
            }
        }
        Ok(())
    }

    /// Waits for the stream and reads a test or branch number.
    fn read(&self, s: &Scalar) -> Result<i64, CudaError> {
        let mut bytes = vec![0u8; s.bytes];
        // SAFETY: validate checked the buffer lies in the arena; `bytes`
        // outlives the synchronization below.
        unsafe { self.cuda.download_async(s.ptr, &mut bytes, &self.stream)? };
        self.cuda
            .sync(&self.stream)
            .map_err(|e| with_func(e, &self.plan.func))?;
        selector(&s.elem, &bytes).ok_or_else(|| {
            CudaError::Invalid(format!(
                "@{}: a loop test or branch number is not one integer",
                self.plan.func
            ))
        })
    }

    /// Runs `nodes`: segments by `mode`, loops and choices decided on the
    /// host from the values their kernels left in the arena.
    fn exec(&self, nodes: &mut [Node<'c>], mode: &mut Mode<'_, 'c>) -> Result<(), CudaError> {
        for node in nodes {
            match node {
                Node::Segment { items, graph } => {
                    if let Mode::Timed { .. } = mode {
                        self.enqueue(items, mode)?;
                        continue;
                    }
                    if graph.is_none() {
                        self.cuda.begin_capture(&self.stream)?;
                        let enqueued = self.enqueue(items, mode);
                        let captured = self.cuda.end_capture(&self.stream);
                        enqueued?;
                        *graph = Some(captured?);
                    }
                    if let Some(g) = graph {
                        self.cuda.replay(g, &self.stream)?;
                    }
                }
                Node::While { cond, pred, body } => loop {
                    self.exec(cond, mode)?;
                    if self.read(pred)? == 0 {
                        break;
                    }
                    self.exec(body, mode)?;
                },
                Node::Case { index, branches } => {
                    let i = branch(self.read(index)?, branches.len());
                    self.exec(&mut branches[i], mode)?;
                }
            }
        }
        Ok(())
    }

    /// Enqueues one run of the plan: each segment's graph (captured the first
    /// time it runs), loops and choices decided on the host.
    fn replay(&mut self) -> Result<(), CudaError> {
        let mut nodes = std::mem::take(&mut self.nodes);
        let r = self.exec(&mut nodes, &mut Mode::Graphs);
        self.nodes = nodes;
        r?;
        self.captured = true;
        Ok(())
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

    /// Makes the plan's next work wait for what is enqueued so far on each
    /// of `streams` (`CUstream` handles of this context; 0: the legacy
    /// default stream), without blocking the host: how a caller orders the
    /// writes of the arrays it passes to [`DevicePlan::call`] before the
    /// call reads them.
    ///
    /// # Safety
    /// Each handle must be 0 or a live stream of this context.
    pub unsafe fn follow_streams(&mut self, streams: &[u64]) -> Result<(), CudaError> {
        if self.order.is_none() {
            self.order = Some(self.cuda.order_event()?);
        }
        let event = self.order.as_ref().expect("made above");
        for s in streams {
            // SAFETY: the caller vouches for the handle.
            unsafe { self.cuda.follow_stream(&self.stream, *s, event)? };
        }
        Ok(())
    }

    /// Runs the plan on `args` where they already are, and returns each
    /// result in a device buffer of its own (with its shape), all in one
    /// pass over the plan's stream: the arguments copied into the arena
    /// (host ones uploaded, device ones copied device to device), the
    /// graph replayed, the results copied out, then one wait.
    ///
    /// `shapes` binds a plan of dynamic dimensions ([`Plan::bind`]): each
    /// argument is placed in its buffer's corner by [`Plan::input_runs`]
    /// (over zeros where it is smaller), the size inputs are appended, and
    /// each result is cut to its shape by [`crate::plan::Binding::output_runs`].
    /// `None` runs a static plan, whose host arguments must be exactly
    /// their buffers' bytes.
    ///
    /// # Safety
    /// Each [`Arg::Device`] address must start the argument's bytes (at
    /// its shape) of live device memory this context can read, left
    /// unwritten until the call returns.
    pub unsafe fn call(
        &mut self,
        args: &[Arg<'_>],
        shapes: Option<&[Vec<i64>]>,
    ) -> Result<(Vec<DeviceBuffer<'c>>, Vec<Vec<i64>>), CudaError> {
        let inv = CudaError::Invalid;
        let binding = shapes.map(|s| self.plan.bind(s)).transpose().map_err(inv)?;
        let sizes = match &binding {
            Some(b) => self.plan.size_inputs(b).map_err(inv)?,
            None => Vec::new(),
        };
        if args.len() + sizes.len() != self.plan.inputs.len() {
            return Err(CudaError::Invalid(format!(
                "@{} takes {} arguments, {} given",
                self.plan.func,
                self.plan.inputs.len() - sizes.len(),
                args.len()
            )));
        }
        let mut placed = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            let buf = &self.plan.buffers[self.plan.inputs[i] as usize];
            let runs = match (&binding, shapes) {
                (Some(b), Some(s)) => self.plan.input_runs(b, i, &s[i]).map_err(inv)?,
                _ => vec![(0, 0, buf.bytes as usize)],
            };
            let needed = runs.iter().map(|(s, _, n)| s + n).max().unwrap_or(0);
            if let Arg::Host(data) = arg
                && data.len() < needed
            {
                return Err(CudaError::Invalid(format!(
                    "argument {i} of @{} is {} bytes, {needed} needed",
                    self.plan.func,
                    data.len()
                )));
            }
            placed.push((buf.offset, buf.bytes, runs));
        }
        let base = self.arena.device_ptr();
        let mut outs = Vec::with_capacity(self.plan.outputs.len());
        let mut out_shapes = Vec::with_capacity(self.plan.outputs.len());
        for (o, b) in self.plan.outputs.iter().enumerate() {
            let buf = &self.plan.buffers[*b as usize];
            let (shape, bytes, runs) = match &binding {
                Some(bd) => (
                    bd.output_shapes[o].clone(),
                    bd.output_bytes[o],
                    bd.output_runs(o),
                ),
                None => (
                    buf.shape.clone(),
                    buf.bytes,
                    vec![(0, 0, buf.bytes as usize)],
                ),
            };
            outs.push((self.cuda.alloc(bytes)?, buf.offset, runs));
            out_shapes.push(shape);
        }
        // Everything below is enqueued; the wait at the end runs even after an
        // error, so no copy outlives the host bytes it reads.
        let enqueued = (|| -> Result<(), CudaError> {
            for (arg, (offset, bytes, runs)) in args.iter().zip(&placed) {
                let dst = base + offset;
                let whole = runs.len() == 1 && runs[0] == (0, 0, *bytes as usize);
                if !whole {
                    // SAFETY: validate checked the buffer lies in the arena.
                    unsafe { self.cuda.zero_async(dst, *bytes, &self.stream)? };
                }
                for &(s, g, len) in runs {
                    match arg {
                        // SAFETY: the run lies in the buffer (input_runs) and in
                        // `data` (checked above); the wait below outlives it.
                        Arg::Host(data) => unsafe {
                            self.cuda.upload_async(
                                dst + g as u64,
                                &data[s..s + len],
                                &self.stream,
                            )?
                        },
                        // SAFETY: the caller vouches for the source range.
                        Arg::Device(src) => unsafe {
                            self.cuda.copy_async(
                                dst + g as u64,
                                src + s as u64,
                                len as u64,
                                &self.stream,
                            )?
                        },
                    }
                }
            }
            for (n, b) in sizes.iter().zip(&self.plan.inputs[args.len()..]) {
                let dst = base + self.plan.buffers[*b as usize].offset;
                // SAFETY: size_inputs checked the buffer is 4 bytes; `sizes`
                // outlives the wait below.
                unsafe { self.cuda.upload_async(dst, n, &self.stream)? };
            }
            self.replay()?;
            for (out, offset, runs) in &outs {
                for &(s, b, len) in runs {
                    // SAFETY: the run lies in the result's buffer (in the
                    // arena) and in `out`, which was allocated for it.
                    unsafe {
                        self.cuda.copy_async(
                            out.device_ptr() + s as u64,
                            base + offset + b as u64,
                            len as u64,
                            &self.stream,
                        )?
                    };
                }
            }
            Ok(())
        })();
        let waited = self
            .cuda
            .sync(&self.stream)
            .map_err(|e| with_func(e, &self.plan.func));
        enqueued?;
        waited?;
        Ok((outs.into_iter().map(|(b, ..)| b).collect(), out_shapes))
    }

    /// Times the plan: `warmup` untimed replays, then `reps` replays each between two
    /// events, then `reps` launch-by-launch runs with an event between launches.
    /// `inputs` (the per-call ones) are uploaded before every repetition, untimed, since
    /// a run may reuse their bytes after their last reader. Every timed run
    /// starts from a cold cache: [`FLUSH_BYTES`] written first (untimed), as
    /// `triton.testing.do_bench` does for the PyTorch rows it is compared
    /// with, so that a model whose weights fit in L2 is not timed reading
    /// them from there.
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
        let flush = self.cuda.alloc(FLUSH_BYTES)?;
        let (start, stop) = (self.cuda.event()?, self.cuda.event()?);
        let mut runs = Vec::with_capacity(reps as usize);
        for _ in 0..reps {
            self.upload(inputs, false)?;
            if !self.captured {
                self.run()?;
            }
            self.cold(&flush)?;
            self.cuda.record(&start, &self.stream)?;
            self.replay()?;
            self.cuda.record(&stop, &self.stream)?;
            self.cuda
                .sync(&self.stream)
                .map_err(|e| with_func(e, &self.plan.func))?;
            runs.push(self.cuda.elapsed(&start, &stop)?);
        }
        if self.plan.has_control_flow() {
            return self.bench_launches_with_control_flow(inputs, reps, runs, &flush);
        }
        let events: Vec<Event<'_>> = (0..=self.launches.len())
            .map(|_| self.cuda.event())
            .collect::<Result<_, _>>()?;
        let mut launches = vec![Vec::with_capacity(reps as usize); self.launches.len()];
        let mut trace = Vec::new();
        for _ in 0..reps {
            self.upload(inputs, false)?;
            self.cold(&flush)?;
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

impl<'c> DevicePlan<'c> {
    /// Evicts the plan's buffers from the GPU's caches: writes `flush`
    /// and waits for the whole context (the write goes on the legacy
    /// stream, which the plan's non-blocking stream does not wait for).
    fn cold(&self, flush: &DeviceBuffer<'_>) -> Result<(), CudaError> {
        flush.zero()?;
        self.cuda.synchronize()
    }

    /// [`DevicePlan::bench`]'s launch-by-launch pass for a plan with loops or
    /// choices: each run follows the control flow with events around every
    /// launch it makes; a launch's time is the sum over the run (every
    /// iteration), its trace entry its first start and that sum.
    fn bench_launches_with_control_flow(
        &mut self,
        inputs: &[&[u8]],
        reps: u32,
        runs: Vec<f64>,
        flush: &DeviceBuffer<'_>,
    ) -> Result<Timings, CudaError> {
        let n = self.launches.len();
        let mut launches = vec![Vec::with_capacity(reps as usize); n];
        let mut trace = Vec::new();
        let mut events: Vec<Event<'c>> = Vec::new();
        let mut nodes = std::mem::take(&mut self.nodes);
        for _ in 0..reps {
            let mut ran = Vec::new();
            let r = self.upload(inputs, false).and_then(|()| {
                self.cold(flush)?;
                self.exec(
                    &mut nodes,
                    &mut Mode::Timed {
                        events: &mut events,
                        ran: &mut ran,
                    },
                )?;
                self.cuda
                    .sync(&self.stream)
                    .map_err(|e| with_func(e, &self.plan.func))
            });
            if let Err(e) = r {
                self.nodes = nodes;
                return Err(e);
            }
            let mut sum = vec![0.0; n];
            let mut first: Vec<Option<f64>> = vec![None; n];
            for (j, i) in ran.iter().enumerate() {
                sum[*i] += self.cuda.elapsed(&events[2 * j], &events[2 * j + 1])?;
                if first[*i].is_none() {
                    first[*i] = Some(self.cuda.elapsed(&events[0], &events[2 * j])?);
                }
            }
            trace.clear();
            for (i, times) in launches.iter_mut().enumerate() {
                times.push(sum[i]);
                trace.push((first[i].unwrap_or(0.0), sum[i]));
            }
        }
        self.nodes = nodes;
        Ok(Timings {
            runs,
            launches,
            trace,
        })
    }
}

/// The bytes [`DevicePlan::bench`] writes before each timed run to empty
/// the caches: 256 MiB, as `triton.testing.do_bench` writes, five times
/// the H100's 50 MB L2.
pub const FLUSH_BYTES: u64 = 256 << 20;

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
