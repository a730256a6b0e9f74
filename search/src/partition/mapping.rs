//! Mapping blocks onto a topology: which block goes to which core, so that
//! blocks that talk much sit close, and the clusters of a platform.

use corera_placement::{CoreId, Platform, Problem};

use crate::cooling::Cooling;

/// Annealing steps per block when mapping blocks onto cores. Ten times
/// more moved add20 on mesh:8x8 up or down by up to 2 % depending on the
/// candidate, not consistently down (measured 2026-11-30).
const MAP_STEPS: u64 = 4000;

/// The clusters of a platform: groups of cores joined by the smallest
/// distance, when there are at least two, each has two cores or more, and
/// every pair of cores in different groups is at one same larger distance.
pub(crate) fn clusters(platform: &Platform) -> Option<Vec<Vec<usize>>> {
    let k = platform.cores as usize;
    let near = (0..k).flat_map(|a| (0..k).filter(move |&b| b != a).map(move |b| (a, b)));
    let nearest = near.clone().map(|(a, b)| platform.distance(a, b)).min()?;
    let mut group = vec![usize::MAX; k];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for a in 0..k {
        if group[a] != usize::MAX {
            continue;
        }
        let members: Vec<usize> = (0..k).filter(|&b| b == a || platform.distance(a, b) == nearest).collect();
        for &m in &members {
            group[m] = groups.len();
        }
        groups.push(members);
    }
    let far: Vec<u64> = near.filter(|&(a, b)| group[a] != group[b]).map(|(a, b)| platform.distance(a, b)).collect();
    let cliques = near_cliques(platform, &groups, nearest);
    let ok = groups.len() >= 2
        && groups.iter().all(|g| g.len() >= 2)
        && cliques
        && far.iter().all(|&d| d == far[0] && d > nearest);
    ok.then_some(groups)
}

/// Whether every group's cores are all at distance `nearest` from each
/// other.
fn near_cliques(platform: &Platform, groups: &[Vec<usize>], nearest: u64) -> bool {
    groups.iter().all(|g| g.iter().all(|&a| g.iter().all(|&b| a == b || platform.distance(a, b) == nearest)))
}

/// Renames blocks to cores so that blocks that talk much sit close: a
/// quadratic assignment of blocks to cores, solved by pairwise swaps while
/// the topology-weighted traffic between blocks falls, then by simulated
/// annealing over swaps (seeded, so reproducible) and swaps again; only
/// cores of equal speed trade blocks. On uniform platforms any naming is
/// as good.
pub(crate) fn map_blocks(problem: &Problem, platform: &Platform, blocks: &[CoreId], seed: u64) -> Vec<CoreId> {
    let k = platform.cores as usize;
    if platform.is_uniform() {
        return blocks.to_vec();
    }
    let mut traffic = vec![0u64; k * k];
    for &(a, b, w) in &problem.edges {
        let (x, y) = (blocks[a as usize] as usize, blocks[b as usize] as usize);
        if x != y {
            traffic[x * k + y] += w;
            traffic[y * k + x] += w;
        }
    }
    // The blocks each block talks to, with the traffic.
    let talks: Vec<Vec<(usize, i64)>> = (0..k)
        .map(|x| (0..k).filter(|&z| traffic[x * k + z] > 0).map(|z| (z, traffic[x * k + z] as i64)).collect())
        .collect();
    // core[x]: the core of block x. Cost change of swapping the cores of
    // blocks x and y, in O(blocks they talk to).
    let delta = |core: &[usize], x: usize, y: usize| -> i64 {
        let (cx, cy) = (core[x], core[y]);
        let moved = |from: usize, to: usize, other: usize| -> i64 {
            talks[from]
                .iter()
                .filter(|&&(z, _)| z != other)
                .map(|&(z, t)| {
                    t * (platform.distance(to, core[z]) as i64 - platform.distance(core[from], core[z]) as i64)
                })
                .sum()
        };
        moved(x, cy, y) + moved(y, cx, x)
    };
    let swappable = |core: &[usize], x: usize, y: usize| platform.speed[core[x]] == platform.speed[core[y]];
    let descend = |core: &mut Vec<usize>| {
        let mut improved = true;
        while improved {
            improved = false;
            for x in 0..k {
                for y in x + 1..k {
                    if swappable(core, x, y) && delta(core, x, y) < 0 {
                        core.swap(x, y);
                        improved = true;
                    }
                }
            }
        }
    };
    let cost = |core: &[usize]| -> u64 {
        (0..k)
            .flat_map(|x| (0..k).map(move |y| (x, y)))
            .map(|(x, y)| traffic[x * k + y] * platform.distance(core[x], core[y]))
            .sum()
    };
    let mut core: Vec<usize> = (0..k).collect();
    descend(&mut core);
    let mut best = core.clone();
    let mut best_cost = cost(&best);
    // Annealing: the temperature starts at the mean positive swap delta
    // and cools geometrically to 1 % of it.
    let mut rng = corera_placement::rng::SplitMix64::new(seed ^ 0x6d61_7020);
    let steps = MAP_STEPS * k as u64;
    let sample: Vec<f64> = (0..64)
        .map(|_| delta(&core, rng.below(k as u64) as usize, rng.below(k as u64) as usize).abs() as f64)
        .collect();
    let mut cooling = Cooling::geometric(Cooling::start_from(sample), 0.01, steps);
    let mut current = best_cost as i64;
    for _ in 0..steps {
        cooling.step();
        let (x, y) = (rng.below(k as u64) as usize, rng.below(k as u64) as usize);
        if x == y || !swappable(&core, x, y) {
            continue;
        }
        let d = delta(&core, x, y);
        if cooling.accepts(d as f64, &mut rng) {
            core.swap(x, y);
            current += d;
            if (current as u64) < best_cost {
                best_cost = current as u64;
                best.clone_from(&core);
            }
        }
    }
    descend(&mut best);
    blocks.iter().map(|&b| best[b as usize] as CoreId).collect()
}
