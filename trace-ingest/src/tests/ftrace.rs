//! ftrace reader tests on small hand-written traces.

use super::{chain, parse_as, parse_lenient};
use crate::{EventKind, FormatChoice, PriorityOrder, ReadOptions, TaskKind, read};

const SMALL: &str = "# tracer: nop
#
          <idle>-0     [000] d..3   100.000001: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app main next_pid=10 next_prio=120
        app main-10    [000] d..4   100.000002: sched_wakeup: comm=worker pid=11 prio=100 success=1 target_cpu=001
        app main-10    [000] d.h4   100.000003: sched_wakeup: comm=worker pid=11 prio=100 success=1 target_cpu=001
          <idle>-0     [001] d..4   100.000004: sched_wakeup: comm=worker pid=11 prio=100 success=1 target_cpu=001
          <idle>-0     [001] d..3   100.000005: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=11 next_prio=100
          worker-11    [001] d..3   100.000009: sched_switch: prev_comm=worker prev_pid=11 prev_prio=100 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        app main-10    [000] d..3   100.000010: sched_switch: prev_comm=app main prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=daemon next_pid=20 next_prio=120
          daemon-20    [000] d..3   100.000012: sched_migrate_task: comm=worker pid=11 prio=100 orig_cpu=1 dest_cpu=0
          daemon-20    [000] ....   100.000013: tracing_mark_write: B|20|work
";

#[test]
fn switches_and_wakeups_map_to_the_model() {
    let p = parse_as(SMALL, FormatChoice::AUTO).unwrap();
    let t = &p.trace;
    assert_eq!(t.priority_order, PriorityOrder::Low);
    let names: Vec<_> = t.tasks.iter().map(|x| (x.name.as_str(), x.kind, x.priority, x.handle)).collect();
    assert_eq!(
        names,
        vec![
            ("<idle>", TaskKind::Idle, None, 0),
            ("app main", TaskKind::Task, Some(120), 10),
            ("worker", TaskKind::Task, Some(100), 11),
            ("daemon", TaskKind::Task, Some(120), 20),
        ]
    );
    let ev: Vec<_> = t.events.iter().map(|e| (e.time - 100_000_000_000, e.kind, e.task, e.peer, e.core)).collect();
    let none = u32::MAX;
    assert_eq!(
        ev,
        vec![
            (1_000, EventKind::Preempted, 0, none, 0),
            (1_000, EventKind::SwitchIn, 1, none, 0),
            // A task's wakeup: an edge and a ready on the target CPU.
            (2_000, EventKind::Wakeup, 1, 2, 0),
            (2_000, EventKind::Ready, 2, none, 1),
            // From hard-IRQ context and from idle: ready only.
            (3_000, EventKind::Ready, 2, none, 1),
            (4_000, EventKind::Ready, 2, none, 1),
            (5_000, EventKind::Preempted, 0, none, 1),
            (5_000, EventKind::SwitchIn, 2, none, 1),
            (9_000, EventKind::Blocked, 2, none, 1),
            (9_000, EventKind::SwitchIn, 0, none, 1),
            (10_000, EventKind::Preempted, 1, none, 0),
            (10_000, EventKind::SwitchIn, 3, none, 0),
        ]
    );
    let msgs: Vec<_> = p.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "skipped 1 events corera does not use: tracing_mark_write (1)",
            "1 sched_migrate_task events noted (the input ran on several CPUs)"
        ]
    );
}

#[test]
fn sched_waking_is_preferred_over_sched_wakeup() {
    let text = "# tracer: nop
   a-1 [000] d..4 1.000001: sched_waking: comm=b pid=2 prio=120 target_cpu=000
   a-1 [000] d..4 1.000002: sched_wakeup: comm=b pid=2 prio=120 success=1 target_cpu=000
";
    let p = parse_as(text, FormatChoice::of("ftrace")).unwrap();
    assert_eq!(p.trace.events.len(), 2);
    assert!(p.warnings[0].message.contains("sched_wakeup (sched_waking used) (1)"));
}

#[test]
fn trace_cmd_and_perf_forms() {
    let text = "cpus=2
     kworker/2:1-2923  [001]  2084.021765: sched_switch:         kworker/2:1:2923 [120] R ==> swapper/1:0 [120]
  Chrome IO  1234/1300 [001] 2084.021766: sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Chrome IO next_pid=1300 next_prio=120
";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let names: Vec<_> = p.trace.tasks.iter().map(|t| (t.name.as_str(), t.handle)).collect();
    assert_eq!(names, vec![("kworker/2:1", 2923), ("<idle>", 0), ("Chrome IO", 1300)]);
    assert_eq!(p.trace.events.at(0).kind, EventKind::Preempted);
    assert_eq!(p.trace.events.at(3).time, 2_084_021_766_000);
}

#[test]
fn filters_keep_the_workload() {
    let mut options = ReadOptions::new("t.log");
    options.filter.comm = Some(regex::Regex::new("^work").unwrap());
    let p = read(&mut SMALL.as_bytes(), FormatChoice::of("ftrace"), &options).unwrap();
    let names: Vec<_> = p.trace.tasks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["<idle>", "worker"]);
    // The wakeup by `app main` lost its waker; the readies stay.
    assert!(p.trace.events.iter().all(|e| e.kind != EventKind::Wakeup));
    assert_eq!(p.trace.events.iter().filter(|e| e.kind == EventKind::Ready).count(), 3);
    assert!(p.warnings.last().unwrap().message.contains("task filter kept 2 of 4 tasks"));
    let mut options = ReadOptions::new("t.log");
    options.filter.pids = vec![10, 20];
    let p = read(&mut SMALL.as_bytes(), FormatChoice::of("ftrace"), &options).unwrap();
    assert_eq!(p.trace.tasks.len(), 3);
    let tgid = "# tracer: nop\n  a-5 (4) [000] d..3 1.0: sched_switch: prev_comm=a prev_pid=5 prev_prio=1 prev_state=S ==> next_comm=b next_pid=6 next_prio=1\n";
    let mut options = ReadOptions::new("t.log");
    options.filter.tgids = vec![4];
    let p = read(&mut tgid.as_bytes(), FormatChoice::of("ftrace"), &options).unwrap();
    assert_eq!(p.trace.tasks.iter().map(|t| t.handle).collect::<Vec<_>>(), vec![5]);
}

#[test]
fn errors_name_line_column_and_shape() {
    let cases = [
        (
            "# tracer: nop\n  a-1 [000] d..3 1.000001: sched_switch: what\n",
            "t.log:2:42: invalid ftrace input: expected a sched_switch payload",
        ),
        (
            "# tracer: nop\n  a-1 [000] d..3 one: sched_switch: x\n",
            "t.log:2:18: invalid ftrace input: expected a timestamp in seconds",
        ),
        ("# tracer: nop\n  no cpu column here\n", "t.log:2:3: invalid ftrace input: expected an ftrace line"),
        ("# tracer: nop\n", "t.log:1:1: invalid ftrace input: the input is empty"),
        (
            "# tracer: nop\n  a-1 [000] d..3 2.0: sched_waking: comm=b pid=2 prio=1 target_cpu=0\n  a-1 [000] d..3 1.0: sched_waking: comm=b pid=2 prio=1 target_cpu=0\n",
            "t.log:3:18: invalid ftrace input: timestamp 1.000000000 is earlier than 2.000000000",
        ),
    ];
    for (text, want) in cases {
        let err = chain(&parse_as(text, FormatChoice::of("ftrace")).unwrap_err());
        assert!(err.contains(want), "got {err}\nwant {want}");
    }
    let lenient = parse_lenient(cases[4].0, FormatChoice::of("ftrace")).unwrap();
    assert_eq!(lenient.trace.events.at(0).time, 1_000_000_000);
}

#[test]
fn non_utf8_and_truncation() {
    let bytes = b"# tracer: nop\n  a-1 [000] d..3 1.0: sched_waking: comm=\xff pid=2\n";
    let err = chain(&read(&mut &bytes[..], FormatChoice::of("ftrace"), &ReadOptions::new("t.log")).unwrap_err());
    assert!(err.contains("t.log:2:42: invalid ftrace input: the line is not valid UTF-8 (byte 0xff)"), "{err}");
    let p = parse_as(
        "# tracer: nop\n  a-1 [000] d..3 1.0: sched_waking: comm=b pid=2 prio=1 target_cpu=0\n  a-1 [0",
        FormatChoice::of("ftrace"),
    )
    .unwrap();
    assert_eq!(p.trace.events.len(), 2);
    assert!(p.warnings[0].message.contains("truncated"));
}
