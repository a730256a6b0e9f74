//! BTF (Best Trace Format) reader, including the FreeRTOS-logger dialect.
//!
//! Data lines are `Time,Source,SourceInstance,TargetType,Target,
//! TargetInstance,Event[,Note]`; header lines start with `#`. What corera
//! takes from each target type:
//!
//! | target | events | model |
//! |---|---|---|
//! | `T`, `I` | `activate`, `release`, `release_parking` | ready (a wakeup when a task's stimulus caused it); every `activate` is an activation of its own (`TargetInstance`), queued while an earlier one is in flight |
//! | `T` | `start`, `resume`, `run` / `preempt` / `wait`, `park`, `poll` / `terminate` | switched in / preempted / blocked / finished |
//! | `I` | `start` / `terminate` (its `preempt`/`resume` are nesting, implied) | ISR enter / exit |
//! | `STI` | `trigger` by a task, then the stimulus `activate`s a task | wakeup edge (a trigger by `SIM` or another non-task is counted, not a task) |
//! | `EVENT` | `set_event` (note names the target task) | event set |
//! | `SIG` | `write` / `read` (label access) | data-flow edge from the last writer |
//! | `SEM` | `assigned`, `lock` / `released`, `unlock` by a task | take / give (shared-resource affinity); the semaphore's own state events (source = the semaphore) are counted only |
//! | `R` | `start`, `resume` / `suspend`, `terminate` | the runnables each task ran, calls and execution ([`RunnableUse`]); attributes the runnable's `SIG`/`SEM` accesses to its task |
//!
//! Entity roles: only `T` and `I` targets are tasks. A source seen first
//! in a label access or a semaphore event is taken for a task until the
//! end, and dropped (with its events, named in a warning) if it was never
//! the target of a task or ISR event and the `#entityTypeTable` does not
//! declare it one. The core of a task event is its source when that is a
//! core (`C`); a scheduler source (`SCHED`, or a name with `sched`, such as
//! RTAna2sim's `Core0_compSched`) runs tasks in execution lanes, one per
//! task running at once, each counted as a core (warned: the recording
//! then carries no placement). `C` events and `SIM` lines are skipped and
//! counted in one warning.
//!
//! The FreeRTOS-logger dialect (task labels `[core/id]Name`) is detected
//! from the labels: the same id seen on several cores is one task,
//! `resume` switches in, `preempt` switches out for any reason (the logger
//! does not tell preemption from blocking, so corera reads it as blocking
//! and the schedule reads each release from the switches: a hand-off or a
//! delay), a `preempt` with note `create pri:N`
//! declares the task, and `STI queue|sem|mutex` operations (`send`, `recv`,
//! `take`, `give`, `create` with an address) are attributed to the task
//! running on that core; an object deleted, or created again, at an
//! address makes way for a new one there (`0x…#2`, of its own kind: the
//! kernel reuses freed memory); its application events (`STI
//! interval_start`, `interval_stop`, `tag0_event` to `tag7_event`) are
//! logged events of the task running on that core (the logger writes each
//! in a critical section, which the replay's `lock.logged_ns` charges on
//! several cores). Its `STI task` `resume NAME[n]` is `vTaskResume`,
//! skipped, unless the hooks mark every task made ready (a
//! `traceMOVED_TASK_TO_READY_STATE` hook logging the same event: the first
//! `resume` names the task created on the line before); then each is a
//! ready event, by the tick when it follows an `STI TICK` with nothing
//! between on its core, else woken by the task running there, and a
//! `preempt` not followed by a ready before the task's next switch-in is a
//! preemption.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;
use std::io::BufRead;

use crate::error::{ParseError, ParseErrorKind};
use crate::lines::{Builder, LineFormat, run_lines};
use crate::model::{
    Clock, Event, EventKind, NONE, Object, ObjectId, ObjectKind, RunnableUse, Task, TaskId, TaskKind, Tick, Trace,
};
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
    /// A waiting task made ready (`release`): its job resumes.
    Release,
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
            ("release", Ev::Release),
            ("release_parking", Ev::Release),
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

/// Where a data line is: its line number, time in ns and raw time.
#[derive(Clone, Copy)]
struct At {
    line: u64,
    time: u64,
    raw: u64,
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
    /// Per address of a FreeRTOS-logger object deleted (or created again)
    /// since it was first seen: the number the next object there takes
    /// (`address#n`). The kernel reuses freed memory, often for another
    /// kind.
    deleted: HashMap<Box<str>, u32>,
    core_ids: HashMap<Box<str>, u16>,
    current: Vec<Option<TaskId>>,
    task_core: Vec<u16>,
    triggers: HashMap<Box<str>, TaskId>,
    runnable_task: HashMap<Box<str>, TaskId>,
    /// (task, runnable) to its index in `Trace::runnables`.
    runnable_index: HashMap<(TaskId, Box<str>), usize>,
    /// Per entry of `Trace::runnables`: executing since.
    runnable_since: Vec<Option<u64>>,
    label_writer: HashMap<ObjectId, TaskId>,
    /// Entity types the `#entityTypeTable` declares (`T`, `I`, `C`,
    /// `SCHED`, `SEM`, ...), by entity name.
    declared: HashMap<Box<str>, Box<str>>,
    /// Per task: whether it was the target of a task or ISR event (a
    /// source that never is, such as `SIM` or a semaphore reporting its
    /// own state, is not a task).
    scheduled: Vec<bool>,
    /// Per scheduler entity that switches tasks in (a source that is not
    /// a core): the task in each execution lane, as the trace does not say
    /// on which core a scheduler ran a task.
    lanes: BTreeMap<Box<str>, Vec<Option<TaskId>>>,
    /// Per task: the instance running (BTF `TargetInstance`).
    running_instance: Vec<Option<Box<str>>>,
    /// Starts of a task instance while another instance of it ran.
    parallel_instances: u64,
    /// Events whose source is an entity that is not a task, by type.
    non_task_sources: BTreeMap<String, u64>,
    dialect: bool,
    seen_data: bool,
    skipped: BTreeMap<String, BTreeMap<String, u64>>,
    unattributed: u64,
    /// Priority changes naming no traced task, or with none running.
    unresolved_priorities: u64,
    /// Times of the FreeRTOS logger's `STI TICK` triggers.
    ticks: Vec<u64>,
    /// Per core (FreeRTOS logger): whether nothing but tasks made ready
    /// has followed its latest `STI TICK` (the tick handler's releases).
    in_tick: Vec<bool>,
    /// The latest task declared by the FreeRTOS logger (`create pri:N`),
    /// and on which line.
    created: Option<(TaskId, u64)>,
    /// Whether the recording marks every task made ready (its first
    /// `resume` names the task created on the line before: a
    /// `traceMOVED_TASK_TO_READY_STATE` hook, not only `vTaskResume`).
    all_readies: bool,
    /// FreeRTOS logger `resume` stimuli read as tasks made ready.
    readies: u64,
    /// `resume` stimuli naming no traced task.
    unresolved_readies: u64,
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
        let mut trace = Trace::new(Clock::Ns);
        // BTF: every `activate` is an activation (an instance of its own).
        trace.queued_activations = true;
        Reader {
            out: Builder::new(trace, NAME, options),
            scale: (1, 1),
            table: Table::None,
            types: HashMap::default(),
            entities: HashMap::default(),
            task_ids: HashMap::default(),
            object_ids: HashMap::default(),
            deleted: HashMap::default(),
            core_ids: HashMap::default(),
            current: Vec::new(),
            task_core: Vec::new(),
            triggers: HashMap::default(),
            runnable_task: HashMap::default(),
            runnable_index: HashMap::default(),
            runnable_since: Vec::new(),
            label_writer: HashMap::default(),
            declared: HashMap::default(),
            scheduled: Vec::new(),
            lanes: BTreeMap::new(),
            running_instance: Vec::new(),
            parallel_instances: 0,
            non_task_sources: BTreeMap::new(),
            dialect: false,
            seen_data: false,
            skipped: BTreeMap::new(),
            unattributed: 0,
            unresolved_priorities: 0,
            ticks: Vec::new(),
            in_tick: Vec::new(),
            created: None,
            all_readies: false,
            readies: 0,
            unresolved_readies: 0,
        }
    }

    fn run(mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        run_lines(&mut self, reader)?;
        Ok(self.finish())
    }

    fn finish(mut self) -> Parsed {
        self.drop_non_tasks();
        self.out.trace.tick = Tick::from_instants(&self.ticks, "the FreeRTOS logger's `STI TICK` events");
        if self.dialect {
            self.out.trace.os = Some(crate::Os::FreeRtos);
            // Its ready events (`resume`) make a blocked task ready; one
            // for a task already ready or running (a priority change moves
            // it between lists) is no activation.
            self.out.trace.queued_activations = false;
        }
        let lanes: Vec<(Box<str>, usize)> = self.lanes.iter().map(|(s, l)| (s.clone(), l.len())).collect();
        for (sched, n) in lanes.into_iter().filter(|&(_, n)| n > 1) {
            let group = (0..n).map(|slot| self.lane_core(&sched, slot)).collect();
            self.out.trace.lanes.push(group);
            self.out.warn(
                0,
                format!(
                    "`{sched}` is a scheduler and ran up to {n} tasks at once; the trace does not say on which \
                     cores, so each of its {n} execution lanes counts as a core (the recording carries no \
                     placement: a task may run on any of them)"
                ),
            );
        }
        if self.parallel_instances > 0 {
            self.out.warn(
                0,
                format!(
                    "{} task instances started while another instance of the same task still ran; corera runs one \
                     instance of a task at a time, so the earlier one's stretch ends there",
                    self.parallel_instances
                ),
            );
        }
        if !self.non_task_sources.is_empty() {
            let list: Vec<String> = self.non_task_sources.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            self.out.warn(
                0,
                format!(
                    "events whose source is not a task or runnable are kept on their object only: {}",
                    list.join(", ")
                ),
            );
        }
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
        if self.readies > 0 {
            self.preemptions_from_readies();
        }
        if self.unresolved_readies > 0 {
            let n = self.unresolved_readies;
            self.out.warn(0, format!("tasks made ready ignored ({n}): they named no traced task"));
        }
        if self.unresolved_priorities > 0 {
            let n = self.unresolved_priorities;
            self.out.warn(
                0,
                format!("priority changes ignored ({n}): they named no traced task, or no task ran on their core"),
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
                    // `#-T Task_A`, `#-C Core_1`: cores are numbered in
                    // table order.
                    self.declared.insert(name.into(), id.to_ascii_uppercase().into());
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

    /// Whether `name` is a core: declared or seen as one, or named like
    /// one (`Core_1`, `Core0`, `core 2`; not `Core0_compSched`).
    fn is_core(&self, name: &str) -> bool {
        if let Some(t) = self.declared.get(name) {
            return &**t == "C";
        }
        if self.core_ids.contains_key(name) {
            return true;
        }
        let Some(rest) = name.get(..4).filter(|p| p.eq_ignore_ascii_case("core")).map(|_| &name[4..]) else {
            return false;
        };
        let digits = rest.trim_start_matches(['_', '-', ' ']);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    }

    /// Whether `name` is a scheduler that switches tasks in: declared
    /// `SCHED`, or named so (APP4MC's RTAna2sim declares `Core0_compSched`
    /// a core and runs up to nine tasks on it at once). A source that is
    /// neither a core nor a known task counts too.
    fn is_scheduler(&self, name: &str) -> bool {
        if self.declared.get(name).is_some_and(|t| &**t == "SCHED") || self.lanes.contains_key(name) {
            return true;
        }
        let lower = name.to_ascii_lowercase();
        lower.contains("sched")
            || (!self.is_core(name) && self.known_actor(name).is_none() && !self.task_ids.contains_key(name))
    }

    /// Whether `name` is declared as an entity of a type that is never
    /// scheduled (`SIM`, `STI`, `SEM`, `SCHED`, ...); counted by type.
    fn declared_non_task(&mut self, name: &str) -> bool {
        let Some(t) = self.declared.get(name) else { return false };
        if matches!(&**t, "T" | "I" | "ISR" | "R") {
            return false;
        }
        let key = format!("{t} sources");
        *self.non_task_sources.entry(key).or_default() += 1;
        true
    }

    /// The core of execution lane for `task` under scheduler `sched`: the
    /// lane it holds, else the first free one.
    fn enter_lane(&mut self, sched: &str, task: TaskId) -> u16 {
        let lanes = match self.lanes.get_mut(sched) {
            Some(l) => l,
            None => self.lanes.entry(sched.into()).or_default(),
        };
        let slot = match lanes.iter().position(|l| *l == Some(task)) {
            Some(s) => s,
            None => match lanes.iter().position(Option::is_none) {
                Some(s) => s,
                None => {
                    lanes.push(None);
                    lanes.len() - 1
                }
            },
        };
        lanes[slot] = Some(task);
        self.lane_core(sched, slot)
    }

    /// The core id of lane `slot` of scheduler `sched` (lane 0 is the
    /// scheduler's own name, a core when the file declares it one).
    fn lane_core(&mut self, sched: &str, slot: usize) -> u16 {
        if slot == 0 { self.core(sched) } else { self.core(&format!("{sched}#{slot}")) }
    }

    /// Frees the lane `task` holds, if any, and returns its core.
    fn leave_lane(&mut self, task: TaskId) -> Option<u16> {
        let (sched, slot) = self.lanes.iter_mut().find_map(|(name, lanes)| {
            let slot = lanes.iter().position(|l| *l == Some(task))?;
            lanes[slot] = None;
            Some((name.clone(), slot))
        })?;
        Some(self.lane_core(&sched, slot))
    }

    /// Removes the entities that were taken for tasks because they were a
    /// source (of a label access, a semaphore event, an OS event) but were
    /// never scheduled and are not declared tasks: `SIM`, a semaphore
    /// reporting its own state. Their events go with them.
    fn drop_non_tasks(&mut self) {
        let tasks = &self.out.trace.tasks;
        let keep: Vec<bool> = (0..tasks.len())
            .map(|i| {
                self.scheduled[i]
                    || self.declared.get(tasks[i].name.as_str()).is_some_and(|t| matches!(&**t, "T" | "I" | "ISR"))
            })
            .collect();
        if keep.iter().all(|k| *k) {
            return;
        }
        let mut events = vec![0u64; tasks.len()];
        for e in &self.out.trace.events {
            events[e.task as usize] += 1;
        }
        let dropped: Vec<String> = (0..tasks.len())
            .filter(|&i| !keep[i])
            .map(|i| format!("`{}` ({} events)", tasks[i].name, events[i]))
            .collect();
        self.out.warn(
            0,
            format!(
                "not tasks (sources of events, never scheduled as a task or ISR): {}; their own events are dropped",
                dropped.join(", ")
            ),
        );
        self.out.trace.retain_tasks(&keep);
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
        let declared_isr = self.declared.get(l.key).is_some_and(|t| matches!(&**t, "I" | "ISR"));
        let kind = if isr || declared_isr {
            TaskKind::Isr
        } else if l.name.to_ascii_lowercase().starts_with("idle") {
            TaskKind::Idle
        } else {
            TaskKind::Task
        };
        let handle = if l.core.is_some() { l.key.parse().unwrap_or(u64::from(id)) } else { u64::from(id) };
        self.out.trace.tasks.push(Task { name: l.name.to_string(), kind, priority: None, handle });
        self.task_core.push(l.core.unwrap_or(0));
        self.scheduled.push(false);
        self.running_instance.push(None);
        self.task_ids.insert(l.key.into(), id);
        (id, l.core)
    }

    fn object(&mut self, name: &str, kind: ObjectKind) -> ObjectId {
        if let Some(&id) = self.object_ids.get(name) {
            return id;
        }
        self.created_object(name, kind)
    }

    /// A new object at `address` (a name, or a FreeRTOS-logger address):
    /// the `n`th object there is named `address#n` from the second on.
    fn created_object(&mut self, address: &str, kind: ObjectKind) -> ObjectId {
        let name = match self.deleted.get(address) {
            Some(&n) => format!("{address}#{n}"),
            None => address.to_string(),
        };
        let id = self.out.trace.objects.len() as ObjectId;
        self.out.trace.objects.push(Object { name, kind });
        self.object_ids.insert(address.into(), id);
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
        let [time_s, source, _, ttype, target, instance, event, note] = fields;
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
            let at = At { line, time, raw };
            self.dispatch(at, source, ttype, (target, trim(instance)), event_name, note).map_err(|k| (event, k))
        })();
        self.types = types;
        self.entities = entities;
        result
    }

    fn dispatch(
        &mut self,
        at: At,
        source: &str,
        ttype: &str,
        (target, instance): (&str, &str),
        event: &str,
        note: &str,
    ) -> Result<(), ParseErrorKind> {
        let At { line, time, raw } = at;
        let is = |name: &str| ttype.eq_ignore_ascii_case(name);
        match () {
            () if is("T") || is("I") || is("ISR") => {
                let isr = !is("T");
                self.task_event(at, source, (target, instance), isr, event, note)
            }
            () if is("STI") => self.stimulus(line, time, raw, source, target, event, note),
            () if is("R") => {
                self.runnable(time, source, target, event);
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
                // Process events (`assigned`, `released`, ...) have the
                // task as source; the semaphore's own state events
                // (`lock`, `unlock`, `free`, `used`, `full`, ...) have the
                // semaphore itself. Only the former are a task's take/give.
                let own = source == target || self.declared.get(source).is_some_and(|t| &**t == "SEM");
                let any = |names: [&str; 2]| names.iter().any(|n| event.eq_ignore_ascii_case(n));
                let kind = match () {
                    () if own => {
                        self.skip("SEM", &format!("{event} (the semaphore's own state)"));
                        return Ok(());
                    }
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
    ///
    /// A source not yet seen is taken for a task for now; one that is
    /// never scheduled is removed at the end (`drop_non_tasks`).
    fn actor(&mut self, source: &str) -> Option<TaskId> {
        if let Some(t) = self.known_actor(source) {
            return Some(t);
        }
        if source.is_empty()
            || self.is_core(source)
            || self.lanes.contains_key(source)
            || self.declared_non_task(source)
        {
            return None;
        }
        Some(self.task(source, false).0)
    }

    /// The task behind a source that is a scheduled task or the runnable
    /// of one, if it is.
    fn known_actor(&self, source: &str) -> Option<TaskId> {
        if let Some(&t) = self.runnable_task.get(source) {
            return Some(t);
        }
        let key = label(source).key;
        self.task_ids.get(key).copied().filter(|&t| self.scheduled[t as usize])
    }

    /// A runnable event: `source` (a task, or the runnable that called it)
    /// starts, suspends, resumes or terminates runnable `target`.
    fn runnable(&mut self, time: u64, source: &str, target: &str, event: &str) {
        let Some(task) = self.actor(source) else {
            self.skip("R", event);
            return;
        };
        self.runnable_task.insert(target.into(), task);
        let key = (task, Box::<str>::from(target));
        let i = match self.runnable_index.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.out.trace.runnables.len();
                self.out.trace.runnables.push(RunnableUse { task, name: target.to_string(), calls: 0, exec_ns: 0 });
                self.runnable_since.push(None);
                self.runnable_index.insert(key, i);
                i
            }
        };
        let is = |name: &str| event.eq_ignore_ascii_case(name);
        match () {
            () if is("start") => {
                self.out.trace.runnables[i].calls += 1;
                self.runnable_since[i] = Some(time);
            }
            () if is("resume") => self.runnable_since[i] = Some(time),
            () if is("suspend") || is("terminate") => {
                if let Some(since) = self.runnable_since[i].take() {
                    self.out.trace.runnables[i].exec_ns += time.saturating_sub(since);
                }
            }
            () => self.skip("R", event),
        }
    }

    fn at(&self, time: u64, task: TaskId, kind: EventKind) -> Event {
        Event::new(time, self.task_core[task as usize], kind, task)
    }

    fn task_event(
        &mut self,
        at: At,
        source: &str,
        (target, instance): (&str, &str),
        isr: bool,
        event: &str,
        note: &str,
    ) -> Result<(), ParseErrorKind> {
        let At { line, time, raw } = at;
        let (task, label_core) = self.task(target, isr);
        self.scheduled[task as usize] = true;
        let ev = Ev::of(event);
        if self.dialect
            && ev == Ev::Preempt
            && let Some(prio) = note.strip_prefix("create pri:")
        {
            let prio = prio.trim().parse().map_err(|_| ParseErrorKind::expected("`create pri:<number>`", note))?;
            self.out.trace.tasks[task as usize].priority = Some(prio);
            self.created = Some((task, line));
            return Ok(());
        }
        // The core: from the dialect's label, else a core source, else an
        // execution lane of a scheduler source (a task switched in by a
        // scheduler), else the task's last core.
        let switch_in = matches!(ev, Ev::Start | Ev::Resume);
        let switch_out = matches!(ev, Ev::Preempt | Ev::Wait | Ev::Terminate);
        let core = match label_core {
            Some(c) => c,
            None if source.is_empty() => self.task_core[task as usize],
            None if switch_in && !isr && self.is_scheduler(source) => self.enter_lane(source, task),
            None if switch_out && self.is_scheduler(source) => {
                self.leave_lane(task).unwrap_or(self.task_core[task as usize])
            }
            None if self.is_core(source) => self.core(source),
            None => self.task_core[task as usize],
        };
        if !isr && !self.dialect {
            let running = &mut self.running_instance[task as usize];
            match (switch_in, switch_out) {
                (true, _) => {
                    if running.as_deref().is_some_and(|r| r != instance) {
                        self.parallel_instances += 1;
                    }
                    *running = Some(instance.into());
                }
                (_, true) => *running = None,
                _ => {}
            }
        }
        self.task_core[task as usize] = core;
        if self.dialect {
            *self.in_tick_mut(usize::from(core)) = false;
        }
        if self.current.len() <= core as usize {
            self.current.resize(core as usize + 1, None);
        }
        let kind = match ev {
            Ev::Activate | Ev::Release => {
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
        let event = Event::new(time, core, kind, task);
        self.out.push(line, if ev == Ev::Release { event.ending_wait() } else { event }, raw)
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
            // A task (or its runnable) fires a stimulus; the simulation
            // environment (`SIM`) or another stimulus is no task.
            match self.known_actor(source) {
                Some(task) => {
                    self.triggers.insert(target.into(), task);
                }
                None => *self.non_task_sources.entry("stimulus triggers from `SIM`/non-tasks".into()).or_default() += 1,
            }
            return Ok(());
        }
        if target == "TICK" {
            // The FreeRTOS logger's kernel tick.
            self.ticks.push(time);
            let core = usize::from(self.core(source));
            *self.in_tick_mut(core) = true;
            return Ok(());
        }
        if target == "task" && note.starts_with("resume ") {
            return self.made_ready(line, time, raw, source, note);
        }
        let core = usize::from(self.core(source));
        *self.in_tick_mut(core) = false;
        if target == "task"
            && let Some(op) = ["set_priority", "priority_inherit", "priority_disinherit"]
                .into_iter()
                .find(|op| note.strip_prefix(op).is_some_and(|rest| rest.starts_with(' ')))
        {
            return self.priority_set(line, time, raw, source, (op, note));
        }
        if is_application_event(target) {
            let core = self.core(source);
            let Some(task) = self.current.get(core as usize).copied().flatten() else {
                // Before the scheduler ran a task (the allocator's tags as
                // `main` creates the tasks): no job to hold the lock in.
                self.skip("STI", target);
                return Ok(());
            };
            return self.out.push(line, Event::new(time, core, EventKind::Logged, task), raw);
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
        if matches!(op, "delete" | "create") {
            // The object there is gone (a create without a logged delete
            // replaces it too); a create starts the next one.
            if self.object_ids.remove(address).is_some() {
                *self.deleted.entry(address.into()).or_insert(1) += 1;
            }
            if op == "create" {
                self.created_object(address, kind);
            }
            return Ok(());
        }
        let object = self.object(address, kind);
        let event_kind = match (kind, op) {
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

    /// The task a FreeRTOS-logger note names as `NAME[n]` (`n` the number
    /// in its `[core/n]` label): `None` when the note has another shape,
    /// `Some(None)` when no traced task has that name and number.
    fn labelled(&self, who: &str) -> Option<Option<usize>> {
        let (name, number) = who.strip_suffix(']').and_then(|w| w.rsplit_once('['))?;
        let number: u64 = number.parse().ok()?;
        Some(self.out.trace.tasks.iter().position(|t| t.handle == number && t.name == name))
    }

    /// Core `core`'s [`Reader::in_tick`] flag.
    fn in_tick_mut(&mut self, core: usize) -> &mut bool {
        if self.in_tick.len() <= core {
            self.in_tick.resize(core + 1, false);
        }
        &mut self.in_tick[core]
    }

    /// The FreeRTOS logger's `resume NAME[n]` (`traceTASK_RESUME`, and the
    /// same event from a `traceMOVED_TASK_TO_READY_STATE` hook): task `n`
    /// made ready. Made ready by the tick handler when nothing else
    /// happened on its core since the `STI TICK` that opened it (a timer
    /// release); otherwise by the task running there (a wakeup).
    fn made_ready(&mut self, line: u64, time: u64, raw: u64, source: &str, note: &str) -> Result<(), ParseErrorKind> {
        let expected = || ParseErrorKind::expected("`resume NAME[n]`", note);
        let target = self.labelled(note.trim_start_matches("resume ").trim()).ok_or_else(expected)?;
        let core = self.core(source);
        let Some(target) = target else {
            self.unresolved_readies += 1;
            return Ok(());
        };
        self.all_readies |= self.created == Some((target as TaskId, line.saturating_sub(1)));
        if !self.all_readies {
            // The stock hooks: `vTaskResume` alone, one release among
            // others the recording does not show; the releases are read
            // from the switches, this one with them.
            self.skip("STI", "task");
            return Ok(());
        }
        self.readies += 1;
        let by_tick = self.in_tick.get(usize::from(core)).copied().unwrap_or(false);
        let waker = self.current.get(usize::from(core)).copied().flatten().filter(|&w| w as usize != target);
        if let Some(waker) = waker.filter(|_| !by_tick) {
            self.out.push(line, Event::new(time, core, EventKind::Wakeup, waker).with_peer(target as TaskId), raw)?;
        }
        self.out.push(line, Event::new(time, core, EventKind::Ready, target as TaskId), raw)
    }

    /// With ready events, the dialect's `preempt` (any switch-out) is a
    /// block only where the task was made ready again before its next
    /// switch-in; otherwise it was preempted (or yielded) and stayed ready.
    fn preemptions_from_readies(&mut self) {
        let n = self.out.trace.tasks.len();
        // Per task, the index of its latest switch-out not yet followed by
        // a ready.
        let mut open: Vec<Option<usize>> = vec![None; n];
        let mut preempted = Vec::new();
        for (i, e) in self.out.trace.events.iter().enumerate() {
            let t = e.task as usize;
            match e.kind {
                EventKind::Blocked => open[t] = Some(i),
                EventKind::Ready => open[t] = None,
                EventKind::SwitchIn => preempted.extend(open[t].take()),
                _ => {}
            }
        }
        preempted.sort_unstable();
        let mut next = preempted.into_iter().peekable();
        let mut i = 0;
        self.out.trace.events.retain_mut(|e| {
            if next.peek() == Some(&i) {
                next.next();
                e.kind = EventKind::Preempted;
            }
            i += 1;
            true
        });
    }

    /// The FreeRTOS logger's `vTaskPrioritySet` (`op` `set_priority`, the
    /// `note` `set_priority NAME[n] pri:P`, `n` the number in the task's
    /// `[core/n]` label) and its priority inheritance: a take that blocks on
    /// a mutex raises the holder (`priority_inherit`, logged by the taker as
    /// it blocks, a take the logger does not show otherwise), and the
    /// holder's give lowers it again (`priority_disinherit`). All three set
    /// the priority the holder runs at.
    fn priority_set(
        &mut self,
        line: u64,
        time: u64,
        raw: u64,
        source: &str,
        (op, note): (&str, &str),
    ) -> Result<(), ParseErrorKind> {
        let expected = || ParseErrorKind::expected(format!("`{op} NAME[n] pri:P`"), note);
        let (who, pri) = note[op.len()..].trim().rsplit_once(' ').ok_or_else(expected)?;
        let priority: i32 = pri.strip_prefix("pri:").and_then(|p| p.parse().ok()).ok_or_else(expected)?;
        let target = self.labelled(who).ok_or_else(expected)?;
        let core = self.core(source);
        let (Some(target), Some(by)) = (target, self.current.get(core as usize).copied().flatten()) else {
            self.unresolved_priorities += 1;
            return Ok(());
        };
        self.out.push(line, Event::priority_set(time, core, by, target as TaskId, priority), raw)
    }
}

/// Whether a FreeRTOS-logger stimulus is an application event: an
/// interval mark (`traceINTERVAL_START`, `traceINTERVAL_STOP`) or a tag
/// (`traceTAG(t, v)`, `tag0_event` to `tag7_event`), which the logger
/// writes in a critical section of the kernel's.
fn is_application_event(target: &str) -> bool {
    matches!(target, "interval_start" | "interval_stop")
        || target
            .strip_prefix("tag")
            .and_then(|t| t.strip_suffix("_event"))
            .is_some_and(|n| matches!(n.as_bytes(), [b'0'..=b'7']))
}
