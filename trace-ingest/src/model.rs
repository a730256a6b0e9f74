//! The format-neutral trace model that every reader produces.
//!
//! A [`Trace`] is a table of [`Task`]s, a table of kernel [`Object`]s (queues,
//! semaphores, mutexes, event groups) and a time-ordered stream of fixed-size
//! [`Event`] records (32 bytes each), so that a trace of a hundred million
//! events fits in a few GiB and can be handed to column-oriented code cheaply.

use serde::Serialize;

/// Index of a task in [`Trace::tasks`].
pub type TaskId = u32;
/// Index of an object in [`Trace::objects`].
pub type ObjectId = u32;

/// Marker for "no task", "no object" or "unknown size" in [`Event`] fields.
pub const NONE: u32 = u32::MAX;

/// What kind of schedulable entity a [`Task`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskKind {
    /// An RTOS task or thread.
    Task,
    /// An interrupt service routine: runs to completion on the core its
    /// interrupt is routed to.
    Isr,
    /// The idle task of a core: its time is idle time, not load.
    Idle,
}

impl TaskKind {
    /// The keyword used for this kind in corera's log format.
    pub fn keyword(self) -> &'static str {
        match self {
            TaskKind::Task => "task",
            TaskKind::Isr => "isr",
            TaskKind::Idle => "idle",
        }
    }
}

/// A task, ISR or idle task seen in the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    /// Name as the trace spells it.
    pub name: String,
    /// Task, ISR or idle.
    pub kind: TaskKind,
    /// Priority as the trace states it, when known. Whether a larger number
    /// is more urgent is given by [`Trace::priority_order`].
    pub priority: Option<i32>,
    /// The identifier the source used for this task (log id, pid, entity id).
    pub handle: u64,
}

/// What kind of kernel object an [`Object`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    /// A message queue, mailbox, pipe or channel.
    Queue,
    /// A counting or binary semaphore.
    Semaphore,
    /// A mutex (may have priority inheritance).
    Mutex,
    /// An event group, event flag, or task notification target.
    Event,
    /// A shared variable (a BTF signal or label): written by some tasks,
    /// read by others. A read depends on the last write.
    Label,
}

impl ObjectKind {
    /// The keyword used for this kind in corera's log format.
    pub fn keyword(self) -> &'static str {
        match self {
            ObjectKind::Queue => "queue",
            ObjectKind::Semaphore => "sem",
            ObjectKind::Mutex => "mutex",
            ObjectKind::Event => "event",
            ObjectKind::Label => "label",
        }
    }
}

/// A kernel object through which tasks communicate or synchronise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Object {
    /// Name or address as the trace spells it (e.g. `rxq` or `0x20001a40`).
    pub name: String,
    /// Queue, semaphore, mutex or event.
    pub kind: ObjectKind,
}

/// How a task left the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SwitchOut {
    /// Preempted: still ready to run.
    Preempted,
    /// Blocked in the middle of a job (waiting for a resource or message).
    Blocked,
    /// The job finished; the task waits for its next activation.
    Finished,
}

/// The kind of an [`Event`], with the meaning of its fields.
///
/// `task` is always the acting task (the one the event is about).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum EventKind {
    /// `task` became ready (activated, released, unblocked).
    Ready,
    /// `task` was switched in on `core`.
    SwitchIn,
    /// `task` was switched out and is still ready.
    Preempted,
    /// `task` was switched out and blocked mid-job.
    Blocked,
    /// `task` was switched out because its job finished.
    Finished,
    /// `task` sent a message on queue `object`; `bytes` when known; `peer`
    /// is the receiver when the source names it.
    Send,
    /// `task` received a message from queue `object`; `bytes` when known;
    /// `peer` is the sender when the source names it.
    Receive,
    /// `task` set event or notification `object` (may be [`NONE`]), aimed at
    /// `peer` when the source names a target task.
    EventSet,
    /// `task` took (acquired) semaphore or mutex `object`.
    Take,
    /// `task` gave (released) semaphore or mutex `object`.
    Give,
    /// `task` woke `peer` (made it ready).
    Wakeup,
    /// ISR `task` started on `core`, interrupting whatever ran there.
    IsrEnter,
    /// ISR `task` returned on `core`.
    IsrExit,
}

impl EventKind {
    /// Every kind, in declaration order.
    pub const ALL: [EventKind; 13] = [
        EventKind::Ready,
        EventKind::SwitchIn,
        EventKind::Preempted,
        EventKind::Blocked,
        EventKind::Finished,
        EventKind::Send,
        EventKind::Receive,
        EventKind::EventSet,
        EventKind::Take,
        EventKind::Give,
        EventKind::Wakeup,
        EventKind::IsrEnter,
        EventKind::IsrExit,
    ];

    /// The switch-out reason, for the three switch-out kinds.
    pub fn switch_out(self) -> Option<SwitchOut> {
        match self {
            EventKind::Preempted => Some(SwitchOut::Preempted),
            EventKind::Blocked => Some(SwitchOut::Blocked),
            EventKind::Finished => Some(SwitchOut::Finished),
            _ => None,
        }
    }

    /// Stable snake_case name, as used in JSON and summaries.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Ready => "ready",
            EventKind::SwitchIn => "switch_in",
            EventKind::Preempted => "preempted",
            EventKind::Blocked => "blocked",
            EventKind::Finished => "finished",
            EventKind::Send => "send",
            EventKind::Receive => "receive",
            EventKind::EventSet => "event_set",
            EventKind::Take => "take",
            EventKind::Give => "give",
            EventKind::Wakeup => "wakeup",
            EventKind::IsrEnter => "isr_enter",
            EventKind::IsrExit => "isr_exit",
        }
    }
}

/// One trace event: a small fixed record (32 bytes).
///
/// Fields that an [`EventKind`] does not use hold [`NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// Time since the start of the trace clock, in ns.
    pub time: u64,
    /// Acting task.
    pub task: TaskId,
    /// Queue, semaphore, mutex or event object, or [`NONE`].
    pub object: ObjectId,
    /// The other task (receiver, sender, target or wakee), or [`NONE`].
    pub peer: TaskId,
    /// Message size in bytes, or [`NONE`] when unknown.
    pub bytes: u32,
    /// Core the event happened on.
    pub core: u16,
    /// What happened.
    pub kind: EventKind,
}

impl Event {
    /// An event with only a time, core, kind and task; other fields [`NONE`].
    pub fn new(time: u64, core: u16, kind: EventKind, task: TaskId) -> Event {
        Event { time, task, object: NONE, peer: NONE, bytes: NONE, core, kind }
    }

    /// The same event with `object` set.
    pub fn with_object(mut self, object: ObjectId) -> Event {
        self.object = object;
        self
    }

    /// The same event with `peer` set.
    pub fn with_peer(mut self, peer: TaskId) -> Event {
        self.peer = peer;
        self
    }

    /// The same event with `bytes` set.
    pub fn with_bytes(mut self, bytes: u32) -> Event {
        self.bytes = bytes;
        self
    }
}

/// The unit of the timestamps in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "unit")]
pub enum Clock {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// RTOS ticks at `rate` ticks per second (1 ..= 1e9).
    Ticks {
        /// Ticks per second.
        rate: u64,
    },
}

impl Clock {
    /// Converts a timestamp in this clock's unit to nanoseconds, rounding
    /// down; `None` on overflow.
    pub fn to_ns(self, t: u64) -> Option<u64> {
        match self {
            Clock::Ns => Some(t),
            Clock::Us => t.checked_mul(1_000),
            Clock::Ticks { rate } => u64::try_from(u128::from(t) * 1_000_000_000 / u128::from(rate)).ok(),
        }
    }

    /// Converts nanoseconds back to this clock's unit. For any `t`,
    /// `from_ns(to_ns(t)) == t` (rounding up undoes the rounding down,
    /// because a tick is at least 1 ns).
    pub fn from_ns(self, ns: u64) -> u64 {
        match self {
            Clock::Ns => ns,
            Clock::Us => ns.div_ceil(1_000),
            Clock::Ticks { rate } => {
                let scaled = u128::from(ns) * u128::from(rate);
                scaled.div_ceil(1_000_000_000) as u64
            }
        }
    }
}

/// Whether a larger priority number means a more urgent task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PriorityOrder {
    /// Larger numbers are more urgent (FreeRTOS, AUTOSAR OS). The default.
    #[default]
    High,
    /// Smaller numbers are more urgent (Zephyr, ITRON, Linux `prio`).
    Low,
}

/// A whole trace in the format-neutral model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Unit of the source's timestamps (events are always stored in ns).
    pub clock: Clock,
    /// Meaning of [`Task::priority`].
    pub priority_order: PriorityOrder,
    /// Tasks, ISRs and idle tasks; [`TaskId`] indexes this.
    pub tasks: Vec<Task>,
    /// Kernel objects; [`ObjectId`] indexes this.
    pub objects: Vec<Object>,
    /// Events in non-decreasing time order (ties keep source order).
    pub events: Vec<Event>,
}

impl Trace {
    /// An empty trace with the given clock.
    pub fn new(clock: Clock) -> Trace {
        Trace { clock, priority_order: PriorityOrder::High, tasks: Vec::new(), objects: Vec::new(), events: Vec::new() }
    }

    /// Time of the first event in ns (0 for an empty trace).
    pub fn start(&self) -> u64 {
        self.events.first().map_or(0, |e| e.time)
    }

    /// Time of the last event in ns (0 for an empty trace).
    pub fn end(&self) -> u64 {
        self.events.last().map_or(0, |e| e.time)
    }

    /// Traced time span in ns.
    pub fn duration(&self) -> u64 {
        self.end() - self.start()
    }

    /// Number of distinct cores that events were recorded on.
    pub fn cores_seen(&self) -> usize {
        let mut seen: Vec<u16> = self.events.iter().map(|e| e.core).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// Number of events of each kind, in [`EventKind::ALL`] order.
    pub fn count_by_kind(&self) -> [u64; 13] {
        let mut counts = [0u64; 13];
        for e in &self.events {
            counts[e.kind as usize] += 1;
        }
        counts
    }

    /// Keeps only the tasks with `keep[id]` set and the events about them;
    /// events whose peer is dropped lose the peer (a wakeup of a dropped
    /// task is dropped). Task ids are renumbered in order.
    pub fn retain_tasks(&mut self, keep: &[bool]) {
        let mut new_id = vec![NONE; self.tasks.len()];
        let mut next = 0;
        for (i, k) in keep.iter().enumerate() {
            if *k {
                new_id[i] = next;
                next += 1;
            }
        }
        let mut i = 0;
        self.tasks.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        self.events.retain_mut(|e| {
            let task = new_id[e.task as usize];
            if task == NONE {
                return false;
            }
            e.task = task;
            if e.peer != NONE {
                e.peer = new_id[e.peer as usize];
                if e.peer == NONE && e.kind == EventKind::Wakeup {
                    return false;
                }
            }
            true
        });
    }
}

/// A summary of a trace, for reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceSummary {
    /// Number of tasks (all kinds).
    pub tasks: usize,
    /// Number of ISRs among them.
    pub isrs: usize,
    /// Number of events.
    pub events: usize,
    /// Traced time span in ns.
    pub duration_ns: u64,
    /// Distinct cores the trace was recorded on.
    pub cores_seen: usize,
    /// Event counts by kind name (kinds with zero events left out).
    pub events_by_kind: Vec<(String, u64)>,
}

impl TraceSummary {
    /// Summarises `trace`.
    pub fn of(trace: &Trace) -> TraceSummary {
        let counts = trace.count_by_kind();
        TraceSummary {
            tasks: trace.tasks.len(),
            isrs: trace.tasks.iter().filter(|t| t.kind == TaskKind::Isr).count(),
            events: trace.events.len(),
            duration_ns: trace.duration(),
            cores_seen: trace.cores_seen(),
            events_by_kind: EventKind::ALL
                .iter()
                .zip(counts)
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.name().to_string(), n))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_is_a_small_fixed_record() {
        assert_eq!(std::mem::size_of::<Event>(), 32);
    }

    #[test]
    fn tick_clock_round_trips_awkward_rates() {
        for rate in [1, 3, 1000, 32_768, 999_999_937, 1_000_000_000] {
            let clock = Clock::Ticks { rate };
            for t in [0u64, 1, 2, 7, 12_345, 1 << 40] {
                // Slow clocks overflow u64 ns for huge tick counts.
                let Some(ns) = clock.to_ns(t) else {
                    assert!(rate < 1_000_000 && t > 1 << 30, "rate {rate} t {t}");
                    continue;
                };
                assert_eq!(clock.from_ns(ns), t, "rate {rate} t {t}");
            }
        }
        assert_eq!(Clock::Us.to_ns(u64::MAX), None);
    }
}
