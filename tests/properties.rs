//! Laws that hold across the pipeline crates, on random workloads run
//! through the single-core generator.

use corera_placement::{Constraints, Cost, Platform, Problem};
use corera_replay::{ActionSpec, TaskSpec, Workload, generate};
use corera_search::{Options, portfolio};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{EventKind, FormatChoice, ReadOptions, TaskKind, corera_log, read};
use proptest::prelude::*;

fn action(at: f64, every: u32) -> ActionSpec {
    ActionSpec { at, every, send: None, bytes: None, notify: None, lock: None, hold: None }
}

prop_compose! {
    fn arb_task(i: usize, n: usize)(
        priority in 1i32..10,
        period in proptest::option::weighted(0.6, 200u64..3000),
        min in 1u64..300,
        extra in 0u64..300,
        send_to in proptest::option::of(0..n),
        at in 0.0f64..1.0,
        every in 1u32..4,
        lock in proptest::option::of((0usize..2, 0.0f64..0.5)),
        isr in proptest::bool::weighted(0.15),
    ) -> TaskSpec {
        let mut actions = Vec::new();
        if let Some(q) = send_to {
            actions.push(ActionSpec { send: Some(format!("q{q}")), bytes: Some(8), ..action(at, every) });
        }
        if let (Some((m, hold)), false) = (lock, isr) {
            actions.push(ActionSpec { lock: Some(format!("m{m}")), hold: Some(hold), ..action(at * 0.5, 1) });
        }
        let isr = isr && period.is_some();
        TaskSpec {
            name: format!("T{i}"),
            count: None,
            kind: if isr { "isr".into() } else { "task".into() },
            priority,
            period_us: period,
            offset_us: 0,
            jitter_us: 0,
            trigger: if period.is_some() { None } else { Some(format!("queue:q{i}")) },
            exec_us: [min, min + extra],
            actions,
        }
    }
}

fn arb_workload() -> impl Strategy<Value = Workload> {
    (2usize..7).prop_flat_map(|n| {
        let tasks: Vec<_> = (0..n).map(|i| arb_task(i, n)).collect();
        (tasks, any::<u64>()).prop_map(|(mut tasks, seed)| {
            // Sends to a periodic task's queue have no receiver: drop them.
            let receivers: Vec<String> = tasks.iter().filter_map(|t| t.trigger.clone()).collect();
            for t in &mut tasks {
                t.actions.retain(|a| a.send.as_ref().is_none_or(|q| receivers.contains(&format!("queue:{q}"))));
            }
            Workload { name: "random".into(), duration_ms: 30, seed, clock: "us".into(), tasks }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generated_traces_account_for_every_nanosecond(workload in arb_workload()) {
        let trace = generate(&workload).unwrap();
        let (graph, warnings) = TaskGraph::build(&trace).unwrap();
        prop_assert!(warnings.iter().all(|w| w.message.contains("still queued")), "{:?}", warnings);
        // One core: RUNNING of all tasks, ISRs and the idle task adds up to
        // the traced span exactly.
        let total: u64 = graph.tasks.iter().map(|t| t.running_ns).sum();
        prop_assert_eq!(total, graph.duration_ns);
        // Completed jobs are the finished events (ISR exits for ISRs).
        for t in &graph.tasks {
            let kind = if t.kind == TaskKind::Isr { EventKind::IsrExit } else { EventKind::Finished };
            let finished = trace.events.iter().filter(|e| e.task == t.id && e.kind == kind).count() as u64;
            prop_assert_eq!(t.jobs, finished, "task {}", t.name);
        }
        // Every received message has its sender edge.
        let received = trace.events.iter().filter(|e| e.kind == EventKind::Receive).count() as u64;
        let messages: u64 = graph.edges.iter().map(|e| e.messages).sum();
        let self_messages = trace.events.iter().filter(|e| e.kind == EventKind::Send && {
            let receiver = workload.tasks.iter().position(|t| t.trigger.as_deref() == Some(&format!("queue:{}", trace.objects[e.object as usize].name)));
            receiver == Some(e.task as usize)
        }).count() as u64;
        prop_assert!(messages + self_messages >= received);
    }

    #[test]
    fn the_log_round_trip_keeps_the_task_graph(workload in arb_workload()) {
        let trace = generate(&workload).unwrap();
        let mut text = Vec::new();
        corera_log::write(&trace, &mut text).unwrap();
        let again = read(&mut &text[..], FormatChoice::AUTO, &ReadOptions::new("r.log")).unwrap().trace;
        prop_assert_eq!(&again, &trace);
        prop_assert_eq!(TaskGraph::build(&again).unwrap().0, TaskGraph::build(&trace).unwrap().0);
    }

    #[test]
    fn placements_put_every_task_on_one_allowed_core(workload in arb_workload(), cores in 1u16..4) {
        let trace = generate(&workload).unwrap();
        let (graph, _) = TaskGraph::build(&trace).unwrap();
        let platform = Platform::identical(cores);
        let problem = Problem::from_graph(&graph, &platform, &Constraints::default()).unwrap();
        let solution = portfolio(&problem, &platform, &Options::default()).unwrap();
        prop_assert_eq!(solution.placement.core_of.len(), problem.len());
        for (i, &c) in solution.placement.core_of.iter().enumerate() {
            prop_assert!(c < cores);
            prop_assert!(problem.pinned[i].is_none_or(|p| p == c));
        }
        let cost = Cost::of(&problem, &platform, &solution.placement);
        prop_assert_eq!(cost.score, solution.score);
        prop_assert_eq!(cost.core_load_ns.iter().sum::<u64>(), problem.total_load());
        prop_assert!(solution.proven_optimal);
    }
}
