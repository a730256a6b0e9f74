//! The judge: replays placements of the merged problem on the whole trace,
//! a batch at a time in parallel, within the budget and the time limit,
//! remembering every answer (a placement met again costs nothing).

use std::time::Instant;

use corera_placement::{CoreId, CoreSet, Placement, Problem};
use corera_replay::Outcome;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::surrogate::Surrogate;
use crate::{FrontPoint, Score, TimingInput, describe};

/// Estimated replay time from which a batch's replays run in parallel.
const PARALLEL_FROM_NS: f64 = 2e5;

/// A placement of the merged problem to replay: a core per merged task,
/// and for a mask placement each task's cores (its core is its home).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Probe {
    pub(super) core_of: Vec<CoreId>,
    pub(super) masks: Option<Vec<CoreSet>>,
}

/// What a replay said about a probe.
#[derive(Clone, Debug)]
pub(super) struct Judged {
    pub(super) score: Score,
    /// Per merged task, how long it waited ready.
    pub(super) waits: Vec<u64>,
}

/// Replays within a budget of replays.
pub(super) struct Judge<'a> {
    pub(super) input: &'a TimingInput<'a>,
    /// Groups kept together merged; `slot[i]`: task `i`'s merged task.
    pub(super) merged: Problem,
    pub(super) slot: Vec<u32>,
    pub(super) surrogate: Surrogate,
    /// Cores that keep their identity when placements are compared up to a
    /// renaming of identical cores; `None` when cores are not alike.
    fixed_cores: Option<Vec<bool>>,
    budget: u64,
    replays: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
    cache: FxHashMap<Probe, Judged>,
    pub(super) front: Vec<FrontPoint>,
    /// (surrogate, objective) of the AMP placements judged.
    pub(super) ranked: Vec<(f64, f64)>,
    progress: Option<crate::TuneProgress>,
    best: Option<Score>,
}

impl<'a> Judge<'a> {
    pub(super) fn new(
        input: &'a TimingInput<'a>,
        budget: u64,
        deadline: Option<Instant>,
        progress: Option<crate::TuneProgress>,
    ) -> Judge<'a> {
        let problem = input.problem;
        let (merged, slot) =
            problem.contract().unwrap_or_else(|| (problem.clone(), (0..problem.len() as u32).collect()));
        let surrogate = input.surrogate().merged(&slot);
        let k = input.platform.cores;
        let fixed_cores = input.platform.is_symmetric().then(|| merged.fixed_cores(k));
        Judge {
            input,
            merged,
            slot,
            surrogate,
            fixed_cores,
            budget,
            replays: 0,
            deadline,
            out_of_time: false,
            cache: FxHashMap::default(),
            front: Vec::new(),
            ranked: Vec::new(),
            progress,
            best: None,
        }
    }

    /// The budget, in replays.
    pub(super) fn budget(&self) -> u64 {
        self.budget
    }

    /// Replays run.
    pub(super) fn replays(&self) -> u64 {
        self.replays
    }

    /// Whether the time limit stopped the search.
    pub(super) fn out_of_time(&self) -> bool {
        self.out_of_time
    }

    /// Whether one more replay fits in the budget, up to `stop` of it, and
    /// in the time.
    pub(super) fn can_afford(&mut self, stop: u64) -> bool {
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.out_of_time = true;
        }
        !self.out_of_time && self.replays < self.budget.min(stop)
    }

    /// The canonical form of an AMP placement: identical cores renamed in
    /// order of first use, so that placements equal up to renaming are
    /// replayed (and counted) once. Mask placements stay as they are.
    pub(super) fn canonical(&self, probe: Probe) -> Probe {
        match (&self.fixed_cores, &probe.masks) {
            (Some(fixed), None) => {
                let k = self.input.platform.cores;
                Probe { core_of: Placement::new(probe.core_of).canonical(k, fixed).core_of, masks: None }
            }
            _ => probe,
        }
    }

    /// What is known of a probe already, without replaying it.
    pub(super) fn known(&self, probe: &Probe) -> Option<&Judged> {
        self.cache.get(probe)
    }

    /// Replays the probes not met before, in parallel (answers in order),
    /// up to `stop` replays in all; `None` for those the budget or the time
    /// left no room for.
    pub(super) fn judge(&mut self, probes: &[Probe], stop: u64) -> Vec<Option<Judged>> {
        self.judge_while(probes, |judge| judge.can_afford(stop))
    }

    /// Judges `probes` whatever the budget and the time limit (counted all
    /// the same): for the one point a search cannot start without.
    pub(super) fn judge_regardless(&mut self, probes: &[Probe]) -> Vec<Option<Judged>> {
        self.judge_while(probes, |_| true)
    }

    /// Replays the probes not met before while `room` says there is room
    /// for one more, in parallel; every probe's answer, in order.
    fn judge_while(&mut self, probes: &[Probe], room: impl Fn(&mut Self) -> bool) -> Vec<Option<Judged>> {
        let mut todo: Vec<usize> = Vec::new();
        let mut seen: FxHashMap<&Probe, ()> = FxHashMap::default();
        for (i, p) in probes.iter().enumerate() {
            if self.cache.contains_key(p) || seen.contains_key(p) {
                continue;
            }
            if !room(self) {
                break;
            }
            seen.insert(p, ());
            self.replays += 1;
            todo.push(i);
        }
        let this = &*self;
        let one = |&i: &usize| {
            let p = &probes[i];
            let o = this.replay(&p.core_of, p.masks.as_deref());
            (i, this.judged(p, &o))
        };
        // Replays of a fifth of a millisecond or less run in turn: handing
        // them to other threads costs more than it saves (measured on the
        // Juno sample: 4.7 s in turn, 6.3 s on two threads). Either way
        // the answers are the same.
        let fresh: Vec<(usize, Judged)> = if crate::explore::replay_estimate_ns(self.input) < PARALLEL_FROM_NS {
            todo.iter().map(one).collect()
        } else {
            todo.par_iter().map(one).collect()
        };
        for (i, j) in fresh {
            let p = &probes[i];
            let traffic = self.merged.cross_traffic(self.input.platform, &p.core_of);
            self.front.push(FrontPoint { traffic, score: j.score, masks: p.masks.is_some() });
            if p.masks.is_none() {
                // Ties on the objective (no READY at all) are broken by
                // the secondary measure, as the search breaks them.
                let objective = j.score.primary + j.score.secondary * 1e-9;
                let s = self.surrogate.value(&self.merged, self.input.platform, &p.core_of);
                self.ranked.push((s, objective));
            }
            self.cache.insert(p.clone(), j);
        }
        let answers: Vec<Option<Judged>> = probes.iter().map(|p| self.cache.get(p).cloned()).collect();
        self.report();
        answers
    }

    fn judged(&self, p: &Probe, o: &Outcome) -> Judged {
        let traffic = self.merged.cross_traffic(self.input.platform, &p.core_of);
        let mut waits = vec![0u64; self.merged.len()];
        for (i, &r) in self.input.replay_of.iter().enumerate() {
            waits[self.slot[i] as usize] += o.tasks[r as usize].ready_ns;
        }
        Judged { score: Score::of(self.input.objective, o, traffic), waits }
    }

    /// Every task's core (and mask) of a merged placement.
    pub(super) fn expand(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> (Vec<CoreId>, Option<Vec<CoreSet>>) {
        let full: Vec<CoreId> = self.slot.iter().map(|&s| core_of[s as usize]).collect();
        let full_masks = masks.map(|m| self.slot.iter().map(|&s| m[s as usize].clone()).collect::<Vec<_>>());
        (full, full_masks)
    }

    /// The merged placement of a full one: each group's first member's core.
    pub(super) fn merge(&self, full: &[CoreId]) -> Vec<CoreId> {
        let m = self.merged.len();
        let mut out = vec![0; m];
        let mut set = vec![false; m];
        for (i, &s) in self.slot.iter().enumerate() {
            if !set[s as usize] {
                out[s as usize] = full[i];
                set[s as usize] = true;
            }
        }
        out
    }

    /// Replays a merged placement on the whole trace.
    pub(super) fn replay(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> Outcome {
        let (full, full_masks) = self.expand(core_of, masks);
        self.input.replay(&full, full_masks.as_deref(), false)
    }

    /// Records a score found, for the progress display.
    pub(super) fn tell(&mut self, found: &Score) {
        if self.best.is_none_or(|b| found.beats(&b)) {
            self.best = Some(*found);
        }
        self.report();
    }

    /// Reports progress: the replays run, and the best score so far.
    fn report(&self) {
        if let (Some(p), Some(b)) = (&self.progress, &self.best) {
            (p.0)(self.replays, self.budget, &describe(self.input.objective, b));
        }
    }
}
