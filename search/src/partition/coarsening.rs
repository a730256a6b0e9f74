//! Coarsening by size-constrained label propagation.
//!
//! Each task starts as its own cluster; in a few rounds over the tasks in
//! a seeded random order, a task joins the neighbouring cluster it talks
//! to most per unit of that cluster's weight, if the cluster stays within
//! a weight cap. Clusters follow the graph's communities rather than
//! pairing tasks along heavy edges as METIS's matching does; on irregular
//! graphs (circuits such as add20) the partitions found on such a
//! hierarchy cut markedly less (add20 two-way: 654 against 706; the same
//! observation is behind KaHIP's "social" configurations and Mt-KaHyPar's
//! clustering coarsener). Each cluster becomes one task of the next level
//! ([`Problem::merge`]).
//!
//! Tasks with a constraint (pinned, restricted to some cores, kept apart
//! from others) stay clusters of their own, so every coarse task carries
//! the constraints of its one member or none. Given a partition, clusters
//! stay inside its blocks, so the partition carries over to the coarse
//! level unchanged (a V-cycle).

use corera_placement::rng::SplitMix64;
use corera_placement::{CoreId, Problem};

/// Label-propagation rounds per level.
const ROUNDS: usize = 5;

/// One level of a hierarchy: the coarse problem and, for each task of the
/// finer one, its task in the coarse one.
pub(crate) struct Level {
    pub(crate) problem: Problem,
    pub(crate) slot: Vec<u32>,
}

/// Whether task `i` carries a constraint (and so is never merged).
fn constrained(problem: &Problem, i: usize) -> bool {
    problem.pinned[i].is_some() || problem.allowed[i].is_some() || !problem.apart[i].is_empty()
}

/// Clusters of `problem`'s tasks no heavier than `cap` (a task heavier
/// than `cap` stays alone), within the blocks of `blocks` when given: the
/// cluster of each task, numbered from 0 without gaps.
pub(crate) fn label_propagation(problem: &Problem, cap: u64, seed: u64, blocks: Option<&[CoreId]>) -> Vec<u32> {
    let n = problem.len();
    let mut cluster: Vec<usize> = (0..n).collect();
    let mut weight = problem.load.clone();
    let frozen: Vec<bool> = (0..n).map(|i| constrained(problem, i)).collect();
    let mut rng = SplitMix64::new(seed ^ 0x6c61_6265_6c73);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut conn = vec![0u64; n];
    let mut touched: Vec<usize> = Vec::new();
    for _ in 0..ROUNDS {
        let mut moved = 0usize;
        for &v in &order {
            if frozen[v] {
                continue;
            }
            let own = cluster[v];
            for &(u, w) in &problem.adjacency[v] {
                let u = u as usize;
                if frozen[u] || blocks.is_some_and(|b| b[u] != b[v]) {
                    continue;
                }
                let c = cluster[u];
                if conn[c] == 0 {
                    touched.push(c);
                }
                conn[c] += w;
            }
            // The best-rated cluster that fits. Rating: traffic per unit of
            // the cluster's weight (without v), so that heavy clusters
            // (around hubs) do not swallow everyone; ties go to the present
            // cluster, then to a coin toss.
            let rate = |c: usize| {
                let others = weight[c] - if c == own { problem.load[v] } else { 0 };
                conn[c] as f64 / others.max(1) as f64
            };
            let mut best = (if conn[own] > 0 { rate(own) } else { 0.0 }, own);
            for &c in &touched {
                if c == own || weight[c] + problem.load[v] > cap {
                    continue;
                }
                let r = rate(c);
                if r > best.0 || (r == best.0 && best.1 != own && rng.below(2) == 0) {
                    best = (r, c);
                }
            }
            for &c in &touched {
                conn[c] = 0;
            }
            touched.clear();
            if best.1 != own {
                weight[own] -= problem.load[v];
                weight[best.1] += problem.load[v];
                cluster[v] = best.1;
                moved += 1;
            }
        }
        if moved * 100 < n {
            break;
        }
    }
    let mut number = vec![u32::MAX; n];
    let mut next = 0u32;
    cluster
        .iter()
        .map(|&c| {
            if number[c] == u32::MAX {
                number[c] = next;
                next += 1;
            }
            number[c]
        })
        .collect()
}

/// The hierarchy above `problem`: levels ever coarser until at most
/// `target` tasks are left or a level no longer shrinks by a tenth, with
/// clusters no heavier than `cap`. When `blocks` is given, clusters stay
/// inside them, and the block of each task of the coarsest level comes
/// back with the levels.
pub(crate) fn hierarchy(
    problem: &Problem,
    target: usize,
    cap: u64,
    seed: u64,
    blocks: Option<&[CoreId]>,
) -> (Vec<Level>, Option<Vec<CoreId>>) {
    let mut levels: Vec<Level> = Vec::new();
    let mut blocks: Option<Vec<CoreId>> = blocks.map(<[CoreId]>::to_vec);
    loop {
        let fine = levels.last().map_or(problem, |l| &l.problem);
        if fine.len() <= target {
            break;
        }
        let slot = label_propagation(fine, cap, seed.wrapping_add(levels.len() as u64), blocks.as_deref());
        let m = slot.iter().map(|&s| s as usize + 1).max().unwrap_or(0);
        if m * 10 > fine.len() * 9 {
            break;
        }
        if let Some(b) = &blocks {
            let mut coarse = vec![0; m];
            for (i, &s) in slot.iter().enumerate() {
                coarse[s as usize] = b[i];
            }
            blocks = Some(coarse);
        }
        levels.push(Level { problem: fine.merge(&slot), slot });
    }
    (levels, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_follow_communities_and_respect_the_cap() {
        let p = crate::tests::two_cliques(8, 5);
        for (cap, tasks) in [(80, 8), (30, 3)] {
            let slot = label_propagation(&p, cap, 7, None);
            let clusters = *slot.iter().max().unwrap() as usize + 1;
            assert!(clusters <= 8, "cap {cap}: at least halved: {slot:?}");
            for c in 0..clusters as u32 {
                let members: Vec<usize> = (0..16).filter(|&t| slot[t] == c).collect();
                assert!(!members.is_empty(), "numbered without gaps: {slot:?}");
                assert!(members.len() <= tasks, "cap {cap}: {slot:?}");
                assert!(members.iter().all(|&t| t / 8 == members[0] / 8), "the light edge is never followed: {slot:?}");
            }
        }
    }

    #[test]
    fn constrained_tasks_and_blocks_are_respected() {
        let mut p = crate::tests::two_cliques(8, 5);
        p.restrict(3, vec![false, true]);
        // Blocks split the first clique in two halves.
        let blocks: Vec<CoreId> = (0..16).map(|t| if t < 4 { 0 } else { 1 }).collect();
        let slot = label_propagation(&p, 1000, 1, Some(&blocks));
        assert!((0..16).all(|t| t == 3 || slot[t] != slot[3]), "the restricted task stays alone: {slot:?}");
        for a in 0..16 {
            for b in 0..16 {
                assert!(slot[a] != slot[b] || blocks[a] == blocks[b], "{slot:?}");
            }
        }
        let (levels, coarse_blocks) = hierarchy(&p, 2, 1000, 1, Some(&blocks));
        let coarse = &levels.last().unwrap().problem;
        let coarse_blocks = coarse_blocks.unwrap();
        assert_eq!(coarse_blocks.len(), coarse.len());
        for (i, &b) in blocks.iter().enumerate() {
            let mut slot = i;
            for level in &levels {
                slot = level.slot[slot] as usize;
            }
            assert_eq!(coarse_blocks[slot], b, "task {i}'s block carried up");
        }
        assert_eq!(coarse.total_load(), p.total_load());
        assert!(coarse.allowed.iter().filter(|a| a.is_some()).count() == 1, "the restriction carried up");
    }
}
