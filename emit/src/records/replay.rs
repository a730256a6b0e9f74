//! The replays in an analysis: each policy's run, the chains measured,
//! the timeline.

use corera_placement::{ChainKind, Costs, Objective};
use corera_replay::{ChainOrigin, ChainResult, Outcome, Policy, Replay, Rules};
use serde::{Deserialize, Serialize};

use super::*;
use crate::timeline::{Pick, Run, TimelineRecord};

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
pub(super) fn downsample(lane: &[[u64; 3]], max: usize) -> Vec<[u64; 3]> {
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
pub(super) fn timeline(r: &Results<'_>) -> Option<TimelineRecord> {
    let (schedule, workload) = r.recording?;
    if r.replay.is_empty() || r.replay.iter().all(|(_, o)| o.timeline.is_empty()) {
        return None;
    }
    // Row 0 is the recording, row i the replay i - 1.
    let last = r.replay.len();
    let smp = r.replay.iter().position(|(label, _)| label == "global SMP").map(|i| i + 1);
    let single = r.replay.iter().position(|(_, o)| o.policy == Policy::Single).map(|i| i + 1);
    let waits = |i: usize| r.replay[i - 1].1.ready_ns;
    let rival = match (smp, single) {
        (Some(s), _) if s != last && waits(s) != waits(last) => s,
        (_, Some(s)) if s != last => s,
        _ => 0,
    };
    let pick = Pick::Differ { a: rival, b: last, chain: r.objective == Objective::Chains };
    let recorded = r.chains.iter().map(|c| &c.recorded).collect();
    let runs: Vec<Run<'_>> = std::iter::once(Run::recording(schedule, workload, r.model.is_some(), recorded))
        .chain(r.replay.iter().map(|(label, o)| Run::replayed(label, o)))
        .collect();
    Some(TimelineRecord::of_replay(&runs, workload, pick))
}
