//! Percepio TraceRecorder streaming format (PSF, Tracealyzer's `.psf`), as
//! written by its File, RTT, ITM or TCP stream ports, for the FreeRTOS
//! kernel port.
//!
//! The record layer (header, timestamp configuration, entry table, event
//! records) is decoded by the `trace-recorder-parser` crate; this module
//! maps its events onto the trace model:
//!
//! | PSF event | model |
//! |---|---|
//! | `TASK_CREATE` (name, priority), `OBJECT_NAME`, the entry table | tasks (`IDLE` is the idle task), queues, semaphores, mutexes, event groups and their names |
//! | `TASK_READY` | ready; a wakeup by the task or ISR whose send, give, notify or set-bits came just before |
//! | `TASK_ACTIVATE`, `TASK_SWITCH_TASK_BEGIN/RESUME` | switched in; the task switched out blocked if it made a blocking call (`*_BLOCK`, `TASK_DELAY`, `TASK_DELAY_UNTIL`, `TASK_SUSPEND`) since it ran, else preempted; the end of every ISR running |
//! | `TASK_SWITCH_ISR_BEGIN` / `TASK_SWITCH_ISR_RESUME` | ISR enter / the end of the ISRs nested above the resumed one |
//! | `QUEUE_SEND*`, `QUEUE_RECEIVE*`, `MESSAGEBUFFER_SEND/RECEIVE*` (also `_FROM_ISR`) | send / receive |
//! | `SEMAPHORE_GIVE/TAKE*`, `MUTEX_GIVE/TAKE*` (recursive too) | give / take |
//! | `TASK_NOTIFY*` | event set aimed at the notified task |
//! | `EVENTGROUP_SETBITS*` | event set on the group |
//! | `TASK_PRIORITY_INHERIT/DISINHERIT`, `TASK_PRIORITY` | counted (the replay applies priority inheritance itself; priorities are the creation ones) |
//!
//! Events it cannot map are counted in one warning; records the crate
//! cannot decode are counted in another, with the byte offset of the first.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};

use rustc_hash::FxHashMap as HashMap;
use trace_recorder_parser::streaming::event::{Event as Psf, EventType};
use trace_recorder_parser::streaming::{Error as PsfError, RecorderData};
use trace_recorder_parser::types::{KernelPortIdentity, ObjectClass, ObjectHandle};

use crate::core_state::CoreState;
use crate::error::{ParseError, ParseErrorKind};
use crate::model::{Clock, Event, EventKind, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Trace};
use crate::{Parsed, ReadOptions, TraceFormat, Warning};

/// Format name used in messages and `--format`.
pub const NAME: &str = "psf";

/// PSF format versions the crate reads (it warns on others).
const VERSIONS: [u16; 4] = [10, 12, 13, 14];

/// Consecutive undecodable records after which the rest of a stream is
/// given up (with a warning).
const MAX_BAD_RECORDS: u64 = 1_000;

/// Reader of PSF streams.
#[derive(Clone, Debug, Default)]
pub struct PsfReader {
    options: ReadOptions,
}

impl From<ReadOptions> for PsfReader {
    fn from(options: ReadOptions) -> PsfReader {
        PsfReader { options }
    }
}

impl TraceFormat for PsfReader {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        let b = head.as_bytes();
        if b.len() < 4 {
            return None;
        }
        Some(b.starts_with(b"\0FSP") || b.starts_with(b"PSF\0"))
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let mut r = Counting { inner: reader, offset: 0 };
        Reader::new(&self.options.path).run(&mut r)
    }
}

/// A reader that counts the bytes read, for byte offsets in messages.
struct Counting<'a> {
    inner: &'a mut dyn BufRead,
    offset: u64,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.offset += n as u64;
        Ok(n)
    }
}

struct Reader {
    path: String,
    trace: Trace,
    warnings: Vec<Warning>,
    tasks: HashMap<u32, TaskId>,
    objects: HashMap<u32, ObjectId>,
    core: CoreState,
    frequency: u64,
    last_time: u64,
    skipped: BTreeMap<String, u64>,
    unattributed: u64,
    backwards: u64,
}

impl Reader {
    fn new(path: &str) -> Reader {
        let mut trace = Trace::new(Clock::Ns);
        trace.priority_order = crate::PriorityOrder::High;
        Reader {
            path: path.to_string(),
            trace,
            warnings: Vec::new(),
            tasks: HashMap::default(),
            objects: HashMap::default(),
            core: CoreState::default(),
            frequency: 1,
            last_time: 0,
            skipped: BTreeMap::new(),
            unattributed: 0,
            backwards: 0,
        }
    }

    fn fail(&self, offset: u64, expected: &str, found: String) -> ParseError {
        ParseError {
            path: self.path.clone(),
            line: 1,
            column: 1,
            format: NAME,
            kind: ParseErrorKind::Expected {
                expected: expected.to_string(),
                found: format!("{found} (byte {offset})"),
            },
        }
    }

    fn run(mut self, r: &mut Counting<'_>) -> Result<Parsed, ParseError> {
        let mut rd = match RecorderData::find(r) {
            Ok(rd) => rd,
            Err(PsfError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                let n = r.offset;
                return Err(self.fail(
                    n,
                    "a PSF stream: the magic word `PSF` and a whole header",
                    format!("none in the input's {n} bytes"),
                ));
            }
            Err(e) => return Err(self.fail(r.offset, "a PSF stream header (magic `PSF`)", e.to_string())),
        };
        let version = rd.header.format_version;
        if !VERSIONS.contains(&version) {
            return Err(self.fail(
                0,
                "a PSF format version corera reads (10, 12, 13 or 14)",
                format!("version {version}"),
            ));
        }
        if rd.header.kernel_port != KernelPortIdentity::FreeRtos {
            return Err(self.fail(
                0,
                "a stream of TraceRecorder's FreeRTOS kernel port",
                format!("kernel port {}", rd.header.kernel_port),
            ));
        }
        if rd.header.num_cores > 1 {
            self.warn(format!(
                "the recorder was configured for {} cores; its format-{version} events carry no core, so all are read on core 0",
                rd.header.num_cores
            ));
        }
        self.frequency = u64::from(rd.timestamp_info.timer_frequency.get_raw());
        if self.frequency == 0 {
            return Err(self.fail(0, "a timer frequency above 0 in the timestamp configuration", "0".into()));
        }
        let (mut bad, mut bad_total, mut first_bad, mut restarts) = (0u64, 0u64, None, 0u64);
        loop {
            let at = r.offset;
            match rd.read_event(r) {
                Ok(Some((code, event))) => {
                    bad = 0;
                    self.event(&rd, code.event_type(), &event);
                }
                Ok(None) => break,
                Err(PsfError::TraceRestarted(endianness)) => {
                    restarts += 1;
                    match RecorderData::read_with_endianness(endianness, r) {
                        Ok(next) => rd = next,
                        Err(e) => {
                            self.warn(format!(
                                "the stream restarts at byte {at} with an unreadable header ({e}); read up to there"
                            ));
                            break;
                        }
                    }
                }
                Err(PsfError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    self.warn(format!(
                        "the stream ends inside a record at byte {}; the partial record is dropped",
                        r.offset
                    ));
                    break;
                }
                Err(PsfError::Io(e)) => return Err(self.fail(at, "a readable stream", e.to_string())),
                Err(e) => {
                    bad += 1;
                    bad_total += 1;
                    first_bad.get_or_insert((at, e.to_string()));
                    if bad >= MAX_BAD_RECORDS {
                        self.warn(format!("{MAX_BAD_RECORDS} records in a row could not be decoded from byte {at}; the rest of the stream is ignored"));
                        break;
                    }
                }
            }
        }
        if let Some((at, e)) = first_bad {
            self.warn(format!(
                "{bad_total} records could not be decoded and were skipped (the first at byte {at}: {e})"
            ));
        }
        if restarts > 0 {
            self.warn(format!("the recorder restarted the stream {restarts} times; read as one trace"));
        }
        Ok(self.finish(&rd))
    }

    fn warn(&mut self, message: String) {
        self.warnings.push(Warning { line: 0, message });
    }

    fn skip(&mut self, what: String) {
        *self.skipped.entry(what).or_default() += 1;
    }

    fn time(&mut self, ticks: u64) -> u64 {
        let ns = u64::try_from(u128::from(ticks) * 1_000_000_000 / u128::from(self.frequency)).unwrap_or(u64::MAX);
        if ns < self.last_time {
            self.backwards += 1;
            return self.last_time;
        }
        self.last_time = ns;
        ns
    }

    fn task(&mut self, rd: &RecorderData, handle: ObjectHandle, isr: bool, priority: Option<i32>) -> TaskId {
        let key = u32::from(handle);
        if let Some(&t) = self.tasks.get(&key) {
            if let (Some(p), None) = (priority, self.trace.tasks[t as usize].priority) {
                self.trace.tasks[t as usize].priority = Some(p);
            }
            return t;
        }
        let name = rd.entry_table.symbol(handle).map_or_else(|| format!("task@{key:#x}"), |s| s.to_string());
        let kind = match () {
            () if isr || rd.entry_table.class(handle) == Some(ObjectClass::Isr) => TaskKind::Isr,
            () if name.starts_with("IDLE") => TaskKind::Idle,
            () => TaskKind::Task,
        };
        let id = self.trace.tasks.len() as TaskId;
        self.trace.tasks.push(Task { name, kind, priority, handle: u64::from(key) });
        self.core.add_task();
        self.tasks.insert(key, id);
        id
    }

    fn object(&mut self, rd: &RecorderData, handle: ObjectHandle, kind: ObjectKind) -> ObjectId {
        let key = u32::from(handle);
        if let Some(&o) = self.objects.get(&key) {
            return o;
        }
        let name = rd.entry_table.symbol(handle).map_or_else(|| format!("{:#x}", key), |s| s.to_string());
        let id = self.trace.objects.len() as ObjectId;
        self.trace.objects.push(Object { name, kind });
        self.objects.insert(key, id);
        id
    }

    fn push(&mut self, e: Event) {
        self.trace.events.push(e);
    }

    /// The ISRs above the innermost one that is `keep` (all when `None`)
    /// return at `now`.
    fn end_isrs(&mut self, keep: Option<TaskId>, now: u64) {
        while let Some(&top) = self.core.isrs.last() {
            if Some(top) == keep {
                break;
            }
            self.core.isrs.pop();
            self.push(Event::new(now, 0, EventKind::IsrExit, top));
        }
    }

    fn switch_in(&mut self, t: TaskId, now: u64) {
        self.end_isrs(None, now);
        self.core.switch_in(&mut self.trace, t, now);
    }

    /// An operation on an object by the actor.
    fn op(&mut self, rd: &RecorderData, handle: ObjectHandle, kind: ObjectKind, event: EventKind, now: u64) {
        let Some(actor) = self.core.actor() else {
            self.unattributed += 1;
            return;
        };
        let object = self.object(rd, handle, kind);
        self.push(Event::new(now, 0, event, actor).with_object(object));
        self.core.signal(matches!(event, EventKind::Send | EventKind::Give | EventKind::EventSet).then_some(actor));
    }

    fn event(&mut self, rd: &RecorderData, kind: EventType, event: &Psf) {
        // An id the crate does not know may be a damaged record: its
        // timestamp is not trusted (the OS tick, 0x31, is a real one).
        if let EventType::Unknown(id) = kind
            && id.0 != 0x31
        {
            self.skip(kind_name(kind));
            return;
        }
        let now = self.time(event.timestamp().ticks());
        use ObjectKind::{Event as Ev, Mutex, Queue, Semaphore};
        match event {
            Psf::TaskCreate(e) => {
                let t = self.task(rd, e.handle, false, Some(priority(e.priority)));
                self.trace.tasks[t as usize].name = e.name.to_string();
            }
            Psf::IsrDefine(e) => {
                let t = self.task(rd, e.handle, true, Some(priority(e.priority)));
                self.trace.tasks[t as usize].name = e.name.to_string();
            }
            Psf::ObjectName(e) => {
                let key = u32::from(e.handle);
                if let Some(&t) = self.tasks.get(&key) {
                    self.trace.tasks[t as usize].name = e.name.to_string();
                } else if let Some(&o) = self.objects.get(&key) {
                    self.trace.objects[o as usize].name = e.name.to_string();
                }
            }
            Psf::TaskReady(e) => {
                let t = self.task(rd, e.handle, false, None);
                self.core.ready(&mut self.trace, t, now);
            }
            Psf::TaskActivate(e) | Psf::TaskBegin(e) | Psf::TaskResume(e) => {
                let t = self.task(rd, e.handle, false, None);
                self.switch_in(t, now);
            }
            Psf::IsrBegin(e) => {
                let i = self.task(rd, e.handle, true, None);
                self.core.isrs.push(i);
                self.push(Event::new(now, 0, EventKind::IsrEnter, i));
            }
            Psf::IsrResume(e) => {
                let i = self.task(rd, e.handle, true, None);
                self.end_isrs(Some(i), now);
            }
            Psf::QueueSend(e) | Psf::QueueSendFromIsr(e) | Psf::QueueSendFront(e) | Psf::QueueSendFrontFromIsr(e) => {
                self.op(rd, e.handle, Queue, EventKind::Send, now)
            }
            Psf::QueueReceive(e) | Psf::QueueReceiveFromIsr(e) => self.op(rd, e.handle, Queue, EventKind::Receive, now),
            Psf::MessageBufferSend(e) | Psf::MessageBufferSendFromIsr(e) => {
                self.op(rd, e.handle, Queue, EventKind::Send, now)
            }
            Psf::MessageBufferReceive(e) | Psf::MessageBufferReceiveFromIsr(e) => {
                self.op(rd, e.handle, Queue, EventKind::Receive, now)
            }
            Psf::SemaphoreGive(e) | Psf::SemaphoreGiveFromIsr(e) => {
                self.op(rd, e.handle, Semaphore, EventKind::Give, now)
            }
            Psf::SemaphoreTake(e) | Psf::SemaphoreTakeFromIsr(e) => {
                self.op(rd, e.handle, Semaphore, EventKind::Take, now)
            }
            Psf::MutexGive(e) | Psf::MutexGiveRecursive(e) => self.op(rd, e.handle, Mutex, EventKind::Give, now),
            Psf::MutexTake(e) | Psf::MutexTakeRecursive(e) => self.op(rd, e.handle, Mutex, EventKind::Take, now),
            Psf::EventGroupSetBits(e) | Psf::EventGroupSetBitsFromIsr(e) => {
                self.op(rd, e.handle, Ev, EventKind::EventSet, now)
            }
            Psf::TaskNotify(e) | Psf::TaskNotifyFromIsr(e) => {
                let Some(actor) = self.core.actor() else {
                    self.unattributed += 1;
                    return;
                };
                let target = self.task(rd, e.handle, false, None);
                self.push(Event::new(now, 0, EventKind::EventSet, actor).with_peer(target));
                self.core.signal(Some(actor));
            }
            Psf::QueueSendBlock(_)
            | Psf::QueueReceiveBlock(_)
            | Psf::QueuePeekBlock(_)
            | Psf::QueueSendFrontBlock(_)
            | Psf::SemaphoreGiveBlock(_)
            | Psf::SemaphoreTakeBlock(_)
            | Psf::SemaphorePeekBlock(_)
            | Psf::MutexGiveBlock(_)
            | Psf::MutexTakeBlock(_)
            | Psf::MutexTakeRecursiveBlock(_)
            | Psf::TaskNotifyWaitBlock(_)
            | Psf::EventGroupSyncBlock(_)
            | Psf::EventGroupWaitBitsBlock(_)
            | Psf::MessageBufferSendBlock(_)
            | Psf::MessageBufferReceiveBlock(_) => self.core.blocks(None),
            Psf::Unknown(_) => match kind {
                EventType::TaskDelay | EventType::TaskDelayUntil | EventType::TaskSuspend => self.core.blocks(None),
                other => self.skip(kind_name(other)),
            },
            _ => self.skip(kind_name(kind)),
        }
    }

    fn finish(mut self, rd: &RecorderData) -> Parsed {
        // Tasks first seen without a name: the entry table's latest.
        for (handle, entry) in rd.entry_table.entries() {
            if let (Some(&t), Some(symbol)) = (self.tasks.get(&u32::from(*handle)), &entry.symbol)
                && self.trace.tasks[t as usize].name.starts_with("task@")
            {
                self.trace.tasks[t as usize].name = symbol.to_string();
            }
        }
        if !self.skipped.is_empty() {
            let total: u64 = self.skipped.values().sum();
            let list: Vec<String> = self.skipped.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            self.warn(format!("skipped {total} events corera does not use: {}", list.join(", ")));
        }
        if self.unattributed > 0 {
            let n = self.unattributed;
            self.warn(format!("{n} kernel-object operations happened before any task ran; ignored"));
        }
        if self.backwards > 0 {
            let n = self.backwards;
            self.warn(format!("{n} timestamps went backwards (timer wrap-around?); taken as the previous one"));
        }
        Parsed { trace: self.trace, warnings: self.warnings, source: Default::default(), format: NAME, model: None }
    }
}

fn priority(p: trace_recorder_parser::types::Priority) -> i32 {
    i32::try_from(u32::from(p)).unwrap_or(i32::MAX)
}

/// An event type as TraceRecorder names it (`TASK_PRIORITY`); the FreeRTOS
/// port's OS tick (0x31), which the crate does not name, as `NEW_TIME`.
fn kind_name(kind: EventType) -> String {
    match kind {
        EventType::Unknown(id) if id.0 == 0x31 => "NEW_TIME (OS tick)".to_string(),
        EventType::Unknown(id) => format!("unknown event id 0x{:02X} (a damaged record?)", id.0),
        other => other.to_string(),
    }
}
