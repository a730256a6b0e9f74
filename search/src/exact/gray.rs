//! Complete enumeration for two identical cores, in Gray-code order.
//!
//! Task 0 stays on core 0 (the two cores are interchangeable; with pins
//! they are not, and task 0 takes part), and the other n − 1 tasks run
//! through all 2^(n−1) assignments so that each step
//! moves exactly one task: its cost change is O(degree) from a per-task
//! "traffic to core 1" count. The space is cut into 2^m chunks by the top
//! m tasks; chunks run in parallel with rayon and merge by (score,
//! chunk), so the answer, and the count of placements visited (the
//! certificate), are the same on any thread count. Pins are honoured by
//! skipping placements that break them.

use corera_placement::{CoreId, Placement, Platform, Problem, TrafficScore};
use rayon::prelude::*;

use crate::{SearchError, Solution, Solver, solution};

/// Enumerates every two-core placement of up to [`GrayCode::MAX_TASKS`]
/// tasks.
#[derive(Clone, Copy, Debug, Default)]
pub struct GrayCode;

impl GrayCode {
    /// Largest task count: 2^39 placements would take hours.
    pub const MAX_TASKS: usize = 36;
}

/// Bits of the chunk index: 2^8 chunks keep a few dozen threads busy.
const CHUNK_BITS: usize = 8;

struct Chunk {
    best: TrafficScore,
    assign: u64,
    visited: u64,
}

/// Scans one chunk: tasks `first..first + low_bits` flip in Gray order,
/// the rest are fixed by `prefix` (task 0 stays on core 0 when `first` is
/// 1, which breaks the symmetry of the two cores).
fn scan(problem: &Problem, limit: [u64; 2], prefix: u64, low_bits: usize, first: usize) -> Chunk {
    let n = problem.len();
    let mut assign: u64 = prefix << (low_bits + first);
    let core = |assign: u64, t: usize| (assign >> t) & 1;
    let mut load = [0u64; 2];
    let mut to_one = vec![0u64; n];
    for t in 0..n {
        load[core(assign, t) as usize] += problem.load[t];
        for &(j, w) in &problem.adjacency[t] {
            if core(assign, j as usize) == 1 {
                to_one[t] += w;
            }
        }
    }
    let mut cross: u64 =
        problem.edges.iter().filter(|e| core(assign, e.0 as usize) != core(assign, e.1 as usize)).map(|e| e.2).sum();
    let pins_ok = |assign: u64| {
        (0..n).all(|t| {
            let c = core(assign, t);
            problem.allows(t, c as usize) && problem.apart[t].iter().all(|&j| core(assign, j as usize) != c)
        })
    };
    let objective = |load: &[u64; 2], cross: u64| TrafficScore {
        overload_ns: load[0].saturating_sub(limit[0]) + load[1].saturating_sub(limit[1]),
        cross_traffic: cross,
    };
    let mut best = Chunk { best: objective(&load, cross), assign, visited: 1 };
    if !pins_ok(assign) {
        best.best = TrafficScore { overload_ns: u64::MAX, cross_traffic: u64::MAX };
    }
    let has_pins = problem.allowed.iter().any(Option::is_some) || problem.apart.iter().any(|a| !a.is_empty());
    for step in 1u64..(1u64 << low_bits) {
        // The Gray code flips the lowest set bit of the step counter.
        let t = step.trailing_zeros() as usize + first;
        let on_one = core(assign, t) == 1;
        let deg: u64 = problem.adjacency[t].iter().map(|a| a.1).sum();
        // Edges to core-1 neighbours are cut while t is on core 0.
        let before = if on_one { deg - to_one[t] } else { to_one[t] };
        let after = if on_one { to_one[t] } else { deg - to_one[t] };
        cross = cross + after - before;
        let (from, to) = if on_one { (1, 0) } else { (0, 1) };
        load[from] -= problem.load[t];
        load[to] += problem.load[t];
        assign ^= 1 << t;
        for &(j, w) in &problem.adjacency[t] {
            if on_one {
                to_one[j as usize] -= w;
            } else {
                to_one[j as usize] += w;
            }
        }
        best.visited += 1;
        let o = objective(&load, cross);
        if o < best.best && (!has_pins || pins_ok(assign)) {
            best.best = o;
            best.assign = assign;
        }
    }
    best
}

impl Solver for GrayCode {
    fn name(&self) -> &'static str {
        "gray-code enumeration"
    }

    fn solve(
        &self,
        problem: &Problem,
        platform: &Platform,
        _incumbent: Option<&Solution>,
    ) -> Result<Solution, SearchError> {
        let n = problem.len();
        if n == 0 {
            return Err(SearchError::Empty);
        }
        if platform.cores != 2 || !platform.is_uniform() || n > GrayCode::MAX_TASKS {
            return Err(SearchError::Unsupported(format!(
                "gray-code enumeration needs 2 identical cores and at most {} tasks",
                GrayCode::MAX_TASKS
            )));
        }
        // Task 0 stays on core 0 only when the two cores are interchangeable.
        let first = usize::from(platform.is_symmetric() && problem.fixed_cores(2) == [false, false]);
        let free = n - first;
        let high = free.min(CHUNK_BITS);
        let low = free - high;
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        let limit = [limits[0], limits[1]];
        let chunks: Vec<Chunk> =
            (0..1u64 << high).into_par_iter().map(|prefix| scan(problem, limit, prefix, low, first)).collect();
        let visited = chunks.iter().map(|c| c.visited).sum();
        let best = chunks.into_iter().min_by_key(|c| c.best).expect("at least one chunk");
        let core_of = (0..n).map(|t| ((best.assign >> t) & 1) as CoreId).collect();
        let mut s = solution(problem, platform, Placement::new(core_of), self.name(), visited);
        s.proven_optimal = true;
        s.lower_bound = s.score;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::{Options, portfolio};

    prop_compose! {
        fn arb_two_core()(n in 1usize..14)(
            loads in proptest::collection::vec(1u64..60, n),
            edges in proptest::collection::vec((0..n as u32, 0..n as u32, 1u64..30), 0..(3 * n)),
            pins in proptest::collection::vec(proptest::option::weighted(0.1, 0u16..2), n),
            eps in 0.0f64..0.3,
        ) -> (Problem, Platform) {
            let names = (0..loads.len()).map(|i| format!("t{i}")).collect();
            let mut problem = Problem::new(names, loads, edges, 1000);
            for (i, pin) in pins.into_iter().enumerate() {
                if let Some(c) = pin {
                    problem.restrict(i, vec![c == 0, c == 1]);
                }
            }
            let mut platform = Platform::identical(2);
            platform.balance_tolerance = eps;
            (problem, platform)
        }
    }

    proptest! {
        /// Enumeration and branch and bound agree on the optimum, and the
        /// enumeration visits exactly 2^(n-1) placements.
        #[test]
        fn enumeration_certifies_the_branch_and_bound((problem, platform) in arb_two_core()) {
            let g = GrayCode.solve(&problem, &platform, None).unwrap();
            let b = portfolio(&problem, &platform, &Options::default()).unwrap();
            prop_assert_eq!(g.score, b.score);
            let pinned = problem.pinned.iter().any(Option::is_some);
            prop_assert_eq!(g.nodes, 1u64 << (problem.len() - usize::from(!pinned)));
            prop_assert!(problem.pinned.iter().zip(&g.placement.core_of).all(|(p, &c)| p.is_none_or(|p| p == c)));
        }
    }

    #[test]
    fn refuses_what_it_cannot_enumerate() {
        let problem = Problem::new(vec!["a".into(), "b".into()], vec![1, 1], vec![], 10);
        assert!(GrayCode.solve(&problem, &Platform::identical(3), None).is_err());
        assert!(GrayCode.solve(&problem, &Platform::mesh(1, 2), None).is_ok() == Platform::mesh(1, 2).is_uniform());
    }
}
