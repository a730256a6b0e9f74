//! Simulating: one policy replayed on one placement (a placement file, the
//! recommendation, or none for the single core and global SMP), and the
//! timeline of that replay under the recording.

use std::path::Path;

use corera_emit::timeline::{MAX_WINDOW_SEGMENTS, Pick, Run, TimelineRecord};
use corera_placement::{CoreSet, Objective};
use corera_replay::{Outcome, Policy, Replay};
use corera_trace_ingest::Warning;

use crate::analyze::analyze;
use crate::error::{Result, usage};
use crate::options::{Input, Options};
use crate::prepare::{Prepared, constrained_smp, prepare, read_placement};

/// A policy ready to replay on a placement.
pub struct Simulation {
    /// The trace and its problem.
    pub prepared: Prepared,
    /// The workload replayed.
    pub workload: Replay,
    /// The warnings of its chains (a named chain the trace never travels).
    pub chain_warnings: Vec<Warning>,
    /// The policy run: the one asked for, except AMP with masks (masks)
    /// and global SMP that pins or allowed cores narrow (masks).
    pub policy: Policy,
    /// Whether pins or allowed cores narrowed global SMP to masks.
    pub narrowed: bool,
    /// Each placed task's core (its home, under masks).
    pub core_of: Vec<u16>,
    /// Its cores, under masks.
    pub masks: Option<Vec<CoreSet>>,
}

/// `policy` ready to replay: on the placement in `placement` (a record
/// with a `placement` list), else for AMP and masks on the placement the
/// objective recommends (searched as `analyze` does; AMP on the best
/// AMP one), else (single core, global SMP) on none.
///
/// # Errors
/// Reading or analysing fails; masks asked of a placement file that gives
/// every task one core.
pub fn simulation(input: &Input, options: &Options, policy: Policy, placement: Option<&Path>) -> Result<Simulation> {
    let (prepared, core_of, masks) = match (placement, policy) {
        (Some(file), _) => {
            let p = prepare(input, options)?;
            let (core_of, masks) = read_placement(file, &p.problem, &p.platform)?;
            if policy == Policy::Masks && masks.is_none() {
                return Err(usage(
                    "--policy masks replays affinity masks: the placement file gives every task one core (use `cores`), or use --policy amp",
                ));
            }
            (p, core_of, masks)
        }
        (None, Policy::Amp | Policy::Masks) => {
            let options = Options { masks: policy == Policy::Masks, ..options.clone() };
            let a = analyze(input, &options)?;
            let (core_of, masks) = match (&a.timing, policy) {
                (Some(t), Policy::Amp) => (t.amp.core_of.clone(), None),
                _ => (a.placement, a.masks),
            };
            (a.prepared, core_of, masks)
        }
        (None, _) => {
            let p = prepare(input, options)?;
            let n = p.problem.len();
            (p, vec![0; n], None)
        }
    };
    let policy = if policy == Policy::Amp && masks.is_some() { Policy::Masks } else { policy };
    // Global SMP within pins and allowed cores (a model's GPU-only task
    // never runs on a CPU).
    let (policy, masks, narrowed) = match (policy, masks) {
        (Policy::Smp | Policy::SmpLeastLoaded, None) => match constrained_smp(&prepared) {
            Some(sets) => (Policy::Masks, Some(sets), true),
            None => (policy, None, false),
        },
        (policy, masks) => (policy, masks, false),
    };
    let (workload, chain_warnings) = prepared.workload()?;
    Ok(Simulation { prepared, workload, chain_warnings, policy, narrowed, core_of, masks })
}

impl Simulation {
    /// The replay (with its timeline when asked).
    pub fn run(&self, timeline: bool) -> Outcome {
        let p = &self.prepared;
        p.run(&self.workload, &p.platform, self.policy, &self.core_of, self.masks.as_deref(), timeline)
    }
}

/// The timeline of `p`'s recording above `o`, a replay of `workload` run
/// with its timeline, opening on `window` (ns) or where the two differ
/// most.
///
/// # Errors
/// A window that starts after the run, or that holds more than
/// [`MAX_WINDOW_SEGMENTS`] segments.
pub fn timeline(p: &Prepared, workload: &Replay, o: &Outcome, window: Option<[u64; 2]>) -> Result<TimelineRecord> {
    let recorded_chains = workload.recorded_chains();
    let runs = [
        Run::recording(&p.schedule, workload, p.parsed.model.is_some(), recorded_chains.iter().collect()),
        Run::replayed(&format!("{} on {} core(s)", o.policy.label(), o.cores), o),
    ];
    let pick = match window {
        Some(w) => {
            let end = runs.iter().map(Run::end_ns).max().unwrap_or(0);
            if w[0] >= end {
                return Err(usage(format!(
                    "--window starts at {:.3} ms; the run ends at {:.3} ms",
                    w[0] as f64 / 1e6,
                    end as f64 / 1e6
                )));
            }
            let held: usize = runs.iter().map(|r| r.count_in(w)).sum();
            if held > MAX_WINDOW_SEGMENTS {
                return Err(usage(format!(
                    "--window holds {held} segments of the two runs; at most {MAX_WINDOW_SEGMENTS} are drawn: pick a narrower one"
                )));
            }
            Pick::Given(w)
        }
        None => Pick::Differ { a: 0, b: 1, chain: p.objective == Objective::Chains },
    };
    Ok(TimelineRecord::of_replay(&runs, workload, pick))
}
