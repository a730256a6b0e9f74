//! Exact search: depth-first branch and bound over all placements.
//!
//! Tasks are assigned one by one (pinned tasks first, then by descending
//! traffic degree, so that costly decisions come early). A partial
//! placement is pruned when
//! - a core would exceed the balance limit, or the load still to place no
//!   longer fits in what the cores have left;
//! - its cross traffic plus a lower bound for the unassigned tasks (each
//!   pays at least its cheapest core's traffic to already-assigned
//!   neighbours) reaches the best placement known.
//!
//! Identical cores are interchangeable: an unassigned task may go to any
//! core already in use or to the lowest-numbered empty one, so each
//! placement is enumerated once up to core renaming. Cores holding pinned
//! tasks keep their identity.
//!
//! The tree is split into subtrees at a fixed depth, searched in parallel
//! with rayon; each subtree starts from the same incumbent and results are
//! merged by (cost, subtree index), so the answer does not depend on the
//! thread count.

use corera_placement::{CoreId, Placement, Platform, Problem, Renaming, TrafficScore};
use rayon::prelude::*;

use crate::exact::cut_bound::CutBound;
use crate::{Note, SearchError, Solution, Solver, solution};

/// Branch and bound over every placement, within a node budget.
#[derive(Clone, Copy, Debug)]
pub struct Exhaustive {
    /// Largest number of search nodes; past it the search stops and
    /// reports what it found without a proof.
    pub node_budget: u64,
}

/// Aim for this many subtrees per search, searched in batches of
/// [`BATCH`]: enough for a few dozen threads, and small subtrees so that
/// the incumbent improves often.
const SUBTREES: usize = 512;
/// Subtrees searched in parallel from the same incumbent; the best of a
/// batch becomes the next batch's incumbent. Batches, not a shared atomic
/// incumbent, keep the result independent of the thread count.
const BATCH: usize = 32;

struct Tree<'a> {
    problem: &'a Problem,
    k: usize,
    /// Task at each depth.
    order: Vec<usize>,
    /// Per depth: neighbours at smaller depths, `(depth, weight)`.
    earlier: Vec<Vec<(usize, u64)>>,
    /// Per depth: the pinned core, if any.
    pinned: Vec<Option<usize>>,
    /// Per depth: the task's apart partners at smaller depths.
    apart: Vec<Vec<usize>>,
    /// Per depth: load still to place from this depth on.
    remaining: Vec<u64>,
    /// Cores that hold pinned tasks (not interchangeable).
    renaming: Renaming,
    limits: Vec<u64>,
    /// For two cores: the traffic graph by depth, for the min-cut bound.
    cut: Option<CutBound>,
    /// Core distances, row-major.
    dist: Vec<u64>,
    /// All distances equal: cores are interchangeable and the simple
    /// per-task bound applies.
    uniform: bool,
}

#[derive(Clone)]
struct State {
    assign: Vec<CoreId>,
    load: Vec<u64>,
    count: Vec<u32>,
    cross: u64,
    overload: u64,
}

impl State {
    fn score(&self) -> TrafficScore {
        TrafficScore { overload_ns: self.overload, cross_traffic: self.cross }
    }
}

/// A step: extra overload, extra cross traffic, core.
type Step = (u64, u64, usize);

struct Search<'t, 'a> {
    tree: &'t Tree<'a>,
    /// This search's own copy of the min-cut buffers.
    cut: Option<CutBound>,
    best: TrafficScore,
    best_assign: Option<Vec<CoreId>>,
    nodes: u64,
    budget: u64,
    aborted: bool,
}

impl<'a> Tree<'a> {
    fn new(problem: &'a Problem, platform: &Platform, limits: Vec<u64>) -> Tree<'a> {
        let n = problem.len();
        let k = platform.cores as usize;
        let degree: Vec<u64> = (0..n).map(|i| problem.adjacency[i].iter().map(|a| a.1).sum()).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| {
            (problem.pinned[i].is_none(), std::cmp::Reverse(degree[i]), std::cmp::Reverse(problem.load[i]), i)
        });
        let mut depth_of = vec![0; n];
        for (d, &i) in order.iter().enumerate() {
            depth_of[i] = d;
        }
        let earlier = order
            .iter()
            .enumerate()
            .map(|(d, &i)| {
                problem.adjacency[i].iter().map(|&(j, w)| (depth_of[j as usize], w)).filter(|&(dj, _)| dj < d).collect()
            })
            .collect();
        let pinned = order.iter().map(|&i| problem.pinned[i].map(usize::from)).collect();
        let apart = order
            .iter()
            .enumerate()
            .map(|(d, &i)| problem.apart[i].iter().map(|&j| depth_of[j as usize]).filter(|&dj| dj < d).collect())
            .collect();
        let mut remaining = vec![0; n + 1];
        for d in (0..n).rev() {
            remaining[d] = remaining[d + 1] + problem.load[order[d]];
        }
        let cut = (k == 2).then(|| {
            let edges: Vec<(usize, usize, u64)> =
                problem.edges.iter().map(|&(a, b, w)| (depth_of[a as usize], depth_of[b as usize], w)).collect();
            CutBound::new(n, &edges)
        });
        let uniform = platform.is_uniform();
        // Cores are interchangeable only when all distances are equal.
        let renaming = Renaming::of(problem, platform);
        let dist = (0..k * k).map(|i| platform.distance(i / k, i % k)).collect();
        Tree { problem, k, order, earlier, pinned, apart, remaining, renaming, limits, cut, dist, uniform }
    }

    fn root(&self) -> State {
        State {
            assign: vec![0; self.order.len()],
            load: vec![0; self.k],
            count: vec![0; self.k],
            cross: 0,
            overload: 0,
        }
    }

    /// Cores the task at `depth` may go to, with the overload and cross
    /// traffic each adds, cheapest first.
    fn candidates(&self, s: &State, depth: usize) -> Vec<Step> {
        let task = self.order[depth];
        let task_load = self.problem.load[task];
        let cores: Vec<usize> = match self.pinned[depth] {
            Some(c) => vec![c],
            None => {
                // Empty interchangeable cores are all alike: try the first.
                (0..self.k)
                    .filter(|&c| self.renaming.may_try(c, |x| s.count[x] > 0))
                    .filter(|&c| self.problem.allows(task, c))
                    .collect()
            }
        };
        let cores = cores.into_iter().filter(|&c| self.apart[depth].iter().all(|&q| s.assign[q] as usize != c));
        let mut out: Vec<Step> = cores
            .map(|c| {
                let limit = self.limits[c];
                let over = (s.load[c] + task_load).saturating_sub(limit) - s.load[c].saturating_sub(limit);
                let row = &self.dist[c * self.k..(c + 1) * self.k];
                let delta = self.earlier[depth].iter().map(|&(q, w)| w * row[s.assign[q] as usize]).sum();
                (over, delta, c)
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Lower bound on the objective of every completion of `s`.
    fn bound(&self, s: &State, depth: usize) -> TrafficScore {
        let room: u64 = s.load.iter().zip(&self.limits).map(|(&l, &m)| m.saturating_sub(l)).sum();
        TrafficScore {
            overload_ns: s.overload + self.remaining[depth].saturating_sub(room),
            cross_traffic: s.cross + self.cross_bound(s, depth),
        }
    }

    /// Lower bound on the cross traffic the unassigned tasks add through
    /// edges to assigned ones.
    fn cross_bound(&self, s: &State, depth: usize) -> u64 {
        let mut total = 0;
        let mut to_core = vec![0u64; self.k];
        // The cores that placed neighbours are on (few, even on many cores).
        let mut used: Vec<usize> = Vec::with_capacity(8);
        for d in depth..self.order.len() {
            for &c in &used {
                to_core[c] = 0;
            }
            used.clear();
            let mut all = 0;
            for &(q, w) in &self.earlier[d] {
                if q < depth && w > 0 {
                    let c = s.assign[q] as usize;
                    if to_core[c] == 0 {
                        used.push(c);
                    }
                    to_core[c] += w;
                    all += w;
                }
            }
            if all == 0 {
                continue;
            }
            // Cost of putting the task on core c, given the placed tasks.
            let on = |c: usize| -> u64 { used.iter().map(|&d| to_core[d] * self.dist[c * self.k + d]).sum() };
            total += match (self.pinned[d], self.uniform) {
                (Some(c), _) => on(c),
                (None, true) => {
                    (all - to_core.iter().copied().max().unwrap_or(0)) * self.dist.get(1).copied().unwrap_or(0)
                }
                (None, false) => (0..self.k).map(on).min().unwrap_or(0),
            };
        }
        total
    }

    fn apply(&self, s: &mut State, depth: usize, (over, delta, core): Step) {
        s.assign[depth] = core as CoreId;
        s.load[core] += self.problem.load[self.order[depth]];
        s.count[core] += 1;
        s.cross += delta;
        s.overload += over;
    }

    fn undo(&self, s: &mut State, depth: usize, (over, delta, core): Step) {
        s.load[core] -= self.problem.load[self.order[depth]];
        s.count[core] -= 1;
        s.cross -= delta;
        s.overload -= over;
    }

    /// Every feasible partial placement of the first `depth` tasks.
    fn prefixes(&self, s: &mut State, at: usize, depth: usize, out: &mut Vec<State>) {
        if at == depth {
            out.push(s.clone());
            return;
        }
        for step in self.candidates(s, at) {
            self.apply(s, at, step);
            self.prefixes(s, at + 1, depth, out);
            self.undo(s, at, step);
        }
    }

    fn placement(&self, assign: &[CoreId]) -> Placement {
        let mut core_of = vec![0; self.order.len()];
        for (d, &i) in self.order.iter().enumerate() {
            core_of[i] = assign[d];
        }
        Placement::new(core_of)
    }
}

impl Search<'_, '_> {
    /// The tree's bound, tightened for two cores by the min cut between the
    /// placed sets (computed only when the overload ties with the best,
    /// and only as far as it can matter).
    fn bound(&mut self, s: &State, depth: usize) -> TrafficScore {
        let mut bound = self.tree.bound(s, depth);
        if bound < self.best
            && bound.overload_ns == self.best.overload_ns
            && depth > 0
            && let Some(cut) = self.cut.as_mut()
        {
            // Two cores, one distance: the cut costs that distance per unit.
            let unit = self.tree.dist[1].max(1);
            let assign = &s.assign;
            let side = |v: usize| (v < depth).then(|| assign[v] as u8);
            let cut = cut.min_cut(side, self.best.cross_traffic.div_ceil(unit));
            bound.cross_traffic = bound.cross_traffic.max(cut * unit);
        }
        bound
    }

    fn run(&mut self, s: &mut State, depth: usize) {
        if self.aborted {
            return;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return;
        }
        let tree = self.tree;
        if depth == tree.order.len() {
            if s.score() < self.best {
                self.best = s.score();
                self.best_assign = Some(s.assign.clone());
            }
            return;
        }
        if self.bound(s, depth) >= self.best {
            return;
        }
        for step in tree.candidates(s, depth) {
            let next = TrafficScore { overload_ns: s.overload + step.0, cross_traffic: s.cross + step.1 };
            if next >= self.best {
                break;
            }
            tree.apply(s, depth, step);
            self.run(s, depth + 1);
            tree.undo(s, depth, step);
        }
    }
}

/// A placement found by the search: its objective and cores by depth.
type Best = (TrafficScore, Vec<CoreId>);

/// Outcome of a search: the best assignment found below `upper`, whether
/// the whole tree was searched, and a lower bound on the optimum.
struct Outcome {
    best: Option<Best>,
    complete: bool,
    lower_bound: TrafficScore,
    nodes: u64,
}

fn search(tree: &Tree<'_>, upper: TrafficScore, budget: u64) -> Outcome {
    let n = tree.order.len();
    let mut depth = 0;
    let mut prefixes = vec![tree.root()];
    while depth < n && prefixes.len() < SUBTREES {
        depth = (depth + 4).min(n);
        prefixes.clear();
        tree.prefixes(&mut tree.root(), 0, depth, &mut prefixes);
    }
    // Round one gives every subtree an equal share of the budget; each
    // later round shares what is left among the subtrees that ran out, so
    // a few hard subtrees can use the budget the easy ones did not need.
    // Rounds and node counts, not a shared counter, keep this
    // deterministic.
    let mut outcome = Outcome { best: None, complete: false, lower_bound: upper, nodes: 0 };
    let mut pending: Vec<usize> = (0..prefixes.len()).collect();
    let mut per_tree = (budget / prefixes.len().max(1) as u64).max(1);
    loop {
        let mut unfinished = Vec::new();
        for batch in pending.chunks(BATCH) {
            let left = budget.saturating_sub(outcome.nodes);
            if left == 0 {
                unfinished.extend_from_slice(batch);
                continue;
            }
            let incumbent = outcome.best.as_ref().map_or(upper, |b| b.0);
            let results: Vec<(Option<Best>, bool, u64)> = batch
                .par_iter()
                .map(|&i| {
                    let mut s = prefixes[i].clone();
                    let mut search = Search {
                        tree,
                        cut: tree.cut.clone(),
                        best: incumbent,
                        best_assign: None,
                        nodes: 0,
                        budget: per_tree.min(left),
                        aborted: false,
                    };
                    search.run(&mut s, depth);
                    (search.best_assign.map(|a| (search.best, a)), search.aborted, search.nodes)
                })
                .collect();
            for (&i, (best, aborted, nodes)) in batch.iter().zip(results) {
                outcome.nodes += nodes;
                if aborted {
                    unfinished.push(i);
                }
                if let Some(b) = best
                    && outcome.best.as_ref().is_none_or(|o| b.0 < o.0)
                {
                    outcome.best = Some(b);
                }
            }
        }
        let best = outcome.best.as_ref().map_or(upper, |b| b.0);
        if unfinished.is_empty() {
            outcome.complete = true;
            outcome.lower_bound = best;
            break;
        }
        let next = budget.saturating_sub(outcome.nodes) / unfinished.len() as u64;
        if next <= per_tree {
            // Finished subtrees hold nothing better than the best; an
            // unfinished one at least its root bound.
            let mut bound = best;
            for &i in &unfinished {
                let mut search = Search {
                    tree,
                    cut: tree.cut.clone(),
                    best,
                    best_assign: None,
                    nodes: 0,
                    budget: 0,
                    aborted: false,
                };
                bound = bound.min(search.bound(&prefixes[i], depth));
            }
            outcome.lower_bound = bound;
            break;
        }
        per_tree = next;
        pending = unfinished;
    }
    outcome
}

impl Solver for Exhaustive {
    fn name(&self) -> &'static str {
        "exhaustive"
    }

    fn solve(
        &self,
        problem: &Problem,
        platform: &Platform,
        incumbent: Option<&Solution>,
    ) -> Result<Solution, SearchError> {
        if problem.is_empty() {
            return Err(SearchError::Empty);
        }
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        let tree = Tree::new(problem, platform, limits.clone());
        // An incumbent that breaks a constraint bounds nothing.
        let incumbent = incumbent.filter(|s| problem.violations(&s.placement).is_empty());
        let upper = incumbent.map_or(TrafficScore { overload_ns: u64::MAX, cross_traffic: u64::MAX }, |s| s.score);
        let outcome = search(&tree, upper, self.node_budget);
        let mut result = match (outcome.best, incumbent) {
            (Some((_, assign)), _) => solution(problem, platform, tree.placement(&assign), self.name(), 0),
            (None, Some(inc)) => inc.clone(),
            // Without an incumbent every complete placement that meets the
            // constraints beats `upper`: nothing found means there is none,
            // or the budget ran out first.
            (None, None) if outcome.complete => {
                return Err(SearchError::Infeasible(vec![
                    "no placement meets every constraint (the exhaustive search tried them all)".into(),
                ]));
            }
            (None, None) => return Err(SearchError::Budget { nodes: outcome.nodes }),
        };
        result.proven_optimal = outcome.complete;
        result.lower_bound = if outcome.complete { result.score } else { outcome.lower_bound.min(result.score) };
        result.notes.clear();
        if !outcome.complete {
            result.notes.push(Note::NodeBudget { budget: self.node_budget, scaled_for_cores: None });
        }
        if result.score.overload_ns > 0 {
            let percent = |l: u64| l as f64 * 100.0 / problem.horizon_ns.max(1) as f64;
            let largest = limits.iter().copied().max().unwrap_or(0);
            result.notes.push(Note::Overloaded {
                proven: outcome.complete,
                limits_pct: limits.iter().map(|&l| percent(l)).collect(),
                too_big: (0..problem.len())
                    .filter(|&i| problem.load[i] > largest)
                    .map(|i| (problem.names[i].clone(), percent(problem.load[i])))
                    .collect(),
            });
        }
        result.nodes = outcome.nodes;
        Ok(result)
    }
}
