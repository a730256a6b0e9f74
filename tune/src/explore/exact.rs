//! Every AMP placement within the constraints and the load limits, up
//! to a renaming of identical cores, when there are few enough to replay
//! them all: then the best is optimal under the replay model.
//!
//! Depth first over the tasks, heaviest first (pinned ones before all); a
//! partial placement is dropped when its load above the cores' limits
//! already exceeds what is allowed (load only grows) or a task would share
//! a core with one it must avoid. On identical cores an unplaced task may
//! go to a core that keeps its identity (it holds a pinned task), a free
//! core in use, or the first free core not in use, so each placement is met
//! once up to renaming.

use corera_placement::{CoreId, Platform, Problem, Renaming};

/// Every placement of `p` on `platform` within the constraints whose load
/// above `limits` is at most `limits_over` (one per class of placements
/// equal up to a renaming of identical cores), or `None` when there are
/// more than `cap` (or the walk would take more than `cap` × tasks × cores
/// steps to tell).
pub(super) fn placements(
    p: &Problem,
    platform: &Platform,
    limits: &[u64],
    limits_over: u64,
    cap: u64,
) -> Option<Vec<Vec<CoreId>>> {
    let k = usize::from(platform.cores);
    let n = p.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (p.pinned[i].is_none(), std::cmp::Reverse(p.load[i]), i));
    let mut walk = Walk {
        p,
        limits,
        limits_over,
        order,
        core_of: vec![0; n],
        placed: vec![false; n],
        load: vec![0; k],
        count: vec![0; k],
        renaming: Renaming::of(p, platform),
        found: Vec::new(),
        cap,
        steps: 0,
        max_steps: cap.saturating_mul((n * k) as u64).max(1_000),
    };
    walk.visit(0).then_some(walk.found)
}

struct Walk<'a> {
    p: &'a Problem,
    limits: &'a [u64],
    limits_over: u64,
    order: Vec<usize>,
    core_of: Vec<CoreId>,
    placed: Vec<bool>,
    load: Vec<u64>,
    /// Tasks on each core so far.
    count: Vec<usize>,
    renaming: Renaming,
    found: Vec<Vec<CoreId>>,
    cap: u64,
    steps: u64,
    max_steps: u64,
}

impl Walk<'_> {
    fn overload(&self) -> u64 {
        self.load.iter().zip(self.limits).map(|(&l, &lim)| l.saturating_sub(lim)).sum()
    }

    /// Places the task at `depth` of the order and those after it; `false`
    /// when the cap or the step limit was passed.
    fn visit(&mut self, depth: usize) -> bool {
        self.steps += 1;
        if self.steps > self.max_steps {
            return false;
        }
        if depth == self.order.len() {
            self.found.push(self.core_of.clone());
            return self.found.len() as u64 <= self.cap;
        }
        let i = self.order[depth];
        for c in 0..self.load.len() {
            if !self.renaming.may_try(c, |x| self.count[x] > 0) {
                continue;
            }
            let apart =
                self.p.apart[i].iter().any(|&j| self.placed[j as usize] && usize::from(self.core_of[j as usize]) == c);
            if !self.p.allows(i, c) || apart {
                continue;
            }
            self.load[c] += self.p.load[i];
            if self.overload() <= self.limits_over {
                self.core_of[i] = c as CoreId;
                self.placed[i] = true;
                self.count[c] += 1;
                let ok = self.visit(depth + 1);
                self.count[c] -= 1;
                self.placed[i] = false;
                if !ok {
                    self.load[c] -= self.p.load[i];
                    return false;
                }
            }
            self.load[c] -= self.p.load[i];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use corera_placement::{Placement, Platform, Problem};
    use proptest::prelude::*;

    use super::placements;

    /// Every assignment of `n` tasks to `k` cores, filtered and put in
    /// canonical form: what the walk must find, by brute force.
    fn brute(p: &Problem, platform: &Platform, limits: &[u64], over: u64) -> HashSet<Vec<u16>> {
        let (n, k) = (p.len(), usize::from(platform.cores));
        let fixed = p.fixed_cores(platform.cores);
        let mut out = HashSet::new();
        for code in 0..k.pow(n as u32) {
            let core_of: Vec<u16> = (0..n).map(|i| (code / k.pow(i as u32) % k) as u16).collect();
            let placement = Placement::new(core_of.clone());
            if !p.violations(&placement).is_empty() {
                continue;
            }
            let mut load = vec![0u64; k];
            for (i, &c) in core_of.iter().enumerate() {
                load[usize::from(c)] += p.load[i];
            }
            let o: u64 = load.iter().zip(limits).map(|(&l, &m)| l.saturating_sub(m)).sum();
            if o <= over {
                let c = if platform.is_symmetric() { placement.canonical(platform.cores, &fixed) } else { placement };
                out.insert(c.core_of);
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The walk finds each feasible placement exactly once up to a
        /// renaming of identical cores (none twice, none missed), with pins,
        /// tasks kept apart and load limits.
        #[test]
        fn every_feasible_placement_once(
            n in 2usize..7,
            k in 2u16..4,
            loads in proptest::collection::vec(1u64..40, 7),
            pin in proptest::option::of((0usize..7, 0u16..3)),
            apart in proptest::option::of((0usize..7, 0usize..7)),
            limit in 40u64..120,
            over in 0u64..20,
        ) {
            let names: Vec<String> = (0..n).map(|i| format!("T{i}")).collect();
            let mut p = Problem::new(names, loads[..n].to_vec(), vec![], 100);
            if let Some((t, c)) = pin.filter(|&(t, c)| t < n && c < k) {
                let mask = (0..usize::from(k)).map(|x| x == usize::from(c)).collect();
                p.restrict(t, mask);
            }
            if let Some((a, b)) = apart.filter(|&(a, b)| a < n && b < n && a != b) {
                p.apart[a].push(b as u32);
                p.apart[b].push(a as u32);
            }
            let platform = Platform::identical(k);
            let limits = vec![limit; usize::from(k)];
            let found = placements(&p, &platform, &limits, over, 10_000).expect("within the cap");
            let fixed = p.fixed_cores(k);
            let canonical: Vec<Vec<u16>> =
                found.iter().map(|c| Placement::new(c.clone()).canonical(k, &fixed).core_of).collect();
            let distinct: HashSet<Vec<u16>> = canonical.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), canonical.len(), "a placement met twice");
            prop_assert_eq!(distinct, brute(&p, &platform, &limits, over));
        }
    }

    #[test]
    fn past_the_cap_there_is_no_answer() {
        let p = Problem::new((0..10).map(|i| format!("T{i}")).collect(), vec![1; 10], vec![], 100);
        let platform = Platform::identical(2);
        // 2^9 = 512 placements of ten tasks on two identical cores.
        assert_eq!(placements(&p, &platform, &[100, 100], 0, 512).map(|v| v.len()), Some(512));
        assert!(placements(&p, &platform, &[100, 100], 0, 511).is_none());
    }
}
