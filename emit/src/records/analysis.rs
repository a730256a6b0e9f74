//! The analysis record (`analysis.json`) and what it is built from:
//! the pipeline's [`Results`], the task graph and search sections.

use corera_placement::{CoreSet, Cost, Objective, Platform, Problem, TrafficScore};
use corera_replay::{Outcome, Replay, Rules};
use corera_search::Solution;
use corera_task_graph::{Affinity, Edge, TaskGraph, TaskMetrics};
use corera_trace_ingest::ModelInfo;
use corera_trace_ingest::{Schedule, TraceSummary, Warning};
use corera_tune::{BreakEven, TimingSolution};
use serde::{Deserialize, Serialize};

use super::*;
use crate::VERSION;

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
    pub fn validate(&self) -> Result<(), RecordError> {
        if self.schema_version != SCHEMA_VERSION {
            return Err(RecordError::Schema { found: Some(self.schema_version) });
        }
        let out = |what: String| Err(RecordError::OutOfRange(what));
        let cores = self.platform.cores;
        for (i, p) in self.placement.iter().enumerate() {
            if p.core >= cores {
                return out(format!("placement[{i}] (`{}`): core {} on a {cores}-core platform", p.task, p.core));
            }
            if p.id as usize >= self.graph.tasks.len() {
                return out(format!("placement[{i}] (`{}`): task id {} is not in graph.tasks", p.task, p.id));
            }
        }
        let n = self.placement.len() as u32;
        if let Some(e) = self.traffic.iter().find(|e| e.0 >= n || e.1 >= n) {
            return out(format!("traffic edge [{}, {}, {}] names a task beyond placement", e.0, e.1, e.2));
        }
        let k = usize::from(cores);
        if self.cost.core_load_ns.len() != k
            || self.cost.core_utilisation.len() != k
            || self.cost.core_limit_ns.len() != k
        {
            return out(format!("cost lists do not have one entry per core ({k})"));
        }
        let tasks = self.replay.tasks.len() as u64;
        for p in &self.replay.policies {
            if p.lanes.iter().any(|l| l.len() % 3 != 0 || l.chunks(3).any(|s| s[2] >= tasks || s[0] > s[1])) {
                return out(format!("replay `{}`: a lane is not start, end, task triples", p.outcome.policy.name()));
            }
        }
        if let Some(t) = &self.replay.timeline
            && let Some(what) = t.out_of_range(tasks)
        {
            return out(format!("replay.timeline: {what}"));
        }
        Ok(())
    }
}
