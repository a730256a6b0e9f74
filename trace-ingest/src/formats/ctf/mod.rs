//! Zephyr's own tracing in CTF (Common Trace Format 1.8,
//! `subsys/tracing/ctf`): a directory holding the `metadata` text (TSDL)
//! and binary stream files (`channel0_0`), as babeltrace2 reads them.
//! corera is given the directory (or its `metadata` file) and reads the
//! metadata's event classes ([`tsdl`]), then every stream file beside it:
//! packed events, each a header (a 32-bit ns timestamp, the event id) and
//! the event's fields.
//!
//! | CTF event (Zephyr) | model |
//! |---|---|
//! | `thread_create`, `thread_name_set`, `thread_info`, `thread_priority_set` | threads, names, priorities (a smaller number is more urgent) |
//! | `thread_switched_in` (`core_id` under SMP) | switched in on the core; the thread switched out blocked if a `thread_pending` or a `*_blocking` came for it since it ran, else preempted |
//! | `idle`, a thread named `idle` | the core's idle loop |
//! | `thread_ready`, `thread_wakeup`, `thread_resume` | ready; a wakeup by the thread or ISR whose give, send or signal came just before on that core |
//! | `thread_pending`, `thread_suspend`, `*_blocking` | blocking |
//! | `isr_enter`, `isr_exit`, `isr_exit_to_scheduler` | ISR enter / exit (Zephyr's events name no interrupt: one ISR per core) |
//! | `semaphore_give_enter`, `mutex_unlock_enter` | give |
//! | `semaphore_take_exit`, `mutex_lock_exit` with `ret` 0 | take |
//! | `*_put_exit`, `*_send_exit`, `*_append_exit` of message queues, queues, FIFOs, mailboxes, pipes (`ret` 0) | send |
//! | `*_get_exit`, `*_recv_exit` of the same | receive |
//!
//! Everything else is counted in one warning.

pub(crate) mod tsdl;

use std::io::BufRead;
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap as HashMap;

use crate::core_state::Cores;
use crate::error::{ParseError, ParseErrorKind};
use crate::model::{Clock, Event, EventKind, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Trace};
use crate::{Parsed, PriorityOrder, ReadOptions, TraceFormat, Warning};
pub(crate) use tsdl::{Metadata, Type};

/// Format name used in messages and `--format`.
pub const NAME: &str = "ctf";

/// Reader of CTF traces (Zephyr's tracing).
#[derive(Clone, Debug, Default)]
pub struct Ctf {
    options: ReadOptions,
}

impl From<ReadOptions> for Ctf {
    fn from(options: ReadOptions) -> Ctf {
        Ctf { options }
    }
}

impl TraceFormat for Ctf {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        if head.len() < 8 {
            return None;
        }
        Some(head.starts_with("/* CTF"))
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let path = self.options.path.clone();
        let mut text = String::new();
        reader.read_to_string(&mut text).map_err(|e| error(&path, 1, ParseErrorKind::Io(e)))?;
        let meta = metadata(&text, &path)?;
        let dir = Path::new(&path).parent().map(Path::to_path_buf).unwrap_or_default();
        let files = stream_files(&dir, &path).map_err(|found| {
            let expected = "the trace's stream files beside its metadata (give the trace directory)";
            error(&path, 1, ParseErrorKind::expected(expected, &found))
        })?;
        let mut streams = Vec::with_capacity(files.len());
        for file in &files {
            let shown = file.display().to_string();
            let bytes = std::fs::read(file).map_err(|e| error(&shown, 1, ParseErrorKind::Io(e)))?;
            streams.push((shown, bytes));
        }
        let streams: Vec<(&str, &[u8])> = streams.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
        Ok(decode_streams(&meta, &streams))
    }
}

/// Reads a CTF trace held in memory: its metadata text (named `path` in
/// errors) and its streams as (name, bytes), in order; what the reader does
/// with a trace directory, for callers (and the fuzz target) that have no
/// files.
pub fn decode(metadata_text: &str, path: &str, streams: &[(&str, &[u8])]) -> Result<Parsed, ParseError> {
    Ok(decode_streams(&metadata(metadata_text, path)?, streams))
}

/// The streams (name, bytes), in order, under `meta`.
fn decode_streams(meta: &Metadata, streams: &[(&str, &[u8])]) -> Parsed {
    let mut d = Decoder::new(meta);
    for (name, bytes) in streams {
        d.stream(name, bytes);
    }
    d.finish(streams.len())
}

/// The trace's TSDL metadata, or an error naming `path` and the line.
fn metadata(text: &str, path: &str) -> Result<Metadata, ParseError> {
    tsdl::parse(text).map_err(|(line, expected)| error(path, line as u64, ParseErrorKind::Missing { expected }))
}

/// An error in `path` at `line`.
fn error(path: &str, line: u64, kind: ParseErrorKind) -> ParseError {
    ParseError { path: path.to_string(), line, column: 1, format: NAME, kind }
}

/// The stream files of the trace whose metadata is `metadata`: every other
/// regular, non-hidden file of its directory, in name order.
fn stream_files(dir: &Path, metadata: &str) -> Result<Vec<PathBuf>, String> {
    if metadata == "<stdin>" {
        return Err("metadata on standard input".into());
    }
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name != "metadata" && !name.starts_with('.')
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no stream file in {}", dir.display()));
    }
    Ok(files)
}

/// A field's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Text(String),
}

/// One decoded event: time (ns), the event class's name, its fields.
pub(crate) struct Decoded {
    pub(crate) time: u64,
    pub(crate) name: String,
    pub(crate) fields: Vec<(String, Value)>,
}

/// The integer field `name` of `fields`.
fn int_of(fields: &[(String, Value)], name: &str) -> Option<i64> {
    fields.iter().find_map(|(n, v)| match v {
        Value::Int(i) if n == name => Some(*i),
        _ => None,
    })
}

impl Decoded {
    fn int(&self, name: &str) -> Option<i64> {
        int_of(&self.fields, name)
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.fields.iter().find_map(|(n, v)| match v {
            Value::Text(s) if n == name => Some(s.as_str()),
            _ => None,
        })
    }
}

/// Reads a value of type `ty` at `b[*at..]`.
fn value(b: &[u8], at: &mut usize, ty: &Type, little: bool) -> Option<Value> {
    match ty {
        Type::Int { bytes, signed, .. } => {
            let raw = b.get(*at..*at + bytes)?;
            *at += bytes;
            let mut v: u64 = 0;
            for (i, &x) in raw.iter().enumerate() {
                let shift = if little { 8 * i } else { 8 * (bytes - 1 - i) };
                v |= u64::from(x) << shift;
            }
            let v = if *signed && *bytes < 8 && v >> (8 * bytes - 1) & 1 == 1 {
                (v | !((1u64 << (8 * bytes)) - 1)) as i64
            } else {
                v as i64
            };
            Some(Value::Int(v))
        }
        Type::Array(inner, n) => {
            if let Type::Int { bytes: 1, ascii: true, .. } = **inner {
                let raw = b.get(*at..*at + n)?;
                *at += n;
                let end = raw.iter().position(|&c| c == 0).unwrap_or(raw.len());
                return Some(Value::Text(String::from_utf8_lossy(&raw[..end]).into_owned()));
            }
            let mut last = Value::Int(0);
            for _ in 0..*n {
                last = value(b, at, inner, little)?;
            }
            Some(last)
        }
    }
}

/// The events of one stream, in order, and where and why decoding stopped
/// early, if it did.
pub(crate) fn events(meta: &Metadata, b: &[u8]) -> (Vec<Decoded>, Option<(usize, String)>) {
    let little = meta.little_endian;
    let (mut at, mut epoch, mut last_raw, mut width) = (0usize, 0u64, None::<u64>, 64);
    if let Some(f) = meta.header.iter().find(|f| f.name == "timestamp")
        && let Type::Int { bytes, .. } = f.ty
    {
        width = 8 * bytes;
    }
    let mut out = Vec::new();
    while at < b.len() {
        let start = at;
        let mut header = Vec::new();
        for f in &meta.header {
            match value(b, &mut at, &f.ty, little) {
                Some(v) => header.push((f.name.clone(), v)),
                None => return (out, Some((start, "an event cut by the end of the file".into()))),
            }
        }
        let id = int_of(&header, "id").unwrap_or(-1);
        let Some(class) = u64::try_from(id).ok().and_then(|id| meta.events.get(&id)) else {
            return (out, Some((start, format!("event id {id} is not in the metadata"))));
        };
        let mut fields = Vec::new();
        for f in &class.fields {
            match value(b, &mut at, &f.ty, little) {
                Some(v) => fields.push((f.name.clone(), v)),
                None => return (out, Some((start, "an event cut by the end of the file".into()))),
            }
        }
        let raw = int_of(&header, "timestamp").unwrap_or(0) as u64;
        // A 32-bit timestamp wraps every 4.3 s.
        if width < 64
            && let Some(last) = last_raw
            && raw < last
        {
            epoch += 1u64 << width;
        }
        last_raw = Some(raw);
        out.push(Decoded { time: epoch + raw, name: class.name.clone(), fields });
    }
    (out, None)
}

/// A thread, ISR or idle loop as the trace identifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Thread(u64),
    Isr(u16),
    Idle(u16),
}

struct Decoder<'m> {
    meta: &'m Metadata,
    trace: Trace,
    warnings: Vec<Warning>,
    tasks: HashMap<Key, TaskId>,
    objects: HashMap<u64, ObjectId>,
    cores: Cores,
    skipped: crate::unused::Unused,
    failed_takes: u64,
}

impl<'m> Decoder<'m> {
    fn new(meta: &'m Metadata) -> Decoder<'m> {
        let mut trace = Trace::new(Clock::Ns);
        trace.priority_order = PriorityOrder::Low;
        trace.os = Some(crate::Os::Zephyr);
        Decoder {
            meta,
            trace,
            warnings: Vec::new(),
            tasks: HashMap::default(),
            objects: HashMap::default(),
            cores: Cores::default(),
            skipped: Default::default(),
            failed_takes: 0,
        }
    }

    /// Decodes one stream file, its events applied in order.
    fn stream(&mut self, path: &str, b: &[u8]) {
        let (decoded, stop) = events(self.meta, b);
        for e in &decoded {
            self.apply(e);
        }
        if let Some((at, why)) = stop {
            self.stop(path, b.len(), at, &why);
        }
    }

    fn stop(&mut self, path: &str, len: usize, at: usize, why: &str) {
        self.warnings.push(Warning {
            line: None,
            message: format!(
                "{path}: byte {at}: {why}; the rest ({} bytes) is ignored, so the figures rest on {:.1} % of the stream",
                len - at,
                100.0 * at as f64 / len.max(1) as f64
            ),
        });
    }

    fn entity(&mut self, key: Key, name: Option<&str>) -> TaskId {
        if let Some(&t) = self.tasks.get(&key) {
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                self.trace.tasks[t as usize].name = name.to_string();
            }
            return t;
        }
        let (name, kind, handle) = match key {
            Key::Thread(id) => {
                let name = name.filter(|n| !n.is_empty()).map_or_else(|| format!("thread@{id:#x}"), str::to_string);
                (name, TaskKind::Task, id)
            }
            Key::Isr(c) => (format!("ISR@cpu{c}"), TaskKind::Isr, u64::from(c)),
            Key::Idle(c) => (format!("idle@cpu{c}"), TaskKind::Idle, 0),
        };
        let t = self.trace.tasks.len() as TaskId;
        let priority = (kind == TaskKind::Idle).then_some(i32::MAX);
        self.trace.tasks.push(Task { name, kind, priority, handle });
        self.cores.add_task();
        self.tasks.insert(key, t);
        t
    }

    /// A thread named `idle` is the core's idle loop.
    fn thread(&mut self, e: &Decoded, core: u16) -> Option<TaskId> {
        let id = e.int("thread_id")? as u64;
        let name = e.text("name");
        if name.is_some_and(|n| n.eq_ignore_ascii_case("idle") || n.starts_with("idle ")) {
            let t = self.entity(Key::Idle(core), None);
            self.tasks.insert(Key::Thread(id), t);
            return Some(t);
        }
        Some(self.entity(Key::Thread(id), name))
    }

    fn object(&mut self, id: u64, kind: ObjectKind) -> ObjectId {
        if let Some(&o) = self.objects.get(&id) {
            return o;
        }
        let o = self.trace.objects.len() as ObjectId;
        self.trace.objects.push(Object { name: format!("{id:#x}"), kind });
        self.objects.insert(id, o);
        o
    }

    fn apply(&mut self, e: &Decoded) {
        let core = e.int("core_id").map_or(0, |c| c as u16);
        let now = e.time;
        let name = e.name.as_str();
        match name {
            "thread_switched_in" => {
                if let Some(t) = self.thread(e, core) {
                    self.cores.on(core).switch_in(&mut self.trace, t, now);
                }
            }
            "idle" => {
                let t = self.entity(Key::Idle(core), None);
                self.cores.on(core).switch_in(&mut self.trace, t, now);
            }
            "thread_switched_out" | "thread_create" | "thread_name_set" | "thread_info" => {
                self.thread(e, core);
            }
            "thread_priority_set" => {
                if let (Some(t), Some(p)) = (self.thread(e, core), e.int("prio")) {
                    self.trace.tasks[t as usize].priority = Some(p as i32);
                }
            }
            "thread_ready" | "thread_wakeup" | "thread_resume" => {
                if let Some(t) = self.thread(e, core) {
                    self.cores.on(core).ready(&mut self.trace, t, now);
                }
            }
            "thread_pending" | "thread_suspend" => {
                let t = self.thread(e, core);
                self.cores.on(core).blocks(t);
            }
            "isr_enter" => {
                let i = self.entity(Key::Isr(core), None);
                self.cores.on(core).isrs.push(i);
                self.trace.events.push(Event::new(now, core, EventKind::IsrEnter, i));
            }
            "isr_exit" | "isr_exit_to_scheduler" => {
                if let Some(i) = self.cores.on(core).isrs.pop() {
                    self.trace.events.push(Event::new(now, core, EventKind::IsrExit, i));
                }
            }
            _ => self.kernel_call(e, core, now),
        }
    }

    /// Semaphores, mutexes and message passing, by the event's name.
    fn kernel_call(&mut self, e: &Decoded, core: u16, now: u64) {
        let name = e.name.as_str();
        let object_id = e
            .int("id")
            .or_else(|| e.fields.first().and_then(|(_, v)| if let Value::Int(i) = v { Some(*i) } else { None }));
        let succeeded = e.int("ret").is_none_or(|r| r == 0);
        let messaging =
            ["msgq_", "queue_", "fifo_", "lifo_", "mbox_", "pipe_", "stack_"].iter().any(|p| name.starts_with(p));
        let (kind, object_kind) = match name {
            "semaphore_give_enter" => (EventKind::Give, ObjectKind::Semaphore),
            "mutex_unlock_enter" => (EventKind::Give, ObjectKind::Mutex),
            "semaphore_take_exit" => (EventKind::Take, ObjectKind::Semaphore),
            "mutex_lock_exit" => (EventKind::Take, ObjectKind::Mutex),
            _ if name.ends_with("_blocking") => {
                self.cores.on(core).blocks(None);
                return;
            }
            _ if messaging
                && ["_put_exit", "_send_exit", "_append_exit", "_prepend_exit", "_push_exit"]
                    .iter()
                    .any(|s| name.ends_with(s)) =>
            {
                (EventKind::Send, ObjectKind::Queue)
            }
            _ if messaging && ["_get_exit", "_recv_exit", "_pop_exit"].iter().any(|s| name.ends_with(s)) => {
                (EventKind::Receive, ObjectKind::Queue)
            }
            _ => {
                self.skipped.add(name);
                return;
            }
        };
        if !succeeded {
            self.failed_takes += 1;
            return;
        }
        let (Some(actor), Some(id)) = (self.cores.on(core).actor(), object_id) else {
            self.skipped.add("kernel calls before any thread ran");
            return;
        };
        let object = self.object(id as u64, object_kind);
        self.trace.events.push(Event::new(now, core, kind, actor).with_object(object));
        let signal = matches!(kind, EventKind::Give | EventKind::Send).then_some(actor);
        self.cores.on(core).signal(signal);
    }

    fn finish(mut self, streams: usize) -> Parsed {
        if streams > 1 {
            self.trace.events.sort_by_time();
        }
        self.warnings.extend(crate::core_state::mark_silence(&mut self.trace));
        if self.failed_takes > 0 {
            self.warnings.push(Warning {
                line: None,
                message: format!(
                    "{} calls returned an error (a timeout, a busy object) and moved nothing",
                    self.failed_takes
                ),
            });
        }
        if let Some(message) = self.skipped.message() {
            self.warnings.push(Warning { line: None, message });
        }
        let cores = self.cores.len().max(1);
        Parsed {
            trace: self.trace,
            warnings: self.warnings,
            source: Default::default(),
            format: NAME,
            model: None,
            notes: vec![format!("Zephyr CTF: {streams} stream file(s), {cores} core(s)")],
        }
    }
}
