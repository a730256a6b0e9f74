//! Task graph tests on small hand-written traces whose figures are
//! worked out in the comments.

use corera_trace_ingest::{FormatChoice, ReadOptions, Trace, read};

use crate::TaskGraph;

fn trace(body: &str) -> Trace {
    let text = format!("corera-log 1 clock=us\n{body}");
    read(&mut text.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("t.log")).unwrap().trace
}

#[test]
fn running_ready_response_and_isr_time() {
    // A (prio 1) runs 0..40 but is interrupted by I for 10..15 and preempted
    // by B at 20; B runs 20..30; A resumes 30..50.
    // A: RUNNING = 10 + 5 + 20 = 35, READY = 10 (20..30), response 50.
    // B: ready at 18 while A runs, so READY = 2, RUNNING = 10, response 12.
    let t = trace(
        "task 1 task 1 A\ntask 2 task 2 B\ntask 3 isr - I\ntask 0 idle 0 IDLE\n\
         0 0 rdy 1\n0 0 in 1\n10 0 ienter 3\n15 0 iexit 3\n18 0 rdy 2\n\
         20 0 out 1 preempt\n20 0 in 2\n30 0 out 2 done\n30 0 in 1\n50 0 out 1 done\n50 0 in 0\n60 0 out 0 preempt\n",
    );
    let (g, warnings) = TaskGraph::build(&t).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let a = &g.tasks[0];
    assert_eq!((a.running_ns, a.ready_ns, a.jobs, a.activations), (35_000, 10_000, 1, 1));
    assert_eq!((a.response_mean_ns, a.response_max_ns), (Some(50_000), Some(50_000)));
    let b = &g.tasks[1];
    assert_eq!((b.running_ns, b.ready_ns, b.response_max_ns), (10_000, 2_000, Some(12_000)));
    let i = &g.tasks[2];
    assert_eq!((i.running_ns, i.jobs), (5_000, 1));
    assert_eq!(g.tasks[3].running_ns, 10_000);
    // Every ns of the trace is accounted to exactly one task.
    assert_eq!(g.tasks.iter().map(|t| t.running_ns).sum::<u64>(), g.duration_ns);
    assert!((a.utilisation - 35.0 / 60.0).abs() < 1e-12);
}

#[test]
fn periodic_tasks_get_a_period_and_sporadic_ones_do_not() {
    let mut body = String::from("task 1 task 1 P\ntask 2 task 1 S\n");
    let sporadic = [0u64, 3, 40, 41, 90, 400, 420];
    let mut events = Vec::new();
    for k in 0..8u64 {
        let t = k * 1000 + [0, 20, 0, 50, 10, 0, 30, 0][k as usize];
        events.push((t, 1));
    }
    for s in sporadic {
        events.push((s * 10 + 5, 2));
    }
    events.sort();
    for (t, task) in events {
        body.push_str(&format!("{t} 0 rdy {task}\n{t} 0 in {task}\n{} 0 out {task} done\n", t + 2));
    }
    let (g, _) = TaskGraph::build(&trace(&body)).unwrap();
    // Gaps 1020, 980, 1050, 960, 990, 1030, 970: mean 1000 us, CV ~3 %.
    assert_eq!(g.tasks[0].period_ns, Some(1_000_000));
    assert_eq!(g.tasks[1].period_ns, None);
    assert_eq!(g.tasks[0].activations, 8);
    // p95 of 8 equal responses.
    assert_eq!(g.tasks[0].response_p95_ns, Some(2_000));
}

#[test]
fn messages_pair_fifo_and_wakeups_and_affinities_count() {
    // A sends 3 messages on q (8, 16, unknown bytes), B receives two, C one
    // (FIFO: B gets the 8 and 16 byte ones, C the third); A wakes B twice;
    // A notifies C; A and B share mutex m (A takes 3x, B 2x -> 2), and
    // B and C share s (1 each -> 1). The idle task's wakeups are ignored.
    let t = trace(
        "task 1 task 1 A\ntask 2 task 1 B\ntask 3 task 1 C\ntask 0 idle 0 IDLE\nobj m mutex\nobj s sem\n\
         0 0 in 1\n1 0 send 1 q 8\n2 0 send 1 q 16\n3 0 send 1 q -\n4 0 wake 1 2\n5 0 wake 1 2\n\
         6 0 set 1 - 3\n7 0 take 1 m\n8 0 take 1 m\n9 0 take 1 m\n10 0 out 1 done\n\
         10 0 in 2\n11 0 recv 2 q -\n12 0 recv 2 q 16\n13 0 take 2 m\n14 0 take 2 m\n15 0 take 2 s\n16 0 out 2 done\n\
         16 0 in 3\n17 0 recv 3 q 4\n18 0 take 3 s\n19 0 wake 0 3\n20 0 out 3 done\n",
    );
    let (g, warnings) = TaskGraph::build(&t).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let pairs: Vec<_> =
        g.edges.iter().map(|e| (e.src, e.dst, e.messages, e.bytes, e.notifications, e.wakeups, e.weight)).collect();
    assert_eq!(pairs, vec![(0, 1, 2, 24, 0, 2, 4), (0, 2, 1, 4, 1, 0, 2)]);
    let aff: Vec<_> = g.affinities.iter().map(|a| (a.a, a.b, a.shared_objects, a.weight)).collect();
    assert_eq!(aff, vec![(0, 1, 1, 2), (1, 2, 1, 1)]);
    assert_eq!(g.traffic_between(1, 0), 6);
    let tg = g.traffic_graph();
    assert_eq!((tg.node_count(), tg.edge_count()), (3, 3));
    assert_eq!(g.communication_groups(), 1);
    let dot = g.to_dot(Some(&[0, 1, 1, 0]));
    assert!(dot.contains("t0 -> t1 [label=\"4\", penwidth=5.0, color=red];"), "{dot}");
    assert!(dot.contains("t1 -> t2 [dir=none, style=dashed, label=\"1 shared\"];"), "{dot}");
    assert!(!dot.contains("IDLE"));
}

#[test]
fn unmatched_receive_is_a_warning_not_an_edge() {
    let t = trace("task 1 task 1 A\n0 0 in 1\n1 0 recv 1 q 4\n2 0 out 1 done\n");
    let (g, warnings) = TaskGraph::build(&t).unwrap();
    assert!(g.edges.is_empty());
    assert!(warnings[0].message.contains("no matching send"), "{warnings:?}");
}

#[test]
fn empty_trace_gives_an_empty_graph() {
    let (g, warnings) = TaskGraph::build(&trace("")).unwrap();
    assert!(g.tasks.is_empty() && g.edges.is_empty() && warnings.is_empty());
    assert_eq!(g.communication_groups(), 0);
}

#[test]
fn one_idle_task_runs_on_several_cores_at_once() {
    // Linux traces have one idle task (pid 0) for every CPU. Core 0 idles
    // 0..10 and 30..40, core 1 idles 0..40; A runs 10..30 on core 0; B's
    // first event is its switch-out (it was running when the trace began).
    let t = trace(
        "task 0 idle 0 IDLE\ntask 1 task 1 A\ntask 2 task 1 B\n\
         0 0 in 0\n0 1 in 0\n5 1 out 2 preempt\n10 0 out 0 preempt\n10 0 in 1\n30 0 out 1 block\n30 0 in 0\n40 0 out 0 preempt\n40 1 out 0 preempt\n",
    );
    let (g, warnings) = TaskGraph::build(&t).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(g.tasks[0].running_ns, 60_000);
    assert_eq!(g.tasks[1].running_ns, 20_000);
}
