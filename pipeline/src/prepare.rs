//! Preparing: a trace read and turned into a placement problem on a
//! platform, with its deadlines and chains ([`Prepared`]), and the replays
//! every command runs on it (the workload, a set-up, the recording
//! replayed as recorded).

use std::path::Path;

use corera_emit::records::{FidelityRecord, FidelityRow, Input as InputRecord};
use corera_placement::{Chain, Constraints, CoreSet, Deadline, Objective, Platform, Problem};
use corera_replay::{ChainOrigin, Outcome, Policy, Replay};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Parsed, Schedule, Warning};
use corera_tune::Setups;

use crate::error::{Error, Result, usage};
use crate::options::{Input, Options};
use crate::read::{Read, read};

/// A trace read and turned into a placement problem.
pub struct Prepared {
    /// The input's display name.
    pub name: String,
    /// The trace.
    pub parsed: Parsed,
    /// What the trace records each task did: the one job model the task
    /// graph and the replay are computed from.
    pub schedule: Schedule,
    /// Its task graph.
    pub graph: TaskGraph,
    /// The target.
    pub platform: Platform,
    /// The placement problem.
    pub problem: Problem,
    /// Warnings of every step.
    pub warnings: Vec<Warning>,
    /// What placements are judged by.
    pub objective: Objective,
    /// Each trace task's deadline (the user's, else its period), ns.
    pub deadlines: Vec<Option<u64>>,
    /// The cause-effect chains the user or the model names (empty: the
    /// replay's own are discovered).
    pub chains: Vec<(Chain, ChainOrigin)>,
    /// The constraints file's and the command line's constraints, with
    /// the model's deadlines added.
    pub constraints: Constraints,
}

impl Prepared {
    /// The input record.
    pub fn input(&self) -> InputRecord {
        InputRecord::new(&self.name, self.parsed.format, self.parsed.source).with_notes(&self.parsed.notes)
    }

    /// The recording has no ready events: each release was read from the
    /// switches ([`corera_emit::records::RELEASES_CAUTION`]).
    pub fn releases_from_switches(&self) -> bool {
        !self.parsed.trace.records_ready()
    }

    /// The replayable workload, with each task's deadline and the chains
    /// every replay measures: the user's and the model's, else the
    /// heaviest ones in the trace's causes; and a warning for each named
    /// triggered chain the trace never travels.
    ///
    /// # Errors
    /// A chain naming a task the trace does not have (a usage error).
    pub fn workload(&self) -> Result<(Replay, Vec<Warning>)> {
        let mut replay = Replay::new(&self.parsed.trace, &self.schedule, &self.deadlines);
        if self.platform.costs_stated {
            // The platform file's costs are the target's: they charge every wake.
            replay.forget_recorded_wakes();
        }
        replay.set_kernel(&self.platform.kernel)?;
        if let Some(model) = &self.parsed.model {
            replay.set_let(&model.let_tasks);
        }
        if self.chains.is_empty() {
            replay.set_discovered_chains(DISCOVERED_CHAINS);
        } else {
            replay.set_chains(&self.chains)?;
        }
        let warnings = replay
            .chains
            .iter()
            .filter_map(|c| c.why_empty(&replay))
            .map(|message| Warning { line: None, message })
            .collect();
        Ok((replay, warnings))
    }

    /// The set-ups of `workload` under the problem's placements.
    pub fn setups<'a>(&'a self, workload: &'a Replay) -> Setups<'a> {
        Setups { problem: &self.problem, platform: &self.platform, workload }
    }

    /// Replays `workload` under `policy` with a placement of the problem
    /// (and its masks) on `platform`.
    pub fn run(
        &self,
        workload: &Replay,
        platform: &Platform,
        policy: Policy,
        core_of: &[u16],
        masks: Option<&[CoreSet]>,
        timeline: bool,
    ) -> Outcome {
        self.setups(workload).run(platform, policy, core_of, masks, timeline)
    }
}

impl Prepared {
    /// The recording replayed under its own placement (each task on the
    /// cores it ran on; AMP, or masks where a task migrated) against the
    /// recording, per task. Without `given_platform` the replay runs on the
    /// recorded cores, else on the given platform's cores under the kernel
    /// rules it states. Unless that platform states its costs
    /// ([`Platform::costs_stated`]), the replay charges no modelled
    /// overhead (the recording holds them) but the recorded wakes onto an
    /// idle core (local and cross-core, by
    /// [`corera_trace_ingest::CrossCoreWake::charged_ns`]), context switch
    /// and yield. The replay itself comes with it, with its timeline when
    /// `timeline` asks for one.
    ///
    /// # Errors
    /// A platform with fewer cores than the recording used.
    pub fn as_recorded(
        &self,
        workload: &Replay,
        given_platform: bool,
        timeline: bool,
    ) -> Result<(FidelityRecord, Outcome)> {
        let cores = self.schedule.cores.max(1);
        let wake = self.parsed.trace.cross_core_wake(!workload.rules.multiple_priorities);
        let mut platform = if given_platform { self.platform.clone() } else { Platform::identical(cores as u16) };
        if !platform.costs_stated {
            platform.costs = corera_placement::Costs::none();
            platform.costs.dispatch_ns = charged(self.parsed.trace.local_wake());
            platform.costs.context_switch_ns = charged(self.parsed.trace.context_switch());
            platform.costs.yield_ns = steady_yield(&self.parsed.trace);
            // What a cross-core wake took in the recording delays each
            // cross-core signal, by the rule of the local one.
            if let Some(w) = wake {
                platform.costs.message_latency_ns = w.charged_ns();
            }
        }
        if platform.cores < cores as u16 {
            return Err(usage(format!(
                "--as-recorded: the recording used {cores} cores; the platform has {}",
                platform.cores
            )));
        }
        // The cores each task ran on; one whose every job took no time
        // (an Amalthea task with no work, a switch-in and out at one
        // instant) on the cores it was switched in on; every lane of a
        // scheduler whose lanes those are (which lane ran it is the
        // reader's choice, not the recording's).
        let used: Vec<CoreSet> = self
            .problem
            .task_ids
            .iter()
            .map(|&id| {
                let mut cores: Vec<u16> = self.schedule.tasks[id as usize].running.iter().map(|s| s.core).collect();
                if cores.is_empty() {
                    cores = self.parsed.trace.switched_in_on(id);
                }
                let set: CoreSet = self.parsed.trace.lanes_of(&cores).into_iter().collect();
                if set.is_empty() { CoreSet::one(0) } else { set }
            })
            .collect();
        let core_of: Vec<u16> = used.iter().map(|s| s.iter().next().unwrap_or(0)).collect();
        let floats = used.iter().any(|s| s.len() > 1);
        let policy = if floats { Policy::Masks } else { Policy::Amp };
        let o = self.run(workload, &platform, policy, &core_of, floats.then_some(used.as_slice()), timeline);
        let slot_of = |id: u32| self.problem.task_ids.iter().position(|&t| t == id);
        let tasks = workload
            .tasks
            .iter()
            .zip(&o.tasks)
            .map(|(w, r)| {
                let g = &self.graph.tasks[w.id as usize];
                let jobs = &self.schedule.tasks[w.id as usize].jobs;
                let mut why = Vec::new();
                let across = jobs.iter().filter(|j| j.spans_gap).count();
                if across > 0 {
                    why.push(format!("{across} of its {} jobs span a gap of the recording", jobs.len()));
                }
                match g.priority_source {
                    corera_trace_ingest::PrioritySource::Inferred => why.push("priority inferred".to_string()),
                    corera_trace_ingest::PrioritySource::Assumed => why.push("priority assumed".to_string()),
                    _ => {}
                }
                FidelityRow {
                    task: w.name.clone(),
                    cores: slot_of(w.id).map_or_else(Vec::new, |i| used[i].iter().collect()),
                    recorded_running_ns: g.running_ns,
                    replayed_running_ns: r.running_ns.saturating_sub(r.context_switch_ns),
                    recorded_ready_ns: w.comparable_ready_ns(),
                    replayed_ready_ns: r.ready_ns,
                    recorded_response_mean_ns: g.response_mean_ns,
                    replayed_response_mean_ns: r.response_mean_ns,
                    why,
                }
            })
            .collect();
        let record = FidelityRecord {
            schema_version: corera_emit::records::SCHEMA_VERSION,
            corera_version: corera_emit::VERSION.to_string(),
            input: self.input(),
            platform,
            policy,
            tasks,
            chains: corera_emit::records::ChainRecord::of(workload),
            replayed_chains: o.chains.clone(),
            rules: Some(workload.rules.clone()),
            releases_from_switches: self.releases_from_switches(),
            cross_core_wake: wake,
            local_wake: self.parsed.trace.local_wake(),
            context_switch: self.parsed.trace.context_switch(),
            // Only a kernel that runs one priority at a time asks for yields.
            yield_latency: (!workload.rules.multiple_priorities)
                .then(|| self.parsed.trace.priorities_at_once().and_then(|p| p.yields))
                .flatten(),
        };
        Ok((record, o))
    }
}

/// What a replay charges for a recorded delay
/// ([`corera_trace_ingest::CrossCoreWake::charged_ns`]), if anything: the
/// dispatch onto an idle core (a kernel whose tick and switch handlers the
/// recording does not show, an idle state's exit) for every local release,
/// the context switch for every switch from one task to another.
fn charged(recorded: Option<corera_trace_ingest::CrossCoreWake>) -> Option<u64> {
    recorded.map(|w| w.charged_ns()).filter(|&ns| ns > 0)
}

/// The recorded time a core took to yield to a higher priority made ready
/// on another core, when it is one steady time: what each such yield in a
/// replay takes (`yield_ns`). The upper quartile, not the median: the
/// recorded spans end at the yield, so the work the lower task did in
/// them is as long as the yield was, and a replay charging less than the
/// longer ones cuts that work short and leaves its tail to wait a whole
/// job of the higher priority.
fn steady_yield(trace: &corera_trace_ingest::Trace) -> Option<u64> {
    trace.priorities_at_once().and_then(|p| p.yields).filter(|w| w.is_steady()).map(|w| w.p75_ns)
}

/// Chains discovered in the trace that every replay measures when the
/// user and the model name none.
pub const DISCOVERED_CHAINS: usize = 3;

/// Global SMP within pins and allowed cores, as masks; `None` when that is
/// plain global SMP ([`Problem::smp_masks`]).
pub fn constrained_smp(p: &Prepared) -> Option<Vec<CoreSet>> {
    let (masks, narrowed) = p.problem.smp_masks(p.platform.cores);
    narrowed.then_some(masks)
}

/// Runs ingest → graph → problem (no search).
pub fn prepare(input: &Input, place: &Options) -> Result<Prepared> {
    let observer = place.observer();
    let mut constraints = constraints(place)?;
    constraints.priority.extend(input.priority.iter().cloned());
    let Read { name, parsed, schedule, graph, mut warnings } = read(input, &constraints.priority, observer.as_ref())?;
    let mut platform = platform(place)?;
    // The cores a model's hardware lets each task use: as hard as a pin,
    // but an overload they alone cause is the workload's (reported by the
    // search), not a conflict among the user's constraints.
    let mut hardware: &[(String, Vec<u16>)] = &[];
    if let Some(model) = &parsed.model {
        // The model's hardware, unless --platform names another; its
        // allowed cores only make sense on it.
        if place.platform.is_none() {
            platform = Platform::of_model(model).map_err(|e| usage(e.to_string()))?;
            if let Some(balance) = place.balance {
                platform.balance_tolerance = balance;
            }
            hardware = &model.allowed;
        } else if !model.allowed.is_empty() {
            warnings.push(Warning {
                line: None,
                message: format!(
                    "--platform replaces the model's hardware: the cores the model allows {} tasks are not applied",
                    model.allowed.len()
                ),
            });
        }
        for (task, ns) in &model.deadlines {
            if !constraints.deadline.iter().any(|d| d.task == *task) {
                constraints.deadline.push(Deadline { task: task.clone(), ms: *ns as f64 / 1e6 });
            }
        }
    }
    if platform.costs.context_switch_ns.is_none() {
        platform.costs.context_switch_ns = charged(parsed.trace.context_switch());
    }
    if platform.costs.dispatch_ns.is_none() {
        platform.costs.dispatch_ns = charged(parsed.trace.local_wake());
    }
    if platform.costs.yield_ns.is_none() {
        platform.costs.yield_ns = steady_yield(&parsed.trace);
    }
    let mut problem = Problem::from_graph(&graph, &platform, &constraints)?;
    problem.restrict_to_hardware(hardware, platform.cores)?;
    if problem.is_empty() {
        return Err(usage(format!("`{name}` has no tasks to place (only idle tasks or no events)")));
    }
    let objective = place.objective.or(constraints.objective).unwrap_or_default();
    let mut deadlines: Vec<Option<u64>> = graph.tasks.iter().map(|t| t.period_ns).collect();
    for d in &constraints.deadline {
        let Some(id) = graph.tasks.iter().position(|t| t.name == d.task) else {
            return Err(usage(format!(
                "--deadline {}={}: there is no task `{}` in the trace; `corera graph TRACE` lists the task names",
                d.task, d.ms, d.task
            )));
        };
        deadlines[id] = Some(d.ns());
    }
    observer.finish();
    let mut chains: Vec<(Chain, ChainOrigin)> =
        constraints.chains.iter().map(|c| (c.clone(), ChainOrigin::User)).collect();
    if let Some(model) = &parsed.model {
        chains.extend(model.chains.iter().map(|c| (Chain::from(c), ChainOrigin::Model)));
    }
    Ok(Prepared {
        name,
        parsed,
        schedule,
        graph,
        platform,
        problem,
        warnings,
        objective,
        deadlines,
        chains,
        constraints,
    })
}

/// The constraints file's constraints, with `options.constraints` added.
pub fn constraints(options: &Options) -> Result<Constraints> {
    let mut constraints = match &options.constraints_file {
        Some(path) => {
            let text = read_file(path, "read constraints file")?;
            Constraints::from_toml(&text)
                .map_err(|source| Error::Constraints { path: path.display().to_string(), source })?
        }
        None => Constraints::default(),
    };
    constraints.extend(options.constraints.clone());
    Ok(constraints)
}

/// The text of input file `path`, or an [`Error::Open`] saying `what`.
fn read_file(path: &Path, what: &'static str) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Open { what, path: path.display().to_string(), source })
}

/// The platform `options` describe.
pub fn platform(options: &Options) -> Result<Platform> {
    let mut platform = match &options.platform {
        Some(file) if file.ends_with(".toml") => {
            let text = read_file(Path::new(file), "read platform file")?;
            Platform::from_toml(&text).map_err(|source| Error::Platform { spec: file.clone(), source })?
        }
        Some(spec) => Platform::parse(spec).map_err(|source| Error::Platform { spec: spec.clone(), source })?,
        None => Platform::identical(options.cores),
    };
    if let Some(balance) = options.balance {
        if !(0.0..=10.0).contains(&balance) {
            return Err(usage(format!("--balance {balance} is out of range; use a fraction such as 0.1 (10 %)")));
        }
        platform.balance_tolerance = balance;
    }
    Ok(platform)
}

/// Reads a placement file (any record with a `placement`) into a core per
/// task of `problem`, and the masks when some task has several `cores`.
pub fn read_placement(file: &Path, problem: &Problem, platform: &Platform) -> Result<(Vec<u16>, Option<Vec<CoreSet>>)> {
    let text = read_file(file, "read placement file")?;
    let bad = |what: String| usage(format!("placement file `{}`: {what}", file.display()));
    let list = corera_emit::read_placement(&text).map_err(|e| bad(e.to_string()))?;
    let mut core_of: Vec<Option<u16>> = vec![None; problem.len()];
    let mut masks: Vec<CoreSet> = vec![CoreSet::new(); problem.len()];
    for entry in list {
        let i = problem
            .names
            .iter()
            .position(|n| *n == entry.task)
            .ok_or_else(|| bad(format!("no task `{}` in the trace", entry.task)))?;
        let set: CoreSet =
            if entry.cores.is_empty() { CoreSet::one(entry.core) } else { entry.cores.iter().copied().collect() };
        if let Some(c) = set.iter().chain([entry.core]).find(|&c| c >= platform.cores) {
            return Err(bad(format!("`{}` is on core {c}; the platform has {} cores", entry.task, platform.cores)));
        }
        if !set.contains(entry.core) {
            return Err(bad(format!("`{}`: `core` {} is not among its `cores` [{set}]", entry.task, entry.core)));
        }
        core_of[i] = Some(entry.core);
        masks[i] = set;
    }
    let missing: Vec<&str> =
        (0..problem.len()).filter(|&i| core_of[i].is_none()).map(|i| problem.names[i].as_str()).collect();
    if !missing.is_empty() {
        return Err(bad(format!("no core for {}", missing.join(", "))));
    }
    let floats = masks.iter().any(|m| m.len() > 1);
    Ok((core_of.into_iter().map(|c| c.unwrap_or(0)).collect(), floats.then_some(masks)))
}
