//! The trace model built from one recording's packets, merged in time
//! order across cores.
//!
//! | SystemView event | model |
//! |---|---|
//! | `INIT` (timestamp frequency), `TASK_INFO` (id, priority, name), `NAME_RESOURCE`, `SYSDESC` (`I#n=` ISR names) | tasks and their priorities, object and ISR names |
//! | `TASK_START_READY` | ready; a wakeup by the task or ISR whose send, give or notify came just before on that core |
//! | `TASK_START_EXEC`, `IDLE` | switched in (`IDLE`: the core's idle loop); the task switched out blocked if it had a `TASK_STOP_READY` or a delay or wait call since it ran, else preempted (without any `TASK_STOP_READY` in the recording: see `core_state::infer_blocking`) |
//! | `ISR_ENTER` / `ISR_EXIT`, `ISR_TO_SCHEDULER` | ISR enter / exit |
//! | OS API calls, by the OS's table ([`super::os`]) | send / receive, give / take, notify, signal |

use rustc_hash::FxHashMap as HashMap;

use super::os::{Api, Role};
use super::packet::Packet;
use crate::core_state::Cores;
use crate::model::{Clock, Event, EventKind, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Tick, Trace};
use crate::{Parsed, Warning};

/// A task, ISR or idle task, as the recording identifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Task(u32),
    Isr(u16, u32),
    Idle(u16),
}

/// The trace being built from the merged packets.
pub(super) struct Decoder {
    trace: Trace,
    api: Option<Api>,
    multicore: bool,
    tasks: HashMap<Key, TaskId>,
    objects: HashMap<u32, ObjectId>,
    /// ISR names from `SYSDESC` (`I#15=SysTick`).
    isr_names: HashMap<u32, String>,
    /// Per object: ever given as a semaphore (a send without an item).
    semaphore: HashMap<u32, bool>,
    /// Queue operations, kept to classify their objects at the end: (index
    /// into the events, object id, was a send).
    queue_ops: Vec<(usize, u32, bool)>,
    cores: Cores,
    /// Whether the recording marks blocking (`TASK_STOP_READY`).
    stop_ready_seen: bool,
    /// Per task: when and on which core its last READY was.
    last_ready: HashMap<TaskId, (u64, u16)>,
    skipped: crate::unused::Unused,
    /// Whether its port writes `TASK_STOP_READY` at every switch-out
    /// ([`super::os::stops_at_every_switch`]) ...
    stops_at_switch: bool,
    /// ... and so, per task, how many it wrote since the task was switched
    /// in.
    stops: Vec<u8>,
    /// ISR enters of an ISR already open on their core, skipped.
    reentered: usize,
    /// ISRs still open when a task or the idle loop was switched in on
    /// their core, closed there.
    closed_by_switch: usize,
}

impl Decoder {
    /// A decoder reading API calls with `api` (none: the OS named `os` has
    /// no table, its calls are skipped); ISRs named by `isr_names`;
    /// `multicore` names ISRs and idle loops with their core.
    pub(super) fn new(api: Option<Api>, os: Option<&str>, isr_names: HashMap<u32, String>, multicore: bool) -> Decoder {
        let mut trace = Trace::new(Clock::Ns);
        trace.priority_order = match (&api, os) {
            (Some(a), _) => a.priority_order,
            (None, Some(os)) => super::os::priority_order(os),
            (None, None) => crate::PriorityOrder::High,
        };
        let named = api.as_ref().map(|a| a.os.as_str()).or(os).unwrap_or("");
        trace.os = crate::Os::from_name(named);
        Decoder {
            trace,
            stops_at_switch: super::os::stops_at_every_switch(named),
            stops: Vec::new(),
            reentered: 0,
            closed_by_switch: 0,
            api,
            multicore,
            tasks: HashMap::default(),
            objects: HashMap::default(),
            isr_names,
            semaphore: HashMap::default(),
            queue_ops: Vec::new(),
            cores: Cores::default(),
            stop_ready_seen: false,
            last_ready: HashMap::default(),
            skipped: Default::default(),
        }
    }

    fn skip(&mut self, what: String) {
        self.skipped.add(&what);
    }

    /// The task of `key`, added when new.
    fn entity(&mut self, key: Key) -> TaskId {
        if let Some(&t) = self.tasks.get(&key) {
            return t;
        }
        let at = |core: u16| if self.multicore { format!("@cpu{core}") } else { String::new() };
        let (name, kind, handle) = match key {
            Key::Task(id) => (format!("task@{id:#x}"), TaskKind::Task, u64::from(id)),
            Key::Isr(core, irq) => {
                let name = self.isr_names.get(&irq).cloned().unwrap_or_else(|| format!("ISR{irq}"));
                (format!("{name}{}", at(core)), TaskKind::Isr, u64::from(irq))
            }
            Key::Idle(core) => (format!("IDLE{}", at(core)), TaskKind::Idle, 0),
        };
        let t = self.trace.tasks.len() as TaskId;
        let priority = (kind == TaskKind::Idle).then_some(0);
        self.trace.tasks.push(Task { name, kind, priority, handle });
        self.cores.add_task();
        self.stops.push(0);
        self.tasks.insert(key, t);
        t
    }

    fn object(&mut self, id: u32) -> ObjectId {
        if let Some(&o) = self.objects.get(&id) {
            return o;
        }
        let o = self.trace.objects.len() as ObjectId;
        self.trace.objects.push(Object { name: format!("{id:#x}"), kind: ObjectKind::Queue });
        self.objects.insert(id, o);
        o
    }

    pub(super) fn apply(&mut self, core: u16, packet: Packet, now: u64) {
        match packet {
            Packet::Nop | Packet::TraceStart | Packet::StopExec | Packet::Init { .. } => {}
            Packet::TraceStop => self.skip("TRACE_STOP".into()),
            Packet::Overflow(_) => {}
            Packet::Other(id) => self.skip(event_name(id)),
            // Read before the merge (the OS, the device, ISR names).
            Packet::SysDesc(_) => {}
            Packet::Info { id, priority, name } => {
                // ESP-IDF describes its idle tasks (`IDLE0`, `IDLE1`), which
                // run as IDLE packets: one entity.
                let idle_core =
                    name.strip_prefix("IDLE").and_then(|d| if d.is_empty() { Some(0) } else { d.parse::<u16>().ok() });
                if let Some(c) = idle_core
                    && !self.tasks.contains_key(&Key::Task(id))
                {
                    let t = self.entity(Key::Idle(c));
                    self.tasks.insert(Key::Task(id), t);
                    self.trace.tasks[t as usize].name = name;
                    return;
                }
                let t = self.entity(Key::Task(id));
                let task = &mut self.trace.tasks[t as usize];
                task.priority = Some(i32::try_from(priority).unwrap_or(i32::MAX));
                task.name = name;
            }
            Packet::Name(r, name) => {
                let o = self.object(r);
                self.trace.objects[o as usize].name = name;
            }
            Packet::Ready(t) => {
                let t = self.entity(Key::Task(t));
                // ESP-IDF writes a task's READY into every core's stream:
                // one ready, woken by whichever core's signal came before.
                if let Some(&(at, first)) = self.last_ready.get(&t)
                    && at == now
                    && first != core
                {
                    if let Some(by) = self.cores.on(core).take_signal()
                        && by != t
                    {
                        self.trace.events.push(Event::new(now, core, EventKind::Wakeup, by).with_peer(t));
                    }
                    return;
                }
                self.last_ready.insert(t, (now, core));
                self.cores.on(core).ready(&mut self.trace, t, now);
            }
            Packet::StopReady(t) => {
                self.stop_ready_seen = true;
                let t = self.entity(Key::Task(t));
                if self.stops_at_switch {
                    // One stop is the switch-out itself; a second (or a
                    // wait call) says the task blocked.
                    let n = &mut self.stops[t as usize];
                    *n = n.saturating_add(1);
                    if *n < 2 {
                        return;
                    }
                }
                self.cores.on(core).blocks(Some(t));
            }
            Packet::Terminate(t) => {
                let t = self.entity(Key::Task(t));
                self.cores.on(core).blocks(Some(t));
            }
            Packet::Exec(t) => {
                let t = self.entity(Key::Task(t));
                self.switch_in(core, t, now);
            }
            Packet::Idle => {
                let idle = self.entity(Key::Idle(core));
                self.switch_in(core, idle, now);
            }
            Packet::IsrEnter(irq) => {
                let i = self.entity(Key::Isr(core, irq));
                if !self.cores.on(core).enter_isr(&mut self.trace, i, now) {
                    self.reentered += 1;
                }
            }
            Packet::IsrExit => {
                if let Some(i) = self.cores.on(core).isrs.pop() {
                    self.trace.events.push(Event::new(now, core, EventKind::IsrExit, i));
                }
            }
            Packet::Api { id, params } => self.api(core, id, params, now),
        }
    }

    /// `t` runs on `core` from `now`. A task runs only once the ISRs on its
    /// core returned, so any still open there (a recorder that wrote an
    /// enter without its exit) return now.
    fn switch_in(&mut self, core: u16, t: TaskId, now: u64) {
        let state = self.cores.on(core);
        self.closed_by_switch += state.end_isrs(&mut self.trace, None, now);
        state.switch_in(&mut self.trace, t, now);
        self.stops[t as usize] = 0;
    }

    fn api(&mut self, core: u16, id: u32, params: [Option<u32>; 2], now: u64) {
        let Some(api) = &self.api else {
            self.skip(format!("API call {id} of an OS without a table"));
            return;
        };
        let Some((name, role)) = api.call(id) else {
            self.skip(format!("event {id}, which the {} table does not describe", api.os));
            return;
        };
        let name = name.to_string();
        if role == Role::Wait {
            self.cores.on(core).blocks(None);
            return;
        }
        let Some(actor) = self.cores.on(core).actor() else {
            self.skip("API calls before any task ran".into());
            return;
        };
        let Some(first) = params[0] else {
            self.skip(format!("{name} without its parameters"));
            return;
        };
        match role {
            Role::Send | Role::Receive => {
                let send = role == Role::Send;
                // FreeRTOS gives a semaphore or mutex with no item
                // (xQueueGenericSend's second parameter 0).
                if name == "xQueueGenericSend" && params[1] == Some(0) {
                    self.semaphore.insert(first, true);
                }
                let object = self.object(first);
                let kind = if send { EventKind::Send } else { EventKind::Receive };
                self.queue_ops.push((self.trace.events.len(), first, send));
                self.trace.events.push(Event::new(now, core, kind, actor).with_object(object));
                self.cores.on(core).signal(send.then_some(actor));
            }
            Role::Give(kind) | Role::Take(kind) => {
                let give = matches!(role, Role::Give(_));
                let object = self.object(first);
                self.trace.objects[object as usize].kind = kind;
                let event = if give { EventKind::Give } else { EventKind::Take };
                self.trace.events.push(Event::new(now, core, event, actor).with_object(object));
                self.cores.on(core).signal(give.then_some(actor));
            }
            Role::Notify => {
                let target = self.entity(Key::Task(first));
                self.trace.events.push(Event::new(now, core, EventKind::EventSet, actor).with_peer(target));
                self.cores.on(core).signal(Some(actor));
            }
            Role::Priority => {
                let Some(priority) = params[1] else {
                    self.skip(format!("{name} without its priority"));
                    return;
                };
                let target = self.entity(Key::Task(first));
                self.trace.events.push(Event::priority_set(now, core, actor, target, priority as i32));
            }
            Role::Signal => {
                let object = self.object(first);
                self.trace.objects[object as usize].kind = ObjectKind::Event;
                self.trace.events.push(Event::new(now, core, EventKind::EventSet, actor).with_object(object));
                self.cores.on(core).signal(Some(actor));
            }
            Role::Wait | Role::Other => self.skip(name),
        }
    }

    /// The trace, with the gaps the streams showed (ns) and what the
    /// recording holds no events for.
    pub(super) fn finish(mut self, mut warnings: Vec<Warning>, overflows: u64, gaps: &[(u64, u64)]) -> Parsed {
        // Semaphores and mutexes are queues to FreeRTOS: their sends are
        // gives and their receives takes.
        let ops = std::mem::take(&mut self.queue_ops);
        let mut retyped: Vec<(usize, EventKind)> = Vec::new();
        for (i, q, send) in ops {
            if self.semaphore.get(&q) == Some(&true) {
                retyped.push((i, if send { EventKind::Give } else { EventKind::Take }));
                let o = self.objects[&q];
                self.trace.objects[o as usize].kind = ObjectKind::Semaphore;
            }
        }
        if !retyped.is_empty() {
            let mut next = retyped.into_iter().peekable();
            let mut index = 0usize;
            self.trace.events.retain_mut(|e| {
                if next.peek().is_some_and(|&(i, _)| i == index) {
                    e.kind = next.next().expect("peeked").1;
                }
                index += 1;
                true
            });
        }
        // Tasks only ever made ready, never run and never described (the
        // FreeRTOS glue sends no TASK_INFO for the idle task, which runs as
        // `IDLE` packets): not tasks of the trace.
        let mut ran = vec![false; self.trace.tasks.len()];
        for e in &self.trace.events {
            if matches!(e.kind, EventKind::SwitchIn | EventKind::IsrEnter) {
                ran[e.task as usize] = true;
            }
        }
        let keep: Vec<bool> =
            self.trace.tasks.iter().zip(&ran).map(|(t, &r)| r || !t.name.starts_with("task@")).collect();
        if keep.iter().any(|k| !k) {
            let names: Vec<String> =
                self.trace.tasks.iter().zip(&keep).filter(|(_, k)| !**k).map(|(t, _)| t.name.clone()).collect();
            warnings.push(Warning {
                line: None,
                message: format!(
                    "dropped {}: made ready or stopped but never run nor described (the idle task's id: FreeRTOS's and RT-Thread's ports describe no idle task, which runs as IDLE packets)",
                    names.join(", ")
                ),
            });
            self.trace.retain_tasks(&keep);
        }
        for &(start, end) in gaps {
            self.trace.add_gap(start, end);
        }
        self.trace.tick = self.systick();
        // Recorders that never mark a task leaving the ready state (ESP-IDF's
        // streams): blocking is read from the READY that ends it, or from the
        // idle loop that follows a task never seen again.
        if !self.stop_ready_seen {
            crate::core_state::infer_blocking(&mut self.trace);
        }
        warnings.extend(crate::core_state::mark_silence(&mut self.trace));
        if overflows > 0 {
            let n = overflows;
            warnings.push(Warning {
                line: None,
                message: format!("the target dropped {n} packets (its buffer was full); the stretches before each overflow packet are gaps, not counted"),
            });
        }
        if self.reentered > 0 {
            warnings.push(Warning {
                line: None,
                message: format!(
                    "skipped {} ISR enters of an ISR already running on its core (an interrupt does not preempt itself: the recorder wrote a second enter, as RT-Thread's port does when it switches inside an interrupt)",
                    self.reentered
                ),
            });
        }
        if self.closed_by_switch > 0 {
            warnings.push(Warning {
                line: None,
                message: format!(
                    "{} ISRs had no exit before a task was switched in on their core: each ends there",
                    self.closed_by_switch
                ),
            });
        }
        if let Some(message) = self.skipped.message() {
            warnings.push(Warning { line: None, message });
        }
        Parsed {
            trace: self.trace,
            warnings,
            source: Default::default(),
            format: super::NAME,
            model: None,
            notes: Vec::new(),
        }
    }
}

impl Decoder {
    /// The tick from the entries of the `SysTick` ISR (the first core's, on
    /// a multi-core recording: `SysTick@cpu0`).
    fn systick(&self) -> Option<Tick> {
        let is_tick = |name: &str| name.split('@').next().is_some_and(|n| n.eq_ignore_ascii_case("SysTick"));
        let id = self.trace.tasks.iter().position(|t| t.kind == TaskKind::Isr && is_tick(&t.name))? as TaskId;
        let entries: Vec<u64> = self
            .trace
            .events
            .iter()
            .filter(|e| e.kind == EventKind::IsrEnter && e.task == id)
            .map(|e| e.time)
            .collect();
        Tick::from_instants(&entries, "the `SysTick` ISR's entries")
    }
}

/// A packet id for the skipped-events warning: SystemView's name.
fn event_name(id: u32) -> String {
    const NAMED: [(u32, &str); 14] = [
        (8, "TASK_CREATE"),
        (12, "SYSTIME_CYCLES"),
        (13, "SYSTIME_US"),
        (15, "MARK_START"),
        (16, "MARK_STOP"),
        (19, "TIMER_ENTER"),
        (20, "TIMER_EXIT"),
        (21, "STACK_INFO"),
        (22, "MODULEDESC"),
        (26, "PRINT_FORMATTED"),
        (27, "NUMMODULES"),
        (28, "END_CALL"),
        (29, "TASK_TERMINATE"),
        (31, "EX"),
    ];
    match NAMED.iter().find(|(i, _)| *i == id) {
        Some((_, name)) => (*name).to_string(),
        None => format!("event {id}"),
    }
}
