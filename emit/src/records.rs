//! Every record corera writes or prints with `--json`, defined once.
//!
//! # Format
//! Each record is one JSON object whose first field is `schema_version`
//! ([`SCHEMA_VERSION`]), then `corera_version`. Fields are added, never
//! renamed or removed, within a schema version; consumers must ignore
//! unknown fields. The book's outputs page documents every field.
//!
//! | record | written by |
//! |---|---|
//! | [`Analysis`] | `analyze` (`analysis.json`, `--json`), `emit --target json` |
//! | [`PlaceRecord`] | `place --json` |
//! | [`ParetoRecord`] | `place --pareto --json` |
//! | [`PartitionRecord`] | `place --graph --json` |
//! | [`SimulateRecord`] | `simulate --json` |
//! | [`WrittenRecord`] | `emit --json`, `gen --json` |
//! | [`GraphRecord`] | `graph --json`, `graph -o` |
//! | [`IngestRecord`] | `ingest --json` |
//!
//! A placement is always the same list of [`PlacedTask`]s under
//! `placement`, so any record that carries one is a placement file for
//! `--placement` ([`read_placement`]).

use corera_placement::{ChainKind, CoreSet, Cost, Costs, Objective, Platform, Problem, TrafficScore};
use corera_replay::{ChainOrigin, ChainResult, Outcome, Policy, Replay, Rules};
use corera_search::Solution;
use corera_task_graph::{Affinity, Edge, TaskGraph, TaskMetrics};
use corera_trace_ingest::ModelInfo;
use corera_trace_ingest::{Fingerprint, Schedule, TaskKind, TraceSummary, Warning};
use corera_tune::{BreakEven, Certificate, Proof, Score, TimingSolution};
use serde::{Deserialize, Serialize};

use crate::VERSION;
use crate::timeline::{Pick, Run, TimelineRecord};

/// Version of every record's schema. 3: every record is typed and carries
/// `schema_version`; `placement` entries gained `kind`, `restricted` and
/// `traffic`; `traffic`, `platform.distance`, `replay.tasks` and each
/// policy's `lanes` were added; `graph --json` nests the graph under
/// `graph`; the p95 response time is the nearest-rank percentile. 4: the
/// recommended `setup` is a policy name (`amp`, `smp`, `masks`; `strict`
/// became `amp`); `cost.objective` became `cost.score`; `timing` counts its
/// budget in replays (`replays`; `evaluations` and `window` are gone: every
/// replay is of the whole trace) and carries the certificates of its
/// answers (`strict`, `masks`), as does the recommendation
/// (`certificate`).
pub const SCHEMA_VERSION: u32 = 4;

/// The oldest schema whose `placement` list [`read_placement`] reads: the
/// list has not changed since 3.
const PLACEMENT_SINCE: u32 = 3;

/// The input a record came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// File name as given (no directories), or `<stdin>`.
    pub name: String,
    /// Format read (`corera-log`, `btf`, `ftrace`, ...).
    pub format: String,
    /// Size in bytes (decompressed).
    pub bytes: u64,
    /// 64-bit hash of those bytes, 16 hex digits.
    pub hash: String,
    /// What the input says about itself (a recording's header: the tool
    /// that saved it, its OS, its cores).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Input {
    /// The record of an input named `name`, read as `format`, with
    /// fingerprint `source`.
    pub fn new(name: &str, format: &str, source: Fingerprint) -> Input {
        Input {
            name: name.to_string(),
            format: format.to_string(),
            bytes: source.bytes,
            hash: format!("{:016x}", source.hash),
            notes: Vec::new(),
        }
    }

    /// The same, with what the input says about itself.
    pub fn with_notes(mut self, notes: &[String]) -> Input {
        self.notes = notes.to_vec();
        self
    }
}

/// One task of a placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTask {
    /// Task name.
    pub task: String,
    /// Task id in the trace (informational; `--placement` matches names).
    #[serde(default)]
    pub id: u32,
    /// Its core (for a task that may float: the core it starts on, the
    /// lowest of `cores` unless the search chose another).
    pub core: u16,
    /// The cores it may run on: `[core]` for a strict placement, several
    /// for an affinity mask (`--placement` takes `cores` when given).
    #[serde(default)]
    pub cores: Vec<u16>,
    /// Pinned to its core by a constraint or the ISR default.
    #[serde(default)]
    pub pinned: bool,
    /// Its load over the trace, ns of the traced core.
    #[serde(default)]
    pub load_ns: u64,
    /// Task or ISR (informational).
    #[serde(default = "task_kind")]
    pub kind: TaskKind,
    /// Restricted to a subset of the cores (not pinned).
    #[serde(default)]
    pub restricted: bool,
    /// Its traffic weight with every other task.
    #[serde(default)]
    pub traffic: u64,
}

fn task_kind() -> TaskKind {
    TaskKind::Task
}

/// The placement of `core_of` (a placement of `problem`, with the masks
/// of a mask placement), in problem order.
pub fn placed_tasks(
    problem: &Problem,
    graph: &TaskGraph,
    core_of: &[u16],
    masks: Option<&[CoreSet]>,
) -> Vec<PlacedTask> {
    (0..problem.len())
        .map(|i| PlacedTask {
            task: problem.names[i].clone(),
            id: problem.task_ids[i],
            core: core_of[i],
            cores: masks.map_or_else(|| vec![core_of[i]], |m| m[i].iter().collect()),
            pinned: problem.pinned[i].is_some(),
            load_ns: problem.load[i],
            kind: graph.tasks.get(problem.task_ids[i] as usize).map_or(TaskKind::Task, |t| t.kind),
            restricted: problem.pinned[i].is_none() && problem.allowed[i].is_some(),
            traffic: problem.adjacency[i].iter().map(|a| a.1).sum(),
        })
        .collect()
}

/// Undirected traffic between two placed tasks: indices into
/// `placement`, and the weight (both directions plus shared resources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrafficEdge(pub u32, pub u32, pub u64);

/// The task graph, as the analysis and `graph --json` carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphSection {
    /// Groups of tasks that interact (connected components).
    pub communication_groups: usize,
    /// Time the trace covers in ns (its span less its gaps), over which
    /// loads and rates are computed.
    pub duration_ns: u64,
    /// Per trace task, by id.
    pub tasks: Vec<TaskMetrics>,
    /// Directed interaction edges.
    pub edges: Vec<Edge>,
    /// Shared-resource affinities.
    pub affinities: Vec<Affinity>,
}

impl GraphSection {
    /// The section of `graph`.
    pub fn of(graph: &TaskGraph) -> GraphSection {
        GraphSection {
            communication_groups: graph.communication_groups(),
            duration_ns: graph.duration_ns,
            tasks: graph.tasks.clone(),
            edges: graph.edges.clone(),
            affinities: graph.affinities.clone(),
        }
    }
}

/// What the search found and proved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRecord {
    /// The method that found the placement.
    pub method: String,
    /// Whether it is proven optimal.
    pub proven_optimal: bool,
    /// Its cross-core traffic (topology-weighted).
    pub cross_traffic: u64,
    /// Its load above the cores' limits, ns.
    pub overload_ns: u64,
    /// A proven lower bound on the objective.
    pub lower_bound: TrafficScore,
    /// Relative gap between traffic and its bound (0 when proven).
    pub gap: f64,
    /// Search nodes and annealing moves.
    pub nodes: u64,
    /// Seed of the randomised methods.
    pub seed: u64,
    /// Notes for the user.
    pub notes: Vec<String>,
}

impl SearchRecord {
    /// The record of `solution`.
    pub fn of(solution: &Solution) -> SearchRecord {
        SearchRecord {
            method: solution.method.clone(),
            proven_optimal: solution.proven_optimal,
            cross_traffic: solution.score.cross_traffic,
            overload_ns: solution.score.overload_ns,
            lower_bound: solution.lower_bound,
            gap: solution.gap(),
            nodes: solution.nodes,
            seed: solution.seed,
            notes: solution.notes.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Segments kept per core lane of a policy's timeline; beyond, adjacent
/// segments are merged.
pub const MAX_SEGMENTS_PER_LANE: usize = 4_000;

/// One policy's replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyRun {
    /// What ran: `single core`, `global SMP`, `AMP, traffic-optimal`,
    /// `AMP, recommended`, `masks, recommended`, ...
    pub label: String,
    /// The outcome.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Improvement of summed READY over the single-core run, in %:
    /// positive is better (less waiting).
    pub ready_improvement_pct: f64,
    /// Improvement of the mean response time over the single-core run, in
    /// %: positive is better.
    pub response_improvement_pct: f64,
    /// Who ran where: per core, flat `start_ns, end_ns, task` triples
    /// (`task` indexes [`ReplayRecord::tasks`]), at most
    /// [`MAX_SEGMENTS_PER_LANE`] per core (neighbours merged, the longer
    /// part named).
    pub lanes: Vec<Vec<u64>>,
    /// Whether some lane was merged to fit.
    pub lanes_merged: bool,
}

/// A cause-effect chain every replay measured (each policy's figures are
/// in its [`Outcome::chains`], in this order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainRecord {
    /// Its name.
    pub name: String,
    /// Its tasks, cause first.
    pub tasks: Vec<String>,
    /// Who named it: the user, the model, or discovery in the trace.
    pub origin: ChainOrigin,
    /// How its tasks pass work on, and so what its latency is.
    pub kind: ChainKind,
    /// End-to-end deadline of each instance, ns.
    pub deadline_ns: Option<u64>,
    /// Its figures in the recording (the same instances, recorded times).
    pub recorded: ChainResult,
}

impl ChainRecord {
    /// The chains `workload` measures, with their recorded figures.
    pub fn of(workload: &Replay) -> Vec<ChainRecord> {
        workload
            .chains
            .iter()
            .zip(workload.recorded_chains())
            .map(|(c, recorded)| ChainRecord {
                name: c.name.clone(),
                tasks: c.tasks.iter().map(|&t| workload.tasks[t as usize].name.clone()).collect(),
                origin: c.origin,
                kind: c.kind,
                deadline_ns: c.deadline_ns,
                recorded,
            })
            .collect()
    }
}

/// The traced jobs replayed under each policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayRecord {
    /// The costs the replays charged.
    pub costs: Costs,
    /// Names of the replay's tasks (timeline lanes index them).
    pub tasks: Vec<String>,
    /// The cause-effect chains measured in every policy's run.
    #[serde(default)]
    pub chains: Vec<ChainRecord>,
    /// The kernel's rules every run kept (time slicing, ISR nesting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// Each policy, single core first.
    pub policies: Vec<PolicyRun>,
    /// How well the replay reproduces the recording.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<Fidelity>,
    /// The report's timeline: the recording and each policy's run on one
    /// time axis, opening where they differ most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<TimelineRecord>,
}

impl ReplayRecord {
    /// The record of the labelled `outcomes` (with their timelines) of
    /// replay tasks `tasks` under `costs` and `rules`, which measured
    /// `chains`.
    pub fn of(
        (costs, rules, fidelity): (Costs, Option<Rules>, Option<Fidelity>),
        tasks: &[String],
        chains: &[ChainRecord],
        outcomes: &[(String, Outcome)],
    ) -> ReplayRecord {
        let single = outcomes.iter().map(|(_, o)| o).find(|o| o.policy == Policy::Single);
        let policies = outcomes
            .iter()
            .map(|(label, o)| {
                let (ready, response) = single.map_or((0.0, 0.0), |s| o.improvement_over(s));
                let (lanes, merged) = lanes(o);
                let mut outcome = o.clone();
                outcome.timeline.clear();
                outcome.flows.clear();
                outcome.job_starts.clear();
                outcome.ready_spans.clear();
                PolicyRun {
                    label: label.clone(),
                    outcome,
                    ready_improvement_pct: ready,
                    response_improvement_pct: response,
                    lanes,
                    lanes_merged: merged,
                }
            })
            .collect();
        ReplayRecord {
            costs,
            tasks: tasks.to_vec(),
            chains: chains.to_vec(),
            rules,
            policies,
            fidelity,
            timeline: None,
        }
    }

    /// The single-core run, if there is one.
    pub fn single(&self) -> Option<&PolicyRun> {
        self.policies.iter().find(|p| p.outcome.policy == Policy::Single)
    }
}

/// Per core, the flat `[start, end, task]` triples of `o`'s timeline,
/// downsampled; and whether any lane was.
fn lanes(o: &Outcome) -> (Vec<Vec<u64>>, bool) {
    let mut lanes: Vec<Vec<[u64; 3]>> = vec![Vec::new(); o.cores];
    for seg in &o.timeline {
        lanes[usize::from(seg.core)].push([seg.start_ns, seg.end_ns, u64::from(seg.task)]);
    }
    let mut merged = false;
    let flat = lanes
        .into_iter()
        .map(|lane| {
            let lane = if lane.len() > MAX_SEGMENTS_PER_LANE {
                merged = true;
                downsample(&lane, MAX_SEGMENTS_PER_LANE)
            } else {
                lane
            };
            lane.into_iter().flatten().collect()
        })
        .collect();
    (flat, merged)
}

/// Merges neighbouring segments until at most `max` remain, keeping the
/// span covered; a merged segment is named after its longest part.
fn downsample(lane: &[[u64; 3]], max: usize) -> Vec<[u64; 3]> {
    let (start, end) = (lane[0][0], lane[lane.len() - 1][1]);
    let width = (end - start).div_ceil(max as u64).max(1);
    let mut out: Vec<[u64; 3]> = Vec::with_capacity(max);
    let mut best = 0;
    for seg in lane {
        let bucket = (seg[0] - start) / width;
        match out.last_mut() {
            Some(last) if (last[0] - start) / width == bucket => {
                if seg[1] - seg[0] > best {
                    best = seg[1] - seg[0];
                    last[2] = seg[2];
                }
                last[1] = last[1].max(seg[1]);
            }
            _ => {
                best = seg[1] - seg[0];
                out.push(*seg);
            }
        }
    }
    out
}

/// The report's timeline of `r`: the recording above the replays (single
/// core first, the recommendation last), opening where the recommendation
/// and its rival differ most: global SMP, or the single core when global
/// SMP waits as long as the recommendation.
fn timeline(r: &Results<'_>) -> Option<TimelineRecord> {
    let (schedule, workload) = r.recording?;
    if r.replay.is_empty() || r.replay.iter().all(|(_, o)| o.timeline.is_empty()) {
        return None;
    }
    let label = if r.model.is_some() { "the model's synthesised run" } else { "as recorded" };
    let recorded = r.chains.iter().map(|c| &c.recorded).collect();
    let runs: Vec<Run<'_>> = std::iter::once(Run::recorded(label, schedule, workload, recorded))
        .chain(r.replay.iter().map(|(label, o)| Run::replayed(label, o)))
        .collect();
    let last = runs.len() - 1;
    let smp = r.replay.iter().position(|(label, _)| label == "global SMP").map(|i| i + 1);
    let single = r.replay.iter().position(|(_, o)| o.policy == Policy::Single).map(|i| i + 1);
    let waits = |i: usize| r.replay[i - 1].1.ready_ns;
    let rival = match (smp, single) {
        (Some(s), _) if s != last && waits(s) != waits(last) => s,
        (_, Some(s)) if s != last => s,
        _ => 0,
    };
    let isrs = workload.tasks.iter().enumerate().filter(|(_, t)| t.isr).map(|(i, _)| i as u32).collect();
    let chains: Vec<(String, Vec<u32>)> = workload.chains.iter().map(|c| (c.name.clone(), c.tasks.clone())).collect();
    let pick = Pick::Differ { a: rival, b: last, chain: r.objective == Objective::Chains };
    Some(TimelineRecord::new(&runs, isrs, &chains, pick))
}

/// What the pipeline produced for one trace: the parts an [`Analysis`] is
/// built from.
#[derive(Clone, Debug)]
pub struct Results<'a> {
    /// The input.
    pub input: Input,
    /// Trace summary.
    pub trace: &'a TraceSummary,
    /// The task graph.
    pub graph: &'a TaskGraph,
    /// The target platform.
    pub platform: &'a Platform,
    /// The placement problem.
    pub problem: &'a Problem,
    /// The traffic search's result.
    pub solution: &'a Solution,
    /// What the placement was judged by.
    pub objective: Objective,
    /// The recommended placement: each task's core.
    pub placement: &'a [u16],
    /// Its masks, for a mask placement.
    pub masks: Option<&'a [CoreSet]>,
    /// The timing search, for a timing objective.
    pub timing: Option<&'a TimingSolution>,
    /// Where the recommendation and its rival swap places.
    pub break_even: Option<&'a BreakEven>,
    /// The cost of the recommended placement.
    pub cost: &'a Cost,
    /// Warnings from every stage.
    pub warnings: &'a [Warning],
    /// The traced jobs replayed under each policy (single core first),
    /// labelled, with their timelines.
    pub replay: &'a [(String, Outcome)],
    /// Names of the replay's tasks.
    pub replay_tasks: &'a [String],
    /// The cause-effect chains the replays measured.
    pub chains: Vec<ChainRecord>,
    /// The kernel's rules the replays kept.
    pub rules: Option<&'a Rules>,
    /// How well the replay reproduces the recording.
    pub fidelity: Option<Fidelity>,
    /// The recorded schedule and the workload the replays ran (with the
    /// replays' timelines): what the report's timeline draws.
    pub recording: Option<(&'a Schedule, &'a Replay)>,
    /// For a model input: the model, and its own mapping (each placed
    /// task's core) with its cost, when it maps every task.
    pub model: Option<(&'a ModelInfo, Option<ModelMappingResult<'a>>)>,
}

/// A model's own mapping: each placed task's core, its masks where a task
/// may float, and the cost.
pub type ModelMappingResult<'a> = (&'a [u16], Option<&'a [CoreSet]>, &'a Cost);

/// For a model input (Amalthea): what the model says, and its own mapping
/// evaluated with the same cost model as corera's (its replay is the
/// `AMP, the model's mapping` row of the replays).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelRecord {
    /// The model's hardware, loads, allowed cores, mapping and
    /// requirements.
    pub info: ModelInfo,
    /// Its mapping, placed and costed, when it maps every task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<MappingRecord>,
}

/// The model's own mapping, as corera evaluates it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappingRecord {
    /// One entry per placed task.
    pub placement: Vec<PlacedTask>,
    /// Its cost (cross-core traffic, load per core).
    pub cost: Cost,
}

/// `analysis.json`: everything corera measured and decided, enough to
/// render every other output without the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// Trace summary.
    pub trace: TraceSummary,
    /// The task graph.
    pub graph: GraphSection,
    /// The platform.
    pub platform: Platform,
    /// The traffic search (the traffic-optimal placement).
    pub search: SearchRecord,
    /// What the placement is judged by (`ready`, `response`, `deadlines`,
    /// `traffic`).
    pub objective: Objective,
    /// The recommended placement, one entry per placed task (tasks and
    /// ISRs).
    pub placement: Vec<PlacedTask>,
    /// What is recommended and why, with the gains (timing objectives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<RecommendationRecord>,
    /// The placements the recommendation was chosen over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
    /// The timing search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<TimingRecord>,
    /// Undirected traffic between placed tasks (indices into `placement`).
    pub traffic: Vec<TrafficEdge>,
    /// The cost of the recommended placement (by each task's `core`).
    pub cost: Cost,
    /// The replays.
    pub replay: ReplayRecord,
    /// Warnings from every stage.
    pub warnings: Vec<Warning>,
    /// For a model input: the model and its own mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRecord>,
    /// The AUTOSAR OS-Applications the user named (constraints file), for
    /// `--target autosar`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub os_applications: Vec<OsApplicationRecord>,
}

/// An AUTOSAR OS-Application the user named: its tasks (which share a
/// core), `OsTrusted` and criticality when given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OsApplicationRecord {
    /// Its name.
    pub name: String,
    /// Its tasks and ISRs, by name.
    pub tasks: Vec<String>,
    /// `OsTrusted`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted: Option<bool>,
    /// Its criticality, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criticality: Option<String>,
}

impl Analysis {
    /// The name of core `c`: the model's processing unit when the analysis
    /// is of a model on its own hardware (corera numbers the model's cores
    /// in its own order, so core 1 of WATERS 2019 is its `Core2`), else
    /// `Core<c>`. Every output that names cores takes it from here.
    pub fn core_name(&self, c: u16) -> String {
        match self.model.as_ref().map(|m| &m.info.cores) {
            Some(cores) if cores.len() == usize::from(self.platform.cores) => cores[usize::from(c)].name.clone(),
            _ => format!("Core{c}"),
        }
    }

    /// The analysis of `r`.
    pub fn new(r: &Results<'_>) -> Analysis {
        let alternatives = r.timing.map_or_else(Vec::new, |t| Alternative::of(r, t));
        Analysis {
            schema_version: SCHEMA_VERSION,
            corera_version: VERSION.to_string(),
            input: r.input.clone(),
            trace: r.trace.clone(),
            graph: GraphSection::of(r.graph),
            platform: r.platform.clone(),
            search: SearchRecord::of(r.solution),
            objective: r.objective,
            placement: placed_tasks(r.problem, r.graph, r.placement, r.masks),
            recommendation: r.timing.map(|t| RecommendationRecord::of(r, t)),
            alternatives,
            timing: r.timing.map(TimingRecord::of),
            traffic: r.problem.edges.iter().map(|&(a, b, w)| TrafficEdge(a, b, w)).collect(),
            cost: r.cost.clone(),
            replay: ReplayRecord {
                timeline: timeline(r),
                ..ReplayRecord::of(
                    (r.platform.costs.clone(), r.rules.cloned(), r.fidelity.clone()),
                    r.replay_tasks,
                    &r.chains,
                    r.replay,
                )
            },
            warnings: r.warnings.to_vec(),
            model: r.model.map(|(info, mapping)| ModelRecord {
                info: info.clone(),
                mapping: mapping.map(|(core_of, masks, cost)| MappingRecord {
                    placement: placed_tasks(r.problem, r.graph, core_of, masks),
                    cost: cost.clone(),
                }),
            }),
            os_applications: r
                .problem
                .os_applications
                .iter()
                .map(|(app, ids)| OsApplicationRecord {
                    name: app.name.clone(),
                    tasks: ids.iter().map(|&i| r.problem.names[i as usize].clone()).collect(),
                    trusted: app.trusted,
                    criticality: app.criticality.clone(),
                })
                .collect(),
        }
    }

    /// Whether the recommended placement lets some task float.
    pub fn has_masks(&self) -> bool {
        self.placement.iter().any(|p| p.cores.len() > 1)
    }

    /// The task graph's metrics of placed task `i`.
    pub fn metrics(&self, i: usize) -> Option<&TaskMetrics> {
        self.graph.tasks.get(self.placement[i].id as usize)
    }

    /// Checks what rendering relies on: task ids, core numbers and edge
    /// ends within range, one load per core.
    ///
    /// # Errors
    /// What is out of range, naming the field.
    pub fn validate(&self) -> Result<(), String> {
        if self.schema_version != SCHEMA_VERSION {
            return Err(old_schema(Some(self.schema_version)));
        }
        let cores = self.platform.cores;
        for (i, p) in self.placement.iter().enumerate() {
            if p.core >= cores {
                return Err(format!("placement[{i}] (`{}`): core {} on a {cores}-core platform", p.task, p.core));
            }
            if p.id as usize >= self.graph.tasks.len() {
                return Err(format!("placement[{i}] (`{}`): task id {} is not in graph.tasks", p.task, p.id));
            }
        }
        let n = self.placement.len() as u32;
        if let Some(e) = self.traffic.iter().find(|e| e.0 >= n || e.1 >= n) {
            return Err(format!("traffic edge [{}, {}, {}] names a task beyond placement", e.0, e.1, e.2));
        }
        let k = usize::from(cores);
        if self.cost.core_load_ns.len() != k
            || self.cost.core_utilisation.len() != k
            || self.cost.core_limit_ns.len() != k
        {
            return Err(format!("cost lists do not have one entry per core ({k})"));
        }
        let tasks = self.replay.tasks.len() as u64;
        for p in &self.replay.policies {
            if p.lanes.iter().any(|l| l.len() % 3 != 0 || l.chunks(3).any(|s| s[2] >= tasks || s[0] > s[1])) {
                return Err(format!("replay `{}`: a lane is not start, end, task triples", p.outcome.policy.name()));
            }
        }
        Ok(())
    }
}

/// The objective's value for people and in %: smaller is better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// The objective (ns, or misses for `deadlines`).
    pub value: f64,
    /// Its tie-breaker (mean response for `ready`, READY for `response`,
    /// lateness ns for `deadlines`).
    pub secondary: f64,
    /// For people: `READY 0.412 s`.
    pub text: String,
}

impl Value {
    fn of(objective: Objective, score: &Score) -> Value {
        Value { value: score.primary, secondary: score.secondary, text: corera_tune::describe(objective, score) }
    }
}

/// What the analysis recommends, against what, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendationRecord {
    /// `amp` (one core per task), `smp` or `masks` (some tasks float): a
    /// [`Policy`] name, one of [`corera_tune::SETUPS`].
    pub setup: String,
    /// Why, in a sentence.
    pub reason: String,
    /// The recommended placement's objective on the whole trace.
    pub value: Value,
    /// Improvement of the objective over each reference, in %: positive
    /// is better (`single`, `smp`, `traffic_optimum`, `best_strict`).
    pub improvement_pct: Vec<(String, f64)>,
    /// The costs it was judged under.
    pub costs: Costs,
    /// Where it and its rival swap places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_even: Option<BreakEvenRecord>,
    /// What is proven about the recommended placement (none for global
    /// SMP, which is not searched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateRecord>,
}

/// A recommended set-up's name (`amp`, `smp`, `masks`) for people; the
/// name itself when it is not one.
pub fn setup_text(name: &str) -> &str {
    let help: fn(Policy) -> &'static str = corera_tune::setup_help;
    corera_tune::SETUPS.into_iter().find(|p| p.name() == name).map_or(name, help)
}

/// What is proven about a placement the timing search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertificateRecord {
    /// `optimal` (under the replay model), `local-optimum` (every neighbour
    /// replayed, none better) or `partial` (the budget ran out first).
    pub kind: String,
    /// For `optimal`: what the proof rests on, `enumeration` (every
    /// placement within the limits replayed) or `zero` (an objective of
    /// 0, which nothing beats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// For `enumeration`: placements replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<u64>,
    /// For a local optimum or a partial check: `moves-and-swaps` or
    /// `mask-cores`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbourhood: Option<String>,
    /// Neighbours replayed without an improvement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<u64>,
    /// The neighbourhood's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u64>,
    /// For people.
    pub text: String,
}

impl CertificateRecord {
    /// The record of `c`.
    pub fn of(c: &Certificate) -> CertificateRecord {
        let hood = |n: corera_tune::Neighbourhood| {
            Some(
                match n {
                    corera_tune::Neighbourhood::MovesAndSwaps => "moves-and-swaps",
                    corera_tune::Neighbourhood::MaskCores => "mask-cores",
                }
                .to_string(),
            )
        };
        let mut r = CertificateRecord {
            kind: c.kind().to_string(),
            proof: None,
            placements: None,
            neighbourhood: None,
            checked: None,
            neighbours: None,
            text: c.describe(),
        };
        match *c {
            Certificate::Optimal(Proof::Enumeration { placements }) => {
                r.proof = Some("enumeration".into());
                r.placements = Some(placements);
            }
            Certificate::Optimal(Proof::Zero) => r.proof = Some("zero".into()),
            Certificate::LocalOptimum { neighbourhood, neighbours } => {
                r.neighbourhood = hood(neighbourhood);
                r.checked = Some(neighbours);
                r.neighbours = Some(neighbours);
            }
            Certificate::Partial { neighbourhood, checked, neighbours } => {
                r.neighbourhood = hood(neighbourhood);
                r.checked = Some(checked);
                r.neighbours = Some(neighbours);
            }
        }
        r
    }
}

/// Where two placements swap places as one cost changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakEvenRecord {
    /// The cost varied (a `[costs]` key).
    pub key: String,
    /// Its value now.
    pub current: f64,
    /// What the recommendation is compared with.
    pub rival: String,
    /// The value at which they swap, if one was found in `range`.
    pub at: Option<f64>,
    /// Whether the recommendation is better below `at` (else above).
    pub better_below: bool,
    /// The range tried.
    pub range: (f64, f64),
    /// Whether both still keep up with the input at `at`.
    pub keeps_up_at: bool,
    /// For people.
    pub statement: String,
}

impl RecommendationRecord {
    /// What an `improvement_pct` reference is, for people: `smp` is
    /// `global SMP`.
    pub fn reference_name(what: &str) -> &str {
        match what {
            "single" => "single core",
            "smp" => "global SMP",
            "traffic_optimum" => "the traffic-optimal placement",
            "best_strict" => "the best strict placement",
            other => other,
        }
    }

    fn of(r: &Results<'_>, t: &TimingSolution) -> RecommendationRecord {
        let (best, choice, reason) = t.recommendation(r.objective);
        let single = r.replay.iter().map(|(_, o)| o).find(|o| o.policy == Policy::Single);
        let gain =
            |reference: f64| if reference > 0.0 { (reference - best.score.primary) * 100.0 / reference } else { 0.0 };
        let mut improvement = Vec::new();
        if let Some(s) = single {
            improvement.push(("single".to_string(), gain(Score::of(r.objective, s, 0).primary)));
        }
        improvement.push(("smp".to_string(), gain(t.smp.score.primary)));
        improvement.push(("traffic_optimum".to_string(), gain(t.traffic.score.primary)));
        if choice != Policy::Amp {
            improvement.push(("best_strict".to_string(), gain(t.strict.score.primary)));
        }
        RecommendationRecord {
            setup: choice.name().to_string(),
            reason,
            value: Value::of(r.objective, &best.score),
            improvement_pct: improvement,
            costs: r.platform.costs.clone(),
            break_even: r.break_even.map(|b| BreakEvenRecord {
                key: b.key.to_string(),
                current: b.current,
                rival: b.rival.clone(),
                at: b.at,
                better_below: b.better_below,
                range: b.range,
                keeps_up_at: b.keeps_up_at,
                statement: b.statement.clone(),
            }),
            certificate: best.certificate.as_ref().map(CertificateRecord::of),
        }
    }
}

/// A placement the recommendation was chosen over, replayed whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// What it is: `traffic optimum`, `best strict`, `global SMP`.
    pub label: String,
    /// How the search found it.
    pub found_by: String,
    /// Its objective on the whole trace.
    pub value: Value,
    /// Its topology-weighted cross-core traffic.
    pub traffic: u64,
    /// The placement.
    pub placement: Vec<PlacedTask>,
}

impl Alternative {
    fn of(r: &Results<'_>, t: &TimingSolution) -> Vec<Alternative> {
        let (_, choice, _) = t.recommendation(r.objective);
        let mut list = vec![("traffic optimum", &t.traffic)];
        if choice != Policy::Smp {
            list.push(("global SMP", &t.smp));
        }
        if choice != Policy::Amp {
            list.push(("best strict", &t.strict));
        }
        list.into_iter()
            .map(|(label, c)| Alternative {
                label: label.to_string(),
                found_by: c.label(),
                value: Value::of(r.objective, &c.score),
                traffic: c.traffic,
                placement: placed_tasks(r.problem, r.graph, &c.core_of, c.masks.as_deref()),
            })
            .collect()
    }
}

/// The timing search: what it replayed and how well its surrogate ranked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingRecord {
    /// The budget (`--replay-budget`), in replays of the whole trace.
    pub budget: u64,
    /// Replays it ran.
    pub replays: u64,
    /// Whether `--time-limit` stopped it.
    pub out_of_time: bool,
    /// What is proven about the best strict placement.
    pub strict: CertificateRecord,
    /// What is proven about the best mask placement, when masks were
    /// searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masks: Option<CertificateRecord>,
    /// Spearman's rank correlation between the surrogate and the replayed
    /// objective over the strict placements evaluated.
    pub surrogate_rank: Option<f64>,
    /// Every placement evaluated: `[traffic, objective, masks]` (masks: 1
    /// for a mask placement), where it was judged.
    pub front: Vec<(u64, f64, u8)>,
}

impl TimingRecord {
    fn of(t: &TimingSolution) -> TimingRecord {
        TimingRecord {
            budget: t.budget,
            replays: t.replays,
            out_of_time: t.out_of_time,
            strict: CertificateRecord::of(t.strict.certificate.as_ref().expect("the search certifies its answers")),
            masks: t.masks.as_ref().and_then(|m| m.certificate.as_ref()).map(CertificateRecord::of),
            surrogate_rank: t.surrogate_rank,
            front: t.front.iter().map(|f| (f.traffic, f.score.primary, u8::from(f.masks))).collect(),
        }
    }
}

/// `place --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The platform.
    pub platform: Platform,
    /// The traffic search.
    pub search: SearchRecord,
    /// What the placement is judged by.
    pub objective: Objective,
    /// The placement.
    pub placement: Vec<PlacedTask>,
    /// What is recommended and why (timing objectives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<RecommendationRecord>,
    /// Its cost.
    pub cost: Cost,
}

impl PlaceRecord {
    /// The record of `r` (its replays are left out).
    pub fn new(r: &Results<'_>) -> PlaceRecord {
        PlaceRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: VERSION.to_string(),
            input: r.input.clone(),
            platform: r.platform.clone(),
            search: SearchRecord::of(r.solution),
            objective: r.objective,
            placement: placed_tasks(r.problem, r.graph, r.placement, r.masks),
            recommendation: r.timing.map(|t| RecommendationRecord::of(r, t)),
            cost: r.cost.clone(),
        }
    }
}

/// One point of the traffic / busiest-core front.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParetoEntry {
    /// The balance tolerance that gave it.
    pub balance_tolerance: f64,
    /// Utilisation of the busiest core.
    pub max_core_utilisation: f64,
    /// Busiest core over the mean, minus 1.
    pub imbalance: f64,
    /// Cross-core traffic (topology-weighted).
    pub cross_traffic: u64,
    /// Proven optimal at its tolerance.
    pub proven_optimal: bool,
    /// The placement.
    pub placement: Vec<PlacedTask>,
}

/// `place --pareto --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParetoRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The platform.
    pub platform: Platform,
    /// Total traffic weight.
    pub total_traffic: u64,
    /// The front, busiest core ascending.
    pub front: Vec<ParetoEntry>,
}

impl ParetoRecord {
    /// The record of `front` for `problem` (tasks of `graph`).
    pub fn new(
        input: Input,
        platform: &Platform,
        problem: &Problem,
        graph: &TaskGraph,
        front: &[corera_search::ParetoPoint],
    ) -> ParetoRecord {
        ParetoRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: VERSION.to_string(),
            input,
            platform: platform.clone(),
            total_traffic: problem.total_traffic(),
            front: front
                .iter()
                .map(|f| ParetoEntry {
                    balance_tolerance: f.balance_tolerance,
                    max_core_utilisation: f.max_core_utilisation,
                    imbalance: f.imbalance,
                    cross_traffic: f.cross_traffic,
                    proven_optimal: f.solution.proven_optimal,
                    placement: placed_tasks(problem, graph, &f.solution.placement.core_of, None),
                })
                .collect(),
        }
    }
}

/// `place --graph --json`: a METIS graph partitioned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The graph file, as given.
    pub graph: String,
    /// The partition file written.
    pub partition: String,
    /// The search.
    pub search: SearchRecord,
    /// The cost of the partition.
    pub cost: Cost,
    /// Wall-clock seconds of the search (the one field that varies
    /// between runs).
    pub seconds: f64,
}

/// `simulate --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulateRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The platform.
    pub platform: Platform,
    /// The placement replayed (for `amp`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<PlacedTask>,
    /// What the policy achieved.
    pub outcome: Outcome,
    /// The kernel's rules the replay kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
}

/// `simulate --as-recorded --json`: the replay of a multi-core recording
/// under its own placement, against the recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FidelityRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The platform replayed (the recorded cores, no modelled overheads
    /// unless `--platform` gives some).
    pub platform: Platform,
    /// `amp` when no task migrated, else `masks`.
    pub policy: Policy,
    /// Per task, in trace order (idle tasks left out).
    pub tasks: Vec<FidelityRow>,
    /// The cause-effect chains, with their recorded figures ...
    #[serde(default)]
    pub chains: Vec<ChainRecord>,
    /// ... and replayed, in the same order.
    #[serde(default)]
    pub replayed_chains: Vec<ChainResult>,
    /// The kernel's rules the replay kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// What waking a task on another, idle core took in the recording;
    /// when steady (and no `--platform`), the platform's
    /// `message_latency_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_core_wake: Option<corera_trace_ingest::CrossCoreWake>,
    /// What starting a task made ready on its own, idle core took in the
    /// recording; when steady (and no `--platform`), the platform's
    /// `dispatch_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_wake: Option<corera_trace_ingest::CrossCoreWake>,
}

/// One task of a [`FidelityRecord`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FidelityRow {
    /// Task name.
    pub task: String,
    /// The cores it ran on in the recording (bound to one, or floating over
    /// these).
    pub cores: Vec<u16>,
    /// RUNNING, recorded and replayed, ns.
    pub recorded_running_ns: u64,
    /// See `recorded_running_ns`.
    pub replayed_running_ns: u64,
    /// READY, recorded and replayed, ns.
    pub recorded_ready_ns: u64,
    /// See `recorded_ready_ns`.
    pub replayed_ready_ns: u64,
    /// Mean response (release to finish), where the recording has job ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_response_mean_ns: Option<u64>,
    /// See `recorded_response_mean_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replayed_response_mean_ns: Option<u64>,
    /// What corera knows makes this task's replay less certain (jobs that
    /// span a gap, a priority inferred or assumed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
}

impl FidelityRow {
    /// Whether the replayed mean response is within [`Fidelity::WITHIN`] of
    /// the recorded one (`None`: no job ends to compare).
    pub fn response_within(&self) -> Option<bool> {
        Some(self.response_error()?.abs() <= Fidelity::WITHIN)
    }

    /// Whether the replayed READY is within [`Fidelity::WITHIN`] of the
    /// recorded one, or within [`Fidelity::READY_FLOOR_NS`] of it (a task
    /// that hardly waits: 2 µs against 3 µs is no disagreement).
    pub fn ready_within(&self) -> bool {
        let (rec, rep) = (self.recorded_ready_ns as f64, self.replayed_ready_ns as f64);
        (rep - rec).abs() <= (Fidelity::WITHIN * rec).max(Fidelity::READY_FLOOR_NS as f64)
    }

    /// Replayed RUNNING against recorded, relative (0 when both are 0).
    pub fn running_error(&self) -> f64 {
        relative(self.replayed_running_ns as f64, self.recorded_running_ns as f64)
    }

    /// Replayed mean response against recorded, relative, where both exist.
    pub fn response_error(&self) -> Option<f64> {
        Some(relative(self.replayed_response_mean_ns? as f64, self.recorded_response_mean_ns? as f64))
    }
}

fn relative(got: f64, want: f64) -> f64 {
    if want == 0.0 { if got == 0.0 { 0.0 } else { 1.0 } } else { (got - want) / want }
}

/// How well the replay reproduces the recording it started from: the
/// recording replayed under its own placement against the recording
/// (`simulate --as-recorded`), in one line for `analyze`'s summary,
/// `analysis.json` and the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fidelity {
    /// Tasks replayed.
    pub tasks: usize,
    /// Tasks with job ends in both the recording and the replay ...
    pub with_response: usize,
    /// ... and of those, the ones whose mean response is within
    /// [`Fidelity::WITHIN`].
    pub response_within: usize,
    /// Tasks whose READY is within [`Fidelity::WITHIN`] (or
    /// [`Fidelity::READY_FLOOR_NS`]).
    pub ready_within: usize,
    /// Summed READY, recorded and replayed, ns.
    pub recorded_ready_ns: u64,
    /// See `recorded_ready_ns`.
    pub replayed_ready_ns: u64,
    /// The policy the recording was replayed under (`amp`, or `masks` where
    /// tasks migrated).
    pub policy: Policy,
    /// Per task, recorded against replayed.
    pub rows: Vec<FidelityRow>,
}

impl Fidelity {
    /// The relative error within which a figure is reproduced.
    pub const WITHIN: f64 = 0.10;
    /// READY closer than this (ns) is reproduced, whatever the ratio.
    pub const READY_FLOOR_NS: u64 = 10_000;
    /// Below this share of tasks within [`Fidelity::WITHIN`] on mean
    /// response, the recommendation says it rests on a replay that does not
    /// reproduce the recording.
    pub const ENOUGH: f64 = 0.80;

    /// The summary of an as-recorded replay.
    pub fn of(r: &FidelityRecord) -> Fidelity {
        Fidelity {
            tasks: r.tasks.len(),
            with_response: r.tasks.iter().filter(|t| t.response_within().is_some()).count(),
            response_within: r.tasks.iter().filter(|t| t.response_within() == Some(true)).count(),
            ready_within: r.tasks.iter().filter(|t| t.ready_within()).count(),
            recorded_ready_ns: r.tasks.iter().map(|t| t.recorded_ready_ns).sum(),
            replayed_ready_ns: r.tasks.iter().map(|t| t.replayed_ready_ns).sum(),
            policy: r.policy,
            rows: r.tasks.clone(),
        }
    }

    /// Whether enough tasks are reproduced ([`Fidelity::ENOUGH`]) for the
    /// comparisons built on the replay to be evidence.
    pub fn reproduces(&self) -> bool {
        self.with_response == 0 || self.response_within as f64 >= Fidelity::ENOUGH * self.with_response as f64
    }

    /// The tasks furthest off on mean response (largest error first), at
    /// most `n`, outside [`Fidelity::WITHIN`].
    pub fn worst(&self, n: usize) -> Vec<&FidelityRow> {
        let mut off: Vec<&FidelityRow> = self.rows.iter().filter(|t| t.response_within() == Some(false)).collect();
        off.sort_by(|a, b| {
            let e = |t: &FidelityRow| t.response_error().unwrap_or(0.0).abs();
            e(b).total_cmp(&e(a)).then_with(|| a.task.cmp(&b.task))
        });
        off.truncate(n);
        off
    }
}

/// One value of a swept cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The cost's value.
    pub value: f64,
    /// The policy's summed READY, ns.
    pub ready_ns: u64,
    /// Its mean response, ns.
    pub response_mean_ns: f64,
    /// Its deadline misses.
    pub deadline_misses: u64,
    /// Global SMP's summed READY, ns.
    pub smp_ready_ns: u64,
    /// Its mean response, ns.
    pub smp_response_mean_ns: f64,
    /// Its deadline misses.
    pub smp_deadline_misses: u64,
    /// Which is better on the objective: `policy`, `smp` or `tie`.
    pub better: String,
}

impl SweepPoint {
    /// The point of `value` where the policy replayed as `o` and global
    /// SMP as `smp`, judged by `objective`.
    pub fn new(objective: Objective, value: f64, o: &Outcome, smp: &Outcome) -> SweepPoint {
        let misses = |o: &Outcome| o.tasks.iter().filter_map(|t| t.deadline_misses).sum::<u64>();
        let (a, b) = (Score::of(objective, o, 0), Score::of(objective, smp, 0));
        let better = if a.beats(&b) {
            "policy"
        } else if b.beats(&a) {
            "smp"
        } else {
            "tie"
        };
        SweepPoint {
            value,
            ready_ns: o.ready_ns,
            response_mean_ns: o.response_mean_ns,
            deadline_misses: misses(o),
            smp_ready_ns: smp.ready_ns,
            smp_response_mean_ns: smp.response_mean_ns,
            smp_deadline_misses: misses(smp),
            better: better.to_string(),
        }
    }
}

/// `simulate --sweep --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The cost swept (a `[costs]` key).
    pub key: String,
    /// The policy compared with global SMP.
    pub policy: Policy,
    /// The objective that decides which is better.
    pub objective: Objective,
    /// One per value.
    pub points: Vec<SweepPoint>,
}

/// `emit --json` and `gen --json`: what was written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WrittenRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The file written, as given.
    pub file: String,
    /// What it is (`c-header`, `freertos`, ..., `corera-log`).
    pub target: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its size and hash.
    pub fingerprint: Fingerprint,
    /// The placement it holds (`emit`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<PlacedTask>,
    /// The workload's seed (`gen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The generated trace (`gen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceSummary>,
}

impl WrittenRecord {
    /// The record of `bytes` written to `file` as `target`.
    pub fn new(file: &str, target: &str, bytes: &[u8]) -> WrittenRecord {
        WrittenRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: VERSION.to_string(),
            file: file.to_string(),
            target: target.to_string(),
            bytes: bytes.len() as u64,
            fingerprint: Fingerprint::of(bytes),
            placement: Vec::new(),
            seed: None,
            trace: None,
        }
    }
}

/// `graph --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// The task graph.
    pub graph: GraphSection,
    /// Candidate cause-effect chains found in the trace's causes, heaviest
    /// first, with their recorded latency.
    #[serde(default)]
    pub chains: Vec<ChainRecord>,
}

impl GraphRecord {
    /// The record of `graph` of `input`, with the chains `workload`
    /// measures.
    pub fn new(input: Input, graph: &TaskGraph, workload: &Replay) -> GraphRecord {
        GraphRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: VERSION.to_string(),
            input,
            graph: GraphSection::of(graph),
            chains: ChainRecord::of(workload),
        }
    }
}

/// `ingest --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IngestRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The input.
    pub input: Input,
    /// What it holds.
    pub trace: TraceSummary,
}

impl IngestRecord {
    /// The record of `trace` read from `input`.
    pub fn new(input: Input, trace: TraceSummary) -> IngestRecord {
        IngestRecord { schema_version: SCHEMA_VERSION, corera_version: VERSION.to_string(), input, trace }
    }
}

fn old_schema(found: Option<u32>) -> String {
    match found {
        Some(v) if v < SCHEMA_VERSION => format!(
            "schema_version {v} is from an older corera (this one writes {SCHEMA_VERSION}); write the file again \
             with this corera"
        ),
        Some(v) => format!("schema_version {v} is newer than this corera reads ({SCHEMA_VERSION}); update corera"),
        None => format!(
            "no `schema_version`: corera's records start with \"schema_version\": {SCHEMA_VERSION} (see the book's \
             outputs page)"
        ),
    }
}

/// Reads the placement of any record that carries one (`place --json`,
/// `analysis.json`, `simulate --json`) or a hand-written file of the same
/// shape: `{"schema_version": 4, "placement": [{"task": "A", "core": 0},
/// ...]}`.
///
/// # Errors
/// A message naming the line and column, or the field, that is wrong, or
/// the schema version found.
pub fn read_placement(text: &str) -> Result<Vec<PlacedTask>, String> {
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u32>,
    }
    #[derive(Deserialize)]
    struct File {
        placement: Option<Vec<PlacedTask>>,
    }
    let version: Version = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if !version.schema_version.is_some_and(|v| (PLACEMENT_SINCE..=SCHEMA_VERSION).contains(&v)) {
        return Err(old_schema(version.schema_version));
    }
    let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
    file.placement.ok_or_else(|| "no `placement` list (a list of {\"task\": NAME, \"core\": N})".to_string())
}

/// Reads `analysis.json` back and checks it.
///
/// # Errors
/// A message naming the line and column, the field, or the schema version
/// that is wrong.
pub fn read_analysis(text: &str) -> Result<Analysis, String> {
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u32>,
    }
    let version: Version = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if version.schema_version != Some(SCHEMA_VERSION) {
        return Err(old_schema(version.schema_version));
    }
    let analysis: Analysis = serde_json::from_str(text).map_err(|e| e.to_string())?;
    analysis.validate()?;
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downsampling_keeps_the_span_and_the_bound() {
        let lane: Vec<[u64; 3]> = (0..100_000u64).map(|i| [i * 10, i * 10 + 7, i % 5]).collect();
        let out = downsample(&lane, MAX_SEGMENTS_PER_LANE);
        assert!(out.len() <= MAX_SEGMENTS_PER_LANE, "{}", out.len());
        assert_eq!((out[0][0], out[out.len() - 1][1]), (0, 999_997));
        assert!(out.windows(2).all(|w| w[0][1] <= w[1][0]), "merged segments stay ordered and disjoint");
    }

    #[test]
    fn placement_files_name_what_is_wrong() {
        let ok = r#"{"schema_version": 3, "placement": [{"task": "A", "core": 1}]}"#;
        let p = read_placement(ok).unwrap();
        assert_eq!((p[0].task.as_str(), p[0].core, p[0].kind), ("A", 1, TaskKind::Task));
        for (text, want) in [
            (r#"{"placement": []}"#, "no `schema_version`"),
            (r#"{"schema_version": 2, "placement": []}"#, "schema_version 2 is from an older corera"),
            (r#"{"schema_version": 9}"#, "newer than this corera reads"),
            (r#"{"schema_version": 3}"#, "no `placement` list"),
            ("{\"schema_version\": 3,\n \"placement\": [{\"task\": \"A\"}]}", "missing field `core` at line 2"),
            ("{\"schema_version\": 3,\n \"placement\": [{\"task\": \"A\", \"core\": -1}]}", "line 2 column"),
            ("not json", "expected ident at line 1 column 2"),
        ] {
            let e = read_placement(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
