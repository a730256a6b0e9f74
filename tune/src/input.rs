//! What the timing search works on: the placement problem, the workload to
//! replay, who waited for whom on one core, and the traffic optimum.

use corera_placement::{CoreId, CoreSet, Objective, Platform, Problem};
use corera_replay::{Outcome, Policy, Replay, Setup, simulate};
use corera_search::Solution;

use crate::surrogate::Surrogate;

/// What the timing search works on, besides the placement problem.
#[derive(Clone, Debug)]
pub struct TimingInput<'a> {
    /// The placement problem (its load limits and constraints hold).
    pub problem: &'a Problem,
    /// The platform, with the costs the replay charges.
    pub platform: &'a Platform,
    /// What placements are judged by.
    pub objective: Objective,
    /// The trace's workload.
    pub workload: &'a Replay,
    /// Per problem task, its index among the replay's tasks.
    pub replay_of: Vec<u32>,
    /// Per problem task, how long it waited while each other (problem)
    /// task ran: `(task, ns)`.
    pub waited: Vec<Vec<(u32, u64)>>,
    /// Per problem task, its urgency (larger runs first).
    pub urgency: Vec<i64>,
    /// Per problem task, whether it is an ISR (ISRs keep one core).
    pub isr: Vec<bool>,
    /// The traffic-optimal placement.
    pub traffic: &'a Solution,
    /// Placements given with the input to start from as well (an Amalthea
    /// model's own mapping): a core per problem task.
    pub given: Vec<Vec<CoreId>>,
}

/// `waited` less each task's waits on a more urgent task (not an ISR).
fn held_back_apart(waited: Vec<Vec<(u32, u64)>>, urgency: &[i64], isr: &[bool]) -> Vec<Vec<(u32, u64)>> {
    waited
        .into_iter()
        .enumerate()
        .map(|(i, list)| {
            list.into_iter().filter(|&(j, _)| isr[j as usize] || isr[i] || urgency[j as usize] <= urgency[i]).collect()
        })
        .collect()
}

impl<'a> TimingInput<'a> {
    /// The input for `problem` (tasks of the trace whose replayable
    /// workload is `workload`, task ids as in the trace): who waited for
    /// whom comes from replaying the workload on one core (which
    /// reproduces the recorded RUNNING, and works for traces that record
    /// no ready events), urgencies and ISRs from the workload.
    pub fn new(
        problem: &'a Problem,
        platform: &'a Platform,
        objective: Objective,
        workload: &'a Replay,
        traffic: &'a Solution,
    ) -> TimingInput<'a> {
        let replay_of: Vec<u32> = problem.task_ids.iter().map(|&id| workload.index_of[id as usize]).collect();
        let cores = vec![0u16; workload.tasks.len()];
        let single = simulate(
            workload,
            &Setup { policy: Policy::Single, platform, core_of: Some(&cores), masks: None, timeline: true },
        );
        let by_replay = single.waited_on();
        let mut problem_of = vec![u32::MAX; workload.tasks.len()];
        for (i, &r) in replay_of.iter().enumerate() {
            problem_of[r as usize] = i as u32;
        }
        let waited: Vec<Vec<(u32, u64)>> = replay_of
            .iter()
            .map(|&r| {
                by_replay[r as usize]
                    .iter()
                    .filter(|&&(j, _)| problem_of[j as usize] != u32::MAX)
                    .map(|&(j, ns)| (problem_of[j as usize], ns))
                    .collect()
            })
            .collect();
        let urgency: Vec<i64> = replay_of.iter().map(|&r| workload.tasks[r as usize].urgency).collect();
        let isr: Vec<bool> = replay_of.iter().map(|&r| workload.tasks[r as usize].isr).collect();
        // A kernel that runs one priority at a time holds a task back
        // while a more urgent task runs on any core: that wait stays
        // whatever the placement, so it does not steer.
        let waited = if workload.rules.multiple_priorities || platform.cores < 2 {
            waited
        } else {
            held_back_apart(waited, &urgency, &isr)
        };
        TimingInput {
            problem,
            platform,
            objective,
            workload,
            replay_of,
            waited,
            urgency,
            isr,
            traffic,
            given: Vec::new(),
        }
    }

    /// A placement of the problem's tasks (and their masks) as the replay
    /// takes it: a core (and a mask) per replay task.
    pub fn replay_placement(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> (Vec<u16>, Option<Vec<CoreSet>>) {
        let n = self.workload.tasks.len();
        let mut cores = vec![0u16; n];
        let mut sets = masks.map(|_| vec![CoreSet::new(); n]);
        for (i, &r) in self.replay_of.iter().enumerate() {
            cores[r as usize] = core_of[i];
            if let (Some(sets), Some(m)) = (sets.as_mut(), masks) {
                sets[r as usize] = m[i].clone();
            }
        }
        (cores, sets)
    }

    /// Replays the whole workload under a placement of the problem's tasks
    /// (AMP), or their masks (the masks policy).
    pub fn replay(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>, timeline: bool) -> Outcome {
        self.replay_on(self.platform, core_of, masks, timeline)
    }

    /// [`TimingInput::replay`] on another platform (other costs).
    pub fn replay_on(
        &self,
        platform: &Platform,
        core_of: &[CoreId],
        masks: Option<&[CoreSet]>,
        timeline: bool,
    ) -> Outcome {
        let (cores, sets) = self.replay_placement(core_of, masks);
        let policy = if masks.is_some() { Policy::Masks } else { Policy::Amp };
        let setup = Setup { policy, platform, core_of: Some(&cores), masks: sets.as_deref(), timeline };
        simulate(self.workload, &setup)
    }

    /// The timing surrogate the search steers by, over the problem's tasks.
    pub fn surrogate(&self) -> Surrogate {
        Surrogate::new(self.problem.len(), &self.waited, self.alpha())
    }

    /// The surrogate's price of one unit of cross-core traffic, in ns of
    /// the objective. For READY, none: on the samples the waiting term
    /// alone ranks placements best (Spearman 0.77 / 0.73 / 0.38 / 0.70
    /// against the replay on the printer, rp2-cluster, tile64-daq and
    /// FreeRTOS samples, against 0.77 / 0.73 / 0.27 / 0.70 with the
    /// interrupt's CPU time scaled by the squared mean utilisation; `cargo
    /// bench --bench surrogate`): the interrupts a placement adds rarely
    /// make anything wait. For response times and deadlines, a cross-core
    /// signal's latency adds to the response of the job it releases.
    pub fn alpha(&self) -> f64 {
        match self.objective {
            Objective::Ready | Objective::Traffic => 0.0,
            Objective::Response | Objective::Deadlines | Objective::Chains => {
                self.platform.costs.message_latency_ns as f64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use corera_placement::{Constraints, Kernel, Objective, Platform, Problem};
    use corera_replay::{Replay, Workload, generate};
    use corera_search::{Options, portfolio};
    use corera_trace_ingest::Schedule;

    use super::TimingInput;

    /// On one core Slow waits while Fast runs. A kernel that runs several
    /// priorities at once frees it by putting them apart, so that wait
    /// steers the search; one that runs one priority at a time holds Slow
    /// back wherever Fast runs, so it does not.
    #[test]
    fn waits_on_a_more_urgent_task_steer_only_where_priorities_run_at_once() {
        let workload = Workload::from_toml(
            r#"
            name = "t"
            duration_ms = 20
            [[task]]
            name = "Fast"
            priority = 3
            period_us = 1000
            exec_us = [300, 300]
            [[task]]
            name = "Slow"
            priority = 1
            period_us = 4000
            exec_us = [1500, 1500]
            "#,
        )
        .unwrap();
        let trace = generate(&workload).unwrap();
        let schedule = Schedule::of(&trace);
        let (graph, _) = corera_task_graph::TaskGraph::from_schedule(&trace, &schedule).unwrap();
        let platform = Platform::identical(2);
        let problem = Problem::from_graph(&graph, &platform, &Constraints::default()).unwrap();
        let traffic = portfolio(&problem, &platform, &Options::default()).unwrap();
        let mut replay = Replay::new(&trace, &schedule, &vec![None; trace.tasks.len()]);
        let slow = problem.task_ids.iter().position(|&id| trace.tasks[id as usize].name == "Slow").unwrap();
        let waits = |replay: &Replay| {
            let input = TimingInput::new(&problem, &platform, Objective::Ready, replay, &traffic);
            input.waited[slow].iter().map(|&(_, ns)| ns).sum::<u64>()
        };
        replay.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
        assert!(waits(&replay) > 0);
        replay.set_kernel(&Kernel { run_multiple_priorities: Some(false), ..Kernel::default() }).unwrap();
        assert_eq!(waits(&replay), 0);
    }
}
