//! Cause-effect chains, measured end to end: chains of triggered jobs
//! (each task releases the next: a message, a notification, a semaphore
//! given) and chains through shared data (each task on its own release,
//! reading what the one before wrote).
//!
//! # Triggered chains
//! An instance of chain `A > B > C` starts at a job of `A`. The jobs of
//! `B` it caused are those with a phase released by an
//! [`Action::Signal`] of that job; the jobs of `C` those released by
//! signals of the `B` jobs from that phase on; and so on. The instance
//! runs from the release of the `A` job to the finish of the last job of
//! the last task it reached ("the last job it caused"): the reaction
//! latency of a chain of triggered jobs. A job of `A` that causes no job
//! of `B` starts no instance (a parser that forwards every other packet
//! starts an instance every other packet); an instance that ends at a job
//! the trace did not see finish (cut off by its end, or across a gap of
//! the recording) is not measured, as that job's response time is not.
//!
//! The causes are the replay's own links, fixed by the trace, so every
//! replay (any policy, any placement) has the same instances; only their
//! times differ. The recording's figures come from the same instances
//! with the recorded release and finish times ([`Replay::recorded_chains`]).
//!
//! # Data chains
//! Each job reads its inputs and writes its outputs at two instants:
//! implicit communication (the default) reads when the job first runs and
//! writes when it finishes; a LET task ([`ReplayTask::let_ns`]) reads at
//! its release and writes at the end of its logical execution time (or at
//! its finish, if it overran). A read at the instant of a write sees the
//! new value. Two latencies, as Dürr et al. (2019) define them for such
//! chains (job chains "immediate forward" and "immediate backward"), both
//! measured from the release of the first job:
//! - **reaction** ([`ChainKind::Reaction`]): from each job of the first
//!   task, the first job of the next task that reads after it wrote, and so
//!   on; the latency ends at the write of the job of the last task reached;
//! - **data age** ([`ChainKind::Age`]): from each job of the last task, the
//!   last job of the task before that wrote no later than it read, and so
//!   on back to the first task; the latency runs from that first job's
//!   release to the last job's write. This is the maximum data age Becker
//!   et al. (2016) bound and TORO computes (`type="Age"` in Amalthea).
//!
//! A last job whose chain back reaches no job of the first task (the data
//! had not gone round yet when the run began) is no instance; when no last
//! job's does, every last job counts as unfinished (the chain never
//! delivered).
//!
//! # Discovery
//! [`discover`] (in `chain/discover.rs`) finds candidate chains in the
//! trace's causes.

use corera_placement::{Chain, ChainKind};
use corera_trace_ingest::{Action, ResponseStats};
use serde::{Deserialize, Serialize};

use crate::ReplayError;
use crate::extract::Replay;

mod discover;

pub use discover::discover;

/// Where a chain's definition came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChainOrigin {
    /// `--chain` or the constraints file.
    User,
    /// The input model (Amalthea's event chains).
    Model,
    /// Found in the trace's causes ([`discover`]).
    Discovered,
}

/// A chain over the replay's tasks, with its instances.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayChain {
    /// Its name in reports.
    pub name: String,
    /// Its tasks (replay indices), cause first.
    pub tasks: Vec<u32>,
    /// End-to-end deadline of each instance, ns.
    pub deadline_ns: Option<u64>,
    /// How its tasks pass work on.
    pub kind: ChainKind,
    /// Where it came from.
    pub origin: ChainOrigin,
    /// Triggered chains: each instance, the global index of its first job (task by task, job
    /// by job, over the replay's tasks), and the range in `ends` of the
    /// jobs of the last task it reached.
    instances: Vec<(u32, u32, u32)>,
    ends: Vec<u32>,
}

/// A chain's latency under one replay (or in the recording).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainResult {
    /// The chain's name.
    pub name: String,
    /// Instances measured: their first job released and their last job
    /// finished.
    pub instances: u64,
    /// Instances whose last jobs did not finish in the run though the
    /// trace saw them finish, or (data chains) that the data never reached.
    pub unfinished: u64,
    /// Mean latency, ns.
    pub latency_mean_ns: Option<u64>,
    /// 95th percentile latency, ns.
    pub latency_p95_ns: Option<u64>,
    /// Largest latency, ns.
    pub latency_max_ns: Option<u64>,
    /// Smallest latency and the quartiles, ns.
    pub latency_quartiles_ns: Option<[u64; 4]>,
    /// Instances over the chain's deadline (when it has one).
    pub deadline_misses: Option<u64>,
    /// Each instance's latency in instance order (`None`: unfinished),
    /// for tests ([`ReplayChain::instances`] gives them in this order).
    #[serde(skip)]
    pub latencies_ns: Vec<Option<u64>>,
    /// Each instance's release in the run (ns), in the same order, for a
    /// triggered chain (empty for a data chain): where an instance is.
    #[serde(skip)]
    pub released_ns: Vec<u64>,
}

impl ChainResult {
    /// For a chain with a deadline, the instances that missed it: over it,
    /// or unfinished (they cannot have been on time).
    pub fn misses(&self) -> Option<u64> {
        self.deadline_misses.map(|m| m + self.unfinished)
    }
}

/// Marks a time a job did not reach (it never ran, or never finished).
pub(crate) const NEVER: u64 = u64::MAX;

/// What one job did in a run: released, first ran, finished ([`NEVER`]:
/// it did not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JobTimes {
    pub(crate) release: u64,
    pub(crate) start: u64,
    pub(crate) finish: u64,
}

impl JobTimes {
    pub(crate) const NONE: JobTimes = JobTimes { release: NEVER, start: NEVER, finish: NEVER };
}

/// Per task, the global index of its first job (one more entry at the
/// end): the order in which the simulator lays the jobs out.
pub(crate) fn job_bases(replay: &Replay) -> Vec<u32> {
    let mut bases = Vec::with_capacity(replay.tasks.len() + 1);
    let mut n = 0u32;
    for t in &replay.tasks {
        bases.push(n);
        n += t.jobs.len() as u32;
    }
    bases.push(n);
    bases
}

/// The instances of the triggered chain over replay tasks `tasks`: per
/// job of the first task that causes jobs of the last that all have a
/// response time in the trace, its global index and the range in the
/// second vector of the last task's jobs it reached.
pub(crate) fn caused(replay: &Replay, tasks: &[u32]) -> (Vec<(u32, u32, u32)>, Vec<u32>) {
    let bases = job_bases(replay);
    let (first, last) = (tasks[0] as usize, *tasks.last().expect("a chain has a task") as usize);
    let mut instances = Vec::new();
    let mut ends = Vec::new();
    // The frontier: jobs reached, each with the phase it was reached at.
    let mut frontier: Vec<(u32, u32)> = Vec::new();
    let mut next: Vec<(u32, u32)> = Vec::new();
    for job in 0..replay.tasks[first].jobs.len() as u32 {
        frontier.clear();
        frontier.push((job, 0));
        for pair in tasks.windows(2) {
            let (from, to) = (pair[0] as usize, pair[1]);
            next.clear();
            for &(j, from_phase) in &frontier {
                let phases = &replay.tasks[from].jobs[j as usize].phases[from_phase as usize..];
                for (_, action) in phases.iter().flat_map(|p| &p.actions) {
                    if let Action::Signal { target, job, phase, .. } = *action
                        && target == to
                    {
                        next.push((job, phase));
                    }
                }
            }
            // One entry per job, at the earliest phase reached.
            next.sort_unstable();
            next.dedup_by_key(|x| x.0);
            std::mem::swap(&mut frontier, &mut next);
            if frontier.is_empty() {
                break;
            }
        }
        // An instance ending at a job without a response time (cut off by
        // the end of the trace, or across a gap of the recording) is none.
        let measured = |j: u32| replay.tasks[last].jobs[j as usize].response_ns().is_some();
        if !frontier.is_empty() && frontier.iter().all(|&(j, _)| measured(j)) {
            let from = ends.len() as u32;
            ends.extend(frontier.iter().map(|&(j, _)| bases[last] + j));
            instances.push((bases[first] + job, from, ends.len() as u32));
        }
    }
    (instances, ends)
}

impl ReplayChain {
    /// Resolves `chain` over `replay`'s tasks and finds its instances.
    ///
    /// # Errors
    /// A task the replay does not have, named with the chain.
    pub fn new(replay: &Replay, chain: &Chain, origin: ChainOrigin) -> Result<ReplayChain, ReplayError> {
        let tasks = chain
            .tasks
            .iter()
            .map(|name| {
                let found = replay.tasks.iter().position(|t| t.name == *name);
                found
                    .map(|i| i as u32)
                    .ok_or_else(|| ReplayError::UnknownChainTask { chain: chain.name.clone(), task: name.clone() })
            })
            .collect::<Result<Vec<u32>, ReplayError>>()?;
        let (instances, ends) =
            if chain.kind == ChainKind::Triggered { caused(replay, &tasks) } else { (Vec::new(), Vec::new()) };
        Ok(ReplayChain {
            name: chain.name.clone(),
            tasks,
            deadline_ns: chain.deadline_ns(),
            kind: chain.kind,
            origin,
            instances,
            ends,
        })
    }

    /// The chain's figures in a run of `replay` whose jobs (laid out from
    /// `bases`, as [`job_bases`] gives them) did what `times` says. No
    /// instance ends at a job without a response time in the trace (cut
    /// off by its end, or across a gap of the recording).
    pub(crate) fn measure(&self, replay: &Replay, bases: &[u32], times: &[JobTimes]) -> ChainResult {
        let each: Vec<Option<u64>> = match self.kind {
            ChainKind::Triggered => self.triggered(times),
            ChainKind::Reaction | ChainKind::Age => self.through_data(replay, bases, times),
        };
        let mut latencies: Vec<u64> = each.iter().flatten().copied().collect();
        let unfinished = (each.len() - latencies.len()) as u64;
        let stats = ResponseStats::of(&mut latencies);
        ChainResult {
            name: self.name.clone(),
            instances: latencies.len() as u64,
            unfinished,
            latency_mean_ns: stats.map(|s| s.mean_ns),
            latency_p95_ns: stats.map(|s| s.p95_ns),
            latency_max_ns: stats.map(|s| s.max_ns),
            latency_quartiles_ns: stats.map(|_| quartiles(&latencies)),
            deadline_misses: self.deadline_ns.map(|d| latencies.iter().filter(|&&l| l > d).count() as u64),
            latencies_ns: each,
            released_ns: match self.kind {
                ChainKind::Triggered => {
                    self.instances.iter().map(|&(start, _, _)| times[start as usize].release).collect()
                }
                ChainKind::Reaction | ChainKind::Age => Vec::new(),
            },
        }
    }

    /// Each instance's latency (`None`: unfinished) of a triggered chain.
    fn triggered(&self, times: &[JobTimes]) -> Vec<Option<u64>> {
        self.instances
            .iter()
            .map(|&(start, a, b)| {
                let end = self.ends[a as usize..b as usize].iter().try_fold(0u64, |m, &j| {
                    let f = times[j as usize].finish;
                    (f != NEVER).then_some(m.max(f))
                });
                end.map(|end| end.saturating_sub(times[start as usize].release))
            })
            .collect()
    }

    /// Each instance's reaction time or data age (`None`: unfinished) of a
    /// data chain.
    fn through_data(&self, replay: &Replay, bases: &[u32], times: &[JobTimes]) -> Vec<Option<u64>> {
        // Per chain task, its jobs' read and write instants, in job order
        // (both ascending; NEVER for jobs that did not get there).
        let io: Vec<(Vec<u64>, Vec<u64>)> = self
            .tasks
            .iter()
            .map(|&t| {
                let let_ns = replay.tasks[t as usize].let_ns;
                let jobs = &times[bases[t as usize] as usize..bases[t as usize + 1] as usize];
                let mut reads: Vec<u64> = Vec::with_capacity(jobs.len());
                let mut writes: Vec<u64> = Vec::with_capacity(jobs.len());
                for j in jobs {
                    let (read, write) = match let_ns {
                        Some(l) if j.release != NEVER => {
                            let write = if j.finish == NEVER { NEVER } else { j.finish.max(j.release + l) };
                            (j.release, write)
                        }
                        _ => (j.start, j.finish),
                    };
                    // Keep them ascending (a job that never ran reads after all).
                    reads.push(read.max(reads.last().copied().unwrap_or(0)));
                    writes.push(write.max(writes.last().copied().unwrap_or(0)));
                }
                (reads, writes)
            })
            .collect();
        let release = |job: usize| times[bases[self.tasks[0] as usize] as usize + job].release;
        let recorded = |k: usize, job: usize| replay.tasks[self.tasks[k] as usize].jobs[job].response_ns().is_some();
        let n = io.len();
        match self.kind {
            ChainKind::Reaction => (0..io[0].1.len())
                .filter_map(|a| {
                    let mut job = a;
                    for k in 1..n {
                        let wrote = io[k - 1].1[job];
                        if wrote == NEVER {
                            return recorded(k - 1, job).then_some(None);
                        }
                        // The first job of the next task that reads after it.
                        job = io[k].0.partition_point(|&r| r < wrote);
                        if job == io[k].0.len() || io[k].0[job] == NEVER {
                            return Some(None);
                        }
                    }
                    let done = io[n - 1].1[job];
                    recorded(n - 1, job).then(|| (done != NEVER).then(|| done.saturating_sub(release(a))))
                })
                .collect(),
            _ => {
                let each: Vec<Option<u64>> = (0..io[n - 1].0.len())
                    .filter(|&c| recorded(n - 1, c))
                    .filter_map(|c| {
                        let done = io[n - 1].1[c];
                        let mut job = c;
                        for k in (1..n).rev() {
                            let read = io[k].0[job];
                            if read == NEVER {
                                return Some(None);
                            }
                            // The last job of the task before that wrote by then.
                            job = io[k - 1].1.partition_point(|&w| w <= read).checked_sub(1)?;
                        }
                        Some((done != NEVER).then(|| done.saturating_sub(release(job))))
                    })
                    .collect();
                // No data made it through at all: every last job is short
                // of it, not merely early.
                let last = (0..io[n - 1].0.len()).filter(|&c| recorded(n - 1, c)).count();
                if each.iter().all(Option::is_none) { vec![None; last] } else { each }
            }
        }
    }

    /// Why a triggered chain has no instance in `replay`, when it has none:
    /// the first pair of its tasks with no release between them, or that
    /// no job leads all the way through.
    pub fn why_empty(&self, replay: &Replay) -> Option<String> {
        if self.kind != ChainKind::Triggered || !self.instances.is_empty() {
            return None;
        }
        let name = |t: u32| replay.tasks[t as usize].name.as_str();
        let releases = |a: u32, b: u32| {
            let actions = replay.tasks[a as usize].jobs.iter().flat_map(|j| &j.phases).flat_map(|p| &p.actions);
            actions.into_iter().any(|(_, x)| matches!(*x, Action::Signal { target, .. } if target == b))
        };
        let cut = self.tasks.windows(2).find(|w| !releases(w[0], w[1]));
        Some(match cut {
            Some(w) => format!(
                "chain `{}`: no job of `{}` releases a job of `{}` in the trace (nothing it sends or gives \
                 wakes the other); tasks that pass data through shared variables make a data chain: \
                 --chain reaction:{0}=... or age:{0}=...",
                self.name,
                name(w[0]),
                name(w[1])
            ),
            None => format!(
                "chain `{}`: no job of `{}` leads through to a job of `{}` in the trace",
                self.name,
                name(self.tasks[0]),
                name(*self.tasks.last().expect("a chain has a task"))
            ),
        })
    }

    /// Its instances (first job, and the jobs that end it), for tests.
    pub fn instances(&self) -> impl Iterator<Item = (u32, &[u32])> {
        self.instances.iter().map(|&(s, a, b)| (s, &self.ends[a as usize..b as usize]))
    }
}

/// The smallest value and the quartiles of `sorted` (not empty), by
/// nearest rank: the distribution the reports draw, with p95 and max.
pub(crate) fn quartiles(sorted: &[u64]) -> [u64; 4] {
    let q = |f: usize| sorted[(sorted.len() * f).div_ceil(100).max(1) - 1];
    [sorted[0], q(25), q(50), q(75)]
}

impl Replay {
    /// Sets the chains every replay measures.
    ///
    /// # Errors
    /// A chain naming a task the replay does not have.
    pub fn set_chains(&mut self, chains: &[(Chain, ChainOrigin)]) -> Result<(), ReplayError> {
        let resolved = chains.iter().map(|(c, o)| ReplayChain::new(self, c, *o)).collect::<Result<Vec<_>, _>>()?;
        self.chains = resolved;
        Ok(())
    }

    /// The chains' figures in the recording: the same instances, at the
    /// recorded times.
    pub fn recorded_chains(&self) -> Vec<ChainResult> {
        if self.chains.is_empty() {
            return Vec::new();
        }
        let times: Vec<JobTimes> = self
            .tasks
            .iter()
            .flat_map(|t| &t.jobs)
            .map(|j| JobTimes {
                release: j.release_ns,
                start: j.start_ns.unwrap_or(NEVER),
                finish: j.finish_ns.unwrap_or(NEVER),
            })
            .collect();
        let bases = job_bases(self);
        self.chains.iter().map(|c| c.measure(self, &bases, &times)).collect()
    }

    /// Measures the heaviest chains found in the trace's causes (at most
    /// `max`, [`discover`]) in every replay.
    pub fn set_discovered_chains(&mut self, max: usize) {
        let found: Vec<(Chain, ChainOrigin)> =
            discover(self, max).into_iter().map(|c| (c, ChainOrigin::Discovered)).collect();
        self.set_chains(&found).expect("discovered chains name replay tasks");
    }
}

#[cfg(test)]
mod tests;
