//! The format-neutral trace model that every reader produces.
//!
//! A [`Trace`] is a table of [`Task`]s, a table of kernel [`Object`]s (queues,
//! semaphores, mutexes, event groups) and a time-ordered stream of
//! [`Event`]s, stored in [`Events`] in 12 bytes each plus 12 for an event
//! that names an object, a peer or a size, so that a trace of a hundred
//! million events fits in about 2 GiB and can be handed to column-oriented
//! code cheaply.

use serde::{Deserialize, Serialize};

/// Index of a task in [`Trace::tasks`].
pub type TaskId = u32;
/// Index of an object in [`Trace::objects`].
pub type ObjectId = u32;

/// Marker for "no task", "no object" or "unknown size" in [`Event`] fields.
pub const NONE: u32 = u32::MAX;

/// What kind of schedulable entity a [`Task`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

/// One trace event, as handed out by [`Events`] (which stores it in 16
/// bytes, plus 12 for an event that names an object, a peer or a size).
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

/// A stretch of a recording that holds no events though the system ran
/// (the target halted by a debugger, packets it dropped, the time between
/// two recording sessions), in ns. Loads, rates and response times are
/// computed on the time outside gaps only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// Start, ns.
    pub start: u64,
    /// End, ns.
    pub end: u64,
}

/// The kernel a recording ran on, as the recording names it (its rules, in
/// the replay's per-OS table, are what the replay keeps by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Os {
    /// FreeRTOS (single core).
    FreeRtos,
    /// ESP-IDF's FreeRTOS (SMP on dual-core ESP32s).
    EspIdf,
    /// Zephyr.
    Zephyr,
    /// RT-Thread.
    RtThread,
    /// SEGGER embOS.
    Embos,
    /// Eclipse ThreadX (Azure RTOS).
    ThreadX,
    /// Linux (CFS and the real-time classes).
    Linux,
    /// corera's own trace generator (`corera gen`).
    CoreraGen,
}

impl Os {
    /// Every OS, in declaration order.
    pub const ALL: [Os; 8] =
        [Os::FreeRtos, Os::EspIdf, Os::Zephyr, Os::RtThread, Os::Embos, Os::ThreadX, Os::Linux, Os::CoreraGen];

    /// Its name in a corera log's header (`os=freertos`).
    pub fn key(self) -> &'static str {
        match self {
            Os::FreeRtos => "freertos",
            Os::EspIdf => "esp-idf",
            Os::Zephyr => "zephyr",
            Os::RtThread => "rt-thread",
            Os::Embos => "embos",
            Os::ThreadX => "threadx",
            Os::Linux => "linux",
            Os::CoreraGen => "corera-gen",
        }
    }

    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Os::FreeRtos => "FreeRTOS",
            Os::EspIdf => "ESP-IDF FreeRTOS",
            Os::Zephyr => "Zephyr",
            Os::RtThread => "RT-Thread",
            Os::Embos => "embOS",
            Os::ThreadX => "ThreadX",
            Os::Linux => "Linux",
            Os::CoreraGen => "corera's generator",
        }
    }

    /// The OS a recorder's description names (`RT-Thread`, `FreeRTOS`,
    /// `ESP-IDF FreeRTOS`, `embOS`, a key), if corera knows it.
    pub fn from_name(name: &str) -> Option<Os> {
        let n = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        if let Some(os) = Os::ALL.iter().find(|o| o.key() == n) {
            return Some(*os);
        }
        if n.contains("esp") && (n.contains("idf") || n.contains("freertos")) {
            Some(Os::EspIdf)
        } else if n.contains("freertos") {
            Some(Os::FreeRtos)
        } else if n.starts_with("zephyr") {
            Some(Os::Zephyr)
        } else if n.starts_with("rt-thread") || n.starts_with("rtthread") {
            Some(Os::RtThread)
        } else if n.starts_with("embos") {
            Some(Os::Embos)
        } else if n.starts_with("threadx") || n.contains("azure-rtos") {
            Some(Os::ThreadX)
        } else if n.starts_with("linux") {
            Some(Os::Linux)
        } else {
            None
        }
    }
}

/// The kernel's tick as the recording shows it: the instant at which a
/// time-slicing kernel rotates tasks of equal priority.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tick {
    /// Period, ns.
    pub period_ns: u64,
    /// One tick instant, ns (the others are whole periods from it).
    pub at_ns: u64,
    /// Where it was read, for the summary (`BTF TICK events`).
    pub source: String,
}

/// What waking a task on an idle core took in a recording, on another core
/// ([`Trace::cross_core_wake`]) or its own ([`Trace::local_wake`]): from
/// the task made ready to its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossCoreWake {
    /// Median delay, ns.
    pub median_ns: u64,
    /// First and third quartiles of the delays, ns.
    pub p25_ns: u64,
    /// See `p25_ns`.
    pub p75_ns: u64,
    /// How many such wakes the recording has.
    pub wakes: usize,
}

impl CrossCoreWake {
    /// The figures of `delays` (ns), from 5 of them.
    fn of(mut delays: Vec<u64>) -> Option<CrossCoreWake> {
        if delays.len() < 5 {
            return None;
        }
        delays.sort_unstable();
        let at = |q: usize| delays[(delays.len() - 1) * q / 4];
        Some(CrossCoreWake { median_ns: at(2), p25_ns: at(1), p75_ns: at(3), wakes: delays.len() })
    }

    /// Whether the delays show one latency: their middle half within 25 %
    /// of the median (an ESP32's 62.5 to 63.8 µs around 62.6 µs), not the
    /// spread of idle states a phone's wakes show (158 to 432 µs around
    /// 277 µs).
    pub fn is_steady(&self) -> bool {
        self.p25_ns as f64 >= 0.75 * self.median_ns as f64 && self.p75_ns as f64 <= 1.25 * self.median_ns as f64
    }
}

impl Tick {
    /// The tick of a recording from the instants at which it was seen (an
    /// ISR's entries, tick events): the median interval, when there are
    /// at least 3 instants and the interval is not zero.
    pub fn from_instants(times: &[u64], source: &str) -> Option<Tick> {
        let mut steps: Vec<u64> = times.windows(2).map(|w| w[1].saturating_sub(w[0])).filter(|&d| d > 0).collect();
        if steps.len() < 2 {
            return None;
        }
        steps.sort_unstable();
        let period_ns = steps[steps.len() / 2];
        Some(Tick { period_ns, at_ns: times[0], source: source.to_string() })
    }
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
    pub events: Events,
    /// Whether a `Ready` of a task whose job is still in flight is a
    /// further activation, queued as a job of its own (BTF `activate` with
    /// instance ids, OSEK multiple activation), rather than a repeated
    /// wakeup of the same job (ftrace wakes running tasks).
    pub queued_activations: bool,
    /// The runnables each task ran, when the source records them (BTF `R`
    /// entities), in order of first appearance.
    pub runnables: Vec<RunnableUse>,
    /// Stretches the recording does not cover, sorted, not overlapping.
    pub gaps: Vec<Gap>,
    /// The kernel's tick, when the recording shows one.
    pub tick: Option<Tick>,
    /// The kernel it ran on, when the recording names it.
    pub os: Option<Os>,
}

/// A runnable (a function a task calls, in AUTOSAR/APP4MC terms) and what
/// one task spent in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunnableUse {
    /// The task that ran it.
    pub task: TaskId,
    /// The runnable's name.
    pub name: String,
    /// Times it was started.
    pub calls: u64,
    /// Time it executed (start or resume to suspend or terminate), ns.
    pub exec_ns: u64,
}

impl Trace {
    /// An empty trace with the given clock.
    pub fn new(clock: Clock) -> Trace {
        Trace {
            clock,
            priority_order: PriorityOrder::High,
            tasks: Vec::new(),
            objects: Vec::new(),
            events: Events::default(),
            queued_activations: false,
            runnables: Vec::new(),
            gaps: Vec::new(),
            tick: None,
            os: None,
        }
    }

    /// Adds a stretch the recording does not cover (merged with the gaps
    /// it touches).
    pub fn add_gap(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        self.gaps.push(Gap { start, end });
        self.gaps.sort_by_key(|g| g.start);
        let mut merged: Vec<Gap> = Vec::with_capacity(self.gaps.len());
        for g in self.gaps.drain(..) {
            match merged.last_mut() {
                Some(last) if g.start <= last.end => last.end = last.end.max(g.end),
                _ => merged.push(g),
            }
        }
        self.gaps = merged;
    }

    /// Time in ns of `[from, to)` inside gaps.
    pub fn gap_ns(&self, from: u64, to: u64) -> u64 {
        self.gaps.iter().map(|g| g.end.min(to).saturating_sub(g.start.max(from))).sum()
    }

    /// Time in ns the recording covers: its span less its gaps.
    pub fn covered(&self) -> u64 {
        self.duration() - self.gap_ns(self.start(), self.end())
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
        let mut seen = vec![false; usize::from(u16::MAX) + 1];
        for e in &self.events {
            seen[usize::from(e.core)] = true;
        }
        seen.iter().filter(|s| **s).count()
    }

    /// Whether an ISR was ever entered while another ran on its core
    /// (`None`: the trace has no ISR entry).
    pub fn isrs_nested(&self) -> Option<bool> {
        let mut depth = vec![0u32; usize::from(u16::MAX) + 1];
        let mut nested = None;
        for e in &self.events {
            let d = &mut depth[usize::from(e.core)];
            match e.kind {
                EventKind::IsrEnter => {
                    nested = Some(nested == Some(true) || *d > 0);
                    *d += 1;
                }
                EventKind::IsrExit => *d = d.saturating_sub(1),
                _ => {}
            }
        }
        nested
    }

    /// How long tasks made ready took to start on another core that was
    /// idle when they were made ready, outside the recording's gaps
    /// ([`CrossCoreWake`]; `None` under 5 such wakes): what waking a task
    /// across cores takes on the recorded system (the inter-processor
    /// interrupt, the other core's scheduler), beyond any task's execution.
    pub fn cross_core_wake(&self) -> Option<CrossCoreWake> {
        CrossCoreWake::of(self.idle_wakes().1)
    }

    /// How long tasks made ready on an idle core took to start there, from
    /// the moment nothing ran on it (the ready, or the exit of the ISR that
    /// made it ready), outside the recording's gaps (`None` under 5 such
    /// wakes): the kernel's own dispatch path (the tick or PendSV handler,
    /// the context switch), which a recording that does not trace those
    /// handlers shows only as this delay.
    pub fn local_wake(&self) -> Option<CrossCoreWake> {
        CrossCoreWake::of(self.idle_wakes().0)
    }

    /// The delays of tasks made ready while a core idled to their start,
    /// on the core they were made ready on and on another.
    fn idle_wakes(&self) -> (Vec<u64>, Vec<u64>) {
        // Per core: the task running there (`NONE`: the idle loop or
        // nothing), unknown until a switch is seen; the ISRs open there and
        // when the last one returned.
        let cores = usize::from(self.events.iter().map(|e| e.core).max().unwrap_or(0)) + 1;
        let mut running: Vec<Option<TaskId>> = vec![None; cores];
        let mut isrs = vec![0u32; cores];
        let mut isr_end = vec![0u64; cores];
        // Per task made ready and not yet run: when, where, and which cores
        // (of the first 64) were idle then.
        let mut pending: Vec<Option<(u64, u16, u64)>> = vec![None; self.tasks.len()];
        let (mut local, mut cross) = (Vec::new(), Vec::new());
        for e in &self.events {
            let (t, c) = (e.task as usize, usize::from(e.core));
            match e.kind {
                EventKind::Ready if pending[t].is_none() => {
                    let idle = running.iter().take(64).enumerate().filter(|(_, r)| **r == Some(NONE));
                    pending[t] = Some((e.time, e.core, idle.fold(0u64, |m, (i, _)| m | 1 << i)));
                }
                EventKind::SwitchIn => {
                    if let Some((at, from, idle)) = pending[t].take()
                        && c < 64
                        && idle >> c & 1 == 1
                    {
                        if e.core != from {
                            if self.gap_ns(at, e.time) == 0 {
                                cross.push(e.time - at);
                            }
                        } else {
                            let from = at.max(isr_end[c]);
                            if isrs[c] == 0 && self.gap_ns(from, e.time) == 0 {
                                local.push(e.time - from);
                            }
                        }
                    }
                    running[c] = Some(if self.tasks[t].kind == TaskKind::Idle { NONE } else { e.task });
                }
                EventKind::Preempted | EventKind::Blocked | EventKind::Finished => {
                    // A READY seen while it ran is not a wake.
                    pending[t] = None;
                    if running[c] == Some(e.task) {
                        running[c] = Some(NONE);
                    }
                }
                EventKind::IsrEnter => isrs[c] += 1,
                EventKind::IsrExit => {
                    isrs[c] = isrs[c].saturating_sub(1);
                    isr_end[c] = e.time;
                }
                _ => {}
            }
        }
        (local, cross)
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
        self.runnables.retain_mut(|r| {
            r.task = new_id[r.task as usize];
            r.task != NONE
        });
    }
}

/// The stored part of every event: 12 bytes. The time's upper 32 bits
/// are kept once per run of events that share them ([`Events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    time_low: u32,
    task: TaskId,
    core: u16,
    kind: EventKind,
}

/// The fields only some events use: 12 bytes, stored for the events that
/// use any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extra {
    object: ObjectId,
    peer: TaskId,
    bytes: u32,
}

/// Events per block of the extra-field index.
const BLOCK: usize = 64;

/// A trace's events, stored compactly: a 12-byte record per event (the
/// time's lower 32 bits, task, core, kind); the upper 32 bits of the time
/// once per run of events that share them (about 4.3 s of ns each: a few
/// entries per hour of sorted trace); and a side table with the object, peer
/// and size of the events that have one (sends, receives, wakeups, takes
/// ...), found in constant time through a per-64-event bit mask and a
/// running count (0.2 bytes per event). A trace where a third of the events
/// carry extra fields takes about 16 bytes per event instead of 32.
///
/// Events are handed out by value ([`Event`]); build with [`Events::push`]
/// or `collect()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    records: Vec<Record>,
    /// (first event, upper 32 bits of the time) where the upper bits change.
    epochs: Vec<(usize, u32)>,
    extras: Vec<Extra>,
    /// Per block: extras stored before the block.
    base: Vec<u32>,
    /// Per block: which of its events have extras.
    mask: Vec<u64>,
}

impl Events {
    /// An empty store with room for `n` events.
    pub fn with_capacity(n: usize) -> Events {
        Events {
            records: Vec::with_capacity(n),
            epochs: Vec::new(),
            extras: Vec::new(),
            base: Vec::with_capacity(n / BLOCK + 1),
            mask: Vec::with_capacity(n / BLOCK + 1),
        }
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no events.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Appends an event.
    pub fn push(&mut self, e: Event) {
        let i = self.records.len();
        if i.is_multiple_of(BLOCK) {
            self.base.push(u32::try_from(self.extras.len()).expect("fewer than 2^32 events with extra fields"));
            self.mask.push(0);
        }
        let high = (e.time >> 32) as u32;
        if self.epochs.last().is_none_or(|&(_, h)| h != high) {
            self.epochs.push((i, high));
        }
        self.records.push(Record { time_low: e.time as u32, task: e.task, core: e.core, kind: e.kind });
        if e.object != NONE || e.peer != NONE || e.bytes != NONE {
            *self.mask.last_mut().expect("a block per 64 events") |= 1 << (i % BLOCK);
            self.extras.push(Extra { object: e.object, peer: e.peer, bytes: e.bytes });
        }
    }

    /// The event at `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<Event> {
        let r = *self.records.get(i)?;
        let (block, bit) = (i / BLOCK, i % BLOCK);
        let mask = self.mask[block];
        let x = if mask >> bit & 1 == 1 {
            let before = (mask & ((1u64 << bit) - 1)).count_ones();
            self.extras[self.base[block] as usize + before as usize]
        } else {
            Extra { object: NONE, peer: NONE, bytes: NONE }
        };
        let high = self.epochs[self.epochs.partition_point(|&(first, _)| first <= i) - 1].1;
        Some(Event {
            time: u64::from(high) << 32 | u64::from(r.time_low),
            task: r.task,
            object: x.object,
            peer: x.peer,
            bytes: x.bytes,
            core: r.core,
            kind: r.kind,
        })
    }

    /// The event at `i`.
    ///
    /// # Panics
    /// When `i` is out of range.
    pub fn at(&self, i: usize) -> Event {
        self.get(i).unwrap_or_else(|| panic!("event {i} of {}", self.len()))
    }

    /// The first event.
    pub fn first(&self) -> Option<Event> {
        self.get(0)
    }

    /// The last event.
    pub fn last(&self) -> Option<Event> {
        self.get(self.len().wrapping_sub(1))
    }

    /// The events in order.
    pub fn iter(&self) -> EventIter<'_> {
        EventIter { events: self, next: 0, extra: 0, epoch: 0, high: 0 }
    }

    /// Bytes the events take in memory (records, side table, index).
    pub fn heap_bytes(&self) -> usize {
        self.records.capacity() * std::mem::size_of::<Record>()
            + self.epochs.capacity() * std::mem::size_of::<(usize, u32)>()
            + self.extras.capacity() * std::mem::size_of::<Extra>()
            + self.base.capacity() * 4
            + self.mask.capacity() * 8
    }

    /// Gives back the room reserved beyond the events.
    pub fn shrink_to_fit(&mut self) {
        self.records.shrink_to_fit();
        self.epochs.shrink_to_fit();
        self.extras.shrink_to_fit();
        self.base.shrink_to_fit();
        self.mask.shrink_to_fit();
    }

    /// Sorts by time, keeping the order of events at the same time.
    pub fn sort_by_time(&mut self) {
        let mut all: Vec<Event> = self.iter().collect();
        all.sort_by_key(|e| e.time);
        *self = all.into_iter().collect();
    }

    /// Keeps the events for which `keep` returns true, after it changed
    /// them as it likes.
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut Event) -> bool) {
        let old = std::mem::take(self);
        *self = Events::with_capacity(old.len());
        for mut e in &old {
            if keep(&mut e) {
                self.push(e);
            }
        }
    }
}

/// The events of an [`Events`] store in order, by value.
#[derive(Clone, Debug)]
pub struct EventIter<'a> {
    events: &'a Events,
    next: usize,
    /// Index of the next extra to hand out.
    extra: usize,
    /// Index of the next epoch to enter, and the current upper time bits.
    epoch: usize,
    high: u32,
}

impl Iterator for EventIter<'_> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        let i = self.next;
        let r = *self.events.records.get(i)?;
        self.next += 1;
        if let Some(&(first, high)) = self.events.epochs.get(self.epoch)
            && first == i
        {
            self.high = high;
            self.epoch += 1;
        }
        let mut e = Event::new(u64::from(self.high) << 32 | u64::from(r.time_low), r.core, r.kind, r.task);
        if self.events.mask[i / BLOCK] >> (i % BLOCK) & 1 == 1 {
            let x = self.events.extras[self.extra];
            self.extra += 1;
            (e.object, e.peer, e.bytes) = (x.object, x.peer, x.bytes);
        }
        Some(e)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.events.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for EventIter<'_> {}

impl<'a> IntoIterator for &'a Events {
    type Item = Event;
    type IntoIter = EventIter<'a>;

    fn into_iter(self) -> EventIter<'a> {
        self.iter()
    }
}

impl FromIterator<Event> for Events {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Events {
        let iter = iter.into_iter();
        let mut events = Events::with_capacity(iter.size_hint().0);
        for e in iter {
            events.push(e);
        }
        events
    }
}

impl Extend<Event> for Events {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

/// A summary of a trace, for reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    fn events_are_stored_in_12_bytes_plus_12_for_extra_fields() {
        assert_eq!(std::mem::size_of::<Record>(), 12);
        assert_eq!(std::mem::size_of::<Extra>(), 12);
        let plain = Event::new(5, 1, EventKind::SwitchIn, 3);
        let send = Event::new(6, 0, EventKind::Send, 2).with_object(4).with_bytes(16);
        let wake = Event::new(7, 0, EventKind::Wakeup, 2).with_peer(3);
        let mut all = Vec::new();
        for i in 0..1000u64 {
            all.push(match i % 7 {
                0 => send,
                3 => wake,
                _ => plain,
            });
            // Times cross several 2^32 ns epochs, once backwards (as
            // events pushed before a lenient sort may).
            let epoch = if i == 700 { 1 } else { i / 200 };
            all.last_mut().unwrap().time = (epoch << 32) + i * 1000;
        }
        let events: Events = all.iter().copied().collect();
        assert_eq!(events.len(), 1000);
        assert_eq!(events.iter().collect::<Vec<_>>(), all, "iteration gives every field back");
        for i in [0, 1, 3, 63, 64, 65, 127, 128, 500, 999] {
            assert_eq!(events.get(i), Some(all[i]), "random access to event {i}");
        }
        assert_eq!(events.get(1000), None);
        assert_eq!((events.first(), events.last()), (Some(all[0]), Some(all[999])));
        assert_eq!(events.extras.len(), all.iter().filter(|e| e.kind != EventKind::SwitchIn).count());
        let bytes = events.records.len() * 12 + events.extras.len() * 12 + events.base.len() * 12;
        assert!(bytes < 1000 * 16, "{bytes} bytes for 1,000 events of which 2/7 have extra fields");
        assert_eq!(events.epochs.len(), 7, "epochs 0..=3, then 1 at event 700, then 3 and 4 again");
        // Editing keeps the side table in step.
        let mut kept = events.clone();
        kept.retain_mut(|e| {
            e.time += 1;
            e.kind != EventKind::Wakeup
        });
        let want: Vec<Event> =
            all.iter().filter(|e| e.kind != EventKind::Wakeup).map(|e| Event { time: e.time + 1, ..*e }).collect();
        assert_eq!(kept.iter().collect::<Vec<_>>(), want);
        let mut sorted = all.clone();
        sorted.sort_by_key(|e| e.time);
        let mut shuffled: Events = all.iter().rev().copied().collect();
        shuffled.sort_by_time();
        assert_eq!(shuffled.iter().collect::<Vec<_>>(), sorted);
        assert_eq!(shuffled.epochs.len(), 5, "sorted, each epoch is one run");
        assert_eq!(shuffled, sorted.iter().copied().collect::<Events>(), "sorting gives the store a fresh build gives");
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
