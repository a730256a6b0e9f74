//! The element tree read into a [`Model`]: tasks and their activity
//! graphs, runnables, labels, stimuli, hardware, mapping, deadlines,
//! chains.

use std::collections::{BTreeMap, HashMap};

use super::xml::{Element, Ticks, frequency_hz, reference, references, size_bytes, time_ns};
use super::{Failure, VERSIONS, chains, expected};
use crate::system::{ModelChain, ModelCore, ModelScheduler};

/// What a task's or runnable's activity does, flattened.
#[derive(Clone, Debug)]
pub(super) enum Step {
    Call(usize),
    Ticks(Ticks),
    Access { label: usize, write: bool },
    Trigger(String),
    SetEvent { events: Vec<String>, process: Option<String> },
    WaitEvent(Vec<String>),
    ClearEvent(Vec<String>),
}

pub(super) struct Runnable {
    pub(super) name: String,
    pub(super) steps: Vec<Step>,
}

pub(super) struct TaskDef {
    pub(super) name: String,
    pub(super) stimuli: Vec<String>,
    pub(super) steps: Vec<Step>,
    pub(super) priority: Option<i32>,
    pub(super) line: u64,
}

pub(super) enum Stimulus {
    Periodic { period: u64, offset: u64 },
    Single { at: u64 },
    InterProcess,
    Unsupported(String),
}

pub(super) struct Definition {
    pub(super) name: String,
    pub(super) pu_type: String,
}

pub(super) struct Model {
    pub(super) version: String,
    pub(super) tasks: Vec<TaskDef>,
    pub(super) runnables: Vec<Runnable>,
    pub(super) labels: Vec<(String, u64)>,
    pub(super) stimuli: HashMap<String, Stimulus>,
    pub(super) definitions: Vec<Definition>,
    pub(super) cores: Vec<ModelCore>,
    pub(super) schedulers: Vec<ModelScheduler>,
    pub(super) task_scheduler: Vec<(String, String, Vec<u16>)>,
    pub(super) deadlines: Vec<(String, u64)>,
    pub(super) chains: Vec<ModelChain>,
    /// Names of the LET tasks.
    pub(super) lets: Vec<String>,
    pub(super) ignored: BTreeMap<String, u64>,
}

/// Parses the element tree into a [`Model`].
pub(super) struct ModelBuilder<'a> {
    pub(super) runnable_index: HashMap<&'a str, usize>,
    pub(super) label_index: HashMap<&'a str, usize>,
    pub(super) ignored: BTreeMap<String, u64>,
}

impl Model {
    /// The model under `root`, part by part.
    pub(super) fn of(root: &Element) -> Result<Model, Failure> {
        let version = version(root)?;
        let empty = Element::default();
        let sw = root.kid("swModel").unwrap_or(&empty);
        let mut b =
            ModelBuilder { runnable_index: HashMap::new(), label_index: HashMap::new(), ignored: BTreeMap::new() };
        let Software { labels, runnables, mut tasks, lets } = software(sw, &mut b)?;
        let stimuli = stimuli(root)?;
        let (definitions, cores) = hardware(root, &mut b.ignored)?;
        let (schedulers, task_scheduler) = os_and_mapping(root, &cores, &mut tasks)?;
        let deadlines = deadlines(root, &mut b.ignored)?;
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

/// The schema version of the model under `root` (from its namespace).
///
/// # Errors
/// Not an Amalthea root, or a version corera does not read.
fn version(root: &Element) -> Result<String, Failure> {
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
    Ok(version)
}

/// A task's allocation: task, scheduler, affinity (cores).
type Allocation = (String, String, Vec<u16>);

/// The software model: labels, runnables, tasks, LET tasks.
struct Software {
    labels: Vec<(String, u64)>,
    runnables: Vec<Runnable>,
    tasks: Vec<TaskDef>,
    lets: Vec<String>,
}

/// The software model `sw`, its runnables and labels indexed in `b`.
fn software<'a>(sw: &'a Element, b: &mut ModelBuilder<'a>) -> Result<Software, Failure> {
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
    let lets: Vec<String> = sw.kids("tasks").filter(|t| chains::is_let(t)).map(|t| t.name_attr().to_string()).collect();
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
    Ok(Software { labels, runnables, tasks, lets })
}

/// The stimuli of the model under `root`, by name.
fn stimuli(root: &Element) -> Result<HashMap<String, Stimulus>, Failure> {
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
                "SingleStimulus" => Stimulus::Single { at: s.kid("occurrence").map(time_ns).transpose()?.unwrap_or(0) },
                "InterProcessStimulus" => Stimulus::InterProcess,
                other => Stimulus::Unsupported(other.to_string()),
            };
            stimuli.insert(s.name_attr().to_string(), stimulus);
        }
    }
    Ok(stimuli)
}

/// The processing-unit definitions and the processing units (cores) of
/// the model under `root`; what it cannot use is counted in `ignored`.
fn hardware(root: &Element, ignored: &mut BTreeMap<String, u64>) -> Result<(Vec<Definition>, Vec<ModelCore>), Failure> {
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
                    *ignored.entry("processing units without a frequency (taken as 1 GHz)".into()).or_default() += 1;
                    1e9
                }
            };
            cores.push(ModelCore { name, definition, frequency_hz, cluster, speed: 1.0 });
        }
    }
    Ok((definitions, cores))
}

/// The task schedulers (with the cores each is responsible for) and each
/// task's allocation (scheduler and affinity) of the model under `root`;
/// a priority given with an allocation goes to its task.
fn os_and_mapping(
    root: &Element,
    cores: &[ModelCore],
    tasks: &mut [TaskDef],
) -> Result<(Vec<ModelScheduler>, Vec<Allocation>), Failure> {
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
                let c =
                    core_index(&r).ok_or_else(|| expected(a.line, "a `responsibility` naming processing units", &r))?;
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
                affinity
                    .push(core_index(&r).ok_or_else(|| expected(a.line, "an `affinity` naming processing units", &r))?);
            }
            if let Some(p) = a.kid("schedulingParameters").and_then(|p| p.attr("priority"))
                && let Some(t) = tasks.iter_mut().find(|t| t.name == task)
            {
                t.priority = Some(p.trim().parse().map_err(|_| expected(a.line, "an integer `priority`", p))?);
            }
            task_scheduler.push((task, scheduler, affinity));
        }
    }
    Ok((schedulers, task_scheduler))
}

/// The response-time requirements of the model under `root`: task,
/// deadline ns; other requirements are counted in `ignored`.
fn deadlines(root: &Element, ignored: &mut BTreeMap<String, u64>) -> Result<Vec<(String, u64)>, Failure> {
    let mut deadlines = Vec::new();
    if let Some(cm) = root.kid("constraintsModel") {
        for r in cm.kids("requirements").filter(|r| r.kind() == "ProcessRequirement") {
            let Some(limit) = r.kid("limit") else { continue };
            if limit.attr("metric") != Some("ResponseTime") || limit.attr("limitType") == Some("LowerLimit") {
                *ignored.entry("requirements other than response-time upper limits".into()).or_default() += 1;
                continue;
            }
            if let Some(v) = limit.kid("limitValue") {
                deadlines.push((reference(r.attr("process").unwrap_or("")), time_ns(v)?));
            }
        }
    }
    Ok(deadlines)
}

impl Model {
    /// Each LET task's logical execution time: its response-time
    /// requirement, else the period of its periodic stimulus (a LET task
    /// with neither is left out).
    pub(super) fn let_intervals(&self) -> Vec<(String, u64)> {
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
    pub(super) fn activity(&mut self, owner: &Element) -> Result<Vec<Step>, Failure> {
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

    pub(super) fn item(&mut self, e: &Element, steps: &mut Vec<Step>) -> Result<(), Failure> {
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
