//! The break-even: the cost at which the recommendation and its rival swap
//! places on the objective.

use corera_replay::{KEEPS_UP, Outcome};
use rayon::prelude::*;

use crate::{Candidate, Score, TimingInput, span};

/// Where the recommendation and its rival swap places on the objective as
/// one cost changes.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakEven {
    /// The cost varied (a `[costs]` key).
    pub key: &'static str,
    /// Its value in the platform's costs.
    pub current: f64,
    /// What the recommendation is compared with (`global SMP`, or the best
    /// AMP placement when the recommendation is SMP-like).
    pub rival: String,
    /// The value at which they swap, if one was found in the range tried.
    pub at: Option<f64>,
    /// Whether the recommendation is the better one below `at` (else
    /// above).
    pub better_below: bool,
    /// The range tried, ns.
    pub range: (f64, f64),
    /// Whether both still keep up with the recorded input at `at` (when
    /// not, the swap happens only in an overloaded system and says little).
    pub keeps_up_at: bool,
    /// The statement, for people.
    pub statement: String,
}

/// The cost `key` (migration by default: what separates global from
/// partitioned scheduling) at which `recommended` and `rival` (named
/// `rival_label` in the statement) swap places on the objective, replaying
/// the whole trace: a grid from 0 to 2 ms, then bisection to 1 % of the
/// bracket.
pub fn break_even(
    input: &TimingInput<'_>,
    recommended: &Candidate,
    (rival, rival_label): (&Candidate, &str),
    key: &'static str,
) -> BreakEven {
    let current = input.platform.costs.get(key).unwrap_or(0.0);
    let replay = |c: &Candidate, value: f64| -> Outcome {
        let mut platform = input.platform.clone();
        platform.costs.set(key, value).expect("a known key");
        input.replay_on(&platform, &c.core_of, c.masks.as_deref(), false)
    };
    let run = |c: &Candidate, value: f64| -> Score { Score::of(input.objective, &replay(c, value), c.traffic) };
    // Positive: the recommendation is better.
    let margin = |value: f64| -> f64 {
        let (a, b) = rayon::join(|| run(recommended, value), || run(rival, value));
        if a.beats(&b) {
            1.0
        } else if b.beats(&a) {
            -1.0
        } else {
            0.0
        }
    };
    let grid: Vec<f64> = std::iter::once(0.0).chain((0..14).map(|j| 250.0 * f64::from(1u32 << j))).collect();
    let range = (grid[0], *grid.last().expect("a grid"));
    let here = margin(current);
    let signs: Vec<f64> = grid.par_iter().map(|&v| margin(v)).collect();
    // The interval around the current value where the order stays: walk
    // up and down the grid to the first value where it changes, then
    // bisect to 1 % (or 10 ns).
    let bisect = |mut inside: f64, mut outside: f64| -> f64 {
        while (outside - inside).abs() > (outside.abs().max(inside.abs()) * 0.01).max(10.0) {
            let mid = (inside + outside) / 2.0;
            if margin(mid) == here { inside = mid } else { outside = mid }
        }
        ((inside + outside) / 2.0).round()
    };
    let above = grid.iter().zip(&signs).filter(|(v, _)| **v > current).find(|(_, s)| **s != here);
    let below = grid.iter().zip(&signs).filter(|(v, _)| **v < current).rev().find(|(_, s)| **s != here);
    let up = above.map(|(&v, _)| {
        let inside = grid.iter().copied().rfind(|&g| g > current && g < v).unwrap_or(current);
        bisect(inside, v)
    });
    let down = below.map(|(&v, _)| {
        let inside = grid.iter().copied().find(|&g| g < current && g > v).unwrap_or(current);
        bisect(inside, v)
    });
    let ahead = here > 0.0;
    // The nearer change is the one reported.
    let (at, better_below) = match (up, down) {
        (Some(u), Some(d)) if (d - current).abs() < (u - current).abs() => (Some(d), !ahead),
        (Some(u), _) => (Some(u), ahead),
        (None, Some(d)) => (Some(d), !ahead),
        (None, None) => (None, ahead),
    };
    let what = match key {
        "migration_ns" => "a migration costs",
        "schedule_ns" => "a global scheduling decision costs",
        "message_latency_ns" => "a cross-core signal takes",
        "message_cpu_ns" => "a cross-core interrupt costs the receiver",
        _ => "the cost is",
    };
    let keeps_up_at = at.is_none_or(|at| {
        let (a, b) = rayon::join(|| replay(recommended, at), || replay(rival, at));
        a.sustained_rate >= KEEPS_UP && b.sustained_rate >= KEEPS_UP
    });
    let us = span;
    let objective = input.objective.name().to_uppercase();
    let (first, second) = if ahead { ("the recommendation", rival_label) } else { (rival_label, "the recommendation") };
    let statement = match at {
        Some(at) => {
            let (overtaken, direction) = if at > current { (first, "more") } else { (first, "less") };
            let other = if overtaken == "the recommendation" { rival_label } else { "the recommendation" };
            let overloaded = if keeps_up_at { "" } else { "; by then the cores no longer keep up with the input" };
            format!(
                "{other} overtakes {overtaken} on {objective} when {what} {direction} than {} (now {}){overloaded}",
                us(at),
                us(current)
            )
        }
        None if here == 0.0 => format!("{first} and {second} tie on {objective} at the current {key}"),
        None => {
            format!(
                "{first} stays ahead of {second} on {objective} for every {key} from {} to {}",
                us(range.0),
                us(range.1)
            )
        }
    };
    BreakEven { key, current, rival: rival_label.to_string(), at, better_below, range, keeps_up_at, statement }
}
