//! The recorded schedule: one pass over a trace's events that says what
//! each task did. Both the task graph's figures (RUNNING, READY, jobs,
//! response times, periods) and the replay's workload are computed from it,
//! so the two can never disagree on what a job is.
//!
//! Per task a [`TaskSchedule`] holds the stretches it ran (core, start,
//! end), the stretches it waited ready, and its [`Job`]s: release, finish,
//! the execution split into [`Phase`]s where the job blocked, the
//! semaphore and mutex operations and the releases of other tasks at their
//! execution offsets ([`Action`]), and what released each phase
//! ([`Release`]).
//!
//! # Rules
//! - A job starts at a task's first `Ready` after its previous job ended,
//!   at a switch-in without one (a trace that records no ready events, or a
//!   task running when the trace starts), or at an ISR's entry. It ends at
//!   `Finished` (an ISR's exit). In a trace with
//!   [`Trace::queued_activations`] (BTF, an Amalthea model's synthesis),
//!   a `Ready` while a job is in flight is a further activation: a job of
//!   its own, released at that time and ready from the moment the earlier
//!   job finishes. That holds while the job waits too (an OSEK task
//!   activated in WAITING queues the activation), unless the source says
//!   the ready ends the wait ([`crate::Event::ends_wait`]: BTF's
//!   `release`). A task that never reports a finished job
//!   (a task looping on "wait; work", a format without job ends) ends its
//!   job when it blocks; for a task that does report them, a block splits
//!   the job into phases, and the next `Ready` (or switch-in) releases the
//!   next phase.
//! - ISR time is taken out of whatever it interrupted (a task or an outer
//!   ISR) on its core.
//! - Lost events: a task switched in on another core without a switch-out,
//!   or a core switching to a task while another still runs there, ends
//!   the earlier stretch at that moment (a displaced task is taken as
//!   preempted: ready). They are counted in one warning.
//! - Causes: a release at the instant another task woke the task (a
//!   wakeup, or a message or event aimed at it) is [`Release::Signal`]; the
//!   waker's current phase gets an [`Action::Signal`] at the execution it
//!   had consumed in it. Every other release is [`Release::Timer`] at its
//!   recorded time, except in a trace with no ready events at all: there a
//!   switch-in straight after another task's switch-out on its core is a
//!   hand-off ([`Action::HandOff`]) and one after the idle loop a
//!   [`Release::Delay`] from the task's own switch-out
//!   (`Builder::release_at_switch_in`); a task's first job, switched in
//!   with no ready event before (ready when the trace began), is a
//!   [`Release::Delay`] from the trace's start, which the replay charges
//!   no dispatch. Where the trace records its tick,
//!   a task whose timer releases count a steady number of ticks from its
//!   own block, more steadily than from its previous timer release, waits
//!   delays, not a period: those become [`Release::Delay`]s too
//!   (`delays_from_timers`); of the others, a task whose timer releases
//!   come a steady number of ticks after the release of its previous job
//!   counts a period from it, which moves with it in a replay where
//!   another task's signal started the series ([`Release::Period`],
//!   `periods_from_timers`).
//! - The scheduler start: on each core the first switch-in (of a task or
//!   the idle loop) starts the scheduler, unless a switch-out came first
//!   (the trace began with the system running). A job made ready there
//!   before it, or at its instant ahead of it in the recording (SEGGER's
//!   and TraceRecorder's FreeRTOS glue record a task's READY at
//!   `xTaskCreate`; FreeRTOS creates the timer task inside
//!   `vTaskStartScheduler`), is released at that instant, not at its
//!   creation; the jobs so released keep the order the recording first ran
//!   them in, 1 ns apart, so that a replay breaks their ties as the kernel
//!   did (FreeRTOS starts the last-created task of the highest priority).
//!   The one whose switch-in started the scheduler took no dispatch path
//!   (the start restores its context directly): [`Schedule::started_with`].
//!   Each core is then up from its own first switch ([`Schedule::cores_up_ns`]):
//!   a kernel brings its cores up one after another. Linux has no such
//!   start: it schedules before any trace starts.
//! - Idle tasks have running stretches (idle time, per core: one idle task
//!   may stand for every core's idle loop) and nothing else.
//!
//! Times are ns from the trace's first event.

use crate::{EventKind, NONE, ObjectId, TaskId, TaskKind, Tick, Trace, Warning};

/// A stretch of time on a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stretch {
    /// The core (for READY stretches: the core of the event that began it).
    pub core: u16,
    /// Start, ns from the trace start.
    pub start_ns: u64,
    /// End, ns from the trace start.
    pub end_ns: u64,
}

impl Stretch {
    /// Its length in ns.
    pub fn ns(&self) -> u64 {
        self.end_ns - self.start_ns
    }
}

/// What released a job or a phase of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// At a recorded time (ns from the trace start).
    Timer(u64),
    /// Another task's job: the [`Action::Signal`] in its phase that names
    /// this phase.
    Signal {
        /// The task that released it.
        by: TaskId,
    },
    /// A time after the task's own previous phase ended (it delayed
    /// itself, as `vTaskDelay` does): in a replay, `after_ns` after the
    /// replayed end of that phase.
    Delay {
        /// The recorded release, ns from the trace start.
        at: u64,
        /// Its distance from the end of the task's previous phase.
        after_ns: u64,
    },
    /// Ready throughout since the task's own previous switch-out: nothing
    /// else, not even the idle loop, was switched in on its core before
    /// the kernel switched it back in `switch_ns` later (a yield with no
    /// other task of its priority ready, in a recording that shows the
    /// idle loop and no ready events). A replay keeps it ready from the
    /// end of its previous phase, behind the tasks of its priority, and
    /// charges it the switch.
    Reselected {
        /// The recorded switch-in, ns from the trace start.
        at: u64,
        /// The switch, from its switch-out to its switch-in.
        switch_ns: u64,
    },
    /// A kernel timer the task set from its own previous release: the
    /// tick made it ready `after_ns` after the release of its previous
    /// job, which another task caused (or which was itself so timed).
    /// `vTaskDelayUntil` counts its period from the previous wake, and a
    /// task started by another counts from that start: a replay releases
    /// it `after_ns` after the replayed release of the previous job, so
    /// that the series moves with what started it.
    Period {
        /// The recorded release, ns from the trace start.
        at: u64,
        /// Its distance from the release of the task's previous job.
        after_ns: u64,
    },
}

/// Something a job does at an execution offset into a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Releases `target`'s phase `phase` of job `job`, carrying `bytes`
    /// (0 when none or unknown).
    Signal {
        /// The task released.
        target: TaskId,
        /// Its job index.
        job: u32,
        /// Its phase within the job.
        phase: u32,
        /// Message size in bytes.
        bytes: u32,
    },
    /// Takes a semaphore or mutex.
    Take(ObjectId),
    /// Gives it back.
    Give(ObjectId),
    /// Leaves its core to `target`'s phase `phase` of job `job`, which the
    /// kernel chose there as it left (a recording without ready events):
    /// releases it on the same core.
    HandOff {
        /// The task released.
        target: TaskId,
        /// Its job index.
        job: u32,
        /// Its phase within the job.
        phase: u32,
        /// The task leaving stayed ready (preempted, not blocked): it also
        /// yields to `target` there ([`Action::Yield`]).
        preempts: bool,
    },
    /// Leaves its core, still ready, to `target`, which the kernel chose
    /// over it there (switched out preempted, `target` switched in next on
    /// that core; in a recording with ready events, where `target`'s own
    /// release readied it): a replay puts it behind `target` where their
    /// priorities are equal, as a yield does (Linux's wake-up preemption,
    /// which a fixed-priority replay does not otherwise make). `target`
    /// the task itself: it yielded and the kernel chose it again, nothing
    /// else of its priority ready there.
    Yield {
        /// The task that took the core.
        target: TaskId,
    },
    /// Blocks (or ends its job) and the kernel chooses `target`, ready
    /// already, next on its core (a recording with ready events): where
    /// the kernel's order among the ready tasks is not fixed-priority
    /// (CFS's virtual runtime), a replay gives `target` the core.
    Next {
        /// The task chosen.
        target: TaskId,
    },
    /// Sends to a queue (a task it wakes is released by an
    /// [`Action::Signal`] beside it): the replay follows it for the time it
    /// holds the kernel's lock, and where the queue has a length, for the
    /// free place it takes.
    Send(ObjectId),
    /// Receives from a queue without blocking, likewise.
    Receive(ObjectId),
    /// Sets `task`'s own priority (in a [`Schedule`], the trace's
    /// convention; in a replay, its urgency: larger runs first).
    SetPriority {
        /// The task whose priority changes (itself or another).
        task: TaskId,
        /// Its priority from then on.
        priority: i32,
    },
    /// Writes an application event to the recorder ([`EventKind::Logged`]):
    /// the replay follows it only for the time it holds the kernel's lock
    /// on several cores.
    Logged,
}

/// A stretch of execution between two waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// What released this phase.
    pub release: Release,
    /// Execution it needed, in ns of the traced core.
    pub exec_ns: u64,
    /// Actions at offsets (ns of execution into this phase), in order.
    pub actions: Vec<(u64, Action)>,
    /// What its start took after it was made ready, where the recording
    /// shows it ([`RecordedWake`]).
    pub wake: Option<RecordedWake>,
}

/// What waking a phase took, as recorded: from its ready (or the return of
/// the last ISR on its core) to its start, where the switch that started
/// it made way for it (its core's idle task or a preempted task left) and
/// it was made ready since that core's previous switch-in. That switch is
/// the kernel's and the hardware's cost of the wake (the dispatch path, an
/// idle state's exit, another core's interrupt, a wake-up preemption's
/// wait), which no task's execution shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedWake {
    /// The delay, ns.
    pub ns: u64,
    /// The task that made it ready ran on another core than the one it
    /// started on.
    pub across: bool,
}

/// One job: a release, then phases separated by blocking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// When it was released, ns from the trace start.
    pub release_ns: u64,
    /// When it first ran (switched in, or the ISR entered), if it did:
    /// where implicit communication reads its inputs.
    pub start_ns: Option<u64>,
    /// When it finished, if the trace shows it (the last job of a task may
    /// be cut off by the end of the trace).
    pub finish_ns: Option<u64>,
    /// The phases; the first one's release is the job's.
    pub phases: Vec<Phase>,
    /// It spans a stretch the recording does not cover ([`Trace::gaps`]):
    /// its response time is not known.
    pub spans_gap: bool,
}

impl Phase {
    /// A phase released by `release`, its wake as recorded where known,
    /// before any execution.
    fn released(release: Release, wake: Option<RecordedWake>) -> Phase {
        Phase { release, exec_ns: 0, actions: Vec::new(), wake }
    }
}

impl Job {
    /// A job released at `release_ns`, its first phase `first`.
    fn new(release_ns: u64, first: Phase) -> Job {
        Job { release_ns, start_ns: None, finish_ns: None, phases: vec![first], spans_gap: false }
    }

    /// Whether the trace saw it finish.
    pub fn finished(&self) -> bool {
        self.finish_ns.is_some()
    }

    /// Release to finish, for a finished job that spans no gap of the
    /// recording.
    pub fn response_ns(&self) -> Option<u64> {
        self.finish_ns.filter(|_| !self.spans_gap).map(|f| f - self.release_ns)
    }

    /// Execution it needed over all phases.
    pub fn exec_ns(&self) -> u64 {
        self.phases.iter().map(|p| p.exec_ns).sum()
    }
}

/// The summary figures of a set of response times, by the one definition
/// the task graph and the replay share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResponseStats {
    /// Mean, rounded to the nearest ns.
    pub mean_ns: u64,
    /// 95th percentile by nearest rank: the smallest value with at least
    /// 95 % of the values at or below it.
    pub p95_ns: u64,
    /// Largest value.
    pub max_ns: u64,
}

impl ResponseStats {
    /// The figures of `values` (sorted in place); `None` when empty.
    pub fn of(values: &mut [u64]) -> Option<ResponseStats> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let n = values.len();
        let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
        Some(ResponseStats {
            mean_ns: (sum as f64 / n as f64).round() as u64,
            p95_ns: values[(n * 95).div_ceil(100) - 1],
            max_ns: values[n - 1],
        })
    }
}

/// What one task did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskSchedule {
    /// Stretches it ran, in time order (ISR time taken out).
    pub running: Vec<Stretch>,
    /// Stretches it was ready but not running, in time order.
    pub ready: Vec<Stretch>,
    /// Stretches it was running but paused by an ISR on its core (not
    /// READY time in the recording; the replay counts it as READY).
    pub interrupted: Vec<Stretch>,
    /// Its jobs, in release order.
    pub jobs: Vec<Job>,
    /// It reports no job's end (no `Finished` event), so each of its jobs
    /// ends where it blocked, as a recorder shows it.
    pub jobs_end_at_blocks: bool,
}

impl TaskSchedule {
    /// RUNNING time in ns.
    pub fn running_ns(&self) -> u64 {
        self.running.iter().map(Stretch::ns).sum()
    }

    /// READY time in ns.
    pub fn ready_ns(&self) -> u64 {
        self.ready.iter().map(Stretch::ns).sum()
    }

    /// Response times of the finished jobs, in release order (a job that
    /// spans a gap of the recording has none).
    pub fn responses(&self) -> impl Iterator<Item = u64> + '_ {
        self.jobs.iter().filter_map(Job::response_ns)
    }
}

/// For each of `n` tasks, how long it spent in its `waiting` spans while
/// each other task was in a `running` span (`(task, start, end)`, ns), the
/// time shared equally among the tasks running at once; `out[i]` lists
/// `(j, ns)` sorted by `j`.
pub fn waiting_shares(
    n: usize,
    running: &[(TaskId, u64, u64)],
    waiting: &[(TaskId, u64, u64)],
) -> Vec<Vec<(TaskId, u64)>> {
    // Boundaries: (time, order, kind, task); ends before starts at one
    // instant.
    let mut edges: Vec<(u64, u8, bool, TaskId)> = Vec::with_capacity(2 * (running.len() + waiting.len()));
    for (list, is_run) in [(running, true), (waiting, false)] {
        for &(t, start, end) in list {
            if end > start {
                edges.push((start, 1, is_run, t));
                edges.push((end, 0, is_run, t));
            }
        }
    }
    edges.sort_unstable();
    let mut acc: Vec<std::collections::BTreeMap<TaskId, f64>> = vec![Default::default(); n];
    let mut now_running: Vec<TaskId> = Vec::new();
    let mut now_waiting: Vec<TaskId> = Vec::new();
    let mut last = 0u64;
    for (time, order, is_run, task) in edges {
        if time > last && !now_running.is_empty() && !now_waiting.is_empty() {
            let share = (time - last) as f64 / now_running.len() as f64;
            for &i in &now_waiting {
                for &j in now_running.iter().filter(|&&j| j != i) {
                    *acc[i as usize].entry(j).or_insert(0.0) += share;
                }
            }
        }
        last = time;
        let set = if is_run { &mut now_running } else { &mut now_waiting };
        if order == 1 {
            set.push(task);
        } else if let Some(pos) = set.iter().position(|&x| x == task) {
            set.swap_remove(pos);
        }
    }
    acc.into_iter().map(|m| m.into_iter().map(|(j, ns)| (j, ns.round() as u64)).collect()).collect()
}

/// A task that left its core: who, when, whether it stayed ready, and the
/// phase it left (job and phase index), if in one.
#[derive(Clone, Copy)]
struct Left {
    task: usize,
    at: u64,
    preempted: bool,
    phase: Option<(usize, usize)>,
}

/// The recorded schedule of a whole trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Per trace task ([`TaskId`] indexes this).
    pub tasks: Vec<TaskSchedule>,
    /// Traced time span in ns.
    pub duration_ns: u64,
    /// Cores the events name (the largest core index plus one).
    pub cores: usize,
    /// Events that did not fit the tasks' states.
    pub warnings: Vec<Warning>,
    /// Per core, when it first switched (ns from the trace start), in a
    /// recording that shows the scheduler's start (tasks made ready before
    /// it): a core runs nothing before its scheduler does, and a kernel
    /// brings its cores up one after another (FreeRTOS SMP's first core
    /// starts the others). Empty for a recording begun mid-run.
    pub cores_up_ns: Vec<u64>,
    /// Per core (as `cores_up_ns`), whether it came up running a task the
    /// recording does not show switched in: its first switch is a
    /// switch-out (FreeRTOS SMP's second core, up on its idle task). The
    /// first task switched in there switched from that one.
    pub cores_up_running: Vec<bool>,
    /// Per core (as `cores_up_ns`), the task whose switch-in started its
    /// scheduler, its first job released there: the start restores its
    /// context directly (FreeRTOS's `prvPortStartFirstTask`), with no
    /// dispatch from a ready event. `None` where the start switched to
    /// the idle loop or to a task made ready after it.
    pub started_with: Vec<Option<TaskId>>,
}

impl Schedule {
    /// The schedule `trace` records.
    pub fn of(trace: &Trace) -> Schedule {
        let mut b = Builder::new(trace);
        for e in &trace.events {
            let now = e.time - b.start;
            let t = e.task as usize;
            if e.kind == EventKind::Logged {
                // The recorder's own work at that point of the job: no
                // evidence of what the scheduler did.
                b.act(t, Action::Logged, now);
                continue;
            }
            if e.kind.switch_out().is_some() || e.kind == EventKind::SwitchIn {
                b.scheduler_runs(usize::from(e.core), e.kind == EventKind::SwitchIn, now);
            }
            if trace.tasks[t].kind == TaskKind::Idle {
                b.idle(e.kind, t, usize::from(e.core), now);
                continue;
            }
            if e.kind.switch_out().is_none() {
                b.state[t].seen = true;
            }
            match e.kind {
                EventKind::Ready => b.ready(t, usize::from(e.core), now, e.ends_wait()),
                EventKind::SwitchIn => b.switch_in(t, usize::from(e.core), now),
                EventKind::Preempted | EventKind::Blocked | EventKind::Finished => b.switch_out(t, e.kind, now),
                EventKind::IsrEnter => b.isr_enter(t, usize::from(e.core), now),
                EventKind::IsrExit => b.isr_exit(t, usize::from(e.core), now),
                EventKind::Wakeup | EventKind::Send | EventKind::EventSet => {
                    if e.kind == EventKind::Send && e.object != NONE {
                        b.act(t, Action::Send(e.object), now);
                    }
                    b.wake(t, e.kind, e.peer, e.bytes, now);
                }
                EventKind::Take | EventKind::Give if e.object != NONE => {
                    let action =
                        if e.kind == EventKind::Take { Action::Take(e.object) } else { Action::Give(e.object) };
                    b.act(t, action, now);
                }
                EventKind::Receive if e.object != NONE => b.act(t, Action::Receive(e.object), now),
                EventKind::PrioritySet if e.peer != NONE => {
                    let priority = e.new_priority().unwrap_or_default();
                    let urgency = trace.urgency(priority);
                    let before = b.urgency[e.peer as usize].replace(urgency);
                    b.act(t, Action::SetPriority { task: e.peer, priority }, now);
                    if e.peer as usize == t && before.is_some_and(|u| urgency < u) {
                        b.lowering[t] = b.last_action(t);
                    }
                }
                EventKind::Take | EventKind::Give | EventKind::Receive | EventKind::PrioritySet => {}
                EventKind::Logged => unreachable!("an application event is kept above"),
            }
            let call = matches!(
                e.kind,
                EventKind::Wakeup
                    | EventKind::Send
                    | EventKind::EventSet
                    | EventKind::Take
                    | EventKind::Give
                    | EventKind::Receive
                    | EventKind::PrioritySet
            );
            let core = usize::from(e.core);
            if call && b.state[t].running_on == Some(e.core) && b.cores[core].isrs.is_empty() {
                b.cores[core].chance = now;
            }
            b.last_seen[t] = Some(now);
        }
        b.finish()
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct TaskState {
    /// Whether any event other than a switch-out was seen for it yet.
    seen: bool,
    /// The core it runs on.
    running_on: Option<u16>,
    /// Ready (not running) since.
    ready_since: Option<u64>,
    /// In a job (released, not finished).
    in_job: bool,
    /// Its job blocked and no release has come since.
    blocked: bool,
    /// Made ready (a release) at, and not run since; with its waker's core
    /// then, if a task made it ready.
    woken: Option<(u64, Option<u16>)>,
}

/// A switch-out that left its core to a task made ready.
#[derive(Clone, Copy, Debug)]
enum MadeWay {
    /// The idle task left: every task made ready meanwhile waited for
    /// that switch.
    IdleLeft,
    /// This task was preempted: a task made ready meanwhile waited for that
    /// switch if it is more urgent than it (one less urgent waited for the
    /// preempted task).
    Preempted(usize),
}

#[derive(Clone, Debug, Default)]
struct CoreState {
    /// The task (or idle task) switched in here.
    current: Option<usize>,
    /// Since when `current` runs uninterrupted.
    since: u64,
    /// ISRs executing here, innermost last, each with the start of its
    /// uninterrupted stretch.
    isrs: Vec<(usize, u64)>,
    /// Per ISR of `isrs`: what it interrupted (a task or an outer ISR, if
    /// anything ran) and since when.
    paused: Vec<Option<(usize, u64)>>,
    /// Its latest switch-in (a task's or the idle task's), if any.
    switched_in: Option<u64>,
    /// What its latest switch-out made way for, if a task made ready.
    made_way: Option<MadeWay>,
    /// When its last ISR returned.
    isr_end: u64,
    /// The latest moment the kernel would have switched here to a more
    /// urgent task made ready: an ISR's return, or a kernel call of the
    /// task running here.
    chance: u64,
    /// The tasks made ready here since its latest switch-in (with when).
    woken: Vec<(usize, u64)>,
}

/// A task whose timer releases come a steadier number of kernel ticks
/// after its own previous block than after its previous timer release
/// waits a delay (`vTaskDelay`, `k_sleep`), not a period
/// (`vTaskDelayUntil`): its jobs so released become [`Release::Delay`]s from that block, which a
/// replay counts from where the previous job ends there. Decided on how
/// many jobs come at the most common count: the delay must explain nine in
/// ten, and a tenth of them more than the period does (three at least), as
/// a job that ends in the tick it started in is as well explained by
/// either. Only where the trace records its tick (what a delay counts).
fn delays_from_timers(task: &mut TaskSchedule, tick: &Tick, start: u64) {
    let ticks = |from: u64, to: u64| tick.count_between(start + from, start + to);
    let timer = |j: &Job| match j.phases[0].release {
        Release::Timer(at) => Some(at),
        _ => None,
    };
    // The jobs released by a timer after the previous one ended: (job,
    // release, that end); and their tick counts from the end and from the
    // previous timer release.
    let mut delayed = Vec::new();
    let (mut from_block, mut from_release) = (Vec::new(), Vec::new());
    let mut last_timer = task.jobs.first().and_then(timer);
    for (k, w) in task.jobs.windows(2).enumerate() {
        if let (Some(at), Some(end)) = (timer(&w[1]), w[0].finish_ns)
            && at >= end
        {
            delayed.push((k + 1, at, end));
            from_block.push(ticks(end, at));
            from_release.extend(last_timer.map(|previous| ticks(previous, at)));
        }
        last_timer = timer(&w[1]).or(last_timer);
    }
    let n = from_block.len();
    let count = |values: &mut [u64]| mode(values).map_or(0, |(_, count)| count);
    let delay = count(&mut from_block);
    if n < 3 || delay * 10 < n * 9 || delay < count(&mut from_release) + (n / 10).max(3) {
        return;
    }
    for (k, at, end) in delayed {
        task.jobs[k].phases[0].release = Release::Delay { at, after_ns: at - end };
    }
}

/// A task whose timer releases come a steady number of kernel ticks after
/// the release of its previous job counts a period from its own wake
/// (`vTaskDelayUntil`, a timer the task starts): where such a series
/// follows a release that moves in a replay (another task's signal, a
/// delay), its jobs become [`Release::Period`]s, which a replay counts from
/// the replayed release of the previous job, so that the series moves with
/// its start; one that starts at a recorded time stays where recorded.
/// Steady: the most common count explains nine in ten of them, two at
/// least. Only where the trace records its tick (what such a timer counts).
fn periods_from_timers(task: &mut TaskSchedule, tick: &Tick, start: u64) {
    // The jobs released by a timer: (job, release, ticks since the
    // release of the job before).
    let timed: Vec<(usize, u64, u64)> = (1..task.jobs.len())
        .filter_map(|k| match task.jobs[k].phases[0].release {
            Release::Timer(at) if at >= task.jobs[k - 1].release_ns => {
                Some((k, at, tick.count_between(start + task.jobs[k - 1].release_ns, start + at)))
            }
            _ => None,
        })
        .collect();
    let mut counts: Vec<u64> = timed.iter().map(|&(.., n)| n).collect();
    let Some((period, n)) = mode(&mut counts) else { return };
    if period == 0 || n < 2 || n * 10 < timed.len() * 9 {
        return;
    }
    // In job order, so that a series moves from a release that does (a
    // signal, a delay, a period before it); one that starts at a recorded
    // time stays where recorded.
    for (k, at, count) in timed {
        let previous = &task.jobs[k - 1];
        if count == period && !matches!(previous.phases[0].release, Release::Timer(_)) {
            let after_ns = at - previous.release_ns;
            task.jobs[k].phases[0].release = Release::Period { at, after_ns };
        }
    }
}

/// The most common of `values` (sorted in place), the least of those tied,
/// and how many equal it; `None` for no values.
fn mode(values: &mut [u64]) -> Option<(u64, usize)> {
    values.sort_unstable();
    values.chunk_by(|a, b| a == b).max_by_key(|c| (c.len(), std::cmp::Reverse(c[0]))).map(|c| (c[0], c.len()))
}

/// The pieces of `[from, to)` outside `gaps` (sorted, not overlapping).
fn covered(gaps: &[(u64, u64)], from: u64, to: u64) -> Vec<(u64, u64)> {
    let mut pieces = Vec::new();
    let mut at = from;
    for &(start, end) in gaps.iter().filter(|&&(start, end)| start < to && end > from) {
        if start > at {
            pieces.push((at, start));
        }
        at = at.max(end);
    }
    if at < to {
        pieces.push((at, to));
    }
    pieces
}

/// Whether a gap of `gaps` lies (partly) inside `(from, to)`.
fn gap_between(gaps: &[(u64, u64)], from: u64, to: u64) -> bool {
    gaps.iter().any(|&(start, end)| start < to && end > from)
}

/// The pieces of each stretch outside `gaps`.
fn clip(stretches: &mut Vec<Stretch>, gaps: &[(u64, u64)]) {
    if gaps.is_empty() {
        return;
    }
    *stretches = stretches
        .iter()
        .flat_map(|s| {
            covered(gaps, s.start_ns, s.end_ns).into_iter().map(|(start_ns, end_ns)| Stretch {
                core: s.core,
                start_ns,
                end_ns,
            })
        })
        .collect();
}

/// The last wake of a task: (waker, time, bytes carried).
type Wake = (usize, u64, u32);

struct Builder<'a> {
    trace: &'a Trace,
    start: u64,
    tasks: Vec<TaskSchedule>,
    state: Vec<TaskState>,
    cores: Vec<CoreState>,
    /// Tasks with at least one `Finished` event.
    reports_finish: Vec<bool>,
    last_wake: Vec<Option<Wake>>,
    /// The last send of each task: (time, bytes).
    last_send: Vec<Option<(u64, u32)>>,
    /// Per task, activations that came while a job was in flight (with
    /// [`Trace::queued_activations`]): their release times, oldest first.
    queued: Vec<std::collections::VecDeque<u64>>,
    odd_switches: u64,
    /// The trace's gaps, from its start.
    gaps: Vec<(u64, u64)>,
    /// Per core, whether its scheduler has started.
    started: Vec<bool>,
    /// Per task, when its latest event was (before the current one).
    last_seen: Vec<Option<u64>>,
    /// Per core, the jobs (task, job index) released at its scheduler start.
    at_start: Vec<Vec<(usize, usize)>>,
    /// Per core, its first switch.
    first_switch: Vec<Option<u64>>,
    /// Per core, whether its first switch was a switch-out.
    first_out: Vec<bool>,
    /// The trace records no ready events: releases are read from the
    /// switches ([`Builder::release_at_switch_in`]).
    no_ready: bool,
    /// Per core, the task switched out last, until the next switch-in or
    /// the idle loop.
    handoff: Vec<Option<Left>>,
    /// Per task, its latest switch-out.
    last_out: Vec<Option<u64>>,
    /// The trace switches to the idle loop: a core with no idle switch-in
    /// between a task's switch-out and its switch-in never left it.
    shows_idle: bool,
    /// Per task, how urgent it is now (larger is more urgent), where the
    /// trace gives its priority.
    urgency: Vec<Option<i32>>,
    /// Per task, the action by which it lowered its own priority in its
    /// running stretch (job, phase, action), until its switch-out.
    lowering: Vec<Option<(usize, usize, usize)>>,
}

impl<'a> Builder<'a> {
    fn new(trace: &'a Trace) -> Builder<'a> {
        let n = trace.tasks.len();
        let mut reports_finish = vec![false; n];
        let mut max_core = 0;
        let mut shows_idle = false;
        for e in &trace.events {
            if e.kind == EventKind::Finished {
                reports_finish[e.task as usize] = true;
            }
            shows_idle |= e.kind == EventKind::SwitchIn && trace.tasks[e.task as usize].kind == TaskKind::Idle;
            max_core = max_core.max(usize::from(e.core));
        }
        Builder {
            trace,
            start: trace.start(),
            tasks: vec![TaskSchedule::default(); n],
            state: vec![TaskState::default(); n],
            cores: vec![CoreState::default(); if trace.events.is_empty() { 0 } else { max_core + 1 }],
            reports_finish,
            last_wake: vec![None; n],
            last_send: vec![None; n],
            gaps: trace
                .gaps
                .iter()
                .map(|g| (g.start.saturating_sub(trace.start()), g.end.saturating_sub(trace.start())))
                .collect(),
            queued: vec![std::collections::VecDeque::new(); n],
            odd_switches: 0,
            started: vec![false; max_core + 1],
            last_seen: vec![None; n],
            at_start: vec![Vec::new(); max_core + 1],
            first_switch: vec![None; max_core + 1],
            first_out: vec![false; max_core + 1],
            no_ready: !trace.records_ready(),
            handoff: vec![None; max_core + 1],
            last_out: vec![None; n],
            shows_idle,
            urgency: trace.tasks.iter().map(|t| t.priority.map(|p| trace.urgency(p))).collect(),
            lowering: vec![None; n],
        }
    }

    /// A switch on `core` at `now` (a switch-in when `first_in`): the first
    /// there starts its scheduler, releasing there what was made ready on
    /// `core` before it.
    fn scheduler_runs(&mut self, core: usize, first_in: bool, now: u64) {
        if std::mem::replace(&mut self.started[core], true) {
            return;
        }
        self.first_switch[core] = Some(now);
        self.first_out[core] = !first_in;
        // Linux schedules before any trace starts: its tasks never wait
        // for a scheduler to start (a trace filtered to some tasks may
        // open on a switch-in all the same).
        if !first_in || self.trace.os == Some(crate::Os::Linux) {
            return;
        }
        for t in 0..self.tasks.len() {
            let s = self.state[t];
            let Some(since) = s.ready_since else { continue };
            let task = &mut self.tasks[t];
            let on_core = task.ready.last().is_some_and(|r| usize::from(r.core) == core);
            let Some(job) = task.jobs.last_mut() else { continue };
            if since > now || !on_core || !s.in_job || s.running_on.is_some() || job.start_ns.is_some() {
                continue;
            }
            job.release_ns = now;
            if let [first] = job.phases.as_mut_slice()
                && matches!(first.release, Release::Timer(_))
            {
                first.release = Release::Timer(now);
            }
            if let Some(r) = task.ready.last_mut() {
                r.start_ns = now;
            }
            self.state[t].ready_since = Some(now);
            self.at_start[core].push((t, task.jobs.len() - 1));
        }
    }

    /// The jobs released at a scheduler start, 1 ns apart in the order the
    /// recording ran them; per core, the task whose switch-in started it.
    fn order_start_releases(&mut self) -> Vec<Option<TaskId>> {
        let mut started_with = vec![None; self.at_start.len()];
        for (core, group) in std::mem::take(&mut self.at_start).into_iter().enumerate() {
            let mut group: Vec<(Option<u64>, usize, usize)> =
                group.into_iter().map(|(t, j)| (self.tasks[t].jobs[j].start_ns, t, j)).collect();
            group.sort_by_key(|&(start, t, _)| (start.unwrap_or(u64::MAX), t));
            if let Some(&(start, t, 0)) = group.first()
                && start.is_some()
                && start == self.first_switch[core]
            {
                started_with[core] = Some(t as TaskId);
            }
            let Some(started) = self.first_switch[core] else { continue };
            for (rank, (_, t, j)) in group.into_iter().enumerate() {
                let rank = rank as u64;
                let job = &mut self.tasks[t].jobs[j];
                job.release_ns += rank;
                if let Release::Timer(at) = &mut job.phases[0].release {
                    *at += rank;
                }
                // Its READY counts from its release, as the replay's does.
                let task = &mut self.tasks[t];
                if let Some(r) = task.ready.iter_mut().find(|r| r.start_ns == started && usize::from(r.core) == core) {
                    r.start_ns = (started + rank).min(r.end_ns);
                } else if self.state[t].ready_since == Some(started) {
                    self.state[t].ready_since = Some(started + rank);
                }
            }
        }
        started_with
    }

    fn is_idle(&self, t: usize) -> bool {
        self.trace.tasks[t].kind == TaskKind::Idle
    }

    /// `t` ran on `core` from `from` to `to`: a stretch, and execution in
    /// its current phase.
    /// Time outside gaps goes into the stretches and the execution.
    fn ran(&mut self, t: usize, core: usize, from: u64, to: u64) {
        if to <= from {
            return;
        }
        let task = &mut self.tasks[t];
        let mut exec = 0;
        for (start, end) in covered(&self.gaps, from, to) {
            task.running.push(Stretch { core: core as u16, start_ns: start, end_ns: end });
            exec += end - start;
        }
        if let Some(phase) = task.jobs.last_mut().and_then(|j| j.phases.last_mut()) {
            phase.exec_ns += exec;
        }
    }

    /// Ends the uninterrupted stretch of whatever runs on top of `core`
    /// (the innermost ISR, else the current task) at `now`.
    fn pause_top(&mut self, core: usize, now: u64) {
        match self.cores[core].isrs.last().copied() {
            Some((isr, since)) => self.ran(isr, core, since, now),
            None => {
                if let Some(cur) = self.cores[core].current {
                    let since = self.cores[core].since;
                    self.ran(cur, core, since, now);
                }
            }
        }
    }

    /// Whatever runs on top of `core` continues from `now`.
    fn resume_top(&mut self, core: usize, now: u64) {
        match self.cores[core].isrs.last_mut() {
            Some(outer) => outer.1 = now,
            None => self.cores[core].since = now,
        }
    }

    /// The execution `t` has consumed in its current phase at `now`.
    fn offset(&self, t: usize, now: u64) -> u64 {
        let done = self.tasks[t].jobs.last().and_then(|j| j.phases.last()).map_or(0, |p| p.exec_ns);
        let Some(core) = self.state[t].running_on.map(usize::from) else { return done };
        let c = &self.cores[core];
        let since = match c.isrs.last() {
            Some(&(isr, since)) if isr == t => since,
            Some(_) => return done,
            None if c.current == Some(t) => c.since,
            None => return done,
        };
        let ran: u64 = covered(&self.gaps, since, now).iter().map(|(a, b)| b - a).sum();
        done + ran
    }

    fn ready_from(&mut self, t: usize, core: usize, now: u64) {
        if self.state[t].ready_since.is_none() {
            self.state[t].ready_since = Some(now);
            // The core is only known at the start; kept for reports.
            self.tasks[t].ready.push(Stretch { core: core as u16, start_ns: now, end_ns: now });
        }
    }

    fn ready_until(&mut self, t: usize, now: u64) {
        if self.state[t].ready_since.take().is_some()
            && let Some(last) = self.tasks[t].ready.last_mut()
        {
            last.end_ns = now;
            if last.end_ns == last.start_ns {
                self.tasks[t].ready.pop();
            }
        }
    }

    /// The release cause of a phase of `t` released at `now`, and the
    /// action to record on the waker's side.
    fn cause(&self, t: usize, now: u64) -> Option<Wake> {
        self.last_wake[t].filter(|&(w, at, _)| at == now && self.state[w].in_job)
    }

    /// A new job of `t` at `now`; its release cause is looked up.
    fn release_job(&mut self, t: usize, now: u64, signalled: bool) {
        let wake = if signalled { self.cause(t, now) } else { None };
        let release = wake.map_or(Release::Timer(now), |(by, ..)| Release::Signal { by: by as TaskId });
        self.tasks[t].jobs.push(Job::new(now, Phase::released(release, None)));
        let s = &mut self.state[t];
        s.in_job = true;
        s.blocked = false;
        if let Some(w) = wake {
            self.signal_from(w, t, now);
        }
    }

    /// A new phase of `t`'s current job at `now`.
    fn release_phase(&mut self, t: usize, now: u64) {
        let wake = self.cause(t, now);
        let release = wake.map_or(Release::Timer(now), |(by, ..)| Release::Signal { by: by as TaskId });
        let job = self.tasks[t].jobs.last_mut().expect("in a job");
        job.phases.push(Phase::released(release, None));
        self.state[t].blocked = false;
        if let Some(w) = wake {
            self.signal_from(w, t, now);
        }
    }

    /// Records on waker `w`'s current phase that it released `t`'s latest
    /// phase.
    fn signal_from(&mut self, (w, _, bytes): Wake, t: usize, now: u64) {
        let jobs = &self.tasks[t].jobs;
        let job = (jobs.len() - 1) as u32;
        let phase = (jobs[jobs.len() - 1].phases.len() - 1) as u32;
        let offset = self.offset(w, now);
        let action = Action::Signal { target: t as TaskId, job, phase, bytes };
        if let Some(p) = self.tasks[w].jobs.last_mut().and_then(|j| j.phases.last_mut()) {
            p.actions.push((offset, action));
        }
    }

    fn ready(&mut self, t: usize, core: usize, now: u64, ends_wait: bool) {
        let s = self.state[t];
        if self.trace.queued_activations && s.in_job && !(s.blocked && ends_wait) {
            // A further activation while this one is in flight (running,
            // ready, or waiting, unless the source says this ready ends
            // the wait): a job of its own, released when the current one
            // finishes.
            self.queued[t].push_back(now);
            return;
        }
        if s.running_on.is_some() || s.ready_since.is_some() {
            return;
        }
        if !s.in_job || s.blocked {
            if s.in_job {
                self.release_phase(t, now);
            } else {
                self.release_job(t, now, true);
            }
            let waker = self.cause(t, now).and_then(|(w, ..)| self.state[w].running_on);
            self.state[t].woken = Some((now, waker));
            let c = &mut self.cores[core];
            c.woken.push((t, now));
            if c.woken.len() > 256 {
                // A core that has not switched in a while: keep the tasks
                // still waiting to run.
                let state = &self.state;
                c.woken.retain(|&(u, at)| state[u].woken.is_some_and(|(r, _)| r == at));
            }
        }
        self.ready_from(t, core, now);
    }

    fn switch_in(&mut self, t: usize, core: usize, now: u64) {
        if self.state[t].running_on == Some(core as u16) {
            // Switched in again where it runs (some loggers repeat the
            // event when the kernel keeps the same task): it goes on.
            return;
        }
        // Switched in elsewhere without a switch-out there (a lost event):
        // that stretch ends now.
        if let Some(other) = self.state[t].running_on.map(usize::from) {
            if self.cores[other].isrs.is_empty() {
                let since = self.cores[other].since;
                self.ran(t, other, since, now);
            }
            self.cores[other].current = None;
            self.state[t].running_on = None;
            self.odd_switches += 1;
        }
        self.displace(core, t, now);
        self.ready_until(t, now);
        self.recorded_wake(t, core, now);
        if !self.no_ready
            && let Some(left) = self.handoff[core].take()
            && !gap_between(&self.gaps, left.at, now)
        {
            let target = t as TaskId;
            if left.task != t {
                self.left_to(left, if left.preempted { Action::Yield { target } } else { Action::Next { target } });
            } else if left.preempted {
                // It yielded and the kernel chose it again at once.
                self.left_to(left, Action::Yield { target });
            }
        }
        let s = self.state[t];
        if s.in_job && s.blocked {
            // No release since it blocked (the FreeRTOS BTF logger records
            // no ready events).
            self.release_at_switch_in(t, core, now, false);
        }
        if !s.in_job {
            self.release_at_switch_in(t, core, now, true);
            // Released at its switch-in with no READY, after a gap since
            // the task was last seen: its release was lost in the gap, so
            // its response is unknown.
            let seen = self.last_seen[t];
            if self.gaps.iter().any(|&(_, end)| end <= now && seen.is_none_or(|at| end > at))
                && let Some(job) = self.tasks[t].jobs.last_mut()
            {
                job.spans_gap = true;
            }
        }
        self.mark_start(t, now);
        self.state[t].running_on = Some(core as u16);
        self.cores[core].current = Some(t);
        self.cores[core].since = now;
    }

    /// `t` starts on `core` at `now`: where the switch made way for a task
    /// made ready, the wake of `t` (wherever it was made ready) is the time
    /// since its ready ([`RecordedWake`]); so is that of every task made
    /// ready on `core` since its previous switch-in that waited for this
    /// switch too (they go on after `t` as the kernel orders them): all of
    /// them where the idle task left, those more urgent than the preempted
    /// task at a preemption.
    fn recorded_wake(&mut self, t: usize, core: usize, now: u64) {
        let c = &mut self.cores[core];
        // Taken and given back, so that its room is kept.
        let mut woken = std::mem::take(&mut c.woken);
        let made_way = c.made_way.take();
        let since = c.switched_in.replace(now).filter(|_| made_way.is_some() && c.isrs.is_empty());
        let isr_end = c.isr_end;
        if let Some(since) = since {
            let own = self.state[t].woken.map(|(at, _)| (t, at));
            let urgency = &self.urgency;
            // At a preemption, a task more urgent than the preempted one
            // waited for this switch if the kernel had no chance to switch
            // to it before; one that let such a chance pass waited for the
            // preempted task (which may have inherited an urgency).
            let chance = c.chance;
            let waited = |&&(u, at): &&(usize, u64)| match made_way {
                Some(MadeWay::IdleLeft) => true,
                Some(MadeWay::Preempted(p)) => {
                    at >= chance && matches!((urgency[u], urgency[p]), (Some(a), Some(b)) if a > b)
                }
                None => false,
            };
            for &(u, at) in woken.iter().filter(waited).chain(own.iter()) {
                let Some((made_ready, waker)) = self.state[u].woken.filter(|&(r, _)| r == at) else { continue };
                self.state[u].woken = None;
                if made_ready < since || gap_between(&self.gaps, made_ready, now) {
                    continue;
                }
                // Across cores, the other core's interrupt is part of the wake.
                let across = waker.is_some_and(|w| usize::from(w) != core);
                let from = if across { made_ready } else { made_ready.max(isr_end) };
                if let Some(phase) = self.tasks[u].jobs.last_mut().and_then(|j| j.phases.last_mut()) {
                    phase.wake = Some(RecordedWake { ns: now - from, across });
                }
            }
        }
        self.state[t].woken = None;
        woken.clear();
        self.cores[core].woken = woken;
    }

    /// A job (`new_job`) or a phase of `t` released at its switch-in on
    /// `core` at `now`, with no READY before it. The task's first job (in
    /// any trace, with no gap before it: it was ready when the trace began)
    /// is released at `now` as a delay from the trace's start: the dispatch
    /// that led to the switch-in is past, and a timer release would be
    /// charged it again. In a trace that records no ready events at all
    /// (the FreeRTOS BTF logger), the switches say what released a later
    /// one:
    /// - switched in straight after another task's switch-out on its core
    ///   (no idle loop between), it was ready when that task left, the
    ///   moment the kernel chose it: released by that task at the end of
    ///   its phase ([`Release::Signal`], [`Action::HandOff`]), READY over
    ///   the dispatch;
    /// - switched in straight after its own switch-out on its core, in a
    ///   trace that shows the idle loop, it never stopped being ready (it
    ///   yielded, and the kernel chose it again): [`Release::Reselected`];
    /// - switched in after the idle loop ran, a timer released it: a delay
    ///   from its own latest switch-out ([`Release::Delay`]), as
    ///   `vTaskDelay` counts;
    /// - otherwise (a trace with ready events, a gap before), at `now`.
    fn release_at_switch_in(&mut self, t: usize, core: usize, now: u64, new_job: bool) {
        let prior = if self.no_ready { self.handoff[core].take() } else { None };
        let unbroken = |from: u64| !gap_between(&self.gaps, from, now);
        let (at, release) = match (prior, self.last_out[t]) {
            (Some(left), _) if left.task != t && left.phase.is_some() && unbroken(left.at) => {
                (left.at, Release::Signal { by: left.task as TaskId })
            }
            (Some(left), _) if left.task == t && self.shows_idle && unbroken(left.at) => {
                (now, Release::Reselected { at: now, switch_ns: now - left.at })
            }
            (_, Some(out)) if self.no_ready && unbroken(out) => (now, Release::Delay { at: now, after_ns: now - out }),
            // Its first job: the switch-in already includes the dispatch.
            (_, None) if unbroken(0) => (now, Release::Delay { at: now, after_ns: now }),
            _ => (now, Release::Timer(now)),
        };
        // A hand-off's switch, as recorded, is what its wake took.
        let wake = matches!(release, Release::Signal { .. }).then(|| RecordedWake { ns: now - at, across: false });
        let phase = Phase::released(release, wake);
        if new_job {
            self.tasks[t].jobs.push(Job::new(at, phase));
            self.state[t].in_job = true;
        } else {
            self.tasks[t].jobs.last_mut().expect("in a job").phases.push(phase);
        }
        self.state[t].blocked = false;
        let (Release::Signal { .. }, Some(left)) = (release, prior) else { return };
        let jobs = &self.tasks[t].jobs;
        let job = (jobs.len() - 1) as u32;
        let phase = (jobs[jobs.len() - 1].phases.len() - 1) as u32;
        self.left_to(left, Action::HandOff { target: t as TaskId, job, phase, preempts: left.preempted });
        if now > at {
            self.tasks[t].ready.push(Stretch { core: core as u16, start_ns: at, end_ns: now });
        }
    }

    /// The phase a task left its core in takes `action` (a hand-off, a
    /// yield or the choice of the task the kernel ran next there) at the
    /// point it left.
    fn left_to(&mut self, left: Left, action: Action) {
        if let Some((j, ph)) = left.phase {
            let phase = &mut self.tasks[left.task].jobs[j].phases[ph];
            phase.actions.push((phase.exec_ns, action));
        }
    }

    /// Another task than `incoming` still runs on `core` (a lost
    /// switch-out): it is taken as preempted at `now`.
    fn displace(&mut self, core: usize, incoming: usize, now: u64) {
        let Some(prev) = self.cores[core].current.filter(|&p| p != incoming) else { return };
        if self.cores[core].isrs.is_empty() {
            let since = self.cores[core].since;
            self.ran(prev, core, since, now);
        }
        self.cores[core].current = None;
        self.odd_switches += 1;
        if !self.is_idle(prev) {
            self.state[prev].running_on = None;
            self.ready_from(prev, core, now);
        }
    }

    fn switch_out(&mut self, t: usize, kind: EventKind, now: u64) {
        let Some(on) = self.state[t].running_on.map(usize::from) else {
            // A task's first event may be its switch-out: it was running
            // when the trace started. Only later ones are odd.
            if self.state[t].seen {
                self.odd_switches += 1;
            }
            self.state[t].seen = true;
            return;
        };
        if let Some((j, p, a)) = self.lowering[t].take() {
            // The kernel yields as the call that lowered the task's own
            // priority returns (a mutex's give wakes its waiter first):
            // the lower priority counts from this switch-out.
            let offset = self.offset(t, now);
            if let Some(actions) = self.tasks[t].jobs[j].phases.get_mut(p).map(|p| &mut p.actions)
                && a < actions.len()
            {
                let (_, action) = actions.remove(a);
                actions.push((offset, action));
            }
        }
        if self.cores[on].isrs.is_empty() {
            let since = self.cores[on].since;
            self.ran(t, on, since, now);
        }
        self.state[t].running_on = None;
        self.cores[on].current = None;
        self.cores[on].made_way = (kind == EventKind::Preempted).then_some(MadeWay::Preempted(t));
        let jobs = &self.tasks[t].jobs;
        let phase = jobs.last().map(|j| (jobs.len() - 1, j.phases.len() - 1));
        self.handoff[on] = Some(Left { task: t, at: now, preempted: kind == EventKind::Preempted, phase });
        self.last_out[t] = Some(now);
        match kind {
            EventKind::Preempted => self.ready_from(t, on, now),
            EventKind::Finished => {
                self.finish_job(t, now);
                self.next_queued(t, on, now);
            }
            _ if !self.reports_finish[t] => {
                self.finish_job(t, now);
                self.next_queued(t, on, now);
            }
            _ => self.state[t].blocked = true,
        }
    }

    fn finish_job(&mut self, t: usize, now: u64) {
        if self.state[t].in_job
            && let Some(job) = self.tasks[t].jobs.last_mut()
        {
            job.finish_ns = Some(now);
            job.spans_gap |= gap_between(&self.gaps, job.release_ns, now);
        }
        self.state[t].in_job = false;
        self.state[t].blocked = false;
    }

    /// The oldest queued activation of `t`, if any, becomes its job at
    /// `now`: released at its recorded time, ready from now.
    fn next_queued(&mut self, t: usize, core: usize, now: u64) {
        if let Some(at) = self.queued[t].pop_front() {
            self.tasks[t].jobs.push(Job::new(at, Phase::released(Release::Timer(at), None)));
            self.state[t].in_job = true;
            self.state[t].blocked = false;
            self.ready_from(t, core, now);
        }
    }

    fn isr_enter(&mut self, i: usize, core: usize, now: u64) {
        self.pause_top(core, now);
        let c = &self.cores[core];
        let top = c.isrs.last().map(|&(isr, _)| isr).or(c.current);
        let paused = top.filter(|&t| !self.is_idle(t)).map(|t| (t, now));
        self.cores[core].isrs.push((i, now));
        self.cores[core].paused.push(paused);
        self.release_job(i, now, false);
        self.mark_start(i, now);
        self.state[i].running_on = Some(core as u16);
    }

    /// `t` runs at `now`: the start of its job in flight (the earliest
    /// unfinished one: activations may be queued behind it), if it had none.
    fn mark_start(&mut self, t: usize, now: u64) {
        let jobs = &mut self.tasks[t].jobs;
        let recent = jobs.len().saturating_sub(4);
        let in_flight = (recent..jobs.len()).find(|&k| jobs[k].finish_ns.is_none());
        if let Some(job) = in_flight.map(|k| &mut jobs[k])
            && job.start_ns.is_none()
        {
            job.start_ns = Some(now);
        }
    }

    fn isr_exit(&mut self, i: usize, core: usize, now: u64) {
        let Some(pos) = self.cores[core].isrs.iter().rposition(|&(x, _)| x == i) else {
            self.odd_switches += 1;
            return;
        };
        let (_, since) = self.cores[core].isrs.remove(pos);
        if let Some((t, from)) = self.cores[core].paused.remove(pos)
            && now > from
        {
            self.tasks[t].interrupted.push(Stretch { core: core as u16, start_ns: from, end_ns: now });
        }
        self.ran(i, core, since, now);
        self.finish_job(i, now);
        self.state[i].running_on = None;
        self.resume_top(core, now);
        self.cores[core].isr_end = now;
        self.cores[core].chance = now;
    }

    /// `t` woke, sent to, or set an event for `peer`.
    fn wake(&mut self, t: usize, kind: EventKind, peer: TaskId, bytes: u32, now: u64) {
        let bytes = if bytes == NONE { 0 } else { bytes };
        if kind == EventKind::Send {
            self.last_send[t] = Some((now, bytes));
        }
        let p = peer as usize;
        if peer == NONE || p == t || p >= self.trace.tasks.len() || self.is_idle(p) {
            return;
        }
        // A send just before the wake carries the message size.
        let carried = self.last_send[t].filter(|&(at, _)| at == now).map_or(bytes, |(_, b)| b.max(bytes));
        self.last_wake[p] = Some((t, now, carried));
    }

    /// A semaphore or mutex operation of `t` at its current offset.
    /// Where the latest action of `t`'s current phase is (job, phase,
    /// action), if any.
    fn last_action(&self, t: usize) -> Option<(usize, usize, usize)> {
        if !self.state[t].in_job {
            return None;
        }
        let jobs = &self.tasks[t].jobs;
        let phases = &jobs.last()?.phases;
        let actions = &phases.last()?.actions;
        Some((jobs.len() - 1, phases.len() - 1, actions.len().checked_sub(1)?))
    }

    fn act(&mut self, t: usize, action: Action, now: u64) {
        if !self.state[t].in_job {
            return;
        }
        let offset = self.offset(t, now);
        if let Some(p) = self.tasks[t].jobs.last_mut().and_then(|j| j.phases.last_mut()) {
            p.actions.push((offset, action));
        }
    }

    /// Events of idle tasks: only their time on each core counts.
    fn idle(&mut self, kind: EventKind, t: usize, core: usize, now: u64) {
        match kind {
            EventKind::SwitchIn => {
                self.handoff[core] = None;
                if self.cores[core].current.is_some_and(|p| p != t) {
                    self.displace(core, t, now);
                }
                if self.cores[core].current != Some(t) {
                    self.cores[core].current = Some(t);
                    self.cores[core].since = now;
                    self.cores[core].switched_in = Some(now);
                    self.cores[core].woken.clear();
                }
            }
            EventKind::Preempted | EventKind::Blocked | EventKind::Finished => {
                if self.cores[core].current == Some(t) {
                    self.cores[core].made_way = Some(MadeWay::IdleLeft);
                    if self.cores[core].isrs.is_empty() {
                        let since = self.cores[core].since;
                        self.ran(t, core, since, now);
                    }
                    self.cores[core].current = None;
                } else {
                    self.odd_switches += 1;
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Schedule {
        let (cores_up_ns, cores_up_running, started_with) = if self.at_start.iter().any(|jobs| !jobs.is_empty()) {
            let up = self.first_switch.iter().map(|at| at.unwrap_or(0)).collect();
            (up, self.first_out.clone(), self.order_start_releases())
        } else {
            (Vec::new(), Vec::new(), Vec::new())
        };
        if let Some(tick) = self.trace.tick.as_ref().filter(|t| t.period_ns > 0) {
            for task in &mut self.tasks {
                delays_from_timers(task, tick, self.start);
                periods_from_timers(task, tick, self.start);
            }
        }
        let end = self.trace.duration();
        for core in 0..self.cores.len() {
            self.pause_top(core, end);
        }
        for t in 0..self.tasks.len() {
            self.ready_until(t, end);
            self.tasks[t].jobs_end_at_blocks = !self.reports_finish[t];
        }
        for task in &mut self.tasks {
            clip(&mut task.ready, &self.gaps);
            clip(&mut task.interrupted, &self.gaps);
        }
        // Offsets can exceed a phase's execution by rounding: clamp, and
        // keep actions in order.
        for task in &mut self.tasks {
            for p in task.jobs.iter_mut().flat_map(|j| j.phases.iter_mut()) {
                for a in &mut p.actions {
                    a.0 = a.0.min(p.exec_ns);
                }
                p.actions.sort_by_key(|a| a.0);
            }
        }
        let mut warnings = Vec::new();
        if self.odd_switches > 0 {
            warnings.push(Warning {
                line: None,
                message: format!(
                    "{} switch events did not match the task's state (lost or reordered events); \
                     RUNNING/READY times around them are approximate",
                    self.odd_switches
                ),
            });
        }
        Schedule {
            tasks: self.tasks,
            duration_ns: end,
            cores: self.cores.len(),
            warnings,
            cores_up_ns,
            cores_up_running,
            started_with,
        }
    }
}
