//! Eclipse APP4MC Amalthea models (`.amxmi`): the software, stimuli,
//! hardware, OS and mapping models, turned into the same trace model a
//! recording gives.
//!
//! A model is not a recording, so the reader synthesises one: jobs are
//! released by the stimuli over a horizon (the hyperperiod of the periodic
//! stimuli, capped at [`MAX_HORIZON_NS`], or [`ModelOptions::horizon_ns`]),
//! and each task runs its activity graph in a lane of its own (as if it had
//! a core to itself: no task waits for another's CPU), so that RUNNING,
//! jobs, periods, label traffic and triggers are exactly the model's and
//! READY is zero. The recording ends at the horizon, so that load is demand
//! over the horizon; activations a task's own core had not started by then
//! are named in a warning. The replay then
//! schedules those jobs on the platform.
//!
//! | model element | trace model |
//! |---|---|
//! | `swModel/tasks` | a task; priority from the mapping's `schedulingParameters @priority`, else a `customProperties` `priority` |
//! | `activityGraph` / `callGraph` items (`Group`, `RunnableCall`, `Ticks`, `LabelAccess`, `InterProcessTrigger`, `SetEvent`, `WaitEvent`, `ClearEvent`; the first entry of a `ModeSwitch` or `ProbabilitySwitch`) | the job's execution, in order |
//! | `Ticks` (`default`, `extended @key=<PU definition>`: `lowerBound`, `upperBound`, `average` or `value`) | execution: average or upper ticks ([`TicksMode`]) at the frequency of a processing unit of that definition |
//! | `LabelAccess @access=write` / `read` | a send / receive on the label (with its size), from the label's last writer |
//! | `InterProcessTrigger @stimulus` | a wakeup of the tasks that stimulus activates |
//! | `SetEvent` / `WaitEvent` | an event set for `@process` / a block until it is set |
//! | `stimuliModel` `PeriodicStimulus` (`recurrence`, `offset`), `RelativePeriodicStimulus`, `SingleStimulus`, `InterProcessStimulus` | releases |
//! | `hwModel` `ProcessingUnit` (its definition, frequency domain and enclosing structure) | the platform: a core each, speeds relative to the reference definition, distance 1 within a structure and 2 across |
//! | `mappingModel` `schedulerAllocation @responsibility`, `taskAllocation @scheduler @affinity` | allowed cores per task, and the model's own mapping ([`ModelInfo::mapping`]) |
//! | `constraintsModel` `ProcessRequirement` on `ResponseTime` | deadlines |
//! | `constraintsModel` `eventChains` and their `EventChainLatencyConstraint`s; `eventModel` `ProcessEvent`s | cause-effect chains through data ([`ModelChain`]) |
//! | `LabelAccess @implementation="timed"` on every label a task accesses | a LET task ([`ModelInfo::let_tasks`]) |
//!
//! Execution times are those on the reference definition (the CPU
//! definition with the most processing units): every task's job is
//! "recorded" on it, and a core of another definition runs at the speed
//! the runnables that have ticks for both give it. A task can run only on
//! cores whose definition every runnable it calls has ticks for.
//! Everything else in a model is counted in one warning.

use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::io::BufRead;

use quick_xml::events::{BytesStart, Event as Xml};
use serde::{Deserialize, Serialize};

mod chains;

pub use chains::ModelChain;

use crate::error::{ParseError, ParseErrorKind};
use crate::model::{Clock, Event, EventKind, NONE, Object, ObjectKind, RunnableUse, Task, TaskKind, Trace};
use crate::{Parsed, ReadOptions, TraceFormat, Warning};

/// Format name used in messages and `--format`.
pub const NAME: &str = "amalthea";

/// Longest horizon the jobs are generated over without `--horizon`: 10 s.
pub const MAX_HORIZON_NS: u64 = 10_000_000_000;

/// Most jobs a model may release over its horizon, and most events its
/// synthesis may write (a model with a 1 ns period, or tasks that trigger
/// each other without executing, would otherwise never end).
pub const MAX_JOBS: u64 = 2_000_000;
/// See [`MAX_JOBS`].
pub const MAX_EVENTS: usize = 20_000_000;

/// Schema versions read (the namespace's version): 0.9.x to 3.x.
const VERSIONS: &str = "0.9 to 3.x";

/// Which ticks a job executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TicksMode {
    /// The average (the midpoint of the bounds where no average is given).
    #[default]
    Avg,
    /// The upper bound: the worst case.
    Upper,
}

impl TicksMode {
    /// Its `--ticks` name.
    pub fn name(self) -> &'static str {
        match self {
            TicksMode::Avg => "avg",
            TicksMode::Upper => "upper",
        }
    }

    /// The mode named `name`.
    ///
    /// # Errors
    /// A message naming the choices.
    pub fn parse(name: &str) -> Result<TicksMode, String> {
        match name {
            "avg" => Ok(TicksMode::Avg),
            "upper" => Ok(TicksMode::Upper),
            _ => Err(format!("`{name}`: expected avg or upper")),
        }
    }
}

/// How a model becomes jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelOptions {
    /// Horizon in ns (default: the hyperperiod, capped at
    /// [`MAX_HORIZON_NS`]).
    pub horizon_ns: Option<u64>,
    /// Average or worst-case ticks.
    pub ticks: TicksMode,
}

/// A processing unit of the model, as a core of the platform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCore {
    /// Its name in the model.
    pub name: String,
    /// Its processing-unit definition.
    pub definition: String,
    /// Its clock, Hz.
    pub frequency_hz: f64,
    /// The structure (cluster) it sits in.
    pub cluster: String,
    /// Speed relative to the reference definition.
    pub speed: f64,
}

/// The load the model puts on one kind of processing unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefinitionLoad {
    /// The processing-unit definition.
    pub name: String,
    /// Its `puType` (CPU, GPU, ...).
    pub pu_type: String,
    /// Processing units of it.
    pub cores: usize,
    /// Tasks that can run on it.
    pub tasks: usize,
    /// Their demand in units of one such core (execution on it per unit of
    /// time), were they all on cores of this kind.
    pub load: f64,
}

/// A task scheduler of the model and the cores it is responsible for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelScheduler {
    /// Its name.
    pub name: String,
    /// Indexes into [`ModelInfo::cores`].
    pub cores: Vec<u16>,
}

/// What the placement and the report need from a model besides its jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The schema version (from the namespace).
    pub version: String,
    /// Its processing units, in document order: core `i` is `cores[i]`.
    pub cores: Vec<ModelCore>,
    /// The definition execution times are given on.
    pub reference: String,
    /// Load per processing-unit definition.
    pub definitions: Vec<DefinitionLoad>,
    /// Labels and their summed size in bytes.
    pub labels: usize,
    /// See `labels`.
    pub label_bytes: u64,
    /// Per task (by name): the cores it may run on, where not all.
    pub allowed: Vec<(String, Vec<u16>)>,
    /// The model's own mapping: task name to the cores of its affinity
    /// (one core, or several it may float over), for every task it maps.
    pub mapping: Vec<(String, Vec<u16>)>,
    /// Task schedulers.
    pub schedulers: Vec<ModelScheduler>,
    /// The scheduler each task is allocated to, by name.
    pub task_scheduler: Vec<(String, String)>,
    /// Response-time requirements: task name, ns.
    pub deadlines: Vec<(String, u64)>,
    /// Cause-effect chains (`eventChains`), with their latency constraints.
    #[serde(default)]
    pub chains: Vec<ModelChain>,
    /// LET tasks (every label access `timed`): name and logical execution
    /// time (the response-time requirement, else the period), ns.
    #[serde(default)]
    pub let_tasks: Vec<(String, u64)>,
    /// The horizon the jobs were generated over, ns.
    pub horizon_ns: u64,
    /// The ticks used.
    pub ticks: TicksMode,
}

/// Reader of Amalthea models.
#[derive(Clone, Debug, Default)]
pub struct Amalthea {
    options: ReadOptions,
}

impl From<ReadOptions> for Amalthea {
    fn from(options: ReadOptions) -> Amalthea {
        Amalthea { options }
    }
}

impl TraceFormat for Amalthea {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        let text = head.trim_start_matches('\u{feff}').trim_start();
        if text.is_empty() {
            return None;
        }
        if !text.starts_with('<') {
            return Some(false);
        }
        if text.contains("app4mc.eclipse.org/amalthea") || text.contains("<am:Amalthea") {
            return Some(true);
        }
        // An XML declaration and comments may come first.
        if head.len() < 8192 { None } else { Some(false) }
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let path = self.options.path.clone();
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| error(&path, 1, ParseErrorKind::Io(e)))?;
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t,
            Err(e) => {
                let line = line_of(&bytes, e.valid_up_to());
                let byte = bytes[e.valid_up_to()];
                return Err(error(&path, line, ParseErrorKind::NotUtf8 { byte }));
            }
        };
        if text.trim().is_empty() {
            return Err(error(&path, 1, ParseErrorKind::Empty { expected: "<am:Amalthea xmlns:am=...>" }));
        }
        let root = tree(text).map_err(|(line, kind)| error(&path, line, kind))?;
        let model = Model::of(&root).map_err(|(line, kind)| error(&path, line, kind))?;
        model.synthesise(&self.options.model).map_err(|(line, kind)| error(&path, line, kind))
    }
}

fn error(path: &str, line: u64, kind: ParseErrorKind) -> ParseError {
    ParseError { path: path.to_string(), line, column: 1, format: NAME, kind }
}

fn line_of(bytes: &[u8], offset: usize) -> u64 {
    1 + memchr::memchr_iter(b'\n', &bytes[..offset.min(bytes.len())]).count() as u64
}

type Failure = (u64, ParseErrorKind);

fn expected(line: u64, what: impl Into<String>, found: &str) -> Failure {
    (line, ParseErrorKind::expected(what, found))
}

/// One XML element: local name, attributes, children, line.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    line: u64,
}

impl Element {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn kids<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn kid(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// `xsi:type` without the `am:` prefix.
    fn kind(&self) -> &str {
        self.attr("xsi:type").map_or("", |t| t.rsplit(':').next().unwrap_or(t))
    }

    fn name_attr(&self) -> &str {
        self.attr("name").unwrap_or("")
    }

    /// `<tag>` on line N, for messages.
    fn at(&self) -> String {
        let name = self.attr("name").map(|n| format!(" `{n}`")).unwrap_or_default();
        format!("<{}>{name}", self.name)
    }
}

/// How deep elements may nest. APP4MC's models nest about ten levels (the
/// WATERS 2019 model and democar 7, the feedback-loop tutorial 10); a
/// deeper file is not a model, and a tree a
/// hundred thousand levels deep would overflow the stack when it is
/// walked or dropped.
const MAX_DEPTH: usize = 512;

/// The element tree of `text`; an element nested deeper than
/// [`MAX_DEPTH`] is an error at its line.
fn tree(text: &str) -> Result<Element, Failure> {
    let mut reader = quick_xml::Reader::from_str(text);
    let line = |pos: u64| line_of(text.as_bytes(), pos as usize);
    let mut stack: Vec<Element> = vec![Element { name: "#document".into(), ..Element::default() }];
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            let pos = reader.error_position();
            (line(pos), ParseErrorKind::expected("well-formed XML", &e.to_string()))
        })?;
        match event {
            Xml::Start(e) => {
                if stack.len() > MAX_DEPTH {
                    let found = format!("<{}> nested {} elements deep", e.local_name().as_ref(), stack.len());
                    return Err(expected(line(at), format!("elements nested at most {MAX_DEPTH} deep"), &found));
                }
                stack.push(element(&e, line(at))?)
            }
            Xml::Empty(e) => {
                let el = element(&e, line(at))?;
                stack.last_mut().expect("document").children.push(el);
            }
            Xml::End(e) => {
                let name = e.local_name().as_ref().to_string();
                let el = stack.pop().expect("document");
                if stack.is_empty() || el.name != name {
                    return Err(expected(line(at), format!("</{}>", el.name), &format!("</{name}>")));
                }
                stack.last_mut().expect("document").children.push(el);
            }
            Xml::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        let open = stack.last().expect("element");
        return Err((
            line(text.len() as u64),
            ParseErrorKind::Missing {
                expected: format!("</{}> for {} opened on line {}", open.name, open.at(), open.line),
            },
        ));
    }
    let mut document = stack.pop().expect("document");
    match document.children.pop() {
        Some(root) if document.children.is_empty() => Ok(root),
        Some(_) => Err((1, ParseErrorKind::expected("one root element", "several"))),
        None => Err((1, ParseErrorKind::Empty { expected: "<am:Amalthea xmlns:am=...>" })),
    }
}

fn element(e: &BytesStart, line: u64) -> Result<Element, Failure> {
    let name = e.local_name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| (line, ParseErrorKind::expected("an attribute `key=\"value\"`", &err.to_string())))?;
        let key = a.key.as_ref().to_string();
        let value = a
            .normalized_value(quick_xml::XmlVersion::Explicit1_0)
            .map_err(|err| (line, ParseErrorKind::expected("an attribute value", &err.to_string())))?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element { name, attrs, children: Vec::new(), line })
}

/// `Name?type=Type` (URL-encoded) to `Name`.
fn reference(text: &str) -> String {
    let name = text.split('?').next().unwrap_or(text);
    let mut out = Vec::with_capacity(name.len());
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(hex) = name.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn references(text: &str) -> Vec<String> {
    text.split_whitespace().map(reference).collect()
}

/// `value` × the scale of `unit` (default `default`) among `units`.
fn quantity(e: &Element, units: &[(&str, f64)], default: &str, what: &str) -> Result<f64, Failure> {
    let text = e.attr("value").unwrap_or("0");
    let value: f64 = text.trim().parse().map_err(|_| expected(e.line, "a number in `value`", text))?;
    let unit = e.attr("unit").unwrap_or(default);
    let scale = units.iter().find(|(u, _)| *u == unit).map(|(_, s)| *s);
    scale.map(|s| value * s).ok_or_else(|| expected(e.line, what, unit))
}

/// A time (`value`, `unit`) in ns.
fn time_ns(e: &Element) -> Result<u64, Failure> {
    const UNITS: [(&str, f64); 6] = [("s", 1e9), ("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("ns", 1.0), ("ps", 1e-3)];
    let ns = quantity(e, &UNITS, "ns", "a time unit (s, ms, us, ns, ps)")?;
    Ok(ns.round().max(0.0) as u64)
}

/// A data size in bytes.
fn size_bytes(e: &Element) -> Result<u64, Failure> {
    const UNITS: [(&str, f64); 13] = [
        ("bit", 0.125),
        ("kbit", 125.0),
        ("Mbit", 125e3),
        ("Gbit", 125e6),
        ("Kibit", 128.0),
        ("Mibit", 131_072.0),
        ("B", 1.0),
        ("kB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("KiB", 1024.0),
        ("MiB", 1_048_576.0),
        ("GiB", 1_073_741_824.0),
    ];
    let bytes = quantity(e, &UNITS, "B", "a data-size unit (bit, B, kB, MB, KiB, MiB, ...)")?;
    Ok(bytes.round().max(0.0) as u64)
}

fn frequency_hz(e: &Element) -> Result<f64, Failure> {
    const UNITS: [(&str, f64); 4] = [("Hz", 1.0), ("kHz", 1e3), ("MHz", 1e6), ("GHz", 1e9)];
    quantity(e, &UNITS, "Hz", "a frequency unit (Hz, kHz, MHz, GHz)")
}

/// Ticks of one definition (or the default): lower, upper, average.
#[derive(Clone, Copy, Debug)]
struct TickValue {
    upper: f64,
    avg: f64,
}

fn tick_value(e: &Element) -> Result<TickValue, Failure> {
    let num = |k: &str| -> Result<Option<f64>, Failure> {
        match e.attr(k) {
            None => Ok(None),
            Some(v) => v.trim().parse().map(Some).map_err(|_| expected(e.line, format!("a number in `{k}`"), v)),
        }
    };
    if let Some(v) = num("value")? {
        return Ok(TickValue { upper: v, avg: v });
    }
    let (lower, upper) = (num("lowerBound")?, num("upperBound")?);
    let avg = num("average")?.or(num("mean")?);
    match (lower, upper, avg) {
        (_, Some(u), Some(a)) => Ok(TickValue { upper: u, avg: a }),
        (Some(l), Some(u), None) => Ok(TickValue { upper: u, avg: (l + u) / 2.0 }),
        (_, None, Some(a)) => Ok(TickValue { upper: a, avg: a }),
        _ => Err(expected(e.line, "ticks: `value`, or `lowerBound`/`upperBound`/`average`", &e.at())),
    }
}

/// Ticks of a `Ticks` item: the default and per definition.
#[derive(Clone, Debug, Default)]
struct Ticks {
    default: Option<TickValue>,
    extended: BTreeMap<String, TickValue>,
}

impl Ticks {
    fn of(e: &Element) -> Result<Ticks, Failure> {
        let mut t = Ticks::default();
        if let Some(d) = e.kid("default") {
            t.default = Some(tick_value(d)?);
        }
        for x in e.kids("extended") {
            let key = reference(x.attr("key").unwrap_or(""));
            let value = x.kid("value").ok_or_else(|| expected(x.line, "a <value> in <extended>", &x.at()))?;
            t.extended.insert(key, tick_value(value)?);
        }
        Ok(t)
    }

    fn on(&self, definition: &str) -> Option<TickValue> {
        self.extended.get(definition).copied().or(self.default)
    }
}

/// What a task's or runnable's activity does, flattened.
#[derive(Clone, Debug)]
enum Step {
    Call(usize),
    Ticks(Ticks),
    Access { label: usize, write: bool },
    Trigger(String),
    SetEvent { events: Vec<String>, process: Option<String> },
    WaitEvent(Vec<String>),
    ClearEvent(Vec<String>),
}

struct Runnable {
    name: String,
    steps: Vec<Step>,
}

struct TaskDef {
    name: String,
    stimuli: Vec<String>,
    steps: Vec<Step>,
    priority: Option<i32>,
    line: u64,
}

enum Stimulus {
    Periodic { period: u64, offset: u64 },
    Single { at: u64 },
    InterProcess,
    Unsupported(String),
}

struct Definition {
    name: String,
    pu_type: String,
}

struct Model {
    version: String,
    tasks: Vec<TaskDef>,
    runnables: Vec<Runnable>,
    labels: Vec<(String, u64)>,
    stimuli: HashMap<String, Stimulus>,
    definitions: Vec<Definition>,
    cores: Vec<ModelCore>,
    schedulers: Vec<ModelScheduler>,
    task_scheduler: Vec<(String, String, Vec<u16>)>,
    deadlines: Vec<(String, u64)>,
    chains: Vec<ModelChain>,
    /// Names of the LET tasks.
    lets: Vec<String>,
    ignored: BTreeMap<String, u64>,
}

/// Parses the element tree into a [`Model`].
struct ModelBuilder<'a> {
    runnable_index: HashMap<&'a str, usize>,
    label_index: HashMap<&'a str, usize>,
    ignored: BTreeMap<String, u64>,
}

impl Model {
    fn of(root: &Element) -> Result<Model, Failure> {
        if root.name != "Amalthea" {
            return Err(expected(root.line, "an <am:Amalthea> root element", &format!("<{}>", root.name)));
        }
        let ns = root.attr("xmlns:am").unwrap_or("");
        let version = ns.rsplit('/').next().unwrap_or("").to_string();
        let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
        let supported = match (parts.next().flatten(), parts.next().flatten()) {
            (Some(0), Some(9)) => true,
            (Some(major), Some(_)) => (1..=3).contains(&major),
            _ => false,
        };
        if !supported {
            return Err(expected(
                root.line,
                format!("an Amalthea schema version corera reads ({VERSIONS}) in the namespace"),
                if ns.is_empty() { "no `xmlns:am` namespace" } else { ns },
            ));
        }
        let sw = root.kid("swModel");
        let empty = Element::default();
        let sw = sw.unwrap_or(&empty);
        let mut b =
            ModelBuilder { runnable_index: HashMap::new(), label_index: HashMap::new(), ignored: BTreeMap::new() };
        let mut labels = Vec::new();
        for l in sw.kids("labels") {
            let size = match l.kid("size") {
                Some(s) => size_bytes(s)?,
                None => 0,
            };
            b.label_index.insert(l.name_attr(), labels.len());
            labels.push((l.name_attr().to_string(), size));
        }
        for (i, r) in sw.kids("runnables").enumerate() {
            b.runnable_index.insert(r.name_attr(), i);
        }
        let mut runnables = Vec::new();
        for r in sw.kids("runnables") {
            let steps = b.activity(r)?;
            runnables.push(Runnable { name: r.name_attr().to_string(), steps });
        }
        let mut tasks = Vec::new();
        let lets: Vec<String> =
            sw.kids("tasks").filter(|t| chains::is_let(t)).map(|t| t.name_attr().to_string()).collect();
        for t in sw.kids("tasks") {
            let priority = t
                .kids("customProperties")
                .find(|c| c.attr("key") == Some("priority"))
                .and_then(|c| c.kid("value"))
                .and_then(|v| v.attr("value"))
                .and_then(|v| v.trim().parse().ok());
            tasks.push(TaskDef {
                name: t.name_attr().to_string(),
                stimuli: t.attr("stimuli").map(references).unwrap_or_default(),
                steps: b.activity(t)?,
                priority,
                line: t.line,
            });
        }
        for other in sw.children.iter().filter(|c| !matches!(c.name.as_str(), "labels" | "runnables" | "tasks")) {
            *b.ignored.entry(format!("swModel/{}", other.name)).or_default() += 1;
        }
        let mut stimuli = HashMap::new();
        if let Some(sm) = root.kid("stimuliModel") {
            for s in sm.kids("stimuli") {
                let stimulus = match s.kind() {
                    "PeriodicStimulus" | "RelativePeriodicStimulus" | "PeriodicSyntheticStimulus" => {
                        let rec = s
                            .kid("recurrence")
                            .or_else(|| s.kid("nextOccurrence"))
                            .ok_or_else(|| expected(s.line, "a <recurrence> in a periodic stimulus", &s.at()))?;
                        let period = time_ns(rec)?;
                        if period == 0 {
                            return Err(expected(rec.line, "a recurrence above 0", "0"));
                        }
                        let offset = match s.kid("offset") {
                            Some(o) => time_ns(o)?,
                            None => 0,
                        };
                        Stimulus::Periodic { period, offset }
                    }
                    "SingleStimulus" => {
                        Stimulus::Single { at: s.kid("occurrence").map(time_ns).transpose()?.unwrap_or(0) }
                    }
                    "InterProcessStimulus" => Stimulus::InterProcess,
                    other => Stimulus::Unsupported(other.to_string()),
                };
                stimuli.insert(s.name_attr().to_string(), stimulus);
            }
        }
        // Hardware.
        let mut definitions = Vec::new();
        let mut domains: HashMap<String, f64> = HashMap::new();
        let mut cores = Vec::new();
        if let Some(hw) = root.kid("hwModel") {
            for d in hw.kids("definitions").filter(|d| d.kind() == "ProcessingUnitDefinition") {
                definitions.push(Definition {
                    name: d.name_attr().to_string(),
                    pu_type: d.attr("puType").unwrap_or("CPU").to_string(),
                });
            }
            for d in hw.kids("domains") {
                if let Some(v) = d.kid("defaultValue") {
                    domains.insert(d.name_attr().to_string(), frequency_hz(v)?);
                }
            }
            /// Processing units in document order, with the name of the
            /// structure (cluster) that holds each.
            fn walk(e: &Element, cluster: &str, out: &mut Vec<(String, String, String, u64, String)>) {
                for m in e.kids("modules").filter(|m| m.kind() == "ProcessingUnit") {
                    out.push((
                        m.name_attr().to_string(),
                        reference(m.attr("definition").unwrap_or("")),
                        reference(m.attr("frequencyDomain").unwrap_or("")),
                        m.line,
                        cluster.to_string(),
                    ));
                }
                for s in e.kids("structures") {
                    walk(s, s.name_attr(), out);
                }
            }
            let mut units = Vec::new();
            walk(hw, "", &mut units);
            for (name, definition, domain, line, cluster) in units {
                if !definitions.iter().any(|d| d.name == definition) {
                    return Err(expected(
                        line,
                        "a processing unit whose `definition` names a ProcessingUnitDefinition",
                        &definition,
                    ));
                }
                let frequency_hz = match domains.get(&domain) {
                    Some(&f) if f > 0.0 => f,
                    _ => {
                        *b.ignored
                            .entry("processing units without a frequency (taken as 1 GHz)".into())
                            .or_default() += 1;
                        1e9
                    }
                };
                cores.push(ModelCore { name, definition, frequency_hz, cluster, speed: 1.0 });
            }
        }
        // OS and mapping.
        let mut schedulers: Vec<ModelScheduler> = Vec::new();
        let mut task_scheduler = Vec::new();
        if let Some(os) = root.kid("osModel") {
            fn schedulers_of(e: &Element, out: &mut Vec<ModelScheduler>) {
                for s in e.kids("taskSchedulers") {
                    out.push(ModelScheduler { name: s.name_attr().to_string(), cores: Vec::new() });
                    schedulers_of(s, out);
                }
            }
            for o in os.kids("operatingSystems") {
                schedulers_of(o, &mut schedulers);
            }
        }
        if let Some(mm) = root.kid("mappingModel") {
            let core_index = |name: &str| cores.iter().position(|c| c.name == name).map(|i| i as u16);
            for a in mm.kids("schedulerAllocation") {
                let name = reference(a.attr("scheduler").unwrap_or(""));
                let Some(s) = schedulers.iter_mut().find(|s| s.name == name) else {
                    return Err(expected(a.line, "a `scheduler` the osModel defines", &name));
                };
                for r in references(a.attr("responsibility").unwrap_or("")) {
                    let c = core_index(&r)
                        .ok_or_else(|| expected(a.line, "a `responsibility` naming processing units", &r))?;
                    s.cores.push(c);
                }
            }
            for a in mm.kids("taskAllocation") {
                let task = reference(a.attr("task").unwrap_or(""));
                let scheduler = reference(a.attr("scheduler").unwrap_or(""));
                if !tasks.iter().any(|t| t.name == task) {
                    return Err(expected(a.line, "a taskAllocation `task` the swModel defines", &task));
                }
                if !schedulers.iter().any(|s| s.name == scheduler) {
                    return Err(expected(a.line, "a taskAllocation `scheduler` the osModel defines", &scheduler));
                }
                let mut affinity = Vec::new();
                for r in a.attr("affinity").map(references).unwrap_or_default() {
                    affinity.push(
                        core_index(&r).ok_or_else(|| expected(a.line, "an `affinity` naming processing units", &r))?,
                    );
                }
                if let Some(p) = a.kid("schedulingParameters").and_then(|p| p.attr("priority"))
                    && let Some(t) = tasks.iter_mut().find(|t| t.name == task)
                {
                    t.priority = Some(p.trim().parse().map_err(|_| expected(a.line, "an integer `priority`", p))?);
                }
                task_scheduler.push((task, scheduler, affinity));
            }
        }
        let mut deadlines = Vec::new();
        if let Some(cm) = root.kid("constraintsModel") {
            for r in cm.kids("requirements").filter(|r| r.kind() == "ProcessRequirement") {
                let Some(limit) = r.kid("limit") else { continue };
                if limit.attr("metric") != Some("ResponseTime") || limit.attr("limitType") == Some("LowerLimit") {
                    *b.ignored.entry("requirements other than response-time upper limits".into()).or_default() += 1;
                    continue;
                }
                if let Some(v) = limit.kid("limitValue") {
                    deadlines.push((reference(r.attr("process").unwrap_or("")), time_ns(v)?));
                }
            }
        }
        let chains = chains::read(root, &mut b.ignored)?;
        for other in root.children.iter().filter(|c| {
            !matches!(
                c.name.as_str(),
                "swModel" | "stimuliModel" | "hwModel" | "osModel" | "mappingModel" | "constraintsModel"
            ) && (c.name != "eventModel" || chains.is_empty())
        }) {
            *b.ignored.entry(other.name.clone()).or_default() += 1;
        }
        Ok(Model {
            version,
            tasks,
            runnables,
            labels,
            stimuli,
            definitions,
            cores,
            schedulers,
            task_scheduler,
            deadlines,
            chains,
            lets,
            ignored: b.ignored,
        })
    }
}

impl Model {
    /// Each LET task's logical execution time: its response-time
    /// requirement, else the period of its periodic stimulus (a LET task
    /// with neither is left out).
    fn let_intervals(&self) -> Vec<(String, u64)> {
        self.lets
            .iter()
            .filter_map(|name| {
                let deadline = self.deadlines.iter().find(|(t, _)| t == name).map(|d| d.1);
                let period = || {
                    let task = self.tasks.iter().find(|t| t.name == *name)?;
                    task.stimuli.iter().find_map(|s| match self.stimuli.get(s) {
                        Some(Stimulus::Periodic { period, .. }) => Some(*period),
                        _ => None,
                    })
                };
                Some((name.clone(), deadline.or_else(period)?))
            })
            .collect()
    }
}

impl ModelBuilder<'_> {
    /// The steps of a task's or runnable's activity graph (`activityGraph`,
    /// `callGraph`, or the old `runnableItems`).
    fn activity(&mut self, owner: &Element) -> Result<Vec<Step>, Failure> {
        let mut steps = Vec::new();
        for graph in owner.children.iter().filter(|c| matches!(c.name.as_str(), "activityGraph" | "callGraph")) {
            for item in graph.kids("items").chain(graph.kids("graphEntries")) {
                self.item(item, &mut steps)?;
            }
        }
        for item in owner.kids("runnableItems") {
            self.item(item, &mut steps)?;
        }
        Ok(steps)
    }

    fn item(&mut self, e: &Element, steps: &mut Vec<Step>) -> Result<(), Failure> {
        let events = |e: &Element| -> Vec<String> {
            e.kids("eventMask").flat_map(|m| references(m.attr("events").unwrap_or(""))).collect()
        };
        match e.kind() {
            "Group" | "CallSequence" => {
                for i in e.kids("items").chain(e.kids("calls")) {
                    self.item(i, steps)?;
                }
            }
            "ModeSwitch" | "ProbabilitySwitch" | "Switch" => {
                let entries: Vec<&Element> = e.kids("entries").chain(e.kids("defaultEntry")).collect();
                // The likeliest entry of a probability switch, else the first.
                let chosen = entries
                    .iter()
                    .max_by(|a, b| {
                        let p = |x: &Element| x.attr("probability").and_then(|p| p.parse::<f64>().ok()).unwrap_or(0.0);
                        p(a).total_cmp(&p(b))
                    })
                    .filter(|_| e.kind() == "ProbabilitySwitch")
                    .or(entries.first());
                if entries.len() > 1 {
                    *self
                        .ignored
                        .entry(format!("{} entries other than the first (or likeliest)", e.kind()))
                        .or_default() += entries.len() as u64 - 1;
                }
                if let Some(entry) = chosen {
                    for i in entry.kids("items") {
                        self.item(i, steps)?;
                    }
                }
            }
            "RunnableCall" | "TaskRunnableCall" => {
                let name = reference(e.attr("runnable").unwrap_or(""));
                let Some(&i) = self.runnable_index.get(name.as_str()) else {
                    return Err(expected(e.line, "a `runnable` the swModel defines", &name));
                };
                steps.push(Step::Call(i));
            }
            "Ticks" => steps.push(Step::Ticks(Ticks::of(e)?)),
            "LabelAccess" => {
                let name = reference(e.attr("data").unwrap_or(""));
                let Some(&label) = self.label_index.get(name.as_str()) else {
                    return Err(expected(e.line, "a LabelAccess `data` naming a label the swModel defines", &name));
                };
                steps.push(Step::Access { label, write: e.attr("access") == Some("write") });
            }
            "InterProcessTrigger" => steps.push(Step::Trigger(reference(e.attr("stimulus").unwrap_or("")))),
            "SetEvent" => steps.push(Step::SetEvent { events: events(e), process: e.attr("process").map(reference) }),
            "WaitEvent" => {
                if e.attr("waitingBehaviour") == Some("active") {
                    *self
                        .ignored
                        .entry(
                            "active (busy) waits, read as passive: the waiting task does not keep its core busy".into(),
                        )
                        .or_default() += 1;
                }
                steps.push(Step::WaitEvent(events(e)));
            }
            "ClearEvent" => steps.push(Step::ClearEvent(events(e))),
            other => {
                *self
                    .ignored
                    .entry(format!("activity items {}", if other.is_empty() { &e.name } else { other }))
                    .or_default() += 1;
            }
        }
        Ok(())
    }
}

/// Where a task's job is in its activity.
#[derive(Clone, Debug, Default)]
struct Cursor {
    /// (steps owner: None = the task, Some(r) = runnable r; next step).
    frames: Vec<(Option<usize>, usize)>,
}

/// The running state of one task in the synthesis.
#[derive(Clone, Debug, Default)]
struct Lane {
    /// Release times of activations not started yet.
    queued: std::collections::VecDeque<u64>,
    busy: bool,
    cursor: Cursor,
    waiting: Option<Vec<String>>,
    /// Events set for this task and not cleared.
    set: Vec<String>,
    /// Per runnable on the stack: since when it executes.
    runnable_since: Vec<(usize, u64)>,
}

impl Model {
    /// The reference definition: the CPU definition with the most units.
    fn reference(&self) -> Option<&str> {
        let count = |d: &str| self.cores.iter().filter(|c| c.definition == d).count();
        self.definitions
            .iter()
            .filter(|d| count(&d.name) > 0)
            .max_by_key(|d| (d.pu_type == "CPU", count(&d.name), std::cmp::Reverse(d.name.clone())))
            .map(|d| d.name.as_str())
    }

    fn frequency(&self, definition: &str) -> f64 {
        self.cores.iter().find(|c| c.definition == definition).map_or(1e9, |c| c.frequency_hz)
    }

    /// Execution ns of `ticks` on `definition`.
    fn exec_on(&self, ticks: &Ticks, definition: &str, mode: TicksMode) -> Option<f64> {
        let v = ticks.on(definition)?;
        let t = match mode {
            TicksMode::Avg => v.avg,
            TicksMode::Upper => v.upper,
        };
        Some(t * 1e9 / self.frequency(definition))
    }

    /// Every `Ticks` a runnable executes (its own, and its callees').
    fn ticks_of(&self, steps: &[Step], out: &mut Vec<Ticks>, depth: u32) {
        for s in steps {
            match s {
                Step::Ticks(t) => out.push(t.clone()),
                Step::Call(r) if depth < 16 => self.ticks_of(&self.runnables[*r].steps, out, depth + 1),
                _ => {}
            }
        }
    }

    fn synthesise(mut self, options: &ModelOptions) -> Result<Parsed, Failure> {
        let mut warnings = Vec::new();
        let mut warn = |message: String| warnings.push(Warning { line: None, message });
        let reference = self.reference().unwrap_or("").to_string();
        // Speeds of the definitions relative to the reference.
        let mut all_ticks = Vec::new();
        for r in &self.runnables {
            self.ticks_of(&r.steps, &mut all_ticks, 0);
        }
        for t in &self.tasks {
            self.ticks_of(&t.steps, &mut all_ticks, 0);
        }
        let mode = options.ticks;
        let speed_of = |d: &str| -> f64 {
            let (mut on_ref, mut on_d) = (0.0, 0.0);
            for t in &all_ticks {
                if let (Some(a), Some(b)) = (self.exec_on(t, &reference, mode), self.exec_on(t, d, mode)) {
                    on_ref += a;
                    on_d += b;
                }
            }
            if on_ref > 0.0 && on_d > 0.0 { on_ref / on_d } else { 1.0 }
        };
        let speeds: HashMap<String, f64> =
            self.definitions.iter().map(|d| (d.name.clone(), speed_of(&d.name))).collect();
        for c in &mut self.cores {
            c.speed = speeds.get(&c.definition).copied().unwrap_or(1.0);
        }
        // Per task: the definitions every one of its ticks has a value for.
        let task_ticks: Vec<Vec<Ticks>> = self
            .tasks
            .iter()
            .map(|t| {
                let mut v = Vec::new();
                self.ticks_of(&t.steps, &mut v, 0);
                v
            })
            .collect();
        let runs_on = |i: usize, d: &str| task_ticks[i].iter().all(|t| t.on(d).is_some());
        // The ns a `Ticks` takes in the synthesised recording: on the
        // reference, else on a definition it has, scaled to the reference.
        let exec_ns = |t: &Ticks| -> u64 {
            if let Some(e) = self.exec_on(t, &reference, mode) {
                return e.round() as u64;
            }
            let d = t.extended.keys().next().cloned().unwrap_or_default();
            let e = self.exec_on(t, &d, mode).unwrap_or(0.0) * speeds.get(&d).copied().unwrap_or(1.0);
            e.round() as u64
        };
        // Releases.
        let periods: Vec<u64> = self
            .tasks
            .iter()
            .flat_map(|t| t.stimuli.iter())
            .filter_map(|s| match self.stimuli.get(s) {
                Some(Stimulus::Periodic { period, offset }) => Some(period + offset),
                _ => None,
            })
            .collect();
        let hyper = periods.iter().fold(1u64, |acc, &p| {
            let g = gcd(acc, p);
            (acc / g).saturating_mul(p)
        });
        let horizon = match options.horizon_ns {
            Some(h) => h,
            None if hyper > MAX_HORIZON_NS || periods.is_empty() => {
                warn(format!(
                    "the hyperperiod of the model's periodic stimuli is {}; jobs are generated over {} s (set --horizon)",
                    if periods.is_empty() { "undefined".to_string() } else { format!("{:.3} s", hyper as f64 / 1e9) },
                    MAX_HORIZON_NS / 1_000_000_000
                ));
                MAX_HORIZON_NS
            }
            None => hyper,
        };
        let too_many = |what: String| {
            (
                1,
                ParseErrorKind::expected(
                    format!(
                        "at most {MAX_JOBS} jobs and {MAX_EVENTS} events over the horizon (shorten it with --horizon)"
                    ),
                    &what,
                ),
            )
        };
        let jobs: u64 = self
            .tasks
            .iter()
            .flat_map(|t| t.stimuli.iter())
            .filter_map(|s| match self.stimuli.get(s) {
                Some(Stimulus::Periodic { period, offset }) => Some(horizon.saturating_sub(*offset).div_ceil(*period)),
                _ => None,
            })
            .sum();
        if jobs > MAX_JOBS {
            return Err(too_many(format!("{jobs} periodic releases over {:.3} s", horizon as f64 / 1e9)));
        }
        let mut unsupported: BTreeMap<String, u64> = BTreeMap::new();
        let mut releases: Vec<(u64, usize)> = Vec::new();
        let mut triggered: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in self.tasks.iter().enumerate() {
            if t.stimuli.is_empty() {
                *unsupported.entry("tasks without a stimulus (never released)".into()).or_default() += 1;
            }
            for s in &t.stimuli {
                match self.stimuli.get(s) {
                    Some(Stimulus::Periodic { period, offset }) => {
                        let mut at = *offset;
                        while at < horizon {
                            releases.push((at, i));
                            at += period;
                        }
                    }
                    Some(Stimulus::Single { at }) if *at < horizon => releases.push((*at, i)),
                    Some(Stimulus::Single { .. }) => {}
                    Some(Stimulus::InterProcess) => triggered.entry(s.as_str()).or_default().push(i),
                    Some(Stimulus::Unsupported(kind)) => {
                        *unsupported
                            .entry(format!("{kind} stimuli (their tasks are not released by them)"))
                            .or_default() += 1;
                    }
                    None => {
                        *unsupported.entry(format!("stimulus references to undefined stimuli (`{s}`)")).or_default() +=
                            1;
                    }
                }
            }
        }
        // The trace.
        let mut trace = Trace::new(Clock::Ns);
        trace.queued_activations = true;
        for t in &self.tasks {
            trace.tasks.push(Task { name: t.name.clone(), kind: TaskKind::Task, priority: t.priority, handle: 0 });
        }
        for (i, t) in trace.tasks.iter_mut().enumerate() {
            t.handle = i as u64;
        }
        for (name, _) in &self.labels {
            trace.objects.push(Object { name: name.clone(), kind: ObjectKind::Label });
        }
        let mut event_objects: HashMap<String, u32> = HashMap::new();
        let mut sim = Sim {
            model: &self,
            exec_ns: &exec_ns,
            lanes: vec![Lane::default(); self.tasks.len()],
            heap: BinaryHeap::new(),
            seq: 0,
            events: Vec::new(),
            label_writer: vec![NONE; self.labels.len()],
            runnable_use: BTreeMap::new(),
            triggered: &triggered,
            event_objects: &mut event_objects,
            objects: &mut trace.objects,
            unknown_triggers: 0,
        };
        for (at, i) in releases {
            sim.push(at, Wake::Release(i));
        }
        if !sim.run(horizon) {
            return Err(too_many(format!("more than {MAX_EVENTS} events: triggers without end?")));
        }
        let backlog = sim.close(horizon);
        let unknown_triggers = sim.unknown_triggers;
        let events = std::mem::take(&mut sim.events);
        let runnable_use = std::mem::take(&mut sim.runnable_use);
        drop(sim);
        if unknown_triggers > 0 {
            unsupported.insert("inter-process triggers of stimuli that activate no task".into(), unknown_triggers);
        }
        for e in events {
            trace.events.push(e);
        }
        let behind: Vec<String> = backlog
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, n)| format!("`{}` ({n} activations not started)", self.tasks[i].name))
            .collect();
        if !behind.is_empty() {
            warn(format!(
                "at the {:.3} s horizon some tasks had activations their own core (of the reference definition) \
                 had not started, as earlier jobs were still running or waiting: {}; their load is what ran by the \
                 horizon, the load per core type gives their demand",
                horizon as f64 / 1e9,
                behind.join(", ")
            ));
        }
        for ((task, runnable), (calls, exec)) in runnable_use {
            trace.runnables.push(RunnableUse {
                task: task as u32,
                name: self.runnables[runnable].name.clone(),
                calls,
                exec_ns: exec,
            });
        }
        // Model facts for the placement and the report.
        let core_ids = |pred: &dyn Fn(&ModelCore) -> bool| -> Vec<u16> {
            self.cores.iter().enumerate().filter(|(_, c)| pred(c)).map(|(i, _)| i as u16).collect()
        };
        let jobs_of =
            |i: usize| trace.events.iter().filter(|e| e.task as usize == i && e.kind == EventKind::Ready).count();
        let mut allowed = Vec::new();
        let mut mapping = Vec::new();
        for (i, t) in self.tasks.iter().enumerate() {
            let mut cores = core_ids(&|c| runs_on(i, &c.definition));
            if cores.is_empty() {
                warn(format!(
                    "task `{}` (line {}): no processing unit has ticks for all its runnables; it may run anywhere",
                    t.name, t.line
                ));
                cores = core_ids(&|_| true);
            }
            let allocation = self.task_scheduler.iter().find(|(task, ..)| *task == t.name);
            if let Some((_, scheduler, affinity)) = allocation {
                let responsible: Vec<u16> =
                    self.schedulers.iter().find(|s| s.name == *scheduler).map(|s| s.cores.clone()).unwrap_or_default();
                let both: Vec<u16> = cores.iter().copied().filter(|c| responsible.contains(c)).collect();
                if !responsible.is_empty() && both.is_empty() {
                    warn(format!(
                        "task `{}` is allocated to scheduler `{scheduler}`, whose cores cannot run it; its allocation is ignored",
                        t.name
                    ));
                } else if !both.is_empty() {
                    cores = both;
                }
                let inside: Vec<u16> = affinity.iter().copied().filter(|c| cores.contains(c)).collect();
                let mapped = match (affinity.is_empty(), inside.is_empty()) {
                    (true, _) => cores.clone(),
                    (false, false) => inside,
                    (false, true) => {
                        let names: Vec<&str> =
                            affinity.iter().map(|&a| self.cores[usize::from(a)].name.as_str()).collect();
                        warn(format!(
                            "task `{}`: its affinity `{}` is not among the cores of scheduler `{scheduler}`; the model's mapping puts it on {}",
                            t.name,
                            names.join(" "),
                            self.cores[usize::from(cores[0])].name
                        ));
                        vec![cores[0]]
                    }
                };
                if !mapped.is_empty() {
                    mapping.push((t.name.clone(), mapped));
                }
            }
            if cores.len() < self.cores.len() {
                allowed.push((t.name.clone(), cores));
            }
        }
        let definitions = self
            .definitions
            .iter()
            .map(|d| {
                let units = self.cores.iter().filter(|c| c.definition == d.name).count();
                let mut load = 0.0;
                let mut tasks = 0;
                for (i, ticks) in task_ticks.iter().enumerate() {
                    if !runs_on(i, &d.name) || ticks.is_empty() {
                        continue;
                    }
                    tasks += 1;
                    let per_job: f64 = ticks.iter().filter_map(|t| self.exec_on(t, &d.name, mode)).sum();
                    load += per_job * jobs_of(i) as f64 / horizon.max(1) as f64;
                }
                DefinitionLoad { name: d.name.clone(), pu_type: d.pu_type.clone(), cores: units, tasks, load }
            })
            .filter(|d| d.cores > 0)
            .collect();
        let info = ModelInfo {
            version: self.version.clone(),
            cores: self.cores.clone(),
            reference,
            definitions,
            labels: self.labels.len(),
            label_bytes: self.labels.iter().map(|l| l.1).sum(),
            allowed,
            mapping,
            schedulers: self.schedulers.clone(),
            task_scheduler: self.task_scheduler.iter().map(|(t, s, _)| (t.clone(), s.clone())).collect(),
            deadlines: self.deadlines.clone(),
            chains: self.chains.clone(),
            let_tasks: self.let_intervals(),
            horizon_ns: horizon,
            ticks: mode,
        };
        let mut ignored = self.ignored.clone();
        ignored.extend(unsupported);
        if !ignored.is_empty() {
            let list: Vec<String> = ignored.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            warn(format!("model features corera does not use, ignored: {}", list.join(", ")));
        }
        Ok(Parsed { trace, warnings, source: Default::default(), format: NAME, model: Some(info), notes: Vec::new() })
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Why a lane is woken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    /// A timer release of task i.
    Release(usize),
    /// Task i's current execution step is done.
    Continue(usize),
    /// Task i may start its next queued job.
    Start(usize),
}

/// The synthesis: each task in a lane of its own.
struct Sim<'a> {
    model: &'a Model,
    exec_ns: &'a dyn Fn(&Ticks) -> u64,
    lanes: Vec<Lane>,
    heap: BinaryHeap<std::cmp::Reverse<(u64, u64, Wake)>>,
    seq: u64,
    events: Vec<Event>,
    label_writer: Vec<u32>,
    runnable_use: BTreeMap<(usize, usize), (u64, u64)>,
    triggered: &'a HashMap<&'a str, Vec<usize>>,
    event_objects: &'a mut HashMap<String, u32>,
    objects: &'a mut Vec<Object>,
    unknown_triggers: u64,
}

impl Sim<'_> {
    fn push(&mut self, at: u64, wake: Wake) {
        self.seq += 1;
        self.heap.push(std::cmp::Reverse((at, self.seq, wake)));
    }

    fn emit(&mut self, time: u64, task: usize, kind: EventKind) -> &mut Event {
        self.events.push(Event::new(time, task as u16, kind, task as u32));
        self.events.last_mut().expect("pushed")
    }

    /// Runs to the end; `false` when the events exceed [`MAX_EVENTS`].
    /// Runs to the horizon, where the recording ends: `false` when the
    /// events exceed [`MAX_EVENTS`].
    fn run(&mut self, horizon: u64) -> bool {
        while let Some(&std::cmp::Reverse((now, _, wake))) = self.heap.peek() {
            if now >= horizon {
                break;
            }
            self.heap.pop();
            if self.events.len() > MAX_EVENTS {
                return false;
            }
            match wake {
                Wake::Release(i) => self.activate(i, now),
                Wake::Continue(i) => self.step(i, now),
                Wake::Start(i) => self.start(i, now),
            }
        }
        true
    }

    /// Ends the recording at `horizon`: a task executing there is switched
    /// out (its stretch and its runnables' end there, as a recording's would
    /// at its last event). Returns, per task, the activations still queued:
    /// work its own core had not started by the horizon.
    fn close(&mut self, horizon: u64) -> Vec<usize> {
        for i in 0..self.lanes.len() {
            let lane = &mut self.lanes[i];
            if !lane.busy || lane.waiting.is_some() {
                continue;
            }
            for (r, since) in std::mem::take(&mut lane.runnable_since) {
                self.runnable_use.entry((i, r)).or_default().1 += horizon.saturating_sub(since);
            }
            self.emit(horizon, i, EventKind::Preempted);
        }
        self.lanes.iter().map(|l| l.queued.len()).collect()
    }

    fn activate(&mut self, i: usize, now: u64) {
        self.emit(now, i, EventKind::Ready);
        self.lanes[i].queued.push_back(now);
        if !self.lanes[i].busy {
            self.push(now, Wake::Start(i));
        }
    }

    fn start(&mut self, i: usize, now: u64) {
        if self.lanes[i].busy || self.lanes[i].queued.pop_front().is_none() {
            return;
        }
        self.lanes[i].busy = true;
        self.lanes[i].cursor = Cursor { frames: vec![(None, 0)] };
        self.emit(now, i, EventKind::SwitchIn);
        self.step(i, now);
    }

    /// Runs task `i`'s activity from its cursor until it executes, waits
    /// or finishes.
    fn step(&mut self, i: usize, now: u64) {
        loop {
            let Some(&(owner, at)) = self.lanes[i].cursor.frames.last() else {
                self.emit(now, i, EventKind::Finished);
                self.lanes[i].busy = false;
                if !self.lanes[i].queued.is_empty() {
                    self.push(now, Wake::Start(i));
                }
                return;
            };
            let steps = match owner {
                None => &self.model.tasks[i].steps,
                Some(r) => &self.model.runnables[r].steps,
            };
            let Some(step) = steps.get(at).cloned() else {
                self.lanes[i].cursor.frames.pop();
                if let Some(r) = owner
                    && let Some(pos) = self.lanes[i].runnable_since.iter().rposition(|(x, _)| *x == r)
                {
                    let (_, since) = self.lanes[i].runnable_since.remove(pos);
                    self.runnable_use.entry((i, r)).or_default().1 += now - since;
                }
                continue;
            };
            self.lanes[i].cursor.frames.last_mut().expect("frame").1 += 1;
            match step {
                Step::Call(r) => {
                    if self.lanes[i].cursor.frames.len() < 16 {
                        self.lanes[i].cursor.frames.push((Some(r), 0));
                        self.lanes[i].runnable_since.push((r, now));
                        self.runnable_use.entry((i, r)).or_default().0 += 1;
                    }
                }
                Step::Ticks(t) => {
                    let d = (self.exec_ns)(&t);
                    if d > 0 {
                        self.push(now + d, Wake::Continue(i));
                        return;
                    }
                }
                Step::Access { label, write } => {
                    let bytes = u32::try_from(self.model.labels[label].1).unwrap_or(u32::MAX);
                    if write {
                        self.label_writer[label] = i as u32;
                        self.emit(now, i, EventKind::Send).object = label as u32;
                    } else {
                        let peer = self.label_writer[label];
                        let e = self.emit(now, i, EventKind::Receive);
                        e.object = label as u32;
                        e.peer = peer;
                    }
                    self.events.last_mut().expect("pushed").bytes = bytes;
                }
                Step::Trigger(stimulus) => match self.triggered.get(stimulus.as_str()) {
                    Some(targets) => {
                        for &target in &targets.clone() {
                            self.emit(now, i, EventKind::Wakeup).peer = target as u32;
                            self.activate(target, now);
                        }
                    }
                    None => self.unknown_triggers += 1,
                },
                Step::SetEvent { events, process } => {
                    let target = process.and_then(|p| self.model.tasks.iter().position(|t| t.name == p));
                    for ev in &events {
                        let object = self.event_object(ev);
                        let e = self.emit(now, i, EventKind::EventSet);
                        e.object = object;
                        e.peer = target.map_or(NONE, |t| t as u32);
                    }
                    let targets: Vec<usize> = match target {
                        Some(t) => vec![t],
                        None => (0..self.lanes.len()).collect(),
                    };
                    for t in targets {
                        self.lanes[t].set.extend(events.iter().cloned());
                        let resumes =
                            self.lanes[t].waiting.as_ref().is_some_and(|w| w.iter().any(|x| events.contains(x)));
                        if resumes {
                            self.lanes[t].waiting = None;
                            self.emit(now, i, EventKind::Wakeup).peer = t as u32;
                            self.emit(now, t, EventKind::Ready);
                            self.emit(now, t, EventKind::SwitchIn);
                            self.push(now, Wake::Continue(t));
                        }
                    }
                }
                Step::WaitEvent(events) => {
                    if !self.lanes[i].set.iter().any(|s| events.contains(s)) {
                        self.lanes[i].waiting = Some(events);
                        self.emit(now, i, EventKind::Blocked);
                        return;
                    }
                }
                Step::ClearEvent(events) => self.lanes[i].set.retain(|s| !events.contains(s)),
            }
        }
    }

    fn event_object(&mut self, name: &str) -> u32 {
        if let Some(&o) = self.event_objects.get(name) {
            return o;
        }
        let o = self.objects.len() as u32;
        self.objects.push(Object { name: name.to_string(), kind: ObjectKind::Event });
        self.event_objects.insert(name.to_string(), o);
        o
    }
}
