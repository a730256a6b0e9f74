//! Exact search by integer linear programming, through good_lp.
//!
//! # Formulation
//! - `x[i][c]` ∈ {0, 1}: task i runs on core c; created only for the cores
//!   the task may use; `Σ_c x[i][c] = 1`.
//! - Load: `Σ_i load_i · x[i][c] ≤ limit_c` for every core (the balance
//!   share capped by capacity, [`Platform::core_limits`]). The ILP looks
//!   only at placements without overload, so it runs only when the
//!   incumbent has none (then the optimum has none either).
//! - Traffic on cores at one distance δ: a cut indicator `y_e ≥ x[a][c] −
//!   x[b][c]` for every core c, objective `δ · Σ w_e y_e`. On a topology:
//!   `t_e ≥ Σ_d D[c][d] · x[b][d] − max_d D[c][d] · (1 − x[a][c])` for every
//!   core c, objective `Σ w_e t_e` (exact at integer points).
//! - Apart: `x[i][c] + x[j][c] ≤ 1`. Together: merged before the search.
//! - Symmetry: when the cores are interchangeable and none holds a pinned
//!   task, the task in place p of the heaviest-first order may use cores
//!   0..=p only (every placement has a renaming of this form).
//! - Warm start from the incumbent, renamed to fit the symmetry rule.
//!
//! The textbook relaxation is weak (x = 1/k is fractional-feasible at cost
//! 0): the ILP proves small cases and polishes; the exhaustive search is
//! the stronger prover for two cores. With the `highs` feature HiGHS runs
//! it and reports its dual bound; otherwise microlp (pure Rust) does, and
//! reports a bound only when it proves optimality.

use std::time::Instant;

use corera_placement::{CoreId, Placement, Platform, Problem, TrafficScore};
use good_lp::{Expression, ProblemVariables, Variable, variable};

use crate::{Note, SearchError, Solution, Solver, solution};

/// The ILP, with a time limit.
#[derive(Clone, Copy, Debug)]
pub struct Ilp {
    /// Seconds the solver may run (None: until it proves optimality).
    pub time_limit: Option<f64>,
    /// Seed for the solver's own randomisation (HiGHS).
    pub seed: u64,
}

/// Which MIP solver runs the ILP in this build.
pub const ILP_BACKEND: &str = if cfg!(feature = "highs") { "HiGHS" } else { "microlp" };

/// The model: variables, objective, constraints, and how to read a
/// placement back.
struct Model {
    vars: ProblemVariables,
    objective: Expression,
    constraints: Vec<good_lp::Constraint>,
    /// `x[i][c]` and its column (creation order), `None` where task i may
    /// not use core c.
    x: Vec<Vec<Option<(Variable, usize)>>>,
    /// Warm start: every variable's column and value in the incumbent.
    start: Vec<(Variable, usize, f64)>,
}

/// What the MIP solver said.
pub(crate) struct MipResult {
    /// Core per task, when the solver has a feasible point.
    pub(crate) core_of: Option<Vec<CoreId>>,
    /// Whether the solver proved its point optimal.
    pub(crate) optimal: bool,
    /// A proven lower bound on the objective, when the solver gives one.
    pub(crate) bound: Option<f64>,
    /// The solver's status, for the notes.
    pub(crate) status: String,
}

/// Adds a variable and returns it with its column (creation order).
fn column(vars: &mut ProblemVariables, def: good_lp::VariableDefinition) -> (Variable, usize) {
    let col = vars.len();
    (vars.add(def), col)
}

/// The symmetry rule: where the cores are interchangeable and none holds a
/// pinned task, the task in place p of the heaviest-first order may use
/// cores `0..=p`. Returns each task's highest core and the incumbent
/// renamed to fit the rule.
fn symmetry(problem: &Problem, platform: &Platform, incumbent: &[CoreId]) -> (Vec<usize>, Vec<CoreId>) {
    let (n, k) = (problem.len(), platform.cores as usize);
    let mut cap = vec![k - 1; n];
    let mut start_core = incumbent.to_vec();
    let symmetric = platform.is_symmetric() && problem.fixed_cores(platform.cores).iter().all(|f| !f);
    if symmetric {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(problem.load[i]), i));
        let mut rename: Vec<Option<CoreId>> = vec![None; k];
        let mut used = 0;
        for (p, &i) in order.iter().enumerate() {
            cap[i] = p.min(k - 1);
            let c = *rename[incumbent[i] as usize].get_or_insert_with(|| {
                used += 1;
                (used - 1) as CoreId
            });
            start_core[i] = c;
        }
    }
    (cap, start_core)
}

impl Model {
    fn build(problem: &Problem, platform: &Platform, incumbent: &[CoreId]) -> Model {
        let n = problem.len();
        let k = platform.cores as usize;
        let (cap, start_core) = symmetry(problem, platform, incumbent);
        let mut vars = ProblemVariables::new();
        let x: Vec<Vec<Option<(Variable, usize)>>> = (0..n)
            .map(|i| {
                (0..k)
                    .map(|c| (c <= cap[i] && problem.allows(i, c)).then(|| column(&mut vars, variable().binary())))
                    .collect()
            })
            .collect();
        let mut start: Vec<(Variable, usize, f64)> = Vec::new();
        for (row, &on) in x.iter().zip(&start_core) {
            for (c, var) in row.iter().enumerate() {
                if let Some((v, col)) = *var {
                    start.push((v, col, f64::from(u8::from(on as usize == c))));
                }
            }
        }
        let mut model = Model { vars, objective: Expression::default(), constraints: Vec::new(), x, start };
        model.placement_rows(problem, platform);
        model.traffic(problem, platform, &start_core);
        model
    }

    /// One core per task, the cores' load limits and the apart pairs.
    fn placement_rows(&mut self, problem: &Problem, platform: &Platform) {
        let (n, k) = (problem.len(), platform.cores as usize);
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        let Model { constraints, x, .. } = self;
        let x_var = |i: usize, c: usize| x[i][c].map(|(v, _)| v);
        for row in x.iter() {
            let sum: Expression = row.iter().flatten().map(|&(v, _)| Expression::from(v)).sum();
            constraints.push(sum.eq(1.0));
        }
        for (c, &limit) in limits.iter().enumerate() {
            let mut expr = Expression::with_capacity(n);
            // Normalised rows (coefficients ≤ 1) keep the LP well scaled.
            let scale = if limit == 0 { 1.0 } else { limit as f64 };
            for i in 0..n {
                if let Some(v) = x_var(i, c) {
                    expr.add_mul(problem.load[i] as f64 / scale, v);
                }
            }
            constraints.push(expr.leq(if limit == 0 { 0.0 } else { 1.0 }));
        }
        for i in 0..n {
            for &j in problem.apart[i].iter().filter(|&&j| j as usize > i) {
                for c in 0..k {
                    if let (Some(a), Some(b)) = (x_var(i, c), x_var(j as usize, c)) {
                        constraints.push((Expression::from(a) + b).leq(1.0));
                    }
                }
            }
        }
    }

    /// The objective: a cut indicator per edge on cores at one distance, a
    /// distance term per edge on a topology; each warm-started from
    /// `start_core`.
    fn traffic(&mut self, problem: &Problem, platform: &Platform, start_core: &[CoreId]) {
        let k = platform.cores as usize;
        let Model { vars, objective, constraints, x, start } = self;
        *objective = Expression::with_capacity(problem.edges.len());
        let x_var = |i: usize, c: usize| x[i][c].map(|(v, _)| v);
        let uniform = platform.is_uniform();
        for &(a, b, w) in &problem.edges {
            let (a, b) = (a as usize, b as usize);
            let (ca, cb) = (start_core[a] as usize, start_core[b] as usize);
            if uniform {
                let (y, col) = column(vars, variable().min(0.0).max(1.0));
                for c in 0..k {
                    if let Some(xa) = x_var(a, c) {
                        let mut rhs = Expression::from(xa);
                        if let Some(xb) = x_var(b, c) {
                            rhs -= xb;
                        }
                        constraints.push(Expression::from(y).geq(rhs));
                    }
                }
                objective.add_mul((w * platform.distance(0, 1.min(k - 1))) as f64, y);
                start.push((y, col, f64::from(u8::from(ca != cb))));
            } else {
                let (t, col) = column(vars, variable().min(0.0));
                for c in 0..k {
                    let Some(xa) = x_var(a, c) else { continue };
                    let far = (0..k).map(|d| platform.distance(c, d)).max().unwrap_or(0) as f64;
                    let mut rhs = Expression::with_capacity(k + 1);
                    for d in 0..k {
                        if let Some(xb) = x_var(b, d) {
                            rhs.add_mul(platform.distance(c, d) as f64, xb);
                        }
                    }
                    rhs.add_mul(far, xa);
                    rhs -= far;
                    constraints.push(Expression::from(t).geq(rhs));
                }
                objective.add_mul(w as f64, t);
                start.push((t, col, platform.distance(ca, cb) as f64));
            }
        }
    }

    /// Reads the placement from a solution's values.
    fn placement(x: &[Vec<Option<(Variable, usize)>>], value: impl Fn(Variable, usize) -> f64) -> Vec<CoreId> {
        x.iter()
            .map(|row| {
                let best = row
                    .iter()
                    .enumerate()
                    .filter_map(|(c, v)| v.map(|(v, column)| (c, value(v, column))))
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                    .map_or(0, |(c, _)| c);
                best as CoreId
            })
            .collect()
    }

    #[cfg(not(feature = "highs"))]
    fn solve(self, time_limit: Option<f64>, _seed: u64) -> Result<MipResult, String> {
        use good_lp::{
            ResolutionError, Solution as _, SolutionStatus, SolverModel, WithInitialSolution, WithTimeLimit,
        };
        let Model { vars, objective, constraints, x, start } = self;
        let start = start.into_iter().map(|(v, _, value)| (v, value));
        let mut model = vars.minimise(objective).using(good_lp::microlp).with_initial_solution(start);
        if let Some(t) = time_limit {
            model = model.with_time_limit(t.max(0.001));
        }
        let model = model.with_all(constraints);
        match model.solve() {
            Ok(s) => {
                let optimal = matches!(s.status(), SolutionStatus::Optimal);
                Ok(MipResult {
                    core_of: Some(Model::placement(&x, |v, _| s.value(v))),
                    optimal,
                    bound: None,
                    status: if optimal { "optimal".into() } else { "time limit".into() },
                })
            }
            Err(ResolutionError::Infeasible) => {
                Ok(MipResult { core_of: None, optimal: true, bound: None, status: "infeasible".into() })
            }
            Err(ResolutionError::Other(msg)) if msg.contains("Time limit") => {
                Ok(MipResult { core_of: None, optimal: false, bound: None, status: "time limit, no solution".into() })
            }
            Err(e) => Err(e.to_string()),
        }
    }

    #[cfg(feature = "highs")]
    fn solve(self, time_limit: Option<f64>, seed: u64) -> Result<MipResult, String> {
        let Model { vars, objective, constraints, x, start } = self;
        let start: Vec<(usize, f64)> = start.into_iter().map(|(_, column, value)| (column, value)).collect();
        crate::exact::highs::solve(vars, objective, constraints, &start, time_limit, seed).map(|r| MipResult {
            core_of: r.values.map(|values| Model::placement(&x, |_, column| values[column])),
            optimal: r.optimal,
            bound: r.bound,
            status: r.status,
        })
    }
}

impl Solver for Ilp {
    fn name(&self) -> &'static str {
        "ilp"
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
        let started = Instant::now();
        let greedy;
        let incumbent = match incumbent {
            Some(s) => s,
            None => {
                greedy = crate::Greedy.solve(problem, platform, None)?;
                &greedy
            }
        };
        // An overloaded incumbent is no warm start for a model that forbids
        // overload.
        let balanced = incumbent.score.overload_ns == 0;
        let mut model = Model::build(problem, platform, &incumbent.placement.core_of);
        if !balanced {
            model.start.clear();
        }
        let result =
            model.solve(self.time_limit, self.seed).map_err(|e| SearchError::Solver(format!("{ILP_BACKEND}: {e}")))?;
        // Trust nothing a solver says without checking it: its point is
        // re-evaluated, and its optimality claim stands only when the point
        // really costs no more than the incumbent.
        let point = result.core_of.map(|core_of| solution(problem, platform, Placement::new(core_of), self.name(), 0));
        let point = point.filter(|s| problem.violations(&s.placement).is_empty());
        let claim_holds = result.optimal && point.as_ref().is_some_and(|s| s.score <= incumbent.score);
        let point_found = point.is_some();
        let mut best = match point {
            Some(s) if s.score < incumbent.score => s,
            _ => incumbent.clone(),
        };
        let seconds = started.elapsed().as_secs_f64();
        best.notes.push(Note::Ilp { backend: ILP_BACKEND, status: result.status.clone(), seconds });
        if claim_holds {
            best.proven_optimal = true;
            best.lower_bound = best.score;
        } else if result.optimal && !point_found && !balanced {
            // Proven: no placement keeps every core within its limit.
            best.lower_bound = best.lower_bound.max(TrafficScore { overload_ns: 1, cross_traffic: 0 });
            best.notes.push(Note::IlpNoBalancedPlacement);
        } else if let Some(bound) = result.bound {
            // Integer weights: the optimum is at least the bound rounded up.
            let bound = (bound - 1e-6).ceil().max(0.0) as u64;
            let lower = TrafficScore { overload_ns: 0, cross_traffic: bound.min(best.score.cross_traffic) };
            best.lower_bound = best.lower_bound.max(lower);
            best.proven_optimal = best.lower_bound == best.score;
        }
        Ok(best)
    }
}
