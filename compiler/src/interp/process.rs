//! Which process an interpreter run is, among the replicas and partitions that
//! StableHLO's `interpreter.run_parallel` starts (one thread each), and how
//! those processes exchange values: a collective op hands its operand to
//! [`Process::exchange`] and gets back the operands of every process of its
//! group. A plain run is the only process: replica 0 of 1, partition 0 of 1.
//!
//! Also [`Extensions`]: per-run state of dialects' ops, one value per type
//! (the probes `interpreter.probe` records, say), so that the framework needs
//! no field for any dialect.

use super::{IResult, InterpError, Tensor};
use crate::ir::Op;
use std::any::{Any, TypeId};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long a process waits for the others of its group before the
/// collective fails (they took another path, or one of them failed).
const WAIT: Duration = Duration::from_secs(60);

/// One process of a run.
#[derive(Clone, Debug)]
pub struct Process {
    /// This process's replica.
    pub replica: usize,
    /// This process's partition.
    pub partition: usize,
    /// How many replicas run.
    pub replicas: usize,
    /// How many partitions each replica has.
    pub partitions: usize,
    /// Where the processes meet (`None`: a run of one process).
    pub grid: Option<Arc<Grid>>,
}

impl Default for Process {
    fn default() -> Self {
        Process {
            replica: 0,
            partition: 0,
            replicas: 1,
            partitions: 1,
            grid: None,
        }
    }
}

/// Where the processes of one `run_parallel` meet: values handed in, per
/// exchange, until every member of the group has given its own.
#[derive(Debug, Default)]
pub struct Grid {
    slots: Mutex<HashMap<ExchangeKey, Slot>>,
    arrived: Condvar,
    queues: Mutex<HashMap<Queue, VecDeque<Tensor>>>,
    pushed: Condvar,
}

/// A first-in first-out queue of values between the processes of a grid and
/// the host: a channel (`send`/`recv`), or the infeed and outfeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Queue {
    /// A channel, by its id.
    Channel(i64),
    /// Values the host feeds in.
    Infeed,
    /// Values the processes feed out.
    Outfeed,
}

impl Grid {
    /// Append `t` to `q`.
    pub fn push(&self, q: Queue, t: Tensor) {
        let mut qs = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        qs.entry(q).or_default().push_back(t);
        self.pushed.notify_all();
    }
    /// The oldest value of `q`, waiting for one (an error at `op` after the
    /// wait limit).
    pub fn pop(&self, op: Op, q: Queue) -> IResult<Tensor> {
        let mut qs = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(t) = qs.get_mut(&q).and_then(VecDeque::pop_front) {
                return Ok(t);
            }
            let (g, timeout) = self
                .pushed
                .wait_timeout(qs, WAIT)
                .unwrap_or_else(|e| e.into_inner());
            qs = g;
            if timeout.timed_out() {
                return Err(InterpError::at(
                    op,
                    format!("waited {} s for a value on {q:?}", WAIT.as_secs()),
                ));
            }
        }
    }
}

/// Which exchange: the group (flat ids) and how many exchanges the group
/// had before (its processes may run different programs, so the op is no
/// part of it: the group's collectives meet in order).
type ExchangeKey = (Vec<usize>, u64);

/// One exchange: the values handed in so far and how many members took the
/// result (the last one removes the slot).
#[derive(Debug)]
struct Slot {
    values: Vec<Option<Tensor>>,
    taken: usize,
}

impl Process {
    /// This process's id among all: `replica * partitions + partition`.
    pub fn flat_id(&self) -> usize {
        self.replica * self.partitions + self.partition
    }
    /// All processes' count.
    pub fn count(&self) -> usize {
        self.replicas * self.partitions
    }
    /// The values every process of `group` (flat ids, this one among them)
    /// hands in at the group's `seq`-th exchange, in the group's order (`op`
    /// is where errors are reported). Waits for the others; a run of one
    /// process exchanges with itself only.
    pub fn exchange(
        &self,
        op: Op,
        seq: u64,
        group: &[usize],
        mine: Tensor,
    ) -> IResult<Vec<Tensor>> {
        let me = self.flat_id();
        let pos = group.iter().position(|g| *g == me).ok_or_else(|| {
            InterpError::at(op, format!("process {me} is not in its group {group:?}"))
        })?;
        if group.len() == 1 {
            return Ok(vec![mine]);
        }
        let Some(grid) = &self.grid else {
            return Err(InterpError::at(
                op,
                format!(
                    "a group of {} processes in a run of one (run it under interpreter.run_parallel)",
                    group.len()
                ),
            ));
        };
        let key = (group.to_vec(), seq);
        let mut slots = grid.slots.lock().unwrap_or_else(|e| e.into_inner());
        let entry = slots.entry(key.clone()).or_insert_with(|| Slot {
            values: vec![None; group.len()],
            taken: 0,
        });
        entry.values[pos] = Some(mine);
        grid.arrived.notify_all();
        loop {
            let slot = slots.get_mut(&key).expect("removed only once all took it");
            if slot.values.iter().all(Option::is_some) {
                let out: Vec<Tensor> = slot.values.iter().flatten().cloned().collect();
                slot.taken += 1;
                if slot.taken == group.len() {
                    slots.remove(&key);
                }
                return Ok(out);
            }
            let (s, timeout) = grid
                .arrived
                .wait_timeout(slots, WAIT)
                .unwrap_or_else(|e| e.into_inner());
            slots = s;
            if timeout.timed_out() {
                return Err(InterpError::at(
                    op,
                    format!(
                        "process {me} waited {} s for the others of its group {group:?}",
                        WAIT.as_secs()
                    ),
                ));
            }
        }
    }
}

/// Per-run state of dialects' ops, one value of each type.
#[derive(Default)]
pub struct Extensions(HashMap<TypeId, Box<dyn Any>>);

impl Extensions {
    /// The value of type `T`, made with `Default` on first use.
    pub fn get_mut<T: Default + 'static>(&mut self) -> &mut T {
        self.0
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()))
            .downcast_mut::<T>()
            .expect("keyed by its type")
    }
    /// The value of type `T`, if there is one.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.get(&TypeId::of::<T>())?.downcast_ref::<T>()
    }
}

impl std::fmt::Debug for Extensions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Extensions({} values)", self.0.len())
    }
}
