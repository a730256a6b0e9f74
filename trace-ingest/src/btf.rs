//! BTF (Best Trace Format) reader, including the FreeRTOS-logger dialect.
//!
//! Data lines are `Time,Source,SourceInstance,TargetType,Target,
//! TargetInstance,Event[,Note]`; header lines start with `#`. What corera
//! takes from each target type:
//!
//! | target | events | model |
//! |---|---|---|
//! | `T`, `I` | `activate`, `release`, `release_parking` | ready (a wakeup when a task's stimulus caused it) |
//! | `T` | `start`, `resume`, `run` / `preempt` / `wait`, `park`, `poll` / `terminate` | switched in / preempted / blocked / finished |
//! | `I` | `start` / `terminate` (its `preempt`/`resume` are nesting, implied) | ISR enter / exit |
//! | `STI` | `trigger` by a task, then the stimulus `activate`s a task | wakeup edge |
//! | `EVENT` | `set_event` (note names the target task) | event set |
//! | `SIG` | `write` / `read` (label access) | data-flow edge from the last writer |
//! | `SEM` | `assigned`, `lock` / `released`, `unlock` | take / give (shared-resource affinity) |
//! | `R` | any | attributes the runnable's `SIG`/`SEM` accesses to its task |
//!
//! Everything else (`C`, `SCHED`, `SIM`, other event names) is skipped and
//! counted in one warning.
//!
//! The FreeRTOS-logger dialect (task labels `[core/id]Name`) is detected
//! from the labels: the same id seen on several cores is one task,
//! `resume` switches in, `preempt` switches out for any reason (the logger
//! does not tell preemption from blocking, so corera reads it as blocking
//! and READY times are not measured), a `preempt` with note `create pri:N`
//! declares the task, and `STI queue|sem|mutex` operations (`send`, `recv`,
//! `take`, `give`, `create` with an address) are attributed to the task
//! running on that core.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;
use std::io::BufRead;

use crate::error::{ParseError, ParseErrorKind};
use crate::lines::{Builder, LineFormat, run_lines};
use crate::model::{Clock, Event, EventKind, NONE, Object, ObjectId, ObjectKind, Task, TaskId, TaskKind, Trace};
use crate::{Parsed, ReadOptions, TraceFormat};

/// Format name used in messages and `--format`.
pub const NAME: &str = "btf";

const FIELDS: &str = "a data line `time,source,source-instance,target-type,target,target-instance,event[,note]`";

/// Reader of BTF traces.
#[derive(Clone, Debug, Default)]
pub struct Btf {
    options: ReadOptions,
}

impl From<ReadOptions> for Btf {
    fn from(options: ReadOptions) -> Btf {
        Btf { options }
    }
}

/// Header pragmas that mark a BTF file.
const PRAGMAS: [&str; 9] = [
    "#version",
    "#creator",
    "#creationdate",
    "#timescale",
    "#inputfile",
    "#entitytype",
    "#entitytable",
    "#typetable",
    "#entitytypetable",
];

impl TraceFormat for Btf {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        for line in head.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(first) = line.split_whitespace().next()
                && line.starts_with('#')
            {
                if PRAGMAS.iter().any(|p| first.eq_ignore_ascii_case(p)) {
                    return Some(true);
                }
                continue;
            }
            let mut fields = line.splitn(8, ',');
            let time_ok = fields.next().is_some_and(|t| t.trim().parse::<u64>().is_ok());
            return Some(time_ok && fields.count() >= 6);
        }
        None
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        Reader::new(&self.options).run(reader)
    }
}

/// Task and ISR event names, matched without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Activate,
    Start,
    Resume,
    Preempt,
    Wait,
    Terminate,
    Other,
}

impl Ev {
    fn of(name: &str) -> Ev {
        const NAMES: [(&str, Ev); 11] = [
            ("activate", Ev::Activate),
            ("release", Ev::Activate),
            ("release_parking", Ev::Activate),
            ("start", Ev::Start),
            ("resume", Ev::Resume),
            ("run", Ev::Resume),
            ("preempt", Ev::Preempt),
            ("wait", Ev::Wait),
            ("park", Ev::Wait),
            ("poll", Ev::Wait),
            ("terminate", Ev::Terminate),
        ];
        NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map_or(Ev::Other, |&(_, e)| e)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    None,
    Types,
    Entities,
    EntityTypes,
}

struct Reader {
    out: Builder,
    /// Multiply then divide raw times to get ns.
    scale: (u64, u64),
    table: Table,
    types: HashMap<Box<str>, Box<str>>,
    entities: HashMap<Box<str>, Box<str>>,
    task_ids: HashMap<Box<str>, TaskId>,
    object_ids: HashMap<Box<str>, ObjectId>,
    core_ids: HashMap<Box<str>, u16>,
    current: Vec<Option<TaskId>>,
    task_core: Vec<u16>,
    triggers: HashMap<Box<str>, TaskId>,
    runnable_task: HashMap<Box<str>, TaskId>,
    label_writer: HashMap<ObjectId, TaskId>,
    dialect: bool,
    seen_data: bool,
    skipped: BTreeMap<String, BTreeMap<String, u64>>,
    unattributed: u64,
}

/// A numeric-mode field (`#-<id>` table row) to its name; other fields as
/// they are.
fn resolve<'a>(field: &'a str, table: &'a HashMap<Box<str>, Box<str>>) -> &'a str {
    if !table.is_empty()
        && !field.is_empty()
        && field.bytes().all(|b| b.is_ascii_digit())
        && let Some(name) = table.get(field)
    {
        return name;
    }
    field
}

/// A task label, split: `[core/id]Name` in the FreeRTOS dialect.
struct Label<'a> {
    core: Option<u16>,
    key: &'a str,
    name: &'a str,
}

/// `s` without surrounding whitespace; checks the two ends before
/// trimming, as BTF fields seldom have any.
fn trim(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(a), Some(b)) if a.is_ascii_graphic() && b.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// `s` split around the first `b`.
fn split_at_byte(s: &str, b: u8) -> Option<(&str, &str)> {
    memchr::memchr(b, s.as_bytes()).map(|i| (&s[..i], &s[i + 1..]))
}

fn label(text: &str) -> Label<'_> {
    if let Some(rest) = text.strip_prefix('[')
        && let Some((inside, name)) = split_at_byte(rest, b']')
        && let Some((core, id)) = split_at_byte(inside, b'/')
        && let Ok(core) = core.parse::<u16>()
        && !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
    {
        return Label { core: Some(core), key: id, name };
    }
    Label { core: None, key: text, name: text }
}

impl LineFormat for Reader {
    const EXPECTED_FIRST: &'static str = "#timeScale ns";

    fn builder(&mut self) -> &mut Builder {
        &mut self.out
    }

    fn line<'a>(&mut self, number: u64, text: &'a str) -> Result<(), (&'a str, ParseErrorKind)> {
        let text = trim(text);
        if text.starts_with('#') { self.header(number, text) } else { self.data(number, text) }
    }

    fn started(&self) -> bool {
        self.seen_data
    }
}

impl Reader {
    fn new(options: &ReadOptions) -> Reader {
        Reader {
            out: Builder::new(Trace::new(Clock::Ns), NAME, options),
            scale: (1, 1),
            table: Table::None,
            types: HashMap::default(),
            entities: HashMap::default(),
            task_ids: HashMap::default(),
            object_ids: HashMap::default(),
            core_ids: HashMap::default(),
            current: Vec::new(),
            task_core: Vec::new(),
            triggers: HashMap::default(),
            runnable_task: HashMap::default(),
            label_writer: HashMap::default(),
            dialect: false,
            seen_data: false,
            skipped: BTreeMap::new(),
            unattributed: 0,
        }
    }

    fn run(mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        run_lines(&mut self, reader)?;
        Ok(self.finish())
    }

    fn finish(mut self) -> Parsed {
        // Names must identify tasks: the FreeRTOS logger reuses a name for
        // several tasks (`CS`), so such tasks are told apart by their id.
        let mut count: HashMap<&str, u32> = HashMap::default();
        for t in &self.out.trace.tasks {
            *count.entry(t.name.as_str()).or_default() += 1;
        }
        let duplicated: Vec<bool> = self.out.trace.tasks.iter().map(|t| count[t.name.as_str()] > 1).collect();
        for (t, dup) in self.out.trace.tasks.iter_mut().zip(duplicated) {
            if dup {
                t.name = format!("{}#{}", t.name, t.handle);
            }
        }
        if !self.skipped.is_empty() {
            let list: Vec<(String, u64)> =
                self.skipped.iter().flat_map(|(t, m)| m.iter().map(move |(e, n)| (format!("{t} {e}"), *n))).collect();
            let total: u64 = list.iter().map(|x| x.1).sum();
            let list: Vec<String> = list.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            self.out.warn(0, format!("skipped {total} events corera does not use: {}", list.join(", ")));
        }
        if self.unattributed > 0 {
            self.out.warn(
                0,
                format!(
                    "{} queue/semaphore operations happened with no task running on their core; ignored",
                    self.unattributed
                ),
            );
        }
        self.out.finish()
    }

    fn header<'a>(&mut self, _line: u64, text: &'a str) -> Result<(), (&'a str, ParseErrorKind)> {
        if let Some(row) = text.strip_prefix("#-") {
            let (id, name) = row.split_once(char::is_whitespace).unwrap_or((row, ""));
            let (id, name) = (id.trim(), name.trim());
            match self.table {
                Table::Types => {
                    self.types.insert(id.into(), name.into());
                }
                Table::Entities => {
                    self.entities.insert(id.into(), name.into());
                }
                Table::EntityTypes => {
                    // `#-C Core_1`: cores are numbered in table order.
                    if id.eq_ignore_ascii_case("C") {
                        self.core(name);
                    }
                }
                Table::None => {
                    return Err((
                        text,
                        ParseErrorKind::expected(
                            "a table row after #typeTable, #entityTable or #entityTypeTable",
                            text,
                        ),
                    ));
                }
            }
            return Ok(());
        }
        let mut words = text.split_whitespace();
        let pragma = words.next().unwrap_or("");
        let value = words.next().unwrap_or("");
        self.table = Table::None;
        match pragma.to_ascii_lowercase().as_str() {
            "#timescale" => {
                self.scale = match value.to_ascii_lowercase().as_str() {
                    "ps" => (1, 1000),
                    "ns" => (1, 1),
                    "us" => (1_000, 1),
                    "ms" => (1_000_000, 1),
                    "s" => (1_000_000_000, 1),
                    _ => return Err((value, ParseErrorKind::expected("a time scale: ps, ns, us, ms or s", value))),
                };
                self.out.trace.clock = match self.scale {
                    (1_000, 1) => Clock::Us,
                    _ => Clock::Ns,
                };
            }
            "#typetable" | "#entitytype" => self.table = Table::Types,
            "#entitytable" => self.table = Table::Entities,
            "#entitytypetable" => self.table = Table::EntityTypes,
            // Other pragmas (#version, #creator, ...) and `# comments`.
            _ => {}
        }
        Ok(())
    }

    fn core(&mut self, name: &str) -> u16 {
        if let Some(&c) = self.core_ids.get(name) {
            return c;
        }
        // The FreeRTOS logger numbers cores in labels; keep its numbers.
        let id = match (self.dialect, name.rsplit(|c: char| !c.is_ascii_digit()).next().and_then(|d| d.parse().ok())) {
            (true, Some(n)) => n,
            _ => self.core_ids.len() as u16,
        };
        self.core_ids.insert(name.into(), id);
        id
    }

    fn is_core(&self, name: &str) -> bool {
        name.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("core")) || self.core_ids.contains_key(name)
    }

    fn task(&mut self, text: &str, isr: bool) -> (TaskId, Option<u16>) {
        let l = label(text);
        if l.core.is_some() {
            self.dialect = true;
        }
        if let Some(&id) = self.task_ids.get(l.key) {
            return (id, l.core);
        }
        let id = self.out.trace.tasks.len() as TaskId;
        let kind = if isr {
            TaskKind::Isr
        } else if l.name.to_ascii_lowercase().starts_with("idle") {
            TaskKind::Idle
        } else {
            TaskKind::Task
        };
        let handle = if l.core.is_some() { l.key.parse().unwrap_or(u64::from(id)) } else { u64::from(id) };
        self.out.trace.tasks.push(Task { name: l.name.to_string(), kind, priority: None, handle });
        self.task_core.push(l.core.unwrap_or(0));
        self.task_ids.insert(l.key.into(), id);
        (id, l.core)
    }

    fn object(&mut self, name: &str, kind: ObjectKind) -> ObjectId {
        if let Some(&id) = self.object_ids.get(name) {
            return id;
        }
        let id = self.out.trace.objects.len() as ObjectId;
        self.out.trace.objects.push(Object { name: name.to_string(), kind });
        self.object_ids.insert(name.into(), id);
        id
    }

    fn skip(&mut self, what: &str, event: &str) {
        let per_event = match self.skipped.get_mut(what) {
            Some(m) => m,
            None => self.skipped.entry(what.to_string()).or_default(),
        };
        match per_event.get_mut(event) {
            Some(n) => *n += 1,
            None => {
                per_event.insert(event.to_string(), 1);
            }
        }
    }

    fn data<'a>(&mut self, line: u64, text: &'a str) -> Result<(), (&'a str, ParseErrorKind)> {
        // Split at the first seven commas (the note may hold more).
        let mut fields = [""; 8];
        let mut start = 0;
        let mut n = 0;
        for comma in memchr::memchr_iter(b',', text.as_bytes()) {
            fields[n] = &text[start..comma];
            start = comma + 1;
            n += 1;
            if n == 7 {
                break;
            }
        }
        fields[n] = &text[start..];
        if n < 6 {
            return Err((text, ParseErrorKind::expected(FIELDS, text)));
        }
        let [time_s, source, _, ttype, target, _, event, note] = fields;
        let (time_s, note) = (trim(time_s), if n == 7 { trim(note) } else { "" });
        let raw: u64 =
            time_s.parse().map_err(|_| (time_s, ParseErrorKind::expected("a time (non-negative integer)", time_s)))?;
        let time = match self.scale {
            (m, 1) => raw.checked_mul(m),
            (m, d) => u64::try_from(u128::from(raw) * u128::from(m) / u128::from(d)).ok(),
        };
        let time = time.ok_or((time_s, ParseErrorKind::Overflow { value: raw }))?;
        self.seen_data = true;
        let types = std::mem::take(&mut self.types);
        let entities = std::mem::take(&mut self.entities);
        let result = (|| {
            let ttype = resolve(trim(ttype), &types);
            let source = resolve(trim(source), &entities);
            let target = resolve(trim(target), &entities);
            let event_name = trim(event);
            if ttype.is_empty() || target.is_empty() || event_name.is_empty() {
                return Err((text, ParseErrorKind::expected(FIELDS, text)));
            }
            self.dispatch(line, time, raw, source, ttype, target, event_name, note).map_err(|k| (event, k))
        })();
        self.types = types;
        self.entities = entities;
        result
    }

    #[expect(clippy::too_many_arguments, reason = "the fields of one BTF line")]
    fn dispatch(
        &mut self,
        line: u64,
        time: u64,
        raw: u64,
        source: &str,
        ttype: &str,
        target: &str,
        event: &str,
        note: &str,
    ) -> Result<(), ParseErrorKind> {
        let is = |name: &str| ttype.eq_ignore_ascii_case(name);
        match () {
            () if is("T") || is("I") => self.task_event(line, time, raw, source, target, is("I"), event, note),
            () if is("STI") => self.stimulus(line, time, raw, source, target, event, note),
            () if is("R") => {
                if !self.is_core(source) && !source.is_empty() {
                    let (task, _) = self.task(source, false);
                    self.runnable_task.insert(target.into(), task);
                }
                Ok(())
            }
            () if is("EVENT") && event.eq_ignore_ascii_case("set_event") => {
                let Some(actor) = self.actor(source) else { return Ok(()) };
                let object = self.object(target, ObjectKind::Event);
                let mut e = self.at(time, actor, EventKind::EventSet).with_object(object);
                if !note.is_empty() {
                    e.peer = self.task(note, false).0;
                }
                self.out.push(line, e, raw)
            }
            () if is("SIG") => {
                let Some(actor) = self.actor(source) else { return Ok(()) };
                let object = self.object(target, ObjectKind::Label);
                match event {
                    _ if event.eq_ignore_ascii_case("write") => {
                        self.label_writer.insert(object, actor);
                        let e = self.at(time, actor, EventKind::Send).with_object(object);
                        self.out.push(line, e, raw)
                    }
                    _ if event.eq_ignore_ascii_case("read") => {
                        let mut e = self.at(time, actor, EventKind::Receive).with_object(object);
                        e.peer = self.label_writer.get(&object).copied().unwrap_or(NONE);
                        self.out.push(line, e, raw)
                    }
                    _ => {
                        self.skip("SIG", event);
                        Ok(())
                    }
                }
            }
            () if is("SEM") => {
                let any = |names: [&str; 2]| names.iter().any(|n| event.eq_ignore_ascii_case(n));
                let kind = match () {
                    () if any(["assigned", "lock"]) => EventKind::Take,
                    () if any(["released", "unlock"]) => EventKind::Give,
                    () => {
                        self.skip("SEM", event);
                        return Ok(());
                    }
                };
                let Some(actor) = self.actor(source) else { return Ok(()) };
                let object = self.object(target, ObjectKind::Semaphore);
                let e = self.at(time, actor, kind).with_object(object);
                self.out.push(line, e, raw)
            }
            () if is("C") => {
                self.core(target);
                self.skip("C", event);
                Ok(())
            }
            () => {
                self.skip(ttype, event);
                Ok(())
            }
        }
    }

    /// The task behind a source field: a task, or the task that last
    /// started a runnable.
    fn actor(&mut self, source: &str) -> Option<TaskId> {
        if let Some(&t) = self.runnable_task.get(source) {
            return Some(t);
        }
        if source.is_empty() || self.is_core(source) {
            return None;
        }
        Some(self.task(source, false).0)
    }

    fn at(&self, time: u64, task: TaskId, kind: EventKind) -> Event {
        Event::new(time, self.task_core[task as usize], kind, task)
    }

    #[expect(clippy::too_many_arguments, reason = "the fields of one BTF line")]
    fn task_event(
        &mut self,
        line: u64,
        time: u64,
        raw: u64,
        source: &str,
        target: &str,
        isr: bool,
        event: &str,
        note: &str,
    ) -> Result<(), ParseErrorKind> {
        let (task, label_core) = self.task(target, isr);
        let ev = Ev::of(event);
        if self.dialect
            && ev == Ev::Preempt
            && let Some(prio) = note.strip_prefix("create pri:")
        {
            let prio = prio.trim().parse().map_err(|_| ParseErrorKind::expected("`create pri:<number>`", note))?;
            self.out.trace.tasks[task as usize].priority = Some(prio);
            return Ok(());
        }
        // The core: from the dialect's label, else a core source, else the
        // task's last core.
        let core = match label_core {
            Some(c) => c,
            None if self.is_core(source) && !source.is_empty() => self.core(source),
            None => self.task_core[task as usize],
        };
        self.task_core[task as usize] = core;
        if self.current.len() <= core as usize {
            self.current.resize(core as usize + 1, None);
        }
        let kind = match ev {
            Ev::Activate => {
                // A stimulus some task triggered: that task woke this one.
                if let Some(waker) = self.triggers.remove(source)
                    && waker != task
                {
                    let e = Event::new(time, core, EventKind::Wakeup, waker).with_peer(task);
                    self.out.push(line, e, raw)?;
                }
                EventKind::Ready
            }
            Ev::Start if isr => EventKind::IsrEnter,
            Ev::Resume if isr => return Ok(()),
            Ev::Terminate if isr => EventKind::IsrExit,
            Ev::Preempt | Ev::Wait if isr => return Ok(()),
            Ev::Start | Ev::Resume => {
                self.current[core as usize] = Some(task);
                EventKind::SwitchIn
            }
            Ev::Preempt if self.dialect => EventKind::Blocked,
            Ev::Preempt => EventKind::Preempted,
            Ev::Wait => EventKind::Blocked,
            Ev::Terminate => EventKind::Finished,
            Ev::Other => {
                self.skip(if isr { "I" } else { "T" }, event);
                return Ok(());
            }
        };
        if kind.switch_out().is_some() && self.current[core as usize] == Some(task) {
            self.current[core as usize] = None;
        }
        self.out.push(line, Event::new(time, core, kind, task), raw)
    }

    #[expect(clippy::too_many_arguments, reason = "the fields of one BTF line")]
    fn stimulus(
        &mut self,
        line: u64,
        time: u64,
        raw: u64,
        source: &str,
        target: &str,
        event: &str,
        note: &str,
    ) -> Result<(), ParseErrorKind> {
        if !event.eq_ignore_ascii_case("trigger") {
            self.skip("STI", event);
            return Ok(());
        }
        if !self.is_core(source) {
            // A task (or its runnable) fires a stimulus.
            if let Some(task) = self.actor(source) {
                self.triggers.insert(target.into(), task);
            }
            return Ok(());
        }
        // FreeRTOS-logger kernel object operations: `<op> 0x<addr>`.
        let kind = match target {
            "queue" => ObjectKind::Queue,
            "sem" => ObjectKind::Semaphore,
            "mutex" => ObjectKind::Mutex,
            _ => {
                self.skip("STI", target);
                return Ok(());
            }
        };
        let (op, address) = note.split_once(' ').unwrap_or((note, ""));
        let address = address.trim();
        if address.is_empty() {
            return Err(ParseErrorKind::expected(format!("`<operation> 0x<address>` for a {target} operation"), note));
        }
        let object = self.object(address, kind);
        let event_kind = match (kind, op) {
            (_, "create" | "delete") => return Ok(()),
            (ObjectKind::Queue, "send") => EventKind::Send,
            (ObjectKind::Queue, "recv") => EventKind::Receive,
            (ObjectKind::Semaphore | ObjectKind::Mutex, "take") => EventKind::Take,
            (ObjectKind::Semaphore | ObjectKind::Mutex, "give") => EventKind::Give,
            _ => {
                self.skip("STI", target);
                return Ok(());
            }
        };
        let core = self.core(source);
        let Some(task) = self.current.get(core as usize).copied().flatten() else {
            self.unattributed += 1;
            return Ok(());
        };
        let e = Event::new(time, core, event_kind, task).with_object(object);
        self.out.push(line, e, raw)
    }
}
