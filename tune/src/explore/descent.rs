//! Local search that scans whole neighbourhoods, as first-improvement
//! searches do: the steps from a point (single-task moves, or mask
//! changes) are taken in a fixed order (for moves and swaps, the
//! surrogate's most promising at the starting point first; for masks, the
//! tasks that waited longest in its replay first; or plainly task by task),
//! and scanned
//! cyclically: the next
//! neighbours are replayed a batch at a time, the best of a batch that
//! improves is taken, and the scan goes on from there. A full descent of a
//! AMP placement turns to the swaps once a whole round of moves has
//! found nothing, and back to the moves after a swap that improves. It ends
//! when every step has been replayed at the point reached without an
//! improvement (a local optimum, certified), or when the budget runs out
//! (how far the check got is kept).
//!
//! Going on from the last improvement rather than rescanning from the top
//! matters: the first neighbours in any order tend to stay bad after a
//! move elsewhere, and rescanning replays them again (on the 135-task
//! Android trace a descent spent 60 replays per improving step that way).

use rustc_hash::FxHashSet;

use super::judge::{Judge, Probe};
use super::neighbourhood::{self, Rules, Step};
use super::{BATCH, PLAIN_BATCH, Point};

/// How the last scan of a descent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scan {
    /// Neighbours replayed (or known) at the point without an improvement.
    pub(super) checked: u64,
    /// The neighbourhood's size.
    pub(super) neighbours: u64,
}

impl Scan {
    /// Whether the whole neighbourhood was checked.
    pub(super) fn complete(&self) -> bool {
        self.checked == self.neighbours
    }
}

/// How a cyclic scan of one list of steps ended.
enum Round {
    /// Every step was replayed at the point reached, none better.
    Done,
    /// A step improved (the scan stops at the first one when asked to).
    Improved,
    /// The budget ran out.
    Spent,
}

/// A descent in progress.
struct Descent<'j, 'a> {
    judge: &'j mut Judge<'a>,
    rules: &'j Rules,
    at: Point,
    stop: u64,
    /// Placements replayed at `at` (cleared when it changes).
    here: FxHashSet<Probe>,
    /// Take the first improvement of a batch (in scan order) rather than
    /// its best.
    plain: bool,
}

impl Descent<'_, '_> {
    /// Scans `steps` cyclically from `*pos`: until a whole round passes at
    /// the point reached without an improvement, or (`first`) until the
    /// first improvement.
    fn round(&mut self, steps: &[Step], pos: &mut usize, first: bool) -> Round {
        let len = steps.len();
        let mut since = 0;
        while since < len {
            let own = self.at.probe();
            let mut batch = Vec::with_capacity(BATCH);
            // Where the scan goes on after each probe of the batch.
            let mut after = Vec::with_capacity(BATCH);
            let size = if self.plain { PLAIN_BATCH } else { BATCH };
            while batch.len() < size && since < len {
                let step = steps[*pos];
                *pos = (*pos + 1) % len;
                since += 1;
                if let Some(p) = neighbourhood::apply(self.judge, self.rules, &self.at, step)
                    && p != own
                    && !self.here.contains(&p)
                {
                    self.here.insert(p.clone());
                    batch.push(p);
                    after.push(*pos);
                }
            }
            if batch.is_empty() {
                break;
            }
            // A batch whose answers are all known costs nothing.
            let known = batch.iter().all(|p| self.judge.known(p).is_some());
            if !known && !self.judge.can_afford(self.stop) {
                for p in &batch {
                    self.here.remove(p);
                }
                return Round::Spent;
            }
            let answers = self.judge.judge(&batch, self.stop);
            let mut better: Option<Point> = None;
            let mut short = false;
            for (b, (probe, answer)) in batch.iter().zip(answers).enumerate() {
                let Some(j) = answer else {
                    self.here.remove(probe);
                    short = true;
                    continue;
                };
                if better.is_some() && self.plain {
                    continue;
                }
                if j.score.beats(&self.at.score) && better.as_ref().is_none_or(|b| j.score.beats(&b.score)) {
                    if self.plain {
                        // The first improvement, as a plain search takes it:
                        // the scan goes on right after it.
                        *pos = after[b];
                    }
                    better = Some(Point {
                        origin: self.at.origin,
                        steps: self.at.steps + 1,
                        kicks: self.at.kicks,
                        core_of: probe.core_of.clone(),
                        masks: probe.masks.clone(),
                        score: j.score,
                        waits: j.waits,
                    });
                }
            }
            if let Some(b) = better {
                self.judge.tell(&b.score);
                self.at = b;
                self.here.clear();
                if first || self.at.score.is_zero() {
                    return Round::Improved;
                }
                since = 0;
                continue;
            }
            if short {
                return Round::Spent;
            }
        }
        Round::Done
    }
}

/// Descends from `start` until every step finds nothing better, or until
/// `stop` replays in all or the budget is reached; `full`: through the
/// whole neighbourhood (swaps too), else an AMP placement's single moves
/// only (a cheap descent); `plain`: the steps in task order and the first
/// improvement taken, as a plain first-improvement search takes them (the
/// search alternates the orders: different orders end in different local
/// optima; from the traffic optimum the plain descent follows the path of
/// the baseline in `tests/support/baseline.rs`, so corera is never worse
/// than it when the budget lets that descent finish).
pub(super) fn descend(
    judge: &mut Judge<'_>,
    rules: &Rules,
    start: Point,
    full: bool,
    stop: u64,
    plain: bool,
) -> (Point, Scan) {
    let mut order: Vec<usize> = (0..start.waits.len()).collect();
    if !plain {
        order.sort_by_key(|&i| (std::cmp::Reverse(start.waits[i]), i));
    }
    let (first, second): (Vec<Step>, Vec<Step>) = if start.masks.is_some() {
        (neighbourhood::mask_steps(judge, rules, &order, plain), Vec::new())
    } else {
        let (moves, swaps) = neighbourhood::amp_steps(judge, rules, &start, &order, plain);
        (moves, if full { swaps } else { Vec::new() })
    };
    let mut d = Descent { judge, rules, at: start, stop, here: FxHashSet::default(), plain };
    let (mut p1, mut p2) = (0, 0);
    let done = loop {
        if d.at.score.is_zero() {
            // Nothing beats an objective of 0 (the certificate says so).
            return (d.at, Scan { checked: 0, neighbours: 0 });
        }
        match d.round(&first, &mut p1, false) {
            Round::Spent => break false,
            Round::Improved => continue,
            Round::Done => {}
        }
        if second.is_empty() {
            break true;
        }
        match d.round(&second, &mut p2, true) {
            Round::Spent => break false,
            Round::Improved => continue,
            Round::Done => break true,
        }
    };
    let all: Vec<Step> = first.into_iter().chain(second).collect();
    let neighbours = neighbourhood::size(d.judge, d.rules, &d.at, &all);
    let checked = if done { neighbours } else { (d.here.len() as u64).min(neighbours) };
    (d.at, Scan { checked, neighbours })
}
