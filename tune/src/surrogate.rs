//! The timing surrogate: a fast estimate of how long tasks wait under a
//! placement, for the engine to steer by before the replay judges.
//!
//! From the traced jobs replayed on one core (which reproduces the recorded
//! RUNNING, and works for traces that record no ready events),
//! `waited[i][j]` is how long task `i` waited (ready, or paused by an ISR)
//! while task `j` ran. Placing `j` on another core removes that wait to
//! first order, so the surrogate of a placement is the waiting that stays:
//!
//! `S = Σ_{i, j on one core} waited[i][j] + α × J`
//!
//! (less, where the kernel runs one priority at a time on several cores,
//! each wait on a more urgent task: the kernel holds the task back
//! wherever that one runs, so no placement removes it), where `J` is the
//! topology-weighted cross-core traffic and `α` what a
//! unit of it is taken to cost: 0 for the `ready` objective (a signal's
//! cost reaches READY only through CPU time, which the replay charges) and
//! the cross-core latency `message_latency_ns` for `response` and
//! `deadlines` (every signal across cores lengthens its chain by that
//! much). The search also anneals with α raised by one and by ten times
//! `message_cpu_ns`, for starting points between traffic and timing. For
//! the placement that puts every task on one core, `S` is that waiting
//! exactly; for others it ignores second-order effects (work that moves in
//! time, and waiting it causes in turn), which is why the replay has the
//! last word. The book's search page reports how well it ranks placements
//! against the replay.
//!
//! [`anneal`] minimises `S` under the same rules as the traffic search
//! (pins, allowed cores, tasks apart; groups kept together move as one;
//! never more load above a core's limit); [`spread_by_priority`] is a
//! constructive start that keeps urgent tasks apart.

use corera_placement::rng::SplitMix64;
use corera_placement::{CoreId, Platform, Problem};
use corera_search::Cooling;

/// Pairwise same-core costs of the tasks of a problem.
#[derive(Clone, Debug)]
pub struct Surrogate {
    n: usize,
    /// `same[i * n + j]`: what `i` and `j` cost when on one core (both
    /// directions of waiting), ns.
    same: Vec<f64>,
    /// ns of surrogate per unit of topology-weighted traffic.
    alpha: f64,
}

impl Surrogate {
    /// The surrogate of a problem of `n` tasks whose task `i` waited
    /// `waited[i]` = `(j, ns)` on task `j`, with `alpha` ns per unit of
    /// cross-core traffic.
    pub fn new(n: usize, waited: &[Vec<(u32, u64)>], alpha: f64) -> Surrogate {
        let mut same = vec![0.0; n * n];
        for (i, list) in waited.iter().enumerate().take(n) {
            for &(j, ns) in list {
                let j = j as usize;
                if j < n && j != i {
                    same[i * n + j] += ns as f64;
                    same[j * n + i] += ns as f64;
                }
            }
        }
        Surrogate { n, same, alpha }
    }

    /// The surrogate of the problem whose task `i` became task `slot[i]`
    /// (groups kept together merged): same-core costs add up, those inside
    /// a group are dropped (they are always on one core).
    pub fn merged(&self, slot: &[u32]) -> Surrogate {
        let m = slot.iter().map(|&s| s as usize + 1).max().unwrap_or(0);
        let mut same = vec![0.0; m * m];
        for i in 0..self.n {
            for j in 0..self.n {
                let (a, b) = (slot[i] as usize, slot[j] as usize);
                if a != b {
                    same[a * m + b] += self.same[i * self.n + j];
                }
            }
        }
        Surrogate { n: m, same, alpha: self.alpha }
    }

    /// ns of surrogate per unit of cross-core traffic.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The same surrogate with `alpha` ns per unit of traffic.
    pub fn with_alpha(mut self, alpha: f64) -> Surrogate {
        self.alpha = alpha;
        self
    }

    /// What tasks `i` and `j` cost on one core (both directions).
    pub fn pair(&self, i: usize, j: usize) -> f64 {
        self.same[i * self.n + j]
    }

    /// The change of the waiting term of `S` when task `i` moves to core
    /// `to` under `core_of`: O(tasks), for ordering the steps of a descent.
    pub fn move_delta(&self, core_of: &[CoreId], i: usize, to: CoreId) -> f64 {
        let from = core_of[i];
        let row = &self.same[i * self.n..(i + 1) * self.n];
        let mut d = 0.0;
        for (j, &c) in core_of.iter().enumerate() {
            if j != i {
                if c == to {
                    d += row[j];
                } else if c == from {
                    d -= row[j];
                }
            }
        }
        d
    }

    /// The change of the waiting term of `S` when tasks `i` and `j` (on
    /// different cores) trade cores under `core_of`.
    pub fn swap_delta(&self, core_of: &[CoreId], i: usize, j: usize) -> f64 {
        let (ci, cj) = (core_of[i], core_of[j]);
        // Each moves as if the other stayed; their own pair stays apart.
        self.move_delta(core_of, i, cj) + self.move_delta(core_of, j, ci) - 2.0 * self.pair(i, j)
    }

    /// `S` of `core_of` (a placement of `problem`).
    pub fn value(&self, problem: &Problem, platform: &Platform, core_of: &[CoreId]) -> f64 {
        let mut s = 0.0;
        for i in 0..self.n {
            for j in i + 1..self.n {
                if core_of[i] == core_of[j] {
                    s += self.same[i * self.n + j];
                }
            }
        }
        s + self.alpha * problem.cross_traffic(platform, core_of) as f64
    }
}

/// A placement with the bookkeeping for O(n) move evaluation.
struct Walk<'a> {
    problem: &'a Problem,
    platform: &'a Platform,
    s: &'a Surrogate,
    k: usize,
    limits: Vec<u64>,
    core_of: Vec<CoreId>,
    load: Vec<u64>,
    /// `near[i * k + c]`: same-core cost of task `i` with the tasks on `c`.
    near: Vec<f64>,
    value: f64,
}

impl<'a> Walk<'a> {
    fn new(problem: &'a Problem, platform: &'a Platform, s: &'a Surrogate, core_of: Vec<CoreId>) -> Walk<'a> {
        let (n, k) = (problem.len(), usize::from(platform.cores));
        let mut load = vec![0; k];
        let mut near = vec![0.0; n * k];
        for i in 0..n {
            load[usize::from(core_of[i])] += problem.load[i];
            for j in 0..n {
                if j != i {
                    near[i * k + usize::from(core_of[j])] += s.pair(i, j);
                }
            }
        }
        let value = s.value(problem, platform, &core_of);
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        Walk { problem, platform, s, k, limits, core_of, load, near, value }
    }

    fn over(&self, core: usize, load: u64) -> u64 {
        load.saturating_sub(self.limits[core])
    }

    /// Change of (overload, value) when task `i` moves to `to`.
    fn move_delta(&self, i: usize, to: usize) -> (i64, f64) {
        let from = usize::from(self.core_of[i]);
        let w = self.problem.load[i];
        let d_over = (self.over(from, self.load[from] - w) + self.over(to, self.load[to] + w)) as i64
            - (self.over(from, self.load[from]) + self.over(to, self.load[to])) as i64;
        let d_near = self.near[i * self.k + to] - self.near[i * self.k + from];
        let d_traffic: i64 = self.problem.adjacency[i]
            .iter()
            .map(|&(j, w)| {
                let c = usize::from(self.core_of[j as usize]);
                w as i64 * (self.platform.distance(to, c) as i64 - self.platform.distance(from, c) as i64)
            })
            .sum();
        (d_over, d_near + self.s.alpha * d_traffic as f64)
    }

    fn apply_move(&mut self, i: usize, to: usize) {
        let (_, d) = self.move_delta(i, to);
        let from = usize::from(self.core_of[i]);
        self.value += d;
        self.load[from] -= self.problem.load[i];
        self.load[to] += self.problem.load[i];
        self.core_of[i] = to as CoreId;
        for j in 0..self.problem.len() {
            if j != i {
                let w = self.s.pair(j, i);
                self.near[j * self.k + from] -= w;
                self.near[j * self.k + to] += w;
            }
        }
    }
}

/// Minimises the surrogate from `start` by simulated annealing (moves and
/// swaps, `steps` attempts, seeded); never raises the load above a core's
/// limit and keeps every constraint. Deterministic for a seed.
pub fn anneal(
    problem: &Problem,
    platform: &Platform,
    s: &Surrogate,
    start: &[CoreId],
    seed: u64,
    steps: u64,
) -> Vec<CoreId> {
    let k = usize::from(platform.cores);
    let movable: Vec<usize> = (0..problem.len()).filter(|&i| problem.pinned[i].is_none()).collect();
    let mut w = Walk::new(problem, platform, s, start.to_vec());
    let overload = |w: &Walk<'_>| (0..k).map(|c| w.over(c, w.load[c])).sum::<u64>();
    let mut best = ((overload(&w), w.value), w.core_of.clone());
    if movable.is_empty() || k < 2 {
        return best.1;
    }
    let mut rng = SplitMix64::new(seed ^ 0x7469_6d69_6e67);
    let mut uphill = Vec::new();
    for _ in 0..200 {
        let i = movable[rng.below(movable.len() as u64) as usize];
        let to = rng.below(k as u64) as usize;
        if to != usize::from(w.core_of[i]) && problem.fits(i, to, &w.core_of) {
            uphill.push(w.move_delta(i, to).1);
        }
    }
    let mut cooling = Cooling::geometric(Cooling::start_from(uphill), 1e-3, steps);
    for _ in 0..steps {
        cooling.step();
        let i = movable[rng.below(movable.len() as u64) as usize];
        let accept = |rng: &mut SplitMix64, d_over: i64, d: f64| d_over < 0 || (d_over == 0 && cooling.accepts(d, rng));
        if rng.below(2) == 0 {
            let to = rng.below(k as u64 - 1) as usize;
            let to = if to >= usize::from(w.core_of[i]) { to + 1 } else { to };
            if !problem.fits(i, to, &w.core_of) {
                continue;
            }
            let (d_over, d) = w.move_delta(i, to);
            if !accept(&mut rng, d_over, d) {
                continue;
            }
            w.apply_move(i, to);
        } else {
            let j = movable[rng.below(movable.len() as u64) as usize];
            let (ci, cj) = (usize::from(w.core_of[i]), usize::from(w.core_of[j]));
            if ci == cj || !problem.swap_fits(i, j, &w.core_of) {
                continue;
            }
            let before = (overload(&w), w.value);
            w.apply_move(i, cj);
            w.apply_move(j, ci);
            let (d_over, d) = (overload(&w) as i64 - before.0 as i64, w.value - before.1);
            if !accept(&mut rng, d_over, d) {
                w.apply_move(j, cj);
                w.apply_move(i, ci);
                continue;
            }
        }
        let now = (overload(&w), w.value);
        if now.0 < best.0.0 || (now.0 == best.0.0 && now.1 < best.0.1 - 1e-6) {
            best = (now, w.core_of.clone());
        }
    }
    best.1
}

/// A start that keeps urgent tasks apart: tasks from the most urgent down
/// (heavier first among equals), each onto the allowed core where the
/// load of the tasks at least as urgent is least, within the core limits
/// when some core has room.
pub fn spread_by_priority(problem: &Problem, platform: &Platform, urgency: &[i64]) -> Vec<CoreId> {
    let (n, k) = (problem.len(), usize::from(platform.cores));
    let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        (problem.pinned[i].is_none(), std::cmp::Reverse(urgency[i]), std::cmp::Reverse(problem.load[i]), i)
    });
    let mut core_of: Vec<CoreId> = vec![0; n];
    let mut placed = vec![false; n];
    let mut load = vec![0u64; k];
    let mut urgent = vec![0u64; k];
    for i in order {
        let fits = |c: usize| {
            problem.allows(i, c)
                && problem.apart[i].iter().all(|&j| !placed[j as usize] || usize::from(core_of[j as usize]) != c)
        };
        let candidates: Vec<usize> = (0..k).filter(|&c| fits(c)).collect();
        let room: Vec<usize> = candidates.iter().copied().filter(|&c| load[c] + problem.load[i] <= limits[c]).collect();
        let pool = if room.is_empty() { &candidates } else { &room };
        let c = pool
            .iter()
            .copied()
            .min_by_key(|&c| (urgent[c], load[c], c))
            .or(problem.pinned[i].map(usize::from))
            .unwrap_or(0);
        core_of[i] = c as CoreId;
        placed[i] = true;
        load[c] += problem.load[i];
        urgent[c] += problem.load[i];
    }
    core_of
}

#[cfg(test)]
mod tests {
    use corera_placement::{Placement, Platform, Problem};

    use super::*;

    /// Four tasks that waited on each other in pairs: A on B, C on D. The
    /// surrogate is the recorded waiting on one core, and the annealing
    /// separates the pairs (no traffic ties them).
    #[test]
    fn the_surrogate_is_the_waiting_that_stays_on_one_core() {
        let problem =
            Problem::new(["A", "B", "C", "D"].map(String::from).to_vec(), vec![10, 10, 10, 10], vec![(0, 2, 1)], 100);
        let waited = vec![vec![(1, 50)], vec![], vec![(3, 30)], vec![]];
        let platform = Platform::identical(2);
        let s = Surrogate::new(4, &waited, 5.0);
        assert_eq!(s.value(&problem, &platform, &[0, 0, 0, 0]), 80.0, "all on one core: the recorded waiting");
        assert_eq!(s.value(&problem, &platform, &[0, 1, 0, 1]), 0.0, "both pairs split, A and C together");
        assert_eq!(s.value(&problem, &platform, &[0, 1, 1, 0]), 5.0, "pairs split, one traffic unit across");
        let best = anneal(&problem, &platform, &s, &[0, 0, 1, 1], 1, 2_000);
        assert_eq!(s.value(&problem, &platform, &best), 0.0, "{best:?}");
        // Merging A and C (kept together) keeps the costs between groups.
        let m = s.merged(&[0, 1, 0, 2]);
        assert_eq!((m.pair(0, 1), m.pair(0, 2), m.pair(1, 2)), (50.0, 30.0, 0.0));
        let _ = Placement::new(best);
    }

    #[test]
    fn spreading_by_priority_keeps_the_urgent_apart_within_limits() {
        let problem =
            Problem::new(["Hi1", "Hi2", "Lo1", "Lo2"].map(String::from).to_vec(), vec![30, 30, 20, 20], vec![], 100);
        let core_of = spread_by_priority(&problem, &Platform::identical(2), &[9, 9, 1, 1]);
        assert_ne!(core_of[0], core_of[1], "the two urgent tasks on different cores: {core_of:?}");
        assert_ne!(core_of[2], core_of[3]);
    }
}
