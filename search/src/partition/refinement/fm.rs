//! Boundary refinement in the style of Fiduccia–Mattheyses, k-way and
//! topology-aware.
//!
//! A pass moves boundary tasks one at a time, best gain first (gain = fall
//! in topology-weighted cross traffic), each task at most once, accepting
//! moves that make things worse for a while so that the pass can climb out
//! of a local minimum; at the end it rolls back to the best point it saw.
//! Passes repeat while they improve. A move must keep the destination core
//! within its load limit, keep the task on a core it may use, and not join
//! a task it must avoid; pinned tasks never move.
//!
//! Gains are kept in a max-heap with lazy invalidation: a task's entry is
//! recomputed when popped and pushed again if it changed. Each task keeps
//! its traffic to every core, so a gain costs O(cores it talks to²) and a
//! move O(degree). Ties break on the task and core index, so the result is
//! deterministic.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use corera_placement::{CoreId, Platform, Problem};

/// Moves without improvement after which a pass stops.
const PATIENCE: usize = 200;
/// Largest number of passes.
const PASSES: usize = 12;

struct State<'a> {
    problem: &'a Problem,
    platform: &'a Platform,
    k: usize,
    limits: &'a [u64],
    core_of: &'a mut [CoreId],
    load: Vec<u64>,
    /// `conn[i * k + c]`: traffic between task i and the tasks on core c.
    conn: Vec<u64>,
}

impl State<'_> {
    /// The best move of task `i`: (gain, destination), if any is allowed.
    fn best_move(&self, i: usize) -> Option<(i64, usize)> {
        let p = self.problem;
        if p.pinned[i].is_some() {
            return None;
        }
        let from = self.core_of[i] as usize;
        let conn = &self.conn[i * self.k..(i + 1) * self.k];
        let talks: Vec<usize> = (0..self.k).filter(|&c| conn[c] > 0).collect();
        if talks.iter().all(|&c| c == from) {
            return None;
        }
        let w = p.load[i];
        let mut best: Option<(i64, usize)> = None;
        for &to in talks.iter().filter(|&&c| c != from) {
            if self.load[to] + w > self.limits[to] || !p.fits(i, to, self.core_of) {
                continue;
            }
            let gain: i64 = talks
                .iter()
                .map(|&d| {
                    conn[d] as i64 * (self.platform.distance(from, d) as i64 - self.platform.distance(to, d) as i64)
                })
                .sum();
            if best.is_none_or(|(g, t)| gain > g || (gain == g && to < t)) {
                best = Some((gain, to));
            }
        }
        best
    }

    fn apply(&mut self, i: usize, to: usize) {
        let from = self.core_of[i] as usize;
        self.load[from] -= self.problem.load[i];
        self.load[to] += self.problem.load[i];
        self.core_of[i] = to as CoreId;
        for &(j, w) in &self.problem.adjacency[i] {
            let j = j as usize;
            self.conn[j * self.k + from] -= w;
            self.conn[j * self.k + to] += w;
        }
    }

    /// One pass; returns the improvement kept.
    fn pass(&mut self) -> i64 {
        let n = self.problem.len();
        let mut heap = BinaryHeap::new();
        for i in 0..n {
            if let Some((g, to)) = self.best_move(i) {
                heap.push((g, Reverse(i), Reverse(to)));
            }
        }
        let mut locked = vec![false; n];
        let mut log: Vec<(usize, usize)> = Vec::new();
        let (mut total, mut best, mut best_len) = (0i64, 0i64, 0usize);
        while let Some((g, Reverse(i), Reverse(to))) = heap.pop() {
            if locked[i] {
                continue;
            }
            match self.best_move(i) {
                Some((g2, to2)) if (g2, to2) == (g, to) => {}
                Some((g2, to2)) => {
                    heap.push((g2, Reverse(i), Reverse(to2)));
                    continue;
                }
                None => continue,
            }
            let from = self.core_of[i] as usize;
            self.apply(i, to);
            locked[i] = true;
            log.push((i, from));
            total += g;
            if total > best {
                best = total;
                best_len = log.len();
            }
            if log.len() - best_len > PATIENCE {
                break;
            }
            for &(j, _) in &self.problem.adjacency[i] {
                let j = j as usize;
                if !locked[j]
                    && let Some((gj, tj)) = self.best_move(j)
                {
                    heap.push((gj, Reverse(j), Reverse(tj)));
                }
            }
        }
        for &(i, from) in log[best_len..].iter().rev() {
            self.apply(i, from);
        }
        best
    }
}

/// Refines `core_of` in place; returns the fall in cross traffic.
pub(crate) fn refine(problem: &Problem, platform: &Platform, core_of: &mut [CoreId], limits: &[u64]) -> u64 {
    let n = problem.len();
    let k = platform.cores as usize;
    if k < 2 || n < 2 {
        return 0;
    }
    let mut load = vec![0u64; k];
    let mut conn = vec![0u64; n * k];
    for i in 0..n {
        load[core_of[i] as usize] += problem.load[i];
        for &(j, w) in &problem.adjacency[i] {
            conn[i * k + core_of[j as usize] as usize] += w;
        }
    }
    let mut state = State { problem, platform, k, limits, core_of, load, conn };
    let mut gained = 0;
    for _ in 0..PASSES {
        let g = state.pass();
        if g <= 0 {
            break;
        }
        gained += g as u64;
    }
    gained
}
