//! The replayable workload of a trace: each task's jobs, the execution each
//! needed (split where it blocked), what released it, and what it did to
//! other tasks and to shared resources along the way.
//!
//! # Causality
//! A release (a job start, or a blocked job made ready again) that the
//! trace attributes to another task, through a wakeup, or a message or
//! event aimed at the task at the same instant, becomes a *signal*: in the
//! replay it happens when the sender reaches the same point of its own job
//! (the execution it had consumed in that job when it sent), not at the
//! recorded time. Every other release is a *timer* release and keeps its
//! recorded time, as do interrupts (an ISR entry is an external event).
//! A blocked task switched in without a ready event (formats that record
//! none) is released at that switch-in.
//!
//! # What is assumed
//! - Execution time does not depend on the core (beyond its speed factor)
//!   or on what else runs: no cache or bus contention is modelled.
//! - A task's execution between two recorded points is what it needs
//!   there; time spent in ISRs on its core is taken out.
//! - Semaphore and mutex takes and gives happen at the execution offsets
//!   recorded; a take blocks while another task holds the object.

use corera_trace_ingest::{EventKind, NONE, PriorityOrder, TaskKind, Trace};

/// What releases a job or a blocked phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// At a recorded time (ns from the trace start).
    Timer(u64),
    /// When another task's job reaches an offset (see [`Action::Signal`]).
    Signal,
}

/// Something a job does at an execution offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Releases `target`'s phase `phase` of job `job`; `bytes` carried
    /// (0 when none or unknown).
    Signal {
        /// The task released.
        target: u32,
        /// Its job index.
        job: u32,
        /// Its phase within the job.
        phase: u32,
        /// Message size.
        bytes: u32,
    },
    /// Takes a semaphore or mutex (blocks while another task holds it).
    Take(u32),
    /// Gives it back.
    Give(u32),
}

/// A stretch of execution between two waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// What released this phase.
    pub release: Release,
    /// Execution needed, in ns of the traced core.
    pub exec_ns: u64,
    /// Actions at offsets (ns into this phase), in order.
    pub actions: Vec<(u64, Action)>,
}

/// One job: a release, then phases separated by blocking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The phases; the first one's release is the job's.
    pub phases: Vec<Phase>,
    /// Whether the trace saw the job finish (the last job of a task may be
    /// cut off by the end of the trace).
    pub finished: bool,
    /// Recorded release time and response time (ns), for comparison.
    pub recorded_release_ns: u64,
}

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
    /// Its jobs in order.
    pub jobs: Vec<Job>,
    /// Inferred period (ns), when the task graph found one: deadline misses
    /// are counted against it.
    pub period_ns: Option<u64>,
    /// Recorded RUNNING time (ns).
    pub recorded_running_ns: u64,
    /// Recorded READY time (ns): ready or preempted, not running.
    pub recorded_ready_ns: u64,
}

/// The replayable workload of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// Tasks and ISRs (idle tasks left out), in trace order.
    pub tasks: Vec<ReplayTask>,
    /// Index in `tasks` of each trace task (`u32::MAX` for idle tasks).
    pub index_of: Vec<u32>,
    /// Number of semaphores and mutexes (object ids are trace ids).
    pub objects: usize,
    /// Length of the trace in ns.
    pub duration_ns: u64,
    /// Cores the trace was recorded on.
    pub recorded_cores: usize,
    /// Events the workload came from.
    pub events: usize,
}

#[derive(Clone, Copy, Default)]
struct Track {
    in_job: bool,
    blocked: bool,
    /// Core it runs on, when running.
    running_on: Option<u16>,
    since: u64,
    /// Ready (not running) since, when ready.
    ready_since: Option<u64>,
    /// Execution consumed in the current phase.
    exec: u64,
    /// Suspended by an ISR on its core.
    suspended: bool,
}

impl Replay {
    /// Extracts the replayable workload of `trace`. `periods` gives each
    /// trace task's inferred period, if any (by trace task id).
    pub fn from_trace(trace: &Trace, periods: &[Option<u64>]) -> Replay {
        let n_trace = trace.tasks.len();
        let mut index_of = vec![u32::MAX; n_trace];
        let mut tasks = Vec::new();
        for (id, t) in trace.tasks.iter().enumerate() {
            if t.kind == TaskKind::Idle {
                continue;
            }
            index_of[id] = tasks.len() as u32;
            let p = i64::from(t.priority.unwrap_or(0));
            let urgency = match trace.priority_order {
                PriorityOrder::High => p,
                PriorityOrder::Low => -p,
            };
            tasks.push(ReplayTask {
                id: id as u32,
                name: t.name.clone(),
                isr: t.kind == TaskKind::Isr,
                urgency,
                jobs: Vec::new(),
                period_ns: periods.get(id).copied().flatten(),
                recorded_running_ns: 0,
                recorded_ready_ns: 0,
            });
        }
        let n = tasks.len();
        let mut track = vec![Track::default(); n];
        // Last wake of each task: (waker, time, bytes).
        let mut last_wake: Vec<Option<(usize, u64, u32)>> = vec![None; n];
        // Last send by each task at its time: (time, bytes).
        let mut last_send: Vec<Option<(u64, u32)>> = vec![None; n];
        // Per core: the stack of ISRs running and the task they interrupted.
        let cores = trace.cores_seen().max(1);
        let mut isr_stack: Vec<Vec<usize>> = vec![Vec::new(); cores];
        let mut running_task: Vec<Option<usize>> = vec![None; cores];
        let start = trace.start();
        let ns = |t: u64| t.saturating_sub(start);
        let mut last_time = 0;

        fn consume(tr: &mut Track, tk: &mut ReplayTask, now: u64) {
            if tr.running_on.is_some() && !tr.suspended {
                let d = now.saturating_sub(tr.since);
                tr.exec += d;
                tk.recorded_running_ns += d;
                tr.since = now;
            }
        }
        fn close_phase(tr: &mut Track, tk: &mut ReplayTask) {
            if let Some(job) = tk.jobs.last_mut()
                && let Some(phase) = job.phases.last_mut()
            {
                phase.exec_ns = tr.exec;
            }
        }

        for e in &trace.events {
            let now = ns(e.time);
            last_time = last_time.max(now);
            let Some(&slot) = index_of.get(e.task as usize) else { continue };
            let core = usize::from(e.core).min(cores - 1);
            if slot == u32::MAX {
                // Idle running: nothing runs on that core.
                if e.kind == EventKind::SwitchIn {
                    running_task[core] = None;
                }
                continue;
            }
            let i = slot as usize;
            match e.kind {
                EventKind::Ready => {
                    let tr = &mut track[i];
                    if tr.running_on.is_some() || tr.ready_since.is_some() || (tr.in_job && !tr.blocked) {
                        continue;
                    }
                    let wake = last_wake[i].filter(|&(_, t, _)| t == now);
                    let release = if wake.is_some() { Release::Signal } else { Release::Timer(now) };
                    let tk = &mut tasks[i];
                    if tr.in_job {
                        tk.jobs.last_mut().expect("in a job").phases.push(Phase {
                            release,
                            exec_ns: 0,
                            actions: vec![],
                        });
                    } else {
                        tk.jobs.push(Job {
                            phases: vec![Phase { release, exec_ns: 0, actions: vec![] }],
                            finished: false,
                            recorded_release_ns: now,
                        });
                    }
                    tr.in_job = true;
                    tr.blocked = false;
                    tr.exec = 0;
                    tr.ready_since = Some(now);
                    if let Some((w, _, bytes)) = wake {
                        let job = (tasks[i].jobs.len() - 1) as u32;
                        let phase = (tasks[i].jobs.last().expect("job").phases.len() - 1) as u32;
                        let (wt, wk) = (&mut track[w], &mut tasks[w]);
                        consume(wt, wk, now);
                        let offset = wt.exec;
                        if let Some(p) = wk.jobs.last_mut().and_then(|j| j.phases.last_mut())
                            && wt.in_job
                        {
                            p.actions.push((offset, Action::Signal { target: i as u32, job, phase, bytes }));
                        } else {
                            // The waker has no job to anchor the signal to:
                            // keep the recorded time.
                            let p = tasks[i].jobs.last_mut().expect("job").phases.last_mut().expect("phase");
                            p.release = Release::Timer(now);
                        }
                    }
                }
                EventKind::SwitchIn => {
                    let tr = &mut track[i];
                    if tr.in_job && tr.blocked {
                        // No ready event since it blocked (the FreeRTOS BTF
                        // logger records none): released now, cause unknown.
                        tasks[i].jobs.last_mut().expect("in a job").phases.push(Phase {
                            release: Release::Timer(now),
                            exec_ns: 0,
                            actions: vec![],
                        });
                        tr.blocked = false;
                        tr.exec = 0;
                    }
                    if !tr.in_job {
                        // Running without a recorded release (start of a
                        // trace): a job released now.
                        tasks[i].jobs.push(Job {
                            phases: vec![Phase { release: Release::Timer(now), exec_ns: 0, actions: vec![] }],
                            finished: false,
                            recorded_release_ns: now,
                        });
                        tr.in_job = true;
                        tr.blocked = false;
                        tr.exec = 0;
                    }
                    if let Some(r) = tr.ready_since.take() {
                        tasks[i].recorded_ready_ns += now.saturating_sub(r);
                    }
                    tr.running_on = Some(core as u16);
                    tr.since = now;
                    tr.suspended = false;
                    running_task[core] = Some(i);
                }
                EventKind::Preempted | EventKind::Blocked | EventKind::Finished => {
                    let (tr, tk) = (&mut track[i], &mut tasks[i]);
                    if tr.running_on.is_none() {
                        continue;
                    }
                    consume(tr, tk, now);
                    close_phase(tr, tk);
                    tr.running_on = None;
                    if running_task[core] == Some(i) {
                        running_task[core] = None;
                    }
                    match e.kind {
                        EventKind::Preempted => tr.ready_since = Some(now),
                        EventKind::Blocked => tr.blocked = true,
                        _ => {
                            if let Some(j) = tk.jobs.last_mut() {
                                j.finished = true;
                            }
                            tr.in_job = false;
                            tr.blocked = false;
                        }
                    }
                }
                EventKind::IsrEnter => {
                    // The interrupted task pauses.
                    let top = isr_stack[core].last().copied().or(running_task[core]);
                    if let Some(t) = top
                        && t != i
                    {
                        consume(&mut track[t], &mut tasks[t], now);
                        track[t].suspended = true;
                    }
                    isr_stack[core].push(i);
                    let (tr, tk) = (&mut track[i], &mut tasks[i]);
                    tk.jobs.push(Job {
                        phases: vec![Phase { release: Release::Timer(now), exec_ns: 0, actions: vec![] }],
                        finished: false,
                        recorded_release_ns: now,
                    });
                    tr.in_job = true;
                    tr.blocked = false;
                    tr.exec = 0;
                    tr.running_on = Some(core as u16);
                    tr.since = now;
                    tr.suspended = false;
                }
                EventKind::IsrExit => {
                    let (tr, tk) = (&mut track[i], &mut tasks[i]);
                    if tr.running_on.is_none() {
                        continue;
                    }
                    consume(tr, tk, now);
                    close_phase(tr, tk);
                    if let Some(j) = tk.jobs.last_mut() {
                        j.finished = true;
                    }
                    *tr = Track::default();
                    if let Some(pos) = isr_stack[core].iter().rposition(|&x| x == i) {
                        isr_stack[core].remove(pos);
                    }
                    let top = isr_stack[core].last().copied().or(running_task[core]);
                    if let Some(t) = top {
                        track[t].suspended = false;
                        track[t].since = now;
                    }
                }
                EventKind::Wakeup | EventKind::Send | EventKind::EventSet => {
                    let bytes = if e.bytes == NONE { 0 } else { e.bytes };
                    if e.kind == EventKind::Send {
                        last_send[i] = Some((now, bytes));
                    }
                    if e.peer != NONE
                        && let Some(&p) = index_of.get(e.peer as usize)
                        && p != u32::MAX
                        && p as usize != i
                    {
                        // A send just before the wake carries the message size.
                        let carried = last_send[i].filter(|&(t, _)| t == now).map_or(bytes, |(_, b)| b.max(bytes));
                        last_wake[p as usize] = Some((i, now, carried));
                    }
                }
                EventKind::Take | EventKind::Give => {
                    let (tr, tk) = (&mut track[i], &mut tasks[i]);
                    if !tr.in_job || e.object == NONE {
                        continue;
                    }
                    consume(tr, tk, now);
                    let action =
                        if e.kind == EventKind::Take { Action::Take(e.object) } else { Action::Give(e.object) };
                    if let Some(p) = tk.jobs.last_mut().and_then(|j| j.phases.last_mut()) {
                        p.actions.push((tr.exec, action));
                    }
                }
                EventKind::Receive => {}
            }
        }
        // Close what the end of the trace cut off.
        for (tr, tk) in track.iter_mut().zip(&mut tasks) {
            if tr.running_on.is_some() {
                consume(tr, tk, last_time);
                close_phase(tr, tk);
            }
            if let Some(r) = tr.ready_since {
                tk.recorded_ready_ns += last_time.saturating_sub(r);
            }
        }
        // Offsets can exceed a phase's execution by rounding: clamp, and
        // keep actions in order.
        for tk in &mut tasks {
            for job in &mut tk.jobs {
                for p in &mut job.phases {
                    for a in &mut p.actions {
                        a.0 = a.0.min(p.exec_ns);
                    }
                    p.actions.sort_by_key(|a| a.0);
                }
            }
        }
        Replay {
            tasks,
            index_of,
            objects: trace.objects.len(),
            duration_ns: last_time,
            recorded_cores: cores,
            events: trace.events.len(),
        }
    }

    /// The core of each replay task, from the core of each trace task (by
    /// trace id), as [`Setup::core_of`](crate::Setup::core_of) takes it.
    pub fn cores(&self, by_trace_id: &[u16]) -> Vec<u16> {
        self.tasks.iter().map(|t| by_trace_id.get(t.id as usize).copied().unwrap_or(0)).collect()
    }
}
