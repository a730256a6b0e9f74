//! Calibration (`corera calibrate`): the costs that make a replay of a
//! single-core recording, under global SMP on the cores of a recording of
//! the same firmware on several, reproduce that recording.
//!
//! The two runs are compared by task kind: a name less its instance suffix
//! (`CS#5` is one of the `CS` kind), as instance ids shift between two runs
//! of one firmware. Per kind, the mean response over every job of every
//! instance, the replay's jobs cut as a recorder would have cut them
//! ([`crate::Spans`]); and the makespan (the recording's covered time, the
//! replay's last finish). The fit is a coordinate descent over [`FITTED`], each cost
//! tried at every value of a grid in turn (a doubling one, then from there a
//! finer one), kept where the replay comes closer (the mean of
//! |ln(predicted / recorded)| over the kinds plus that of the makespan),
//! until a round changes nothing: deterministic, and a few hundred replays.

use std::collections::BTreeMap;

use corera_placement::{Costs, Platform};
use corera_trace_ingest::{Schedule, TaskKind, Trace};
use serde::{Deserialize, Serialize};

use crate::{Outcome, Policy, Replay, Setup, simulate};

/// The costs the fit varies, by their `[costs]` names. Not
/// `lock.logged_ns`, which the fit does not find: on the stress test
/// recorded with ready events it sets it to 0 where the run's instruction
/// stream shows 10.3 µs, so it is the platform's to give.
pub const FITTED: [&str; 8] = [
    "lock.switch_ns",
    "lock.signal_ns",
    "lock.take_ns",
    "lock.give_ns",
    "dispatch_ns",
    "migration_ns",
    "message_latency_ns",
    "schedule_ns",
];

/// The values each cost is tried at, ns: first 0 then doubling from 250 ns
/// to 256 µs, then, from where that descent ended, steps of about √2.
const GRIDS: [&[u64]; 2] = [
    &[0, 250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000],
    &[
        0, 250, 350, 500, 700, 1_000, 1_400, 2_000, 2_800, 4_000, 5_600, 8_000, 11_000, 16_000, 22_000, 32_000, 45_000,
        64_000, 90_000, 128_000, 180_000, 256_000,
    ],
];

/// At most this many rounds over [`FITTED`].
const ROUNDS: usize = 8;

/// A good fit: this share of the kinds within 10 % of the recorded mean
/// response, and the makespan within 5 %.
pub const GOOD_KINDS: f64 = 0.8;
/// See [`GOOD_KINDS`].
pub const GOOD_MAKESPAN: f64 = 0.05;

/// The kind of task `name`: the name less a `#<digits>` instance suffix.
pub fn kind_of(name: &str) -> &str {
    match name.rsplit_once('#') {
        Some((kind, n)) if !kind.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => kind,
        _ => name,
    }
}

/// What a recording of several cores shows, by task kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// Per kind: instances, summed response (ns) and jobs with a response.
    kinds: BTreeMap<String, (usize, f64, u64)>,
    /// Covered time of the recording, ns.
    pub makespan_ns: u64,
    /// Cores it ran on.
    pub cores: usize,
}

impl Reference {
    /// The reference figures of `trace` (its idle tasks left out).
    pub fn of(trace: &Trace, schedule: &Schedule) -> Reference {
        let mut kinds: BTreeMap<String, (usize, f64, u64)> = BTreeMap::new();
        for (task, recorded) in trace.tasks.iter().zip(&schedule.tasks) {
            if task.kind == TaskKind::Idle {
                continue;
            }
            let k = kinds.entry(kind_of(&task.name).to_string()).or_default();
            k.0 += 1;
            for r in recorded.responses() {
                k.1 += r as f64;
                k.2 += 1;
            }
        }
        Reference { kinds, makespan_ns: schedule.duration_ns, cores: schedule.cores }
    }

    /// A replay taken as the reference (a run whose costs are known).
    #[cfg(test)]
    fn of_replay(replay: &Replay, outcome: &Outcome, cores: usize) -> Reference {
        let kinds = by_kind(replay, outcome).into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        Reference { kinds, makespan_ns: outcome.makespan_ns, cores }
    }
}

/// Per kind of `replay`'s tasks: instances, summed response (ns) and jobs
/// in `outcome`, the jobs as a recorder of the replay would have cut them
/// ([`crate::Spans`]): the multi-core recording cut its own where its tasks
/// blocked, not where the single-core one did.
fn by_kind<'a>(replay: &'a Replay, outcome: &Outcome) -> BTreeMap<&'a str, (usize, f64, u64)> {
    let mut kinds: BTreeMap<&str, (usize, f64, u64)> = BTreeMap::new();
    for (task, result) in replay.tasks.iter().zip(&outcome.tasks) {
        let k = kinds.entry(kind_of(&task.name)).or_default();
        k.0 += 1;
        k.1 += result.spans.total_ns as f64;
        k.2 += result.spans.count;
    }
    kinds
}

/// One task kind, predicted against recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindRow {
    /// The kind (`CS` for `CS#4`, `CS#5` ...).
    pub kind: String,
    /// Its instances in the recording.
    pub instances: usize,
    /// Mean response over the recording's jobs, ns (`None`: no job ended).
    pub recorded_ns: Option<f64>,
    /// Mean response over the replay's jobs, ns (`None`: none in the
    /// replay, or none finished).
    pub predicted_ns: Option<f64>,
    /// The recording's jobs with a response.
    #[serde(default)]
    pub recorded_jobs: u64,
    /// The replay's, cut as a recorder of it would have cut them.
    #[serde(default)]
    pub predicted_jobs: u64,
}

impl KindRow {
    /// Predicted against recorded (+0.1: 10 % longer), where both exist.
    pub fn error(&self) -> Option<f64> {
        match (self.predicted_ns, self.recorded_ns) {
            (Some(p), Some(r)) if r > 0.0 => Some(p / r - 1.0),
            _ => None,
        }
    }

    /// Whether the replay cut the kind into more than 10 % more or fewer
    /// jobs than recorded: it blocked at other points, so the two means
    /// are of jobs of other lengths.
    pub fn cut_otherwise(&self) -> bool {
        let (r, p) = (self.recorded_jobs, self.predicted_jobs);
        r > 0 && p > 0 && p.abs_diff(r) * 10 > r
    }

    /// The summed response of the replay's jobs against the recording's
    /// (+0.1: 10 % longer), where both have jobs.
    pub fn summed_error(&self) -> Option<f64> {
        match (self.predicted_ns, self.recorded_ns) {
            (Some(p), Some(r)) if r > 0.0 && self.recorded_jobs > 0 => {
                Some(p * self.predicted_jobs as f64 / (r * self.recorded_jobs as f64) - 1.0)
            }
            _ => None,
        }
    }
}

/// A replay against the reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Per kind, by name.
    pub kinds: Vec<KindRow>,
    /// The recording's makespan, ns.
    pub recorded_makespan_ns: u64,
    /// The replay's, ns.
    pub predicted_makespan_ns: u64,
    /// The cores that ran nothing in the replay.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub idle_cores: Vec<u16>,
}

impl Comparison {
    /// `outcome` (a replay of `replay`) against `reference`.
    pub fn of(replay: &Replay, outcome: &Outcome, reference: &Reference) -> Comparison {
        let predicted = by_kind(replay, outcome);
        let kinds = reference
            .kinds
            .iter()
            .map(|(kind, &(instances, sum, jobs))| KindRow {
                kind: kind.clone(),
                instances,
                recorded_ns: (jobs > 0).then(|| sum / jobs as f64),
                predicted_ns: predicted.get(kind.as_str()).filter(|p| p.2 > 0).map(|p| p.1 / p.2 as f64),
                recorded_jobs: jobs,
                predicted_jobs: predicted.get(kind.as_str()).map_or(0, |p| p.2),
            })
            .collect();
        Comparison {
            kinds,
            recorded_makespan_ns: reference.makespan_ns,
            predicted_makespan_ns: outcome.makespan_ns,
            idle_cores: outcome.idle_cores(),
        }
    }

    /// Kinds with both figures.
    pub fn compared(&self) -> usize {
        self.kinds.iter().filter(|k| k.error().is_some()).count()
    }

    /// Kinds whose predicted mean response is within `tolerance` (0.1:
    /// 10 %) of the recorded one.
    pub fn within(&self, tolerance: f64) -> usize {
        self.kinds.iter().filter(|k| k.error().is_some_and(|e| e.abs() <= tolerance)).count()
    }

    /// Predicted makespan against recorded (+0.05: 5 % longer).
    pub fn makespan_error(&self) -> f64 {
        self.predicted_makespan_ns as f64 / self.recorded_makespan_ns.max(1) as f64 - 1.0
    }

    /// Whether it fits well: [`GOOD_KINDS`] of the compared kinds within
    /// 10 % and the makespan within [`GOOD_MAKESPAN`].
    pub fn good(&self) -> bool {
        self.within(0.1) as f64 >= GOOD_KINDS * self.compared() as f64 && self.makespan_error().abs() <= GOOD_MAKESPAN
    }

    /// What the fit minimises: the mean |ln(predicted / recorded)| over the
    /// compared kinds, plus that of the makespan.
    fn loss(&self) -> f64 {
        let logs: Vec<f64> =
            self.kinds.iter().filter_map(KindRow::error).map(|e| (1.0 + e).max(1e-9).ln().abs()).collect();
        let kinds = if logs.is_empty() { 0.0 } else { logs.iter().sum::<f64>() / logs.len() as f64 };
        kinds + (1.0 + self.makespan_error()).max(1e-9).ln().abs()
    }
}

/// The fitted costs, and the replay before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Under the costs the fit started from.
    pub before: Comparison,
    /// Under the fitted costs.
    pub after: Comparison,
    /// The fitted costs.
    pub costs: Costs,
    /// Replays run.
    pub replays: usize,
}

/// Fits [`FITTED`] of `platform`'s costs so that `replay` under global SMP
/// on `platform` comes closest to `reference`.
///
/// The costs fitted are the multi-core run's, charged to every wake: the
/// single-core recording's own wakes are forgotten.
pub fn fit(replay: &Replay, platform: &Platform, reference: &Reference) -> Fit {
    let mut replay = replay.clone();
    replay.forget_recorded_wakes();
    let replay = &replay;
    let mut replays = 0;
    let mut compare = |costs: &Costs| {
        replays += 1;
        let platform = Platform { costs: costs.clone(), ..platform.clone() };
        let setup = Setup { policy: Policy::Smp, platform: &platform, core_of: None, masks: None, timeline: false };
        Comparison::of(replay, &simulate(replay, &setup), reference)
    };
    let before = compare(&platform.costs);
    let (mut best, mut costs, mut loss) = (before.clone(), platform.costs.clone(), before.loss());
    for grid in GRIDS {
        for _ in 0..ROUNDS {
            let mut changed = false;
            for key in FITTED {
                for &value in grid {
                    let mut trial = costs.clone();
                    trial.set(key, value as f64).expect("a known cost, not negative");
                    if trial == costs {
                        continue;
                    }
                    let c = compare(&trial);
                    let l = c.loss();
                    if l < loss - 1e-12 {
                        (best, costs, loss, changed) = (c, trial, l, true);
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    Fit { before, after: best, costs, replays }
}

#[cfg(test)]
mod tests;
