//! BTF reader tests on small hand-written traces.

use super::{chain, parse_as, parse_lenient};
use crate::{EventKind, FormatChoice, NONE, ObjectKind, Release, Schedule, TaskKind};

fn kinds(text: &str) -> Vec<(u64, EventKind, String, u16)> {
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    p.trace.events.iter().map(|e| (e.time, e.kind, p.trace.tasks[e.task as usize].name.clone(), e.core)).collect()
}

#[test]
fn task_and_isr_states_map_to_the_model() {
    let text = "#version 2.1\n#TIMESCALE us\n# a comment\n\
        1,Stim,0,T,A,0,activate\n2,Core_0,0,T,A,0,start\n3,Core_0,0,T,A,0,preempt\n\
        4,Core_0,0,I,Irq,0,start\n5,Core_0,0,I,Irq,0,terminate\n6,Core_0,0,T,A,0,resume\n\
        7,Core_0,0,T,A,0,wait\n8,Core_0,0,T,A,0,release\n9,Core_1,0,T,A,0,run\n10,Core_1,0,T,A,0,terminate\n";
    let got = kinds(text);
    let want = [
        (1_000, EventKind::Ready, "A", 0),
        (2_000, EventKind::SwitchIn, "A", 0),
        (3_000, EventKind::Preempted, "A", 0),
        (4_000, EventKind::IsrEnter, "Irq", 0),
        (5_000, EventKind::IsrExit, "Irq", 0),
        (6_000, EventKind::SwitchIn, "A", 0),
        (7_000, EventKind::Blocked, "A", 0),
        (8_000, EventKind::Ready, "A", 0),
        (9_000, EventKind::SwitchIn, "A", 1),
        (10_000, EventKind::Finished, "A", 1),
    ];
    let want: Vec<_> = want.iter().map(|&(t, k, n, c)| (t, k, n.to_string(), c)).collect();
    assert_eq!(got, want);
    let p = parse_as(text, FormatChoice::of("btf")).unwrap();
    assert_eq!(p.trace.tasks[1].kind, TaskKind::Isr);
}

#[test]
fn time_scales_convert_to_ns() {
    for (scale, ns) in [("ps", 0), ("PS", 0), ("ns", 7), ("us", 7_000), ("ms", 7_000_000), ("s", 7_000_000_000)] {
        let text = format!("#timeScale {scale}\n7,Core_0,0,T,A,0,start\n");
        assert_eq!(kinds(&text)[0].0, ns, "{scale}");
    }
    let text = "#timeScale ps\n7500,Core_0,0,T,A,0,start\n";
    assert_eq!(kinds(text)[0].0, 7);
}

#[test]
fn numeric_tables_crlf_empty_instances_and_commas_in_notes() {
    let text = "#version 1.0\r\n#timeScale ns\r\n#typeTable\r\n#-0 T\r\n#-1 C\r\n#entityTable\r\n#-0 Task_A\r\n#-1 Core_1\r\n\
        #entityTypeTable\r\n#-C Core_1\r\n#-T Task_A\r\n\
        10,1,,0,0,,start\r\n20,1,,0,0,,preempt,reason: a, b, c\r\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    assert_eq!(p.trace.tasks[0].name, "Task_A");
    assert_eq!(p.trace.events.len(), 2);
    assert_eq!(p.trace.events.at(1).kind, EventKind::Preempted);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn communication_becomes_edges() {
    let text = "#timeScale ns\n\
        1,Core_0,0,T,A,0,start\n\
        2,A,0,STI,Go,0,trigger\n3,Go,0,T,B,0,activate\n\
        4,A,0,EVENT,Ev,0,set_event,B\n\
        5,A,0,R,Run1,0,start\n6,Run1,0,SIG,Speed,0,write\n\
        7,B,0,SIG,Speed,0,read\n\
        8,A,0,SEM,Lock,0,requestsemaphore\n9,A,0,SEM,Lock,0,assigned\n10,A,0,SEM,Lock,0,released\n\
        11,Core_0,0,T,A,0,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let t = &p.trace;
    let name = |i: u32| t.tasks[i as usize].name.as_str();
    let ev: Vec<_> =
        t.events.iter().map(|e| (e.kind, name(e.task), if e.peer == u32::MAX { "-" } else { name(e.peer) })).collect();
    assert_eq!(
        ev,
        vec![
            (EventKind::SwitchIn, "A", "-"),
            (EventKind::Wakeup, "A", "B"),
            (EventKind::Ready, "B", "-"),
            (EventKind::EventSet, "A", "B"),
            (EventKind::Send, "A", "-"),
            (EventKind::Receive, "B", "A"),
            (EventKind::Take, "A", "-"),
            (EventKind::Give, "A", "-"),
            (EventKind::Finished, "A", "-"),
        ]
    );
    let kinds: Vec<_> = t.objects.iter().map(|o| (o.name.as_str(), o.kind)).collect();
    assert_eq!(kinds, vec![("Ev", ObjectKind::Event), ("Speed", ObjectKind::Label), ("Lock", ObjectKind::Semaphore)]);
    assert!(p.warnings[0].message.contains("SEM requestsemaphore (1)"), "{:?}", p.warnings);
}

#[test]
fn freertos_dialect_merges_cores_and_attributes_kernel_objects() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]Prod,0,preempt,create pri:4\n\
        1,Core_0,0,T,[0/0002]CS,0,preempt,create pri:3\n\
        1,Core_0,0,T,[0/0003]CS,0,preempt,create pri:3\n\
        2,Core_0,0,STI,queue,0,trigger,create 0x10\n\
        3,[0/0000],0,T,[0/0001]Prod,0,resume,\n\
        4,Core_0,0,STI,queue,0,trigger,send 0x10\n\
        5,Core_0,0,T,[0/0001]Prod,0,preempt,\n\
        6,[0/0001]Prod,0,T,[1/0002]CS,0,resume,\n\
        7,Core_1,0,STI,queue,0,trigger,recv 0x10\n\
        8,Core_1,0,STI,mutex,0,trigger,take 0x20\n\
        9,Core_0,0,STI,sem,0,trigger,give 0x30\n\
        10,Core_1,0,T,[1/0002]CS,0,preempt,\n\
        11,Core_0,0,STI,TICK,0,trigger,1\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let t = &p.trace;
    let names: Vec<_> = t.tasks.iter().map(|x| (x.name.as_str(), x.priority, x.handle)).collect();
    assert_eq!(names, vec![("Prod", Some(4), 1), ("CS#2", Some(3), 2), ("CS#3", Some(3), 3)]);
    let ev: Vec<_> = t.events.iter().map(|e| (e.time / 1000, e.kind, e.task, e.core)).collect();
    assert_eq!(
        ev,
        vec![
            (3, EventKind::SwitchIn, 0, 0),
            (4, EventKind::Send, 0, 0),
            (5, EventKind::Blocked, 0, 0),
            (6, EventKind::SwitchIn, 1, 1),
            (7, EventKind::Receive, 1, 1),
            (8, EventKind::Take, 1, 1),
            (10, EventKind::Blocked, 1, 1),
        ]
    );
    assert_eq!(t.objects[1].kind, ObjectKind::Mutex);
    let joined: Vec<String> = p.warnings.iter().map(|w| w.message.clone()).collect();
    // One tick is no tick period: it is kept out of the skipped events.
    assert!(!joined.iter().any(|m| m.contains("TICK")), "{joined:?}");
    assert_eq!(t.tick, None);
    assert!(
        joined.iter().any(|m| m.contains("1 queue/semaphore operations happened with no task running")),
        "{joined:?}"
    );
}

/// The logger's application events (interval marks and tags) are logged
/// events of the task running on their core; one written before any task
/// ran (the allocator's tag as `main` creates the tasks) is skipped with
/// the events corera does not use, and a stimulus of another name still is.
#[test]
fn freertos_dialect_reads_application_events_as_logged() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]A,0,preempt,create pri:2\n\
        1,Core_0,0,STI,tag0_event,0,trigger,4096\n\
        1,Core_0,0,T,[0/0002]B,0,preempt,create pri:2\n\
        3,[0/0000],0,T,[0/0001]A,0,resume,\n\
        4,Core_0,0,STI,interval_start,0,trigger,6 tid:1\n\
        5,Core_0,0,STI,interval_stop,0,trigger,6 tid:1\n\
        6,[0/0001]A,0,T,[1/0002]B,0,resume,\n\
        7,Core_1,0,STI,tag7_event,0,trigger,12\n\
        8,Core_1,0,STI,tag8_event,0,trigger,12\n\
        9,Core_1,0,T,[1/0002]B,0,preempt,\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let logged: Vec<_> = p
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Logged)
        .map(|e| (e.time / 1000, e.task, e.core))
        .collect();
    assert_eq!(logged, vec![(4, 0, 0), (5, 0, 0), (7, 1, 1)]);
    let joined: Vec<String> = p.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(joined.iter().any(|m| m.contains("STI tag0_event (1)") && m.contains("STI tag8_event (1)")), "{joined:?}");
}

/// FreeRTOS reuses freed memory: a semaphore deleted at 0x30 and a mutex
/// created there later are two objects, the second named `0x30#2` with
/// its own kind (read by address alone, the mutex was a semaphore, and a
/// replay gave it no owner and no inheritance). A `create` without a
/// logged `delete` starts a new object too.
#[test]
fn freertos_dialect_starts_a_new_object_where_one_is_created_again() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]A,0,preempt,create pri:3\n\
        2,Core_0,0,STI,sem,0,trigger,create 0x30\n\
        3,Core_0,0,T,[0/0001]A,0,resume,\n\
        4,Core_0,0,STI,sem,0,trigger,give 0x30\n\
        5,Core_0,0,STI,sem,0,trigger,delete 0x30\n\
        6,Core_0,0,STI,mutex,0,trigger,create 0x30\n\
        7,Core_0,0,STI,mutex,0,trigger,take 0x30\n\
        8,Core_0,0,STI,queue,0,trigger,create 0x30\n\
        9,Core_0,0,STI,queue,0,trigger,send 0x30\n\
        10,Core_0,0,T,[0/0001]A,0,preempt,\n";
    let t = parse_as(text, FormatChoice::AUTO).unwrap().trace;
    let objects: Vec<_> = t.objects.iter().map(|o| (o.name.as_str(), o.kind)).collect();
    assert_eq!(
        objects,
        vec![("0x30", ObjectKind::Semaphore), ("0x30#2", ObjectKind::Mutex), ("0x30#3", ObjectKind::Queue)]
    );
    let ops: Vec<_> = t.events.iter().filter(|e| e.object != NONE).map(|e| (e.kind, e.object)).collect();
    assert_eq!(ops, vec![(EventKind::Give, 0), (EventKind::Take, 1), (EventKind::Send, 2)]);
}

/// A priority change as read: µs, by, task, priority.
type PriorityChange = (u64, crate::TaskId, crate::TaskId, i32);

/// The priority changes `text` reads as, and its warnings.
fn priority_changes(text: &str) -> (Vec<PriorityChange>, Vec<String>) {
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let sets =
        p.trace.events.iter().filter_map(|e| e.new_priority().map(|n| (e.time / 1000, e.task, e.peer, n))).collect();
    (sets, p.warnings.iter().map(|w| w.message.clone()).collect())
}

/// The FreeRTOS logger's `vTaskPrioritySet`: `set_priority NAME[n] pri:P`
/// names the task by its label's number; the task running on the core sets
/// it. One naming no traced task is counted and left out.
#[test]
fn freertos_dialect_reads_priority_changes() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]Runner,0,preempt,create pri:4\n\
        1,Core_0,0,T,[0/0002]PS,0,preempt,create pri:2\n\
        1,Core_0,0,T,[0/0003]PS,0,preempt,create pri:2\n\
        3,Core_0,0,T,[0/0001]Runner,0,resume,\n\
        4,Core_0,0,STI,task,0,trigger,set_priority PS[3] pri:4\n\
        5,Core_0,0,STI,task,0,trigger,set_priority Gone[9] pri:1\n\
        6,Core_0,0,T,[0/0001]Runner,0,preempt,\n\
        7,Core_1,0,T,[1/0003]PS,0,resume,\n\
        8,Core_1,0,STI,task,0,trigger,set_priority PS[3] pri:2\n\
        9,Core_1,0,T,[1/0003]PS,0,preempt,\n";
    let (sets, joined) = priority_changes(text);
    assert_eq!(sets, vec![(4, 0, 2, 4), (8, 2, 2, 2)]);
    assert!(joined.iter().any(|m| m.contains("priority changes ignored (1)")), "{joined:?}");
    let bad = "#timeScale us\n1,Core_0,0,T,[0/0001]A,0,resume,\n2,Core_0,0,STI,task,0,trigger,set_priority A pri:x\n";
    let err = chain(&parse_as(bad, FormatChoice::AUTO).unwrap_err());
    assert!(err.contains("t.log:3") && err.contains("`set_priority NAME[n] pri:P`"), "{err}");
}

/// The logger's priority inheritance: a take that blocks on a mutex raises
/// its holder (`priority_inherit`, logged by the taker; the failed take
/// itself is not logged), the holder's give lowers it back
/// (`priority_disinherit`). Both set the priority the holder runs at, as
/// `set_priority` does, by the task running on the core.
#[test]
fn freertos_dialect_reads_priority_inheritance_as_priority_changes() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]Low,0,preempt,create pri:2\n\
        1,Core_0,0,T,[0/0002]High,0,preempt,create pri:4\n\
        2,Core_0,0,T,[0/0001]Low,0,resume,\n\
        3,Core_0,0,STI,mutex,0,trigger,take 0x10\n\
        4,Core_1,0,T,[1/0002]High,0,resume,\n\
        5,Core_1,0,STI,task,0,trigger,priority_inherit Low[1] pri:4\n\
        6,Core_1,0,T,[1/0002]High,0,preempt,\n\
        7,Core_0,0,STI,mutex,0,trigger,give 0x10\n\
        8,Core_0,0,STI,task,0,trigger,priority_disinherit Low[1] pri:2\n\
        9,Core_0,0,T,[0/0001]Low,0,preempt,\n";
    let (sets, joined) = priority_changes(text);
    assert_eq!(sets, vec![(5, 1, 0, 4), (8, 0, 0, 2)]);
    assert!(!joined.iter().any(|m| m.contains("STI task")), "{joined:?}");
    // A malformed one is named by its own operation.
    let bad = "#timeScale us\n1,Core_0,0,T,[0/0001]A,0,resume,\n2,Core_0,0,STI,task,0,trigger,priority_inherit A\n";
    let err = chain(&parse_as(bad, FormatChoice::AUTO).unwrap_err());
    assert!(err.contains("t.log:3") && err.contains("`priority_inherit NAME[n] pri:P`"), "{err}");
}

/// The logger's `resume NAME[n]` is `vTaskResume`; a recording whose hooks
/// also mark every task made ready (`traceMOVED_TASK_TO_READY_STATE`: its
/// first `resume` names the task created on the line before) has ready
/// events. Each is made by the tick when it follows an `STI TICK` with
/// nothing between on its core (a timer release), else by the task running
/// there (its wakeup). With them the dialect's `preempt` is a block only
/// where a ready came before the task's next switch-in: Lo (out at 8) and
/// Mid (out at 12) were preempted; Hi (out at 4 and 14) and Mid (out at 18)
/// blocked.
#[test]
fn freertos_dialect_reads_tasks_made_ready_where_the_hooks_mark_them() {
    let text = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]Hi,0,preempt,create pri:3\n\
        1,Core_0,0,STI,task,0,trigger,resume Hi[1]\n\
        2,Core_0,0,T,[0/0002]Lo,0,preempt,create pri:1\n\
        2,Core_0,0,STI,task,0,trigger,resume Lo[2]\n\
        2,Core_0,0,T,[0/0003]Mid,0,preempt,create pri:2\n\
        3,Core_0,0,T,[0/0001]Hi,0,resume,\n\
        4,Core_0,0,T,[0/0001]Hi,0,preempt,\n\
        5,Core_0,0,T,[0/0002]Lo,0,resume,\n\
        6,Core_0,0,STI,queue,0,trigger,send 0x10\n\
        7,Core_0,0,STI,task,0,trigger,resume Mid[3]\n\
        8,Core_0,0,T,[0/0002]Lo,0,preempt,\n\
        9,Core_0,0,T,[0/0003]Mid,0,resume,\n\
        10,Core_0,0,STI,TICK,0,trigger,1\n\
        11,Core_0,0,STI,task,0,trigger,resume Hi[1]\n\
        12,Core_0,0,T,[0/0003]Mid,0,preempt,\n\
        13,Core_0,0,T,[0/0001]Hi,0,resume,\n\
        14,Core_0,0,T,[0/0001]Hi,0,preempt,\n\
        16,Core_0,0,T,[0/0003]Mid,0,resume,\n\
        17,Core_0,0,STI,task,0,trigger,resume Gone[9]\n\
        18,Core_0,0,T,[0/0003]Mid,0,preempt,\n\
        19,Core_0,0,T,[0/0002]Lo,0,resume,\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let (hi, lo, mid) = (0, 1, 2);
    let ev: Vec<_> = p.trace.events.iter().map(|e| (e.time / 1000, e.kind, e.task, e.peer)).collect();
    use EventKind::*;
    assert_eq!(
        ev,
        vec![
            (1, Ready, hi, NONE),
            (2, Ready, lo, NONE),
            (3, SwitchIn, hi, NONE),
            (4, Blocked, hi, NONE),
            (5, SwitchIn, lo, NONE),
            (6, Send, lo, NONE),
            (7, Wakeup, lo, mid),
            (7, Ready, mid, NONE),
            (8, Preempted, lo, NONE),
            (9, SwitchIn, mid, NONE),
            (11, Ready, hi, NONE),
            (12, Preempted, mid, NONE),
            (13, SwitchIn, hi, NONE),
            (14, Blocked, hi, NONE),
            (16, SwitchIn, mid, NONE),
            (18, Blocked, mid, NONE),
            (19, SwitchIn, lo, NONE),
        ]
    );
    let joined: Vec<String> = p.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(joined.iter().any(|m| m.contains("tasks made ready ignored (1)")), "{joined:?}");
    // The schedule: Mid released by Lo's wakeup, Hi's second job by the
    // tick (10 µs from the trace's start at 1), Lo's job whole across its
    // preemption.
    let s = Schedule::of(&p.trace);
    let release = |t: usize, j: usize| s.tasks[t].jobs[j].phases[0].release;
    assert_eq!(release(mid as usize, 0), Release::Signal { by: lo });
    assert_eq!(release(hi as usize, 1), Release::Timer(10_000));
    assert_eq!(s.tasks[lo as usize].jobs.len(), 1);
    // The stock hooks: a `resume` that follows no creation is
    // `vTaskResume` alone, skipped; the switches keep saying what
    // released each job.
    let stock = "#timeScale us\n\
        1,Core_0,0,T,[0/0001]A,0,preempt,create pri:2\n\
        1,Core_0,0,T,[0/0002]B,0,preempt,create pri:1\n\
        3,Core_0,0,T,[0/0002]B,0,resume,\n\
        4,Core_0,0,STI,task,0,trigger,resume A[1]\n\
        5,Core_0,0,T,[0/0002]B,0,preempt,\n\
        6,Core_0,0,T,[0/0001]A,0,resume,\n";
    let p = parse_as(stock, FormatChoice::AUTO).unwrap();
    assert!(!p.trace.records_ready());
    assert!(p.warnings.iter().any(|w| w.message.contains("STI task (1)")), "{:?}", p.warnings);
}

#[test]
fn malformed_lines_name_line_column_and_shape() {
    let cases = [
        (
            "#timeScale ns\n1,Core_0,0,T,A,0,start\n2,Core_0,0,T\n",
            "t.log:3:1: invalid btf input: expected a data line `time,source,",
        ),
        (
            "#timeScale ns\n1,Core_0,0,T,A,0,start\nx,Core_0,0,T,A,0,start\n",
            "t.log:3:1: invalid btf input: expected a time",
        ),
        (
            "#timeScale parsecs\n",
            "t.log:1:12: invalid btf input: expected a time scale: ps, ns, us, ms or s, found `parsecs`",
        ),
        (
            "#timeScale ns\n5,Core_0,0,T,A,0,start\n4,Core_0,0,T,A,0,preempt\n",
            "t.log:3:18: invalid btf input: timestamp 4 is earlier than 5",
        ),
        (
            "#timeScale us\n1,Core_0,0,T,[0/0001]A,0,preempt,create pri:high\n",
            "t.log:2:26: invalid btf input: expected `create pri:<number>`",
        ),
        ("#version 1\n", "t.log:1:1: invalid btf input: the input is empty"),
    ];
    for (text, want) in cases {
        let err = chain(&parse_as(text, FormatChoice::of("btf")).unwrap_err());
        assert!(err.contains(want), "got {err}\nwant {want}");
    }
}

#[test]
fn lenient_skips_and_sorts_and_unknown_events_are_counted() {
    let text = "#timeScale ns\n5,Core_0,0,T,A,0,start\n2,Core_0,0,T\n4,Core_0,0,T,A,0,preempt\n6,Core_0,0,T,A,0,teleport\n7,X,0,FOO,B,0,bar";
    let p = parse_lenient(text, FormatChoice::of("btf")).unwrap();
    assert_eq!(p.trace.events.iter().map(|e| e.time).collect::<Vec<_>>(), vec![4, 5]);
    let msgs: Vec<_> = p.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert!(msgs[0].0 == Some(3) && msgs[0].1.starts_with("skipped malformed line"), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.1.contains("FOO bar (1), T teleport (1)")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.0 == Some(4) && m.1.contains("sorted by time")), "{msgs:?}");
}

#[test]
fn truncated_last_line_is_a_warning() {
    let p = parse_as("#timeScale ns\n5,Core_0,0,T,A,0,start\n6,Core_0,0,T", FormatChoice::of("btf")).unwrap();
    assert_eq!(p.trace.events.len(), 1);
    assert_eq!(p.warnings[0].line, Some(3));
    assert!(p.warnings[0].message.contains("truncated"));
}

#[test]
fn non_utf8_is_an_error_and_empty_input_says_what_is_expected() {
    let bytes = b"#timeScale ns\n5,Core_0,0,T,A\xc3,0,start\n";
    let err =
        chain(&crate::read(&mut &bytes[..], FormatChoice::of("btf"), &crate::ReadOptions::new("t.log")).unwrap_err());
    assert!(err.contains("t.log:2:15: invalid btf input: the line is not valid UTF-8 (byte 0xc3)"), "{err}");
    let err = chain(&parse_as("", FormatChoice::of("btf")).unwrap_err());
    assert!(
        err.contains(
            "t.log:1:1: invalid btf input: the input is empty; expected a header line such as `#timeScale ns`"
        ),
        "{err}"
    );
}

/// Entity roles as the BTF specification gives them: only `T` and `I`
/// targets are tasks; `SIM` firing stimuli and a semaphore reporting its
/// own state (`SEM_X` as the source of `SEM` events) are not, and never
/// reach the task table (so never a placement or a header).
#[test]
fn only_task_and_isr_targets_are_tasks() {
    let text = "#version 2.2.0\n#timeScale ns\n#entityTypeTable\n#-T A\n#-T B\n#-I Irq\n#-C Core_0\n\
        #-SEM SEM_X\n#-STI Tick\n#-SIM SIM\n\
        0,SIM,0,STI,Tick,0,trigger\n\
        0,Tick,0,T,A,0,activate\n\
        1,Core_0,0,T,A,0,start\n\
        2,A,0,SEM,SEM_X,0,requestsemaphore\n\
        2,SEM_X,0,SEM,SEM_X,0,lock\n\
        2,A,0,SEM,SEM_X,0,assigned\n\
        3,A,0,STI,Go,0,trigger\n3,Go,0,T,B,0,activate\n\
        4,A,0,SEM,SEM_X,0,released\n\
        4,SEM_X,0,SEM,SEM_X,0,unlock\n\
        4,SEM_X,0,SEM,SEM_X,0,free\n\
        5,Core_0,0,T,A,0,terminate\n\
        6,Core_0,0,T,B,0,start\n\
        7,Core_0,0,I,Irq,0,start\n8,Core_0,0,I,Irq,0,terminate\n\
        9,Core_0,0,T,B,0,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let t = &p.trace;
    let names: Vec<_> = t.tasks.iter().map(|x| (x.name.as_str(), x.kind)).collect();
    assert_eq!(names, vec![("A", TaskKind::Task), ("B", TaskKind::Task), ("Irq", TaskKind::Isr)]);
    let name = |i: u32| t.tasks[i as usize].name.as_str();
    let ev: Vec<_> = t.events.iter().map(|e| (e.time, e.kind, name(e.task))).collect();
    assert_eq!(
        ev,
        vec![
            (0, EventKind::Ready, "A"),
            (1, EventKind::SwitchIn, "A"),
            (2, EventKind::Take, "A"),
            (3, EventKind::Wakeup, "A"),
            (3, EventKind::Ready, "B"),
            (4, EventKind::Give, "A"),
            (5, EventKind::Finished, "A"),
            (6, EventKind::SwitchIn, "B"),
            (7, EventKind::IsrEnter, "Irq"),
            (8, EventKind::IsrExit, "Irq"),
            (9, EventKind::Finished, "B"),
        ]
    );
    let joined: Vec<String> = p.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(joined.iter().any(|m| m.contains("SEM lock (the semaphore's own state) (1)")), "{joined:?}");
    assert!(joined.iter().any(|m| m.contains("stimulus triggers from `SIM`/non-tasks (1)")), "{joined:?}");
}

/// The same without an entity-type table: `SIM` and `SEM_X` are first
/// taken for tasks (a source not seen before), then dropped because they
/// never run.
#[test]
fn sources_never_scheduled_are_dropped_with_a_warning() {
    let text = "#timeScale ns\n\
        0,SIM,0,STI,Tick,0,trigger\n0,Tick,0,T,A,0,activate\n1,Core_0,0,T,A,0,start\n\
        2,SEM_X,0,SEM,SEM_Y,0,lock\n2,SEM_X,0,SIG,Speed,0,write\n3,A,0,SIG,Speed,0,read\n\
        5,Core_0,0,T,A,0,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let names: Vec<_> = p.trace.tasks.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, vec!["A"]);
    assert!(p.trace.events.iter().all(|e| e.task == 0));
    let joined: Vec<String> = p.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(joined.iter().any(|m| m.contains("not tasks") && m.contains("`SEM_X` (2 events)")), "{joined:?}");
}

/// Runnables: per task, calls and execution (start/resume to
/// suspend/terminate), and their label accesses count for their task.
#[test]
fn runnables_report_calls_and_execution() {
    let text = "#timeScale ns\n\
        0,S,0,T,A,0,activate\n10,Core_0,0,T,A,0,start\n\
        10,A,0,R,Filter,0,start\n15,Filter,0,SIG,Speed,0,write\n20,A,0,R,Filter,0,suspend\n\
        20,Core_0,0,T,A,0,preempt\n30,Core_0,0,T,A,0,resume\n30,A,0,R,Filter,0,resume\n\
        35,A,0,R,Filter,0,terminate\n35,A,0,R,Out,0,start\n40,A,0,R,Out,0,terminate\n\
        40,Core_0,0,T,A,0,terminate\n50,S,1,T,A,1,activate\n50,Core_0,0,T,A,1,start\n\
        50,A,1,R,Filter,0,start\n52,A,1,R,Filter,0,terminate\n55,Core_0,0,T,A,1,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let r: Vec<_> = p.trace.runnables.iter().map(|r| (r.task, r.name.as_str(), r.calls, r.exec_ns)).collect();
    assert_eq!(r, vec![(0, "Filter", 2, 17), (0, "Out", 1, 5)]);
    assert_eq!(p.trace.events.iter().filter(|e| e.kind == EventKind::Send && e.task == 0).count(), 1);
}

/// Instances: a second activation while the first is in flight is a job
/// of its own, released when it was activated, started after the first
/// ends.
#[test]
fn activations_in_flight_are_jobs_of_their_own() {
    let text = "#timeScale ns\n\
        0,S,0,T,A,0,activate\n0,Core_0,0,T,A,0,start\n\
        40,S,1,T,A,1,activate\n100,Core_0,0,T,A,0,terminate\n\
        100,Core_0,0,T,A,1,start\n150,Core_0,0,T,A,1,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let s = crate::Schedule::of(&p.trace);
    let jobs: Vec<_> = s.tasks[0].jobs.iter().map(|j| (j.release_ns, j.finish_ns, j.exec_ns())).collect();
    assert_eq!(jobs, vec![(0, Some(100), 100), (40, Some(150), 50)]);
    assert_eq!(s.tasks[0].ready_ns(), 0, "ready from 100 (when the first ended) until its start at 100");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// An activation while the instance before waits (`wait`) is queued too:
/// only `release` ends the wait. The activation resumed the waiting
/// instance (READY from 20 to 50, and the job after it released at 50).
#[test]
fn an_activation_while_waiting_queues_and_release_resumes() {
    let text = "#timeScale ns\n\
        0,S,0,T,A,0,activate\n0,Core_0,0,T,A,0,start\n10,Core_0,0,T,A,0,wait\n\
        20,S,1,T,A,1,activate\n50,Core_0,0,T,A,0,release\n50,Core_0,0,T,A,0,resume\n\
        60,Core_0,0,T,A,0,terminate\n60,Core_0,0,T,A,1,start\n70,Core_0,0,T,A,1,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let s = crate::Schedule::of(&p.trace);
    let jobs: Vec<_> = s.tasks[0].jobs.iter().map(|j| (j.release_ns, j.finish_ns, j.phases.len())).collect();
    assert_eq!(jobs, vec![(0, Some(60), 2), (20, Some(70), 1)]);
    assert_eq!(s.tasks[0].jobs[0].phases[1].release, crate::Release::Timer(50));
    assert_eq!(s.tasks[0].ready_ns(), 0);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// A scheduler entity that runs several tasks at once: each runs in an
/// execution lane of its own (no switch event disagrees with a state).
#[test]
fn a_scheduler_running_tasks_at_once_gets_lanes() {
    let text = "#timeScale ns\n#entityTypeTable\n#-SCHED Sched\n\
        0,S,0,T,A,0,activate\n0,Sched,0,T,A,0,start\n0,S,0,T,B,0,activate\n0,Sched,0,T,B,0,start\n\
        10,Sched,0,T,A,0,terminate\n10,S,0,T,C,0,activate\n10,Sched,0,T,C,0,start\n\
        20,Sched,0,T,B,0,terminate\n30,Sched,0,T,C,0,terminate\n";
    let p = parse_as(text, FormatChoice::AUTO).unwrap();
    let cores: Vec<_> =
        p.trace.events.iter().filter(|e| e.kind == EventKind::SwitchIn).map(|e| (e.task, e.core)).collect();
    assert_eq!(cores, vec![(0, 0), (1, 1), (2, 0)], "C reuses A's lane");
    // The lanes are the reader's, not the recording's: B may run on A's.
    assert_eq!(p.trace.lanes, vec![vec![0, 1]]);
    assert_eq!((p.trace.lanes_of(&[1]), p.trace.lanes_of(&[2])), (vec![0, 1], vec![2]));
    let s = crate::Schedule::of(&p.trace);
    let running: Vec<_> = s.tasks.iter().map(|t| t.running_ns()).collect();
    assert_eq!(running, vec![10, 20, 20]);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert!(p.warnings.iter().any(|w| w.message.contains("`Sched` is a scheduler and ran up to 2 tasks")));
}
