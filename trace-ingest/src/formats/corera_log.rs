//! corera's own line-oriented text log (`corera-log 1`).
//!
//! The format is documented in the book (`book/src/reference/log-format.md`);
//! this module is its reader ([`CoreraLog`]) and writer ([`write`]).
//! Every line is one of:
//!
//! ```text
//! corera-log 1 clock=us [prio=high|low] [os=freertos|...]   header, first line
//! # free text                                  comment, anywhere
//! task <id> <task|isr|idle> <prio|-> <name>    task declaration
//! obj <name> <queue|sem|mutex|event>           object declaration
//! <time> <core> <event> <args...>              event
//! ```

use rustc_hash::FxHashMap as HashMap;
use std::io::{BufRead, Write};

use crate::error::{ParseError, ParseErrorKind};
use crate::lines::{Builder, LineFormat, run_lines};
use crate::model::{
    Clock, Event, EventKind, NONE, Object, ObjectId, ObjectKind, PriorityOrder, Task, TaskId, TaskKind, Trace,
};
use crate::{Parsed, ReadOptions, TraceFormat};

/// Format name used in messages and `--format`.
pub const NAME: &str = "corera-log";
/// The only version this reader understands.
pub const VERSION: u32 = 1;
const EXAMPLE_HEADER: &str = "corera-log 1 clock=us";

/// Reader of corera's log format.
#[derive(Clone, Debug, Default)]
pub struct CoreraLog {
    options: ReadOptions,
}

impl From<ReadOptions> for CoreraLog {
    fn from(options: ReadOptions) -> CoreraLog {
        CoreraLog { options }
    }
}

impl TraceFormat for CoreraLog {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        let first = head.lines().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        first.map(|line| line.trim_start().starts_with("corera-log"))
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        Reader::new(&self.options).run(reader)
    }
}

/// Parsing state: interning tables and the trace under construction.
struct Reader {
    out: Builder,
    line: u64,
    seen_header: bool,
    task_ids: HashMap<u64, (TaskId, u64)>,
    object_ids: HashMap<Box<str>, (ObjectId, u64)>,
}

/// A cursor over the whitespace-separated tokens of one line that knows
/// each token's column, for error messages.
struct Tokens<'a> {
    line: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Tokens<'a> {
        Tokens { line, pos: 0 }
    }

    /// Next token and its 0-based byte offset.
    fn next(&mut self) -> Option<(&'a str, usize)> {
        let rest = &self.line[self.pos..];
        let start = self.pos + (rest.len() - rest.trim_start().len());
        let rest = &self.line[start..];
        if rest.is_empty() {
            self.pos = self.line.len();
            return None;
        }
        let len = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        self.pos = start + len;
        Some((&self.line[start..start + len], start))
    }

    /// The rest of the line, trimmed, and its offset.
    fn rest(&mut self) -> (&'a str, usize) {
        let rest = &self.line[self.pos..];
        let start = self.pos + (rest.len() - rest.trim_start().len());
        self.pos = self.line.len();
        (self.line[start..].trim_end(), start)
    }

    fn offset(&self) -> usize {
        self.pos
    }
}

type LineResult<T> = Result<T, (usize, ParseErrorKind)>;

fn required<'a>(tokens: &mut Tokens<'a>, expected: &str) -> LineResult<(&'a str, usize)> {
    tokens.next().ok_or_else(|| (tokens.offset(), ParseErrorKind::Missing { expected: expected.into() }))
}

fn number<T: std::str::FromStr>(tok: (&str, usize), expected: &str) -> LineResult<T> {
    tok.0.parse().map_err(|_| (tok.1, ParseErrorKind::expected(expected, tok.0)))
}

impl LineFormat for Reader {
    const EXPECTED_FIRST: &'static str = EXAMPLE_HEADER;

    fn builder(&mut self) -> &mut Builder {
        &mut self.out
    }

    fn line<'a>(&mut self, number: u64, text: &'a str) -> Result<(), (&'a str, ParseErrorKind)> {
        self.line = number;
        if text.trim_start().starts_with('#') {
            return Ok(());
        }
        let result = if self.seen_header { self.line_event(text) } else { self.header(text) };
        match result {
            Ok(()) => {
                self.seen_header = true;
                Ok(())
            }
            Err((column, kind)) => Err((&text[column.min(text.len())..], kind)),
        }
    }

    fn started(&self) -> bool {
        self.seen_header
    }

    /// Without a header nothing else can be read, even under `--lenient`.
    fn fatal(&self) -> bool {
        !self.seen_header
    }
}

impl Reader {
    fn new(options: &ReadOptions) -> Reader {
        Reader {
            out: Builder::new(Trace::new(Clock::Ns), NAME, options),
            line: 0,
            seen_header: false,
            task_ids: HashMap::default(),
            object_ids: HashMap::default(),
        }
    }

    fn run(mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        run_lines(&mut self, reader)?;
        Ok(self.out.finish())
    }

    fn header(&mut self, text: &str) -> LineResult<()> {
        let mut tokens = Tokens::new(text);
        let magic = required(&mut tokens, "`corera-log`")?;
        if magic.0 != "corera-log" {
            return Err((magic.1, ParseErrorKind::expected(format!("a header line such as `{EXAMPLE_HEADER}`"), text)));
        }
        let version = required(&mut tokens, "the format version (1)")?;
        if version.0 != "1" {
            return Err((version.1, ParseErrorKind::expected("format version 1", version.0)));
        }
        let mut clock = None;
        let mut rate = None;
        while let Some((tok, at)) = tokens.next() {
            let (key, value) = tok
                .split_once('=')
                .ok_or_else(|| (at, ParseErrorKind::expected("a `key=value` header setting", tok)))?;
            match key {
                "clock" => clock = Some((value, at)),
                "rate" => rate = Some(number::<u64>((value, at + 5), "a tick rate in Hz (1 ..= 1e9)")?),
                "prio" => {
                    self.out.trace.priority_order = match value {
                        "high" => PriorityOrder::High,
                        "low" => PriorityOrder::Low,
                        _ => {
                            return Err((at, ParseErrorKind::expected("`prio=high` or `prio=low`", tok)));
                        }
                    }
                }
                "os" => {
                    self.out.trace.os =
                        Some(crate::Os::ALL.iter().copied().find(|o| o.key() == value).ok_or_else(|| {
                            let keys: Vec<&str> = crate::Os::ALL.iter().map(|o| o.key()).collect();
                            (at + 3, ParseErrorKind::expected(format!("an OS: {}", keys.join(", ")), value))
                        })?);
                }
                _ => return Err((at, ParseErrorKind::expected("`clock=`, `rate=`, `prio=` or `os=`", tok))),
            }
        }
        let (clock, at) = clock.ok_or_else(|| {
            (
                text.len(),
                ParseErrorKind::Missing { expected: "`clock=ns`, `clock=us` or `clock=ticks rate=<Hz>`".into() },
            )
        })?;
        self.out.trace.clock = match clock {
            "ns" => Clock::Ns,
            "us" => Clock::Us,
            "ticks" => match rate {
                Some(rate) if (1..=1_000_000_000).contains(&rate) => Clock::Ticks { rate },
                _ => {
                    return Err((
                        text.len(),
                        ParseErrorKind::Missing {
                            expected: "`rate=<ticks per second>` (1 ..= 1e9) with `clock=ticks`".into(),
                        },
                    ));
                }
            },
            other => return Err((at, ParseErrorKind::expected("`ns`, `us` or `ticks` as clock", other))),
        };
        if rate.is_some() && !matches!(self.out.trace.clock, Clock::Ticks { .. }) {
            self.out.warn(self.line, "`rate=` is ignored unless `clock=ticks`".into());
        }
        Ok(())
    }

    fn line_event(&mut self, text: &str) -> LineResult<()> {
        let mut tokens = Tokens::new(text);
        let first = required(&mut tokens, "a time, `task` or `obj`")?;
        match first.0 {
            "task" => return self.declare_task(&mut tokens),
            "obj" => return self.declare_object(&mut tokens),
            _ => {}
        }
        let raw_time: u64 = number(first, "a timestamp (non-negative integer), `task`, `obj` or `#`")?;
        let time =
            self.out.trace.clock.to_ns(raw_time).ok_or((first.1, ParseErrorKind::Overflow { value: raw_time }))?;
        let core: u16 = number(required(&mut tokens, "a core number")?, "a core number (0 ..= 65535)")?;
        let keyword = required(&mut tokens, "an event keyword")?;
        let task = self.task_ref(required(&mut tokens, "a task id")?)?;
        let mut event = Event::new(time, core, EventKind::Ready, task);
        event.kind = match keyword.0 {
            "rdy" => EventKind::Ready,
            "in" => EventKind::SwitchIn,
            "out" => {
                let why = required(&mut tokens, "`preempt`, `block` or `done`")?;
                match why.0 {
                    "preempt" => EventKind::Preempted,
                    "block" => EventKind::Blocked,
                    "done" => EventKind::Finished,
                    _ => return Err((why.1, ParseErrorKind::expected("`preempt`, `block` or `done`", why.0))),
                }
            }
            "send" | "recv" => {
                let kind = if keyword.0 == "send" { EventKind::Send } else { EventKind::Receive };
                event.object = self.object_ref(required(&mut tokens, "a queue name")?, ObjectKind::Queue);
                let bytes = required(&mut tokens, "a message size in bytes or `-`")?;
                if bytes.0 != "-" {
                    event.bytes = number(bytes, "a message size in bytes or `-`")?;
                }
                if let Some(peer) = tokens.next() {
                    event.peer = self.task_ref(peer)?;
                }
                kind
            }
            "set" => {
                let obj = required(&mut tokens, "an event object name or `-`")?;
                if obj.0 != "-" {
                    event.object = self.object_ref(obj, ObjectKind::Event);
                }
                if let Some(peer) = tokens.next() {
                    event.peer = self.task_ref(peer)?;
                }
                EventKind::EventSet
            }
            "take" | "give" => {
                event.object =
                    self.object_ref(required(&mut tokens, "a semaphore or mutex name")?, ObjectKind::Semaphore);
                if keyword.0 == "take" { EventKind::Take } else { EventKind::Give }
            }
            "wake" => {
                event.peer = self.task_ref(required(&mut tokens, "the id of the woken task")?)?;
                EventKind::Wakeup
            }
            "ienter" => EventKind::IsrEnter,
            "iexit" => EventKind::IsrExit,
            "prio" => {
                event.peer = self.task_ref(required(&mut tokens, "the id of the task whose priority is set")?)?;
                let p: i32 = number(required(&mut tokens, "a priority (integer)")?, "a priority (integer)")?;
                event.bytes = p as u32;
                EventKind::PrioritySet
            }
            "log" => EventKind::Logged,
            other => {
                return Err((
                    keyword.1,
                    ParseErrorKind::expected(
                        "an event keyword (rdy, in, out, send, recv, set, take, give, wake, ienter, iexit, prio, log)",
                        other,
                    ),
                ));
            }
        };
        if let Some((extra, at)) = tokens.next() {
            return Err((at, ParseErrorKind::Trailing { event: keyword.0.to_string(), found: extra.to_string() }));
        }
        self.out.push(self.line, event, raw_time).map_err(|kind| (first.1, kind))
    }

    fn declare_task(&mut self, tokens: &mut Tokens<'_>) -> LineResult<()> {
        let id_tok = required(tokens, "a task id")?;
        let handle: u64 = number(id_tok, "a task id (non-negative integer)")?;
        let kind_tok = required(tokens, "`task`, `isr` or `idle`")?;
        let kind = match kind_tok.0 {
            "task" => TaskKind::Task,
            "isr" => TaskKind::Isr,
            "idle" => TaskKind::Idle,
            other => return Err((kind_tok.1, ParseErrorKind::expected("`task`, `isr` or `idle`", other))),
        };
        let prio_tok = required(tokens, "a priority or `-`")?;
        let priority = if prio_tok.0 == "-" { None } else { Some(number(prio_tok, "a priority (integer) or `-`")?) };
        let (name, at) = tokens.rest();
        if name.is_empty() {
            return Err((at, ParseErrorKind::Missing { expected: "a task name".into() }));
        }
        if let Some(&(_, first_line)) = self.task_ids.get(&handle) {
            return Err((id_tok.1, ParseErrorKind::Duplicate { what: "task", id: handle.to_string(), first_line }));
        }
        let id = self.out.trace.tasks.len() as TaskId;
        self.out.trace.tasks.push(Task { name: name.to_string(), kind, priority, handle });
        self.task_ids.insert(handle, (id, self.line));
        Ok(())
    }

    fn declare_object(&mut self, tokens: &mut Tokens<'_>) -> LineResult<()> {
        let name = required(tokens, "an object name")?;
        let kind_tok = required(tokens, "`queue`, `sem`, `mutex`, `event` or `label`")?;
        let kind = match kind_tok.0 {
            "queue" => ObjectKind::Queue,
            "sem" => ObjectKind::Semaphore,
            "mutex" => ObjectKind::Mutex,
            "event" => ObjectKind::Event,
            "label" => ObjectKind::Label,
            other => {
                return Err((
                    kind_tok.1,
                    ParseErrorKind::expected("`queue`, `sem`, `mutex`, `event` or `label`", other),
                ));
            }
        };
        if let Some((extra, at)) = tokens.next() {
            return Err((at, ParseErrorKind::Trailing { event: "obj".into(), found: extra.into() }));
        }
        if let Some(&(_, first_line)) = self.object_ids.get(name.0) {
            return Err((name.1, ParseErrorKind::Duplicate { what: "object", id: name.0.into(), first_line }));
        }
        let id = self.out.trace.objects.len() as ObjectId;
        self.out.trace.objects.push(Object { name: name.0.to_string(), kind });
        self.object_ids.insert(name.0.into(), (id, self.line));
        Ok(())
    }

    fn task_ref(&mut self, tok: (&str, usize)) -> LineResult<TaskId> {
        let handle: u64 = number(tok, "a task id (non-negative integer)")?;
        if let Some(&(id, _)) = self.task_ids.get(&handle) {
            return Ok(id);
        }
        let id = self.out.trace.tasks.len() as TaskId;
        self.out.warn(
            self.line,
            format!(
                "task {handle} is used before a `task {handle} <kind> <prio> <name>` line; \
                 declared as task `task{handle}` of unknown priority"
            ),
        );
        self.out.trace.tasks.push(Task { name: format!("task{handle}"), kind: TaskKind::Task, priority: None, handle });
        self.task_ids.insert(handle, (id, self.line));
        Ok(id)
    }

    fn object_ref(&mut self, tok: (&str, usize), default: ObjectKind) -> ObjectId {
        if let Some(&(id, _)) = self.object_ids.get(tok.0) {
            return id;
        }
        let id = self.out.trace.objects.len() as ObjectId;
        self.out.trace.objects.push(Object { name: tok.0.to_string(), kind: default });
        self.object_ids.insert(tok.0.into(), (id, self.line));
        id
    }
}

/// The id each task is written with: the source's own, unless the source
/// used it for several tasks (SystemView numbers the idle loop 0 and an
/// interrupt by its number on every core, so `IDLE@cpu0` and `IDLE@cpu1`
/// share one), in which case the later ones get ids above every id the
/// source used, in task order. A log names each task once.
fn log_handles(trace: &Trace) -> Vec<u64> {
    let mut next = trace.tasks.iter().map(|t| t.handle).max().map_or(0, |m| m.saturating_add(1));
    let mut seen = rustc_hash::FxHashSet::default();
    trace
        .tasks
        .iter()
        .map(|t| {
            if seen.insert(t.handle) {
                t.handle
            } else {
                next += 1;
                next - 1
            }
        })
        .collect()
}

/// Writes `trace` in corera's log format: the header, every task and object
/// declaration, then the events in order. Timestamps are written in the
/// trace's own clock unit, so that reading a canonical log and writing it
/// again gives the same bytes.
///
/// # Errors
/// Fails if writing fails, or with [`std::io::ErrorKind::InvalidInput`] when
/// a name cannot be written (empty, contains a line break, or an object
/// name contains whitespace).
pub fn write(trace: &Trace, out: &mut dyn Write) -> std::io::Result<()> {
    let invalid = |msg: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, msg);
    let clock = match trace.clock {
        Clock::Ns => "clock=ns".to_string(),
        Clock::Us => "clock=us".to_string(),
        Clock::Ticks { rate } => format!("clock=ticks rate={rate}"),
    };
    let prio = match trace.priority_order {
        PriorityOrder::High => "",
        PriorityOrder::Low => " prio=low",
    };
    let os = trace.os.map_or(String::new(), |o| format!(" os={}", o.key()));
    writeln!(out, "corera-log {VERSION} {clock}{prio}{os}")?;
    let handles = log_handles(trace);
    for (task, handle) in trace.tasks.iter().zip(&handles) {
        if task.name.trim().is_empty() || task.name.trim() != task.name || task.name.contains(['\n', '\r']) {
            return Err(invalid(format!("task name {:?} cannot be written on one line", task.name)));
        }
        match task.priority {
            Some(p) => writeln!(out, "task {handle} {} {p} {}", task.kind.keyword(), task.name)?,
            None => writeln!(out, "task {handle} {} - {}", task.kind.keyword(), task.name)?,
        }
    }
    for object in &trace.objects {
        if object.name.is_empty() || object.name.contains(char::is_whitespace) || object.name == "-" {
            return Err(invalid(format!("object name {:?} is not a single token", object.name)));
        }
        writeln!(out, "obj {} {}", object.name, object.kind.keyword())?;
    }
    let handle = |id: TaskId| handles[id as usize];
    let object = |id: ObjectId| trace.objects[id as usize].name.as_str();
    for e in &trace.events {
        write!(out, "{} {} ", trace.clock.from_ns(e.time), e.core)?;
        let t = handle(e.task);
        match e.kind {
            EventKind::Ready => write!(out, "rdy {t}")?,
            EventKind::SwitchIn => write!(out, "in {t}")?,
            EventKind::Preempted => write!(out, "out {t} preempt")?,
            EventKind::Blocked => write!(out, "out {t} block")?,
            EventKind::Finished => write!(out, "out {t} done")?,
            EventKind::Send | EventKind::Receive => {
                let kw = if e.kind == EventKind::Send { "send" } else { "recv" };
                write!(out, "{kw} {t} {} ", object(e.object))?;
                if e.bytes == NONE {
                    out.write_all(b"-")?
                } else {
                    write!(out, "{}", e.bytes)?
                }
                if e.peer != NONE {
                    write!(out, " {}", handle(e.peer))?;
                }
            }
            EventKind::EventSet => {
                let obj = if e.object == NONE { "-" } else { object(e.object) };
                write!(out, "set {t} {obj}")?;
                if e.peer != NONE {
                    write!(out, " {}", handle(e.peer))?;
                }
            }
            EventKind::Take => write!(out, "take {t} {}", object(e.object))?,
            EventKind::Give => write!(out, "give {t} {}", object(e.object))?,
            EventKind::Wakeup => write!(out, "wake {t} {}", handle(e.peer))?,
            EventKind::IsrEnter => write!(out, "ienter {t}")?,
            EventKind::IsrExit => write!(out, "iexit {t}")?,
            EventKind::PrioritySet => {
                write!(out, "prio {t} {} {}", handle(e.peer), e.new_priority().unwrap_or_default())?
            }
            EventKind::Logged => write!(out, "log {t}")?,
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}
