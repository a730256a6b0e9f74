//! The neighbourhoods the local search scans in full: every single-task
//! move and every swap of two tasks on different cores (AMP
//! placements), every core added to or taken from one task's mask (mask
//! placements); each within the constraints and the load limits. A mask's
//! neighbourhood also holds the mask narrowed to its home core and widened
//! to every core the task may use (what one-core changes would take many
//! steps to make).

use corera_placement::{CoreId, CoreSet};

use super::Point;
use super::judge::{Judge, Probe};

/// What the search may do with each merged task.
pub(super) struct Rules {
    /// May move (not pinned to one core).
    pub(super) movable: Vec<bool>,
    /// May float over several cores (not an ISR, a group kept together,
    /// pinned, or kept apart from another task).
    pub(super) floats: Vec<bool>,
    /// Each core's load limit: its capacity, and the balance share too when
    /// the search keeps the balance.
    pub(super) limits: Vec<u64>,
    /// The overload of the traffic optimum: no placement may exceed it.
    pub(super) limits_over: u64,
}

impl Rules {
    pub(super) fn new(judge: &Judge<'_>, traffic: &[CoreId], balance: bool) -> Rules {
        let input = judge.input;
        let merged = &judge.merged;
        let m = merged.len();
        let mut size = vec![0usize; m];
        let mut floats = vec![true; m];
        for (i, &s) in judge.slot.iter().enumerate() {
            let s = s as usize;
            size[s] += 1;
            floats[s] &= !input.isr[i] && input.problem.pinned[i].is_none() && input.problem.apart[i].is_empty();
        }
        for (s, &n) in size.iter().enumerate() {
            floats[s] &= n == 1;
        }
        let movable = (0..m).map(|i| merged.pinned[i].is_none()).collect();
        let platform = input.platform;
        let limits = if balance {
            platform.core_limits(merged.total_load(), merged.horizon_ns)
        } else {
            platform.capacity_limits(merged.horizon_ns)
        };
        let limits_over = overload(judge, &limits, traffic);
        Rules { movable, floats, limits, limits_over }
    }

    /// Whether a (home) placement keeps within the load limits: no more
    /// load above the cores' limits than the traffic optimum has.
    pub(super) fn within_limits(&self, judge: &Judge<'_>, core_of: &[CoreId]) -> bool {
        overload(judge, &self.limits, core_of) <= self.limits_over
    }
}

/// Load above the cores' `limits` under a merged placement.
fn overload(judge: &Judge<'_>, limits: &[u64], core_of: &[CoreId]) -> u64 {
    let p = &judge.merged;
    let mut load = vec![0u64; limits.len()];
    for (i, &c) in core_of.iter().enumerate() {
        load[usize::from(c)] += p.load[i];
    }
    load.iter().zip(limits).map(|(&l, &lim)| l.saturating_sub(lim)).sum()
}

/// One step from a placement: the neighbourhoods are lists of steps in a
/// fixed order, which the descent scans cyclically (a step that does not
/// apply at a point, such as a move to the task's own core, is skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Task to core.
    Move(u32, CoreId),
    /// Two tasks trade cores.
    Swap(u32, u32),
    /// A core added to a task's mask.
    Add(u32, CoreId),
    /// A core taken from a task's mask of two or more (the home core moves
    /// to a core left when it is the one taken).
    Remove(u32, CoreId),
    /// `Add` or `Remove`, whichever applies: the one-core change a plain
    /// first-improvement search takes core by core.
    Toggle(u32, CoreId),
    /// A task's mask widened to every core it may use.
    Widen(u32),
    /// A task's mask narrowed to its home core.
    Narrow(u32),
}

/// The steps of an AMP placement from `at`: every single-task move,
/// then (in a second list) every swap, tasks in `order`, each list sorted
/// by the surrogate's promise at `at` unless `plain`.
pub(super) fn amp_steps(
    judge: &Judge<'_>,
    rules: &Rules,
    at: &Point,
    order: &[usize],
    plain: bool,
) -> (Vec<Step>, Vec<Step>) {
    let k = judge.input.platform.cores;
    let (s, x) = (&judge.surrogate, &at.core_of);
    let movable: Vec<usize> = order.iter().copied().filter(|&i| rules.movable[i]).collect();
    // Every core: a task's own core now is another core after it moves.
    let mut moves: Vec<(f64, Step)> = movable
        .iter()
        .flat_map(|&i| (0..k).map(move |c| (i, c)))
        .map(|(i, c)| (if c == x[i] { f64::INFINITY } else { s.move_delta(x, i, c) }, Step::Move(i as u32, c)))
        .collect();
    let mut swaps: Vec<(f64, Step)> = movable
        .iter()
        .enumerate()
        .flat_map(|(a, &i)| movable[a + 1..].iter().map(move |&j| (i, j)))
        .map(|(i, j)| {
            (if x[i] == x[j] { f64::INFINITY } else { s.swap_delta(x, i, j) }, Step::Swap(i as u32, j as u32))
        })
        .collect();
    if !plain {
        moves.sort_by(|a, b| a.0.total_cmp(&b.0));
        swaps.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    (moves.into_iter().map(|m| m.1).collect(), swaps.into_iter().map(|m| m.1).collect())
}

/// The steps of a mask placement, tasks that may float in `order` (those
/// that waited longest first): the big steps first, masks widened to every
/// core (in `order`) and narrowed to the home core (in reverse: those that
/// waited least first), then cores added one at a time (in `order`) and
/// taken one at a time (in reverse). From global SMP the narrowings are
/// what pays; from one core per task the widenings; single cores refine.
/// `plain`: each core toggled, task by task, and nothing else.
pub(super) fn mask_steps(judge: &Judge<'_>, rules: &Rules, order: &[usize], plain: bool) -> Vec<Step> {
    let k = judge.input.platform.cores;
    let floats: Vec<u32> = order.iter().filter(|&&i| rules.floats[i]).map(|&i| i as u32).collect();
    if plain {
        // Task by task, core by core, each core toggled: what a plain
        // first-improvement search over one-core changes scans.
        return floats.iter().flat_map(|&i| (0..k).map(move |c| Step::Toggle(i, c))).collect();
    }
    let mut out: Vec<Step> = floats.iter().map(|&i| Step::Widen(i)).collect();
    out.extend(floats.iter().rev().map(|&i| Step::Narrow(i)));
    for &i in &floats {
        out.extend((0..k).map(|c| Step::Add(i, c)));
    }
    for &i in floats.iter().rev() {
        out.extend((0..k).map(|c| Step::Remove(i, c)));
    }
    out
}

/// The placement one step from `at` (canonical), or `None` when the step
/// does not apply there or breaks the constraints or load limits.
pub(super) fn apply(judge: &Judge<'_>, rules: &Rules, at: &Point, step: Step) -> Option<Probe> {
    let p = &judge.merged;
    let x = &at.core_of;
    let probe = match step {
        Step::Move(i, c) => {
            let i = i as usize;
            if c == x[i] || !p.fits(i, usize::from(c), x) {
                return None;
            }
            let mut next = x.clone();
            next[i] = c;
            Probe { core_of: next, masks: None }
        }
        Step::Swap(i, j) => {
            let (i, j) = (i as usize, j as usize);
            if x[i] == x[j] || !p.swap_fits(i, j, x) {
                return None;
            }
            let mut next = x.clone();
            next.swap(i, j);
            Probe { core_of: next, masks: None }
        }
        Step::Toggle(i, c) => {
            let i = i as usize;
            let masks = at.masks.as_ref()?;
            let step = if masks[i].contains(c) { Step::Remove(i as u32, c) } else { Step::Add(i as u32, c) };
            return apply(judge, rules, at, step);
        }
        Step::Add(i, c) => {
            let i = i as usize;
            let masks = at.masks.as_ref()?;
            if masks[i].contains(c) || !p.allows(i, usize::from(c)) {
                return None;
            }
            let mut next = masks.clone();
            next[i].insert(c);
            Probe { core_of: x.clone(), masks: Some(next) }
        }
        Step::Remove(i, c) => {
            let i = i as usize;
            let masks = at.masks.as_ref()?;
            if !masks[i].contains(c) || masks[i].len() < 2 {
                return None;
            }
            let mut next = masks.clone();
            next[i].remove(c);
            let mut home = x.clone();
            if home[i] == c {
                home[i] = next[i].first().expect("one core left");
            }
            Probe { core_of: home, masks: Some(next) }
        }
        Step::Widen(i) => {
            let i = i as usize;
            let masks = at.masks.as_ref()?;
            let k = judge.input.platform.cores;
            let allowed: CoreSet = (0..k).filter(|&c| p.allows(i, usize::from(c))).collect();
            // One more core is an `Add`.
            if allowed.len() <= masks[i].len() + 1 {
                return None;
            }
            let mut next = masks.clone();
            next[i] = allowed;
            Probe { core_of: x.clone(), masks: Some(next) }
        }
        Step::Narrow(i) => {
            let i = i as usize;
            let masks = at.masks.as_ref()?;
            // One core fewer is a `Remove`.
            if masks[i].len() <= 2 || !masks[i].contains(x[i]) {
                return None;
            }
            let mut next = masks.clone();
            next[i] = CoreSet::one(x[i]);
            Probe { core_of: x.clone(), masks: Some(next) }
        }
    };
    rules.within_limits(judge, &probe.core_of).then(|| judge.canonical(probe))
}

/// How many distinct placements the steps lead to from `at` (the size of
/// its neighbourhood).
pub(super) fn size(judge: &Judge<'_>, rules: &Rules, at: &Point, steps: &[Step]) -> u64 {
    let own = at.probe();
    let mut seen = rustc_hash::FxHashSet::default();
    steps.iter().filter_map(|&s| apply(judge, rules, at, s)).filter(|p| *p != own && seen.insert(p.clone())).count()
        as u64
}

/// `at` with every task that may float and never waited bound to its home
/// core (floating costs a global scheduling decision per dispatch and
/// migrations; a task that never waits gains nothing from it); `None` when
/// there is none.
pub(super) fn pin_idle(rules: &Rules, at: &Point) -> Option<Probe> {
    let masks = at.masks.as_ref()?;
    let mut next = masks.clone();
    let mut any = false;
    for (i, m) in next.iter_mut().enumerate() {
        if rules.floats[i] && m.len() > 1 && at.waits[i] == 0 && m.contains(at.core_of[i]) {
            *m = CoreSet::one(at.core_of[i]);
            any = true;
        }
    }
    any.then(|| Probe { core_of: at.core_of.clone(), masks: Some(next) })
}

/// Each task that may float over its home core and the cores nearest it
/// (at the platform's smallest distance), within the cores it may use;
/// `None` on a platform whose cores are all equally near (that is global
/// SMP).
pub(super) fn local_masks(judge: &Judge<'_>, rules: &Rules, core_of: &[CoreId]) -> Option<Vec<CoreSet>> {
    let platform = judge.input.platform;
    if platform.is_uniform() {
        return None;
    }
    let k = usize::from(platform.cores);
    let nearest = (0..k)
        .flat_map(|a| (0..k).filter(move |&b| b != a).map(move |b| (a, b)))
        .map(|(a, b)| platform.distance(a, b))
        .min()?;
    let masks = (0..judge.merged.len())
        .map(|i| {
            let home = usize::from(core_of[i]);
            if !rules.floats[i] {
                return CoreSet::one(core_of[i]);
            }
            (0..k)
                .filter(|&c| (c == home || platform.distance(home, c) == nearest) && judge.merged.allows(i, c))
                .map(|c| c as CoreId)
                .collect()
        })
        .collect();
    Some(masks)
}

/// The masks of global SMP within the constraints over the merged tasks:
/// each task that may float on every core it may use, the others on
/// their core in `core_of`.
pub(super) fn smp_masks(judge: &Judge<'_>, rules: &Rules, core_of: &[CoreId]) -> Vec<CoreSet> {
    let k = judge.input.platform.cores;
    (0..judge.merged.len())
        .map(|i| {
            if rules.floats[i] {
                (0..k).filter(|&c| judge.merged.allows(i, usize::from(c))).collect()
            } else {
                CoreSet::one(core_of[i])
            }
        })
        .collect()
}
