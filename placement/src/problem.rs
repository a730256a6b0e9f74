//! The placement problem: tasks, loads, traffic and pins.

use corera_task_graph::TaskGraph;
use corera_trace_ingest::TaskKind;
use serde::Serialize;

use crate::{CoreId, Platform};

/// A user's request to keep a task on one core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// Task name.
    pub task: String,
    /// Core index.
    pub core: CoreId,
}

/// Constraints that no placement can meet.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlacementError {
    /// A pin names a task that is not in the trace.
    #[error("--pin {task}={core}: there is no task `{task}` in the trace")]
    UnknownTask {
        /// The name given.
        task: String,
        /// The core given.
        core: CoreId,
    },
    /// A pin names a core the platform does not have.
    #[error("--pin {task}={core}: the platform has cores 0..={last} only")]
    NoSuchCore {
        /// The task pinned.
        task: String,
        /// The core given.
        core: CoreId,
        /// The last core.
        last: CoreId,
    },
    /// Pinned load alone overloads a core.
    #[error(
        "the tasks pinned to core {core} ({tasks}) need {utilisation:.1} % of it, above its capacity of {capacity:.1} %"
    )]
    Overloaded {
        /// The core.
        core: CoreId,
        /// The tasks pinned there.
        tasks: String,
        /// Their utilisation in %.
        utilisation: f64,
        /// The capacity in %.
        capacity: f64,
    },
}

/// What the placement search works on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    /// Task names, one per placeable task.
    pub names: Vec<String>,
    /// The task's id in the trace and task graph.
    pub task_ids: Vec<u32>,
    /// CPU demand of each task in ns over the horizon.
    pub load: Vec<u64>,
    /// Core each task must run on, if pinned.
    pub pinned: Vec<Option<CoreId>>,
    /// Undirected traffic edges `(a, b, weight)` with `a < b`, sorted.
    pub edges: Vec<(u32, u32, u64)>,
    /// Adjacency lists `(neighbour, weight)`, built from `edges`.
    #[serde(skip)]
    pub adjacency: Vec<Vec<(u32, u64)>>,
    /// The time span the loads were measured over, in ns.
    pub horizon_ns: u64,
}

impl Problem {
    /// A problem from raw parts; `edges` may hold either direction and
    /// repeats, which are merged. Nothing is pinned.
    pub fn new(names: Vec<String>, load: Vec<u64>, edges: Vec<(u32, u32, u64)>, horizon_ns: u64) -> Problem {
        let n = names.len();
        let mut merged: Vec<(u32, u32, u64)> =
            edges.into_iter().filter(|&(a, b, w)| a != b && w > 0).map(|(a, b, w)| (a.min(b), a.max(b), w)).collect();
        merged.sort_unstable();
        merged.dedup_by(|next, kept| {
            if (next.0, next.1) == (kept.0, kept.1) {
                kept.2 += next.2;
                true
            } else {
                false
            }
        });
        let mut adjacency = vec![Vec::new(); n];
        for &(a, b, w) in &merged {
            adjacency[a as usize].push((b, w));
            adjacency[b as usize].push((a, w));
        }
        Problem {
            task_ids: (0..n as u32).collect(),
            names,
            load,
            pinned: vec![None; n],
            edges: merged,
            adjacency,
            horizon_ns,
        }
    }

    /// The placement problem of a task graph: every task and ISR (idle
    /// tasks excluded), loads from RUNNING time, traffic from interactions
    /// and shared resources. ISRs are pinned to core 0, where a single-core
    /// design routes its interrupts; `pins` add user pins.
    ///
    /// # Errors
    /// [`PlacementError`] when a pin names an unknown task or core, or
    /// pinned load overloads a core.
    pub fn from_graph(graph: &TaskGraph, platform: &Platform, pins: &[Pin]) -> Result<Problem, PlacementError> {
        let placeable: Vec<_> = graph.tasks.iter().filter(|t| t.kind != TaskKind::Idle).collect();
        let mut index = vec![u32::MAX; graph.tasks.len()];
        for (i, t) in placeable.iter().enumerate() {
            index[t.id as usize] = i as u32;
        }
        let mut edges = Vec::new();
        for e in &graph.edges {
            edges.push((index[e.src as usize], index[e.dst as usize], e.weight));
        }
        for a in &graph.affinities {
            edges.push((index[a.a as usize], index[a.b as usize], a.weight));
        }
        edges.retain(|&(a, b, _)| a != u32::MAX && b != u32::MAX);
        let mut problem = Problem::new(
            placeable.iter().map(|t| t.name.clone()).collect(),
            placeable.iter().map(|t| t.running_ns).collect(),
            edges,
            graph.duration_ns,
        );
        problem.task_ids = placeable.iter().map(|t| t.id).collect();
        for (i, t) in placeable.iter().enumerate() {
            if t.kind == TaskKind::Isr {
                problem.pinned[i] = Some(0);
            }
        }
        for pin in pins {
            let i = problem
                .names
                .iter()
                .position(|n| *n == pin.task)
                .ok_or_else(|| PlacementError::UnknownTask { task: pin.task.clone(), core: pin.core })?;
            if pin.core >= platform.cores {
                return Err(PlacementError::NoSuchCore {
                    task: pin.task.clone(),
                    core: pin.core,
                    last: platform.cores - 1,
                });
            }
            problem.pinned[i] = Some(pin.core);
        }
        problem.check_pins(platform)?;
        Ok(problem)
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no tasks.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Total load in ns.
    pub fn total_load(&self) -> u64 {
        self.load.iter().sum()
    }

    /// Total traffic weight (what a one-core placement keeps on-core).
    pub fn total_traffic(&self) -> u64 {
        self.edges.iter().map(|e| e.2).sum()
    }

    /// Which cores hold a pinned task (those cores are not interchangeable).
    pub fn pinned_cores(&self, cores: CoreId) -> Vec<bool> {
        let mut fixed = vec![false; cores as usize];
        for c in self.pinned.iter().flatten() {
            fixed[*c as usize] = true;
        }
        fixed
    }

    fn check_pins(&self, platform: &Platform) -> Result<(), PlacementError> {
        if self.horizon_ns == 0 {
            return Ok(());
        }
        for core in 0..platform.cores {
            let on: Vec<usize> = (0..self.len()).filter(|&i| self.pinned[i] == Some(core)).collect();
            let load: u64 = on.iter().map(|&i| self.load[i]).sum();
            let utilisation = load as f64 / self.horizon_ns as f64;
            if utilisation > platform.capacity {
                return Err(PlacementError::Overloaded {
                    core,
                    tasks: on.iter().map(|&i| self.names[i].as_str()).collect::<Vec<_>>().join(", "),
                    utilisation: utilisation * 100.0,
                    capacity: platform.capacity * 100.0,
                });
            }
        }
        Ok(())
    }
}
