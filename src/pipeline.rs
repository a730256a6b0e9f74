//! The pipeline stages as the subcommands use them, with progress display.

use std::io::{BufRead, BufReader, IsTerminal};
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use corera_emit::records::{Analysis, Fidelity, FidelityRecord, FidelityRow, Input, Results};
use corera_placement::{Chain, Constraints, CoreSet, Cost, Deadline, Objective, Placement, Platform, Problem};
use corera_replay::{ChainOrigin, Outcome, Policy, Replay};
use corera_search::{Note, Options, Solution};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Parsed, ReadOptions, Schedule, TraceSummary, Warning};
use corera_tune::{BreakEven, Setups, TimingInput, TimingOptions, TimingSolution};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{InputArgs, PlaceArgs};
use crate::exit::{Usage, usage};

/// A spinner on stderr for steps that take longer than a moment; hidden
/// with `-q` or when stderr is not a terminal.
pub(crate) struct Progress(ProgressBar, std::cell::RefCell<Option<(String, std::time::Instant)>>);

impl Progress {
    pub(crate) fn new(quiet: bool) -> Progress {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        };
        Progress(bar, std::cell::RefCell::new(None))
    }

    pub(crate) fn step(&self, msg: &'static str) {
        self.report();
        self.0.set_message(msg);
        if crate::style::verbose() {
            *self.1.borrow_mut() = Some((msg.to_string(), std::time::Instant::now()));
        }
    }

    pub(crate) fn finish(&self) {
        self.report();
        self.0.finish_and_clear();
    }

    /// With `-v`: the step that just ended and its duration.
    fn report(&self) {
        if let Some((step, since)) = self.1.borrow_mut().take() {
            self.0.suspend(|| eprintln!("corera: {step}: {:.3} s", since.elapsed().as_secs_f64()));
        }
    }
}

/// The input's display name: its file name (names joined by `+` for one
/// file per core), or `<stdin>`.
pub(crate) fn input_name(input: &InputArgs) -> String {
    let name = |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    match &input.input {
        Some(p) if p.as_os_str() != "-" => {
            std::iter::once(name(p)).chain(input.more.iter().map(|m| name(m))).collect::<Vec<_>>().join("+")
        }
        _ => "<stdin>".to_string(),
    }
}

/// Reads the trace named by `input` (a file, or stdin).
pub(crate) fn ingest(input: &InputArgs) -> anyhow::Result<Parsed> {
    let path = input.input.as_deref().map(corera_trace_ingest::input_file);
    let mut reader: Box<dyn BufRead> = match &path {
        Some(p) if p.as_os_str() != "-" => {
            let file =
                std::fs::File::open(p).with_context(|| Usage(format!("could not open trace `{}`", p.display())))?;
            Box::new(BufReader::with_capacity(256 * 1024, file))
        }
        _ => Box::new(BufReader::with_capacity(256 * 1024, std::io::stdin().lock())),
    };
    // Messages name the file as the user gave it, so editors can jump there.
    let shown = match &path {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "<stdin>".to_string(),
    };
    let mut options = ReadOptions::new(&shown);
    options.lenient = input.lenient;
    options.filter.pids = input.pid.clone();
    options.filter.tgids = input.tgid.clone();
    options.filter.comm = input.comm.clone();
    options.model.horizon_ns = input.horizon;
    options.model.ticks = input.ticks;
    options.sysview_desc = input.sysview_desc.clone();
    options.psf_printf_event = input.psf_printf_id;
    if !input.more.is_empty() {
        let mut files = vec![(shown, reader)];
        for p in &input.more {
            let file =
                std::fs::File::open(p).with_context(|| Usage(format!("could not open trace `{}`", p.display())))?;
            files.push((
                p.display().to_string(),
                Box::new(BufReader::with_capacity(256 * 1024, file)) as Box<dyn BufRead>,
            ));
        }
        return Ok(corera_trace_ingest::read_per_core(files, input.format, &options)?);
    }
    Ok(corera_trace_ingest::read(&mut reader, input.format, &options)?)
}

/// Prints warnings to stderr, naming the input.
pub(crate) fn warn(quiet: bool, input: &str, warnings: &[Warning]) {
    if quiet {
        return;
    }
    const SHOWN: usize = 20;
    for w in warnings.iter().take(SHOWN) {
        if w.line > 0 {
            eprintln!("{} {input}:{}: {}", crate::style::warning(), w.line, w.message);
        } else {
            eprintln!("{} {input}: {}", crate::style::warning(), w.message);
        }
    }
    if warnings.len() > SHOWN {
        eprintln!("{} {} more warnings not shown", crate::style::warning(), warnings.len() - SHOWN);
    }
}

/// A trace read and turned into a placement problem.
pub(crate) struct Prepared {
    pub(crate) name: String,
    pub(crate) parsed: Parsed,
    /// What the trace records each task did: the one job model the task
    /// graph and the replay are computed from.
    pub(crate) schedule: Schedule,
    pub(crate) graph: TaskGraph,
    pub(crate) platform: Platform,
    pub(crate) problem: Problem,
    pub(crate) warnings: Vec<Warning>,
    /// What placements are judged by.
    pub(crate) objective: Objective,
    /// Each trace task's deadline (the user's, else its period), ns.
    pub(crate) deadlines: Vec<Option<u64>>,
    /// The cause-effect chains the user or the model names (empty: the
    /// replay's own are discovered).
    pub(crate) chains: Vec<(Chain, ChainOrigin)>,
    /// The constraints file's and the command line's constraints, with
    /// the model's deadlines added.
    pub(crate) constraints: Constraints,
}

impl Prepared {
    /// The input record.
    pub(crate) fn input(&self) -> Input {
        Input::new(&self.name, self.parsed.format, self.parsed.source).with_notes(&self.parsed.notes)
    }

    /// The replayable workload, with each task's deadline and the chains
    /// every replay measures: the user's and the model's, else the
    /// heaviest ones in the trace's causes; and a warning for each named
    /// triggered chain the trace never travels.
    ///
    /// # Errors
    /// A chain naming a task the trace does not have (a usage error).
    pub(crate) fn workload(&self) -> anyhow::Result<(Replay, Vec<Warning>)> {
        let mut replay = Replay::new(&self.parsed.trace, &self.schedule, &self.deadlines);
        replay.set_kernel(&self.platform.kernel).map_err(usage)?;
        if let Some(model) = &self.parsed.model {
            replay.set_let(&model.let_tasks);
        }
        if self.chains.is_empty() {
            replay.set_discovered_chains(DISCOVERED_CHAINS);
        } else {
            replay.set_chains(&self.chains).map_err(usage)?;
        }
        let warnings = replay
            .chains
            .iter()
            .filter_map(|c| c.why_empty(&replay))
            .map(|message| Warning { line: 0, message })
            .collect();
        Ok((replay, warnings))
    }

    /// The set-ups of `workload` under the problem's placements.
    pub(crate) fn setups<'a>(&'a self, workload: &'a Replay) -> Setups<'a> {
        Setups { problem: &self.problem, platform: &self.platform, workload }
    }

    /// Replays `workload` under `policy` with a placement of the problem
    /// (and its masks) on `platform`.
    pub(crate) fn run(
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
    /// recorded cores with no modelled overhead but the recorded steady
    /// cross-core wake.
    ///
    /// # Errors
    /// A platform with fewer cores than the recording used.
    pub(crate) fn as_recorded(&self, workload: &Replay, given_platform: bool) -> anyhow::Result<FidelityRecord> {
        let cores = self.schedule.cores.max(1);
        let wake = self.parsed.trace.cross_core_wake();
        let platform = if given_platform {
            self.platform.clone()
        } else {
            let mut platform = Platform::identical(cores as u16);
            platform.costs = corera_placement::Costs::none();
            platform.costs.dispatch_ns = steady_local_wake(&self.parsed.trace);
            // What a cross-core wake took in the recording, when it took
            // one steady time, delays each cross-core signal.
            if let Some(w) = wake.filter(|w| w.is_steady()) {
                platform.costs.message_latency_ns = w.median_ns;
            }
            platform
        };
        if platform.cores < cores as u16 {
            return Err(usage(format!(
                "--as-recorded: the recording used {cores} cores; the platform has {}",
                platform.cores
            )));
        }
        // The cores each task ran on.
        let used: Vec<CoreSet> = self
            .problem
            .task_ids
            .iter()
            .map(|&id| {
                let set: CoreSet = self.schedule.tasks[id as usize].running.iter().map(|s| s.core).collect();
                if set.is_empty() { CoreSet::one(0) } else { set }
            })
            .collect();
        let core_of: Vec<u16> = used.iter().map(|s| s.iter().next().unwrap_or(0)).collect();
        let floats = used.iter().any(|s| s.len() > 1);
        let policy = if floats { Policy::Masks } else { Policy::Amp };
        let o = self.run(workload, &platform, policy, &core_of, floats.then_some(used.as_slice()), false);
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
                    replayed_running_ns: r.running_ns,
                    recorded_ready_ns: w.comparable_ready_ns(),
                    replayed_ready_ns: r.ready_ns,
                    recorded_response_mean_ns: g.response_mean_ns,
                    replayed_response_mean_ns: r.response_mean_ns,
                    why,
                }
            })
            .collect();
        Ok(FidelityRecord {
            schema_version: corera_emit::records::SCHEMA_VERSION,
            corera_version: corera_emit::VERSION.to_string(),
            input: self.input(),
            platform,
            policy,
            tasks,
            chains: corera_emit::records::ChainRecord::of(workload),
            replayed_chains: o.chains.clone(),
            rules: Some(workload.rules.clone()),
            cross_core_wake: wake,
            local_wake: self.parsed.trace.local_wake(),
        })
    }
}

/// The recorded dispatch delay onto an idle core, when it is one steady
/// time (a kernel whose tick and switch handlers the recording does not
/// show): every local release in a replay takes as long.
fn steady_local_wake(trace: &corera_trace_ingest::Trace) -> Option<u64> {
    trace.local_wake().filter(|w| w.is_steady() && w.median_ns > 0).map(|w| w.median_ns)
}

/// Chains discovered in the trace that every replay measures when the
/// user and the model name none.
pub(crate) const DISCOVERED_CHAINS: usize = 3;

/// Everything the pipeline produced for one trace.
pub(crate) struct Analyzed {
    pub(crate) prepared: Prepared,
    pub(crate) summary: TraceSummary,
    /// The traffic search.
    pub(crate) solution: Solution,
    /// The timing search (timing objectives).
    pub(crate) timing: Option<TimingSolution>,
    pub(crate) break_even: Option<BreakEven>,
    /// The recommended placement and its masks.
    pub(crate) placement: Vec<u16>,
    pub(crate) masks: Option<Vec<CoreSet>>,
    /// The cost of the recommended placement.
    pub(crate) cost: Cost,
    /// The replays, labelled, with their timelines.
    pub(crate) replay: Vec<(String, Outcome)>,
    /// The workload the replays ran.
    pub(crate) workload: Replay,
    /// Its task names.
    pub(crate) replay_names: Vec<String>,
    /// For a model input: the model's own mapping (each placed task's
    /// core, and its cores where it may float) and its cost, when it maps
    /// every task.
    pub(crate) model_mapping: Option<ModelMapping>,
    /// How well the replay reproduces the recording.
    pub(crate) fidelity: Fidelity,
}

impl Analyzed {
    /// The parts the records are built from.
    pub(crate) fn results(&self) -> Results<'_> {
        let p = &self.prepared;
        Results {
            input: p.input(),
            trace: &self.summary,
            graph: &p.graph,
            platform: &p.platform,
            problem: &p.problem,
            solution: &self.solution,
            objective: p.objective,
            placement: &self.placement,
            masks: self.masks.as_deref(),
            timing: self.timing.as_ref(),
            break_even: self.break_even.as_ref(),
            cost: &self.cost,
            warnings: &p.warnings,
            replay: &self.replay,
            replay_tasks: &self.replay_names,
            chains: corera_emit::records::ChainRecord::of(&self.workload),
            rules: Some(&self.workload.rules),
            fidelity: Some(self.fidelity.clone()),
            recording: Some((&p.schedule, &self.workload)),
            model: p
                .parsed
                .model
                .as_ref()
                .map(|m| (m, self.model_mapping.as_ref().map(|x| (x.core_of.as_slice(), x.masks.as_deref(), &x.cost)))),
        }
    }

    /// The analysis record.
    pub(crate) fn analysis(&self) -> Analysis {
        Analysis::new(&self.results())
    }
}

/// Runs ingest → graph → place (traffic, then timing) → replay.
/// `masks`: also search affinity masks.
pub(crate) fn analyze(input: &InputArgs, place: &PlaceArgs, masks: bool, quiet: bool) -> anyhow::Result<Analyzed> {
    let mut prepared = prepare(input, place, quiet)?;
    let (workload, chain_warnings) = prepared.workload()?;
    prepared.warnings.extend(chain_warnings);
    if prepared.objective == Objective::Chains && workload.chains.is_empty() {
        return Err(usage(format!(
            "--objective chains: `{}` has no cause-effect chain to optimise (none named, none found in its causes); \
             name one with --chain NAME=A>B>C",
            prepared.name
        )));
    }
    // The recording replayed as recorded first: what every comparison
    // below is worth.
    let fidelity = Fidelity::of(&prepared.as_recorded(&workload, false)?);
    let mut chosen = None;
    if let Some(weight) = place.balance_weight {
        let front = pareto(&prepared.problem, &prepared.platform, place, quiet)?;
        let i = corera_search::weighted_choice(&front, prepared.problem.total_traffic(), weight);
        prepared.platform.balance_tolerance = front[i].balance_tolerance;
        chosen = Some(Note::BalanceChosen { tolerance: front[i].balance_tolerance, weight, front: front.len() });
    }
    let mut solution = search(&prepared.problem, &prepared.platform, place, quiet)?;
    solution.notes.extend(chosen);
    let summary = TraceSummary::of(&prepared.parsed.trace);
    let (timing, break_even) = if prepared.objective.is_timing() && !prepared.problem.is_empty() {
        let (t, b) = timing(&prepared, &workload, &solution, place, masks, quiet)?;
        (Some(t), Some(b))
    } else {
        (None, None)
    };
    let (placement, masks, choice) = match &timing {
        Some(t) => {
            let (best, choice, _) = t.recommendation(prepared.objective);
            (best.core_of.clone(), (choice != Policy::Amp).then(|| best.masks.clone()).flatten(), Some(choice))
        }
        None => (solution.placement.core_of.clone(), None, None),
    };
    let cost = Cost::of(&prepared.problem, &prepared.platform, &Placement::new(placement.clone()));
    let progress = Progress::new(quiet);
    progress.step("replaying the trace under each set-up");
    let mut runs = prepared.setups(&workload).report(
        &solution.placement.core_of,
        timing.as_ref().zip(choice),
        &placement,
        masks.as_deref(),
    );
    let model_mapping = model_mapping(&prepared);
    if let Some(m) = &model_mapping {
        let policy = if m.masks.is_some() { Policy::Masks } else { Policy::Amp };
        let o = prepared.run(&workload, &prepared.platform, policy, &m.core_of, m.masks.as_deref(), true);
        let label = if m.masks.is_some() { "masks, the model's mapping" } else { "AMP, the model's mapping" };
        // Before the recommendation, which stays the last run.
        runs.insert(runs.len().saturating_sub(1), (label.to_string(), o));
    }
    progress.finish();
    let replay_names = workload.tasks.iter().map(|t| t.name.clone()).collect();
    Ok(Analyzed {
        prepared,
        summary,
        solution,
        timing,
        break_even,
        placement,
        masks,
        cost,
        replay: runs,
        workload,
        replay_names,
        model_mapping,
        fidelity,
    })
}

/// A model's own mapping of the placed tasks.
pub(crate) struct ModelMapping {
    pub(crate) core_of: Vec<u16>,
    pub(crate) masks: Option<Vec<CoreSet>>,
    pub(crate) cost: Cost,
}

/// A model's own mapping of the placed tasks, and its cost
/// ([`Problem::given_mapping`]); `None` when the model leaves a task
/// unmapped or `--platform` replaced its hardware.
fn model_mapping(p: &Prepared) -> Option<ModelMapping> {
    let model = p.parsed.model.as_ref()?;
    if model.cores.len() != usize::from(p.platform.cores) || model.mapping.is_empty() {
        return None;
    }
    let sets = p.problem.given_mapping(&model.mapping)?;
    let core_of: Vec<u16> = sets.iter().map(|s| s.iter().next().unwrap_or(0)).collect();
    let cost = Cost::of(&p.problem, &p.platform, &Placement::new(core_of.clone()));
    let masks = sets.iter().any(|s| s.len() > 1).then_some(sets);
    Some(ModelMapping { core_of, masks, cost })
}

/// The timing search with a progress bar, and the break-even of its
/// recommendation.
fn timing(
    prepared: &Prepared,
    workload: &Replay,
    traffic: &Solution,
    place: &PlaceArgs,
    masks: bool,
    quiet: bool,
) -> anyhow::Result<(TimingSolution, BreakEven)> {
    let progress = Progress::new(quiet);
    progress.step("replaying candidate placements");
    let mut input = TimingInput::new(&prepared.problem, &prepared.platform, prepared.objective, workload, traffic);
    // A model's own strict mapping is one more place to start from.
    if let Some(m) = model_mapping(prepared).filter(|m| m.masks.is_none()) {
        input.given.push(m.core_of);
    }
    let mut options = TimingOptions::default();
    options.budget = place.replay_budget;
    options.seed = place.seed;
    options.masks = masks;
    options.time_limit = place.time_limit;
    options.balance = place.balance.is_some();
    let bar = progress.0.clone();
    options.progress = Some(corera_tune::TuneProgress(std::sync::Arc::new(move |done, budget, best| {
        bar.set_message(format!("replaying candidate placements: {done} of {budget} replays, best {best}"));
    })));
    let solution = corera_tune::tune(&input, &options)?;
    progress.step("finding the break-even cost");
    let (best, choice, _) = solution.recommendation(prepared.objective);
    // The rival: global SMP, or the best strict placement when the
    // recommendation is global SMP.
    let rival = if choice == Policy::Smp {
        (&solution.strict, "the best strict placement")
    } else {
        (&solution.smp, "global SMP")
    };
    let break_even = corera_tune::break_even(&input, best, rival, "migration_ns");
    progress.finish();
    Ok((solution, break_even))
}

/// Global SMP within pins and allowed cores, as masks; `None` when that is
/// plain global SMP ([`Problem::smp_masks`]).
pub(crate) fn constrained_smp(p: &Prepared) -> Option<Vec<CoreSet>> {
    let (masks, narrowed) = p.problem.smp_masks(p.platform.cores);
    narrowed.then_some(masks)
}

/// Runs ingest → graph → problem (no search).
pub(crate) fn prepare(input: &InputArgs, place: &PlaceArgs, quiet: bool) -> anyhow::Result<Prepared> {
    let progress = Progress::new(quiet);
    let mut constraints = constraints(place)?;
    constraints.priority.extend(input.priority.iter().cloned());
    let Read { name, parsed, schedule, graph, mut warnings } = read(input, &constraints.priority, &progress)?;
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
                line: 0,
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
    if platform.costs.dispatch_ns.is_none() {
        platform.costs.dispatch_ns = steady_local_wake(&parsed.trace);
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
    progress.finish();
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

/// A trace read, its priorities resolved, its task graph built.
pub(crate) struct Read {
    pub(crate) name: String,
    pub(crate) parsed: Parsed,
    pub(crate) schedule: Schedule,
    pub(crate) graph: TaskGraph,
    pub(crate) warnings: Vec<Warning>,
}

/// Runs ingest → schedule → priorities → task graph. `priorities` are the
/// user's, applied last.
pub(crate) fn read(
    input: &InputArgs,
    priorities: &[corera_trace_ingest::PriorityOverride],
    progress: &Progress,
) -> anyhow::Result<Read> {
    progress.step("reading trace");
    let mut parsed = ingest(input)?;
    let name = input_name(input);
    progress.step("building task graph");
    let schedule = Schedule::of(&parsed.trace);
    let resolved = corera_trace_ingest::priority::resolve(&mut parsed.trace, &schedule, priorities).map_err(usage)?;
    let (mut graph, graph_warnings) = TaskGraph::from_schedule(&parsed.trace, &schedule)?;
    for (t, source) in graph.tasks.iter_mut().zip(&resolved.source) {
        t.priority_source = *source;
        if *source == corera_trace_ingest::PrioritySource::Inferred {
            t.priority_pairs = resolved.inference.pairs_of[t.id as usize];
        }
    }
    let mut warnings = parsed.warnings.clone();
    warnings.extend(graph_warnings);
    warnings.extend(resolved.warnings);
    Ok(Read { name, parsed, schedule, graph, warnings })
}

/// The constraints of the placement flags and the constraints file.
pub(crate) fn constraints(place: &PlaceArgs) -> anyhow::Result<Constraints> {
    let mut constraints = match &place.constraints {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| Usage(format!("could not read constraints file `{}`", path.display())))?;
            Constraints::from_toml(&text)
                .map_err(|e| usage(format!("invalid constraints file: {}: {e}", path.display())))?
        }
        None => Constraints::default(),
    };
    let groups = |lists: &[String]| -> Vec<Vec<String>> {
        lists.iter().map(|l| l.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect()).collect()
    };
    constraints.extend(Constraints {
        pin: place.pin.clone(),
        forbid: place.forbid.clone(),
        together: groups(&place.together),
        apart: groups(&place.apart),
        objective: place.objective,
        deadline: place.deadline.clone(),
        priority: Vec::new(),
        os_applications: Vec::new(),
        chains: place.chain.clone(),
        max_response: Vec::new(),
        max_ready: Vec::new(),
    });
    Ok(constraints)
}

/// The platform the placement flags describe.
pub(crate) fn platform(place: &PlaceArgs) -> anyhow::Result<Platform> {
    let mut platform = match &place.platform {
        Some(file) if file.ends_with(".toml") => {
            let text = std::fs::read_to_string(file)
                .with_context(|| Usage(format!("could not read platform file `{file}`")))?;
            Platform::from_toml(&text).with_context(|| format!("--platform {file}"))?
        }
        Some(spec) => Platform::parse(spec).with_context(|| format!("--platform {spec}"))?,
        None => Platform::identical(place.cores),
    };
    if let Some(balance) = place.balance {
        if !(0.0..=10.0).contains(&balance) {
            return Err(usage(format!("--balance {balance} is out of range; use a fraction such as 0.1 (10 %)")));
        }
        platform.balance_tolerance = balance;
    }
    Ok(platform)
}

/// The traffic / busiest-core trade-off front.
pub(crate) fn pareto(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> anyhow::Result<Vec<corera_search::ParetoPoint>> {
    let progress = Progress::new(quiet);
    progress.step("searching the traffic/balance front");
    let front = corera_search::pareto(problem, platform, &options(place));
    progress.finish();
    Ok(front?)
}

fn options(place: &PlaceArgs) -> Options {
    let mut options = Options::default();
    options.node_budget = place.node_budget;
    options.seed = place.seed;
    options.time_limit = place.time_limit;
    options
}

/// Runs the search method of the flags with a progress spinner.
pub(crate) fn search(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> anyhow::Result<Solution> {
    let progress = Progress::new(quiet);
    progress.step("searching placements");
    let mut options = options(place);
    let bar = progress.0.clone();
    options.progress = Some(corera_search::Progress(std::sync::Arc::new(move |stage, best, bound| {
        bar.set_message(format!(
            "searching placements: {stage} done, best {}{}, bound {}",
            best.cross_traffic,
            if best.overload_ns > 0 { format!(" (overload {} ns)", best.overload_ns) } else { String::new() },
            bound.cross_traffic
        ));
    })));
    let solution = corera_search::solve(place.method, problem, platform, &options);
    progress.finish();
    Ok(solution?)
}

/// Reads a placement file (any record with a `placement`) into a core per
/// task of `problem`, and the masks when some task has several `cores`.
pub(crate) fn read_placement(
    file: &Path,
    problem: &Problem,
    platform: &Platform,
) -> anyhow::Result<(Vec<u16>, Option<Vec<CoreSet>>)> {
    let text = std::fs::read_to_string(file)
        .with_context(|| Usage(format!("could not read placement file `{}`", file.display())))?;
    let bad = |what: String| usage(format!("placement file `{}`: {what}", file.display()));
    let list = corera_emit::read_placement(&text).map_err(bad)?;
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

/// Writes an output file atomically (or stdout for `-`).
pub(crate) fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    corera_emit::write_atomic(path, bytes).with_context(|| format!("could not write `{}`", path.display()))
}
