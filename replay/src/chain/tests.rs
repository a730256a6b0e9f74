//! Chains measured in the replay: against the tasks' own figures, the work
//! they contain, and the recording.

use corera_placement::{Chain, ChainKind, Platform};
use corera_trace_ingest::{Action, FormatChoice, ReadOptions, Trace, read};
use proptest::prelude::*;

use crate::{ChainOrigin, Outcome, Policy, Replay, Setup, Workload, discover, generate, simulate};

fn load(path: &str) -> Trace {
    let text = std::fs::read(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    read(&mut &text[..], FormatChoice::AUTO, &ReadOptions::new(path)).unwrap().trace
}

fn run(r: &Replay, policy: Policy, cores: u16) -> Outcome {
    let platform = Platform::identical(cores);
    let core_of: Vec<u16> = (0..r.tasks.len()).map(|i| (i % usize::from(cores)) as u16).collect();
    simulate(r, &Setup { policy, platform: &platform, core_of: Some(&core_of), masks: None, timeline: false })
}

fn chain(name: &str, tasks: &[&str], deadline_ms: Option<f64>) -> (Chain, ChainOrigin) {
    of_kind(ChainKind::Triggered, name, tasks, deadline_ms)
}

fn of_kind(kind: ChainKind, name: &str, tasks: &[&str], deadline_ms: Option<f64>) -> (Chain, ChainOrigin) {
    let tasks = tasks.iter().map(|t| t.to_string()).collect();
    (Chain { name: name.into(), tasks, deadline_ms, kind }, ChainOrigin::User)
}

/// A pipeline `Src > T1 > ... > T{n-1}`: `Src` on a timer, each task
/// notifying the next, and (with `noise`) a busy periodic task beside it.
fn pipeline(seed: u64, prios: &[u32], execs: &[u64], period_us: u64, noise: bool) -> Workload {
    let n = prios.len();
    let mut text = format!("name = \"p\"\nduration_ms = 60\nseed = {seed}\n");
    for i in 0..n {
        let release = if i == 0 { format!("period_us = {period_us}") } else { "trigger = \"notify\"".into() };
        text.push_str(&format!(
            "[[task]]\nname = \"T{i}\"\npriority = {}\n{release}\nexec_us = [{}, {}]\n",
            prios[i],
            execs[i],
            execs[i] + 40
        ));
        if i + 1 < n {
            text.push_str(&format!("actions = [{{ at = 0.6, notify = \"T{}\" }}]\n", i + 1));
        }
    }
    if noise {
        text.push_str("[[task]]\nname = \"Noise\"\npriority = 3\nperiod_us = 700\nexec_us = [150, 250]\n");
    }
    Workload::from_toml(&text).unwrap()
}

/// The least execution an instance needs: along each path of caused
/// jobs, each job's execution from the phase that was released to the
/// signal that releases the next job, then the whole rest of the last job
/// (the work a chain cannot do in parallel, whatever the cores); the least
/// over the paths.
fn work_along(r: &Replay, tasks: &[u32], job: u32, from_phase: usize) -> u64 {
    let phases = &r.tasks[tasks[0] as usize].jobs[job as usize].phases[from_phase..];
    let Some(&next) = tasks.get(1) else { return phases.iter().map(|p| p.exec_ns).sum() };
    let mut before = 0;
    let mut least = None::<u64>;
    for p in phases {
        for &(at, a) in &p.actions {
            if let Action::Signal { target, job, phase, .. } = a
                && target == next
            {
                let w = before + at + work_along(r, &tasks[1..], job, phase as usize);
                least = Some(least.map_or(w, |l| l.min(w)));
            }
        }
        before += p.exec_ns;
    }
    least.unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Under every policy, on one to three cores: a chain of one task has
    /// that task's response times; every instance of a longer chain takes
    /// at least the execution its jobs did one after another (each up to
    /// the signal that released the next, the last one whole); none is
    /// left unfinished (one cut off by the end of the trace is no instance);
    /// a deadline counts the instances over it.
    #[test]
    fn chains_agree_with_their_tasks_and_their_work(
        seed in 0u64..500,
        prios in proptest::collection::vec(1u32..6, 4),
        execs in proptest::collection::vec(50u64..400, 4),
        cores in 1u16..4,
    ) {
        let trace = generate(&pipeline(seed, &prios, &execs, 2000, true)).unwrap();
        let mut r = Replay::from_trace(&trace, &[]);
        r.set_chains(&[
            chain("one", &["T1"], None),
            chain("all", &["T0", "T1", "T2", "T3"], Some(0.6)),
            of_kind(ChainKind::Reaction, "one", &["T1"], None),
            of_kind(ChainKind::Age, "one", &["T1"], None),
        ])
        .unwrap();
        for policy in Policy::ALL {
            let o = run(&r, policy, cores);
            // Of every kind: a data chain of one task reads and writes
            // within each job.
            let t1 = &o.tasks[1];
            for one in [&o.chains[0], &o.chains[2], &o.chains[3]] {
                prop_assert_eq!(one.instances, t1.jobs, "{:?}", policy);
                prop_assert_eq!(
                    (one.latency_mean_ns, one.latency_p95_ns, one.latency_max_ns, one.latency_quartiles_ns),
                    (t1.response_mean_ns, t1.response_p95_ns, t1.response_max_ns, t1.response_quartiles_ns),
                    "{:?}", policy
                );
            }
            let all = &o.chains[1];
            prop_assert_eq!(r.chains[1].tasks[0], 0, "T0 is the first replay task: its global job indices are its own");
            for ((job, _), latency) in r.chains[1].instances().zip(&all.latencies_ns) {
                if let Some(l) = latency {
                    let work = work_along(&r, &r.chains[1].tasks, job, 0);
                    prop_assert!(work > 0);
                    prop_assert!(*l >= work, "{:?}: instance of job {} took {} < its work {}", policy, job, l, work);
                }
            }
            // The replay finishes every job the trace saw finish; an
            // instance cut off by the end of the trace is none at all.
            prop_assert_eq!(all.unfinished, 0, "{:?}", policy);
            let over = all.latencies_ns.iter().flatten().filter(|&&l| l > 600_000).count() as u64;
            prop_assert_eq!(all.deadline_misses, Some(over));
        }
    }

    /// With nothing else on the core, the single-core replay of a chain is
    /// the recording's, instance by instance.
    #[test]
    fn one_core_without_contention_replays_the_recorded_chain(
        seed in 0u64..500,
        prios in proptest::collection::vec(1u32..6, 3),
        execs in proptest::collection::vec(50u64..400, 3),
    ) {
        let trace = generate(&pipeline(seed, &prios, &execs, 3000, false)).unwrap();
        let mut r = Replay::from_trace(&trace, &[]);
        r.set_chains(&[chain("c", &["T0", "T1", "T2"], None)]).unwrap();
        let recorded = r.recorded_chains();
        let replayed = run(&r, Policy::Single, 1);
        prop_assert!(recorded[0].instances >= 15);
        prop_assert_eq!(&recorded[0].latencies_ns, &replayed.chains[0].latencies_ns);
    }
}

/// The printer's page pipeline is found from the trace alone, and the
/// single-core replay gives it the recorded latency within 1 %.
#[test]
fn the_printer_page_pipeline_is_discovered() {
    let mut r = Replay::from_trace(&load("samples/printer/printer.log"), &[]);
    let found = discover(&r, 5);
    let page = [
        "NetRxIsr",
        "NetStack",
        "JobParser",
        "PdlInterp",
        "Rasterizer",
        "ColorConv",
        "Halftone",
        "Compressor",
        "BandDma",
        "PrintEngine",
    ];
    assert_eq!(found[0].tasks, page);
    assert_eq!(found[0].name, "NetRxIsr..PrintEngine");
    // No chain is part of another, and none follows a mutex hand-over.
    assert!(found.iter().all(|c| c.tasks.len() >= 3 && !c.tasks.contains(&"MotorPaper".to_string())), "{found:?}");
    r.set_chains(&found.into_iter().map(|c| (c, ChainOrigin::Discovered)).collect::<Vec<_>>()).unwrap();
    let recorded = r.recorded_chains();
    let single = run(&r, Policy::Single, 1);
    let (a, b) = (recorded[0].latency_mean_ns.unwrap() as f64, single.chains[0].latency_mean_ns.unwrap() as f64);
    assert!(recorded[0].instances > 1000 && (a - b).abs() <= a * 0.01, "{a} vs {b}");
    // Two cores shorten it.
    let smp = run(&r, Policy::Smp, 2);
    assert!(smp.chains[0].latency_p95_ns < single.chains[0].latency_p95_ns);
}

/// A chain naming a task the trace does not have is refused with the name.
#[test]
fn unknown_tasks_are_named() {
    let mut r = Replay::from_trace(&load("samples/printer/printer.log"), &[]);
    let e = r.set_chains(&[chain("c", &["NetRxIsr", "Nope"], None)]).unwrap_err();
    assert_eq!(e, crate::ReplayError::UnknownChainTask { chain: "c".into(), task: "Nope".into() });
    assert!(e.to_string().contains("chain `c`") && e.to_string().contains("no task `Nope`"), "{e}");
}

/// Three LET tasks passing data on (TORO's example chain: 5 ms, 5 ms and
/// 10 ms periods, LETs of 4, 5 and 8 ms, priorities that let each job
/// end within its LET beside a busy task): the latencies are fixed by
/// periods and LETs whatever runs where. Data age: every 10 ms job of the
/// last task reads data the first task read 10 ms before its release
/// (through the middle task's job released 5 ms before), and writes 8 ms
/// after its release: 18 ms. Reaction: a first job released at a multiple
/// of 10 ms reaches the last task in 18 ms; one released 5 ms later misses
/// that read and waits for the next: 23 ms.
#[test]
fn let_chains_have_the_latency_periods_and_lets_fix() {
    let w = Workload::from_toml(
        "name = \"let\"\nduration_ms = 200\n\
         [[task]]\nname = \"T7\"\npriority = 5\nperiod_us = 5000\nexec_us = [300, 900]\n\
         [[task]]\nname = \"T8\"\npriority = 4\nperiod_us = 5000\nexec_us = [200, 700]\n\
         [[task]]\nname = \"T9\"\npriority = 3\nperiod_us = 10000\nexec_us = [500, 2500]\n\
         [[task]]\nname = \"Busy\"\npriority = 2\nperiod_us = 3000\nexec_us = [100, 1200]\n",
    )
    .unwrap();
    let mut r = Replay::from_trace(&generate(&w).unwrap(), &[]);
    r.set_let(&[("T7".into(), 4_000_000), ("T8".into(), 5_000_000), ("T9".into(), 8_000_000)]);
    r.set_chains(&[
        of_kind(ChainKind::Age, "age", &["T7", "T8", "T9"], Some(18.0)),
        of_kind(ChainKind::Reaction, "reaction", &["T7", "T8", "T9"], None),
    ])
    .unwrap();
    for (policy, cores) in [(Policy::Single, 1), (Policy::Smp, 2), (Policy::Amp, 3)] {
        let o = run(&r, policy, cores);
        let (age, reaction) = (&o.chains[0], &o.chains[1]);
        assert!(age.instances >= 18, "{policy:?}: {}", age.instances);
        assert_eq!((age.latency_quartiles_ns.unwrap()[0], age.latency_max_ns), (18_000_000, Some(18_000_000)));
        assert_eq!(age.deadline_misses, Some(0), "the deadline is met exactly");
        let values: std::collections::BTreeSet<u64> = reaction.latencies_ns.iter().flatten().copied().collect();
        assert_eq!(values.into_iter().collect::<Vec<_>>(), [18_000_000, 23_000_000], "{policy:?}");
    }
    // Implicit communication instead: the same chain's data age now
    // depends on when the jobs ran, and is shorter than the LETs make it.
    let mut implicit = Replay::from_trace(&generate(&w).unwrap(), &[]);
    implicit.set_chains(&[of_kind(ChainKind::Age, "age", &["T7", "T8", "T9"], None)]).unwrap();
    let o = run(&implicit, Policy::Single, 1);
    assert!(o.chains[0].latency_max_ns.unwrap() < 18_000_000 && o.chains[0].instances >= 18);
}
