//! Initial partitions by METIS (k-way or recursive bisection), through the
//! `metis` crate (METIS 5 built from its C source).

use std::sync::Mutex;

use corera_placement::Problem;

/// METIS keeps its random-number state in a C global: two partitions
/// computed at once in one process (parallel tests, a library user's
/// threads) would interleave it and lose reproducibility. One at a time.
static METIS: Mutex<()> = Mutex::new(());

/// METIS's partition of the tasks `tasks` (the subgraph they induce) into
/// `targets.len()` blocks with those shares of the load (k-way, or by
/// recursive bisection when `bisect`), or `None`
/// when METIS cannot be used (weights beyond its 32-bit range, an error
/// inside it).
pub(crate) fn metis_parts(
    problem: &Problem,
    tasks: &[usize],
    targets: &[f64],
    tolerance: f64,
    seed: u64,
    bisect: bool,
) -> Option<Vec<metis::Idx>> {
    let mut local = vec![u32::MAX; problem.len()];
    for (l, &t) in tasks.iter().enumerate() {
        local[t] = l as u32;
    }
    let mut xadj: Vec<metis::Idx> = Vec::with_capacity(tasks.len() + 1);
    let mut adjncy = Vec::new();
    let mut adjwgt = Vec::new();
    xadj.push(0);
    for &t in tasks {
        for &(j, w) in &problem.adjacency[t] {
            let j = local[j as usize];
            if j != u32::MAX {
                adjncy.push(metis::Idx::try_from(j).ok()?);
                adjwgt.push(metis::Idx::try_from(w.max(1)).ok()?);
            }
        }
        xadj.push(metis::Idx::try_from(adjncy.len()).ok()?);
    }
    // METIS wants positive vertex weights; scale loads into its range.
    let max = problem.load.iter().copied().max().unwrap_or(1).max(1);
    let scale = (max / 1_000_000).max(1);
    let vwgt: Vec<metis::Idx> =
        tasks.iter().map(|&t| metis::Idx::try_from((problem.load[t] / scale).max(1)).ok()).collect::<Option<_>>()?;
    let ubvec = [1.0 + tolerance as metis::Real];
    let total: f64 = targets.iter().sum();
    let tpwgts: Vec<metis::Real> = targets.iter().map(|&t| (t / total) as metis::Real).collect();
    let mut part = vec![0 as metis::Idx; tasks.len()];
    let mut graph = metis::Graph::new(1, targets.len() as metis::Idx, &xadj, &adjncy).ok()?;
    if targets.iter().any(|&t| t != targets[0]) {
        graph = graph.set_tpwgts(&tpwgts);
    }
    let graph = graph
        .set_vwgt(&vwgt)
        .set_adjwgt(&adjwgt)
        .set_ubvec(&ubvec)
        .set_option(metis::option::Seed((seed % (i32::MAX as u64)) as metis::Idx));
    let _one_at_a_time = METIS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if bisect {
        graph.part_recursive(&mut part).ok()?;
    } else {
        graph.part_kway(&mut part).ok()?;
    }
    Some(part)
}
