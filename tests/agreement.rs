//! The task graph and the replay read one job model: on every sample, every
//! real trace in the repository and random traces, the task graph's
//! RUNNING, READY, activations, jobs and response times per task equal what
//! the replay's workload records, exactly.

use corera_replay::{Replay, Workload, generate};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{
    Event, EventKind, FormatChoice, NONE, Object, ObjectKind, ReadOptions, ResponseStats, Task, TaskKind, Trace, read,
};
use proptest::prelude::*;

use crate::repo;

/// Each entry point builds its own schedule, as the pipeline's callers may.
fn disagreements(trace: &Trace) -> Vec<String> {
    let (graph, _) = TaskGraph::build(trace).unwrap();
    let replay = Replay::from_trace(trace, &[]);
    let mut out = Vec::new();
    for t in &replay.tasks {
        let m = &graph.tasks[t.id as usize];
        let mut responses: Vec<u64> = t.jobs.iter().filter_map(|j| j.response_ns()).collect();
        let stats = ResponseStats::of(&mut responses);
        let replay_side = (
            t.recorded_running_ns,
            t.recorded_ready_ns,
            t.jobs.len() as u64,
            responses.len() as u64,
            stats.map(|s| s.mean_ns),
            stats.map(|s| s.p95_ns),
            stats.map(|s| s.max_ns),
        );
        let graph_side =
            (m.running_ns, m.ready_ns, m.activations, m.jobs, m.response_mean_ns, m.response_p95_ns, m.response_max_ns);
        if replay_side != graph_side {
            out.push(format!("{}: replay {replay_side:?} graph {graph_side:?}", t.name));
        }
    }
    if replay.index_of.iter().filter(|&&i| i != u32::MAX).count() != replay.tasks.len() {
        out.push("index_of does not match the replay's tasks".into());
    }
    out
}

/// Every trace file (`.log`, `.btf`, `.txt`) under `dirs`.
fn sample_traces(mut dirs: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "expected") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "log" || e == "btf" || e == "txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn task_graph_and_replay_agree_on_every_sample_and_real_trace() {
    let files = sample_traces(vec![repo("samples")]);
    assert!(files.len() >= 3, "{files:?}");
    check_agreement(files);
    // The real BTF and ftrace traces, made by others.
    let real = corera_testdata::shared_or_skip!("traces");
    let files = sample_traces(vec![real.join("btf"), real.join("ftrace")]);
    assert!(files.len() >= 6, "{files:?}");
    check_agreement(files);
}

/// The task graph and the replay agree on every job of each file.
fn check_agreement(files: Vec<std::path::PathBuf>) {
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let trace = read(&mut &bytes[..], FormatChoice::AUTO, &ReadOptions::new(&name)).unwrap().trace;
        let bad = disagreements(&trace);
        assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
    }
}

/// A random event stream on up to three cores, with idle tasks, ISRs,
/// lost and out-of-place switches, messages, wakeups and mutexes: nothing a
/// scheduler would record in this order, which is the point.
fn arb_trace() -> impl Strategy<Value = Trace> {
    let event = (0u64..50, 0u16..3, 0usize..EventKind::ALL.len(), 0u32..6, 0u32..7, 0u32..3);
    (proptest::collection::vec(event, 0..300), proptest::bool::ANY).prop_map(|(events, finishes)| {
        let mut trace = Trace::new(corera_trace_ingest::Clock::Ns);
        for (i, kind) in [TaskKind::Task, TaskKind::Task, TaskKind::Task, TaskKind::Isr, TaskKind::Isr, TaskKind::Idle]
            .into_iter()
            .enumerate()
        {
            trace.tasks.push(Task { name: format!("T{i}"), kind, priority: Some(i as i32), handle: i as u64 });
        }
        trace.objects.push(Object { name: "q".into(), kind: ObjectKind::Queue });
        trace.objects.push(Object { name: "m".into(), kind: ObjectKind::Mutex });
        let mut time = 0;
        for (dt, core, kind, task, peer, object) in events {
            time += dt;
            let mut kind = EventKind::ALL[kind];
            if kind == EventKind::Finished && !finishes {
                kind = EventKind::Blocked;
            }
            let mut e = Event::new(time, core, kind, task);
            if peer < 6 {
                e = e.with_peer(peer);
            }
            if object < 2 {
                e = e.with_object(object);
            }
            if kind == EventKind::Send && e.bytes == NONE {
                e = e.with_bytes(8);
            }
            trace.events.push(e);
        }
        trace
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn task_graph_and_replay_agree_on_random_event_streams(trace in arb_trace()) {
        let bad = disagreements(&trace);
        prop_assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn task_graph_and_replay_agree_on_generated_workloads(seed in 0u64..1000, n in 2usize..6) {
        let mut text = format!("name = \"w\"\nduration_ms = 30\nseed = {seed}\n");
        for i in 0..n {
            let release = if i % 2 == 0 { format!("period_us = {}", 500 + 300 * i) } else { "trigger = \"notify\"".into() };
            text.push_str(&format!("[[task]]\nname = \"T{i}\"\npriority = {}\n{release}\nexec_us = [50, 300]\n", 1 + i % 3));
            if i % 2 == 0 && i + 1 < n {
                text.push_str(&format!("actions = [{{ at = 0.5, notify = \"T{}\" }}, {{ at = 0.1, lock = \"m\", hold = 0.3 }}]\n", i + 1));
            }
        }
        let trace = generate(&Workload::from_toml(&text).unwrap()).unwrap();
        let bad = disagreements(&trace);
        prop_assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
