//! Greedy construction plus single-task moves.

use corera_placement::{CoreId, Placement, Platform, Problem, TrafficScore};

use crate::{SearchError, Solution, Solver, solution};

/// Places tasks heaviest first (pinned tasks before all others) on the
/// allowed core (no task it must be apart from there) that keeps it within
/// the core's limit and adds the least cross traffic (ties: least-loaded
/// core, then lowest index); then moves single tasks to another core while
/// that lowers the objective.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Solver for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn solve(
        &self,
        problem: &Problem,
        platform: &Platform,
        _incumbent: Option<&Solution>,
    ) -> Result<Solution, SearchError> {
        if problem.is_empty() {
            return Err(SearchError::Empty);
        }
        let n = problem.len();
        let k = platform.cores as usize;
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        let mut order: Vec<usize> = (0..n).collect();
        // Pinned first, then the most constrained, then the heaviest.
        order.sort_by_key(|&i| {
            let allowed = (0..k).filter(|&c| problem.allows(i, c)).count();
            (
                problem.pinned[i].is_none(),
                allowed,
                std::cmp::Reverse(problem.apart[i].len()),
                std::cmp::Reverse(problem.load[i]),
                i,
            )
        });
        let mut core_of: Vec<Option<CoreId>> = vec![None; n];
        let mut load = vec![0u64; k];
        for &i in &order {
            let free = |c: usize| problem.apart[i].iter().all(|&j| core_of[j as usize] != Some(c as CoreId));
            let mut candidates: Vec<usize> = (0..k).filter(|&c| problem.allows(i, c) && free(c)).collect();
            if candidates.is_empty() {
                // Every allowed core holds a task this one must avoid: the
                // search reports the violation if nothing repairs it.
                candidates = (0..k).filter(|&c| problem.allows(i, c)).collect();
            }
            let best = candidates
                .into_iter()
                .min_by_key(|&c| {
                    let added: u64 = problem.adjacency[i]
                        .iter()
                        .filter_map(|&(j, w)| core_of[j as usize].map(|cj| w * platform.distance(c, cj as usize)))
                        .sum();
                    let over = (load[c] + problem.load[i]).saturating_sub(limits[c]);
                    (over, added, load[c], c)
                })
                .expect("at least one core");
            core_of[i] = Some(best as CoreId);
            load[best] += problem.load[i];
        }
        let mut core_of: Vec<CoreId> = core_of.into_iter().map(|c| c.expect("all placed")).collect();
        repair(problem, platform, &mut core_of, &mut load, &limits);
        let moves = improve(problem, platform, &mut core_of, &mut load, &limits);
        Ok(solution(problem, platform, Placement::new(core_of), self.name(), n as u64 + moves))
    }
}

/// Moves tasks that break a constraint to the allowed core that costs
/// least (apart partners avoided where possible); returns the number of
/// tasks moved.
pub(crate) fn repair(
    problem: &Problem,
    platform: &Platform,
    core_of: &mut [CoreId],
    load: &mut [u64],
    limits: &[u64],
) -> u64 {
    let k = platform.cores as usize;
    let mut moved = 0;
    for i in 0..problem.len() {
        let from = core_of[i] as usize;
        if problem.fits(i, from, core_of) {
            continue;
        }
        let best = (0..k).filter(|&c| c != from && problem.fits(i, c, core_of)).min_by_key(|&c| {
            let added: u64 =
                problem.adjacency[i].iter().map(|&(j, w)| w * platform.distance(c, core_of[j as usize] as usize)).sum();
            ((load[c] + problem.load[i]).saturating_sub(limits[c]), added, c)
        });
        if let Some(to) = best {
            load[from] -= problem.load[i];
            load[to] += problem.load[i];
            core_of[i] = to as CoreId;
            moved += 1;
        }
    }
    moved
}

/// Moves single unpinned tasks while the objective drops (never onto a
/// core the task may not use or that holds a task it must avoid); returns
/// the number of moves tried.
pub(crate) fn improve(
    problem: &Problem,
    platform: &Platform,
    core_of: &mut [CoreId],
    load: &mut [u64],
    limits: &[u64],
) -> u64 {
    let k = platform.cores as usize;
    let overload = |load: &[u64]| load.iter().zip(limits).map(|(&l, &m)| l.saturating_sub(m)).sum::<u64>();
    let mut tried = 0;
    let mut improved = true;
    while improved {
        improved = false;
        for i in 0..problem.len() {
            if problem.pinned[i].is_some() {
                continue;
            }
            let from = core_of[i] as usize;
            // Traffic from i to each core.
            let mut to_core = vec![0u64; k];
            for &(j, w) in &problem.adjacency[i] {
                to_core[core_of[j as usize] as usize] += w;
            }
            let here = TrafficScore { overload_ns: overload(load), cross_traffic: 0 };
            let mut best: Option<(TrafficScore, usize)> = None;
            for to in (0..k).filter(|&c| c != from && problem.fits(i, c, core_of)) {
                tried += 1;
                load[from] -= problem.load[i];
                load[to] += problem.load[i];
                let o = overload(load);
                load[to] -= problem.load[i];
                load[from] += problem.load[i];
                // Change in cross traffic when i moves from `from` to `to`.
                let delta: i128 = (0..k)
                    .map(|d| {
                        to_core[d] as i128 * (platform.distance(to, d) as i128 - platform.distance(from, d) as i128)
                    })
                    .sum();
                let better = o < here.overload_ns || (o == here.overload_ns && delta < 0);
                if better {
                    let key = TrafficScore { overload_ns: o, cross_traffic: (delta + i128::from(u64::MAX / 2)) as u64 };
                    if best.is_none_or(|(b, _)| key < b) {
                        best = Some((key, to));
                    }
                }
            }
            if let Some((_, to)) = best {
                load[from] -= problem.load[i];
                load[to] += problem.load[i];
                core_of[i] = to as CoreId;
                improved = true;
            }
        }
    }
    tried
}
