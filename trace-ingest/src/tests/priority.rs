//! Priority inference and its application to traces without priorities.

use super::parse_as;
use crate::priority::{PriorityOverride, PrioritySource, infer, resolve};
use crate::{FormatChoice, Schedule};

/// Hi preempts Lo twice; Mid passes over Lo once; Solo, on another core,
/// has no evidence (and the highest rate).
const TRACE: &str = "#timeScale us\n\
    0,S,0,T,Lo,0,activate\n0,Core_0,0,T,Lo,0,start\n\
    10,S,0,T,Hi,0,activate\n10,Core_0,0,T,Lo,0,preempt\n10,Core_0,0,T,Hi,0,start\n\
    11,S,0,T,Mid,0,activate\n\
    20,Core_0,0,T,Hi,0,terminate\n20,Core_0,0,T,Mid,0,start\n30,Core_0,0,T,Mid,0,terminate\n\
    30,Core_0,0,T,Lo,0,resume\n\
    40,S,1,T,Hi,1,activate\n40,Core_0,0,T,Lo,0,preempt\n40,Core_0,0,T,Hi,1,start\n\
    50,Core_0,0,T,Hi,1,terminate\n50,Core_0,0,T,Lo,0,resume\n60,Core_0,0,T,Lo,0,terminate\n\
    70,S,0,T,Solo,0,activate\n70,Core_1,0,T,Solo,0,start\n71,Core_1,0,T,Solo,0,terminate\n\
    72,S,1,T,Solo,1,activate\n72,Core_1,0,T,Solo,1,start\n73,Core_1,0,T,Solo,1,terminate\n\
    74,S,2,T,Solo,2,activate\n74,Core_1,0,T,Solo,2,start\n75,Core_1,0,T,Solo,2,terminate\n";

#[test]
fn preemptions_and_pass_overs_order_tasks() {
    let p = parse_as(TRACE, FormatChoice::of("btf")).unwrap();
    let s = Schedule::of(&p.trace);
    let inf = infer(&p.trace, &s);
    let id = |n: &str| p.trace.tasks.iter().position(|t| t.name == n).unwrap() as u32;
    let (hi, lo, mid, solo) = (id("Hi"), id("Lo"), id("Mid"), id("Solo"));
    assert_eq!(inf.evidence(hi, lo).map(|e| e.preemptions), Some(2));
    assert_eq!(inf.evidence(hi, mid), None, "Mid was never ready when Hi started");
    // Mid started at 20 while Lo waited ready since 10: a pass-over too.
    assert_eq!(inf.evidence(mid, lo).map(|e| e.passed_over), Some(1));
    assert!(inf.conflicts.is_empty());
    let prio = |t: u32| inf.priority[t as usize].unwrap();
    // Hi and Mid are both above Lo; between them the rate decides (Hi ran
    // two jobs, Mid one).
    assert!(prio(hi) > prio(mid) && prio(mid) > prio(lo));
    // No evidence: rate-monotonic puts Solo (3 jobs) above the others.
    assert!(prio(solo) > prio(hi));
    assert_eq!(inf.pairs_of[solo as usize], 0);
}

#[test]
fn resolve_fills_in_marks_sources_and_applies_overrides() {
    let mut p = parse_as(TRACE, FormatChoice::of("btf")).unwrap();
    let s = Schedule::of(&p.trace);
    let overrides = [PriorityOverride { task: "Mid".into(), priority: 100 }];
    let r = resolve(&mut p.trace, &s, &overrides).unwrap();
    let by_name = |n: &str| {
        let i = p.trace.tasks.iter().position(|t| t.name == n).unwrap();
        (p.trace.tasks[i].priority, r.source[i])
    };
    assert_eq!(by_name("Mid"), (Some(100), PrioritySource::Override));
    assert_eq!(by_name("Hi").1, PrioritySource::Inferred);
    assert_eq!(by_name("Solo").1, PrioritySource::Assumed);
    assert!(by_name("Hi").0 > by_name("Lo").0);
    let bad = [PriorityOverride { task: "Nope".into(), priority: 1 }];
    let err = resolve(&mut p.trace, &s, &bad).unwrap_err();
    assert_eq!(err, crate::priority::UnknownPriorityTask { task: "Nope".into(), priority: 1 });
    assert!(err.to_string().contains("no task `Nope`"), "{err}");
}

#[test]
fn contradicting_evidence_is_a_conflict_sharing_a_level() {
    // A preempts B, then B preempts A, once each.
    let text = "#timeScale us\n\
        0,S,0,T,B,0,activate\n0,Core_0,0,T,B,0,start\n\
        10,S,0,T,A,0,activate\n10,Core_0,0,T,B,0,preempt\n10,Core_0,0,T,A,0,start\n\
        20,Core_0,0,T,A,0,preempt\n20,Core_0,0,T,B,0,resume\n\
        30,Core_0,0,T,B,0,terminate\n30,Core_0,0,T,A,0,resume\n40,Core_0,0,T,A,0,terminate\n";
    let mut p = parse_as(text, FormatChoice::of("btf")).unwrap();
    let s = Schedule::of(&p.trace);
    let r = resolve(&mut p.trace, &s, &[]).unwrap();
    assert_eq!(r.inference.conflicts, vec![vec![0, 1]]);
    assert!(r.warnings.iter().any(|w| w.message.contains("B/A")), "{:?}", r.warnings);
}

/// A task that runs on through the kernel's ticks while another waits
/// ready is at least as urgent as it (a scheduling point passed the waiter
/// over): Busy runs from 0 to 4.5 ms, Waiter waits ready from 0.1 ms and
/// runs after, three times as often (rate-monotonic would put it above).
/// With no tick the trace shows no evidence either way.
#[test]
fn running_on_through_a_tick_while_another_waits_is_evidence() {
    let mut text = String::from("corera-log 1 clock=us\ntask 1 task - Busy\ntask 2 task - Waiter\n");
    text += "0 0 rdy 1\n0 0 in 1\n100 0 rdy 2\n4500 0 out 1 done\n4500 0 in 2\n4510 0 out 2 done\n";
    for k in 0..3u64 {
        let t = 5000 + 100 * k;
        text += &format!("{t} 0 rdy 2\n{t} 0 in 2\n{} 0 out 2 done\n", t + 10);
    }
    let mut p = parse_as(&text, FormatChoice::AUTO).unwrap();
    let id = |p: &crate::Parsed, n: &str| p.trace.tasks.iter().position(|t| t.name == n).unwrap() as u32;
    let (busy, waiter) = (id(&p, "Busy"), id(&p, "Waiter"));
    let none = infer(&p.trace, &Schedule::of(&p.trace));
    assert_eq!(none.evidence(busy, waiter), None);
    assert!(none.priority[waiter as usize] > none.priority[busy as usize], "rate-monotonic without evidence");
    p.trace.tick = Some(crate::Tick { period_ns: 1_000_000, at_ns: 0, source: "t".into() });
    let inf = infer(&p.trace, &Schedule::of(&p.trace));
    // Ticks at 1, 2, 3 and 4 ms, each checked half a period later, Busy
    // still running then.
    assert_eq!(inf.evidence(busy, waiter).map(|e| e.passed_over), Some(4));
    assert!(inf.priority[busy as usize] >= inf.priority[waiter as usize]);
}

/// TraceRecorder's control task, whose creation a dump lost, takes its
/// documented default (the least urgent) rather than the place its waits
/// would give it (here: above T, which it preempted).
#[test]
fn the_recorders_own_task_takes_its_documented_priority() {
    let text = "corera-log 1 clock=us\ntask 1 task - T\ntask 2 task - TzCtrl\n\
        0 0 rdy 1\n0 0 in 1\n10 0 rdy 2\n10 0 out 1 preempt\n10 0 in 2\n20 0 out 2 done\n20 0 in 1\n30 0 out 1 done\n";
    let mut p = parse_as(text, FormatChoice::AUTO).unwrap();
    let s = Schedule::of(&p.trace);
    let r = resolve(&mut p.trace, &s, &[]).unwrap();
    let prio = |n: &str| p.trace.tasks.iter().find(|t| t.name == n).unwrap().priority.unwrap();
    assert!(prio("TzCtrl") < prio("T"), "T {} TzCtrl {}", prio("T"), prio("TzCtrl"));
    assert!(r.warnings.iter().any(|w| w.message.contains("TRC_CFG_CTRL_TASK_PRIORITY")), "{:?}", r.warnings);
}

/// In a FreeRTOS recording that gives the other tasks' priorities, the
/// control task takes its documented default (1), not the lowest priority
/// the trace gives (the idle task's 0): TzCtrl and Logger, both at 1, are
/// served first ready, first served, as recorded; at 0 TzCtrl waited
/// behind every job of Logger's (TraceRecorder's printer: +16 %).
#[test]
fn the_recorders_own_task_takes_its_default_among_given_priorities() {
    let text = "corera-log 1 clock=us os=freertos\ntask 1 task 1 Logger\ntask 2 task - TzCtrl\ntask 3 idle 0 IDLE\n\
        0 0 rdy 2\n5 0 rdy 1\n10 0 in 2\n20 0 out 2 done\n20 0 in 1\n30 0 out 1 done\n30 0 in 3\n";
    let mut p = parse_as(text, FormatChoice::AUTO).unwrap();
    let s = Schedule::of(&p.trace);
    let r = resolve(&mut p.trace, &s, &[]).unwrap();
    let tz = p.trace.tasks.iter().position(|t| t.name == "TzCtrl").unwrap();
    assert_eq!(p.trace.tasks[tz].priority, Some(1));
    assert_eq!(r.source[tz], PrioritySource::Assumed);
    assert!(r.warnings.iter().any(|w| w.message.contains("taken as 1")), "{:?}", r.warnings);
    assert!(!r.warnings.iter().any(|w| w.message.contains("no priority for ;")), "{:?}", r.warnings);
    // Under another kernel's numbering the default means nothing: the
    // lowest given stands.
    let mut other = parse_as(&text.replace("os=freertos", "os=zephyr"), FormatChoice::AUTO).unwrap();
    let s = Schedule::of(&other.trace);
    resolve(&mut other.trace, &s, &[]).unwrap();
    assert_eq!(other.trace.tasks[tz].priority, Some(0));
}
