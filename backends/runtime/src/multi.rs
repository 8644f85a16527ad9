//! A partitioned plan on several GPUs of one process: one arena, stream and
//! list of launches per device (as [`crate::DevicePlan`] has for one), the
//! plan's steps issued in order on every device's stream, and each
//! [`Step::Collective`] one NCCL group call across the devices
//! ([`crate::nccl`]). Device `d` of the plan (its mesh's device id) runs on
//! the CUDA device `ordinals[d]`.
//!
//! Layouts NCCL moves directly: all-reduce; all-gather and reduce-scatter
//! along a dimension with nothing before it (one contiguous chunk per rank);
//! all-gather along another dimension as one send/receive pair per row and
//! peer (up to [`MAX_PIECES`]); all-to-all between two such leading
//! dimensions; permutations that reach every device. Others are refused with
//! an error naming the step, not computed wrongly.

use std::collections::HashMap;

use crate::bundle::{KernelInfo, Param};
use crate::collective::Collective;
use crate::cuda::{Cuda, CudaError, Module};
use crate::nccl::{Comms, Nccl, NcclError};
use crate::plan::{Plan, Step};

/// The most send/receive pieces one collective step may take.
pub const MAX_PIECES: usize = 4096;

/// Why a multi-GPU run failed.
#[derive(Debug)]
pub enum MultiError {
    /// A CUDA call (or a plan that does not fit a device).
    Cuda(CudaError),
    /// NCCL.
    Nccl(NcclError),
    /// What was asked does not fit the plan.
    Invalid(String),
}

impl std::fmt::Display for MultiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MultiError::Cuda(e) => write!(f, "{e}"),
            MultiError::Nccl(e) => write!(f, "{e}"),
            MultiError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MultiError {}

impl From<CudaError> for MultiError {
    fn from(e: CudaError) -> Self {
        MultiError::Cuda(e)
    }
}

impl From<NcclError> for MultiError {
    fn from(e: NcclError) -> Self {
        MultiError::Nccl(e)
    }
}

/// One device's part of the run (set up as a one-device plan's is).
type Device<'c> = crate::device::Resident<'c>;

/// A partitioned plan ready to run on several GPUs.
pub struct MultiDevicePlan<'c> {
    nccl: &'c Nccl,
    plan: Plan,
    devices: Vec<Device<'c>>,
    /// Communicators per group list of the collective steps: one
    /// [`Comms`] per group, ranks in group order.
    comms: HashMap<Vec<Vec<u32>>, Vec<Comms<'c>>>,
}

/// Median wall time of a run and the part of it the collective steps took
/// on device 0's stream, in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiTimings {
    /// Each run's wall time (every device's stream synchronised).
    pub runs: Vec<f64>,
    /// Each run's time in collective steps on device 0 (CUDA events).
    pub collectives: Vec<f64>,
}

impl<'c> MultiDevicePlan<'c> {
    /// Prepares `plan` on `cudas` (one per device of the plan, each loaded for
    /// its ordinal, in device-id order) with their loaded `modules`:
    /// arenas, streams, constants, kernel functions and NCCL communicators
    /// (`ordinals`: each device's CUDA ordinal).
    pub fn new(
        cudas: &'c [Cuda],
        modules: &[Module<'c>],
        ordinals: &[i32],
        nccl: &'c Nccl,
        plan: &Plan,
        kernels: &[KernelInfo],
    ) -> Result<MultiDevicePlan<'c>, MultiError> {
        plan.validate(kernels).map_err(MultiError::Invalid)?;
        if plan.steps.iter().any(|s| {
            matches!(
                s,
                Step::Copy { .. } | Step::While { .. } | Step::Case { .. }
            )
        }) {
            return Err(MultiError::Invalid(format!(
                "@{} holds loops or choices: a partitioned plan with control flow runs on the host target only",
                plan.func
            )));
        }
        let n = plan.devices as usize;
        if cudas.len() != n || modules.len() != n || ordinals.len() != n {
            return Err(MultiError::Invalid(format!(
                "@{} runs on {n} devices, {} given",
                plan.func,
                cudas.len()
            )));
        }
        let mut devices = Vec::with_capacity(n);
        for (d, (cuda, module)) in cudas.iter().zip(modules).enumerate() {
            let name = format!(
                "device {d} (CUDA device {}, {})",
                ordinals[d],
                cuda.device_name()?
            );
            devices.push(Device::new(cuda, module, plan, kernels, d as u32, &name)?);
        }
        let mut comms = HashMap::new();
        for step in &plan.steps {
            if let Step::Collective { groups, .. } = step
                && !comms.contains_key(groups)
            {
                let per_group = groups
                    .iter()
                    .map(|g| {
                        let ords: Vec<i32> = g.iter().map(|d| ordinals[*d as usize]).collect();
                        nccl.comms(&ords)
                    })
                    .collect::<Result<Vec<_>, NcclError>>()?;
                comms.insert(groups.clone(), per_group);
            }
        }
        Ok(MultiDevicePlan {
            nccl,
            plan: plan.clone(),
            devices,
            comms,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Uploads each device's arguments (`inputs[d]` for device `d`).
    pub fn upload(&self, inputs: &[Vec<&[u8]>]) -> Result<(), MultiError> {
        if inputs.len() != self.devices.len() {
            return Err(MultiError::Invalid(format!(
                "{} devices, inputs for {}",
                self.devices.len(),
                inputs.len()
            )));
        }
        for (dev, ins) in self.devices.iter().zip(inputs) {
            self.plan.check_inputs(ins).map_err(MultiError::Invalid)?;
            dev.cuda.make_current()?;
            for (data, b) in ins.iter().zip(&self.plan.inputs) {
                let b = &self.plan.buffers[*b as usize];
                // SAFETY: the buffer lies inside the arena and `data` is its size.
                unsafe {
                    dev.cuda
                        .upload_async(dev.arena.device_ptr() + b.offset, data, &dev.stream)?
                };
            }
        }
        self.sync()
    }

    fn sync(&self) -> Result<(), MultiError> {
        for dev in &self.devices {
            dev.cuda.make_current()?;
            dev.cuda.sync(&dev.stream)?;
        }
        Ok(())
    }

    /// Issues every step on every device's stream (collectives as NCCL group
    /// calls); `between` is called around each collective step on device 0
    /// (`true` before, `false` after), for timing.
    fn enqueue(
        &self,
        between: &mut dyn FnMut(bool) -> Result<(), MultiError>,
    ) -> Result<(), MultiError> {
        let mut launch = 0;
        for (s, step) in self.plan.steps.iter().enumerate() {
            match step {
                // Refused in `new`.
                Step::Alias { .. } | Step::Copy { .. } | Step::While { .. } | Step::Case { .. } => {
                }
                Step::Launch { .. } => {
                    for dev in &self.devices {
                        let (k, f, ptrs) = &dev.launches[launch];
                        dev.cuda.make_current()?;
                        // SAFETY: the pointers are inside the device's arena, as large
                        // as their params (validated).
                        unsafe { dev.cuda.launch_on(*f, k, ptrs, Some(&dev.stream))? };
                    }
                    launch += 1;
                }
                Step::Collective {
                    op,
                    input,
                    output,
                    groups,
                } => {
                    between(true)?;
                    self.collective(s, op, *input, *output, groups)?;
                    between(false)?;
                }
            }
        }
        Ok(())
    }

    fn collective(
        &self,
        s: usize,
        op: &Collective,
        input: u32,
        output: u32,
        groups: &[Vec<u32>],
    ) -> Result<(), MultiError> {
        let (ib, ob) = (
            &self.plan.buffers[input as usize],
            &self.plan.buffers[output as usize],
        );
        let eb = Param::elem_bytes(&ib.elem).unwrap_or(1) as usize;
        let elems = |b: &crate::plan::Buffer| b.bytes as usize / eb;
        let outer = |shape: &[i64], d: u32| -> usize {
            shape[..d as usize].iter().product::<i64>().max(0) as usize
        };
        let unsupported = |what: &str| {
            MultiError::Invalid(format!(
                "@{}: step {s}: {what} is not supported yet on GPUs",
                self.plan.func
            ))
        };
        let comms = &self.comms[groups];
        let nccl = self.nccl;
        let elem = ib.elem.as_str();
        nccl.group(|| {
            for (g, members) in groups.iter().enumerate() {
                let n = members.len();
                for (rank, d) in members.iter().enumerate() {
                    let dev = &self.devices[*d as usize];
                    let comm = comms[g].comms[rank];
                    let stream = dev.stream.raw();
                    let base = dev.arena.device_ptr();
                    let (i, o) = (base + ib.offset, base + ob.offset);
                    // SAFETY: both buffers lie inside this device's arena with the
                    // sizes the plan validated for this collective.
                    unsafe {
                        match op {
                            Collective::AllReduce { reduction } => {
                                nccl.all_reduce(i, o, elems(ib), elem, *reduction, comm, stream)?
                            }
                            Collective::AllGather { dim } if outer(&ib.shape, *dim) <= 1 => {
                                nccl.all_gather(i, o, elems(ib), elem, comm, stream)?
                            }
                            Collective::AllGather { dim } => {
                                let rows = outer(&ib.shape, *dim);
                                if rows * n > MAX_PIECES {
                                    return Err(NcclError::Invalid(format!(
                                        "step {s}: an all-gather of {rows} rows over {n} devices"
                                    )));
                                }
                                let chunk = elems(ib) / rows.max(1);
                                for peer in 0..n {
                                    for r in 0..rows {
                                        nccl.send(i + (r * chunk * eb) as u64, chunk, elem, peer, comm, stream)?;
                                        let at = ((r * n + peer) * chunk * eb) as u64;
                                        nccl.recv(o + at, chunk, elem, peer, comm, stream)?;
                                    }
                                }
                            }
                            Collective::ReduceScatter { dim, reduction }
                                if outer(&ib.shape, *dim) <= 1 =>
                            {
                                nccl.reduce_scatter(i, o, elems(ob), elem, *reduction, comm, stream)?
                            }
                            Collective::AllToAll {
                                split_dim,
                                concat_dim,
                            } if outer(&ib.shape, *split_dim) <= 1
                                && outer(&ob.shape, *concat_dim) <= 1 =>
                            {
                                let part = elems(ib) / n;
                                for peer in 0..n {
                                    let at = (peer * part * eb) as u64;
                                    nccl.send(i + at, part, elem, peer, comm, stream)?;
                                    nccl.recv(o + at, part, elem, peer, comm, stream)?;
                                }
                            }
                            Collective::CollectivePermute { pairs } => {
                                let me = members[rank];
                                if !pairs.iter().any(|p| p[1] == me) {
                                    return Err(NcclError::Invalid(format!(
                                        "step {s}: a permutation that sends device {me} nothing"
                                    )));
                                }
                                let pos = |d: u32| members.iter().position(|m| *m == d);
                                for p in pairs {
                                    if p[0] == me && let Some(t) = pos(p[1]) {
                                        nccl.send(i, elems(ib), elem, t, comm, stream)?;
                                    }
                                    if p[1] == me && let Some(f) = pos(p[0]) {
                                        nccl.recv(o, elems(ob), elem, f, comm, stream)?;
                                    }
                                }
                            }
                            Collective::ReduceScatter { .. } => {
                                return Err(NcclError::Invalid(format!(
                                    "step {s}: a reduce-scatter along a dimension with dimensions before it is not supported yet on GPUs"
                                )));
                            }
                            Collective::AllToAll { .. } => {
                                return Err(NcclError::Invalid(format!(
                                    "step {s}: an all-to-all between dimensions with dimensions before them is not supported yet on GPUs"
                                )));
                            }
                        }
                    }
                }
            }
            Ok(())
        })
        .map_err(|e| match e {
            NcclError::Invalid(m) => unsupported(&m),
            e => MultiError::Nccl(e),
        })
    }

    /// One run: every step on every device, then every stream synchronised.
    pub fn run(&self) -> Result<(), MultiError> {
        self.enqueue(&mut |_| Ok(()))?;
        self.sync()
    }

    /// Each device's results (`outputs()[d]` for device `d`).
    pub fn outputs(&self) -> Result<Vec<Vec<Vec<u8>>>, MultiError> {
        let mut all = Vec::with_capacity(self.devices.len());
        for dev in &self.devices {
            dev.cuda.make_current()?;
            let mut outs = Vec::new();
            for b in &self.plan.outputs {
                let b = &self.plan.buffers[*b as usize];
                let mut out = vec![0u8; b.bytes as usize];
                // SAFETY: the buffer lies inside the arena; `out` is its size.
                unsafe {
                    dev.cuda.download_async(
                        dev.arena.device_ptr() + b.offset,
                        &mut out,
                        &dev.stream,
                    )?
                };
                outs.push(out);
            }
            dev.cuda.sync(&dev.stream)?;
            all.push(outs);
        }
        Ok(all)
    }

    /// Times `reps` runs after `warmup` (inputs uploaded once): each run's
    /// wall time, and the collective steps' share on device 0.
    pub fn bench(
        &self,
        inputs: &[Vec<&[u8]>],
        warmup: u32,
        reps: u32,
    ) -> Result<MultiTimings, MultiError> {
        self.upload(inputs)?;
        for _ in 0..warmup {
            self.run()?;
        }
        let dev0 = &self.devices[0];
        let ncoll = self
            .plan
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Collective { .. }))
            .count();
        // Events belong to the context current when they are made: device 0's.
        dev0.cuda.make_current()?;
        let events = (0..2 * ncoll)
            .map(|_| dev0.cuda.event())
            .collect::<Result<Vec<_>, CudaError>>()?;
        let mut t = MultiTimings {
            runs: Vec::new(),
            collectives: Vec::new(),
        };
        for _ in 0..reps.max(1) {
            let start = std::time::Instant::now();
            let mut k = 0;
            self.enqueue(&mut |_| {
                dev0.cuda.make_current()?;
                dev0.cuda.record(&events[k], &dev0.stream)?;
                k += 1;
                Ok(())
            })?;
            self.sync()?;
            t.runs.push(start.elapsed().as_secs_f64() * 1e3);
            dev0.cuda.make_current()?;
            let mut c = 0.0;
            for pair in events.chunks_exact(2) {
                c += dev0.cuda.elapsed(&pair[0], &pair[1])?;
            }
            t.collectives.push(c);
        }
        Ok(t)
    }
}
