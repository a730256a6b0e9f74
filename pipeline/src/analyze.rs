//! Analysing: the traffic search, the timing search and its break-even,
//! and the replays of every set-up the reports compare ([`Analyzed`]).

use corera_emit::records::{Analysis, Fidelity, Results};
use corera_placement::{CoreSet, Cost, Objective, Placement, Platform, Problem};
use corera_replay::{Outcome, Policy, Replay};
use corera_search::{Note, Solution};
use corera_trace_ingest::TraceSummary;
use corera_tune::{BreakEven, TimingInput, TimingOptions, TimingSolution};

use crate::error::{Result, usage};
use crate::options::{Input, Options};
use crate::prepare::{Prepared, prepare};

/// Everything the pipeline produced for one trace.
pub struct Analyzed {
    /// The trace, its task graph and the placement problem.
    pub prepared: Prepared,
    /// The trace's summary.
    pub summary: TraceSummary,
    /// The traffic search.
    pub solution: Solution,
    /// The timing search (timing objectives).
    pub timing: Option<TimingSolution>,
    /// Where the recommendation and its rival swap places.
    pub break_even: Option<BreakEven>,
    /// The recommended placement: each placed task's core.
    pub placement: Vec<u16>,
    /// Its masks, when some task floats.
    pub masks: Option<Vec<CoreSet>>,
    /// The cost of the recommended placement.
    pub cost: Cost,
    /// The replays, labelled, with their timelines.
    pub replay: Vec<(String, Outcome)>,
    /// The workload the replays ran.
    pub workload: Replay,
    /// Its task names.
    pub replay_names: Vec<String>,
    /// For a model input: the model's own mapping (each placed task's
    /// core, and its cores where it may float) and its cost, when it maps
    /// every task.
    pub model_mapping: Option<ModelMapping>,
    /// How well the replay reproduces the recording.
    pub fidelity: Fidelity,
}

impl Analyzed {
    /// The parts the records are built from.
    pub fn results(&self) -> Results<'_> {
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
    pub fn analysis(&self) -> Analysis {
        Analysis::new(&self.results())
    }
}

/// Runs ingest → graph → place (traffic, then timing) → replay.
/// `masks`: also search affinity masks.
pub fn analyze(input: &Input, place: &Options) -> Result<Analyzed> {
    let mut prepared = prepare(input, place)?;
    let observer = place.observer();
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
    let fidelity = Fidelity::of(&prepared.as_recorded(&workload, false, false)?.0);
    let mut chosen = None;
    if let Some(weight) = place.balance_weight {
        let front = pareto(&prepared.problem, &prepared.platform, place)?;
        let i = corera_search::weighted_choice(&front, prepared.problem.total_traffic(), weight);
        prepared.platform.balance_tolerance = front[i].balance_tolerance;
        chosen = Some(Note::BalanceChosen { tolerance: front[i].balance_tolerance, weight, front: front.len() });
    }
    let mut solution = search(&prepared.problem, &prepared.platform, place)?;
    solution.notes.extend(chosen);
    let summary = TraceSummary::of(&prepared.parsed.trace);
    let (timing, break_even) = if prepared.objective.is_timing() && !prepared.problem.is_empty() {
        let (t, b) = timing(&prepared, &workload, &solution, place)?;
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
    observer.step("replaying the trace under each set-up");
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
    observer.finish();
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
pub struct ModelMapping {
    /// Each placed task's core.
    pub core_of: Vec<u16>,
    /// Its cores, when some task may float.
    pub masks: Option<Vec<CoreSet>>,
    /// The mapping's cost.
    pub cost: Cost,
}

/// A model's own mapping of the placed tasks, and its cost
/// ([`Problem::given_mapping`]); `None` when the model leaves a task
/// unmapped or `--platform` replaced its hardware.
pub fn model_mapping(p: &Prepared) -> Option<ModelMapping> {
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

/// The timing search, and the break-even of its
/// recommendation.
fn timing(
    prepared: &Prepared,
    workload: &Replay,
    traffic: &Solution,
    place: &Options,
) -> Result<(TimingSolution, BreakEven)> {
    let observer = place.observer();
    observer.step("replaying candidate placements");
    let mut input = TimingInput::new(&prepared.problem, &prepared.platform, prepared.objective, workload, traffic);
    // A model's own AMP mapping is one more place to start from.
    if let Some(m) = model_mapping(prepared).filter(|m| m.masks.is_none()) {
        input.given.push(m.core_of);
    }
    let mut options = TimingOptions::default();
    options.budget = place.replay_budget;
    options.seed = place.seed;
    options.masks = place.masks;
    options.time_limit = place.time_limit;
    options.balance = place.balance.is_some();
    let seen = observer.clone();
    options.progress = Some(corera_tune::TuneProgress(std::sync::Arc::new(move |done, budget, best| {
        seen.tuning(done, budget, best);
    })));
    let solution = corera_tune::tune(&input, &options)?;
    observer.step("finding the break-even cost");
    let (best, choice, _) = solution.recommendation(prepared.objective);
    // The rival: global SMP, or the best AMP placement when the
    // recommendation is global SMP.
    let rival =
        if choice == Policy::Smp { (&solution.amp, "the best AMP placement") } else { (&solution.smp, "global SMP") };
    let break_even = corera_tune::break_even(&input, best, rival, "migration_ns");
    observer.finish();
    Ok((solution, break_even))
}

/// The traffic / busiest-core trade-off front.
pub fn pareto(problem: &Problem, platform: &Platform, place: &Options) -> Result<Vec<corera_search::ParetoPoint>> {
    let observer = place.observer();
    observer.step("searching the traffic/balance front");
    let front = corera_search::pareto(problem, platform, &search_options(place));
    observer.finish();
    Ok(front?)
}

fn search_options(place: &Options) -> corera_search::Options {
    let mut options = corera_search::Options::default();
    options.node_budget = place.node_budget;
    options.seed = place.seed;
    options.time_limit = place.time_limit;
    options
}

/// Runs the traffic search method `place` names.
pub fn search(problem: &Problem, platform: &Platform, place: &Options) -> Result<Solution> {
    let observer = place.observer();
    observer.step("searching placements");
    let mut options = search_options(place);
    let seen = observer.clone();
    options.progress = Some(corera_search::Progress(std::sync::Arc::new(move |stage, best, bound| {
        seen.searching(stage, best, bound);
    })));
    let solution = corera_search::solve(place.method, problem, platform, &options);
    observer.finish();
    Ok(solution?)
}
