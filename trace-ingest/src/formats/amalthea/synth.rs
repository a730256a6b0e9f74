//! The synthesis: a model's jobs released by its stimuli over a horizon,
//! each task running its activity in a lane of its own, written as the
//! events a recording would hold.

use std::collections::{BTreeMap, BinaryHeap, HashMap};

use super::model::{Model, Step, Stimulus};
use super::xml::Ticks;
use super::{Failure, MAX_EVENTS, MAX_HORIZON_NS, MAX_JOBS, NAME};
use crate::error::ParseErrorKind;
use crate::model::{Clock, Event, EventKind, NONE, Object, ObjectKind, RunnableUse, Task, TaskKind, Trace};
use crate::system::{DefinitionLoad, ModelCore, ModelInfo, ModelOptions, TicksMode};
use crate::{Parsed, Warning};

/// Where a task's job is in its activity.
#[derive(Clone, Debug, Default)]
pub(super) struct Cursor {
    /// (steps owner: None = the task, Some(r) = runnable r; next step).
    pub(super) frames: Vec<(Option<usize>, usize)>,
}

/// The running state of one task in the synthesis.
#[derive(Clone, Debug, Default)]
pub(super) struct Lane {
    /// Release times of activations not started yet.
    pub(super) queued: std::collections::VecDeque<u64>,
    pub(super) busy: bool,
    pub(super) cursor: Cursor,
    pub(super) waiting: Option<Vec<String>>,
    /// Events set for this task and not cleared.
    pub(super) set: Vec<String>,
    /// Per runnable on the stack: since when it executes.
    pub(super) runnable_since: Vec<(usize, u64)>,
}

impl Model {
    /// The reference definition: the CPU definition with the most units.
    pub(super) fn reference(&self) -> Option<&str> {
        let count = |d: &str| self.cores.iter().filter(|c| c.definition == d).count();
        self.definitions
            .iter()
            .filter(|d| count(&d.name) > 0)
            .max_by_key(|d| (d.pu_type == "CPU", count(&d.name), std::cmp::Reverse(d.name.clone())))
            .map(|d| d.name.as_str())
    }

    pub(super) fn frequency(&self, definition: &str) -> f64 {
        self.cores.iter().find(|c| c.definition == definition).map_or(1e9, |c| c.frequency_hz)
    }

    /// Execution ns of `ticks` on `definition`.
    pub(super) fn exec_on(&self, ticks: &Ticks, definition: &str, mode: TicksMode) -> Option<f64> {
        let v = ticks.on(definition)?;
        let t = match mode {
            TicksMode::Avg => v.avg,
            TicksMode::Upper => v.upper,
        };
        Some(t * 1e9 / self.frequency(definition))
    }

    /// Every `Ticks` a runnable executes (its own, and its callees').
    pub(super) fn ticks_of(&self, steps: &[Step], out: &mut Vec<Ticks>, depth: u32) {
        for s in steps {
            match s {
                Step::Ticks(t) => out.push(t.clone()),
                Step::Call(r) if depth < 16 => self.ticks_of(&self.runnables[*r].steps, out, depth + 1),
                _ => {}
            }
        }
    }

    pub(super) fn synthesise(mut self, options: &ModelOptions) -> Result<Parsed, Failure> {
        let mut warnings = Vec::new();
        let mode = options.ticks;
        let (reference, speeds) = self.set_speeds(mode);
        // Per task: every `Ticks` it executes.
        let task_ticks: Vec<Vec<Ticks>> = self
            .tasks
            .iter()
            .map(|t| {
                let mut v = Vec::new();
                self.ticks_of(&t.steps, &mut v, 0);
                v
            })
            .collect();
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
        let horizon = self.horizon(options, &mut warnings);
        let mut releases = self.releases(horizon)?;
        let trace = self.run(horizon, &exec_ns, &mut releases, &mut warnings)?;
        let (allowed, mapping) = self.hardware(&task_ticks, &mut warnings);
        let definitions = self.definition_loads(&task_ticks, &trace, horizon, mode);
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
        ignored.extend(releases.unsupported);
        if !ignored.is_empty() {
            let list: Vec<String> = ignored.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            warn(&mut warnings, format!("model features corera does not use, ignored: {}", list.join(", ")));
        }
        Ok(Parsed { trace, warnings, source: Default::default(), format: NAME, model: Some(info), notes: Vec::new() })
    }

    /// Each core's speed relative to the reference definition, from the
    /// runnables that have ticks for both; the reference's name and the
    /// speed of every definition.
    fn set_speeds(&mut self, mode: TicksMode) -> (String, HashMap<String, f64>) {
        let reference = self.reference().unwrap_or("").to_string();
        let mut all_ticks = Vec::new();
        for r in &self.runnables {
            self.ticks_of(&r.steps, &mut all_ticks, 0);
        }
        for t in &self.tasks {
            self.ticks_of(&t.steps, &mut all_ticks, 0);
        }
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
        (reference, speeds)
    }

    /// The horizon: the one asked for, else the hyperperiod of the
    /// periodic stimuli, at most [`MAX_HORIZON_NS`] (with a warning).
    fn horizon(&self, options: &ModelOptions, warnings: &mut Vec<Warning>) -> u64 {
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
        match options.horizon_ns {
            Some(h) => h,
            None if hyper > MAX_HORIZON_NS || periods.is_empty() => {
                warn(
                    warnings,
                    format!(
                        "the hyperperiod of the model's periodic stimuli is {}; jobs are generated over {} s (set --horizon)",
                        if periods.is_empty() {
                            "undefined".to_string()
                        } else {
                            format!("{:.3} s", hyper as f64 / 1e9)
                        },
                        MAX_HORIZON_NS / 1_000_000_000
                    ),
                );
                MAX_HORIZON_NS
            }
            None => hyper,
        }
    }

    /// Every timer release over `horizon`, the tasks each inter-process
    /// stimulus activates, and the stimuli corera does not use.
    ///
    /// # Errors
    /// More than [`MAX_JOBS`] periodic releases.
    fn releases(&self, horizon: u64) -> Result<Releases<'_>, Failure> {
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
        let mut out = Releases::default();
        let mut unused = |what: String| *out.unsupported.entry(what).or_default() += 1;
        let mut timed = Vec::new();
        let mut triggered: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in self.tasks.iter().enumerate() {
            if t.stimuli.is_empty() {
                unused("tasks without a stimulus (never released)".into());
            }
            for s in &t.stimuli {
                match self.stimuli.get(s) {
                    Some(Stimulus::Periodic { period, offset }) => {
                        let mut at = *offset;
                        while at < horizon {
                            timed.push((at, i));
                            at += period;
                        }
                    }
                    Some(Stimulus::Single { at }) if *at < horizon => timed.push((*at, i)),
                    Some(Stimulus::Single { .. }) => {}
                    Some(Stimulus::InterProcess) => triggered.entry(s.as_str()).or_default().push(i),
                    Some(Stimulus::Unsupported(kind)) => {
                        unused(format!("{kind} stimuli (their tasks are not released by them)"))
                    }
                    None => unused(format!("stimulus references to undefined stimuli (`{s}`)")),
                }
            }
        }
        out.timed = timed;
        out.triggered = triggered;
        Ok(out)
    }

    /// The recording: each task run in a lane of its own from its
    /// releases until `horizon`, with a warning naming the tasks whose
    /// activations had not started by then.
    ///
    /// # Errors
    /// More than [`MAX_EVENTS`] events.
    fn run(
        &self,
        horizon: u64,
        exec_ns: &dyn Fn(&Ticks) -> u64,
        releases: &mut Releases<'_>,
        warnings: &mut Vec<Warning>,
    ) -> Result<Trace, Failure> {
        let mut trace = Trace::new(Clock::Ns);
        trace.queued_activations = true;
        for (i, t) in self.tasks.iter().enumerate() {
            let task = Task { name: t.name.clone(), kind: TaskKind::Task, priority: t.priority, handle: i as u64 };
            trace.tasks.push(task);
        }
        for (name, _) in &self.labels {
            trace.objects.push(Object { name: name.clone(), kind: ObjectKind::Label });
        }
        let mut event_objects: HashMap<String, u32> = HashMap::new();
        let mut sim = Sim {
            model: self,
            exec_ns,
            lanes: vec![Lane::default(); self.tasks.len()],
            heap: BinaryHeap::new(),
            seq: 0,
            events: Vec::new(),
            label_writer: vec![NONE; self.labels.len()],
            runnable_use: BTreeMap::new(),
            triggered: &releases.triggered,
            event_objects: &mut event_objects,
            objects: &mut trace.objects,
            unknown_triggers: 0,
        };
        for &(at, i) in &releases.timed {
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
            releases
                .unsupported
                .insert("inter-process triggers of stimuli that activate no task".into(), unknown_triggers);
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
            warn(
                warnings,
                format!(
                    "at the {:.3} s horizon some tasks had activations their own core (of the reference definition) \
                     had not started, as earlier jobs were still running or waiting: {}; their load is what ran by the \
                     horizon, the load per core type gives their demand",
                    horizon as f64 / 1e9,
                    behind.join(", ")
                ),
            );
        }
        for ((task, runnable), (calls, exec)) in runnable_use {
            trace.runnables.push(RunnableUse {
                task: task as u32,
                name: self.runnables[runnable].name.clone(),
                calls,
                exec_ns: exec,
            });
        }
        Ok(trace)
    }

    /// Per task, the cores it may run on where not all (those whose
    /// definition every one of its `task_ticks` has a value for, within
    /// its scheduler's), and the model's own mapping.
    fn hardware(&self, task_ticks: &[Vec<Ticks>], warnings: &mut Vec<Warning>) -> (Vec<TaskCores>, Vec<TaskCores>) {
        let core_ids = |pred: &dyn Fn(&ModelCore) -> bool| -> Vec<u16> {
            self.cores.iter().enumerate().filter(|(_, c)| pred(c)).map(|(i, _)| i as u16).collect()
        };
        let runs_on = |i: usize, d: &str| task_ticks[i].iter().all(|t| t.on(d).is_some());
        let mut allowed = Vec::new();
        let mut mapping = Vec::new();
        for (i, t) in self.tasks.iter().enumerate() {
            let mut cores = core_ids(&|c| runs_on(i, &c.definition));
            if cores.is_empty() {
                warn(
                    warnings,
                    format!(
                        "task `{}` (line {}): no processing unit has ticks for all its runnables; it may run anywhere",
                        t.name, t.line
                    ),
                );
                cores = core_ids(&|_| true);
            }
            if let Some((_, scheduler, affinity)) = self.task_scheduler.iter().find(|(task, ..)| *task == t.name) {
                let responsible: Vec<u16> =
                    self.schedulers.iter().find(|s| s.name == *scheduler).map(|s| s.cores.clone()).unwrap_or_default();
                let both: Vec<u16> = cores.iter().copied().filter(|c| responsible.contains(c)).collect();
                if !responsible.is_empty() && both.is_empty() {
                    warn(
                        warnings,
                        format!(
                            "task `{}` is allocated to scheduler `{scheduler}`, whose cores cannot run it; its allocation is ignored",
                            t.name
                        ),
                    );
                } else if !both.is_empty() {
                    cores = both;
                }
                let mapped = self.affinity_within(&t.name, scheduler, affinity, &cores, warnings);
                if !mapped.is_empty() {
                    mapping.push((t.name.clone(), mapped));
                }
            }
            if cores.len() < self.cores.len() {
                allowed.push((t.name.clone(), cores));
            }
        }
        (allowed, mapping)
    }

    /// The cores of task `task`'s `affinity` among the `cores` it may use
    /// under `scheduler` (all of them without an affinity; the first, with
    /// a warning, when none of its affinity is among them).
    fn affinity_within(
        &self,
        task: &str,
        scheduler: &str,
        affinity: &[u16],
        cores: &[u16],
        warnings: &mut Vec<Warning>,
    ) -> Vec<u16> {
        let inside: Vec<u16> = affinity.iter().copied().filter(|c| cores.contains(c)).collect();
        match (affinity.is_empty(), inside.is_empty()) {
            (true, _) => cores.to_vec(),
            (false, false) => inside,
            (false, true) => {
                let names: Vec<&str> = affinity.iter().map(|&a| self.cores[usize::from(a)].name.as_str()).collect();
                warn(
                    warnings,
                    format!(
                        "task `{task}`: its affinity `{}` is not among the cores of scheduler `{scheduler}`; the model's mapping puts it on {}",
                        names.join(" "),
                        self.cores[usize::from(cores[0])].name
                    ),
                );
                vec![cores[0]]
            }
        }
    }

    /// The load the model puts on each kind of processing unit it has:
    /// the demand of the tasks that can run on it, in units of one such
    /// core.
    fn definition_loads(
        &self,
        task_ticks: &[Vec<Ticks>],
        trace: &Trace,
        horizon: u64,
        mode: TicksMode,
    ) -> Vec<DefinitionLoad> {
        let runs_on = |i: usize, d: &str| task_ticks[i].iter().all(|t| t.on(d).is_some());
        let jobs_of =
            |i: usize| trace.events.iter().filter(|e| e.task as usize == i && e.kind == EventKind::Ready).count();
        self.definitions
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
            .collect()
    }
}

/// A task's name and some of the model's cores.
type TaskCores = (String, Vec<u16>);

/// A model's releases over the horizon.
#[derive(Default)]
struct Releases<'a> {
    /// Timer releases: time, task.
    timed: Vec<(u64, usize)>,
    /// The tasks each inter-process stimulus activates.
    triggered: HashMap<&'a str, Vec<usize>>,
    /// Stimuli and triggers corera does not use, counted by kind.
    unsupported: BTreeMap<String, u64>,
}

/// A warning about the model as a whole.
fn warn(warnings: &mut Vec<Warning>, message: String) {
    warnings.push(Warning { line: None, message });
}

/// The error of a model that would release too much (`what`).
fn too_many(what: String) -> Failure {
    (
        1,
        ParseErrorKind::expected(
            format!("at most {MAX_JOBS} jobs and {MAX_EVENTS} events over the horizon (shorten it with --horizon)"),
            &what,
        ),
    )
}

pub(super) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Why a lane is woken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Wake {
    /// A timer release of task i.
    Release(usize),
    /// Task i's current execution step is done.
    Continue(usize),
    /// Task i may start its next queued job.
    Start(usize),
}

/// The synthesis: each task in a lane of its own.
pub(super) struct Sim<'a> {
    pub(super) model: &'a Model,
    pub(super) exec_ns: &'a dyn Fn(&Ticks) -> u64,
    pub(super) lanes: Vec<Lane>,
    pub(super) heap: BinaryHeap<std::cmp::Reverse<(u64, u64, Wake)>>,
    pub(super) seq: u64,
    pub(super) events: Vec<Event>,
    pub(super) label_writer: Vec<u32>,
    pub(super) runnable_use: BTreeMap<(usize, usize), (u64, u64)>,
    pub(super) triggered: &'a HashMap<&'a str, Vec<usize>>,
    pub(super) event_objects: &'a mut HashMap<String, u32>,
    pub(super) objects: &'a mut Vec<Object>,
    pub(super) unknown_triggers: u64,
}

impl Sim<'_> {
    pub(super) fn push(&mut self, at: u64, wake: Wake) {
        self.seq += 1;
        self.heap.push(std::cmp::Reverse((at, self.seq, wake)));
    }

    pub(super) fn emit(&mut self, time: u64, task: usize, kind: EventKind) -> &mut Event {
        self.events.push(Event::new(time, task as u16, kind, task as u32));
        self.events.last_mut().expect("pushed")
    }

    /// Runs to the end; `false` when the events exceed [`MAX_EVENTS`].
    /// Runs to the horizon, where the recording ends: `false` when the
    /// events exceed [`MAX_EVENTS`].
    pub(super) fn run(&mut self, horizon: u64) -> bool {
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
    pub(super) fn close(&mut self, horizon: u64) -> Vec<usize> {
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

    pub(super) fn activate(&mut self, i: usize, now: u64) {
        self.emit(now, i, EventKind::Ready);
        self.lanes[i].queued.push_back(now);
        if !self.lanes[i].busy {
            self.push(now, Wake::Start(i));
        }
    }

    pub(super) fn start(&mut self, i: usize, now: u64) {
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
    pub(super) fn step(&mut self, i: usize, now: u64) {
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
                            let ready = self.emit(now, t, EventKind::Ready);
                            *ready = ready.ending_wait();
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

    pub(super) fn event_object(&mut self, name: &str) -> u32 {
        if let Some(&o) = self.event_objects.get(name) {
            return o;
        }
        let o = self.objects.len() as u32;
        self.objects.push(Object { name: name.to_string(), kind: ObjectKind::Event });
        self.event_objects.insert(name.to_string(), o);
        o
    }
}
