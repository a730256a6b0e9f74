//! Placement solvers.
//!
//! The fourth stage of corera's pipeline: find the [`Placement`] of a
//! [`Problem`] on a [`Platform`] that minimises the
//! [`TrafficScore`] (load above the balance
//! limit first, then cross-core traffic), and say how good it is.
//!
//! # Brief overview
//! - [`Solver`]: the one trait every method implements.
//! - [`Greedy`]: heaviest task first onto the core that adds the least
//!   cross traffic, then single-task moves while they help. Fast baseline.
//! - [`Exhaustive`]: branch and bound over every placement (identical cores
//!   counted once), in parallel; proves optimality within a node budget.
//! - [`Annealer`]: simulated annealing with incremental moves and swaps,
//!   deterministic parallel restarts.
//! - [`GrayCode`]: complete enumeration for two identical cores (up to 36
//!   tasks), one task move per step; a certificate for the other methods.
//! - [`Multilevel`]: METIS partitions (k-way and recursive bisection, by
//!   cluster first on clustered platforms, halved from half as many cores
//!   on many identical ones, and on a hierarchy coarsened by label
//!   propagation) mapped onto the topology and refined by FM and flows, for
//!   large task sets.
//! - [`portfolio`]: greedy and multilevel, annealing from the better, then
//!   exhaustive warm-started with the best, then a longer annealing when
//!   nothing was proven.
//! - [`Cooling`]: the cooling schedule and acceptance rule every annealer
//!   shares (the timing search of crate `corera-tune` too).
//!
//! # Layout
//! As Mt-KaHyPar's `partition/`: the multilevel partitioner by phase
//! (`partition/{initial, coarsening, refinement, mapping}`), the exact
//! methods apart (`exact/`), and the methods that combine them
//! (`anneal`, `portfolio`, `pareto`). The search judged by replaying the
//! trace (READY, response times, deadlines) is crate `corera-tune`.
//!
//! # Example
//! ```
//! use corera_placement::{Platform, Problem};
//! use corera_search::{portfolio, Options};
//!
//! let problem = Problem::new(
//!     vec!["A".into(), "B".into(), "C".into(), "D".into()],
//!     vec![30, 20, 30, 20],
//!     vec![(0, 1, 9), (2, 3, 9), (1, 2, 1)],
//!     100,
//! );
//! let solution = portfolio(&problem, &Platform::identical(2), &Options::default())?;
//! assert!(solution.proven_optimal);
//! assert_eq!(solution.score.cross_traffic, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod anneal;
mod cooling;
mod exact;
mod note;
mod pareto;
mod partition;
mod portfolio;
mod solve;

pub(crate) use solve::solution;

pub use anneal::Annealer;
pub use cooling::Cooling;
pub use exact::exhaustive::Exhaustive;
pub use exact::gray::GrayCode;
pub use exact::ilp::{ILP_BACKEND, Ilp};
pub use note::Note;
pub use pareto::{ParetoPoint, pareto, weighted_choice};
pub use partition::Multilevel;
pub use partition::initial::greedy::Greedy;
pub use solve::{
    DEFAULT_NODE_BUDGET, EXHAUSTIVE_MAX_TASKS, Method, Options, Progress, ProgressFn, SearchError, Solution, Solver,
    portfolio, portfolio_node_budget, solve,
};

#[cfg(test)]
mod tests;
