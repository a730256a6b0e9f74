//! One pass over the event stream that turns switch, job and communication
//! events into flat interval and interaction tables (columns), which
//! [`crate::aggregate`] then reduces with polars.
//!
//! The pass is a per-task state machine (the only inherently sequential
//! part); it keeps state in vectors indexed by task, core and object.

use std::collections::VecDeque;

use corera_trace_ingest::{EventKind, NONE, ObjectKind, TaskKind, Trace, Warning};

/// Kind of an interaction row in [`Tables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Interaction {
    Message = 0,
    Notification = 1,
    Wakeup = 2,
}

/// The derived tables, as columns.
#[derive(Debug, Default)]
pub(crate) struct Tables {
    /// RUNNING and READY intervals: task, is-ready flag, duration in ns.
    pub(crate) seg_task: Vec<u32>,
    pub(crate) seg_ready: Vec<bool>,
    pub(crate) seg_ns: Vec<u64>,
    /// Completed jobs: task, response time (release to finish) in ns.
    pub(crate) job_task: Vec<u32>,
    pub(crate) job_response: Vec<u64>,
    /// Activations: task, gap to the previous activation in ns (0 for the
    /// first, which is excluded from period inference by `act_has_gap`).
    pub(crate) act_task: Vec<u32>,
    pub(crate) act_gap: Vec<u64>,
    pub(crate) act_has_gap: Vec<bool>,
    /// Directed interactions: source, destination, kind, bytes (0 unknown).
    pub(crate) int_src: Vec<u32>,
    pub(crate) int_dst: Vec<u32>,
    pub(crate) int_kind: Vec<u8>,
    pub(crate) int_bytes: Vec<u64>,
    /// Semaphore or mutex takes: task, object.
    pub(crate) take_task: Vec<u32>,
    pub(crate) take_object: Vec<u32>,
}

#[derive(Clone, Copy, Debug, Default)]
struct TaskState {
    /// Whether any event of this task was seen yet.
    seen: bool,
    ready: bool,
    ready_since: u64,
    running_on: Option<u16>,
    run_since: u64,
    in_job: bool,
    release: u64,
    last_activation: Option<u64>,
}

#[derive(Clone, Debug, Default)]
struct CoreState {
    /// The task switched in on this core.
    current: Option<u32>,
    /// ISRs executing on this core, innermost last, with their start.
    isrs: Vec<(u32, u64)>,
    /// When the idle task was switched in here (idle time is per core).
    idle_since: u64,
}

impl Tables {
    fn interaction(&mut self, src: u32, dst: u32, kind: Interaction, bytes: u32) {
        if src == dst {
            return;
        }
        self.int_src.push(src);
        self.int_dst.push(dst);
        self.int_kind.push(kind as u8);
        self.int_bytes.push(if bytes == NONE { 0 } else { u64::from(bytes) });
    }

    fn activation(&mut self, task: u32, time: u64, state: &mut TaskState) {
        self.act_task.push(task);
        match state.last_activation {
            Some(prev) => {
                self.act_gap.push(time - prev);
                self.act_has_gap.push(true);
            }
            None => {
                self.act_gap.push(0);
                self.act_has_gap.push(false);
            }
        }
        state.last_activation = Some(time);
        state.in_job = true;
        state.release = time;
    }

    fn running(&mut self, task: u32, ns: u64) {
        if ns > 0 {
            self.seg_task.push(task);
            self.seg_ready.push(false);
            self.seg_ns.push(ns);
        }
    }

    fn readying(&mut self, task: u32, ns: u64) {
        if ns > 0 {
            self.seg_task.push(task);
            self.seg_ready.push(true);
            self.seg_ns.push(ns);
        }
    }

    fn job_done(&mut self, task: u32, time: u64, state: &mut TaskState) {
        if state.in_job {
            self.job_task.push(task);
            self.job_response.push(time - state.release);
        }
        state.in_job = false;
    }
}

/// Closes the interval of whatever runs on `core` when another task is
/// switched in there without a switch-out (a lost event): the previous
/// task is taken as preempted.
fn close_missing(trace: &Trace, tables: &mut Tables, tasks: &mut [TaskState], core: &mut CoreState, time: u64) {
    let Some(prev) = core.current.take() else { return };
    let idle = trace.tasks[prev as usize].kind == TaskKind::Idle;
    let since = if idle { core.idle_since } else { tasks[prev as usize].run_since };
    if core.isrs.is_empty() {
        tables.running(prev, time - since);
    }
    if !idle {
        let p = &mut tasks[prev as usize];
        p.running_on = None;
        p.ready = true;
        p.ready_since = time;
    }
}

/// Derives the tables from `trace`; oddities (a switch-out of a task that
/// is not running, a receive with no matching send) become warnings.
pub(crate) fn derive(trace: &Trace) -> (Tables, Vec<Warning>) {
    let n = trace.tasks.len();
    let mut tables = Tables::default();
    let mut warnings = Vec::new();
    let mut tasks = vec![TaskState::default(); n];
    let max_core = trace.events.iter().map(|e| e.core).max().unwrap_or(0) as usize;
    let mut cores = vec![CoreState::default(); max_core + 1];
    let mut fifos: Vec<VecDeque<(u32, u32, u32)>> = vec![VecDeque::new(); trace.objects.len()];
    // Tasks that never report a finished job end their jobs when they block
    // (a task that loops on "wait; work" has no other job boundary).
    let mut reports_finish = vec![false; n];
    for e in &trace.events {
        if e.kind == EventKind::Finished {
            reports_finish[e.task as usize] = true;
        }
    }
    let is_label = |o: u32| o != NONE && trace.objects[o as usize].kind == ObjectKind::Label;
    let mut unmatched_receives = 0u64;
    let mut odd_switches = 0u64;
    for (index, e) in trace.events.iter().enumerate() {
        let t = e.task;
        let ti = t as usize;
        let core = e.core as usize;
        if e.kind.switch_out().is_none() {
            tasks[ti].seen = true;
        }
        match e.kind {
            EventKind::Ready => {
                let s = &mut tasks[ti];
                if s.running_on.is_none() && !s.ready {
                    s.ready = true;
                    s.ready_since = e.time;
                }
                if !s.in_job {
                    tables.activation(t, e.time, s);
                }
            }
            EventKind::SwitchIn => {
                // A task switched in on another core without a switch-out
                // there (lost event): close that interval first. Idle tasks
                // are the exception: one idle task may stand for the idle
                // loops of every core (Linux's pid 0), so it runs on several
                // cores at once; its time is tracked per core.
                if trace.tasks[ti].kind == TaskKind::Idle {
                    if cores[core].current.is_some_and(|p| p != t) {
                        close_missing(trace, &mut tables, &mut tasks, &mut cores[core], e.time);
                        odd_switches += 1;
                    }
                    if cores[core].current != Some(t) {
                        cores[core].current = Some(t);
                        cores[core].idle_since = e.time;
                    }
                    continue;
                }
                if let Some(other) = tasks[ti].running_on.filter(|&c| c as usize != core) {
                    let since = tasks[ti].run_since;
                    tables.running(t, e.time - since);
                    cores[other as usize].current = None;
                    odd_switches += 1;
                }
                if cores[core].current.is_some_and(|p| p != t) {
                    close_missing(trace, &mut tables, &mut tasks, &mut cores[core], e.time);
                    odd_switches += 1;
                }
                let s = &mut tasks[ti];
                if s.ready {
                    tables.readying(t, e.time - s.ready_since);
                    s.ready = false;
                }
                if !s.in_job {
                    tables.activation(t, e.time, s);
                }
                s.running_on = Some(e.core);
                s.run_since = e.time;
                cores[core].current = Some(t);
            }
            EventKind::Preempted | EventKind::Blocked | EventKind::Finished
                if trace.tasks[ti].kind == TaskKind::Idle =>
            {
                if cores[core].current == Some(t) {
                    if cores[core].isrs.is_empty() {
                        tables.running(t, e.time - cores[core].idle_since);
                    }
                    cores[core].current = None;
                } else {
                    odd_switches += 1;
                }
            }
            EventKind::Preempted | EventKind::Blocked | EventKind::Finished => {
                let s = &mut tasks[ti];
                let Some(on) = s.running_on else {
                    // A task's first event may be its switch-out: it was
                    // running when the trace started. Only later ones are odd.
                    if s.seen {
                        odd_switches += 1;
                    }
                    s.seen = true;
                    continue;
                };
                if cores[on as usize].isrs.is_empty() {
                    tables.running(t, e.time - s.run_since);
                }
                s.running_on = None;
                cores[on as usize].current = None;
                match e.kind {
                    EventKind::Preempted => {
                        s.ready = true;
                        s.ready_since = e.time;
                    }
                    EventKind::Finished => tables.job_done(t, e.time, s),
                    _ if !reports_finish[ti] => tables.job_done(t, e.time, s),
                    _ => {}
                }
            }
            EventKind::IsrEnter => {
                // Pause whatever ran on this core: the task, or an outer ISR.
                match cores[core].isrs.last() {
                    Some(&(outer, since)) => tables.running(outer, e.time - since),
                    None => {
                        if let Some(cur) = cores[core].current {
                            let since = if trace.tasks[cur as usize].kind == TaskKind::Idle {
                                cores[core].idle_since
                            } else {
                                tasks[cur as usize].run_since
                            };
                            tables.running(cur, e.time - since);
                        }
                    }
                }
                cores[core].isrs.push((t, e.time));
                let s = &mut tasks[ti];
                tables.activation(t, e.time, s);
            }
            EventKind::IsrExit => {
                let Some(pos) = cores[core].isrs.iter().rposition(|&(i, _)| i == t) else {
                    odd_switches += 1;
                    continue;
                };
                let (_, since) = cores[core].isrs.remove(pos);
                tables.running(t, e.time - since);
                tables.job_done(t, e.time, &mut tasks[ti]);
                // Resume whatever was paused.
                match cores[core].isrs.last_mut() {
                    Some(outer) => outer.1 = e.time,
                    None => {
                        if let Some(cur) = cores[core].current {
                            if trace.tasks[cur as usize].kind == TaskKind::Idle {
                                cores[core].idle_since = e.time;
                            } else {
                                tasks[cur as usize].run_since = e.time;
                            }
                        }
                    }
                }
            }
            // A label (shared variable): each read depends on the last
            // write, named as the peer by the reader; writes alone are no
            // interaction.
            EventKind::Send if is_label(e.object) => {}
            EventKind::Receive if is_label(e.object) => {
                if e.peer != NONE {
                    tables.interaction(e.peer, t, Interaction::Message, e.bytes);
                }
            }
            EventKind::Send => {
                if e.object != NONE {
                    fifos[e.object as usize].push_back((t, e.bytes, e.peer));
                } else if e.peer != NONE {
                    tables.interaction(t, e.peer, Interaction::Message, e.bytes);
                }
            }
            EventKind::Receive => {
                let fifo = if e.object == NONE { None } else { Some(&mut fifos[e.object as usize]) };
                let popped = match (fifo, e.peer) {
                    (Some(f), NONE) => f.pop_front(),
                    (Some(f), from) => f.iter().position(|m| m.0 == from).and_then(|i| f.remove(i)),
                    (None, _) => None,
                };
                let (src, bytes) = match (popped, e.peer) {
                    (_, from) if from != NONE => {
                        (from, if e.bytes != NONE { e.bytes } else { popped.map_or(NONE, |m| m.1) })
                    }
                    (Some((from, b, _)), _) => (from, if e.bytes != NONE { e.bytes } else { b }),
                    (None, _) => {
                        unmatched_receives += 1;
                        if unmatched_receives == 1 {
                            warnings.push(Warning {
                                line: 0,
                                message: format!(
                                    "event {}: `{}` received from `{}` with no matching send; \
                                     the message has no sender edge",
                                    index + 1,
                                    trace.tasks[ti].name,
                                    trace.objects.get(e.object as usize).map_or("-", |o| o.name.as_str()),
                                ),
                            });
                        }
                        continue;
                    }
                };
                tables.interaction(src, t, Interaction::Message, bytes);
            }
            EventKind::EventSet => {
                if e.peer != NONE {
                    tables.interaction(t, e.peer, Interaction::Notification, NONE);
                }
            }
            EventKind::Wakeup => {
                if e.peer != NONE && trace.tasks[ti].kind != TaskKind::Idle {
                    tables.interaction(t, e.peer, Interaction::Wakeup, NONE);
                }
            }
            EventKind::Take => {
                if e.object != NONE {
                    tables.take_task.push(t);
                    tables.take_object.push(e.object);
                }
            }
            EventKind::Give => {}
        }
    }
    // Close the intervals still open when the trace ends.
    let end = trace.end();
    for core in &cores {
        match core.isrs.last() {
            Some(&(isr, since)) => tables.running(isr, end - since),
            None => {
                if let Some(cur) = core.current {
                    let since = if trace.tasks[cur as usize].kind == TaskKind::Idle {
                        core.idle_since
                    } else {
                        tasks[cur as usize].run_since
                    };
                    tables.running(cur, end - since);
                }
            }
        }
    }
    for (t, s) in tasks.iter().enumerate() {
        if s.ready {
            tables.readying(t as u32, end - s.ready_since);
        }
    }
    // Messages never received but addressed to a task still count.
    let mut unreceived = 0u64;
    for fifo in &fifos {
        for &(src, bytes, to) in fifo {
            if to != NONE {
                tables.interaction(src, to, Interaction::Message, bytes);
            } else {
                unreceived += 1;
            }
        }
    }
    if unmatched_receives > 1 {
        warnings
            .push(Warning { line: 0, message: format!("{unmatched_receives} receives in all had no matching send") });
    }
    if unreceived > 0 {
        warnings.push(Warning {
            line: 0,
            message: format!("{unreceived} messages were still queued at the end of the trace (no receiver edge)"),
        });
    }
    if odd_switches > 0 {
        warnings.push(Warning {
            line: 0,
            message: format!(
                "{odd_switches} switch events did not match the task's state (lost or reordered events); \
                 RUNNING/READY times around them are approximate"
            ),
        });
    }
    (tables, warnings)
}
