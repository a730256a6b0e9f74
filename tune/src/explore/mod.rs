//! The replay in the loop: placements judged by what the user judges them
//! by (READY, response times, deadlines), not by the traffic proxy; an
//! anytime search that spends its budget and says what it proved.
//!
//! 1. **Starting points**, within the constraints and capacities: the
//!    traffic optimum, a priority-spreading start, eight optima of the
//!    surrogate ([`crate::surrogate`]) annealed from those two with
//!    different seeds, two points between traffic and timing, and any
//!    mapping given with the input (an Amalthea model's own). Each is
//!    replayed.
//! 2. **Exact where it can be**: when the AMP placements within the
//!    limits (identical cores counted once) number at most
//!    [`EXACT_LIMIT`] and the budget holds them, every one is replayed on
//!    the whole trace and the best is optimal under the replay model.
//! 3. **Iterated local search** otherwise ([`descent`]): cheap descents
//!    (single moves, scanned cyclically in a fixed order) from the two best
//!    starting points and the traffic optimum, then kicks of a few random
//!    moves and swaps and descents again, until the exploration's share of
//!    the budget is spent.
//! 4. **The certificate**: with what was kept back, the best is descended
//!    through the whole neighbourhood, moves and swaps; a complete scan
//!    proves a local optimum, else the answer says how far the check got;
//!    then kicks again while the budget lasts. An objective of 0 is optimal
//!    outright.
//! 5. **Affinity masks** the same way, with a core added to or taken from
//!    one task's mask (or the mask widened to all its cores, or narrowed
//!    to its home) as the neighbourhood.
//!
//! Every replay is of the whole trace: judging moves on a window of a long
//! trace, as corera did before, found placements that were best on the
//! window and worse on the whole trace (rp2-cluster: 21.4 ms READY with a
//! window, 18.2 ms without, for the same budget of time). Replays of one
//! batch run in parallel (rayon); batches are fixed in size and drawn in a
//! fixed order, so the answer for a seed is the same on any number of
//! threads (unless the time limit stops the search).

mod descent;
mod exact;
mod judge;
mod neighbourhood;
mod perturb;

use std::time::{Duration, Instant};

use corera_placement::rng::SplitMix64;
use corera_placement::{CoreId, CoreSet};
use corera_replay::{Policy, Setup, simulate};
use corera_search::SearchError;

use crate::certificate::{Certificate, Neighbourhood, Proof};
use crate::surrogate;
use crate::{Candidate, FrontPoint, Origin, Score, TimingInput, spearman};
use descent::{Scan, descend};
use judge::{Judge, Probe};
use neighbourhood::Rules;

/// Replays per batch: fixed, so that results do not depend on the thread
/// count (8 keeps two cores busy and wastes little at the end of a scan).
const BATCH: usize = 8;

/// Replays per batch of a plain descent, which takes a batch's first
/// improvement and moves on from there: the rest of the batch is spent on
/// neighbours of a point it leaves. On the printer's masks, from the
/// traffic optimum, batches of 8 spent 204 replays without reaching the
/// optimum that batches of 2 reach in 122 (single replays: 104).
const PLAIN_BATCH: usize = 2;

/// Surrogate optima among the starting points (different seeds, from the
/// traffic optimum and from the priority spread in turn).
const SURROGATE_STARTS: u64 = 8;

/// Starting points descended before the kicks begin (the best, and the
/// traffic optimum too).
const DESCENDED_STARTS: usize = 2;

/// The most of a search's room kept back for the whole-trace scan that
/// certifies its answer (on the printer, 0.5 left the scan 14 replays
/// short of a certificate).
const RESERVE_SHARE: f64 = 0.6;

/// Failed kicks in a row before a kick takes one more step.
const KICK_PATIENCE: usize = 3;

/// The budget's share for AMP placements when masks are searched too
/// (the masks get the rest, and what the AMP search left).
const AMP_SHARE: f64 = 0.45;

/// Kicks drawn before the search gives up finding one within the limits.
const KICK_TRIES: usize = 64;

/// Kicks in a row that replay nothing new before the search stops.
const IDLE_KICKS: usize = 50;

/// The most steps a kick takes.
const MAX_KICK: usize = 6;

/// AMP placements (identical cores counted once) up to which the
/// search replays them all and reports the best as optimal, budget
/// permitting.
pub const EXACT_LIMIT: u64 = 16_384;

/// The smallest and largest budget sized automatically, in replays.
pub const AUTO_BUDGET: (u64, u64) = (100, EXACT_LIMIT + 2_000);

/// What a progress callback is given: replays run, the budget, the best
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
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct TimingOptions {
    /// Replays of the whole trace the search may run in all; `None` (the
    /// default): [`auto_budget`].
    pub budget: Option<u64>,
    /// Seed of the surrogate annealing and the kicks (default 0).
    pub seed: u64,
    /// Also search affinity masks (tasks floating over a set of cores).
    pub masks: bool,
    /// Keep each core within the traffic search's balance limit too
    /// (default false: within its capacity only, and the replay judges how
    /// the load is spread; the CLI sets it when `--balance` is given).
    pub balance: bool,
    /// Wall-clock seconds for the search (default none): it stops there
    /// with what it has, and the answer may then depend on the machine.
    pub time_limit: Option<f64>,
    /// Called after each batch of replays.
    pub progress: Option<TuneProgress>,
}

/// What the timing search found.
#[derive(Clone, Debug)]
pub struct TimingSolution {
    /// The best AMP (one core per task) placement, replayed whole, with
    /// its certificate.
    pub amp: Candidate,
    /// The best mask placement (global SMP is one of its starting
    /// points), replayed whole, with its certificate, when masks were
    /// searched.
    pub masks: Option<Candidate>,
    /// The traffic optimum, replayed whole.
    pub traffic: Candidate,
    /// Global SMP within the constraints, replayed whole.
    pub smp: Candidate,
    /// Every placement evaluated.
    pub front: Vec<FrontPoint>,
    /// Replays run.
    pub replays: u64,
    /// The budget, in replays.
    pub budget: u64,
    /// Whether the time limit stopped the search.
    pub out_of_time: bool,
    /// Spearman's rank correlation between the surrogate and the replayed
    /// objective over the AMP placements evaluated (1: same order).
    pub surrogate_rank: Option<f64>,
}

/// The budget sized for an input: CPU time for the replays that grows with
/// the square root of the neighbourhood (7.5 s for 100 neighbours: about
/// 4 s on two cores), divided by what one replay of the whole trace costs
/// (events × (35 + 0.8 × tasks + 2.5 × cores) ns, fitted to the bundled
/// samples in a release build: `cargo bench --bench baseline` prints each
/// sample's replay time), between the bounds of [`AUTO_BUDGET`]. A count,
/// not a time, so that the answer is the same on every machine.
pub fn auto_budget(input: &TimingInput<'_>) -> u64 {
    let replay_s = replay_estimate_ns(input) * 1e-9;
    let m = input.problem.pinned.iter().filter(|p| p.is_none()).count() as f64;
    let k = f64::from(input.platform.cores);
    let neighbours = (m * (k - 1.0) + m * m / 2.0 * (1.0 - 1.0 / k)).max(1.0);
    let cpu_s = (CPU_SECONDS_PER_ROOT_NEIGHBOUR * neighbours.sqrt()).min(MAX_CPU_SECONDS);
    ((cpu_s / replay_s).round() as u64).clamp(AUTO_BUDGET.0, AUTO_BUDGET.1)
}

/// The most CPU seconds of replays [`auto_budget`] gives (about 20 s on
/// two cores).
const MAX_CPU_SECONDS: f64 = 40.0;

/// What one replay of the whole trace takes in a release build, estimated:
/// events × (35 + 0.8 × tasks + 2.5 × cores) ns.
pub(crate) fn replay_estimate_ns(input: &TimingInput<'_>) -> f64 {
    let w = input.workload;
    let per_event = 35.0 + 0.8 * w.tasks.len() as f64 + 2.5 * f64::from(input.platform.cores);
    w.events.max(1) as f64 * per_event
}

/// CPU seconds of replays [`auto_budget`] gives per square root of the
/// neighbourhood's size (7.5 s for 100 neighbours; the printer's AMP
/// neighbourhood has about 130, rp2's 670, tile64's 4,600): about 4, 10
/// and 20 s of the timing search on two quiet cores for them, within the
/// 10, 30 and 60 s their whole analysis is held to on these shared
/// machines (1.0 missed the first two by 7 % and 18 % under contention).
const CPU_SECONDS_PER_ROOT_NEIGHBOUR: f64 = 0.75;

/// Searches the placement that replays best under `input.objective`,
/// within `options.budget` replays.
///
/// # Errors
/// [`SearchError::Unsupported`] for the `traffic` objective (the portfolio
/// answers that); [`SearchError::Empty`] for a problem without tasks.
pub fn tune(input: &TimingInput<'_>, options: &TimingOptions) -> Result<TimingSolution, SearchError> {
    if !input.objective.is_timing() {
        return Err(SearchError::Unsupported("the traffic objective needs no replay: use the portfolio".into()));
    }
    if input.problem.is_empty() {
        return Err(SearchError::Empty);
    }
    let budget = options.budget.unwrap_or_else(|| auto_budget(input));
    let deadline = options.time_limit.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let judge = Judge::new(input, budget, deadline, options.progress.clone());
    let traffic = judge.merge(&input.traffic.placement.core_of);
    let rules = Rules::new(&judge, &traffic, options.balance);
    Ok(Tuner { judge, rules, options, budget }.run())
}

/// A placement of the merged problem the search replayed: where its search
/// started, how it got here, its score where it was judged, and how long
/// each merged task waited ready in that replay.
#[derive(Clone, Debug)]
pub(super) struct Point {
    pub(super) origin: Origin,
    pub(super) steps: u32,
    pub(super) kicks: u32,
    pub(super) core_of: Vec<CoreId>,
    pub(super) masks: Option<Vec<CoreSet>>,
    pub(super) score: Score,
    pub(super) waits: Vec<u64>,
}

impl Point {
    fn probe(&self) -> Probe {
        Probe { core_of: self.core_of.clone(), masks: self.masks.clone() }
    }
}

/// A point and what is proven about it.
type Found = (Point, Certificate);

struct Tuner<'a> {
    judge: Judge<'a>,
    rules: Rules,
    options: &'a TimingOptions,
    budget: u64,
}

impl Tuner<'_> {
    fn run(mut self) -> TimingSolution {
        let input = self.judge.input;
        let budget = self.judge.budget();
        let k = input.platform.cores;
        let masks_on = self.options.masks && k > 1;
        let amp_stop = if masks_on { (budget as f64 * AMP_SHARE) as u64 } else { budget };
        let (amp, amp_proof) = self.amp(amp_stop);
        let masks = masks_on.then(|| self.masks(&amp, budget));
        // The masks may have ended early (an objective of 0): what they
        // left finishes the AMP answer's certificate.
        let (amp, amp_proof) = match amp_proof {
            Certificate::Partial { .. } if self.judge.can_afford(budget) => {
                let (best, scan) = descend(&mut self.judge, &self.rules, amp, true, budget, false);
                let certificate = certify(&best, scan, Neighbourhood::MovesAndSwaps);
                (best, certificate)
            }
            proof => (amp, proof),
        };
        let traffic_cores = self.judge.merge(&input.traffic.placement.core_of);
        let traffic_point = Point {
            origin: Origin::TrafficOptimum,
            steps: 0,
            kicks: 0,
            core_of: traffic_cores,
            masks: None,
            score: Score { lag: 0.0, primary: 0.0, secondary: 0.0, counted: false },
            waits: Vec::new(),
        };
        let traffic = self.candidate(&traffic_point, None);
        let smp = self.smp(&traffic);
        let amp = self.candidate(&amp, Some(amp_proof));
        let masks = masks.map(|(p, c)| self.candidate(&p, Some(c)));
        let judge = self.judge;
        TimingSolution {
            amp,
            masks,
            traffic,
            smp,
            replays: judge.replays(),
            budget: self.budget,
            out_of_time: judge.out_of_time(),
            surrogate_rank: spearman(&judge.ranked),
            front: judge.front,
        }
    }

    /// The points of `probes` judged, in order, those the budget had room
    /// for (up to `stop` replays in all).
    fn points(&mut self, probes: Vec<(Origin, Probe)>, stop: u64) -> Vec<Point> {
        let only: Vec<Probe> = probes.iter().map(|(_, p)| p.clone()).collect();
        let answers = self.judge.judge(&only, stop);
        points_of(probes, answers)
    }

    /// The starting points judged within `stop`, and at least the first of
    /// them whatever the budget or the time limit: a budget spent before
    /// the search starts (`--replay-budget 1`) still leaves it a point to
    /// start from, one replay over the budget.
    fn starts_within(&mut self, probes: Vec<(Origin, Probe)>, stop: u64) -> Vec<Point> {
        let first = probes.first().cloned();
        let points = self.points(probes, stop);
        match (points.is_empty(), first) {
            (true, Some(first)) => {
                let answers = self.judge.judge_regardless(std::slice::from_ref(&first.1));
                points_of(vec![first], answers)
            }
            _ => points,
        }
    }

    /// The best AMP placement on the whole trace and its certificate,
    /// spending up to `stop` of the budget.
    fn amp(&mut self, stop: u64) -> Found {
        let starts = self.starts();
        let mut starts = self.starts_within(starts, stop);
        starts.sort_by(|a, b| a.score.order(&b.score));
        if let Some(first) = starts.first() {
            self.judge.tell(&first.score.clone());
        }
        // Every placement, when few enough to replay them all (and no
        // start has an objective of 0 already).
        let zero = starts.first().is_some_and(|s| s.score.is_zero());
        let room = if zero { 0 } else { stop.saturating_sub(self.judge.replays()) };
        let (merged, platform) = (&self.judge.merged, self.judge.input.platform);
        let all = (room > 0)
            .then(|| {
                exact::placements(merged, platform, &self.rules.limits, self.rules.limits_over, EXACT_LIMIT.min(room))
            })
            .flatten();
        if let Some(all) = all {
            let count = all.len() as u64;
            let probes: Vec<(Origin, Probe)> = all
                .into_iter()
                .map(|c| (Origin::Enumeration, self.judge.canonical(Probe { core_of: c, masks: None })))
                .collect();
            let mut points = Vec::new();
            for chunk in probes.chunks(BATCH * 16) {
                points.extend(self.points(chunk.to_vec(), stop));
            }
            if points.len() as u64 == count
                && let Some(best) = best_of(points)
            {
                let best = self.adopt_origin(best, &starts);
                return (best, Certificate::Optimal(Proof::Enumeration { placements: count }));
            }
        }
        let (best, scan) = self.search(starts, stop);
        let certificate = certify(&best, scan, Neighbourhood::MovesAndSwaps);
        (best, certificate)
    }

    /// An enumerated optimum found among the starting points keeps that
    /// origin (it was found before the enumeration proved it).
    fn adopt_origin(&self, mut best: Point, starts: &[Point]) -> Point {
        if let Some(s) = starts.iter().find(|s| s.core_of == best.core_of) {
            best.origin = s.origin;
        }
        best
    }

    /// The best mask placement on the whole trace and its certificate,
    /// from the best AMP placement, the traffic optimum, global SMP
    /// within the constraints (and with the tasks that never waited bound)
    /// and, on a platform with a topology, SMP within each home core's
    /// cluster, spending up to `stop` of the budget.
    fn masks(&mut self, amp: &Point, stop: u64) -> Found {
        let singles = |core_of: &[CoreId]| -> Vec<CoreSet> { core_of.iter().map(|&c| CoreSet::one(c)).collect() };
        let traffic = self.judge.merge(&self.judge.input.traffic.placement.core_of);
        let traffic = self.judge.canonical(Probe { core_of: traffic, masks: None }).core_of;
        let smp = neighbourhood::smp_masks(&self.judge, &self.rules, &amp.core_of);
        let mut probes = vec![
            (Origin::BestAmp, Probe { core_of: amp.core_of.clone(), masks: Some(singles(&amp.core_of)) }),
            (Origin::GlobalSmp, Probe { core_of: amp.core_of.clone(), masks: Some(smp) }),
            (Origin::TrafficOptimum, Probe { masks: Some(singles(&traffic)), core_of: traffic }),
        ];
        if let Some(local) = neighbourhood::local_masks(&self.judge, &self.rules, &amp.core_of) {
            probes.push((Origin::LocalSmp, Probe { core_of: amp.core_of.clone(), masks: Some(local) }));
        }
        let mut starts = self.starts_within(probes, stop);
        // Global SMP with the tasks that never waited bound to their cores.
        let pinned = starts
            .iter()
            .filter(|s| s.origin == Origin::GlobalSmp)
            .find_map(|s| neighbourhood::pin_idle(&self.rules, s));
        if let Some(probe) = pinned {
            starts.extend(self.points(vec![(Origin::GlobalSmp, probe)], stop));
        }
        starts.sort_by(|a, b| a.score.order(&b.score));
        let (best, scan) = self.search(starts, stop);
        let certificate = certify(&best, scan, Neighbourhood::MaskCores);
        (best, certificate)
    }

    /// The search proper, from judged starting points (best first), up to
    /// `stop` replays in all: an iterated local search whose descents take
    /// single moves only, then, with what was kept back for it, the best
    /// descended through the whole neighbourhood (moves and swaps), and
    /// kicked again while the budget lasts. The best point and how its last
    /// scan ended.
    fn search(&mut self, starts: Vec<Point>, stop: u64) -> (Point, Scan) {
        let Some(first) = starts.first().cloned() else { unreachable!("the traffic optimum is always a start") };
        // Kept back for the end: a whole scan of the neighbourhood (the
        // certificate).
        let room = stop.saturating_sub(self.judge.replays());
        let reserve = self.neighbourhood_size(&first, true).min((room as f64 * RESERVE_SHARE) as u64);
        let best = self.explore(starts, stop - reserve);
        let (best, scan) = descend(&mut self.judge, &self.rules, best, true, stop, false);
        self.kicks(best, scan, true, stop)
    }

    /// Cheap descents (single moves) from the best starting points and
    /// from the traffic optimum, then kicks from the best, until `stop`.
    fn explore(&mut self, starts: Vec<Point>, stop: u64) -> Point {
        let traffic = starts.iter().position(|s| s.origin == Origin::TrafficOptimum);
        // For masks, the traffic optimum first: the path a naive search of
        // one-core changes takes is long there (measured on the printer
        // with priority inheritance: 188.6 ms when it came last and the
        // budget ran out, 180.5 ms, the naive search's own optimum, first),
        // and it gets its replays before the others share the rest.
        let mut chosen: Vec<Point> = starts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < DESCENDED_STARTS || Some(i) == traffic)
            .map(|(_, s)| s.clone())
            .collect();
        if chosen.iter().any(|s| s.masks.is_some()) {
            chosen.sort_by_key(|s| s.origin != Origin::TrafficOptimum);
        }
        let mut best: Option<(Point, Scan)> = None;
        for start in chosen {
            // The traffic optimum plainly, as a first-improvement search
            // from it would go; the others in the screened order.
            let plain = start.origin == Origin::TrafficOptimum;
            let (p, scan) = descend(&mut self.judge, &self.rules, start, false, stop, plain);
            if best.as_ref().is_none_or(|(b, _)| p.score.beats(&b.score)) {
                best = Some((p, scan));
            }
        }
        let (best, scan) = best.expect("a start");
        self.kicks(best, scan, false, stop).0
    }

    /// Kicks from `best` and descents from there (`full`: through the
    /// whole neighbourhood), while the last scan of the best was complete
    /// and the budget up to `stop` lasts.
    fn kicks(&mut self, mut best: Point, mut scan: Scan, full: bool, stop: u64) -> (Point, Scan) {
        let mut rng = SplitMix64::new(self.options.seed ^ 0x6b69_636b ^ u64::from(full));
        let (mut strength, mut fails) = (2usize, 0usize);
        // Kicks start from the current point: the best, or a local optimum
        // within 1 % of it (a little drift finds other basins; measured on
        // the Android trace's masks).
        let mut current = best.clone();
        // Kicks that replay nothing new (a small space, all of it known)
        // stop the search after a while.
        let mut idle = 0;
        while scan.complete() && !best.score.is_zero() && idle < IDLE_KICKS && self.judge.can_afford(stop) {
            let before = self.judge.replays();
            // A kick that breaks the load limits is drawn again.
            let kick =
                (0..KICK_TRIES).find_map(|_| perturb::kick(&self.judge, &self.rules, &current, strength, &mut rng));
            let Some(probe) = kick else { break };
            let Some(kicked) = self.points(vec![(current.origin, probe)], stop).pop() else { break };
            let kicked = Point { steps: current.steps, kicks: current.kicks + 1, ..kicked };
            // Every other kick's descent in plain order.
            let plain = fails % 2 == 1;
            let (p, s) = descend(&mut self.judge, &self.rules, kicked, full, stop, plain);
            idle = if self.judge.replays() == before { idle + 1 } else { 0 };
            if p.score.beats(&best.score) {
                (best, scan) = (p.clone(), s);
                current = p;
                (strength, fails) = (2, 0);
            } else {
                current = if s.complete() && p.score.close_to(&best.score) { p } else { best.clone() };
                fails += 1;
                if fails % KICK_PATIENCE == 0 {
                    strength = (strength + 1).min(MAX_KICK);
                }
                if !s.complete() {
                    break;
                }
            }
        }
        (best, scan)
    }

    /// How many neighbours a point has (`full`: swaps too).
    fn neighbourhood_size(&self, p: &Point, full: bool) -> u64 {
        let order: Vec<usize> = (0..self.judge.merged.len()).collect();
        let steps = if p.masks.is_some() {
            neighbourhood::mask_steps(&self.judge, &self.rules, &order, false)
        } else {
            let (moves, swaps) = neighbourhood::amp_steps(&self.judge, &self.rules, p, &order, true);
            if full { moves.into_iter().chain(swaps).collect() } else { moves }
        };
        neighbourhood::size(&self.judge, &self.rules, p, &steps)
    }

    /// The AMP starting points, within the limits, canonical and
    /// distinct.
    fn starts(&self) -> Vec<(Origin, Probe)> {
        let judge = &self.judge;
        let input = judge.input;
        let (p, platform, s) = (&judge.merged, input.platform, &judge.surrogate);
        let m = p.len();
        let traffic = judge.merge(&input.traffic.placement.core_of);
        let mut urgency = vec![i64::MIN; m];
        for (i, &slot) in judge.slot.iter().enumerate() {
            urgency[slot as usize] = urgency[slot as usize].max(input.urgency[i]);
        }
        let spread = surrogate::spread_by_priority(p, platform, &urgency);
        let steps = (m as u64 * 4_000).clamp(20_000, 400_000);
        let seed = self.options.seed;
        // Two points between traffic and timing: traffic priced at what a
        // signal costs the receiver, and at ten times that.
        let cpu = platform.costs.message_cpu_ns as f64;
        let heavy = s.clone().with_alpha(s.alpha() + 10.0 * cpu);
        let light = s.clone().with_alpha(s.alpha() + cpu);
        let mut out = vec![(Origin::TrafficOptimum, traffic.clone()), (Origin::PrioritySpread, spread.clone())];
        for given in &input.given {
            out.push((Origin::Given, judge.merge(given)));
        }
        // The surrogate ranks placements well across the space but not
        // among near-equals: several of its optima, for the replay to
        // choose from.
        for r in 0..SURROGATE_STARTS {
            let (origin, from) =
                if r % 2 == 0 { (Origin::Surrogate, &traffic) } else { (Origin::SurrogateFromSpread, &spread) };
            out.push((origin, surrogate::anneal(p, platform, s, from, seed ^ (r + 1), steps)));
        }
        out.push((Origin::TrafficLeaning, surrogate::anneal(p, platform, &heavy, &traffic, seed ^ 0x100, steps)));
        out.push((Origin::SurrogateWithTraffic, surrogate::anneal(p, platform, &light, &spread, seed ^ 0x101, steps)));
        let fits = |c: &[CoreId]| (0..m).all(|i| p.fits(i, usize::from(c[i]), c));
        out.retain(|(origin, c)| *origin == Origin::TrafficOptimum || (fits(c) && self.rules.within_limits(judge, c)));
        let mut seen = rustc_hash::FxHashSet::default();
        out.into_iter()
            .map(|(o, c)| (o, judge.canonical(Probe { core_of: c, masks: None })))
            .filter(|(_, probe)| seen.insert(probe.clone()))
            .collect()
    }

    /// The candidate of a point, replayed (outside the budget).
    fn candidate(&self, p: &Point, certificate: Option<Certificate>) -> Candidate {
        let judge = &self.judge;
        let traffic = judge.merged.cross_traffic(judge.input.platform, &p.core_of);
        let o = judge.replay(&p.core_of, p.masks.as_deref());
        let (full, full_masks) = judge.expand(&p.core_of, p.masks.as_deref());
        Candidate {
            origin: p.origin,
            steps: p.steps,
            kicks: p.kicks,
            core_of: full,
            masks: full_masks,
            traffic,
            surrogate: judge.surrogate.value(&judge.merged, judge.input.platform, &p.core_of),
            score: Score::of(judge.input.objective, &o, traffic),
            outcome: Some(o),
            certificate,
        }
    }

    /// Global SMP within the constraints, replayed whole: every task on
    /// every core it may use (constraints stay hard).
    fn smp(&self, traffic: &Candidate) -> Candidate {
        let input = self.judge.input;
        let (masks, restricted) = input.problem.smp_masks(input.platform.cores);
        let core_of: Vec<CoreId> = masks
            .iter()
            .zip(&traffic.core_of)
            .map(|(m, &c)| if m.contains(c) { c } else { m.iter().next().unwrap_or(0) })
            .collect();
        let (cores, sets) = input.replay_placement(&core_of, Some(&masks));
        let setup = Setup {
            policy: if restricted { Policy::Masks } else { Policy::Smp },
            platform: input.platform,
            core_of: Some(&cores),
            masks: if restricted { sets.as_deref() } else { None },
            timeline: false,
        };
        let o = simulate(input.workload, &setup);
        Candidate {
            origin: Origin::GlobalSmp,
            steps: 0,
            kicks: 0,
            core_of,
            masks: Some(masks),
            traffic: traffic.traffic,
            surrogate: f64::NAN,
            score: Score::of(input.objective, &o, traffic.traffic),
            outcome: Some(o),
            certificate: None,
        }
    }
}

/// The best of `points` (the first among equals).
fn best_of(points: Vec<Point>) -> Option<Point> {
    points.into_iter().fold(None, |acc: Option<Point>, p| match acc {
        Some(a) if !p.score.beats(&a.score) => Some(a),
        _ => Some(p),
    })
}

/// What the last scan of the answer proves, or that its objective is 0.
fn certify(best: &Point, scan: Scan, neighbourhood: Neighbourhood) -> Certificate {
    if best.score.is_zero() {
        Certificate::Optimal(Proof::Zero)
    } else if scan.complete() {
        Certificate::LocalOptimum { neighbourhood, neighbours: scan.neighbours }
    } else {
        Certificate::Partial { neighbourhood, checked: scan.checked, neighbours: scan.neighbours }
    }
}

/// The judged probes as points (those the budget let through).
fn points_of(probes: Vec<(Origin, Probe)>, answers: Vec<Option<judge::Judged>>) -> Vec<Point> {
    probes
        .into_iter()
        .zip(answers)
        .filter_map(|((origin, probe), answer)| {
            answer.map(|j| Point {
                origin,
                steps: 0,
                kicks: 0,
                core_of: probe.core_of,
                masks: probe.masks,
                score: j.score,
                waits: j.waits,
            })
        })
        .collect()
}
