//! The real public traces in `../shared/data/traces/`: every one parses with zero errors,
//! with exact per-kind event counts and task counts. Each figure was
//! counted independently of corera with the shell command in its comment
//! (run in the sample's folder).

use crate::{EventKind, FormatChoice, Parsed, ReadOptions, TaskKind, read};

/// A trace by its name (`corera_testdata::path`: `shared/...` in
/// `../shared/data/`, which the tests check first is there).
fn sample(rel: &str) -> Parsed {
    let path = corera_testdata::path(rel);
    let file = std::fs::File::open(&path).unwrap();
    read(&mut std::io::BufReader::new(file), FormatChoice::AUTO, &ReadOptions::new(rel)).unwrap()
}

fn count(p: &Parsed, kind: EventKind) -> usize {
    p.trace.events.iter().filter(|e| e.kind == kind).count()
}

#[test]
fn freertos_btf_two_cores() {
    corera_testdata::shared_or_skip!("traces/btf");
    let p = sample("shared/traces/btf/freertos_v11_rv64sim_2cores.btf");
    assert_eq!(p.format, "btf");
    // grep -v '^#' F | awk -F, '$4=="T"{print $5}' | sed 's/^\[[0-9]*\//[/' | sort -u | wc -l
    assert_eq!(p.trace.tasks.len(), 59);
    // grep -c ',T,.*,resume,' F
    assert_eq!(count(&p, EventKind::SwitchIn), 2668);
    // awk -F, '$4=="T" && $7=="preempt" && $8 !~ /^create/' F | wc -l
    assert_eq!(count(&p, EventKind::Blocked), 2667);
    // grep -c 'STI,queue,0,trigger,send' F ; grep -c 'STI,queue,0,trigger,recv' F
    assert_eq!(count(&p, EventKind::Send), 72);
    assert_eq!(count(&p, EventKind::Receive), 72);
    // grep -cE 'STI,(sem|mutex),0,trigger,take' F ; ... give
    assert_eq!(count(&p, EventKind::Take), 665);
    assert_eq!(count(&p, EventKind::Give), 669);
    // grep -cE 'STI,task,0,trigger,(set_priority|priority_inherit|priority_disinherit)' F
    // (2 + 3 + 3)
    assert_eq!(count(&p, EventKind::PrioritySet), 8);
    // grep -cE 'STI,(interval_start|interval_stop|tag[0-7]_event),0,trigger' F:
    // the logger's application events, all written while a task ran.
    assert_eq!(count(&p, EventKind::Logged), 1741);
    assert_eq!(p.trace.events.len(), 2668 + 2667 + 72 + 72 + 665 + 669 + 8 + 1741);
    // grep -c 'create pri' F: every task's priority is known.
    assert!(p.trace.tasks.iter().all(|t| t.priority.is_some()));
    // IDLE0 and IDLE1.
    assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Idle).count(), 2);
    assert_eq!(p.trace.cores_seen(), 2);
    // One warning: the skipped pseudo-events, none about malformed input.
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    // grep -c 'STI,TICK' F: 290 ticks, read as the kernel's tick (1 ms),
    // not skipped.
    assert!(p.warnings[0].message.starts_with("skipped 76 events"), "{:?}", p.warnings);
    let tick = p.trace.tick.as_ref().expect("the logger's TICK events");
    assert!((999_000..=1_001_000).contains(&tick.period_ns), "{tick:?}");
    assert_eq!(p.trace.os, Some(crate::Os::FreeRtos), "the FreeRTOS logger's dialect");
}

#[test]
fn app4mc_btf_with_tables_and_crlf() {
    corera_testdata::shared_or_skip!("traces/btf");
    let p = sample("shared/traces/btf/app4mc_example1_task_only_short.btf");
    // tr -d '\r' < F | grep -v '^#' | awk -F, '{print $4, $7}' | sort | uniq -c
    assert_eq!(count(&p, EventKind::Ready), 4);
    assert_eq!(count(&p, EventKind::SwitchIn), 6);
    assert_eq!(count(&p, EventKind::Preempted), 6);
    assert_eq!(p.trace.events.len(), 16);
    // tr -d '\r' < F | grep -v '^#' | awk -F, '$4=="T"{print $5}' | sort -u | wc -l
    assert_eq!(p.trace.tasks.len(), 4);
    assert_eq!(p.trace.cores_seen(), 2);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn app4mc_rtana2sim_vit_btf() {
    corera_testdata::shared_or_skip!("traces/btf");
    // F: the decompressed file. Tasks: exactly the `T` entities of the
    // entity-type table: awk '/^#-T /' F | wc -l
    let p = sample("shared/traces/btf/app4mc_rtana2sim_vit.btf");
    assert_eq!(p.trace.tasks.len(), 9);
    assert!(p.trace.tasks.iter().all(|t| t.name.starts_with('C') && t.name.contains("__")), "{:?}", p.trace.tasks);
    // grep -v '^#' F | awk -F, '$4=="T"{print $7}' | sort | uniq -c
    assert_eq!(count(&p, EventKind::Ready), 6415);
    assert_eq!(count(&p, EventKind::SwitchIn), 6415);
    assert_eq!(count(&p, EventKind::Finished), 6411);
    assert_eq!(count(&p, EventKind::Blocked), 1); // the one `poll`
    // grep -v '^#' F | awk -F, '$4=="SIG"{print $7}' | sort | uniq -c
    assert_eq!(count(&p, EventKind::Send), 6578);
    assert_eq!(count(&p, EventKind::Receive), 9653);
    // Up to nine tasks run at once under `Core0_compSched`:
    // grep -v '^#' F | awk -F, '$4=="T"{if($7=="start")n++; if($7=="terminate"||$7=="poll")n--; if(n>m)m=n} END{print m}'
    assert_eq!(p.trace.cores_seen(), 9);
    let schedule = crate::Schedule::of(&p.trace);
    assert!(schedule.warnings.is_empty(), "no switch event disagrees with a task's state: {:?}", schedule.warnings);
    // Jobs: one per activation, keyed by instance; C2__G___1 has instances
    // 0..=1593: grep -c ',T,C2__G___1,[0-9]*,activate' F
    let c2 = p.trace.tasks.iter().position(|t| t.name == "C2__G___1").unwrap();
    assert_eq!(schedule.tasks[c2].jobs.len(), 1594);
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(p.warnings[0].message.contains("ran up to 9 tasks at once"), "{:?}", p.warnings);
}

/// Wakeup edges: wakeups not from idle, not in IRQ context, not self:
/// grep ' sched_wakeup:' F | awk '{ match($0, /-[0-9]+ +(\([^)]*\) +)?\[[0-9]+\] +[^ ]+/);
///   s=substr($0,RSTART+1,RLENGTH-1); split(s,p," "); waker=p[1]; flags=p[length(p)];
///   match($0, / pid=[0-9]+/); wakee=substr($0, RSTART+5, RLENGTH-5);
///   if (substr(flags,3,1)=="." && waker!="0" && waker!=wakee) n++} END {print n}'
#[test]
fn android_systrace_with_tgid_column() {
    corera_testdata::shared_or_skip!("traces/ftrace");
    let p = sample("shared/traces/ftrace/android_youtube_4cpu_atrace.txt");
    assert_eq!(p.format, "ftrace");
    // grep -c ' sched_switch:' F  (one switch-out and one switch-in each)
    assert_eq!(count(&p, EventKind::SwitchIn), 2582);
    assert_eq!(count(&p, EventKind::Preempted) + count(&p, EventKind::Blocked), 2582);
    // grep ' sched_switch:' F | grep -cE 'prev_state=R\+? ==>'
    assert_eq!(count(&p, EventKind::Preempted), 1042);
    // grep -c ' sched_wakeup:' F
    assert_eq!(count(&p, EventKind::Ready), 1540);
    // The awk above.
    assert_eq!(count(&p, EventKind::Wakeup), 727);
    // grep -oE '(prev|next)_pid=[0-9]+|pid=[0-9]+|:[0-9]+ \[' F | grep -oE '[0-9]+' | sort -u | wc -l
    assert_eq!(p.trace.tasks.len(), 136);
    assert_eq!(p.trace.cores_seen(), 4);
    // grep -c tracing_mark_write F
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].message, "skipped 332 events corera does not use: tracing_mark_write (332)");
}

#[test]
fn android_systrace_small() {
    corera_testdata::shared_or_skip!("traces/ftrace");
    let p = sample("shared/traces/ftrace/android_sched_small.txt");
    assert_eq!(count(&p, EventKind::SwitchIn), 82);
    assert_eq!(count(&p, EventKind::Ready), 57);
    assert_eq!(count(&p, EventKind::Wakeup), 18);
    assert_eq!(p.trace.tasks.len(), 24);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn trace_cmd_report_default_form() {
    corera_testdata::shared_or_skip!("traces/ftrace");
    let p = sample("shared/traces/ftrace/lisa_juno_sched_load.trace-cmd-report.txt");
    // grep -c ' sched_switch:' F
    assert_eq!(count(&p, EventKind::SwitchIn), 399);
    // grep ' sched_switch:' F | grep -cE '\] R\+? ==>'
    assert_eq!(count(&p, EventKind::Preempted), 178);
    assert_eq!(count(&p, EventKind::Ready), 0);
    assert_eq!(p.trace.tasks.len(), 31);
    assert_eq!(p.trace.cores_seen(), 6);
    // grep -c ' sched_migrate_task:' F
    assert!(p.warnings.iter().any(|w| w.message.starts_with("28 sched_migrate_task events noted")), "{:?}", p.warnings);
}

/// Priority inference on traces that record their priorities: wherever
/// the trace shows a preemption the inferred order must agree with the
/// recorded one (a pass-over, with equal priorities allowed).
fn inference_agrees(rel: &str) -> (usize, usize) {
    let p = sample(rel);
    let schedule = crate::Schedule::of(&p.trace);
    let inf = crate::priority::infer(&p.trace, &schedule);
    let urgency = |t: u32| {
        let prio = i64::from(p.trace.tasks[t as usize].priority.expect("recorded"));
        if p.trace.priority_order == crate::PriorityOrder::High { prio } else { -prio }
    };
    let name = |t: u32| p.trace.tasks[t as usize].name.as_str();
    let (mut preemptions, mut passes) = (0, 0);
    for e in &inf.pairs {
        if e.preemptions > 0 {
            preemptions += 1;
            assert!(urgency(e.higher) > urgency(e.lower), "{rel}: {} preempted {}", name(e.higher), name(e.lower));
        }
        let back = inf.evidence(e.lower, e.higher).map_or(0, |b| b.total());
        if e.passed_over > 0 {
            passes += 1;
            // A lower task runs ahead of a ready higher one only while it
            // holds a mutex the higher one needs (priority inheritance):
            // a small minority of that pair's evidence.
            assert!(
                urgency(e.higher) >= urgency(e.lower) || e.total() * 10 < back,
                "{rel}: {} passed over {} ({e:?}, {back} the other way)",
                name(e.higher),
                name(e.lower)
            );
        }
        // The inferred numbers keep every majority direction the recorded
        // priorities agree with.
        if e.total() > back && urgency(e.higher) > urgency(e.lower) {
            let (h, l) = (inf.priority[e.higher as usize], inf.priority[e.lower as usize]);
            assert!(h >= l, "{rel}: inferred {}={h:?} below {}={l:?}", name(e.higher), name(e.lower));
        }
    }
    (preemptions, passes)
}

#[test]
fn inferred_priorities_agree_with_recorded_ones() {
    let (pre, pass) = inference_agrees("samples/printer/printer.log");
    assert!(pre >= 5 && pass >= 5, "the printer trace shows preemptions ({pre}) and pass-overs ({pass})");
    let (pre, pass) = inference_agrees("samples/rp2-cluster/ecu.log");
    assert!(pre + pass > 0);
    // The FreeRTOS logger does not tell preemption from blocking (every
    // switch-out reads as blocked) and records no ready events: the trace
    // shows no order, and none is inferred against the recorded one.
    corera_testdata::shared_or_skip!("traces/btf");
    assert_eq!(inference_agrees("shared/traces/btf/freertos_v11_rv64sim_2cores.btf"), (0, 0));
}
