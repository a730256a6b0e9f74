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

use std::io::{BufRead, Read};

mod ring;

use rustc_hash::FxHashMap as HashMap;
use trace_recorder_parser::streaming::event::{Event as Psf, EventType};
use trace_recorder_parser::streaming::{Error as PsfError, RecorderData};
use trace_recorder_parser::types::{KernelPortIdentity, ObjectClass, ObjectHandle};

use crate::core_state::Cores;
use crate::error::{ParseError, ParseErrorKind};
use crate::model::{Clock, Event, EventKind, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Tick, Trace};
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
        if b.starts_with(b"\0FSP") || b.starts_with(b"PSF\0") || ring::has_markers(b) {
            return Some(true);
        }
        // A RAM dump may hold other data before the recorder's buffer.
        if b.len() < 4096 { None } else { Some(false) }
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let mut r = Counting { inner: reader, offset: 0 };
        let mut reader = Reader::new(&self.options.path);
        reader.printf_event = self.options.psf_printf_event;
        // A RAM dump of the RingBuffer stream port: its start markers in
        // the first bytes (a dump of more memory may hold other data first).
        let head = r.inner.fill_buf().map_err(|e| reader.fail(0, "a readable input", e.to_string()))?;
        if ring::has_markers(head) {
            let mut dump = Vec::new();
            r.read_to_end(&mut dump).map_err(|e| reader.fail(0, "a readable input", e.to_string()))?;
            return reader.run_ring(&dump);
        }
        reader.run(&mut r)
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
    /// Per core its state; `on` is the core whose events are read now.
    cores: Cores,
    on: u16,
    frequency: u64,
    /// Per core, the last timestamp read.
    last_time: Vec<u64>,
    skipped: crate::unused::Unused,
    /// An application event id that carries a printf-style payload
    /// (`--psf-printf-id`).
    printf_event: Option<u16>,
    /// The first event id the crate did not know, with its byte offset.
    first_unknown: Option<(u16, u64)>,
    /// Each event's core is in its event count (a multi-core recorder).
    cores_in_counts: bool,
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
            cores: Cores::default(),
            on: 0,
            frequency: 1,
            last_time: vec![0],
            skipped: Default::default(),
            unattributed: 0,
            backwards: 0,
            printf_event: None,
            first_unknown: None,
            cores_in_counts: false,
        }
    }

    fn fail(&self, offset: u64, expected: &str, found: String) -> ParseError {
        ParseError::at_byte(
            &self.path,
            NAME,
            offset,
            ParseErrorKind::Expected { expected: expected.to_string(), found },
        )
    }

    /// Reads a stream: a header, then events.
    fn run(mut self, r: &mut Counting<'_>) -> Result<Parsed, ParseError> {
        let mut rd = self.header(r)?;
        // A multi-core recorder writes each event's core in the top four
        // bits of its event count (`TRC_EVENT_SET_EVENT_COUNT`), and the
        // cores' buffers in chunks: events are sorted by time at the end.
        self.cores_in_counts = rd.header.num_cores > 1;
        self.events(&mut rd, r)?;
        if rd.header.num_cores > 1 {
            self.trace.events.sort_by_time();
        }
        let mut parsed = self.finish(&rd);
        if rd.header.num_cores > 1 {
            parsed.notes.push(format!(
                "the recorder ran on {} cores: each event's core is the top four bits of its event count",
                rd.header.num_cores
            ));
        }
        Ok(parsed)
    }

    /// Reads a RingBuffer stream port's RAM dump: the header in the dump,
    /// then each core's ring from its oldest event to its newest.
    fn run_ring(mut self, dump: &[u8]) -> Result<Parsed, ParseError> {
        let ring = ring::locate(dump).map_err(|(at, expected, found)| self.fail(at, expected, found))?;
        let mut rd = self.header(&mut Counting { inner: &mut &ring.header[..], offset: ring.header_at })?;
        let rings = ring::rings(&ring, rd.header.num_cores as usize)
            .map_err(|(at, expected, found)| self.fail(at, expected, found))?;
        for (core, events) in rings.cores.iter().enumerate() {
            if core > 0 {
                rd = self.header(&mut Counting { inner: &mut &ring.header[..], offset: ring.header_at })?;
            }
            self.on_core(core as u16);
            self.events(&mut rd, &mut Counting { inner: &mut &events.bytes[..], offset: events.at })?;
        }
        if rings.cores.len() > 1 {
            self.trace.events.sort_by_time();
        }
        self.warnings.extend(rings.notes.iter().map(|m| Warning { line: None, message: m.clone() }));
        let mut parsed = self.finish(&rd);
        parsed.notes.push(format!(
            "a RingBuffer stream port's RAM dump: {} core ring(s) of {} bytes, the oldest events overwritten as the recorder ran",
            rings.cores.len(),
            rings.ring_size
        ));
        Ok(parsed)
    }

    /// The recorder's header, timestamp configuration and entry table,
    /// checked to be of a version and kernel port corera reads.
    fn header(&mut self, r: &mut Counting<'_>) -> Result<RecorderData, ParseError> {
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
            Err(PsfError::KernelVersion(v)) => {
                return Err(self.fail(
                    r.offset,
                    "a stream of TraceRecorder's FreeRTOS kernel port (kernel version 0x1AA1)",
                    format!(
                        "kernel version bytes [{:02X}, {:02X}]: a kernel port TraceRecorder does not identify (a custom port), whose events corera cannot map",
                        v[0], v[1]
                    ),
                ));
            }
            Err(e) => return Err(self.fail(r.offset, "a PSF stream header (magic `PSF`)", e.to_string())),
        };
        if let Some(id) = self.printf_event {
            rd.set_custom_printf_event_id(id.into());
        }
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
                "a stream of TraceRecorder's FreeRTOS kernel port (ESP-IDF's FreeRTOS port writes the same)",
                format!(
                    "TraceRecorder's {} kernel port, whose event codes and object classes corera does not map yet",
                    rd.header.kernel_port
                ),
            ));
        }
        self.frequency = u64::from(rd.timestamp_info.timer_frequency.get_raw());
        if self.frequency == 0 {
            return Err(self.fail(0, "a timer frequency above 0 in the timestamp configuration", "0".into()));
        }
        // The FreeRTOS kernel port, the only one read (checked above).
        self.trace.os = Some(crate::Os::FreeRtos);
        let rate = u64::from(rd.timestamp_info.os_tick_rate_hz.get_raw());
        self.trace.tick = (rate > 0).then(|| Tick {
            period_ns: 1_000_000_000 / rate,
            at_ns: 0,
            source: format!("the recorder's header ({rate} Hz)"),
        });
        Ok(rd)
    }

    /// Reads events to the end of `r`, past restarts; records that do not
    /// decode are counted and located.
    fn events(&mut self, rd: &mut RecorderData, r: &mut Counting<'_>) -> Result<(), ParseError> {
        let (mut bad, mut bad_total, mut first_bad, mut restarts) = (0u64, 0u64, None, 0u64);
        loop {
            let at = r.offset;
            match rd.read_event(r) {
                Ok(Some((code, event))) => {
                    bad = 0;
                    if let EventType::Unknown(id) = code.event_type()
                        && id.0 != 0x31
                    {
                        self.first_unknown.get_or_insert((id.0, at));
                    }
                    if self.cores_in_counts {
                        self.on_core(u16::from(event.event_count()) >> 12);
                    }
                    self.event(rd, code.event_type(), &event);
                }
                Ok(None) => break,
                Err(PsfError::TraceRestarted(endianness)) => {
                    restarts += 1;
                    match RecorderData::read_with_endianness(endianness, r) {
                        Ok(next) => {
                            *rd = next;
                            if let Some(id) = self.printf_event {
                                rd.set_custom_printf_event_id(id.into());
                            }
                        }
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
        if let Some((at, e)) = &first_bad {
            self.warn(format!(
                "{bad_total} records could not be decoded and were skipped (the first at byte {at}: {e})"
            ));
        }
        if let Some((id, at)) = self.first_unknown
            && (first_bad.is_some() || self.printf_event.is_none())
        {
            self.warn(format!(
                "the first record corera cannot place is event 0x{id:04X} at byte {at}: an application's own event, or damage; if the application writes it with a payload of its own (a custom printf), --psf-printf-id 0x{id:04X} delimits it so that the records after it decode"
            ));
        }
        if restarts > 0 {
            self.warn(format!("the recorder restarted the stream {restarts} times; read as one trace"));
        }
        Ok(())
    }

    /// Events from now on are `core`'s.
    fn on_core(&mut self, core: u16) {
        self.on = core;
        if self.last_time.len() <= usize::from(core) {
            self.last_time.resize(usize::from(core) + 1, 0);
        }
    }

    fn warn(&mut self, message: String) {
        self.warnings.push(Warning { line: None, message });
    }

    fn skip(&mut self, what: String) {
        self.skipped.add(&what);
    }

    fn time(&mut self, ticks: u64) -> u64 {
        let ns = u64::try_from(u128::from(ticks) * 1_000_000_000 / u128::from(self.frequency)).unwrap_or(u64::MAX);
        let last = &mut self.last_time[usize::from(self.on)];
        if ns < *last {
            self.backwards += 1;
            return *last;
        }
        *last = ns;
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
        self.cores.add_task();
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
        self.cores.on(self.on).end_isrs(&mut self.trace, keep, now);
    }

    fn switch_in(&mut self, t: TaskId, now: u64) {
        self.end_isrs(None, now);
        self.cores.on(self.on).switch_in(&mut self.trace, t, now);
    }

    /// An operation on an object by the actor.
    fn op(&mut self, rd: &RecorderData, handle: ObjectHandle, kind: ObjectKind, event: EventKind, now: u64) {
        let Some(actor) = self.cores.on(self.on).actor() else {
            self.unattributed += 1;
            return;
        };
        let object = self.object(rd, handle, kind);
        self.push(Event::new(now, self.on, event, actor).with_object(object));
        self.cores
            .on(self.on)
            .signal(matches!(event, EventKind::Send | EventKind::Give | EventKind::EventSet).then_some(actor));
    }

    fn event(&mut self, rd: &RecorderData, kind: EventType, event: &Psf) {
        // An id the crate does not know may be a damaged record: its
        // timestamp is not trusted (the OS tick, 0x31, is a real one).
        if let EventType::Unknown(id) = kind
            && id.0 != 0x31
        {
            if self.printf_event == Some(id.0) {
                self.skip(format!("the application's printf 0x{:04X}", id.0));
            } else {
                self.skip(kind_name(kind));
            }
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
                self.cores.on(self.on).ready(&mut self.trace, t, now);
            }
            Psf::TaskActivate(e) | Psf::TaskBegin(e) | Psf::TaskResume(e) => {
                let t = self.task(rd, e.handle, false, None);
                self.switch_in(t, now);
            }
            Psf::IsrBegin(e) => {
                let i = self.task(rd, e.handle, true, None);
                self.cores.on(self.on).isrs.push(i);
                self.push(Event::new(now, self.on, EventKind::IsrEnter, i));
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
                let Some(actor) = self.cores.on(self.on).actor() else {
                    self.unattributed += 1;
                    return;
                };
                let target = self.task(rd, e.handle, false, None);
                self.push(Event::new(now, self.on, EventKind::EventSet, actor).with_peer(target));
                self.cores.on(self.on).signal(Some(actor));
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
            | Psf::MessageBufferReceiveBlock(_) => self.cores.on(self.on).blocks(None),
            Psf::Unknown(_) => match kind {
                EventType::TaskDelay | EventType::TaskDelayUntil | EventType::TaskSuspend => {
                    self.cores.on(self.on).blocks(None)
                }
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
        // A RingBuffer dump keeps the latest events only: the creations
        // (which carry the priorities) of tasks created early are gone.
        let uncreated: Vec<&str> = self
            .trace
            .tasks
            .iter()
            .filter(|t| t.kind == TaskKind::Task && t.priority.is_none())
            .map(|t| t.name.as_str())
            .collect();
        if !uncreated.is_empty() {
            let message = format!(
                "the recording holds no creation of {} task(s) ({}): the recorder overwrote them (a RingBuffer dump keeps \
                 the latest events), so their priorities are not recorded and are inferred from what they did; \
                 give them with --priority NAME=N",
                uncreated.len(),
                uncreated.join(", ")
            );
            self.warn(message);
        }
        if let Some(message) = self.skipped.message() {
            self.warn(message);
        }
        if self.unattributed > 0 {
            let n = self.unattributed;
            self.warn(format!("{n} kernel-object operations happened before any task ran; ignored"));
        }
        if self.backwards > 0 {
            let n = self.backwards;
            self.warn(format!("{n} timestamps went backwards (timer wrap-around?); taken as the previous one"));
        }
        self.warnings.extend(crate::core_state::mark_silence(&mut self.trace));
        Parsed {
            trace: self.trace,
            warnings: self.warnings,
            source: Default::default(),
            format: NAME,
            model: None,
            notes: Vec::new(),
        }
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
