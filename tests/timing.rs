//! The timing search through its library API, on the printer workload cut
//! to one second (fast enough for many searches): the replay budget is
//! respected, the answer does not depend on the thread count, the
//! recommendation is never worse than global SMP on its objective, and each
//! objective is what the search improves.

use corera_placement::{Constraints, Objective, Platform, Problem};
use corera_replay::Policy;
use corera_replay::{Replay, Workload, generate};
use corera_search::{Options, portfolio};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::Schedule;
use corera_tune::{Score, TimingInput, TimingOptions, TimingSolution, tune};

use crate::repo;

/// The printer workload, one second of it, its graph's problem on two
/// cores, its replay (periods as deadlines) and the traffic optimum.
struct Case {
    problem: Problem,
    platform: Platform,
    replay: Replay,
    traffic: corera_search::Solution,
}

fn printer(ms: u64) -> Case {
    let text = std::fs::read_to_string(repo("samples/printer/workload.toml")).unwrap();
    let mut workload = Workload::from_toml(&text).unwrap();
    workload.duration_ms = ms;
    let trace = generate(&workload).unwrap();
    let schedule = Schedule::of(&trace);
    let (graph, _) = TaskGraph::from_schedule(&trace, &schedule).unwrap();
    let platform = Platform::identical(2);
    let problem = Problem::from_graph(&graph, &platform, &Constraints::default()).unwrap();
    let deadlines: Vec<Option<u64>> = graph.tasks.iter().map(|t| t.period_ns).collect();
    let replay = Replay::new(&trace, &schedule, &deadlines);
    let traffic = portfolio(&problem, &platform, &Options::default()).unwrap();
    Case { problem, platform, replay, traffic }
}

fn search(case: &Case, objective: Objective, budget: u64, masks: bool, threads: usize) -> TimingSolution {
    let input = TimingInput::new(&case.problem, &case.platform, objective, &case.replay, &case.traffic);
    let mut options = TimingOptions::default();
    options.budget = Some(budget);
    options.masks = masks;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| tune(&input, &options)).unwrap()
}

/// What a solution decides: the recommendation, each candidate's cores and
/// masks and scores, and the front.
fn decided(s: &TimingSolution, objective: Objective) -> String {
    let (best, choice, why) = s.recommendation(objective);
    let show = |c: &corera_tune::Candidate| {
        format!("{:?} {:?} {:?} {} {:?}", c.core_of, c.masks, c.score, c.label(), c.certificate)
    };
    format!(
        "{choice:?} {} | {why} | {} | {} | {} | {:?} | {}",
        show(best),
        show(&s.amp),
        s.masks.as_ref().map_or(String::new(), show),
        show(&s.smp),
        s.front,
        s.replays
    )
}

#[test]
fn the_replay_budget_is_respected_and_spent() {
    let case = printer(1000);
    for budget in [12, 40, 90] {
        let s = search(&case, Objective::Ready, budget, true, 2);
        assert!(s.replays <= budget, "{} replays with a budget of {budget}", s.replays);
        assert!(s.replays * 10 >= budget * 9, "only {} of {budget} replays used", s.replays);
        assert_eq!(s.budget, budget);
        assert!(!s.out_of_time);
    }
}

#[test]
fn the_answer_is_the_same_on_one_thread_and_on_four() {
    let case = printer(1000);
    for objective in [Objective::Ready, Objective::Response] {
        let one = search(&case, objective, 60, true, 1);
        let four = search(&case, objective, 60, true, 4);
        assert_eq!(decided(&one, objective), decided(&four, objective), "{objective:?}");
    }
}

#[test]
fn the_recommendation_is_never_worse_than_global_smp_or_the_traffic_optimum() {
    let case = printer(1000);
    for objective in [Objective::Ready, Objective::Response, Objective::Deadlines] {
        let s = search(&case, objective, 80, true, 2);
        let (best, choice, _) = s.recommendation(objective);
        let not_worse = |reference: &Score| best.score.primary <= reference.primary;
        assert!(not_worse(&s.smp.score), "{objective:?}: {:?} against SMP {:?}", best.score, s.smp.score);
        assert!(not_worse(&s.traffic.score), "{objective:?}: {:?} against traffic {:?}", best.score, s.traffic.score);
        // The best AMP placement improves on the traffic optimum it
        // started from, and every candidate was replayed whole.
        assert!(!s.traffic.score.beats(&s.amp.score), "{objective:?}");
        for c in [&s.amp, &s.smp, &s.traffic].into_iter().chain(s.masks.as_ref()) {
            assert!(c.outcome.is_some(), "{objective:?}: {} not replayed whole", c.label());
        }
        if choice == Policy::Masks {
            assert!(best.floats(), "{objective:?}: a mask recommendation floats some task");
        }
    }
}

#[test]
fn the_ready_objective_halves_the_traffic_optimums_ready_time() {
    let case = printer(1000);
    let s = search(&case, Objective::Ready, 120, false, 2);
    assert!(s.masks.is_none(), "masks were not asked for");
    let (best, choice, _) = s.recommendation(Objective::Ready);
    assert_eq!(choice, Policy::Amp);
    let traffic_ready = s.traffic.outcome.as_ref().unwrap().ready_ns;
    let ready = best.outcome.as_ref().unwrap().ready_ns;
    assert!(ready * 2 <= traffic_ready, "READY {ready} against the traffic optimum's {traffic_ready}");
    // What the score says is what the replay measured.
    assert_eq!(best.score.primary, ready as f64);
}

#[test]
fn the_traffic_objective_is_left_to_the_portfolio() {
    let case = printer(200);
    let input = TimingInput::new(&case.problem, &case.platform, Objective::Traffic, &case.replay, &case.traffic);
    assert!(tune(&input, &TimingOptions::default()).is_err());
}

#[test]
fn a_run_that_falls_behind_never_beats_one_that_keeps_up() {
    let case = printer(200);
    let cores = vec![0u16; case.replay.tasks.len()];
    let setup = corera_replay::Setup {
        policy: corera_replay::Policy::Single,
        platform: &case.platform,
        core_of: Some(&cores),
        masks: None,
        timeline: false,
    };
    let keeps_up = corera_replay::simulate(&case.replay, &setup);
    assert!(keeps_up.keeps_up());
    // Less waiting, but a tenth of the input left undone.
    let mut behind = keeps_up.clone();
    behind.sustained_rate = 0.9;
    behind.ready_ns /= 10;
    behind.response_mean_ns /= 10.0;
    for objective in [Objective::Ready, Objective::Response, Objective::Deadlines] {
        let (good, bad) = (Score::of(objective, &keeps_up, 0), Score::of(objective, &behind, 0));
        assert!(good.beats(&bad) && !bad.beats(&good), "{objective:?}: {good:?} against {bad:?}");
        assert!(!bad.close_to(&good) && !bad.no_worse_than(&good), "{objective:?}");
        assert!(corera_tune::describe(objective, &bad).ends_with("falling behind at 90.0 % of the input rate"));
    }
}
