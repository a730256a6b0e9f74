//! The comparison by task kind, and the fit recovering costs it was made
//! with.

use corera_placement::{Costs, Platform};
use corera_trace_ingest::{FormatChoice, ReadOptions, Schedule, read};

use super::{Comparison, FITTED, KindRow, Reference, fit, kind_of};
use crate::{Policy, Replay, Setup, Workload, generate, simulate};

#[test]
fn a_kind_is_a_name_less_its_instance_number() {
    assert_eq!(kind_of("CS#5"), "CS");
    assert_eq!(kind_of("CS#10"), "CS");
    assert_eq!(kind_of("Runner"), "Runner");
    assert_eq!(kind_of("a#b"), "a#b");
    assert_eq!(kind_of("#3"), "#3");
    assert_eq!(kind_of("Q#"), "Q#");
}

/// A recording of two instances of one kind and another task: the kind's
/// mean response is over every job of both instances, the idle task is no
/// kind, and the makespan is the recording's covered time.
#[test]
fn the_reference_pools_the_instances_of_a_kind() {
    let log = "corera-log 1 clock=us\ntask 1 task 2 W#1\ntask 2 task 2 W#2\ntask 3 task 1 Log\ntask 9 idle 0 IDLE1\n\
               0 0 rdy 1\n0 0 in 1\n0 1 rdy 2\n0 1 in 2\n10 0 out 1 done\n30 1 out 2 done\n30 1 in 9\n\
               40 0 rdy 3\n40 0 in 3\n45 0 out 3 done\n50 0 rdy 1\n50 0 in 1\n70 0 out 1 done\n";
    let trace = read(&mut log.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("t.log")).unwrap().trace;
    let schedule = Schedule::of(&trace);
    let reference = Reference::of(&trace, &schedule);
    assert_eq!(reference.cores, 2);
    assert_eq!(reference.makespan_ns, 70_000);
    let r = Replay::from_trace(&trace, &[]);
    let platform = Platform { costs: Costs::none(), ..Platform::identical(2) };
    let o =
        simulate(&r, &Setup { policy: Policy::Smp, platform: &platform, core_of: None, masks: None, timeline: false });
    let c = Comparison::of(&r, &o, &reference);
    let rows: Vec<(&str, usize, Option<f64>)> =
        c.kinds.iter().map(|k| (k.kind.as_str(), k.instances, k.recorded_ns)).collect();
    // W: 10, 30 and 20 µs.
    assert_eq!(rows, [("Log", 1, Some(5_000.0)), ("W", 2, Some(20_000.0))]);
    assert_eq!((c.compared(), c.within(0.1)), (2, 2), "{c:?}");
    let jobs: Vec<(u64, u64)> = c.kinds.iter().map(|k| (k.recorded_jobs, k.predicted_jobs)).collect();
    assert_eq!(jobs, [(1, 1), (3, 3)]);
    assert!(c.kinds.iter().all(|k| !k.cut_otherwise() && k.summed_error() == Some(0.0)), "{c:?}");
    assert!(c.idle_cores.is_empty(), "W#1 and W#2 run side by side: {c:?}");
}

/// A kind the replay cut into other jobs than recorded: 17 jobs of 2.2 ms
/// recorded, 48 of 0.7 ms replayed, their mean 68 % short where their
/// summed response is 10 % short; 11 jobs against 10 is within a tenth.
#[test]
fn a_kind_cut_into_other_jobs_says_so_with_its_summed_response() {
    let row = |recorded_jobs, predicted_jobs, predicted_ns| KindRow {
        kind: "QC".into(),
        instances: 3,
        recorded_ns: Some(2_200_000.0),
        predicted_ns: Some(predicted_ns),
        recorded_jobs,
        predicted_jobs,
    };
    let qc = row(17, 48, 701_250.0);
    assert!(qc.cut_otherwise());
    assert!((qc.error().unwrap() + 0.681).abs() < 1e-3, "{:?}", qc.error());
    assert!((qc.summed_error().unwrap() + 0.1).abs() < 1e-9, "{:?}", qc.summed_error());
    assert!(!row(10, 11, 2_000_000.0).cut_otherwise());
    assert!(!row(10, 0, 2_000_000.0).cut_otherwise(), "no replayed job: nothing to compare");
}

/// A pipeline of queues beside two independent tasks, replayed on two
/// cores with a known kernel lock, is the reference; the fit, started from
/// no costs, finds costs that reproduce it and the lock among them.
#[test]
fn the_fit_recovers_the_costs_a_run_was_made_with() {
    let w = Workload::from_toml(
        r#"
        name = "pipe"
        duration_ms = 40
        [[task]]
        name = "Src"
        priority = 5
        period_us = 1000
        exec_us = [100, 140]
        actions = [{ at = 1.0, send = "q1", bytes = 8 }]
        [[task]]
        name = "Mid"
        priority = 4
        trigger = "queue:q1"
        exec_us = [150, 200]
        actions = [{ at = 1.0, send = "q2", bytes = 8 }]
        [[task]]
        name = "Sink"
        priority = 3
        trigger = "queue:q2"
        exec_us = [80, 120]
        [[task]]
        name = "Work{i}"
        count = 2
        priority = 2
        period_us = 2000
        exec_us = [300, 500]
        "#,
    )
    .unwrap();
    let r = Replay::from_trace(&generate(&w).unwrap(), &[]);
    let mut truth = Costs::none();
    truth.set("lock.switch_ns", 16_000.0).unwrap();
    truth.set("lock.signal_ns", 4_000.0).unwrap();
    let made = Platform { costs: truth.clone(), ..Platform::identical(2) };
    let setup = Setup { policy: Policy::Smp, platform: &made, core_of: None, masks: None, timeline: false };
    let run = simulate(&r, &setup);
    let reference = Reference::of_replay(&r, &run, 2);
    let start = Platform { costs: Costs::none(), ..Platform::identical(2) };
    let f = fit(&r, &start, &reference);
    assert!(!f.before.good(), "no costs do not reproduce it: {:?}", f.before);
    assert!(f.after.good(), "{:?}", f.after);
    assert_eq!(f.after.within(0.01), f.after.compared(), "{:?}", f.after);
    assert!(f.after.makespan_error().abs() < 0.001, "{:?}", f.after);
    assert_eq!(f.costs.lock.switch_ns, 16_000, "{:?}", f.costs);
    assert!(f.replays > FITTED.len(), "{}", f.replays);
    // Deterministic.
    assert_eq!(fit(&r, &start, &reference), f);
}
