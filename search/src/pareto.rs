//! The trade-off between cross-core traffic and the busiest core's load.
//!
//! The ε-constraint method: the portfolio minimises traffic under balance
//! tolerances from 0 (every core at most its share) up to k − 1 (any split,
//! capacity permitting); the points no other point beats on both the
//! busiest core's load and the traffic form the front. A weighted objective
//! (`traffic / total + w · imbalance`) then picks a point of the front: the
//! minimum of a weighted sum always lies on the front, so this finds it up
//! to the granularity of the tolerances tried.

use corera_placement::{Cost, Platform, Problem};

use crate::{Method, Options, SearchError, Solution, solve};

/// Balance tolerances tried (k − 1 is added: no balance rule at all).
const TOLERANCES: [f64; 11] = [0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5];

/// One point of the front.
#[derive(Clone, Debug, PartialEq)]
pub struct ParetoPoint {
    /// The balance tolerance that gave it.
    pub balance_tolerance: f64,
    /// Utilisation of the busiest core (load / speed / horizon).
    pub max_core_utilisation: f64,
    /// Imbalance: busiest core's load over the mean, minus 1.
    pub imbalance: f64,
    /// Its cross-core traffic (topology-weighted).
    pub cross_traffic: u64,
    /// The placement and what is proven about it (at its tolerance).
    pub solution: Solution,
}

/// The traffic / busiest-core front, busiest core ascending (traffic
/// descending).
///
/// # Errors
/// As [`solve`]; tolerances at which the constraints cannot be met are
/// skipped, and if none can, the first error is returned.
pub fn pareto(problem: &Problem, platform: &Platform, options: &Options) -> Result<Vec<ParetoPoint>, SearchError> {
    let mut tolerances = TOLERANCES.to_vec();
    tolerances.push(f64::from(platform.cores.saturating_sub(1)).max(1.5));
    let mut points = Vec::new();
    let mut first_error = None;
    for eps in tolerances {
        let mut at = platform.clone();
        at.balance_tolerance = eps;
        match solve(Method::Portfolio, problem, &at, options) {
            Ok(solution) => {
                let cost = Cost::of(problem, &at, &solution.placement);
                points.push(ParetoPoint {
                    balance_tolerance: eps,
                    max_core_utilisation: cost.core_utilisation.iter().copied().fold(0.0, f64::max),
                    imbalance: cost.imbalance,
                    cross_traffic: solution.score.cross_traffic,
                    solution,
                });
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if points.is_empty() {
        return Err(first_error.unwrap_or(SearchError::Empty));
    }
    // Keep the points that nothing dominates; among equal points the
    // tightest tolerance.
    let dominated = |p: &ParetoPoint| {
        points.iter().any(|q| {
            (q.max_core_utilisation <= p.max_core_utilisation && q.cross_traffic <= p.cross_traffic)
                && (q.max_core_utilisation < p.max_core_utilisation
                    || q.cross_traffic < p.cross_traffic
                    || q.balance_tolerance < p.balance_tolerance)
        })
    };
    let mut front: Vec<ParetoPoint> = points.iter().filter(|p| !dominated(p)).cloned().collect();
    front.sort_by(|a, b| {
        a.max_core_utilisation.total_cmp(&b.max_core_utilisation).then(b.cross_traffic.cmp(&a.cross_traffic))
    });
    Ok(front)
}

/// The point of `front` that minimises `traffic / total_traffic + weight ·
/// imbalance` (ties: the first, i.e. the more balanced).
pub fn weighted_choice(front: &[ParetoPoint], total_traffic: u64, weight: f64) -> usize {
    let score = |p: &ParetoPoint| p.cross_traffic as f64 / total_traffic.max(1) as f64 + weight * p.imbalance;
    (0..front.len()).min_by(|&a, &b| score(&front[a]).total_cmp(&score(&front[b])).then(a.cmp(&b))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_trades_traffic_for_balance_and_weights_pick_along_it() {
        // Two heavy cliques and a light one, all linked: balancing splits
        // a clique, traffic wants them together.
        let names = (0..9).map(|i| format!("t{i}")).collect();
        let mut edges = Vec::new();
        for g in [0u32, 3, 6] {
            for a in g..g + 3 {
                for b in a + 1..g + 3 {
                    edges.push((a, b, 10));
                }
            }
        }
        edges.extend([(2, 3, 1), (5, 6, 1)]);
        let problem = Problem::new(names, vec![30, 30, 30, 30, 30, 30, 5, 5, 5], edges, 1000);
        let platform = Platform::identical(2);
        let front = pareto(&problem, &platform, &Options::default()).unwrap();
        assert!(front.len() >= 2, "{front:#?}");
        for pair in front.windows(2) {
            assert!(pair[0].max_core_utilisation < pair[1].max_core_utilisation);
            assert!(pair[0].cross_traffic > pair[1].cross_traffic);
        }
        // The unbalanced end is everything on one core: no traffic crosses.
        let last = front.last().unwrap();
        assert_eq!((last.cross_traffic, last.max_core_utilisation), (0, 0.195));
        let total = problem.total_traffic();
        assert_eq!(weighted_choice(&front, total, 0.0), front.len() - 1);
        assert_eq!(weighted_choice(&front, total, 100.0), 0);
        for p in &front {
            assert_eq!(Cost::of(&problem, &platform, &p.solution.placement).score.cross_traffic, p.cross_traffic);
        }
    }
}
