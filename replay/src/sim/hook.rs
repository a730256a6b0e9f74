//! What the simulator tells an observer as it goes: the moments a kernel's
//! trace hooks would record (a task made ready, switched in, switched out
//! and why, an action performed). The generator records a trace through
//! it ([`crate::generate`]), so a generated trace is what this simulator
//! did, by the same rules as every replay.

use corera_trace_ingest::Action;

/// Why a task left its core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Out {
    /// A more urgent task (or a tick's turn) took the core; it stays ready.
    Preempted,
    /// An ISR took the core; the task is still its core's task.
    Interrupted,
    /// It waits for an object another task holds.
    Blocked,
    /// Its phase ended: the job is done when `job_done`, else it waits for
    /// its next phase's release.
    PhaseEnd {
        /// The phase was the job's last.
        job_done: bool,
    },
}

/// An observer of a simulation, called at each moment a trace hook would
/// see, in the order the kernel would record them.
pub(crate) trait Hook {
    /// Task `task` became ready at `now`: the release of a phase
    /// (`new_job` when it is the first of a job), or an object handed to
    /// it by `by`.
    fn released(&mut self, now: u64, task: usize, new_job: bool, by: Option<usize>);
    /// Task `task` was switched in on `core`.
    fn switched_in(&mut self, now: u64, core: u16, task: usize);
    /// Task `task` left `core`.
    fn switched_out(&mut self, now: u64, core: u16, task: usize, why: Out);
    /// Task `task` performed `action`, the `index`-th of phase `phase` of
    /// its job `job`; a take that blocked says so (its switch-out came
    /// first).
    fn acted(&mut self, now: u64, task: usize, at: (usize, usize, usize), action: Action, blocked: bool);
    /// Who runs on each core once the scheduler has decided at `now`.
    fn settled(&mut self, now: u64, running: &[Option<usize>]);
}
