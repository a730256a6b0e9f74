//! Kicks for the iterated local search: a few random steps at once
//! (moves and swaps, or mask changes) that a descent would not take, to
//! leave a local optimum's basin. Tasks that waited are picked more often
//! (a wait of the mean counts twice as much as none).

use corera_placement::CoreId;
use corera_placement::rng::SplitMix64;

use super::Point;
use super::judge::{Judge, Probe};
use super::neighbourhood::Rules;

/// Attempts per step before a kick gives up on it.
const TRIES: usize = 32;

/// `strength` random feasible steps from `at`, within the constraints and
/// load limits; `None` when no step could be made.
pub(super) fn kick(
    judge: &Judge<'_>,
    rules: &Rules,
    at: &Point,
    strength: usize,
    rng: &mut SplitMix64,
) -> Option<Probe> {
    let p = &judge.merged;
    let k = u64::from(judge.input.platform.cores);
    let candidates: Vec<usize> =
        (0..p.len()).filter(|&i| if at.masks.is_some() { rules.floats[i] } else { rules.movable[i] }).collect();
    if candidates.is_empty() || k < 2 {
        return None;
    }
    let mean = (at.waits.iter().sum::<u64>() / at.waits.len().max(1) as u64).max(1);
    let weight: Vec<u64> = candidates.iter().map(|&i| mean + at.waits[i]).collect();
    let total: u64 = weight.iter().sum();
    let pick = |rng: &mut SplitMix64| -> usize {
        let mut r = rng.below(total);
        for (n, &w) in weight.iter().enumerate() {
            if r < w {
                return candidates[n];
            }
            r -= w;
        }
        candidates[candidates.len() - 1]
    };
    let mut core_of = at.core_of.clone();
    let mut masks = at.masks.clone();
    let mut made = 0;
    for _ in 0..strength {
        for _ in 0..TRIES {
            let i = pick(rng);
            let c = rng.below(k) as CoreId;
            if let Some(m) = masks.as_mut() {
                // Add a core the task may use, or take one away.
                if m[i].contains(c) {
                    if m[i].len() > 1 {
                        m[i].remove(c);
                        if core_of[i] == c {
                            core_of[i] = m[i].first().expect("a core left");
                        }
                        made += 1;
                        break;
                    }
                } else if p.allows(i, usize::from(c)) {
                    m[i].insert(c);
                    made += 1;
                    break;
                }
            } else if rng.below(2) == 0 {
                if c != core_of[i] && p.fits(i, usize::from(c), &core_of) {
                    core_of[i] = c;
                    made += 1;
                    break;
                }
            } else {
                let j = pick(rng);
                if core_of[j] != core_of[i] && p.swap_fits(i, j, &core_of) {
                    core_of.swap(i, j);
                    made += 1;
                    break;
                }
            }
        }
    }
    (made > 0 && rules.within_limits(judge, &core_of)).then(|| judge.canonical(Probe { core_of, masks }))
}
