//! The ILP on HiGHS, with the dual bound and gap that good_lp's generic
//! interface does not expose: the model is built by good_lp, then solved
//! through the `highs` crate directly (options set there; good_lp's own
//! options would not carry over).

use good_lp::{Expression, ProblemVariables};
use highs::HighsModelStatus;

/// What HiGHS found.
pub(crate) struct HighsResult {
    /// Column values (in variable-creation order), when feasible.
    pub(crate) values: Option<Vec<f64>>,
    /// Whether the values are proven optimal.
    pub(crate) optimal: bool,
    /// HiGHS's dual bound.
    pub(crate) bound: Option<f64>,
    /// Status for the notes.
    pub(crate) status: String,
}

pub(crate) fn solve(
    vars: ProblemVariables,
    objective: Expression,
    constraints: Vec<good_lp::Constraint>,
    start: &[(usize, f64)],
    time_limit: Option<f64>,
    seed: u64,
) -> Result<HighsResult, String> {
    use good_lp::SolverModel;
    let columns = vars.len();
    let problem = vars.minimise(objective).using(good_lp::highs).with_all(constraints);
    let mut model = problem.try_into_inner().map_err(|e| e.to_string())?;
    model.make_quiet();
    // One thread and a fixed seed: the same answer on every run, given time.
    model.set_option("threads", 1);
    model.set_option("random_seed", (seed % i32::MAX as u64) as i32);
    model.set_option("mip_rel_gap", 0.0);
    // HiGHS 1.16's presolve, given the warm start, proved a placement of
    // cost 2 optimal where one of cost 1 exists
    // (`the_ilp_proves_the_optimum_a_presolved_warm_start_missed`; its
    // presolve has returned wrong optima before, ERGO-Code/HiGHS#1273,
    // #3094). Without presolve it proves 1, and the 50x4 task graphs are
    // proven as fast (the book's performance page).
    model.set_option("presolve", "off");
    if let Some(t) = time_limit {
        model.set_option("time_limit", t.max(0.001));
    }
    let mut warm = vec![0.0; columns];
    for &(column, x) in start {
        warm[column] = x;
    }
    model.try_set_solution(Some(&warm), None, None, None).map_err(|e| format!("warm start: {e:?}"))?;
    let solved = model.try_solve().map_err(|e| format!("{e:?}"))?;
    let status = solved.status();
    let bound = solved.double_info_value(c"mip_dual_bound").ok().filter(|b| b.is_finite());
    let feasible = solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
    let optimal = status == HighsModelStatus::Optimal && solved.mip_gap().abs() < 1e-9;
    let values = feasible.then(|| solved.get_solution().columns().to_vec());
    let text = match status {
        HighsModelStatus::Optimal => "optimal".to_string(),
        HighsModelStatus::ReachedTimeLimit => format!(
            "time limit, gap {}",
            if solved.mip_gap().is_finite() { format!("{:.1} %", solved.mip_gap() * 100.0) } else { "-".into() }
        ),
        HighsModelStatus::Infeasible => "infeasible".to_string(),
        other => format!("{other:?}"),
    };
    Ok(HighsResult { values, optimal, bound, status: text })
}
