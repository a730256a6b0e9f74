//! The baselines the timing search must beat, written as a new user would
//! write them in an afternoon, and the bundled inputs they run on.
//!
//! - [`naive`]: single-task moves from corera's own traffic-optimal
//!   placement, each judged by replaying the whole trace (what `corera
//!   simulate --policy amp --placement FILE` prints), the first
//!   improvement taken and the scan going on from there, until no move
//!   improves. Moves keep the same hard rules as corera's search (pins,
//!   allowed cores, tasks kept apart or together, each core's capacity),
//!   so the two answer the same question.
//! - [`naive_masks`]: the same with one core added to or taken from one
//!   task's mask, from the traffic optimum's cores as one-core masks.
//! - [`random_best`]: the best of 50 random placements within the same
//!   rules.
//!
//! Shared by the integration tests (`tests/search.rs`) and the benchmark
//! that measures the table on the book's performance page (`cargo bench
//! --bench baseline`).

use corera_placement::rng::SplitMix64;
use corera_placement::{CoreId, CoreSet, Cost, Objective, Placement, Platform, Problem};
use corera_replay::Replay;
use corera_search::Solution;
use corera_tune::{Score, TimingInput};

/// A bundled input, prepared as `corera analyze` prepares it.
pub(crate) struct Case {
    /// Its path in the repository.
    pub(crate) file: &'static str,
    pub(crate) problem: Problem,
    pub(crate) platform: Platform,
    pub(crate) workload: Replay,
    pub(crate) traffic: Solution,
    /// A model's own AMP mapping, when it has one.
    pub(crate) given: Option<Vec<CoreId>>,
    /// A model's own mapping as it states it (a core set per task), when
    /// it maps every task.
    pub(crate) model: Option<Vec<CoreSet>>,
}

/// Every bundled sample and every real trace and model, with the platform
/// each is analysed on. `shared/...` names data made by others, read in
/// place from `../shared/data/` (`corera_testdata::path`).
pub(crate) const INPUTS: [(&str, Option<&str>); 17] = [
    ("samples/printer/printer.log", Some("2")),
    ("samples/rp2-cluster/ecu.log", Some("rp2")),
    ("samples/tile64-daq/daq.log", Some("samples/tile64-daq/tile64.toml")),
    ("shared/traces/btf/app4mc_example1_task_only_short.btf", Some("2")),
    ("shared/traces/btf/app4mc_rtana2sim_vit.btf", Some("2")),
    ("shared/traces/btf/freertos_v11_rv64sim_2cores.btf", Some("2")),
    ("shared/traces/ftrace/android_sched_small.txt", Some("2")),
    ("shared/traces/ftrace/android_youtube_4cpu_atrace.txt", Some("2")),
    ("shared/traces/ftrace/lisa_juno_sched_load.trace-cmd-report.txt", Some("2")),
    ("samples/systemview/printer.SVDat", Some("2")),
    ("samples/tracealyzer/printer.psf", Some("2")),
    ("samples/tracealyzer/sampler.psf", Some("2")),
    ("tests/data/btf/spec_entities.btf", Some("2")),
    ("shared/amalthea/waters2019_challenge.amxmi", None),
    ("shared/amalthea/democar.amxmi", Some("2")),
    ("shared/amalthea/modeling_example_periodic_9.amxmi", None),
    ("shared/amalthea/modeling_example_feedback_loop_9.amxmi", None),
];

/// `file` (relative to `root`) prepared by the library as `corera
/// analyze` prepares it (`corera_pipeline::prepare`: priorities resolved,
/// the task graph, the model's hardware or `platform_spec`, its allowed
/// cores and deadlines, the kernel's rules), with its workload, the
/// traffic optimum and the model's own mapping.
pub(crate) fn case(root: &str, file: &'static str, platform_spec: Option<&'static str>) -> Case {
    let platform =
        platform_spec.map(|spec| if spec.ends_with(".toml") { format!("{root}/{spec}") } else { spec.into() });
    let options = corera_pipeline::Options { platform, ..corera_pipeline::Options::default() };
    let input = corera_pipeline::Input::file(corera_testdata::path(file));
    let prepared = corera_pipeline::prepare(&input, &options).expect("prepares");
    let (workload, _) = prepared.workload().expect("a workload");
    let traffic = corera_pipeline::search(&prepared.problem, &prepared.platform, &options).expect("a traffic optimum");
    let mapping = corera_pipeline::model_mapping(&prepared);
    let given = mapping.as_ref().filter(|m| m.masks.is_none()).map(|m| m.core_of.clone());
    let model = mapping.map(|m| m.masks.unwrap_or_else(|| m.core_of.iter().map(|&c| CoreSet::one(c)).collect()));
    let corera_pipeline::Prepared { problem, platform, .. } = prepared;
    Case { file, problem, platform, workload, traffic, given, model }
}

/// What a baseline found: its placement, its score on the whole trace,
/// and the replays it took.
pub(crate) struct Found {
    pub(crate) core_of: Vec<CoreId>,
    pub(crate) masks: Option<Vec<CoreSet>>,
    pub(crate) score: Score,
    pub(crate) replays: u64,
}

/// The rules a move keeps: pins and allowed cores, tasks kept apart and
/// together, and each core's capacity as corera's search keeps it (no
/// more load above the cores' capacities than the traffic optimum has).
struct Rules<'a> {
    case: &'a Case,
    limits: Vec<u64>,
    over: u64,
}

impl<'a> Rules<'a> {
    fn new(case: &'a Case) -> Rules<'a> {
        let p = &case.problem;
        let limits = case.platform.capacity_limits(p.horizon_ns);
        let mut rules = Rules { case, limits, over: 0 };
        rules.over = rules.overload(&case.traffic.placement.core_of);
        rules
    }

    fn overload(&self, core_of: &[CoreId]) -> u64 {
        let cost = Cost::of(&self.case.problem, &self.case.platform, &Placement::new(core_of.to_vec()));
        cost.core_load_ns.iter().zip(&self.limits).map(|(&l, &m)| l.saturating_sub(m)).sum()
    }

    fn ok(&self, core_of: &[CoreId]) -> bool {
        self.case.problem.violations(&Placement::new(core_of.to_vec())).is_empty()
            && self.overload(core_of) <= self.over
    }
}

/// The score of a placement (and its masks) replayed on the whole trace.
pub(crate) fn replay(input: &TimingInput<'_>, core_of: &[CoreId], masks: Option<&[CoreSet]>) -> Score {
    let o = input.replay(core_of, masks, false);
    Score::of(input.objective, &o, input.problem.cross_traffic(input.platform, core_of))
}

/// corera's timing search on a case as `corera analyze` runs it: the
/// model's mapping as a start, the default (automatic) budget, masks
/// searched.
pub(crate) fn search(case: &Case, objective: Objective) -> corera_tune::TimingSolution {
    search_within(case, objective, None)
}

/// [`search`] with a budget of `budget` replays (`None`: the automatic one).
pub(crate) fn search_within(case: &Case, objective: Objective, budget: Option<u64>) -> corera_tune::TimingSolution {
    let mut input = input(case, objective);
    input.given.extend(case.given.clone());
    let mut options = corera_tune::TimingOptions::default();
    options.masks = true;
    options.budget = budget;
    corera_tune::tune(&input, &options).expect("a timing search")
}

/// The timing input of a case.
pub(crate) fn input(case: &Case, objective: Objective) -> TimingInput<'_> {
    TimingInput::new(&case.problem, &case.platform, objective, &case.workload, &case.traffic)
}

/// Moves a task with the members of its group kept together.
fn moved(case: &Case, core_of: &[CoreId], i: usize, c: CoreId) -> Vec<CoreId> {
    let mut next = core_of.to_vec();
    next[i] = c;
    for group in &case.problem.together {
        if group.contains(&(i as u32)) {
            for &j in group {
                next[j as usize] = c;
            }
        }
    }
    next
}

/// First-improvement single-task moves from the traffic optimum, each
/// judged by a replay of the whole trace, scanning tasks and cores in
/// order (and on from the move taken), until a whole round finds none that
/// improves.
pub(crate) fn naive(case: &Case, objective: Objective) -> Found {
    let rules = Rules::new(case);
    let input = input(case, objective);
    let (n, k) = (case.problem.len(), usize::from(case.platform.cores));
    let mut at = case.traffic.placement.core_of.clone();
    let mut score = replay(&input, &at, None);
    let mut replays = 1;
    // Moves in a fixed cycle: (task, core), task by task.
    let (mut pos, mut since) = (0usize, 0usize);
    while since < n * k {
        let (i, c) = (pos / k, (pos % k) as CoreId);
        pos = (pos + 1) % (n * k);
        since += 1;
        if c == at[i] {
            continue;
        }
        let next = moved(case, &at, i, c);
        if !rules.ok(&next) {
            continue;
        }
        let s = replay(&input, &next, None);
        replays += 1;
        if s.beats(&score) {
            (at, score, since) = (next, s, 0);
        }
    }
    Found { core_of: at, masks: None, score, replays }
}

/// First-improvement one-core changes of one task's mask (a core the task
/// may use added, or one of two or more taken away; ISRs, pinned tasks
/// and tasks kept apart or together keep one core), from the traffic
/// optimum's cores as one-core masks, scanned as [`naive`] scans, until a
/// whole round finds none that improves.
pub(crate) fn naive_masks(case: &Case, objective: Objective) -> Found {
    let p = &case.problem;
    let input = input(case, objective);
    let floats: Vec<bool> = (0..p.len())
        .map(|i| {
            !p.isr[i]
                && p.pinned[i].is_none()
                && p.apart[i].is_empty()
                && !p.together.iter().any(|g| g.contains(&(i as u32)))
        })
        .collect();
    let home = case.traffic.placement.core_of.clone();
    let judge = |masks: &[CoreSet], home: &[CoreId]| {
        Score::of(objective, &input.replay(home, Some(masks), false), p.cross_traffic(&case.platform, home))
    };
    let rules = Rules::new(case);
    let mut masks: Vec<CoreSet> = home.iter().map(|&c| CoreSet::one(c)).collect();
    let mut home = home;
    let mut score = judge(&masks, &home);
    let mut replays = 1;
    let (n, k) = (p.len(), usize::from(case.platform.cores));
    let (mut pos, mut since) = (0usize, 0usize);
    while since < n * k {
        let (i, c) = (pos / k, (pos % k) as CoreId);
        pos = (pos + 1) % (n * k);
        since += 1;
        if !floats[i] {
            continue;
        }
        let mut next = masks.clone();
        let mut next_home = home.clone();
        if masks[i].contains(c) {
            if masks[i].len() < 2 {
                continue;
            }
            next[i].remove(c);
            if next_home[i] == c {
                next_home[i] = next[i].first().expect("a core left");
            }
            if !rules.ok(&next_home) {
                continue;
            }
        } else if p.allows(i, usize::from(c)) {
            next[i].insert(c);
        } else {
            continue;
        }
        let s = judge(&next, &next_home);
        replays += 1;
        if s.beats(&score) {
            (masks, home, score, since) = (next, next_home, s, 0);
        }
    }
    Found { core_of: home, masks: Some(masks), score, replays }
}

/// The best of `count` random placements within the rules (each task on a
/// random core it may use; drawn again when the rules are broken, up to a
/// thousand draws each), seeded.
pub(crate) fn random_best(case: &Case, objective: Objective, count: usize, seed: u64) -> Option<Found> {
    let rules = Rules::new(case);
    let p = &case.problem;
    let input = input(case, objective);
    let mut rng = SplitMix64::new(seed);
    let mut best: Option<Found> = None;
    let mut replays = 0;
    for _ in 0..count {
        let draw = (0..1000).find_map(|_| {
            let mut core_of: Vec<CoreId> = (0..p.len())
                .map(|i| {
                    let allowed = p.cores_allowed(i, case.platform.cores);
                    let list: Vec<CoreId> = allowed.iter().collect();
                    list[rng.below(list.len() as u64) as usize]
                })
                .collect();
            for group in &p.together {
                let c = core_of[group[0] as usize];
                for &j in group {
                    core_of[j as usize] = c;
                }
            }
            rules.ok(&core_of).then_some(core_of)
        });
        let Some(core_of) = draw else { continue };
        let score = replay(&input, &core_of, None);
        replays += 1;
        if best.as_ref().is_none_or(|b| score.beats(&b.score)) {
            best = Some(Found { core_of, masks: None, score, replays });
        }
    }
    best.map(|b| Found { replays, ..b })
}
