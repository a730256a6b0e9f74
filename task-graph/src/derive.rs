//! Flat columns for [`crate::aggregate`] to reduce with polars: the
//! per-task time, job and activation rows come from the recorded
//! [`Schedule`] (the job model the replay uses too); the interactions
//! between tasks come from one pass over the communication events.

use std::collections::VecDeque;

use corera_trace_ingest::{EventKind, NONE, ObjectKind, Schedule, TaskKind, Trace, Warning};

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
    /// Activations (job releases): task, gap to the previous activation in
    /// ns (0 for the first, which `act_has_gap` excludes from period
    /// inference).
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

impl Tables {
    /// The time, job and activation rows of every task of `schedule`.
    pub(crate) fn of(schedule: &Schedule) -> Tables {
        let mut tables = Tables::default();
        for (t, task) in schedule.tasks.iter().enumerate() {
            let t = t as u32;
            for (ready, stretches) in [(false, &task.running), (true, &task.ready)] {
                for s in stretches.iter().filter(|s| s.ns() > 0) {
                    tables.seg_task.push(t);
                    tables.seg_ready.push(ready);
                    tables.seg_ns.push(s.ns());
                }
            }
            let mut previous = None;
            for job in &task.jobs {
                if let Some(response) = job.response_ns() {
                    tables.job_task.push(t);
                    tables.job_response.push(response);
                }
                tables.act_task.push(t);
                tables.act_gap.push(previous.map_or(0, |p| job.release_ns - p));
                tables.act_has_gap.push(previous.is_some());
                previous = Some(job.release_ns);
            }
        }
        tables
    }

    fn interaction(&mut self, src: u32, dst: u32, kind: Interaction, bytes: u32) {
        if src == dst {
            return;
        }
        self.int_src.push(src);
        self.int_dst.push(dst);
        self.int_kind.push(kind as u8);
        self.int_bytes.push(if bytes == NONE { 0 } else { u64::from(bytes) });
    }
}

/// A message waiting in a queue: sender, bytes, addressee (or [`NONE`]).
type Queued = (u32, u32, u32);

/// The pass over the communication events: who sent to, notified or woke
/// whom, and who takes which semaphores and mutexes.
struct Communication<'a> {
    trace: &'a Trace,
    tables: &'a mut Tables,
    /// Messages sent on each queue and not yet received.
    fifos: Vec<VecDeque<Queued>>,
    unmatched_receives: u64,
    warnings: Vec<Warning>,
}

/// Adds the interaction and take rows of `trace` to `tables`; a receive
/// with no matching send and messages never received become warnings.
pub(crate) fn communication(trace: &Trace, tables: &mut Tables) -> Vec<Warning> {
    let mut pass = Communication {
        trace,
        tables,
        fifos: vec![VecDeque::new(); trace.objects.len()],
        unmatched_receives: 0,
        warnings: Vec::new(),
    };
    for (index, e) in trace.events.iter().enumerate() {
        let label = e.object != NONE && trace.objects[e.object as usize].kind == ObjectKind::Label;
        match e.kind {
            // A label (shared variable): each read depends on the last
            // write, named as the peer by the reader; writes alone are no
            // interaction.
            EventKind::Receive if label && e.peer != NONE => {
                pass.tables.interaction(e.peer, e.task, Interaction::Message, e.bytes);
            }
            EventKind::Receive | EventKind::Send if label => {}
            EventKind::Send => pass.send(e.task, e.object, e.peer, e.bytes),
            EventKind::Receive => pass.receive(index, e.task, e.object, e.peer, e.bytes),
            EventKind::EventSet if e.peer != NONE => {
                pass.tables.interaction(e.task, e.peer, Interaction::Notification, NONE);
            }
            EventKind::Wakeup if e.peer != NONE && trace.tasks[e.task as usize].kind != TaskKind::Idle => {
                pass.tables.interaction(e.task, e.peer, Interaction::Wakeup, NONE);
            }
            EventKind::Take if e.object != NONE => {
                pass.tables.take_task.push(e.task);
                pass.tables.take_object.push(e.object);
            }
            _ => {}
        }
    }
    pass.finish()
}

impl Communication<'_> {
    fn send(&mut self, task: u32, object: u32, peer: u32, bytes: u32) {
        if object != NONE {
            self.fifos[object as usize].push_back((task, bytes, peer));
        } else if peer != NONE {
            self.tables.interaction(task, peer, Interaction::Message, bytes);
        }
    }

    /// A receive takes the oldest message of its queue (the oldest from the
    /// sender it names, when it names one).
    fn receive(&mut self, index: usize, task: u32, object: u32, peer: u32, bytes: u32) {
        let fifo = if object == NONE { None } else { Some(&mut self.fifos[object as usize]) };
        let popped = match (fifo, peer) {
            (Some(f), NONE) => f.pop_front(),
            (Some(f), from) => f.iter().position(|m| m.0 == from).and_then(|i| f.remove(i)),
            (None, _) => None,
        };
        let sized = |b: u32| if bytes != NONE { bytes } else { b };
        let (src, bytes) = match (popped, peer) {
            (_, from) if from != NONE => (from, sized(popped.map_or(NONE, |m| m.1))),
            (Some((from, b, _)), _) => (from, sized(b)),
            (None, _) => {
                self.unmatched_receives += 1;
                if self.unmatched_receives == 1 {
                    self.warnings.push(Warning {
                        line: None,
                        message: format!(
                            "event {}: `{}` received from `{}` with no matching send; \
                             the message has no sender edge",
                            index + 1,
                            self.trace.tasks[task as usize].name,
                            self.trace.objects.get(object as usize).map_or("-", |o| o.name.as_str()),
                        ),
                    });
                }
                return;
            }
        };
        self.tables.interaction(src, task, Interaction::Message, bytes);
    }

    fn finish(mut self) -> Vec<Warning> {
        // Messages never received but addressed to a task still count.
        let mut unreceived = 0u64;
        for fifo in &self.fifos {
            for &(src, bytes, to) in fifo {
                if to != NONE {
                    self.tables.interaction(src, to, Interaction::Message, bytes);
                } else {
                    unreceived += 1;
                }
            }
        }
        if self.unmatched_receives > 1 {
            self.warnings.push(Warning {
                line: None,
                message: format!("{} receives in all had no matching send", self.unmatched_receives),
            });
        }
        if unreceived > 0 {
            self.warnings.push(Warning {
                line: None,
                message: format!("{unreceived} messages were still queued at the end of the trace (no receiver edge)"),
            });
        }
        self.warnings
    }
}
