//! The set-ups the summary and the report compare, replayed with their
//! timelines: one core, global SMP within the constraints, the traffic
//! optimum, the best AMP placement and the recommendation.

use corera_placement::{CoreSet, Platform, Problem};
use corera_replay::{Outcome, Policy, Replay, Setup, simulate};

use crate::TimingSolution;

/// Replays placements of a problem's tasks on a workload.
#[derive(Clone, Copy, Debug)]
pub struct Setups<'a> {
    /// The placement problem (its tasks, pins and allowed cores).
    pub problem: &'a Problem,
    /// The platform, with the replay's costs.
    pub platform: &'a Platform,
    /// The workload replayed.
    pub workload: &'a Replay,
}

impl Setups<'_> {
    /// Replays the workload under `policy` with a placement of the
    /// problem's tasks (and their masks) on `platform`.
    pub fn run(
        &self,
        platform: &Platform,
        policy: Policy,
        core_of: &[u16],
        masks: Option<&[CoreSet]>,
        timeline: bool,
    ) -> Outcome {
        let w = self.workload;
        let cores = w.cores(&self.problem.cores_by_task_id(core_of, w.index_of.len()));
        let sets = masks.map(|m| {
            let mut by_id = vec![CoreSet::one(0); w.index_of.len()];
            for (&id, set) in self.problem.task_ids.iter().zip(m) {
                by_id[id as usize] = set.clone();
            }
            w.tasks.iter().map(|t| by_id[t.id as usize].clone()).collect::<Vec<_>>()
        });
        simulate(w, &Setup { policy, platform, core_of: Some(&cores), masks: sets.as_deref(), timeline })
    }

    /// Global SMP within the constraints ([`Problem::smp_masks`]): plain
    /// global SMP when no constraint narrows it (each task starting on its
    /// core of `core_of`), else the masks policy.
    pub fn smp(&self, core_of: &[u16], timeline: bool) -> Outcome {
        let (masks, narrowed) = self.problem.smp_masks(self.platform.cores);
        if narrowed {
            let homes: Vec<u16> = masks.iter().map(|s| s.iter().next().unwrap_or(0)).collect();
            self.run(self.platform, Policy::Masks, &homes, Some(&masks), timeline)
        } else {
            self.run(self.platform, Policy::Smp, core_of, None, timeline)
        }
    }

    /// The labelled replays the summary and the report show, with
    /// timelines: single core, global SMP, the traffic-optimal placement
    /// (`traffic`), and the recommendation `placement` (after the best
    /// AMP placement when it is not that); without a timing search,
    /// `placement` as `AMP (placement)`.
    pub fn report(
        &self,
        traffic: &[u16],
        timing: Option<(&TimingSolution, Policy)>,
        placement: &[u16],
        masks: Option<&[CoreSet]>,
    ) -> Vec<(String, Outcome)> {
        let run =
            |policy: Policy, core_of: &[u16], m: Option<&[CoreSet]>| self.run(self.platform, policy, core_of, m, true);
        let mut runs = vec![
            ("single core".to_string(), run(Policy::Single, traffic, None)),
            ("global SMP".to_string(), self.smp(traffic, true)),
        ];
        let Some((t, choice)) = timing else {
            runs.push(("AMP (placement)".to_string(), run(Policy::Amp, placement, None)));
            return runs;
        };
        runs.push(("AMP, traffic-optimal".to_string(), run(Policy::Amp, traffic, None)));
        match (choice, masks) {
            (Policy::Amp, _) | (_, None) => {
                runs.push(("AMP, recommended".to_string(), run(Policy::Amp, placement, None)))
            }
            (choice, Some(m)) => {
                runs.push(("AMP, best".to_string(), run(Policy::Amp, &t.amp.core_of, None)));
                let label = if choice == Policy::Smp { "global SMP, recommended" } else { "masks, recommended" };
                runs.push((label.to_string(), run(Policy::Masks, placement, Some(m))));
            }
        }
        runs
    }
}
