//! The portfolio: the methods in the order that makes each one's answer the
//! next one's starting point, one method per stage.
//!
//! 1. construct: [`Greedy`] and [`Multilevel`];
//! 2. anneal from both, then FM refinement;
//! 3. exhaustive search within the node budget, warm-started with the best
//!    (up to [`EXHAUSTIVE_MAX_TASKS`] tasks), which may prove it optimal;
//! 4. unproven and task-sized: a longer annealing from the best;
//! 5. with a time limit: the ILP for the time left, when nothing proved
//!    optimality.

use corera_placement::{Placement, Platform, Problem, TrafficScore};

use crate::{
    Annealer, EXHAUSTIVE_MAX_TASKS, Exhaustive, Greedy, Ilp, Multilevel, Note, Options, SearchError, Solution, Solver,
    portfolio_node_budget, solution,
};

/// Move attempts the portfolio's annealing makes in all (restarts × tasks
/// × steps per task), at least 8 restarts: about a second on two cores.
const ANNEAL_BUDGET: u64 = 20_000_000;

/// Move attempts of the second, longer annealing the portfolio runs when
/// the exhaustive search proved nothing on a task-sized problem (at most
/// [`EXHAUSTIVE_MAX_TASKS`] tasks): about three seconds on two cores. On the
/// 100-task, 8-core instances of `shared/data/graphs/tasks` it lowered the
/// cut from 3,106 / 2,968 to 2,871 / 2,859 (ten times the budget of the
/// first annealing, in chains ten times as long).
const LONG_ANNEAL_BUDGET: u64 = 180_000_000;

/// Move attempts per task in one chain of the long annealing (fewer when
/// that would leave fewer than 8 chains).
const LONG_ANNEAL_STEPS_PER_TASK: u64 = 20_000;

/// One run of the portfolio.
pub(crate) struct Portfolio<'a> {
    problem: &'a Problem,
    platform: &'a Platform,
    options: &'a Options,
    started: std::time::Instant,
}

impl<'a> Portfolio<'a> {
    pub(crate) fn new(problem: &'a Problem, platform: &'a Platform, options: &'a Options) -> Portfolio<'a> {
        Portfolio { problem, platform, options, started: std::time::Instant::now() }
    }

    /// Every stage in order; the best solution with what is proven about it.
    pub(crate) fn run(&self) -> Result<Solution, SearchError> {
        let (start, other) = self.construct()?;
        let heuristic = self.anneal(start, &other);
        let best = self.exhaustive(heuristic)?;
        let best = self.long_anneal(best);
        let mut best = self.ilp(best)?;
        best.seed = self.options.seed;
        Ok(best)
    }

    fn tell(&self, stage: &str, best: &Solution) {
        if let Some(p) = &self.options.progress {
            (p.0)(stage, best.score, best.lower_bound);
        }
    }

    /// Placements that break a constraint rank after all that do not.
    fn rank(&self, s: &Solution) -> (bool, TrafficScore) {
        (!self.problem.violations(&s.placement).is_empty(), s.score)
    }

    /// FM passes over `core_of` (annealing takes few steps per task on
    /// large graphs); whether they moved anything.
    fn polish(&self, core_of: &mut [u16]) -> bool {
        let limits = self.platform.core_limits(self.problem.total_load(), self.problem.horizon_ns);
        crate::partition::refinement::fm::refine(self.problem, self.platform, core_of, &limits) > 0
    }

    /// Greedy and multilevel: the better first.
    fn construct(&self) -> Result<(Solution, Solution), SearchError> {
        let greedy = Greedy.solve(self.problem, self.platform, None)?;
        self.tell("greedy", &greedy);
        let metis = Multilevel { seed: self.options.seed }.solve(self.problem, self.platform, Some(&greedy))?;
        let pair = if self.rank(&metis) < self.rank(&greedy) { (metis, greedy) } else { (greedy, metis) };
        self.tell("multilevel", &pair.0);
        Ok(pair)
    }

    /// Annealing restarts alternating between the two starting points,
    /// then FM; the incumbent the exact search must beat (ties go to the
    /// earlier, cheaper method).
    fn anneal(&self, start: Solution, other: &Solution) -> Solution {
        let n = self.problem.len().max(1) as u64;
        // Large task sets get fewer steps per task, so that the whole
        // search stays within seconds.
        let steps_per_task = Annealer::default().steps_per_task.min(600_000 / n).max(50);
        let starts = [start.placement.core_of.clone(), other.placement.core_of.clone()];
        // Small task sets get many restarts (the walk's result varies much
        // with its random stream): about 20 million move attempts in all.
        let restarts = (ANNEAL_BUDGET / (steps_per_task * n)).clamp(8, 256) as u32;
        let annealed = Annealer { seed: self.options.seed, steps_per_task, restarts }.solve_from(
            self.problem,
            self.platform,
            &starts,
        );
        let heuristic = if self.rank(&annealed) < self.rank(&start) { annealed } else { start };
        let mut core_of = heuristic.placement.core_of.clone();
        let heuristic = if self.polish(&mut core_of) {
            let refined = solution(self.problem, self.platform, Placement::new(core_of), "refinement", 0);
            if self.rank(&refined) < self.rank(&heuristic) {
                Solution { nodes: heuristic.nodes, ..refined }
            } else {
                heuristic
            }
        } else {
            heuristic
        };
        self.tell("annealing", &heuristic);
        heuristic
    }

    /// The exhaustive search within the (scaled) node budget, from the
    /// heuristic answer; it decides what is proven.
    fn exhaustive(&self, heuristic: Solution) -> Result<Solution, SearchError> {
        let problem = self.problem;
        if problem.len() > EXHAUSTIVE_MAX_TASKS {
            let mut best = heuristic;
            best.notes.push(Note::TooManyTasks { tasks: problem.len(), max: EXHAUSTIVE_MAX_TASKS });
            self.tell("exhaustive", &best);
            return Ok(best);
        }
        let node_budget = portfolio_node_budget(self.options.node_budget, self.platform.cores);
        let mut exact = Exhaustive { node_budget }.solve(problem, self.platform, Some(&heuristic))?;
        if node_budget < self.options.node_budget {
            for note in &mut exact.notes {
                if let Note::NodeBudget { scaled_for_cores, .. } = note {
                    *scaled_for_cores = Some(self.platform.cores);
                }
            }
        }
        let mut best = if self.rank(&exact) < self.rank(&heuristic) { exact.clone() } else { heuristic.clone() };
        best.proven_optimal = exact.proven_optimal;
        best.lower_bound = exact.lower_bound;
        best.nodes = heuristic.nodes + exact.nodes;
        best.notes = exact.notes;
        self.tell("exhaustive", &best);
        Ok(best)
    }

    /// Unproven and task-sized: a longer annealing from the best so far.
    fn long_anneal(&self, mut best: Solution) -> Solution {
        let problem = self.problem;
        if best.proven_optimal || problem.len() > EXHAUSTIVE_MAX_TASKS || problem.len() <= 1 {
            return best;
        }
        let n = problem.len() as u64;
        // A move costs more on many cores: beyond 8, the budget shrinks in
        // proportion, keeping the stage's time near three seconds.
        let budget = LONG_ANNEAL_BUDGET * 8 / u64::from(self.platform.cores).max(8);
        let steps_per_task = LONG_ANNEAL_STEPS_PER_TASK.min(budget / (8 * n)).max(50);
        let restarts = (budget / (steps_per_task * n)).clamp(8, 256) as u32;
        let seed = self.options.seed ^ 0x4c4f_4e47;
        let long = Annealer { seed, steps_per_task, restarts }.solve_from(
            problem,
            self.platform,
            &[best.placement.core_of.clone()],
        );
        let mut core_of = long.placement.core_of.clone();
        self.polish(&mut core_of);
        let long = solution(problem, self.platform, Placement::new(core_of), "annealing", long.nodes);
        if self.rank(&long) < self.rank(&best) {
            let lower = best.lower_bound.min(long.score);
            best = Solution {
                lower_bound: lower,
                notes: std::mem::take(&mut best.notes),
                nodes: best.nodes + long.nodes,
                ..long
            };
            best.proven_optimal = best.lower_bound == best.score;
        } else {
            best.nodes += long.nodes;
        }
        self.tell("long annealing", &best);
        best
    }

    /// With a time limit, the ILP gets what is left of it; a proof it
    /// finds withdraws the node-budget note.
    fn ilp(&self, mut best: Solution) -> Result<Solution, SearchError> {
        let Some(limit) = self.options.time_limit else { return Ok(best) };
        if best.proven_optimal {
            return Ok(best);
        }
        let left = limit - self.started.elapsed().as_secs_f64();
        if left <= 0.05 || !self.problem.violations(&best.placement).is_empty() {
            best.notes.push(Note::NoTimeForIlp);
            return Ok(best);
        }
        let ilp =
            Ilp { time_limit: Some(left), seed: self.options.seed }.solve(self.problem, self.platform, Some(&best))?;
        let lower = best.lower_bound.max(ilp.lower_bound);
        let nodes = best.nodes;
        let mut notes = std::mem::take(&mut best.notes);
        notes.retain(|n| !n.is_budget() || !ilp.proven_optimal);
        notes.extend(ilp.notes.iter().filter(|n| matches!(n, Note::Ilp { .. })).cloned());
        if ilp.score < best.score {
            best = ilp;
        }
        best.lower_bound = lower.min(best.score);
        best.proven_optimal = best.lower_bound == best.score;
        best.nodes = nodes;
        best.notes = notes;
        self.tell("ilp", &best);
        Ok(best)
    }
}
