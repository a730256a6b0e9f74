//! The format-neutral trace model that every reader produces.
//!
//! A [`Trace`] is a table of [`Task`]s, a table of kernel [`Object`]s (queues,
//! semaphores, mutexes, event groups) and a time-ordered stream of
//! [`Event`]s, stored in [`Events`] in 12 bytes each plus 12 for an event
//! that names an object, a peer or a size, so that a trace of a hundred
//! million events fits in about 2 GiB and can be handed to column-oriented
//! code cheaply.

use serde::{Deserialize, Serialize};

mod events;

pub use events::{EventIter, Events};

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
    /// `task` became ready (activated, released, unblocked). `peer` is
    /// `task` itself where the source says the ready ends a wait (BTF's
    /// `release`, [`Event::ends_wait`]).
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
    /// `task` set the priority of `peer` (itself or another task) to
    /// [`Event::new_priority`] (`vTaskPrioritySet`, `rt_thread_control`):
    /// its own priority from then on, below what it may inherit.
    PrioritySet,
    /// `task` wrote an application event to the recorder (the FreeRTOS
    /// BTF logger's interval and tag lines): no scheduling meaning, but the
    /// recorder's own work, which that logger does in a critical section
    /// of the kernel's (on several cores, holding its lock).
    Logged,
}

impl EventKind {
    /// Every kind, in declaration order.
    pub const ALL: [EventKind; 15] = [
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
        EventKind::PrioritySet,
        EventKind::Logged,
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
            EventKind::PrioritySet => "priority_set",
            EventKind::Logged => "logged",
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
    /// Message size in bytes, or [`NONE`] when unknown; for a
    /// [`EventKind::PrioritySet`], the new priority ([`Event::new_priority`]).
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

    /// The same `Ready` marked as ending the task's wait ([`Event::ends_wait`]).
    pub fn ending_wait(self) -> Event {
        let task = self.task;
        self.with_peer(task)
    }

    /// Whether this is a `Ready` the source says ends the task's wait (a
    /// blocked job resumes), not a further activation: in a trace with
    /// [`Trace::queued_activations`] only such a ready resumes a blocked
    /// job.
    pub fn ends_wait(&self) -> bool {
        self.kind == EventKind::Ready && self.peer == self.task
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

    /// `by` sets `task`'s priority to `priority` (in the trace's
    /// convention): a [`EventKind::PrioritySet`], the priority kept in
    /// `bytes` (read it back with [`Event::new_priority`]).
    pub fn priority_set(time: u64, core: u16, by: TaskId, task: TaskId, priority: i32) -> Event {
        Event::new(time, core, EventKind::PrioritySet, by).with_peer(task).with_bytes(priority as u32)
    }

    /// The priority a [`EventKind::PrioritySet`] sets.
    pub fn new_priority(&self) -> Option<i32> {
        (self.kind == EventKind::PrioritySet).then_some(self.bytes as i32)
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

/// The spans of a multi-core recording in which tasks of different
/// priorities ran at once, outside its gaps ([`Trace::priorities_at_once`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrioritiesAtOnce {
    /// How many spans.
    pub spans: u64,
    /// Their summed length, ns.
    pub total_ns: u64,
    /// The longest, ns.
    pub longest_ns: u64,
    /// Where the longest began (ns) and two of the tasks it ran.
    pub longest: (u64, TaskId, TaskId),
    /// The figures of the spans (`None` under 5): under a kernel that runs
    /// one priority at a time, how long a core told by another to yield
    /// took to do so (or less, where its task blocked first).
    pub yields: Option<CrossCoreWake>,
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

    /// What a replay charges each such wake (a local one as `dispatch_ns`,
    /// a cross-core one as `message_latency_ns`): the median when the
    /// delays show one latency; else their lower quartile, which three
    /// wakes in four took at least (an idle state's exit at its
    /// shallowest, a switch path with a tail). Charging none there would
    /// start every replayed wake sooner than three in four recorded ones.
    pub fn charged_ns(&self) -> u64 {
        if self.is_steady() { self.median_ns } else { self.p25_ns }
    }
}

impl Tick {
    /// How many tick instants fall in `(from, to]` (ns, the trace's clock).
    pub fn count_between(&self, from: u64, to: u64) -> u64 {
        let period = i128::from(self.period_ns.max(1));
        let index = |t: u64| (i128::from(t) - i128::from(self.at_ns)).div_euclid(period);
        (index(to) - index(from)).max(0) as u64
    }

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
    /// Groups of cores that are one scheduler's execution lanes, not cores
    /// the recording names (a BTF scheduler entity running several tasks
    /// at once, [`Trace::lanes_of`]): which lane ran a task is the
    /// reader's choice.
    pub lanes: Vec<Vec<u16>>,
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
            lanes: Vec::new(),
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

    /// How urgent a task of `priority` is, larger first, whatever the
    /// trace's convention ([`Trace::priority_order`]), by the rank its
    /// kernel gives the priority: under Linux's CFS, `prio` 100 to 139
    /// (nice −20 to 19) weigh a task's share of the CPU and rank none
    /// above another (a woken `prio` 111 thread does not preempt a running
    /// 120 one unless its virtual runtime says so, which the recording's
    /// switches show): all of them rank as 120, below every real-time
    /// `prio` (0 to 99).
    pub fn urgency(&self, priority: i32) -> i32 {
        let p = match self.os {
            Some(crate::Os::Linux) if (100..=139).contains(&priority) => 120,
            _ => priority,
        };
        match self.priority_order {
            PriorityOrder::High => p,
            PriorityOrder::Low => p.saturating_neg(),
        }
    }

    /// Whether the recording has ready events at all (the FreeRTOS BTF
    /// logger and an ftrace without `sched_wakeup` have none: the
    /// schedule then reads releases from the switches).
    pub fn records_ready(&self) -> bool {
        self.events.iter().any(|e| e.kind == EventKind::Ready)
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

    /// One past the highest core index the events name: the size of a
    /// per-core table.
    fn core_slots(&self) -> usize {
        usize::from(self.events.iter().map(|e| e.core).max().unwrap_or(0)) + 1
    }

    /// Number of distinct cores that events were recorded on.
    pub fn cores_seen(&self) -> usize {
        let mut seen = vec![false; usize::from(u16::MAX) + 1];
        for e in &self.events {
            seen[usize::from(e.core)] = true;
        }
        seen.iter().filter(|s| **s).count()
    }

    /// The cores `task` was switched in on, in core order (where a task
    /// that never ran for a measurable time was placed).
    pub fn switched_in_on(&self, task: TaskId) -> Vec<u16> {
        let mut cores: Vec<u16> =
            self.events.iter().filter(|e| e.kind == EventKind::SwitchIn && e.task == task).map(|e| e.core).collect();
        cores.sort_unstable();
        cores.dedup();
        cores
    }

    /// The cores a task that ran on `cores` may run on: those, and every
    /// other lane of a scheduler whose lanes they are ([`Trace::lanes`]).
    pub fn lanes_of(&self, cores: &[u16]) -> Vec<u16> {
        let mut all = cores.to_vec();
        for group in self.lanes.iter().filter(|g| g.iter().any(|c| cores.contains(c))) {
            all.extend_from_slice(group);
        }
        all.sort_unstable();
        all.dedup();
        all
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

    /// Evidence that the recorded kernel ran tasks of different priorities
    /// at once on different cores: the spans in which two cores ran tasks
    /// of different priorities (as recorded, and as the recording's
    /// priority changes set them; ISRs and idle tasks aside). A
    /// kernel that runs one priority at a time shows such spans too, but
    /// only for as long as it takes to make the other core yield.
    pub fn priorities_at_once(&self) -> Option<PrioritiesAtOnce> {
        let cores = self.core_slots();
        if cores < 2 {
            return None;
        }
        // Each task's priority as the recording's priority changes set it.
        let mut priorities: Vec<Option<i32>> =
            self.tasks.iter().map(|t| (t.kind == TaskKind::Task).then_some(t.priority).flatten()).collect();
        let mut running: Vec<Option<(TaskId, i32)>> = vec![None; cores];
        let mut since: Option<(u64, TaskId, TaskId)> = None;
        let mut out = PrioritiesAtOnce::default();
        let mut yields = Vec::new();
        for e in &self.events {
            let c = usize::from(e.core);
            match e.kind {
                EventKind::SwitchIn => running[c] = priorities[e.task as usize].map(|p| (e.task, p)),
                EventKind::PrioritySet if priorities.get(e.peer as usize).is_some_and(Option::is_some) => {
                    let p = e.new_priority().unwrap_or_default();
                    priorities[e.peer as usize] = Some(p);
                    for (t, q) in running.iter_mut().flatten() {
                        if *t == e.peer {
                            *q = p;
                        }
                    }
                }
                EventKind::Preempted | EventKind::Blocked | EventKind::Finished
                    if running[c].is_some_and(|(t, _)| t == e.task) =>
                {
                    running[c] = None;
                }
                _ => continue,
            }
            let mut on = running.iter().flatten();
            let first = on.next().copied();
            let mixed = first.and_then(|(t, p)| on.find(|(_, q)| *q != p).map(|&(u, _)| (t, u)));
            match (since, mixed) {
                (None, Some((t, u))) => since = Some((e.time, t, u)),
                (Some((from, t, u)), None) => {
                    since = None;
                    if self.gap_ns(from, e.time) > 0 {
                        continue;
                    }
                    let span = e.time - from;
                    out.spans += 1;
                    out.total_ns += span;
                    yields.push(span);
                    if span > out.longest_ns {
                        out.longest_ns = span;
                        out.longest = (from, t, u);
                    }
                }
                _ => {}
            }
        }
        out.yields = CrossCoreWake::of(yields);
        (out.spans > 0).then_some(out)
    }

    /// How long tasks made ready took to start on another core that was
    /// idle when they were made ready, outside the recording's gaps
    /// ([`CrossCoreWake`]; `None` under 5 such wakes): what waking a task
    /// across cores takes on the recorded system (the inter-processor
    /// interrupt, the other core's scheduler), beyond any task's execution.
    /// Under a kernel that runs `one_priority_at_a_time` (FreeRTOS SMP's
    /// default), not those made ready while a more urgent task ran: it
    /// held them back until it left.
    pub fn cross_core_wake(&self, one_priority_at_a_time: bool) -> Option<CrossCoreWake> {
        CrossCoreWake::of(self.idle_wakes(one_priority_at_a_time).1)
    }

    /// How long tasks made ready on an idle core took to start there, from
    /// the moment nothing ran on it (the ready, or the exit of the ISR that
    /// made it ready), outside the recording's gaps (`None` under 5 such
    /// wakes): the kernel's own dispatch path (the tick or PendSV handler,
    /// the context switch), which a recording that does not trace those
    /// handlers shows only as this delay. In a recording with no ready
    /// events at all (the FreeRTOS BTF logger), the delay from a task's
    /// switch-out to the next task's switch-in on that core (a hand-off,
    /// no idle loop between) is that path.
    pub fn local_wake(&self) -> Option<CrossCoreWake> {
        let (local, _, switches) = self.idle_wakes(false);
        CrossCoreWake::of(if self.records_ready() { local } else { switches })
    }

    /// The time from a task's switch-out to the next task's switch-in on
    /// its core, where the task switched in was ready already (no idle loop
    /// between, no ISR open, outside the recording's gaps), in a recording
    /// with ready events (`None` without them, or under 5 such switches):
    /// the kernel's context switch, in which no task runs. Without ready
    /// events that stretch is the dispatch of a hand-off ([`Trace::local_wake`]).
    pub fn context_switch(&self) -> Option<CrossCoreWake> {
        if !self.records_ready() {
            return None;
        }
        CrossCoreWake::of(self.idle_wakes(false).2)
    }

    /// The delays of tasks made ready while a core idled to their start,
    /// on the core they were made ready on and on another; and the
    /// switches: from a task's switch-out to the next task's switch-in on
    /// its core (no idle loop between, no ISR open then), where the
    /// recording has ready events only onto a task ready already. With
    /// `held_back`, no task made ready while a more urgent one ran counts.
    fn idle_wakes(&self, held_back: bool) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
        // Per core: the task running there (`NONE`: the idle loop or
        // nothing), unknown until a switch is seen; the ISRs open there and
        // when the last one returned.
        let cores = self.core_slots();
        let mut running: Vec<Option<TaskId>> = vec![None; cores];
        let mut isrs = vec![0u32; cores];
        let mut isr_end = vec![0u64; cores];
        // Per task made ready and not yet run: when, where, and which cores
        // (of the first 64) were idle then.
        let mut pending: Vec<Option<(u64, u16, u64)>> = vec![None; self.tasks.len()];
        let (mut local, mut cross, mut switches) = (Vec::new(), Vec::new(), Vec::new());
        // Per core, when a task last left it; per task, since when it is
        // ready and not running (made ready, or switched out preempted).
        let ready_events = self.records_ready();
        let mut left: Vec<Option<u64>> = vec![None; cores];
        let mut ready_since: Vec<Option<u64>> = vec![None; self.tasks.len()];
        for e in &self.events {
            let (t, c) = (e.task as usize, usize::from(e.core));
            let idle_task = self.tasks[t].kind == TaskKind::Idle;
            match e.kind {
                EventKind::Ready => {
                    ready_since[t].get_or_insert(e.time);
                }
                EventKind::SwitchIn => {
                    let ready = ready_since[t].take();
                    if let Some(at) = left[c].take()
                        && !idle_task
                        && isrs[c] == 0
                        && (!ready_events || ready.is_some_and(|r| r <= at))
                        && self.gap_ns(at, e.time) == 0
                    {
                        switches.push(e.time - at);
                    }
                }
                EventKind::Preempted | EventKind::Blocked | EventKind::Finished => {
                    left[c] = (!idle_task && running[c] == Some(e.task)).then_some(e.time);
                    ready_since[t] = (e.kind == EventKind::Preempted).then_some(e.time);
                }
                _ => {}
            }
            match e.kind {
                EventKind::Ready if pending[t].is_none() => {
                    let urgent = |u: TaskId| match (self.tasks[u as usize].priority, self.tasks[t].priority) {
                        (Some(a), Some(b)) => self.urgency(a) > self.urgency(b),
                        _ => false,
                    };
                    let held = held_back && running.iter().flatten().any(|&u| u != NONE && urgent(u));
                    let idle = running.iter().take(64).enumerate().filter(|(_, r)| **r == Some(NONE) && !held);
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
        (local, cross, switches)
    }

    /// Number of events of each kind, in [`EventKind::ALL`] order.
    pub fn count_by_kind(&self) -> [u64; EventKind::ALL.len()] {
        let mut counts = [0u64; EventKind::ALL.len()];
        for e in &self.events {
            counts[e.kind as usize] += 1;
        }
        counts
    }

    /// Keeps only the tasks with `keep[id]` set and the events about them;
    /// events whose peer is dropped lose the peer (a wakeup of a dropped
    /// task, or a change of its priority, is dropped). Task ids are
    /// renumbered in order.
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
                if e.peer == NONE && matches!(e.kind, EventKind::Wakeup | EventKind::PrioritySet) {
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
