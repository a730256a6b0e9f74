//! The search's vocabulary: the [`Solution`] every method returns, the
//! [`Solver`] trait, [`Options`], the [`Method`] list, and [`solve`], which
//! runs one method (groups kept together merged) and checks its answer.

use corera_placement::{Cost, Placement, Platform, Problem, TrafficScore};

use crate::Annealer;
use crate::Note;
use crate::exact::exhaustive::Exhaustive;
use crate::exact::gray::GrayCode;
use crate::exact::ilp::Ilp;
use crate::partition::Multilevel;
use crate::partition::initial::greedy::Greedy;
use crate::portfolio::Portfolio;

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The best placement found (free cores numbered in order of first use).
    pub placement: Placement,
    /// Its objective.
    pub score: TrafficScore,
    /// A proven lower bound on the objective of every placement
    /// (equal to `objective` when proven optimal).
    pub lower_bound: TrafficScore,
    /// Whether `placement` is proven optimal.
    pub proven_optimal: bool,
    /// Name of the method that found `placement`.
    pub method: String,
    /// Work done: exhaustive-search nodes (partial placements) plus
    /// annealing move attempts, summed over methods.
    pub nodes: u64,
    /// Notes for the user (relaxed limits, budgets hit).
    pub notes: Vec<Note>,
    /// Seed of the randomised methods.
    pub seed: u64,
}

impl Solution {
    /// Relative gap between the cross traffic found and its lower bound:
    /// 0 when proven optimal, 1 when the bound says nothing (or only
    /// bounds the overload).
    pub fn gap(&self) -> f64 {
        let found = self.score.cross_traffic;
        if self.proven_optimal || found == 0 {
            0.0
        } else if self.lower_bound.overload_ns < self.score.overload_ns {
            1.0
        } else {
            (found - self.lower_bound.cross_traffic.min(found)) as f64 / found as f64
        }
    }
}

/// A search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The problem has no tasks.
    #[error("there are no tasks to place")]
    Empty,
    /// The method does not apply to this problem.
    #[error("{0}")]
    Unsupported(String),
    /// The best placement found breaks a constraint (tasks kept apart on
    /// too few cores, typically): no placement meeting them all was found.
    #[error("no placement was found that meets every constraint: {}", .0.join("; "))]
    Infeasible(Vec<String>),
    /// The MIP solver failed.
    #[error("the ILP solver failed: {0}")]
    Solver(String),
    /// The search stopped before finding any placement.
    #[error("the search stopped after {nodes} nodes without a placement; raise the node budget")]
    Budget {
        /// Nodes explored.
        nodes: u64,
    },
}

/// A placement method. Implementations are deterministic: the same problem
/// and options give the same solution, whatever the thread count.
pub trait Solver {
    /// Short name, reported as the method that found a solution.
    fn name(&self) -> &'static str;
    /// Searches for a placement; `incumbent` is a known solution to beat.
    fn solve(
        &self,
        problem: &Problem,
        platform: &Platform,
        incumbent: Option<&Solution>,
    ) -> Result<Solution, SearchError>;
}

/// Default node budget: about a second on one core in a release build
/// (measured on the 135-task Android sample, 4 cores, which it does not
/// prove); small task sets are proven far below it.
pub const DEFAULT_NODE_BUDGET: u64 = 10_000_000;

/// Largest task count the portfolio hands to the exhaustive search: its
/// bound costs O(tasks) per node, and beyond a few hundred tasks no budget
/// of seconds proves anything.
pub const EXHAUSTIVE_MAX_TASKS: usize = 300;

/// The node budget the portfolio gives the exhaustive search on `cores`
/// cores: the full budget up to 8 cores; beyond, a node tries every core
/// and the tree is wider still, so the budget shrinks with the square of the
/// core count (64 cores: 1/64 of it), keeping the stage's time near an
/// 8-core search's. `--method exhaustive` alone gets the full budget.
pub fn portfolio_node_budget(budget: u64, cores: u16) -> u64 {
    let k = u64::from(cores);
    if k <= 8 { budget } else { (budget * 64 / (k * k)).max(1) }
}

/// Options of the portfolio.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Seed of the randomised methods (default 0); recorded in the output
    /// so that a run can be repeated exactly.
    pub seed: u64,
    /// Node budget of the exhaustive search (default
    /// [`DEFAULT_NODE_BUDGET`]); past it the best placement found is
    /// returned unproven. A budget rather than a time limit, so that the
    /// answer is the same on every machine.
    pub node_budget: u64,
    /// Wall-clock seconds for the whole search (default none). The
    /// portfolio then adds the ILP, with the time the other methods left,
    /// when they did not prove optimality; results may then depend on the
    /// machine's speed.
    pub time_limit: Option<f64>,
    /// Called after each method of the portfolio with its name, the best
    /// objective so far and the best lower bound.
    pub progress: Option<Progress>,
}

/// What a progress callback is given: method name, best objective, lower
/// bound.
pub type ProgressFn = dyn Fn(&str, TrafficScore, TrafficScore) + Send + Sync;

/// A progress callback.
#[derive(Clone)]
pub struct Progress(pub std::sync::Arc<ProgressFn>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl Default for Options {
    fn default() -> Options {
        Options { seed: 0, node_budget: DEFAULT_NODE_BUDGET, time_limit: None, progress: None }
    }
}

/// A search method, for running one method alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// The [`portfolio`].
    #[default]
    Portfolio,
    /// [`Greedy`] alone.
    Greedy,
    /// [`Multilevel`] alone.
    Multilevel,
    /// [`Annealer`] from the greedy placement.
    Anneal,
    /// [`Exhaustive`] from the greedy placement.
    Exhaustive,
    /// [`GrayCode`] enumeration.
    Enumerate,
    /// [`Ilp`] from the greedy placement, within the time limit.
    Ilp,
}

impl Method {
    /// Every method: the one list the CLI's `--method` values and the
    /// book's method list come from.
    pub const ALL: [Method; 7] = [
        Method::Portfolio,
        Method::Greedy,
        Method::Multilevel,
        Method::Anneal,
        Method::Exhaustive,
        Method::Enumerate,
        Method::Ilp,
    ];

    /// The `--method` name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Portfolio => "auto",
            Method::Greedy => "greedy",
            Method::Multilevel => "multilevel",
            Method::Anneal => "anneal",
            Method::Exhaustive => "exhaustive",
            Method::Enumerate => "enumerate",
            Method::Ilp => "ilp",
        }
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Method::Portfolio => "Greedy and METIS, annealing from them, then exhaustive search",
            Method::Greedy => "Greedy construction and single-task moves only",
            Method::Multilevel => "METIS k-way partitioning mapped onto the topology",
            Method::Anneal => "Simulated annealing from the greedy placement",
            Method::Exhaustive => "Branch and bound from the greedy placement",
            Method::Enumerate => "Gray-code enumeration of every placement (2 identical cores, at most 36 tasks)",
            Method::Ilp => {
                "Integer linear programming from the greedy placement (HiGHS or microlp), within --time-limit"
            }
        }
    }
}

/// Runs `method` with `options` (seed, node budget). Groups of tasks kept
/// together are searched as one task each; the answer is checked against
/// every constraint.
///
/// # Errors
/// [`SearchError::Unsupported`] when the method does not apply (e.g.
/// enumeration beyond two identical cores); [`SearchError::Empty`] for a
/// problem without tasks; [`SearchError::Infeasible`] when the best
/// placement found still breaks a constraint.
pub fn solve(
    method: Method,
    problem: &Problem,
    platform: &Platform,
    options: &Options,
) -> Result<Solution, SearchError> {
    let solution = match problem.contract() {
        None => solve_method(method, problem, platform, options)?,
        Some((merged, slot)) => {
            let inner = solve_method(method, &merged, platform, options)?;
            let core_of = slot.iter().map(|&s| inner.placement.core_of[s as usize]).collect();
            let placement = Placement::new(core_of);
            debug_assert_eq!(Cost::of(problem, platform, &placement).score, inner.score);
            Solution { placement, ..inner }
        }
    };
    let violations = problem.violations(&solution.placement);
    if violations.is_empty() { Ok(solution) } else { Err(SearchError::Infeasible(violations)) }
}

fn solve_method(
    method: Method,
    problem: &Problem,
    platform: &Platform,
    options: &Options,
) -> Result<Solution, SearchError> {
    let greedy = || Greedy.solve(problem, platform, None);
    match method {
        Method::Portfolio => Portfolio::new(problem, platform, options).run(),
        Method::Greedy => greedy(),
        Method::Multilevel => Multilevel { seed: options.seed }.solve(problem, platform, None),
        Method::Anneal => Annealer { seed: options.seed, ..Annealer::default() }.solve(problem, platform, None),
        Method::Exhaustive => {
            greedy().and_then(|g| Exhaustive { node_budget: options.node_budget }.solve(problem, platform, Some(&g)))
        }
        Method::Enumerate => GrayCode.solve(problem, platform, None),
        Method::Ilp => Ilp { time_limit: options.time_limit, seed: options.seed }.solve(problem, platform, None),
    }
}

/// Runs greedy and multilevel, anneals from both, then (up to
/// [`EXHAUSTIVE_MAX_TASKS`] tasks) the exhaustive search within the node
/// budget from the best and, if it proved nothing, a longer annealing, and
/// returns the best solution with what is proven
/// about it and the method that found it: [`solve`] with
/// [`Method::Portfolio`].
///
/// # Errors
/// As [`solve`].
pub fn portfolio(problem: &Problem, platform: &Platform, options: &Options) -> Result<Solution, SearchError> {
    solve(Method::Portfolio, problem, platform, options)
}

/// Evaluates a placement into a [`Solution`] shell.
pub(crate) fn solution(
    problem: &Problem,
    platform: &Platform,
    placement: Placement,
    method: &str,
    nodes: u64,
) -> Solution {
    // Renaming cores is harmless only when all cores are alike.
    let placement = if platform.is_symmetric() {
        placement.canonical(platform.cores, &problem.fixed_cores(platform.cores))
    } else {
        placement
    };
    let score = Cost::of(problem, platform, &placement).score;
    let lower_bound = TrafficScore { overload_ns: 0, cross_traffic: 0 };
    Solution {
        placement,
        score,
        lower_bound,
        proven_optimal: false,
        method: method.into(),
        nodes,
        notes: vec![],
        seed: 0,
    }
}
