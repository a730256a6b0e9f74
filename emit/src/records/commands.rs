//! The records of the other commands: `place`, `place --pareto`, `place
//! --graph`, `simulate`, `simulate --sweep`, `calibrate`, `emit` and `gen`,
//! `graph`, `ingest`.

use corera_placement::{Cost, Objective, Platform, Problem};
use corera_replay::{Outcome, Policy, Replay, Rules};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Fingerprint, TraceSummary};
use corera_tune::Score;
use serde::{Deserialize, Serialize};

use super::*;
use crate::VERSION;

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
    /// The recording has no ready events: its releases were read from the
    /// switches, so a replay on several cores runs side by side only what
    /// the recording did ([`crate::records::RELEASES_CAUTION`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub releases_from_switches: bool,
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

/// `calibrate --json`: the costs fitted so that a single-core recording,
/// replayed under global SMP on the cores of a multi-core recording of the
/// same firmware, reproduces it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalibrateRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// corera's version.
    pub corera_version: String,
    /// The single-core recording replayed.
    pub single: Input,
    /// The multi-core recording it is fitted to.
    pub multi: Input,
    /// The platform fitted (the multi-core recording's cores, the fitted
    /// costs): what `-o` writes.
    pub platform: Platform,
    /// The replay under the costs the fit started from.
    pub before: corera_replay::calibrate::Comparison,
    /// The replay under the fitted costs.
    pub after: corera_replay::calibrate::Comparison,
    /// Replays the fit ran.
    pub replays: usize,
    /// Whether the fitted replay reproduces the recording: 80 % of the task
    /// kinds within 10 % on mean response and the makespan within 5 %.
    pub good: bool,
    /// The recordings (by name) with no ready events, whose releases were
    /// read from the switches ([`crate::records::RELEASES_CAUTION`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub releases_from_switches: Vec<String>,
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
