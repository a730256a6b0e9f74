//! The replayable workload of a trace: each task's jobs as the recorded
//! [`Schedule`] gives them (the execution each needed, split where it
//! blocked; what released it; what it did to other tasks and to shared
//! resources along the way), renumbered over the tasks the replay runs.
//!
//! # Causality
//! A release that the schedule attributes to another task
//! ([`Release::Signal`]) happens in the replay when the sender reaches the
//! same point of its own job (the execution it had consumed in that job
//! when it sent), not at the recorded time. Every other release is a timer
//! release and keeps its recorded time, as do interrupts (an ISR entry is
//! an external event).
//!
//! # What is assumed
//! - Execution time does not depend on the core (beyond its speed factor)
//!   or on what else runs: no cache or bus contention is modelled.
//! - A task's execution between two recorded points is what it needs
//!   there; time spent in ISRs on its core is taken out.
//! - Semaphore and mutex takes and gives happen at the execution offsets
//!   recorded; a take blocks while another task holds the object, and a
//!   mutex's holder inherits the waiter's priority.

use corera_placement::Kernel;
use corera_trace_ingest::{Action, EventKind, Job, ObjectKind, Release, Schedule, TaskKind, Trace};

use crate::rules::{Recorded, Rules};

/// A task of the replay.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayTask {
    /// The task's id in the trace.
    pub id: u32,
    /// Name.
    pub name: String,
    /// Whether it is an ISR (runs above every task, on its core).
    pub isr: bool,
    /// Urgency: larger runs first (the trace's priority, oriented).
    pub urgency: i64,
    /// The recording ends each of its jobs where it blocked (it reports
    /// no job's end): a block a replay makes inside a job ends it there
    /// too ([`TaskSchedule::jobs_end_at_blocks`](corera_trace_ingest::TaskSchedule::jobs_end_at_blocks)).
    pub jobs_end_at_blocks: bool,
    /// Its jobs in order; [`Action::Signal`] targets and
    /// [`Release::Signal`] sources are replay task indices.
    pub jobs: Vec<Job>,
    /// Deadline of each job (ns after its release): the one the user gave,
    /// else the period the task graph inferred; misses and lateness are
    /// counted against it.
    pub deadline_ns: Option<u64>,
    /// Logical execution time, for a LET task: it reads its inputs at its
    /// release and writes its outputs this long after (data chains only;
    /// the replay runs it like any task).
    pub let_ns: Option<u64>,
    /// Recorded RUNNING time (ns).
    pub recorded_running_ns: u64,
    /// Recorded READY time (ns): ready or preempted, not running.
    pub recorded_ready_ns: u64,
    /// Of it, what the job the recording cut off (its last, unfinished)
    /// waited: a replay counts READY of the jobs the recording saw finish
    /// only, so a comparison leaves this out of the recorded figure
    /// ([`ReplayTask::comparable_ready_ns`]).
    pub recorded_cut_ready_ns: u64,
}

impl ReplayTask {
    /// Recorded READY of the jobs the recording saw finish: what a replay's
    /// READY compares with (neither knows the work a job cut off by the
    /// recording's end still needed, as neither knows its response).
    pub fn comparable_ready_ns(&self) -> u64 {
        self.recorded_ready_ns - self.recorded_cut_ready_ns
    }
}

/// A queue as the recording shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedQueue {
    /// Its name in the recording.
    pub name: String,
    /// The most items it held at once: sends less receives, from the
    /// fewest (what it held when the recording began is unknown).
    pub peak: u32,
    /// The fewest items it held when the recording began: what its
    /// recorded receives take before the sends that fill it.
    pub at_start: u32,
}

/// The replayable workload of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// Tasks and ISRs (idle tasks left out), in trace order.
    pub tasks: Vec<ReplayTask>,
    /// Index in `tasks` of each trace task (`u32::MAX` for idle tasks).
    pub index_of: Vec<u32>,
    /// Per kernel object (object ids are trace ids), whether it is a mutex
    /// (its holder inherits the urgency of the tasks waiting on it).
    pub mutexes: Vec<bool>,
    /// Per kernel object, the tokens a semaphore holds at the start: the
    /// fewest with which the recorded takes and gives, in their order,
    /// never go below zero (0 for other objects).
    pub tokens: Vec<u32>,
    /// Length of the trace in ns.
    pub duration_ns: u64,
    /// Cores the trace was recorded on.
    pub recorded_cores: usize,
    /// Per recorded core, when its scheduler came up
    /// ([`Schedule::cores_up_ns`]): a replay runs nothing there before.
    /// Empty: every core from the start.
    pub cores_up_ns: Vec<u64>,
    /// Per recorded core, whether it came up running a task the recording
    /// does not show switched in ([`Schedule::cores_up_running`]): the
    /// first task a replay switches to there as it comes up pays the
    /// context switch from it.
    pub cores_up_running: Vec<bool>,
    /// The tasks (indices in `tasks`) whose first job started a core's
    /// scheduler ([`Schedule::started_with`]): it takes no dispatch where
    /// the replayed kernel starts a task directly ([`crate::Rules`]).
    pub started_with: Vec<u32>,
    /// Events the workload came from.
    pub events: usize,
    /// The cause-effect chains every replay measures ([`Replay::set_chains`]).
    pub chains: Vec<crate::ReplayChain>,
    /// Per kernel object, if it is a queue, what the recording shows of it.
    pub queues: Vec<Option<RecordedQueue>>,
    /// Per kernel object, how many items it holds where a send to it
    /// blocks when full (0: unbounded, or not a queue), as the platform
    /// file gives them ([`Replay::set_kernel`]).
    pub capacity: Vec<u32>,
    /// What the recording shows of the kernel's rules.
    pub recorded: Recorded,
    /// The kernel's rules every replay keeps ([`Replay::set_kernel`]).
    pub rules: Rules,
}

impl Replay {
    /// Forgets the wake each job's phases took as recorded
    /// ([`corera_trace_ingest::RecordedWake`]), so that the platform's
    /// `dispatch_ns` and `message_latency_ns` charge every wake: where the
    /// platform's costs are the target's, stated or being fitted, not the
    /// recorded system's.
    pub fn forget_recorded_wakes(&mut self) {
        for p in self.tasks.iter_mut().flat_map(|t| &mut t.jobs).flat_map(|j| &mut j.phases) {
            p.wake = None;
        }
    }

    /// Extracts the replayable workload of `trace`: [`Replay::new`] on the
    /// schedule it records.
    pub fn from_trace(trace: &Trace, deadlines: &[Option<u64>]) -> Replay {
        Replay::new(trace, &Schedule::of(trace), deadlines)
    }

    /// The replayable workload of `trace`, whose recorded schedule is
    /// `schedule`. `deadlines` gives each trace task's deadline (its period,
    /// or the user's), if any, by trace task id.
    ///
    /// # Gaps
    /// The replay runs on the covered time only: its clock is the
    /// recording's less the gaps before each instant (a gap freezes it, and
    /// what ran or waited across one goes on after it), so that its figures
    /// and the recording's, both clipped to covered time, compare; a job
    /// that spans a gap has no response in either.
    pub fn new(trace: &Trace, schedule: &Schedule, deadlines: &[Option<u64>]) -> Replay {
        let mut index_of = vec![u32::MAX; trace.tasks.len()];
        let mut next = 0;
        for (id, t) in trace.tasks.iter().enumerate() {
            if t.kind != TaskKind::Idle {
                index_of[id] = next;
                next += 1;
            }
        }
        let slot = |id: u32| index_of[id as usize];
        // Urgency: larger runs first, whatever the trace's convention, by
        // the rank the kernel gives the priority.
        let oriented = |p: i32| trace.urgency(p);
        // The gaps, from the trace's start, and the replay's clock.
        let gaps: Vec<(u64, u64)> = trace
            .gaps
            .iter()
            .map(|g| (g.start.saturating_sub(trace.start()), g.end.saturating_sub(trace.start())))
            .collect();
        let covered = |t: u64| -> u64 {
            let before: u64 = gaps.iter().map(|&(s, e)| e.min(t).saturating_sub(s)).sum();
            t - before
        };
        let tasks = trace
            .tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind != TaskKind::Idle)
            .map(|(id, t)| {
                let recorded = &schedule.tasks[id];
                let mut jobs = recorded.jobs.clone();
                for j in &mut jobs {
                    j.release_ns = covered(j.release_ns);
                    j.start_ns = j.start_ns.map(covered);
                    j.finish_ns = j.finish_ns.map(covered);
                }
                for phase in jobs.iter_mut().flat_map(|j| j.phases.iter_mut()) {
                    if let Release::Timer(at)
                    | Release::Delay { at, .. }
                    | Release::Reselected { at, .. }
                    | Release::Period { at, .. } = &mut phase.release
                    {
                        *at = covered(*at);
                    }
                    if let Release::Signal { by } = &mut phase.release {
                        *by = slot(*by);
                    }
                    for (_, action) in &mut phase.actions {
                        match action {
                            Action::Signal { target, .. }
                            | Action::HandOff { target, .. }
                            | Action::Yield { target }
                            | Action::Next { target } => {
                                *target = slot(*target);
                            }
                            Action::SetPriority { task, priority } => {
                                *task = slot(*task);
                                *priority = oriented(*priority);
                            }
                            Action::Take(_)
                            | Action::Give(_)
                            | Action::Send(_)
                            | Action::Receive(_)
                            | Action::Logged => {}
                        }
                    }
                    // An idle task's priority is not the replay's.
                    phase.actions.retain(|(_, a)| !matches!(a, Action::SetPriority { task: u32::MAX, .. }));
                }
                ReplayTask {
                    id: id as u32,
                    name: t.name.clone(),
                    isr: t.kind == TaskKind::Isr,
                    urgency: i64::from(oriented(t.priority.unwrap_or(0))),
                    jobs_end_at_blocks: recorded.jobs_end_at_blocks && t.kind != TaskKind::Isr,
                    jobs,
                    deadline_ns: deadlines.get(id).copied().flatten(),
                    let_ns: None,
                    recorded_running_ns: recorded.running_ns(),
                    recorded_ready_ns: recorded.ready_ns(),
                    recorded_cut_ready_ns: recorded.ready_ns() - ready_of_finished_jobs(recorded),
                }
            })
            .collect();
        let mut tasks: Vec<ReplayTask> = tasks;
        merge_handoffs(&mut tasks);
        let recorded = Recorded::of(trace);
        let held = held(trace);
        let started_with =
            schedule.started_with.iter().flatten().map(|&t| index_of[t as usize]).filter(|&i| i != u32::MAX).collect();
        Replay {
            tasks,
            index_of,
            mutexes: trace.objects.iter().map(|o| o.kind == ObjectKind::Mutex).collect(),
            tokens: tokens(&held),
            duration_ns: covered(schedule.duration_ns),
            recorded_cores: trace.cores_seen().max(1),
            cores_up_ns: schedule.cores_up_ns.iter().map(|&at| covered(at)).collect(),
            cores_up_running: schedule.cores_up_running.clone(),
            started_with,
            events: trace.events.len(),
            chains: Vec::new(),
            queues: queues(trace, &held),
            capacity: vec![0; trace.objects.len()],
            rules: Rules::of(&recorded, &Kernel::default()).expect("no setting asks for a tick"),
            recorded,
        }
    }

    /// Keeps the kernel's rules as the recording shows them and a platform
    /// file's `kernel` settings override, and the queue lengths it gives.
    ///
    /// # Errors
    /// Time slicing asked for with no tick anywhere ([`Rules::of`]); a
    /// length for a queue the recording does not have, or shorter than
    /// the recording shows it holding.
    pub fn set_kernel(&mut self, kernel: &Kernel) -> Result<(), crate::ReplayError> {
        self.rules = Rules::of(&self.recorded, kernel)?;
        let named = |name: &str| self.queues.iter().flatten().any(|q| q.name == name);
        if let Some(name) = kernel.queues.keys().find(|n| !named(n)) {
            let known: Vec<&str> = self.queues.iter().flatten().map(|q| q.name.as_str()).collect();
            let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            return Err(crate::ReplayError::UnknownQueue { name: name.clone(), known });
        }
        for (o, q) in self.queues.iter().enumerate() {
            let Some(q) = q else { continue };
            let length = kernel.queues.get(&q.name).copied().or(kernel.queue_length).unwrap_or(0);
            if length > 0 && length < q.peak {
                return Err(crate::ReplayError::QueueTooShort { name: q.name.clone(), length, peak: q.peak });
            }
            self.capacity[o] = length;
        }
        Ok(())
    }

    /// Gives the named tasks logical execution times (LET: they read at
    /// their release and write at its end); names the trace does not have
    /// are skipped.
    pub fn set_let(&mut self, lets: &[(String, u64)]) {
        for (name, ns) in lets {
            if let Some(t) = self.tasks.iter_mut().find(|t| t.name == *name) {
                t.let_ns = Some(*ns);
            }
        }
    }

    /// The core of each replay task, from the core of each trace task (by
    /// trace id), as [`Setup::core_of`](crate::Setup::core_of) takes it.
    pub fn cores(&self, by_trace_id: &[u16]) -> Vec<u16> {
        self.tasks.iter().map(|t| by_trace_id.get(t.id as usize).copied().unwrap_or(0)).collect()
    }
}

/// Blocks on a take, as the recording shows them: a phase released by a
/// task's give of an object and beginning with a take of it is the task
/// having blocked on that take, woken when the object was handed over (a
/// recorder that writes the take when it succeeds, as corera's generator
/// does). Replayed as recorded, its release would wait for the give and
/// then race for the object, with nothing lent to its holder meanwhile;
/// so the take moves to the end of the phase before (where the task
/// blocked), the two phases become one, and the giver's signal goes: the
/// replay blocks on the take, lends the holder the waiter's urgency and
/// hands the object over at the give.
/// A phase of a task's job: (task, job, phase).
type PhaseOf = (u32, u32, u32);
/// An action of a task's job's phase: (task, job, phase, action index).
type ActionAt = (usize, usize, usize, usize);

fn merge_handoffs(tasks: &mut [ReplayTask]) {
    // Where each signal is: (target task, job, phase) -> (giver, job,
    // phase, action index).
    let mut signals: std::collections::HashMap<PhaseOf, ActionAt> = Default::default();
    for (g, task) in tasks.iter().enumerate() {
        for (gj, job) in task.jobs.iter().enumerate() {
            for (gp, phase) in job.phases.iter().enumerate() {
                for (k, &(_, action)) in phase.actions.iter().enumerate() {
                    if let Action::Signal { target, job, phase, .. } = action {
                        signals.insert((target, job, phase), (g, gj, gp, k));
                    }
                }
            }
        }
    }
    // The handoffs: the waiter's phase and the giver's signal.
    let mut merged: std::collections::HashMap<(u32, u32), Vec<u32>> = Default::default();
    let mut gone: Vec<ActionAt> = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        for (j, job) in task.jobs.iter().enumerate() {
            for (p, phase) in job.phases.iter().enumerate().skip(1) {
                let (Release::Signal { .. }, Some(&(0, Action::Take(obj)))) = (phase.release, phase.actions.first())
                else {
                    continue;
                };
                let Some(&(g, gj, gp, k)) = signals.get(&(t as u32, j as u32, p as u32)) else { continue };
                let actions = &tasks[g].jobs[gj].phases[gp].actions;
                let offset = actions[k].0;
                let gave =
                    actions[..k].iter().rev().take_while(|(o, _)| *o == offset).any(|(_, a)| *a == Action::Give(obj));
                if gave {
                    merged.entry((t as u32, j as u32)).or_default().push(p as u32);
                    gone.push((g, gj, gp, k));
                }
            }
        }
    }
    if merged.is_empty() {
        return;
    }
    // The givers' signals go (last first, so indices hold).
    gone.sort_unstable();
    for &(g, gj, gp, k) in gone.iter().rev() {
        tasks[g].jobs[gj].phases[gp].actions.remove(k);
    }
    // Each waiter's phase joins the one before it (last first), the take
    // where it blocked.
    for (&(t, j), phases) in &merged {
        let job = &mut tasks[t as usize].jobs[j as usize];
        for &p in phases.iter().rev() {
            let next = job.phases.remove(p as usize);
            let before = &mut job.phases[p as usize - 1];
            let offset = before.exec_ns;
            before.actions.extend(next.actions.iter().map(|&(o, a)| (offset + o, a)));
            before.exec_ns += next.exec_ns;
        }
    }
    // Signals aimed at later phases of those jobs aim lower.
    for action in tasks.iter_mut().flat_map(|t| &mut t.jobs).flat_map(|j| &mut j.phases).flat_map(|p| &mut p.actions) {
        if let (_, Action::Signal { target, job, phase, .. }) = action
            && let Some(removed) = merged.get(&(*target, *job))
        {
            *phase -= removed.iter().filter(|&&r| r < *phase).count() as u32;
        }
    }
}

/// What an object of a recording held over it, relative to the start: the
/// fewest and the most tokens (a give adds one, a take takes one away) and
/// items (sends and receives).
#[derive(Clone, Copy, Default)]
struct Held {
    tokens: (i64, i64),
    items: (i64, i64),
}

/// Per object of `trace`, what it held, in one pass over the events.
fn held(trace: &Trace) -> Vec<Held> {
    let mut now = vec![(0i64, 0i64); trace.objects.len()];
    let mut held = vec![Held::default(); trace.objects.len()];
    for e in &trace.events {
        let Some((tokens, items)) = now.get_mut(e.object as usize) else { continue };
        let h = &mut held[e.object as usize];
        let (n, range) = match e.kind {
            EventKind::Give | EventKind::Take => (tokens, &mut h.tokens),
            EventKind::Send | EventKind::Receive => (items, &mut h.items),
            _ => continue,
        };
        *n += if matches!(e.kind, EventKind::Give | EventKind::Send) { 1 } else { -1 };
        *range = (range.0.min(*n), range.1.max(*n));
    }
    held
}

/// Per object, the fewest tokens it must hold at the start for its
/// recorded takes and gives never to go below zero.
fn tokens(held: &[Held]) -> Vec<u32> {
    held.iter().map(|h| u32::try_from(-h.tokens.0).unwrap_or(u32::MAX)).collect()
}

/// Per queue of `trace`, its name and the most items the recording shows
/// it holding at once.
fn queues(trace: &Trace, held: &[Held]) -> Vec<Option<RecordedQueue>> {
    let peak = |h: &Held| u32::try_from(h.items.1 - h.items.0).unwrap_or(u32::MAX);
    let queue = |(o, h): (&corera_trace_ingest::Object, &Held)| {
        (o.kind == ObjectKind::Queue).then(|| RecordedQueue {
            name: o.name.clone(),
            peak: peak(h),
            at_start: u32::try_from(-h.items.0).unwrap_or(u32::MAX),
        })
    };
    trace.objects.iter().zip(held).map(queue).collect()
}

/// The READY time of `task`'s jobs the recording saw finish.
fn ready_of_finished_jobs(task: &corera_trace_ingest::TaskSchedule) -> u64 {
    let cut = task.jobs.last().filter(|j| !j.finished()).map_or(u64::MAX, |j| j.release_ns);
    task.ready.iter().filter(|s| s.start_ns < cut).map(|s| s.end_ns.min(cut) - s.start_ns).sum()
}
