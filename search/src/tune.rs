//! The replay in the loop: placements judged by what the user judges them
//! by (READY, response times, deadlines), not by the traffic proxy.
//!
//! 1. Starting points, within the load limits and constraints: the
//!    traffic optimum, a priority-spreading start, eight optima of the
//!    surrogate ([`crate::timing`]) annealed from those two with different
//!    seeds, and two points between traffic and timing (the surrogate with
//!    traffic priced at what a cross-core signal costs the receiver, and
//!    at ten times that).
//! 2. Each is replayed, and the best three are refined by local search
//!    whose moves (a task to another core, two tasks swapped; for masks a
//!    core added to a task's mask or taken away) are drawn from the replay
//!    itself (the tasks that waited longest first), eight at a time, each
//!    judged by a replay; the best that improves is taken. A refinement
//!    stops after four batches without improvement, or when its share of
//!    the budget runs out.
//! 3. Affinity masks (unless `--masks` is off) start from the best strict
//!    placement and from global SMP within the constraints, and are
//!    refined the same way.
//! 4. The best six of each kind are confirmed on the whole trace (moves are
//!    judged on a representative window of a long trace), polished there
//!    for two batches, and the best is the answer.
//!
//! Replays of one batch run in parallel (rayon); batches are fixed in
//! size and chosen in a fixed order, so the answer is the same for a seed
//! on any number of threads. The budget counts every replay, window or
//! whole.

use corera_placement::{CoreId, CoreSet, Goal, Placement, Platform, Problem};
use corera_replay::{KEEPS_UP, Outcome, Policy, Replay, Setup, Window, simulate};
use rayon::prelude::*;

use crate::timing::{self, Surrogate};
use crate::{SearchError, Solution};

/// Replays per batch of moves: fixed, so that results do not depend on the
/// thread count (8 keeps two cores busy and wastes little at the end).
const BATCH: usize = 8;

/// Batches without improvement before a refinement stops.
const PATIENCE: usize = 4;

/// Batches of the final polish, judged on the whole trace.
const POLISH: usize = 2;

/// Candidates of each kind confirmed on the whole trace.
const CONFIRM: usize = 6;

/// Surrogate optima among the starting points (different seeds, from the
/// traffic optimum and from the priority spread in turn).
const SURROGATE_STARTS: u64 = 8;

/// Starting points refined by the replay-judged local search.
const REFINED_STARTS: usize = 3;

/// Default `--replay-budget`: replays the search may run in all. The
/// printer sample's whole analysis (342 replays, most on its window) takes
/// 2.1 s in a release build, rp2-cluster's 7.8 s (`cargo bench --bench
/// analyze`).
pub const DEFAULT_REPLAY_BUDGET: u64 = 400;

/// Events above which moves are judged on a representative window.
pub const WINDOW_EVENTS: usize = 60_000;

/// What the timing search works on, besides the placement problem.
#[derive(Clone, Debug)]
pub struct TimingInput<'a> {
    /// The placement problem (its load limits and constraints hold).
    pub problem: &'a Problem,
    /// The platform, with the costs the replay charges.
    pub platform: &'a Platform,
    /// What placements are judged by.
    pub goal: Goal,
    /// The whole trace's workload.
    pub workload: &'a Replay,
    /// A representative window of it, for long traces.
    pub window: Option<(&'a Replay, Window)>,
    /// Per problem task, its index among the replay's tasks.
    pub replay_of: Vec<u32>,
    /// Per problem task, how long it waited while each other (problem)
    /// task ran: `(task, ns)`.
    pub waited: Vec<Vec<(u32, u64)>>,
    /// Per problem task, its urgency (larger runs first).
    pub urgency: Vec<i64>,
    /// Per problem task, whether it is an ISR (ISRs keep one core).
    pub isr: Vec<bool>,
    /// The traffic-optimal placement.
    pub traffic: &'a Solution,
}

impl<'a> TimingInput<'a> {
    /// The input for `problem` (tasks of the trace whose replayable
    /// workload is `workload`, task ids as in the trace): who waited for
    /// whom comes from replaying the workload on one core (which
    /// reproduces the recorded RUNNING, and works for traces that record
    /// no ready events), urgencies and ISRs from the workload.
    pub fn new(
        problem: &'a Problem,
        platform: &'a Platform,
        goal: Goal,
        workload: &'a Replay,
        window: Option<(&'a Replay, Window)>,
        traffic: &'a Solution,
    ) -> TimingInput<'a> {
        let replay_of: Vec<u32> = problem.task_ids.iter().map(|&id| workload.index_of[id as usize]).collect();
        let cores = vec![0u16; workload.tasks.len()];
        let single = simulate(
            workload,
            &Setup { policy: Policy::Single, platform, core_of: Some(&cores), masks: None, timeline: true },
        );
        let by_replay = single.waited_on();
        let mut problem_of = vec![u32::MAX; workload.tasks.len()];
        for (i, &r) in replay_of.iter().enumerate() {
            problem_of[r as usize] = i as u32;
        }
        let waited = replay_of
            .iter()
            .map(|&r| {
                by_replay[r as usize]
                    .iter()
                    .filter(|&&(j, _)| problem_of[j as usize] != u32::MAX)
                    .map(|&(j, ns)| (problem_of[j as usize], ns))
                    .collect()
            })
            .collect();
        let urgency = replay_of.iter().map(|&r| workload.tasks[r as usize].urgency).collect();
        let isr = replay_of.iter().map(|&r| workload.tasks[r as usize].isr).collect();
        TimingInput { problem, platform, goal, workload, window, replay_of, waited, urgency, isr, traffic }
    }

    /// A placement of the problem's tasks (and their masks) as the replay
    /// takes it: a core (and a mask) per replay task.
    pub fn replay_placement(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> (Vec<u16>, Option<Vec<CoreSet>>) {
        let n = self.workload.tasks.len();
        let mut cores = vec![0u16; n];
        let mut sets = masks.map(|_| vec![CoreSet::new(); n]);
        for (i, &r) in self.replay_of.iter().enumerate() {
            cores[r as usize] = core_of[i];
            if let (Some(sets), Some(m)) = (sets.as_mut(), masks) {
                sets[r as usize] = m[i].clone();
            }
        }
        (cores, sets)
    }

    /// The timing surrogate the search steers by, over the problem's tasks.
    pub fn surrogate(&self) -> Surrogate {
        Surrogate::new(self.problem.len(), &self.waited, alpha(self))
    }
}

/// What a progress callback is given: replays done, the budget, the best
/// value so far as text.
pub type TuneProgressFn = dyn Fn(u64, u64, &str) + Send + Sync;

/// A progress callback for the timing search.
#[derive(Clone)]
pub struct TuneProgress(pub std::sync::Arc<TuneProgressFn>);

impl std::fmt::Debug for TuneProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TuneProgress(..)")
    }
}

/// Options of the timing search.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TimingOptions {
    /// Replays the search may run in all (default [`DEFAULT_REPLAY_BUDGET`]).
    pub budget: u64,
    /// Seed of the surrogate annealing (default 0).
    pub seed: u64,
    /// Also search affinity masks (tasks floating over a set of cores).
    pub masks: bool,
    /// Called after each batch of replays.
    pub progress: Option<TuneProgress>,
}

impl Default for TimingOptions {
    fn default() -> TimingOptions {
        TimingOptions { budget: DEFAULT_REPLAY_BUDGET, seed: 0, masks: false, progress: None }
    }
}

/// A value of the objective, compared lexicographically (smaller is
/// better): first whether the run keeps up with the recorded input (a
/// run that falls behind leaves work undone, so its READY and response
/// times say nothing good about it), then READY and mean response for
/// `ready`, the reverse for `response`, misses then lateness for
/// `deadlines`, traffic then READY for `traffic`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// How far the run falls behind its input: 0 when it keeps up
    /// ([`KEEPS_UP`]), else the share of the input rate it does not
    /// sustain, in steps of 0.001.
    pub lag: f64,
    /// The objective itself (ns, or misses).
    pub primary: f64,
    /// The tie-breaker.
    pub secondary: f64,
}

impl Score {
    /// The score of `outcome` under `goal` (`traffic` is the placement's
    /// cross-core traffic).
    pub fn of(goal: Goal, outcome: &Outcome, traffic: u64) -> Score {
        let ready = outcome.ready_ns as f64;
        let response = outcome.response_mean_ns;
        let (primary, secondary) = match goal {
            Goal::Ready => (ready, response),
            Goal::Response => (response, ready),
            Goal::Deadlines => (
                outcome.tasks.iter().filter_map(|t| t.deadline_misses).sum::<u64>() as f64,
                outcome.tasks.iter().filter_map(|t| t.lateness_ns).sum::<u64>() as f64,
            ),
            Goal::Traffic => (traffic as f64, ready),
        };
        // In steps of 0.1 % of the input rate: two runs that fall behind by
        // less than that apart are behind alike (finer differences are the
        // replay's rounding), and the objective decides between them.
        let lag = if outcome.keeps_up() { 0.0 } else { ((1.0 - outcome.sustained_rate) * 1000.0).round() / 1000.0 };
        Score { lag, primary, secondary }
    }

    /// The order of scores, better first.
    pub fn order(&self, other: &Score) -> std::cmp::Ordering {
        self.lag
            .total_cmp(&other.lag)
            .then(self.primary.total_cmp(&other.primary))
            .then(self.secondary.total_cmp(&other.secondary))
    }

    /// Whether `self` is better than `other`.
    pub fn beats(&self, other: &Score) -> bool {
        self.order(other).is_lt()
    }

    /// Whether `self` is no worse than `other` on the objective (keeping
    /// up, then the primary measure; the tie-breaker aside).
    pub fn no_worse_than(&self, other: &Score) -> bool {
        self.lag.total_cmp(&other.lag).then(self.primary.total_cmp(&other.primary)).is_le()
    }
}

/// A placement the timing search replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// How it was found (`traffic optimum`, `surrogate`, `priority spread`,
    /// `refined`, `global SMP`, ...).
    pub label: String,
    /// Each task's core (for a mask placement: its home core, where it
    /// starts).
    pub core_of: Vec<CoreId>,
    /// For a mask placement: each task's cores.
    pub masks: Option<Vec<CoreSet>>,
    /// Its topology-weighted cross-core traffic (by home core).
    pub traffic: u64,
    /// Its surrogate value, ns.
    pub surrogate: f64,
    /// How it scored where it was judged (the window, for long traces).
    pub score: Score,
    /// Its replay of the whole trace (the confirmed candidates only).
    pub outcome: Option<Outcome>,
}

impl Candidate {
    /// Whether it gives some task more than one core.
    pub fn floats(&self) -> bool {
        self.masks.as_ref().is_some_and(|m| m.iter().any(|s| s.len() > 1))
    }
}

/// One evaluated placement, for the report's front.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrontPoint {
    /// Topology-weighted cross-core traffic.
    pub traffic: u64,
    /// Its objective where it was judged.
    pub score: Score,
    /// Whether it was a mask placement.
    pub masks: bool,
}

/// What the timing search found.
#[derive(Clone, Debug)]
pub struct TimingSolution {
    /// The best strict (one core per task) placement, replayed whole.
    pub strict: Candidate,
    /// The best mask placement (global SMP is one of its candidates),
    /// replayed whole, when masks were searched.
    pub masks: Option<Candidate>,
    /// The traffic optimum, replayed whole.
    pub traffic: Candidate,
    /// Global SMP, replayed whole.
    pub smp: Candidate,
    /// Every placement evaluated (window scores).
    pub front: Vec<FrontPoint>,
    /// The window moves were judged on, if the trace was long.
    pub window: Option<Window>,
    /// Replays run.
    pub evaluations: u64,
    /// The budget they had.
    pub budget: u64,
    /// Spearman's rank correlation between the surrogate and the replayed
    /// objective over the strict placements evaluated (1: same order).
    pub surrogate_rank: Option<f64>,
}

/// The set-up a timing search recommends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// One core per task (AMP).
    Strict,
    /// Some tasks float over a set of cores.
    Masks,
    /// Every task that may float floats over every core it may use: global
    /// SMP (within the constraints).
    Smp,
}

impl Choice {
    /// Every set-up, simplest first.
    pub const ALL: [Choice; 3] = [Choice::Strict, Choice::Smp, Choice::Masks];

    /// How records name it.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Strict => "strict",
            Choice::Masks => "masks",
            Choice::Smp => "smp",
        }
    }

    /// What it means, for people.
    pub fn help(self) -> &'static str {
        match self {
            Choice::Strict => "one core per task (AMP)",
            Choice::Masks => "affinity masks (some tasks float over several cores)",
            Choice::Smp => "global SMP (every task on every core it may use)",
        }
    }

    /// The set-up a record names.
    pub fn from_name(name: &str) -> Option<Choice> {
        Choice::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Relative difference within which two scores count as equal when the
/// recommendation is chosen: the simpler set-up (one core per task, then
/// global SMP, then masks) wins unless a more complex one is better by
/// more than this. The costs behind the replay are estimates; a 1 %
/// difference is not worth a more complex set-up.
pub const CLOSE: f64 = 0.01;

impl Score {
    /// Whether `self` keeps up as well as `other` and is within [`CLOSE`]
    /// of it (or better) on both measures.
    pub fn close_to(&self, other: &Score) -> bool {
        let within = |a: f64, b: f64| a <= b + b.abs() * CLOSE;
        self.lag <= other.lag && within(self.primary, other.primary) && within(self.secondary, other.secondary)
    }
}

impl TimingSolution {
    /// The recommended placement, its set-up, and why, in a sentence: the
    /// best of the best strict placement, global SMP and the best mask
    /// placement, except that a simpler set-up within [`CLOSE`] of the
    /// best is preferred (one core per task only when it is also no worse
    /// than global SMP on the objective).
    pub fn recommendation(&self, goal: Goal) -> (&Candidate, Choice, String) {
        let value = |c: &Candidate| describe(goal, &c.score);
        let Some(m) = self.masks.as_ref().filter(|m| m.floats()) else {
            let why = if self.masks.is_some() {
                format!(
                    "the best strict placement ({}) replays at least as well as every mask placement tried, global \
                     SMP ({}) among them",
                    value(&self.strict),
                    value(&self.smp)
                )
            } else {
                format!(
                    "the best strict placement ({}; global SMP: {}); masks were not searched (--masks)",
                    value(&self.strict),
                    value(&self.smp)
                )
            };
            return (&self.strict, Choice::Strict, why);
        };
        let (strict, smp) = (&self.strict.score, &self.smp.score);
        let best = [strict, smp, &m.score].into_iter().fold(strict, |a, b| if b.beats(a) { b } else { a });
        let how = |a: &Score, b: &Score| if a.beats(b) { "better than" } else { "within 1 % of" };
        if strict.close_to(best) && strict.no_worse_than(smp) {
            let why = if best == strict {
                format!(
                    "the best strict placement ({}) replays at least as well as every mask placement tried ({}), global \
                     SMP ({}) among them",
                    value(&self.strict),
                    value(m),
                    value(&self.smp)
                )
            } else {
                format!(
                    "the best strict placement ({}) replays within 1 % of the best mask placement ({}) and no worse \
                     than global SMP ({}): one core per task is the simpler set-up",
                    value(&self.strict),
                    value(m),
                    value(&self.smp)
                )
            };
            (&self.strict, Choice::Strict, why)
        } else if smp.close_to(best) {
            let why = format!(
                "global SMP ({}) replays {} the best mask placement ({}) and better than the best strict placement \
                 ({}): no affinity to set",
                value(&self.smp),
                how(smp, &m.score),
                value(m),
                value(&self.strict)
            );
            (&self.smp, Choice::Smp, why)
        } else {
            // Equal on the objective, better on the secondary measure: show both.
            let tie = [strict, smp].iter().any(|r| r.lag == m.score.lag && r.primary == m.score.primary);
            let value = |c: &Candidate| {
                if tie { format!("{}, {}", value(c), describe_secondary(goal, &c.score)) } else { value(c) }
            };
            let why = format!(
                "affinity masks replay better ({}) than the best strict placement ({}) and global SMP ({})",
                value(m),
                value(&self.strict),
                value(&self.smp)
            );
            (m, Choice::Masks, why)
        }
    }
}

/// A score for people: `READY 0.412 s`, `mean response 120.4 µs`,
/// `3 deadline misses, 1.250 ms late`; a run that falls behind its input
/// says so.
pub fn describe(goal: Goal, score: &Score) -> String {
    let value = match goal {
        Goal::Ready => format!("READY {}", span(score.primary)),
        Goal::Response => format!("mean response {}", span(score.primary)),
        Goal::Deadlines => format!("{} deadline misses, {} late", score.primary, span(score.secondary)),
        Goal::Traffic => format!("traffic {}", score.primary),
    };
    if score.lag > 0.0 {
        format!("{value}, falling behind at {:.1} % of the input rate", (1.0 - score.lag) * 100.0)
    } else {
        value
    }
}

/// Where the recommendation and its rival swap places on the objective as
/// one cost changes.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakEven {
    /// The cost varied (a `[costs]` key).
    pub key: &'static str,
    /// Its value in the platform's costs.
    pub current: f64,
    /// What the recommendation is compared with (`global SMP`, or the best
    /// strict placement when the recommendation is SMP-like).
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

/// The secondary measure of a score for people (what decides between
/// placements equal on the objective): `mean response 120.4 µs`.
pub fn describe_secondary(goal: Goal, score: &Score) -> String {
    match goal {
        Goal::Ready => format!("mean response {}", span(score.secondary)),
        Goal::Response | Goal::Traffic => format!("READY {}", span(score.secondary)),
        Goal::Deadlines => format!("{} late", span(score.secondary)),
    }
}

/// A span of time for people, in seconds, milliseconds or microseconds,
/// to four significant figures: `1.779 s`, `785.2 ms`, `52.61 µs`.
pub fn span(ns: f64) -> String {
    let (v, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e3, "µs")
    };
    if v == 0.0 {
        return "0 s".to_string();
    }
    let decimals = (3 - v.abs().log10().floor() as i32).clamp(0, 3) as usize;
    format!("{v:.decimals$} {unit}")
}

/// The cost `key` (migration by default: what separates global from
/// partitioned scheduling) at which `recommended` and `rival` swap places
/// on the objective, replaying the whole trace: a grid from 0 to 2 ms,
/// then bisection to 1 % of the bracket.
pub fn break_even(input: &TimingInput<'_>, recommended: &Candidate, rival: &Candidate, key: &'static str) -> BreakEven {
    let current = input.platform.costs.get(key).unwrap_or(0.0);
    let replay = |c: &Candidate, value: f64| -> Outcome {
        let mut platform = input.platform.clone();
        platform.costs.set(key, value).expect("a known key");
        let (cores, sets) = input.replay_placement(&c.core_of, c.masks.as_deref());
        let policy = if c.masks.is_some() { Policy::Masks } else { Policy::Amp };
        let setup =
            Setup { policy, platform: &platform, core_of: Some(&cores), masks: sets.as_deref(), timeline: false };
        simulate(input.workload, &setup)
    };
    let run = |c: &Candidate, value: f64| -> Score { Score::of(input.goal, &replay(c, value), c.traffic) };
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
    let goal = input.goal.name().to_uppercase();
    let (first, second) =
        if ahead { ("the recommendation", rival.label.as_str()) } else { (rival.label.as_str(), "the recommendation") };
    let statement = match at {
        Some(at) => {
            let (overtaken, direction) = if at > current { (first, "more") } else { (first, "less") };
            let other = if overtaken == "the recommendation" { rival.label.as_str() } else { "the recommendation" };
            let overloaded = if keeps_up_at { "" } else { "; by then the cores no longer keep up with the input" };
            format!(
                "{other} overtakes {overtaken} on {goal} when {what} {direction} than {} (now {}){overloaded}",
                us(at),
                us(current)
            )
        }
        None if here == 0.0 => format!("{first} and {second} tie on {goal} at the current {key}"),
        None => {
            format!("{first} stays ahead of {second} on {goal} for every {key} from {} to {}", us(range.0), us(range.1))
        }
    };
    BreakEven { key, current, rival: rival.label.clone(), at, better_below, range, keeps_up_at, statement }
}

/// Searches the placement that replays best under `input.goal`, within
/// `options.budget` replays.
///
/// # Errors
/// [`SearchError::Unsupported`] for the `traffic` goal (the portfolio
/// answers that); [`SearchError::Empty`] for a problem without tasks.
pub fn tune(input: &TimingInput<'_>, options: &TimingOptions) -> Result<TimingSolution, SearchError> {
    if !input.goal.is_timing() {
        return Err(SearchError::Unsupported("the traffic objective needs no replay: use the portfolio".into()));
    }
    if input.problem.is_empty() {
        return Err(SearchError::Empty);
    }
    Ok(Tuner::new(input, options).run())
}

/// A placement the search replayed: merged tasks' cores (and masks), its
/// score, and how long each merged task waited ready in that replay.
#[derive(Clone, Debug)]
struct Point {
    label: String,
    core_of: Vec<CoreId>,
    masks: Option<Vec<CoreSet>>,
    score: Score,
    waits: Vec<u64>,
}

impl Point {
    fn key(&self) -> (Vec<CoreId>, Option<Vec<CoreSet>>) {
        (self.core_of.clone(), self.masks.clone())
    }
}

/// The best of `points` (the first among equals).
fn best_of(points: &[Point]) -> Option<&Point> {
    points.iter().fold(None, |acc: Option<&Point>, p| match acc {
        Some(a) if !p.score.beats(&a.score) => Some(a),
        _ => Some(p),
    })
}

/// The search's state: the merged problem (groups kept together as one
/// task), the surrogate, the budget.
struct Tuner<'a> {
    input: &'a TimingInput<'a>,
    options: &'a TimingOptions,
    /// Groups kept together merged; `slot[i]`: task `i`'s merged task.
    merged: Problem,
    slot: Vec<u32>,
    surrogate: Surrogate,
    /// Per merged task: must keep one core (ISRs, groups, pinned, apart).
    fixed: Vec<bool>,
    /// Per merged task: its urgency (the most urgent member's).
    urgency: Vec<i64>,
    /// The overload of the traffic optimum: no candidate may exceed it.
    limits_over: u64,
    used: std::sync::atomic::AtomicU64,
    front: std::sync::Mutex<Vec<FrontPoint>>,
    ranked: std::sync::Mutex<Vec<(f64, f64)>>,
}

impl<'a> Tuner<'a> {
    fn new(input: &'a TimingInput<'a>, options: &'a TimingOptions) -> Tuner<'a> {
        let problem = input.problem;
        let (merged, slot) =
            problem.contract().unwrap_or_else(|| (problem.clone(), (0..problem.len() as u32).collect()));
        let surrogate = input.surrogate().merged(&slot);
        let m = merged.len();
        let mut size = vec![0usize; m];
        let mut fixed = vec![false; m];
        let mut urgency = vec![i64::MIN; m];
        for (i, &s) in slot.iter().enumerate() {
            let s = s as usize;
            size[s] += 1;
            fixed[s] |= input.isr[i] || problem.pinned[i].is_some() || !problem.apart[i].is_empty();
            urgency[s] = urgency[s].max(input.urgency[i]);
        }
        for (s, &n) in size.iter().enumerate() {
            fixed[s] |= n > 1;
        }
        let limits_over = overload(&merged, input.platform, &merged_cores(&slot, &input.traffic.placement.core_of, m));
        Tuner {
            input,
            options,
            merged,
            slot,
            surrogate,
            fixed,
            urgency,
            limits_over,
            used: Default::default(),
            front: Default::default(),
            ranked: Default::default(),
        }
    }

    fn left(&self) -> u64 {
        self.options.budget.saturating_sub(self.used.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Every task's core (and mask) of a merged placement.
    fn expand(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> (Vec<CoreId>, Option<Vec<CoreSet>>) {
        let full: Vec<CoreId> = self.slot.iter().map(|&s| core_of[s as usize]).collect();
        let full_masks = masks.map(|m| self.slot.iter().map(|&s| m[s as usize].clone()).collect::<Vec<_>>());
        (full, full_masks)
    }

    /// The workload replayed: the window, unless `whole` or there is none.
    fn workload(&self, whole: bool) -> &Replay {
        match (&self.input.window, whole) {
            (Some((w, _)), false) => w,
            _ => self.input.workload,
        }
    }

    /// Replays a merged placement.
    fn replay(&self, core_of: &[CoreId], masks: Option<&[CoreSet]>, whole: bool) -> Outcome {
        let workload = self.workload(whole);
        let (full, full_masks) = self.expand(core_of, masks);
        let (cores, sets) = self.input.replay_placement(&full, full_masks.as_deref());
        let policy = if masks.is_some() { Policy::Masks } else { Policy::Amp };
        let setup = Setup {
            policy,
            platform: self.input.platform,
            core_of: Some(&cores),
            masks: sets.as_deref(),
            timeline: false,
        };
        simulate(workload, &setup)
    }

    /// Replays a batch in parallel (results in order), within the budget,
    /// and records the points for the front.
    fn judge(&self, batch: Vec<(String, Vec<CoreId>, Option<Vec<CoreSet>>)>, whole: bool) -> Vec<Point> {
        let take = (self.left() as usize).min(batch.len());
        let batch: Vec<_> = batch.into_iter().take(take).collect();
        self.used.fetch_add(batch.len() as u64, std::sync::atomic::Ordering::Relaxed);
        let points: Vec<Point> = batch
            .into_par_iter()
            .map(|(label, core_of, masks)| {
                let traffic = self.merged.cross_traffic(self.input.platform, &core_of);
                let o = self.replay(&core_of, masks.as_deref(), whole);
                let mut waits = vec![0u64; self.merged.len()];
                for (i, &r) in self.input.replay_of.iter().enumerate() {
                    waits[self.slot[i] as usize] += o.tasks[r as usize].ready_ns;
                }
                Point { label, core_of, masks, score: Score::of(self.input.goal, &o, traffic), waits }
            })
            .collect();
        if !whole {
            let mut front = self.front.lock().expect("not poisoned");
            let mut ranked = self.ranked.lock().expect("not poisoned");
            for p in &points {
                let traffic = self.merged.cross_traffic(self.input.platform, &p.core_of);
                front.push(FrontPoint { traffic, score: p.score, masks: p.masks.is_some() });
                if p.masks.is_none() {
                    // Ties on the objective (no READY at all) are broken by
                    // the secondary measure, as the search breaks them.
                    let objective = p.score.primary + p.score.secondary * 1e-9;
                    ranked.push((self.surrogate.value(&self.merged, self.input.platform, &p.core_of), objective));
                }
            }
        }
        points
    }

    fn tell(&self, best: &Score) {
        if let Some(p) = &self.options.progress {
            (p.0)(self.options.budget - self.left(), self.options.budget, &describe(self.input.goal, best));
        }
    }

    fn within_limits(&self, core_of: &[CoreId]) -> bool {
        overload(&self.merged, self.input.platform, core_of) <= self.limits_over
    }

    /// The strict starting points, deduplicated, within the limits.
    fn starts(&self) -> Vec<(String, Vec<CoreId>, Option<Vec<CoreSet>>)> {
        let (p, platform, s) = (&self.merged, self.input.platform, &self.surrogate);
        let m = p.len();
        let traffic = merged_cores(&self.slot, &self.input.traffic.placement.core_of, m);
        let spread = timing::spread_by_priority(p, platform, &self.urgency);
        let steps = (m as u64 * 4_000).clamp(20_000, 400_000);
        let seed = self.options.seed;
        // Two points between traffic and timing: traffic priced at what a
        // signal costs the receiver, and at ten times that.
        let cpu = platform.costs.message_cpu_ns as f64;
        let heavy = s.clone().with_alpha(s.alpha() + 10.0 * cpu);
        let light = s.clone().with_alpha(s.alpha() + cpu);
        let mut out = vec![("traffic optimum", traffic.clone()), ("priority spread", spread.clone())];
        // The surrogate ranks placements well across the space but not
        // among near-equals: several of its optima, for the replay to
        // choose from.
        for r in 0..SURROGATE_STARTS {
            let from = if r % 2 == 0 { &traffic } else { &spread };
            let label = if r % 2 == 0 { "surrogate" } else { "surrogate from priority spread" };
            out.push((label, timing::anneal(p, platform, s, from, seed ^ (r + 1), steps)));
        }
        out.push(("traffic-leaning surrogate", timing::anneal(p, platform, &heavy, &traffic, seed ^ 0x100, steps)));
        out.push(("surrogate with traffic", timing::anneal(p, platform, &light, &spread, seed ^ 0x101, steps)));
        out.retain(|(label, c)| *label == "traffic optimum" || self.within_limits(c));
        let mut seen = std::collections::HashSet::new();
        out.retain(|(_, c)| seen.insert(c.clone()));
        out.into_iter().map(|(l, c)| (l.to_string(), c, None)).collect()
    }

    /// The load of tasks at least as urgent as `i` on each core.
    fn urgent_load(&self, core_of: &[CoreId], i: usize) -> Vec<u64> {
        let mut load = vec![0u64; usize::from(self.input.platform.cores)];
        for (j, &c) in core_of.iter().enumerate() {
            if j != i && self.urgency[j] >= self.urgency[i] {
                load[usize::from(c)] += self.merged.load[j];
            }
        }
        load
    }

    /// Strict neighbours of `at`, the tasks that waited longest in its
    /// replay first: each moved to another core (where the load at least as
    /// urgent is least first), then swapped with a task that waited less;
    /// all within the constraints and limits.
    fn strict_neighbours(&self, at: &Point) -> Vec<(String, Vec<CoreId>, Option<Vec<CoreSet>>)> {
        let (p, k) = (&self.merged, usize::from(self.input.platform.cores));
        let core_of = &at.core_of;
        let mut order: Vec<usize> = (0..p.len()).filter(|&i| p.pinned[i].is_none()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(at.waits[i]), i));
        let mut out = Vec::new();
        for &i in &order {
            let urgent = self.urgent_load(core_of, i);
            let mut targets: Vec<usize> =
                (0..k).filter(|&c| c != usize::from(core_of[i]) && p.fits(i, c, core_of)).collect();
            targets.sort_by_key(|&c| (urgent[c], c));
            for c in targets {
                let mut next = core_of.clone();
                next[i] = c as CoreId;
                if self.within_limits(&next) {
                    out.push(("refined".to_string(), next, None));
                }
            }
            let mut partners: Vec<usize> = order.iter().copied().filter(|&j| core_of[j] != core_of[i]).collect();
            partners.sort_by_key(|&j| (at.waits[j], j));
            for j in partners {
                let mut next = core_of.clone();
                next.swap(i, j);
                if p.fits(i, usize::from(next[i]), &next)
                    && p.fits(j, usize::from(next[j]), &next)
                    && self.within_limits(&next)
                {
                    out.push(("refined".to_string(), next, None));
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|e| seen.insert(e.1.clone()));
        out
    }

    /// Mask neighbours of `at`: a core added to the mask of a task that
    /// waited (longest first), or taken from one that did not (shortest
    /// first).
    fn mask_neighbours(&self, at: &Point) -> Vec<(String, Vec<CoreId>, Option<Vec<CoreSet>>)> {
        let p = &self.merged;
        let k = self.input.platform.cores;
        let masks = at.masks.as_ref().expect("a mask placement");
        let mut order: Vec<usize> = (0..p.len()).filter(|&i| !self.fixed[i]).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(at.waits[i]), i));
        let mut out = Vec::new();
        // A float that never waited only pays for floating (a global
        // scheduling decision per dispatch, migrations): first all of them
        // pinned to their home cores at once, then each alone, the least
        // waiting first.
        let floats: Vec<usize> = order.iter().rev().copied().filter(|&i| masks[i].len() > 1).collect();
        let pin = |(home, next): &mut (Vec<CoreId>, Vec<CoreSet>), i: usize| {
            if !masks[i].contains(home[i]) {
                home[i] = masks[i].first().expect("a core");
            }
            next[i] = CoreSet::one(home[i]);
        };
        let idle: Vec<usize> = floats.iter().copied().filter(|&i| at.waits[i] == 0).collect();
        if idle.len() > 1 {
            let mut next = (at.core_of.clone(), masks.clone());
            idle.iter().for_each(|&i| pin(&mut next, i));
            out.push(("masks refined".to_string(), next.0, Some(next.1)));
        }
        for &i in &floats {
            let mut next = (at.core_of.clone(), masks.clone());
            pin(&mut next, i);
            out.push(("masks refined".to_string(), next.0, Some(next.1)));
        }
        for &i in &order {
            for c in 0..k {
                if !masks[i].contains(c) && p.allows(i, usize::from(c)) {
                    let mut next = masks.clone();
                    next[i].insert(c);
                    out.push(("masks refined".to_string(), at.core_of.clone(), Some(next)));
                }
            }
        }
        for &i in order.iter().rev() {
            for c in masks[i].iter() {
                if masks[i].len() > 1 {
                    let mut next = masks.clone();
                    next[i].remove(c);
                    let mut home = at.core_of.clone();
                    if home[i] == c {
                        home[i] = next[i].first().expect("one core left");
                    }
                    if self.within_limits(&home) {
                        out.push(("masks refined".to_string(), home, Some(next)));
                    }
                }
            }
        }
        out
    }

    /// Local search from `start`, `budget` replays at most: the neighbours
    /// in order, a batch at a time; the best of a batch that beats the
    /// current point is taken and the neighbourhood rebuilt; it stops when
    /// `patience` batches in a row bring nothing.
    fn refine(&self, start: Point, budget: u64, patience: usize, whole: bool) -> Point {
        let stop_at = self.left().saturating_sub(budget);
        let mut best = start;
        loop {
            let neighbours =
                if best.masks.is_some() { self.mask_neighbours(&best) } else { self.strict_neighbours(&best) };
            let mut improved = false;
            for chunk in neighbours.chunks(BATCH).take(patience) {
                if self.left() <= stop_at {
                    return best;
                }
                let room = (self.left() - stop_at) as usize;
                let judged = self.judge(chunk.iter().take(room).cloned().collect(), whole);
                if let Some(top) = best_of(&judged)
                    && top.score.beats(&best.score)
                {
                    let label = if best.label.starts_with("refined") || best.label.starts_with("masks refined") {
                        best.label.clone()
                    } else {
                        format!("{} from {}", top.label, best.label)
                    };
                    best = Point { label, ..top.clone() };
                    improved = true;
                    self.tell(&best.score);
                    break;
                }
            }
            if !improved {
                return best;
            }
        }
    }

    /// Replays the best `CONFIRM` distinct points of `pool` on the whole
    /// trace (all of them when there is no window: their scores are whole
    /// already), polishes the best there with a few batches judged whole,
    /// and returns it.
    fn confirm(&self, pool: Vec<Point>) -> Candidate {
        let mut sorted = pool;
        sorted.sort_by(|a, b| a.score.order(&b.score));
        let mut seen = std::collections::HashSet::new();
        sorted.retain(|p| seen.insert(p.key()));
        let finals = if self.input.window.is_some() {
            let batch = sorted.into_iter().take(CONFIRM).map(|p| (p.label, p.core_of, p.masks)).collect();
            self.judge(batch, true)
        } else {
            sorted.truncate(1);
            sorted
        };
        let best = best_of(&finals).expect("a candidate").clone();
        let best =
            if self.input.window.is_some() { self.refine(best, (POLISH * BATCH) as u64, POLISH, true) } else { best };
        self.candidate(&best)
    }

    /// The candidate of a point, replayed whole.
    fn candidate(&self, p: &Point) -> Candidate {
        let traffic = self.merged.cross_traffic(self.input.platform, &p.core_of);
        let o = self.replay(&p.core_of, p.masks.as_deref(), true);
        let (full, full_masks) = self.expand(&p.core_of, p.masks.as_deref());
        Candidate {
            label: p.label.clone(),
            core_of: full,
            masks: full_masks,
            traffic,
            surrogate: self.surrogate.value(&self.merged, self.input.platform, &p.core_of),
            score: Score::of(self.input.goal, &o, traffic),
            outcome: Some(o),
        }
    }

    /// Refines the best `REFINED_STARTS` of `starts` within `budget`
    /// replays in all; the pool of everything worth confirming.
    fn search(&self, starts: Vec<Point>, budget: u64) -> Vec<Point> {
        let mut order: Vec<usize> = (0..starts.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&starts[a].score, &starts[b].score);
            x.lag.total_cmp(&y.lag).then(x.primary.total_cmp(&y.primary)).then(a.cmp(&b))
        });
        if let Some(&first) = order.first() {
            self.tell(&starts[first].score);
        }
        let each = budget / REFINED_STARTS as u64;
        let mut pool = starts.clone();
        for &i in order.iter().take(REFINED_STARTS) {
            pool.push(self.refine(starts[i].clone(), each, PATIENCE, false));
        }
        pool
    }

    fn run(self) -> TimingSolution {
        let budget = self.options.budget;
        let whole = if self.input.window.is_some() { 2 * (CONFIRM + POLISH * BATCH) as u64 } else { 0 };
        let searchable = budget.saturating_sub(whole);
        let strict_budget = if self.options.masks { searchable * 3 / 5 } else { searchable };
        // Strict.
        let starts = self.judge(self.starts(), false);
        let room = strict_budget.saturating_sub(budget - self.left());
        let strict = self.confirm(self.search(starts, room));
        // Masks: from the best strict placement and from global SMP.
        let m = self.merged.len();
        let k = self.input.platform.cores;
        let strict_merged = merged_cores(&self.slot, &strict.core_of, m);
        let singles: Vec<CoreSet> = strict_merged.iter().map(|&c| CoreSet::one(c)).collect();
        let smp_masks: Vec<CoreSet> = (0..m)
            .map(|i| {
                if self.fixed[i] {
                    singles[i].clone()
                } else {
                    (0..k).filter(|&c| self.merged.allows(i, usize::from(c))).collect()
                }
            })
            .collect();
        let masks = (self.options.masks && k > 1).then(|| {
            let starts = self.judge(
                vec![
                    ("the best strict placement".to_string(), strict_merged.clone(), Some(singles)),
                    ("global SMP within the constraints".to_string(), strict_merged.clone(), Some(smp_masks)),
                ],
                false,
            );
            let room = self.left().saturating_sub(whole / 2);
            self.confirm(self.search(starts, room))
        });
        // The references, replayed whole.
        let traffic_core_of = merged_cores(&self.slot, &self.input.traffic.placement.core_of, m);
        let traffic = self.candidate(&Point {
            label: "traffic optimum".into(),
            core_of: traffic_core_of.clone(),
            masks: None,
            score: Score { lag: 0.0, primary: 0.0, secondary: 0.0 },
            waits: Vec::new(),
        });
        let smp = {
            let workload = self.input.workload;
            let full: Vec<CoreId> = self.expand(&traffic_core_of, None).0;
            // Every task on every core it may use (constraints stay hard).
            let (masks, restricted) = self.input.problem.smp_masks(k);
            let core_of: Vec<CoreId> = masks
                .iter()
                .zip(&full)
                .map(|(m, &c)| if m.contains(c) { c } else { m.iter().next().unwrap_or(0) })
                .collect();
            let (cores, sets) = self.input.replay_placement(&core_of, Some(&masks));
            let setup = Setup {
                policy: if restricted { Policy::Masks } else { Policy::Smp },
                platform: self.input.platform,
                core_of: Some(&cores),
                masks: if restricted { sets.as_deref() } else { None },
                timeline: false,
            };
            let o = simulate(workload, &setup);
            Candidate {
                label: "global SMP".into(),
                core_of,
                masks: Some(masks),
                traffic: traffic.traffic,
                surrogate: f64::NAN,
                score: Score::of(self.input.goal, &o, traffic.traffic),
                outcome: Some(o),
            }
        };
        let ranked = self.ranked.into_inner().expect("not poisoned");
        TimingSolution {
            strict,
            masks,
            traffic,
            smp,
            front: self.front.into_inner().expect("not poisoned"),
            window: self.input.window.as_ref().map(|w| w.1),
            evaluations: self.used.load(std::sync::atomic::Ordering::Relaxed),
            budget,
            surrogate_rank: spearman(&ranked),
        }
    }
}

/// The surrogate's price of one unit of cross-core traffic, in ns of the
/// objective. For READY, none: on the samples the waiting term alone ranks
/// placements best (Spearman 0.77 / 0.73 / 0.38 / 0.70 against the replay
/// on the printer, rp2-cluster, tile64-daq and FreeRTOS samples, against
/// 0.77 / 0.73 / 0.27 / 0.70 with the interrupt's CPU time scaled by the
/// squared mean utilisation; `cargo bench --bench surrogate`): the
/// interrupts a placement adds rarely make anything wait. For response
/// times and deadlines, a cross-core signal's latency adds to the response
/// of the job it releases.
fn alpha(input: &TimingInput<'_>) -> f64 {
    match input.goal {
        Goal::Ready | Goal::Traffic => 0.0,
        Goal::Response | Goal::Deadlines => input.platform.costs.message_latency_ns as f64,
    }
}

/// The merged placement of a full one: each group's first member's core.
fn merged_cores(slot: &[u32], full: &[CoreId], m: usize) -> Vec<CoreId> {
    let mut out = vec![0; m];
    let mut set = vec![false; m];
    for (i, &s) in slot.iter().enumerate() {
        if !set[s as usize] {
            out[s as usize] = full[i];
            set[s as usize] = true;
        }
    }
    out
}

/// Load above the cores' limits.
fn overload(problem: &Problem, platform: &Platform, core_of: &[CoreId]) -> u64 {
    corera_placement::Cost::of(problem, platform, &Placement::new(core_of.to_vec())).objective.overload_ns
}

/// Spearman's rank correlation of the pairs (average ranks for ties);
/// `None` below five pairs or when one side is constant.
pub fn spearman(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.len() < 5 {
        return None;
    }
    let ranks = |values: Vec<f64>| -> Vec<f64> {
        let mut idx: Vec<usize> = (0..values.len()).collect();
        idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
        let mut r = vec![0.0; values.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
                j += 1;
            }
            for &x in &idx[i..=j] {
                r[x] = (i + j) as f64 / 2.0;
            }
            i = j + 1;
        }
        r
    };
    let a = ranks(pairs.iter().map(|p| p.0).collect());
    let b = ranks(pairs.iter().map(|p| p.1).collect());
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&a), mean(&b));
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    if va == 0.0 || vb == 0.0 { None } else { Some(cov / (va * vb).sqrt()) }
}

#[cfg(test)]
mod tests {
    use super::spearman;

    #[test]
    fn spearman_ranks() {
        let same: Vec<(f64, f64)> = (0..6).map(|i| (i as f64, (i * i) as f64)).collect();
        assert!((spearman(&same).unwrap() - 1.0).abs() < 1e-12);
        let reversed: Vec<(f64, f64)> = (0..6).map(|i| (i as f64, -(i as f64))).collect();
        assert!((spearman(&reversed).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&same[..4]), None);
        assert_eq!(spearman(&[(1.0, 2.0); 6]), None);
    }
}
