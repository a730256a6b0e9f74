//! How well the replay reproduces a recording: `simulate --as-recorded`
//! and the analysis's fidelity line.

use corera_placement::Platform;
use corera_replay::{ChainResult, Policy, Rules};
use serde::{Deserialize, Serialize};

use super::*;

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
    /// unless a platform file states them).
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
    /// The recording has no ready events (the FreeRTOS trace logger's
    /// stock hooks, an ftrace without `sched_wakeup`): each release was
    /// read from the switches, no earlier than the kernel made the task
    /// ready, so the recorded READY and responses are lower bounds
    /// ([`RELEASES_CAUTION`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub releases_from_switches: bool,
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
    /// What a context switch took in a recording with ready events (from a
    /// switch-out to the next switch-in of a task ready already); when
    /// steady (and no `--platform`), the platform's `context_switch_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_switch: Option<corera_trace_ingest::CrossCoreWake>,
    /// Under a kernel that runs one priority at a time, what a core took to
    /// yield to a higher priority made ready on another (the spans in which
    /// a lower priority ran beside it); when steady
    /// (and no `--platform`), its upper quartile is the platform's
    /// `yield_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yield_latency: Option<corera_trace_ingest::CrossCoreWake>,
}

/// What READY, responses and a replay on several cores are worth where the
/// releases were read from the switches
/// ([`FidelityRecord::releases_from_switches`]), and what to record
/// instead.
pub const RELEASES_CAUTION: &str = "the recording has no ready events, so corera read each release from the \
     switches: a task made ready while another ran reads as released when that one left, so the recorded READY and \
     responses are lower bounds, every replay starts from the same late releases, and on several cores only what the \
     recording ran side by side, or kept waiting preempted, runs side by side; record the tasks made ready \
     (FreeRTOS: a traceMOVED_TASK_TO_READY_STATE hook; Linux: the sched_wakeup event) for figures that hold";

/// One task of a [`FidelityRecord`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FidelityRow {
    /// Task name.
    pub task: String,
    /// The cores it ran on in the recording (bound to one, or floating over
    /// these).
    pub cores: Vec<u16>,
    /// RUNNING, recorded and replayed, ns. The replayed figure leaves out
    /// the context switches the replay charged the task, which a recording
    /// counts to neither task (they run between a switch-out and the next
    /// switch-in).
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
    /// [`FidelityRecord::releases_from_switches`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub releases_from_switches: bool,
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
            releases_from_switches: r.releases_from_switches,
        }
    }

    /// What to supply, for a replay under `rules` that does not reproduce
    /// the recording: the priorities it lacks or the kernel's rules, except
    /// for a kernel that is not fixed-priority ([`Rules::fixed_priority`]:
    /// Linux's CFS shares its cores by virtual runtime), which no setting
    /// of this replay reproduces.
    pub fn advice(rules: Option<&Rules>) -> &'static str {
        if rules.is_some_and(|r| !r.fixed_priority) {
            "the recorded kernel (Linux) shares its cores among threads by virtual runtime (CFS), which this \
             fixed-priority replay only approximates: no priority or kernel setting closes that gap"
        } else {
            "give the priorities the recording lacks (--priority TASK=N) or the kernel's rules in a platform file \
             ([kernel] tick_us, time_slicing, isr_nesting), and check with `corera simulate --as-recorded`"
        }
    }

    /// For a recording whose releases were read from the switches:
    /// [`RELEASES_CAUTION`].
    pub fn releases_caution(&self) -> Option<&'static str> {
        self.releases_from_switches.then_some(RELEASES_CAUTION)
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
