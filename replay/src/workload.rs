//! Workload descriptions: the tasks a generated trace is made of.
//!
//! A workload is a TOML file (see `samples/printer/workload.toml`):
//!
//! ```toml
//! name = "demo"
//! duration_ms = 100
//! seed = 1
//!
//! [[task]]
//! name = "Sensor"
//! priority = 5
//! period_us = 1000
//! exec_us = [50, 80]
//! actions = [{ at = 0.9, send = "samples", bytes = 16 }]
//!
//! [[task]]
//! name = "Filter"
//! priority = 3
//! trigger = "queue:samples"
//! exec_us = [100, 150]
//! ```
//!
//! Many alike tasks: `count = N` makes N copies of a task, with `{i}` in its
//! name, trigger and actions replaced by 0 .. N-1. An action aimed at
//! `name{0..N}` (a `send` queue or a `notify` target) goes to each of those
//! in turn, one per job that performs it (round robin):
//!
//! ```toml
//! [[task]]
//! name = "Reader"
//! priority = 9
//! period_us = 20
//! exec_us = [4, 5]
//! actions = [{ at = 1.0, send = "raw{0..4}", bytes = 1500 }]
//!
//! [[task]]
//! name = "Worker{i}"
//! count = 4
//! priority = 5
//! trigger = "queue:raw{i}"
//! exec_us = [60, 70]
//! ```

use std::collections::HashMap;

use serde::Deserialize;

/// A described workload.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Short name, written as a comment into generated logs.
    pub name: String,
    /// Simulated time in ms.
    pub duration_ms: u64,
    /// Seed of the execution-time and jitter draws.
    #[serde(default)]
    pub seed: u64,
    /// Timestamp unit of the generated log: `ns` or `us` (default `us`).
    #[serde(default = "default_clock")]
    pub clock: String,
    /// The tasks and ISRs.
    #[serde(rename = "task")]
    pub tasks: Vec<TaskSpec>,
}

fn default_clock() -> String {
    "us".to_string()
}

/// One task or ISR of a workload.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    /// Unique name.
    pub name: String,
    /// Make this many copies, `{i}` in the name, trigger and actions
    /// replaced by the copy's number (0, 1, ...).
    pub count: Option<u32>,
    /// `task` (default) or `isr`. ISRs preempt every task, run to
    /// completion and do not nest (a pending ISR waits for the running one).
    #[serde(default = "default_kind")]
    pub kind: String,
    /// Fixed priority, larger is more urgent. For ISRs it orders pending
    /// ISRs only.
    pub priority: i32,
    /// Release period in µs, for timer-driven tasks.
    pub period_us: Option<u64>,
    /// First release in µs (default 0).
    #[serde(default)]
    pub offset_us: u64,
    /// Release jitter in µs: each release is delayed by a uniform draw in
    /// `0..=jitter_us` (default 0).
    #[serde(default)]
    pub jitter_us: u64,
    /// Event-driven release: `queue:<name>` (one job per message) or
    /// `notify` (one job per notification).
    pub trigger: Option<String>,
    /// Execution time per job in µs, drawn uniformly from `[min, max]`.
    pub exec_us: [u64; 2],
    /// What the job does along its execution.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
}

fn default_kind() -> String {
    "task".to_string()
}

/// Something a job does at a point of its execution.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// Where in the job, as a fraction of its execution time (0 ..= 1).
    pub at: f64,
    /// Only every n-th job does it (default 1: every job).
    #[serde(default = "one")]
    pub every: u32,
    /// Send a message on this queue (`q{0..N}`: on `q0` .. `q{N-1}` in
    /// turn).
    pub send: Option<String>,
    /// Message size in bytes (with `send`).
    pub bytes: Option<u32>,
    /// Notify this task (`T{0..N}`: `T0` .. `T{N-1}` in turn).
    pub notify: Option<String>,
    /// Lock this mutex ...
    pub lock: Option<String>,
    /// ... for this fraction of the job's execution time (with `lock`).
    pub hold: Option<f64>,
}

fn one() -> u32 {
    1
}

/// A workload that cannot be simulated.
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    /// The TOML did not parse or does not match the schema.
    #[error("invalid workload description")]
    Toml(#[from] toml::de::Error),
    /// A semantic problem, naming the task concerned.
    #[error("task `{task}`: {message}")]
    Invalid {
        /// The task concerned.
        task: String,
        /// What is wrong and what is expected.
        message: String,
    },
}

/// How a task is released, resolved from its spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Release {
    Periodic { period_ns: u64, offset_ns: u64, jitter_ns: u64 },
    Queue(usize),
    Notify,
}

/// A job step, resolved to indices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Step {
    Send {
        queue: usize,
        bytes: Option<u32>,
    },
    /// A send to the next queue of round-robin group `group`.
    SendTurn {
        group: usize,
        bytes: Option<u32>,
    },
    Notify(usize),
    /// A notification of the next task of round-robin group `group`.
    NotifyTurn(usize),
    Lock(usize),
    Unlock(usize),
}

/// A job step at a fraction of the job and how often it happens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PlannedStep {
    pub(crate) at: f64,
    pub(crate) every: u32,
    pub(crate) step: Step,
}

/// A workload with names resolved to indices and everything validated.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub(crate) tasks: Vec<ResolvedTask>,
    pub(crate) queues: Vec<String>,
    pub(crate) queue_receiver: Vec<usize>,
    pub(crate) mutexes: Vec<String>,
    /// Round-robin groups: queue indices (for `SendTurn`) or task indices
    /// (for `NotifyTurn`).
    pub(crate) turns: Vec<Vec<usize>>,
}

#[derive(Clone, Debug)]
pub(crate) struct ResolvedTask {
    pub(crate) name: String,
    pub(crate) isr: bool,
    pub(crate) priority: i32,
    pub(crate) release: Release,
    pub(crate) exec_ns: [u64; 2],
    /// Sorted by `at`; an unlock sorts after a lock at the same point.
    pub(crate) steps: Vec<PlannedStep>,
}

impl Workload {
    /// Parses a workload from TOML text.
    ///
    /// # Errors
    /// [`WorkloadError::Toml`] with the line and column of the problem.
    pub fn from_toml(text: &str) -> Result<Workload, WorkloadError> {
        Ok(toml::from_str(text)?)
    }

    /// The tasks with every `count` expanded into its copies.
    fn expanded(&self) -> Result<Vec<TaskSpec>, WorkloadError> {
        let mut tasks = Vec::with_capacity(self.tasks.len());
        for t in &self.tasks {
            let Some(n) = t.count else {
                tasks.push(t.clone());
                continue;
            };
            if n == 0 || !t.name.contains("{i}") {
                return Err(WorkloadError::Invalid {
                    task: t.name.clone(),
                    message: "`count` needs a positive number and `{i}` in the name".into(),
                });
            }
            for i in 0..n {
                let sub = |s: &str| s.replace("{i}", &i.to_string());
                let mut copy = t.clone();
                copy.count = None;
                copy.name = sub(&t.name);
                copy.trigger = t.trigger.as_deref().map(sub);
                for a in &mut copy.actions {
                    for v in [&mut a.send, &mut a.notify, &mut a.lock].into_iter().flatten() {
                        *v = sub(v);
                    }
                }
                tasks.push(copy);
            }
        }
        Ok(tasks)
    }

    pub(crate) fn resolve(&self) -> Result<Resolved, WorkloadError> {
        let expanded = self.expanded()?;
        let mut index = HashMap::new();
        for (i, t) in expanded.iter().enumerate() {
            if index.insert(t.name.as_str(), i).is_some() {
                return Err(invalid(&t.name, "the name is used by two tasks".into()));
            }
            if t.name.trim().is_empty() || t.name.contains(char::is_whitespace) {
                return Err(invalid(&t.name, "a name must be one word".into()));
            }
        }
        if self.clock != "us" && self.clock != "ns" {
            return Err(invalid("-", format!("clock must be `us` or `ns`, not `{}`", self.clock)));
        }
        let mut r = Resolver { tasks_in: &expanded, index, ..Resolver::default() };
        let mut tasks = Vec::new();
        for (i, t) in expanded.iter().enumerate() {
            let isr = match t.kind.as_str() {
                "task" => false,
                "isr" => true,
                other => return Err(invalid(&t.name, format!("kind must be `task` or `isr`, not `{other}`"))),
            };
            if t.exec_us[0] > t.exec_us[1] || t.exec_us[1] == 0 {
                return Err(invalid(&t.name, "exec_us must be [min, max] with 0 <= min <= max and max > 0".into()));
            }
            let release = r.release(t, i)?;
            if isr && !matches!(release, Release::Periodic { .. }) {
                return Err(invalid(&t.name, "an ISR must be periodic (`period_us`)".into()));
            }
            let mut steps = Vec::new();
            for a in &t.actions {
                r.action(t, isr, a, &mut steps)?;
            }
            steps.sort_by(|a, b| a.at.total_cmp(&b.at));
            tasks.push(ResolvedTask {
                name: t.name.clone(),
                isr,
                priority: t.priority,
                release,
                exec_ns: [t.exec_us[0] * 1000, t.exec_us[1] * 1000],
                steps,
            });
        }
        let mut receivers = Vec::new();
        for q in &r.queues {
            match r.queue_receiver.get(q) {
                Some(&receiver) => receivers.push(receiver),
                None => {
                    return Err(invalid("-", format!("queue `{q}` has senders but no task with trigger `queue:{q}`")));
                }
            }
        }
        Ok(Resolved { tasks, queues: r.queues, queue_receiver: receivers, mutexes: r.mutexes, turns: r.turns })
    }
}

/// A [`WorkloadError::Invalid`] of `task`.
fn invalid(task: &str, message: String) -> WorkloadError {
    WorkloadError::Invalid { task: task.to_string(), message }
}

/// What resolving the tasks collects: their names, the queues, mutexes
/// and round-robin groups their actions name, and each queue's receiver.
#[derive(Default)]
struct Resolver<'a> {
    tasks_in: &'a [TaskSpec],
    index: HashMap<&'a str, usize>,
    queues: Vec<String>,
    mutexes: Vec<String>,
    queue_receiver: HashMap<String, usize>,
    turns: Vec<Vec<usize>>,
}

/// The index of `name` in `list`, added when new.
fn intern(list: &mut Vec<String>, name: &str) -> usize {
    match list.iter().position(|q| q == name) {
        Some(i) => i,
        None => {
            list.push(name.to_string());
            list.len() - 1
        }
    }
}

impl Resolver<'_> {
    /// What releases task `t` (the `i`th): its period, a notification, or
    /// its queue (of which it becomes the one receiver).
    fn release(&mut self, t: &TaskSpec, i: usize) -> Result<Release, WorkloadError> {
        Ok(match (t.period_us, t.trigger.as_deref()) {
            (Some(0), _) => return Err(invalid(&t.name, "period_us must be positive".into())),
            (Some(p), None) => {
                Release::Periodic { period_ns: p * 1000, offset_ns: t.offset_us * 1000, jitter_ns: t.jitter_us * 1000 }
            }
            (None, Some("notify")) => Release::Notify,
            (None, Some(trig)) if trig.starts_with("queue:") => {
                let q = &trig["queue:".len()..];
                if let Some(&other) = self.queue_receiver.get(q) {
                    return Err(invalid(
                        &t.name,
                        format!(
                            "queue `{q}` already triggers task `{}`; a queue has one receiver",
                            self.tasks_in[other].name
                        ),
                    ));
                }
                self.queue_receiver.insert(q.to_string(), i);
                Release::Queue(intern(&mut self.queues, q))
            }
            _ => {
                return Err(invalid(
                    &t.name,
                    "needs exactly one of `period_us` or `trigger` (`queue:<name>` or `notify`)".into(),
                ));
            }
        })
    }

    /// The steps action `a` of task `t` adds: a send, a notification
    /// (each to one target, or in turn), or a mutex held for a while.
    fn action(
        &mut self,
        t: &TaskSpec,
        isr: bool,
        a: &ActionSpec,
        steps: &mut Vec<PlannedStep>,
    ) -> Result<(), WorkloadError> {
        if !(0.0..=1.0).contains(&a.at) || a.every == 0 {
            return Err(invalid(&t.name, "an action needs 0 <= at <= 1 and every >= 1".into()));
        }
        let what = [a.send.is_some(), a.notify.is_some(), a.lock.is_some()];
        if what.iter().filter(|b| **b).count() != 1 {
            return Err(invalid(&t.name, "an action does exactly one of `send`, `notify` or `lock`".into()));
        }
        let plan = |step| PlannedStep { at: a.at, every: a.every, step };
        let in_turn = |field: &str| turn_names(field).map_err(|m| invalid(&t.name, m));
        if let Some(q) = &a.send {
            match in_turn(q)? {
                None => steps.push(plan(Step::Send { queue: intern(&mut self.queues, q), bytes: a.bytes })),
                Some(names) => {
                    self.turns.push(names.iter().map(|q| intern(&mut self.queues, q)).collect());
                    steps.push(plan(Step::SendTurn { group: self.turns.len() - 1, bytes: a.bytes }));
                }
            }
        } else if let Some(target) = &a.notify {
            let names = in_turn(target)?;
            let mut group = Vec::new();
            for target in names.as_deref().unwrap_or(std::slice::from_ref(target)) {
                let &target = self
                    .index
                    .get(target.as_str())
                    .ok_or_else(|| invalid(&t.name, format!("notifies unknown task `{target}`")))?;
                if self.tasks_in[target].trigger.as_deref() != Some("notify") {
                    return Err(invalid(
                        &t.name,
                        format!("notifies `{}`, whose trigger is not `notify`", self.tasks_in[target].name),
                    ));
                }
                group.push(target);
            }
            if names.is_some() {
                self.turns.push(group);
                steps.push(plan(Step::NotifyTurn(self.turns.len() - 1)));
            } else {
                steps.push(plan(Step::Notify(group[0])));
            }
        } else if let Some(m) = &a.lock {
            if isr {
                return Err(invalid(&t.name, "an ISR cannot lock a mutex".into()));
            }
            let hold = a.hold.unwrap_or(0.0);
            if !(0.0..=1.0).contains(&(a.at + hold)) {
                return Err(invalid(&t.name, "`at + hold` must not exceed 1".into()));
            }
            let m = intern(&mut self.mutexes, m);
            steps.push(plan(Step::Lock(m)));
            steps.push(PlannedStep { at: a.at + hold, every: a.every, step: Step::Unlock(m) });
        }
        Ok(())
    }
}

/// The names a round-robin target `base{a..b}suffix` stands for, or `None`
/// when `field` names one target.
fn turn_names(field: &str) -> Result<Option<Vec<String>>, String> {
    let Some(open) = field.find('{') else {
        return Ok(None);
    };
    let bad = || format!("`{field}`: a round-robin target is written `name{{FIRST..END}}`, e.g. `raw{{0..8}}`");
    let close = field[open..].find('}').ok_or_else(bad)? + open;
    let (a, b) = field[open + 1..close].split_once("..").ok_or_else(bad)?;
    let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b {
        return Err(bad());
    }
    let (head, tail) = (&field[..open], &field[close + 1..]);
    Ok(Some((a..b).map(|i| format!("{head}{i}{tail}")).collect()))
}
