//! SEGGER SystemView recordings: the stream SystemView's target encoder
//! (`SEGGER_SYSVIEW.c`) writes into its RTT up-buffer, as saved to a file
//! (`.SVDat`), decoded from SEGGER's own sources (no Rust crate decodes it).
//!
//! The stream starts with a sync sequence of ten zero bytes. Each packet is
//! an event id; for ids below 24 a layout fixed by the id follows (varint
//! parameters, strings as a length byte and the bytes); for the others a
//! length (a 1-2 byte varint) and that many bytes of payload; then the
//! timestamp delta since the previous packet as a varint. Varints are 7 bits
//! a byte, least significant first, the high bit set on all but the last.
//!
//! | SystemView event | model |
//! |---|---|
//! | `INIT` (timestamp frequency), `TASK_INFO` (id, priority, name), `NAME_RESOURCE` | the clock, tasks and their priorities, object names |
//! | `TASK_START_READY` | ready; a wakeup by the task or ISR whose queue send or notify came just before |
//! | `TASK_START_EXEC`, `IDLE` | switched in (`IDLE`: the idle task); the task switched out blocked if it had a `TASK_STOP_READY` since it ran, else preempted |
//! | `ISR_ENTER` / `ISR_EXIT`, `ISR_TO_SCHEDULER` | ISR enter / exit |
//! | FreeRTOS API `xQueueGenericSend` / `xQueueGenericReceive` (also `FromISR`) | send / receive on a queue; give / take on a semaphore or mutex (an object ever sent to with no item is one) |
//! | `xTaskGenericNotify(FromISR)`, `vTaskNotifyGiveFromISR` | an event set aimed at the notified task |
//!
//! Everything else is counted in one warning. Leading bytes before the
//! first sync sequence (a file header of the host application) are skipped.

use std::collections::BTreeMap;
use std::io::BufRead;

use rustc_hash::FxHashMap as HashMap;

use crate::core_state::CoreState;
use crate::error::{ParseError, ParseErrorKind};
use crate::model::{Clock, Event, EventKind, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Trace};
use crate::{Parsed, ReadOptions, TraceFormat, Warning};

/// Format name used in messages and `--format`.
pub const NAME: &str = "systemview";

/// The sync sequence.
const SYNC: [u8; 10] = [0; 10];

/// FreeRTOS API event ids (`apiID_OFFSET` 32 plus SEGGER's `apiID_...`).
const API_QUEUE_SEND: u32 = 32 + 58;
const API_QUEUE_RECEIVE: u32 = 32 + 60;
const API_QUEUE_SEND_FROM_ISR: u32 = 32 + 64;
const API_QUEUE_RECEIVE_FROM_ISR: u32 = 32 + 66;
const API_NOTIFY: u32 = 32 + 30;
const API_NOTIFY_FROM_ISR: u32 = 32 + 31;
const API_NOTIFY_GIVE_FROM_ISR: u32 = 32 + 33;
const INIT: u32 = 24;
const NAME_RESOURCE: u32 = 25;

/// Reader of SystemView recordings.
#[derive(Clone, Debug, Default)]
pub struct SystemView {
    options: ReadOptions,
}

impl From<ReadOptions> for SystemView {
    fn from(options: ReadOptions) -> SystemView {
        SystemView { options }
    }
}

impl TraceFormat for SystemView {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        let b = head.as_bytes();
        if b.len() < SYNC.len() + 1 {
            return None;
        }
        // The sync sequence, then the start of a recording (TRACE_START,
        // INIT or a task event).
        Some(b.starts_with(&SYNC) && b[SYNC.len()..].iter().find(|&&x| x != 0).is_some_and(|&x| x < 0x80))
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| ParseError {
            path: self.options.path.clone(),
            line: 1,
            column: 1,
            format: NAME,
            kind: ParseErrorKind::Io(e),
        })?;
        Decoder::new(&self.options.path, &bytes).run()
    }
}

/// Why a packet could not be decoded.
struct Cut;

struct Decoder<'a> {
    path: String,
    b: &'a [u8],
    pos: usize,
    trace: Trace,
    warnings: Vec<Warning>,
    tasks: HashMap<u32, TaskId>,
    objects: HashMap<u32, ObjectId>,
    /// Per object: ever given as a semaphore (a send without an item).
    semaphore: HashMap<u32, bool>,
    /// Queue operations, kept to classify their objects at the end: (index
    /// into the events, object id, was a send).
    queue_ops: Vec<(usize, u32, bool)>,
    core: CoreState,
    frequency: u64,
    ticks: u64,
    skipped: BTreeMap<String, u64>,
    overflows: u64,
}

impl<'a> Decoder<'a> {
    fn new(path: &str, b: &'a [u8]) -> Decoder<'a> {
        let mut trace = Trace::new(Clock::Ns);
        trace.priority_order = crate::PriorityOrder::High;
        Decoder {
            path: path.to_string(),
            b,
            pos: 0,
            trace,
            warnings: Vec::new(),
            tasks: HashMap::default(),
            objects: HashMap::default(),
            semaphore: HashMap::default(),
            queue_ops: Vec::new(),
            core: CoreState::default(),
            frequency: 0,
            ticks: 0,
            skipped: BTreeMap::new(),
            overflows: 0,
        }
    }

    fn fail(&self, at: usize, expected: &str, found: String) -> ParseError {
        ParseError {
            path: self.path.clone(),
            line: 1,
            column: 1,
            format: NAME,
            kind: ParseErrorKind::Expected { expected: expected.to_string(), found: format!("{found} (byte {at})") },
        }
    }

    fn byte(&mut self) -> Result<u8, Cut> {
        let b = *self.b.get(self.pos).ok_or(Cut)?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, Cut> {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(value as u32);
            }
        }
        Err(Cut)
    }

    fn string(&mut self) -> Result<String, Cut> {
        let mut len = usize::from(self.byte()?);
        if len == 255 {
            len = usize::from(self.byte()?) | usize::from(self.byte()?) << 8;
        }
        let s = self.b.get(self.pos..self.pos + len).ok_or(Cut)?;
        self.pos += len;
        Ok(String::from_utf8_lossy(s).into_owned())
    }

    fn run(mut self) -> Result<Parsed, ParseError> {
        let Some(start) = self.b.windows(SYNC.len()).position(|w| w == SYNC) else {
            return Err(self.fail(
                self.b.len(),
                "a SystemView stream: the sync sequence of ten zero bytes",
                format!("none in the input's {} bytes", self.b.len()),
            ));
        };
        if start > 0 {
            self.warn(format!("{start} bytes before the first sync sequence skipped"));
        }
        self.pos = start;
        let mut packets = 0u64;
        while self.pos < self.b.len() {
            let at = self.pos;
            match self.packet() {
                Ok(()) => packets += 1,
                Err(Cut) => {
                    // A packet cut by the end of the input, or a damaged one:
                    // decode on from the next sync sequence, if any.
                    let next = self.b[at + 1..].windows(SYNC.len()).position(|w| w == SYNC).map(|p| p + at + 1);
                    match next {
                        Some(n) => {
                            self.warn(format!(
                                "the packet at byte {at} could not be decoded; {} bytes skipped to the next sync sequence",
                                n - at
                            ));
                            self.pos = n;
                        }
                        None => {
                            self.warn(format!(
                                "the stream ends in a packet that could not be decoded at byte {at}; the rest ({} bytes) is ignored",
                                self.b.len() - at
                            ));
                            break;
                        }
                    }
                }
            }
        }
        if self.frequency == 0 && packets > 0 {
            return Err(self.fail(start, "an INIT packet giving the timestamp frequency", "none".to_string()));
        }
        Ok(self.finish())
    }

    fn warn(&mut self, message: String) {
        self.warnings.push(Warning { line: 0, message });
    }

    fn skip(&mut self, what: String) {
        *self.skipped.entry(what).or_default() += 1;
    }

    fn now(&self) -> u64 {
        if self.frequency == 0 {
            return 0;
        }
        u64::try_from(u128::from(self.ticks) * 1_000_000_000 / u128::from(self.frequency)).unwrap_or(u64::MAX)
    }

    fn task(&mut self, id: u32) -> TaskId {
        self.entity(id, TaskKind::Task, || format!("task@{id:#x}"))
    }

    fn isr(&mut self, id: u32) -> TaskId {
        // ISR ids and task ids (addresses) do not overlap in practice; keep
        // them apart anyway.
        self.entity(id | 0x8000_0000, TaskKind::Isr, || format!("ISR{id}"))
    }

    /// The task of `key`, added (as `kind`, named `name()`) when new.
    fn entity(&mut self, key: u32, kind: TaskKind, name: impl FnOnce() -> String) -> TaskId {
        if let Some(&t) = self.tasks.get(&key) {
            return t;
        }
        let t = self.trace.tasks.len() as TaskId;
        let priority = (kind == TaskKind::Idle).then_some(0);
        self.trace.tasks.push(Task { name: name(), kind, priority, handle: u64::from(key & 0x7FFF_FFFF) });
        self.core.add_task();
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

    fn push(&mut self, e: Event) {
        self.trace.events.push(e);
    }

    fn switch_in(&mut self, t: TaskId, now: u64) {
        self.core.switch_in(&mut self.trace, t, now);
    }

    fn packet(&mut self) -> Result<(), Cut> {
        let first = self.byte()?;
        let mut id = u32::from(first);
        // Decoded now, applied after the timestamp delta.
        enum Do {
            Nothing,
            Ready(u32),
            Exec(u32),
            StopReady(u32),
            Idle,
            IsrEnter(u32),
            IsrExit,
            Info(u32, u32, String),
            Api(u32, Vec<u32>),
            Init(u32),
            Name(u32, String),
            Overflow(u32),
            Skip(String),
        }
        let action = if id < 24 {
            match id {
                0 | 3 | 5 | 10 | 11 | 17 | 18 | 20 => match id {
                    3 | 18 => Do::IsrExit,
                    17 => Do::Idle,
                    0 | 10 => Do::Nothing,
                    5 => Do::Nothing,
                    11 => Do::Skip("TRACE_STOP".into()),
                    _ => Do::Skip("TIMER_EXIT".into()),
                },
                1 => Do::Overflow(self.varint()?),
                2 => Do::IsrEnter(self.varint()?),
                4 => Do::Exec(self.varint()?),
                6 => Do::Ready(self.varint()?),
                7 => {
                    let t = self.varint()?;
                    let _cause = self.varint()?;
                    Do::StopReady(t)
                }
                8 => {
                    self.varint()?;
                    Do::Skip("TASK_CREATE".into())
                }
                9 => {
                    let (t, prio) = (self.varint()?, self.varint()?);
                    Do::Info(t, prio, self.string()?)
                }
                12 | 15 | 16 | 19 => {
                    self.varint()?;
                    Do::Skip(
                        ["SYSTIME_CYCLES", "MARK_START", "MARK_STOP", "TIMER_ENTER"]
                            [[12, 15, 16, 19].iter().position(|&x| x == id).unwrap_or(0)]
                        .into(),
                    )
                }
                13 => {
                    self.varint()?;
                    self.varint()?;
                    Do::Skip("SYSTIME_US".into())
                }
                14 => {
                    self.string()?;
                    Do::Skip("SYSDESC".into())
                }
                21 => {
                    for _ in 0..4 {
                        self.varint()?;
                    }
                    Do::Skip("STACK_INFO".into())
                }
                22 => {
                    self.varint()?;
                    self.varint()?;
                    self.string()?;
                    Do::Skip("MODULEDESC".into())
                }
                _ => return Err(Cut),
            }
        } else {
            if first & 0x80 != 0 {
                id = u32::from(first & 0x7F) | u32::from(self.byte()?) << 7;
            }
            let mut len = usize::from(self.byte()?);
            if len & 0x80 != 0 {
                len = (len & 0x7F) | usize::from(self.byte()?) << 7;
            }
            let end = self.pos.checked_add(len).filter(|&e| e <= self.b.len()).ok_or(Cut)?;
            let payload_end = end;
            let action = match id {
                INIT => Do::Init(self.varint()?),
                NAME_RESOURCE => {
                    let r = self.varint()?;
                    Do::Name(r, self.string()?)
                }
                API_QUEUE_SEND
                | API_QUEUE_RECEIVE
                | API_QUEUE_SEND_FROM_ISR
                | API_QUEUE_RECEIVE_FROM_ISR
                | API_NOTIFY
                | API_NOTIFY_FROM_ISR
                | API_NOTIFY_GIVE_FROM_ISR => {
                    let mut params = Vec::new();
                    while self.pos < payload_end {
                        params.push(self.varint()?);
                    }
                    Do::Api(id, params)
                }
                _ => Do::Skip(event_name(id)),
            };
            if self.pos > payload_end {
                return Err(Cut);
            }
            self.pos = payload_end;
            action
        };
        let delta = self.varint()?;
        self.ticks += u64::from(delta);
        let now = self.now();
        match action {
            Do::Nothing => {}
            Do::Skip(what) => self.skip(what),
            Do::Overflow(n) => self.overflows += u64::from(n),
            Do::Init(frequency) => self.frequency = u64::from(frequency),
            Do::Info(t, prio, name) => {
                let t = self.task(t);
                let task = &mut self.trace.tasks[t as usize];
                task.priority = Some(i32::try_from(prio).unwrap_or(i32::MAX));
                task.name = name;
            }
            Do::Name(r, name) => {
                let o = self.object(r);
                self.trace.objects[o as usize].name = name;
            }
            Do::Ready(t) => {
                let t = self.task(t);
                self.core.ready(&mut self.trace, t, now);
            }
            Do::StopReady(t) => {
                let t = self.task(t);
                self.core.blocks(Some(t));
            }
            Do::Exec(t) => {
                let t = self.task(t);
                self.switch_in(t, now);
            }
            Do::Idle => {
                // Key 0: no task has address 0.
                let idle = self.entity(0, TaskKind::Idle, || "IDLE".into());
                self.switch_in(idle, now);
            }
            Do::IsrEnter(i) => {
                let i = self.isr(i);
                self.core.isrs.push(i);
                self.push(Event::new(now, 0, EventKind::IsrEnter, i));
            }
            Do::IsrExit => {
                if let Some(i) = self.core.isrs.pop() {
                    self.push(Event::new(now, 0, EventKind::IsrExit, i));
                }
            }
            Do::Api(id, params) => self.api(id, &params, now),
        }
        Ok(())
    }

    fn api(&mut self, id: u32, params: &[u32], now: u64) {
        let Some(actor) = self.core.actor() else {
            self.skip("API calls before any task ran".into());
            return;
        };
        match id {
            API_QUEUE_SEND | API_QUEUE_SEND_FROM_ISR | API_QUEUE_RECEIVE | API_QUEUE_RECEIVE_FROM_ISR => {
                let Some(&q) = params.first() else { return };
                let send = matches!(id, API_QUEUE_SEND | API_QUEUE_SEND_FROM_ISR);
                // A semaphore or mutex is given with no item
                // (xQueueGenericSend's second parameter 0).
                if id == API_QUEUE_SEND && params.get(1) == Some(&0) {
                    self.semaphore.insert(q, true);
                }
                let object = self.object(q);
                let kind = if send { EventKind::Send } else { EventKind::Receive };
                self.queue_ops.push((self.trace.events.len(), q, send));
                self.push(Event::new(now, 0, kind, actor).with_object(object));
                self.core.signal(send.then_some(actor));
            }
            _ => {
                let Some(&t) = params.first() else { return };
                let target = self.task(t);
                self.push(Event::new(now, 0, EventKind::EventSet, actor).with_peer(target));
                self.core.signal(Some(actor));
            }
        }
    }

    fn finish(mut self) -> Parsed {
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
            self.warn(format!(
                "dropped {}: made ready but never run nor described (the idle task's id, as FreeRTOS's glue sends no TASK_INFO for it)",
                names.join(", ")
            ));
            self.trace.retain_tasks(&keep);
        }
        if self.overflows > 0 {
            let n = self.overflows;
            self.warn(format!("the target dropped {n} packets (RTT buffer full); the trace has gaps"));
        }
        if !self.skipped.is_empty() {
            let total: u64 = self.skipped.values().sum();
            let list: Vec<String> = self.skipped.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            self.warn(format!("skipped {total} events corera does not use: {}", list.join(", ")));
        }
        Parsed { trace: self.trace, warnings: self.warnings, source: Default::default(), format: NAME, model: None }
    }
}

/// A packet id for the skipped-events warning: SystemView's name, or the
/// FreeRTOS API call SEGGER's glue numbers it as.
fn event_name(id: u32) -> String {
    const NAMED: [(u32, &str); 12] = [
        (26, "PRINT_FORMATTED"),
        (27, "NUMMODULES"),
        (28, "END_CALL"),
        (29, "TASK_TERMINATE"),
        (31, "EX"),
        (32 + 3, "vTaskDelay"),
        (32 + 4, "vTaskDelayUntil"),
        (32 + 9, "vTaskSuspend"),
        (32 + 32, "xTaskNotifyWait"),
        (32 + 34, "ulTaskNotifyTake"),
        (32 + 81, "vQueueAddToRegistry"),
        (32 + 83, "xQueueGenericCreate"),
    ];
    match NAMED.iter().find(|(i, _)| *i == id) {
        Some((_, name)) => (*name).to_string(),
        None if (32..512).contains(&id) => format!("FreeRTOS API call {}", id - 32),
        None => format!("event {id}"),
    }
}
