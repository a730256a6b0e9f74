//! What a replay gives: per task, per run, and the stretches and signals of
//! its timeline.

use serde::{Deserialize, Serialize};

use super::Policy;

/// A task's results under one policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Task name.
    pub name: String,
    /// Time running, ns.
    pub running_ns: u64,
    /// Time ready but not running, ns.
    pub ready_ns: u64,
    /// Jobs completed.
    pub jobs: u64,
    /// Response time (release to finish) over completed jobs, ns.
    pub response_mean_ns: Option<u64>,
    /// 95th percentile response time, ns.
    pub response_p95_ns: Option<u64>,
    /// Largest response time, ns.
    pub response_max_ns: Option<u64>,
    /// Smallest response time and the quartiles (25 %, 50 %, 75 %), ns:
    /// with p95 and max, the distribution the report draws.
    pub response_quartiles_ns: Option<[u64; 4]>,
    /// Jobs whose response exceeded the task's deadline (its period, or
    /// the deadline the user gave).
    pub deadline_misses: Option<u64>,
    /// Summed lateness (response beyond the deadline) over the task's
    /// jobs, ns.
    pub lateness_ns: Option<u64>,
    /// Times the task resumed on another core.
    pub migrations: u64,
    /// CPU time the task spent on modelled overheads (migrations, the
    /// cross-core signals it received, global scheduling), ns: its
    /// RUNNING is its demand plus this.
    pub overhead_ns: u64,
    /// Of `overhead_ns`, the context switches into it
    /// (`context_switch_ns`): time a recording counts to neither task, as
    /// the switch runs between one task's switch-out and the next one's
    /// switch-in.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub context_switch_ns: u64,
    /// Its jobs as a recorder would have cut them ([`Spans`]).
    #[serde(skip)]
    pub spans: Spans,
}

/// A task's work as a recorder of this replay would have cut it into jobs:
/// a job ends where the task blocks, and a task whose next job is released
/// by the time one ends does not block, so the two are one. Two runs of one
/// firmware that block at different points (a stage whose queue never
/// empties on two cores runs every item in one go) compare by these, not
/// by the jobs of the recording the replay started from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// Spans that ended with every job in them finished and counted.
    pub count: u64,
    /// Their summed response (the first job's release to the last job's
    /// end), ns.
    pub total_ns: u64,
}

/// One stretch of a task running on a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Core.
    pub core: u16,
    /// Replay task index.
    pub task: u32,
    /// Start, ns.
    pub start_ns: u64,
    /// End, ns.
    pub end_ns: u64,
}

/// A signal from one task to another, for timeline arrows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    /// Sending task (replay index).
    pub from_task: u32,
    /// Core it sent from.
    pub from_core: u16,
    /// When it sent, ns.
    pub at_ns: u64,
    /// Task released.
    pub to_task: u32,
    /// When the release arrives (after cross-core latency), ns.
    pub arrive_ns: u64,
}

/// What a policy achieved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The policy.
    pub policy: Policy,
    /// Cores used.
    pub cores: usize,
    /// Per task, in replay order.
    pub tasks: Vec<TaskResult>,
    /// Busy time per core, ns.
    pub core_busy_ns: Vec<u64>,
    /// Busy share per core over the makespan (0..=1).
    pub core_busy: Vec<f64>,
    /// When the last job finished (or the last work ended), ns.
    pub makespan_ns: u64,
    /// Completed jobs per second of makespan.
    pub throughput_jobs_per_s: f64,
    /// Share of the recorded input rate this run sustains: the trace's
    /// length over the makespan, at most 1. Below [`KEEPS_UP`] the work
    /// piles up faster than it is done (the cores do not keep up with the
    /// input); a run that keeps up only lags by its last jobs' response.
    pub sustained_rate: f64,
    /// Sum of RUNNING over tasks, ns.
    pub running_ns: u64,
    /// Sum of READY over tasks, ns.
    pub ready_ns: u64,
    /// Mean response time over all completed jobs of all tasks, ns.
    pub response_mean_ns: f64,
    /// Core changes of tasks.
    pub migrations: u64,
    /// Signals between tasks on different cores.
    pub cross_core_messages: u64,
    /// Time during which some core was idle while some task waited ready.
    pub non_work_conserving_ns: u64,
    /// Times the run stopped with every unfinished task blocked on a
    /// semaphore or mutex (taken in another order than recorded) and the
    /// most urgent blocked take was granted to go on.
    #[serde(default)]
    pub deadlocks: u64,
    /// CPU time added by the modelled overheads, ns (the sum of
    /// `overheads`).
    pub overhead_ns: u64,
    /// That CPU time by cause.
    pub overheads: Overheads,
    /// Who ran where, when (empty unless asked for).
    #[serde(skip)]
    pub timeline: Vec<Segment>,
    /// Signals between tasks (empty unless the timeline is asked for).
    #[serde(skip)]
    pub flows: Vec<Flow>,
    /// Per job that ran (with the timeline): task, job index, release and
    /// first start, ns.
    #[serde(skip)]
    pub job_starts: Vec<(u32, u32, u64, u64)>,
    /// Stretches tasks waited ready (with the timeline): task, start,
    /// end, ns.
    #[serde(skip)]
    pub ready_spans: Vec<(u32, u64, u64)>,
    /// Each of the replay's cause-effect chains, in its order.
    #[serde(default)]
    pub chains: Vec<crate::ChainResult>,
}

/// CPU time the modelled overheads added, by cause, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overheads {
    /// Cache refills of tasks resuming on another core.
    pub migration_ns: u64,
    /// Interrupts taken for cross-core signals.
    pub signal_ns: u64,
    /// Bytes carried by cross-core messages.
    pub bytes_ns: u64,
    /// Decisions of the global scheduler.
    pub scheduling_ns: u64,
    /// The SMP kernel's lock: held, and spun on while another core held it
    /// (`[costs.lock]`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lock_ns: u64,
    /// Context switches (`context_switch_ns`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub context_switch_ns: u64,
}

fn is_zero(ns: &u64) -> bool {
    *ns == 0
}

impl Overheads {
    /// The total.
    pub fn total(&self) -> u64 {
        self.migration_ns + self.signal_ns + self.bytes_ns + self.scheduling_ns + self.lock_ns + self.context_switch_ns
    }
}

/// The sustained rate at which a run counts as keeping up with its input.
pub const KEEPS_UP: f64 = 0.99;

impl Outcome {
    /// For each replay task, how long it waited ready while each other
    /// task ran: `(task, ns)` (needs the timeline).
    pub fn waited_on(&self) -> Vec<Vec<(u32, u64)>> {
        let running: Vec<(u32, u64, u64)> = self.timeline.iter().map(|s| (s.task, s.start_ns, s.end_ns)).collect();
        corera_trace_ingest::waiting_shares(self.tasks.len(), &running, &self.ready_spans)
    }

    /// The cores that ran nothing.
    pub fn idle_cores(&self) -> Vec<u16> {
        (0..self.core_busy_ns.len()).filter(|&c| self.core_busy_ns[c] == 0).map(|c| c as u16).collect()
    }

    /// Whether the run keeps up with the recorded input rate.
    pub fn keeps_up(&self) -> bool {
        self.sustained_rate >= KEEPS_UP
    }

    /// Improvement over `base` (usually the single-core run), in %, of the
    /// summed READY time and of the mean response time: positive is better,
    /// 0 when `base` has none.
    pub fn improvement_over(&self, base: &Outcome) -> (f64, f64) {
        let better = |then: f64, now: f64| if then > 0.0 { (then - now) * 100.0 / then } else { 0.0 };
        (better(base.ready_ns as f64, self.ready_ns as f64), better(base.response_mean_ns, self.response_mean_ns))
    }
}

impl Outcome {
    /// The outcome of `replay` under `policy` on `k` cores before it ran:
    /// every task named, nothing counted yet.
    pub(crate) fn empty(policy: Policy, k: usize, replay: &crate::Replay) -> Outcome {
        Outcome {
            policy,
            cores: k,
            tasks: replay
                .tasks
                .iter()
                .map(|t| TaskResult {
                    name: t.name.clone(),
                    running_ns: 0,
                    ready_ns: 0,
                    jobs: 0,
                    response_mean_ns: None,
                    response_p95_ns: None,
                    response_max_ns: None,
                    response_quartiles_ns: None,
                    deadline_misses: None,
                    lateness_ns: None,
                    migrations: 0,
                    overhead_ns: 0,
                    context_switch_ns: 0,
                    spans: Spans::default(),
                })
                .collect(),
            core_busy_ns: vec![0; k],
            core_busy: vec![0.0; k],
            makespan_ns: 0,
            throughput_jobs_per_s: 0.0,
            sustained_rate: 1.0,
            running_ns: 0,
            ready_ns: 0,
            response_mean_ns: 0.0,
            migrations: 0,
            cross_core_messages: 0,
            non_work_conserving_ns: 0,
            deadlocks: 0,
            overhead_ns: 0,
            overheads: Overheads::default(),
            timeline: Vec::new(),
            flows: Vec::new(),
            job_starts: Vec::new(),
            ready_spans: Vec::new(),
            chains: Vec::new(),
        }
    }
}
