//! The cost model: what a placement costs.

use serde::{Deserialize, Serialize};

use crate::{Placement, Platform, Problem};

/// What placement minimises, compared lexicographically: first the load
/// above each core's limit (its balance share, capped by its capacity;
/// summed over cores), then the cross-core traffic. A placement that meets the balance limit always beats one that
/// does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TrafficScore {
    /// Load above the balance limit, summed over cores, in ns.
    pub overload_ns: u64,
    /// Traffic between tasks on different cores, each edge's weight times
    /// the distance between its cores (on identical cores: the cut).
    pub cross_traffic: u64,
}

/// A full evaluation of a placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// The minimised objective.
    pub score: TrafficScore,
    /// Total traffic weight (on-core and cross-core).
    pub total_traffic: u64,
    /// Load per core in ns.
    pub core_load_ns: Vec<u64>,
    /// Utilisation per core (load / horizon).
    pub core_utilisation: Vec<f64>,
    /// Per core, the load above which it counts as overloaded, in ns of the
    /// traced core (see [`Platform::core_limits`]).
    pub core_limit_ns: Vec<u64>,
    /// Imbalance: largest core load / mean core load − 1 (0 = perfect).
    pub imbalance: f64,
    /// Whether some core's utilisation exceeds the platform capacity.
    pub over_capacity: bool,
}

impl Cost {
    /// Evaluates `placement` from scratch.
    pub fn of(problem: &Problem, platform: &Platform, placement: &Placement) -> Cost {
        let k = platform.cores as usize;
        let mut core_load_ns = vec![0u64; k];
        for (i, &c) in placement.core_of.iter().enumerate() {
            core_load_ns[c as usize] += problem.load[i];
        }
        let cross_traffic = problem.cross_traffic(platform, &placement.core_of);
        let total = problem.total_load();
        let limits = platform.core_limits(total, problem.horizon_ns);
        let overload_ns = core_load_ns.iter().zip(&limits).map(|(&l, &m)| l.saturating_sub(m)).sum();
        let horizon = problem.horizon_ns.max(1) as f64;
        let core_utilisation: Vec<f64> =
            core_load_ns.iter().zip(&platform.speed).map(|(&l, &s)| l as f64 / (horizon * s)).collect();
        // Imbalance relative to each core's speed-proportional share.
        let total_speed: f64 = platform.speed.iter().sum();
        let max = core_load_ns
            .iter()
            .zip(&platform.speed)
            .map(|(&l, &s)| l as f64 * total_speed / (s * k as f64))
            .fold(0.0, f64::max);
        let mean = total as f64 / k as f64;
        Cost {
            score: TrafficScore { overload_ns, cross_traffic },
            total_traffic: problem.total_traffic(),
            over_capacity: core_utilisation.iter().zip(&platform.capacity).any(|(&u, &c)| u > c),
            core_utilisation,
            core_load_ns,
            core_limit_ns: limits,
            imbalance: if mean > 0.0 { max / mean - 1.0 } else { 0.0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_limit_follows_walshaw() {
        let mut p = Platform::identical(3);
        p.balance_tolerance = 0.03;
        // ceil(100 / 3) = 34; 1.03 * 34 = 35.02 -> 35.
        assert_eq!(p.balance_limit(100), 35);
    }

    #[test]
    fn cost_counts_cross_edges_and_overload() {
        let problem = Problem::new(
            vec!["a".into(), "b".into(), "c".into(), "d".into()],
            vec![50, 10, 10, 30],
            vec![(0, 1, 3), (1, 0, 2), (2, 3, 7), (1, 2, 1)],
            100,
        );
        assert_eq!(problem.edges, vec![(0, 1, 5), (1, 2, 1), (2, 3, 7)]);
        let platform = Platform::identical(2);
        // Limit: floor(1.1 * 50) = 55.
        let c = Cost::of(&problem, &platform, &Placement::new(vec![0, 0, 1, 1]));
        assert_eq!(c.score, TrafficScore { overload_ns: 5, cross_traffic: 1 });
        assert_eq!(c.core_load_ns, vec![60, 40]);
        assert!((c.imbalance - 0.2).abs() < 1e-12);
        let d = Cost::of(&problem, &platform, &Placement::new(vec![0, 1, 1, 1]));
        assert_eq!(d.score, TrafficScore { overload_ns: 0, cross_traffic: 5 });
        assert!(d.score < c.score, "balance first");
    }

    #[test]
    fn canonical_renumbers_free_cores_only() {
        let p = Placement::new(vec![2, 2, 0, 1]);
        assert_eq!(p.canonical(3, &[false; 3]).core_of, vec![0, 0, 1, 2]);
        assert_eq!(p.canonical(3, &[true, false, false]).core_of, vec![1, 1, 0, 2]);
    }
}
