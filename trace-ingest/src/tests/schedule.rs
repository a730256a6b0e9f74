//! The recorded schedule on small logs whose jobs, phases and causes are
//! worked out in the comments.

use super::parse_as;
use crate::*;

fn schedule(body: &str) -> Schedule {
    let text = format!("corera-log 1 clock=us\n{body}");
    Schedule::of(&parse_as(&text, FormatChoice::AUTO).unwrap().trace)
}

const US: u64 = 1000;

#[test]
fn jobs_split_into_phases_where_they_block_and_signals_name_their_cause() {
    // A (prio 2) runs 0..10, takes m at 2 us into its job, wakes B at 5 us
    // and gives m at 8 us, then finishes. B (prio 1) is released by that
    // wake at 5, runs 10..14, blocks, is made ready by A's second job's
    // wake at 24 (2 us into it), runs 25..30 and finishes: one job, two
    // phases. I interrupts B at 12..13.
    let s = schedule(
        "task 1 task 2 A\ntask 2 task 1 B\ntask 3 isr - I\nobj m mutex\n\
         0 0 rdy 1\n0 0 in 1\n2 0 take 1 m\n5 0 wake 1 2\n5 0 rdy 2\n8 0 give 1 m\n10 0 out 1 done\n\
         10 0 in 2\n12 0 ienter 3\n13 0 iexit 3\n14 0 out 2 block\n\
         22 0 rdy 1\n22 0 in 1\n24 0 wake 1 2\n24 0 rdy 2\n25 0 out 1 done\n25 0 in 2\n30 0 out 2 done\n",
    );
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let (a, b, i) = (&s.tasks[0], &s.tasks[1], &s.tasks[2]);
    assert_eq!(a.jobs.len(), 2);
    assert_eq!(
        a.jobs[0].phases[0].actions,
        vec![
            (2 * US, Action::Take(0)),
            (5 * US, Action::Signal { target: 1, job: 0, phase: 0, bytes: 0 }),
            (8 * US, Action::Give(0)),
            // It ends its job as the kernel chooses B next.
            (10 * US, Action::Next { target: 1 })
        ]
    );
    assert_eq!(
        a.jobs[1].phases[0].actions,
        vec![(2 * US, Action::Signal { target: 1, job: 0, phase: 1, bytes: 0 }), (3 * US, Action::Next { target: 1 })]
    );
    assert_eq!(b.jobs.len(), 1);
    let job = &b.jobs[0];
    assert_eq!((job.release_ns, job.finish_ns, job.response_ns()), (5 * US, Some(30 * US), Some(25 * US)));
    assert_eq!(job.phases.len(), 2);
    assert_eq!(job.phases[0].release, Release::Signal { by: 0 });
    assert_eq!(job.phases[1].release, Release::Signal { by: 0 });
    // B: 10..12 and 13..14, then 25..30; the ISR's microsecond is its own.
    assert_eq!((job.phases[0].exec_ns, job.phases[1].exec_ns), (3 * US, 5 * US));
    assert_eq!(b.running_ns(), 8 * US);
    assert_eq!(i.running_ns(), US);
    assert_eq!(i.jobs[0].response_ns(), Some(US));
    // B was ready 5..10 and 24..25.
    assert_eq!(b.ready_ns(), 6 * US);
    assert_eq!(
        b.running.iter().map(|r| (r.start_ns / US, r.end_ns / US)).collect::<Vec<_>>(),
        [(10, 12), (13, 14), (25, 30)]
    );
}

#[test]
fn tasks_that_never_finish_end_their_jobs_when_they_block() {
    // The FreeRTOS BTF logger's tasks loop on "wait; work": each block
    // ends a job, and a switch-in without a ready event releases the next;
    // the first, ready when the trace began, from the trace's start (its
    // dispatch is past).
    let s = schedule(
        "task 1 task 1 Loop\n0 0 in 1\n3 0 out 1 block\n10 0 in 1\n12 0 out 1 block\n20 0 rdy 1\n20 0 in 1\n21 0 out 1 block\n",
    );
    let jobs: Vec<_> = s.tasks[0].jobs.iter().map(|j| (j.release_ns / US, j.response_ns().map(|r| r / US))).collect();
    assert_eq!(jobs, [(0, Some(3)), (10, Some(2)), (20, Some(1))]);
    let releases: Vec<_> = s.tasks[0].jobs.iter().map(|j| (j.phases.len(), j.phases[0].release)).collect();
    assert_eq!(
        releases,
        [(1, Release::Delay { at: 0, after_ns: 0 }), (1, Release::Timer(10 * US)), (1, Release::Timer(20 * US))]
    );
}

#[test]
fn lost_switch_outs_end_the_stretch_and_count_once() {
    // A runs on core 0 from 0; B is switched in there at 4 with no
    // switch-out of A (oddity 1: A is taken as preempted, ready 4..6); A
    // is switched in on core 1 at 6. B then shows up on core 1 at 9 while
    // still on core 0 (oddity 2: its core-0 stretch ends at 9) and
    // displaces A there (oddity 3: A ready from 9 to the end at 10).
    let s = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\n\
         0 0 rdy 1\n0 0 in 1\n3 0 rdy 2\n4 0 in 2\n6 1 in 1\n9 1 in 2\n10 1 out 2 done\n",
    );
    let (a, b) = (&s.tasks[0], &s.tasks[1]);
    assert_eq!(
        a.running.iter().map(|r| (r.core, r.start_ns / US, r.end_ns / US)).collect::<Vec<_>>(),
        [(0, 0, 4), (1, 6, 9)]
    );
    assert_eq!(
        b.running.iter().map(|r| (r.core, r.start_ns / US, r.end_ns / US)).collect::<Vec<_>>(),
        [(0, 4, 9), (1, 9, 10)]
    );
    assert_eq!(a.ready_ns(), 2 * US + US, "ready 4..6 and from 9 to the end at 10");
    assert_eq!(b.jobs[0].response_ns(), Some(7 * US));
    assert_eq!(s.warnings.len(), 1);
    assert!(s.warnings[0].message.starts_with("3 switch events"), "{:?}", s.warnings);
}

#[test]
fn response_figures_follow_the_nearest_rank_definition() {
    let mut twenty: Vec<u64> = (1..=20).rev().collect();
    let s = ResponseStats::of(&mut twenty).unwrap();
    // 19 of 20 values (95 %) are at or below 19.
    assert_eq!((s.mean_ns, s.p95_ns, s.max_ns), (11, 19, 20), "mean 10.5 rounds up");
    assert_eq!(ResponseStats::of(&mut [7]), Some(ResponseStats { mean_ns: 7, p95_ns: 7, max_ns: 7 }));
    assert_eq!(ResponseStats::of(&mut []), None);
}

#[test]
fn waiting_is_attributed_to_the_tasks_that_ran() {
    // One core: L waits ready 0..10 while H runs, and is paused 12..15
    // while the ISR runs; H waits for nobody.
    let one = schedule(
        "task 1 task 1 L\ntask 2 task 5 H\ntask 3 isr - I\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 2\n10 0 out 2 done\n10 0 in 1\n12 0 ienter 3\n15 0 iexit 3\n20 0 out 1 done\n",
    );
    let spans = |f: &dyn Fn(&TaskSchedule) -> Vec<Stretch>| -> Vec<(TaskId, u64, u64)> {
        one.tasks
            .iter()
            .enumerate()
            .flat_map(|(t, s)| f(s).into_iter().map(move |r| (t as TaskId, r.start_ns, r.end_ns)))
            .collect()
    };
    let running = spans(&|s| s.running.clone());
    let waiting = spans(&|s| s.ready.iter().chain(&s.interrupted).copied().collect());
    let waited = waiting_shares(3, &running, &waiting);
    // L, ready at the scheduler's start instant, is released there behind
    // H, 1 ns later (the start's order): it waits from then.
    assert_eq!(waited[0], vec![(1, 10 * US - 1), (2, 3 * US)]);
    assert!(waited[1].is_empty());
    assert_eq!(one.tasks[0].interrupted.iter().map(Stretch::ns).sum::<u64>(), 3 * US);
    // Two tasks running at once share the wait: A waits 0..4 while B and C
    // run, 2 us each.
    let waited = waiting_shares(3, &[(1, 0, 4), (2, 0, 4)], &[(0, 0, 4)]);
    assert_eq!(waited[0], vec![(1, 2), (2, 2)]);
}

/// A gap in the recording (a halted target): what ran or waited across it
/// counts only outside it, and a job that spans it has no response time.
#[test]
fn time_inside_a_gap_of_the_recording_is_not_counted() {
    let text = "corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 1 B\n\
                0 0 rdy 1\n0 0 in 1\n2 0 rdy 2\n10 0 out 1 done\n10 0 in 2\n12 0 out 2 done\n\
                20 0 rdy 1\n20 0 in 1\n25 0 rdy 2\n100 0 out 1 done\n100 0 in 2\n102 0 out 2 done\n";
    let mut trace = parse_as(text, FormatChoice::AUTO).unwrap().trace;
    let plain = Schedule::of(&trace);
    trace.add_gap(30 * US, 90 * US);
    trace.add_gap(80 * US, 95 * US); // overlaps: merged
    assert_eq!(trace.gaps, vec![Gap { start: 30 * US, end: 95 * US }]);
    assert_eq!(trace.covered(), (102 - 65) * US);
    let s = Schedule::of(&trace);
    // A ran 0..10 and 20..100 less 30..95: 10 + 15 us; its second job's
    // response (20..100) spans the gap.
    assert_eq!(plain.tasks[0].running_ns(), 90 * US);
    assert_eq!(s.tasks[0].running_ns(), 25 * US);
    assert_eq!(s.tasks[0].jobs[1].phases[0].exec_ns, 15 * US);
    assert_eq!(s.tasks[0].responses().collect::<Vec<_>>(), vec![10 * US]);
    // B waited 2..10 and 25..100 less the gap: 8 + 10 us.
    assert_eq!(s.tasks[1].ready_ns(), 18 * US);
    assert_eq!(s.tasks[1].responses().collect::<Vec<_>>(), vec![10 * US]);
}

/// Task 1 (A) on core 0, at each millisecond from the first, wakes task 2
/// (B) 5 µs in, and B starts on core 1, leaving its idle task 9, each of
/// `delays` later and runs 20 µs.
fn wakes_onto_core_1(delays: &[u64]) -> String {
    let mut body = String::new();
    for (k, delay) in delays.iter().enumerate() {
        let (t, start) = (1000 * (k as u64 + 1), 1000 * (k as u64 + 1) + 5 + delay);
        body += &format!(
            "{t} 0 rdy 1\n{t} 0 in 1\n{} 0 wake 1 2\n{} 0 rdy 2\n{} 0 out 1 done\n{start} 1 out 9 preempt\n\
             {start} 1 in 2\n{} 1 out 2 block\n{} 1 in 9\n",
            t + 5,
            t + 5,
            t + 10,
            start + 20,
            start + 20
        );
    }
    body
}

/// Cross-core wakes: A on core 0 readies B five times while core 1 runs its
/// idle loop, and B starts there 40, 50, 50, 50, 60 µs later (median 50,
/// steady); a READY while B runs, a wake onto core 1 while C runs there,
/// and B readied on the core it then runs on do not count, nor a wake
/// across a gap. With four wakes: no measure.
#[test]
fn cross_core_wakes_are_measured_onto_idle_cores() {
    let mut body = String::from("task 1 task 2 A\ntask 2 task 1 B\ntask 3 task 1 C\ntask 9 idle 0 IDLE1\n0 1 in 9\n");
    body += &wakes_onto_core_1(&[40, 50, 50, 50, 60]);
    // A READY while B runs on core 2 (core 1 idle) is no wake: B blocks,
    // then starts on core 1 with no READY of its own (a recorder's loss).
    body += "6000 2 in 2\n6001 0 rdy 2\n6010 2 out 2 block\n6500 1 out 9 preempt\n6500 1 in 2\n6510 1 out 2 block\n\
             6510 1 in 9\n";
    // Onto a busy core 1 (C runs there), then on its own core 0.
    body += "7000 1 out 9 preempt\n7000 1 in 3\n7005 0 rdy 2\n7400 1 out 3 done\n7400 1 in 2\n7420 1 out 2 block\n\
             7420 1 in 9\n8000 0 rdy 2\n8000 0 in 2\n8010 0 out 2 block\n";
    let text = format!("corera-log 1 clock=us\n{body}");
    let trace = parse_as(&text, FormatChoice::AUTO).unwrap().trace;
    let w = trace.cross_core_wake(false).expect("five wakes onto an idle core");
    assert_eq!((w.wakes, w.median_ns, w.p25_ns, w.p75_ns), (5, 50 * US, 50 * US, 50 * US));
    assert!(w.is_steady());
    // A wake across a gap in the recording is not measured: 4 left.
    let mut gapped = trace.clone();
    gapped.add_gap(1_020_000, 1_030_000);
    assert_eq!(gapped.cross_core_wake(false), None);
    let four =
        text.replacen("1000 0 rdy 1\n1000 0 in 1\n1005 0 wake 1 2\n1005 0 rdy 2\n", "1000 0 rdy 1\n1000 0 in 1\n", 1);
    let four = parse_as(&four, FormatChoice::AUTO).unwrap().trace;
    assert_eq!(four.cross_core_wake(false), None);
}

/// The dispatch delay on a task's own core: T made ready on an idle core by
/// an ISR starts 7 µs after the ISR returns (a kernel whose PendSV and tick
/// the recorder does not trace), five times; measured from the ISR's exit,
/// not from the READY inside it. A READY while another task runs there is
/// no wake onto an idle core.
#[test]
fn the_dispatch_delay_onto_an_idle_core_is_measured_from_the_isrs_exit() {
    let mut body =
        String::from("task 1 task 2 T\ntask 2 task 1 Busy\ntask 5 isr 5 Irq\ntask 9 idle 0 IDLE\n0 0 in 9\n");
    for k in 1..=5u64 {
        let t = 1000 * k;
        body += &format!(
            "{t} 0 ienter 5\n{} 0 rdy 1\n{} 0 iexit 5\n{} 0 out 9 preempt\n{} 0 in 1\n{} 0 out 1 block\n{} 0 in 9\n",
            t + 2,
            t + 4,
            t + 11,
            t + 11,
            t + 50,
            t + 50
        );
    }
    body += "7000 0 out 9 preempt\n7000 0 in 2\n7010 0 rdy 1\n7100 0 out 2 done\n7100 0 in 1\n7120 0 out 1 block\n";
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let w = trace.local_wake().expect("five wakes onto an idle core");
    assert_eq!((w.wakes, w.median_ns, w.p25_ns, w.p75_ns), (5, 7 * US, 7 * US, 7 * US));
    assert_eq!(trace.cross_core_wake(false), None, "all on core 0");
}

/// A job that starts after a gap with no READY: its release was lost in
/// the gap, so its response is unknown (not the 10 µs from its switch-in).
#[test]
fn a_release_lost_in_a_gap_is_unknown() {
    let mut trace = parse_as(
        "corera-log 1 clock=us\ntask 1 task 1 X\n0 0 rdy 1\n0 0 in 1\n10 0 out 1 done\n600 0 in 1\n610 0 out 1 done\n\
         700 0 rdy 1\n700 0 in 1\n705 0 out 1 done\n",
        FormatChoice::AUTO,
    )
    .unwrap()
    .trace;
    trace.add_gap(20_000, 500_000);
    let s = Schedule::of(&trace);
    let responses: Vec<Option<u64>> = s.tasks[0].jobs.iter().map(|j| j.response_ns()).collect();
    assert_eq!(responses, [Some(10 * US), None, Some(5 * US)]);
}

/// Spans in which two cores run tasks of different priorities: A (2) on
/// core 0 beside B (1) on core 1 from 10 to 30 µs and again from 100 to
/// 180 µs (the longest); C (2) beside A from 40 to 60 µs is one priority;
/// the idle task and an ISR on core 1 beside A are no task; one core
/// alone shows nothing.
#[test]
fn priorities_run_at_once_are_spans_of_two_cores_running_two_priorities() {
    let body = "task 1 task 2 A\ntask 2 task 1 B\ntask 3 task 2 C\ntask 4 isr - I\ntask 9 idle 0 IDLE1\n\
         0 0 rdy 1\n0 0 in 1\n0 1 in 9\n10 1 out 9 preempt\n10 1 in 2\n30 1 out 2 block\n30 1 in 9\n\
         40 1 out 9 preempt\n40 1 in 3\n60 1 out 3 block\n60 1 in 9\n70 1 ienter 4\n80 1 iexit 4\n\
         100 1 out 9 preempt\n100 1 in 2\n180 1 out 2 done\n180 1 in 9\n200 0 out 1 done\n";
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let seen = trace.priorities_at_once().expect("two spans");
    assert_eq!((seen.spans, seen.total_ns, seen.longest_ns), (2, 100 * US, 80 * US));
    assert_eq!(seen.longest, (100 * US, 0, 1));
    assert_eq!(seen.yields, None, "two spans are no measure of a yield");
    let one_core =
        "task 1 task 2 A\ntask 2 task 1 B\n0 0 rdy 1\n0 0 in 1\n10 0 out 1 done\n10 0 in 2\n20 0 out 2 done\n";
    let trace = parse_as(&format!("corera-log 1 clock=us\n{one_core}"), FormatChoice::AUTO).unwrap().trace;
    assert_eq!(trace.priorities_at_once(), None);
}

/// A task raised to the priority of the one beside it runs no second
/// priority: the span counts from where another lowers it again (the
/// yield's time), not from its start.
#[test]
fn priorities_run_at_once_follow_the_recorded_priority_changes() {
    let body = "task 1 task 4 Runner\ntask 2 task 2 PS\n0 0 rdy 1\n0 0 in 1\n10 0 prio 1 2 4\n20 1 rdy 2\n\
         20 1 in 2\n200 1 prio 2 2 2\n211 1 out 2 done\n500 0 out 1 done\n";
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let seen = trace.priorities_at_once().expect("one span");
    assert_eq!((seen.spans, seen.longest_ns, seen.longest), (1, 11 * US, (200 * US, 0, 1)));
}

/// Without ready events (the FreeRTOS BTF logger), the switches say what
/// released a job: B, switched in 2 µs after A left core 0, was released
/// by A there (READY over those 2 µs, A's phase ending in the hand-off);
/// A, switched in after the idle loop, by a delay of 21 µs from its own
/// switch-out; A's first job at its switch-in, a delay from the trace's
/// start (the dispatch that led to it is past, not to be charged again).
#[test]
fn without_ready_events_the_switches_say_what_released_a_job() {
    let s = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n\
         0 0 in 1\n10 0 out 1 block\n12 0 in 2\n20 0 out 2 block\n20 0 in 9\n\
         31 0 out 9 preempt\n31 0 in 1\n35 0 out 1 block\n",
    );
    let (a, b) = (&s.tasks[0], &s.tasks[1]);
    assert_eq!(a.jobs[0].phases[0].release, Release::Delay { at: 0, after_ns: 0 });
    assert_eq!(
        a.jobs[0].phases[0].actions,
        vec![(10 * US, Action::HandOff { target: 1, job: 0, phase: 0, preempts: false })]
    );
    assert_eq!(b.jobs[0].phases[0].release, Release::Signal { by: 0 });
    assert_eq!((b.jobs[0].release_ns, b.jobs[0].response_ns()), (10 * US, Some(10 * US)));
    assert_eq!(b.ready_ns(), 2 * US);
    assert_eq!(a.jobs[1].phases[0].release, Release::Delay { at: 31 * US, after_ns: 21 * US });
    assert_eq!((a.jobs[1].release_ns, a.jobs[1].response_ns()), (31 * US, Some(4 * US)));
    assert_eq!(a.ready_ns(), 0);
}

/// Without ready events, a task switched in again straight after its own
/// switch-out on its core, nothing else switched in between (not even the
/// idle loop, which this recording shows), never stopped being ready: it
/// yielded and the kernel chose it again (A at 13 µs, after a 3 µs
/// switch). After the idle loop ran (A at 30 µs) a timer released it. In
/// a recording that never shows the idle loop, the same switches may hide
/// it: a delay. A hand-off's switch is what its wake took (B: 2 µs).
#[test]
fn without_ready_events_a_task_chosen_again_at_once_stayed_ready() {
    let with_idle = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n\
         0 0 in 1\n10 0 out 1 block\n13 0 in 1\n20 0 out 1 block\n22 0 in 2\n25 0 out 2 block\n\
         25 0 in 9\n30 0 out 9 preempt\n30 0 in 1\n35 0 out 1 block\n",
    );
    let releases = |s: &Schedule| s.tasks[0].jobs.iter().map(|j| j.phases[0].release).collect::<Vec<_>>();
    assert_eq!(
        releases(&with_idle),
        [
            Release::Delay { at: 0, after_ns: 0 },
            Release::Reselected { at: 13 * US, switch_ns: 3 * US },
            Release::Delay { at: 30 * US, after_ns: 10 * US },
        ]
    );
    // Its response counts from the switch-in, as before: no READY.
    assert_eq!((with_idle.tasks[0].jobs[1].response_ns(), with_idle.tasks[0].ready_ns()), (Some(7 * US), 0));
    assert_eq!(with_idle.tasks[1].jobs[0].phases[0].wake, Some(RecordedWake { ns: 2 * US, across: false }));
    let without_idle = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\n\
         0 0 in 1\n10 0 out 1 block\n13 0 in 1\n20 0 out 1 block\n22 0 in 2\n25 0 out 2 block\n",
    );
    assert_eq!(releases(&without_idle)[1], Release::Delay { at: 13 * US, after_ns: 3 * US });
}

/// Without ready events, a hand-off from a task that stayed ready (switched
/// out preempted, as ftrace's `prev_state=R` says) is the kernel choosing
/// the incoming task over it: the hand-off says so, and the task's phase
/// goes on after it; one from a task that blocked does not.
#[test]
fn a_hand_off_from_a_preempted_task_says_it_preempts() {
    let s = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\ntask 3 task 1 C\n\
         0 0 in 1\n70 0 out 1 preempt\n70 0 in 2\n78 0 out 2 block\n78 0 in 3\n\
         160 0 out 3 block\n160 0 in 1\n230 0 out 1 block\n",
    );
    // A: one job of one phase, which goes on after its hand-off.
    assert_eq!((s.tasks[0].jobs.len(), s.tasks[0].jobs[0].phases.len()), (1, 1));
    let hand_off = |target, preempts| Action::HandOff { target, job: 0, phase: 0, preempts };
    let first_phases: Vec<_> = s.tasks[..2].iter().map(|t| t.jobs[0].phases[0].actions.clone()).collect();
    assert_eq!(first_phases, [vec![(70 * US, hand_off(1, true))], vec![(8 * US, hand_off(2, false))]]);
}

/// With ready events, each switch still says which task the kernel chose
/// next on that core: A, switched out preempted as it woke B, yields to B
/// there (its phase goes on after), and B, blocking with A and C ready,
/// chose C (at the end of its phase).
#[test]
fn with_ready_events_the_switches_say_whom_the_kernel_chose() {
    let s = schedule(
        "task 1 task 1 A\ntask 2 task 1 B\ntask 3 task 1 C\n\
         0 0 rdy 1\n0 0 in 1\n40 0 rdy 3\n50 0 wake 1 2\n50 0 rdy 2\n60 0 out 1 preempt\n60 0 in 2\n\
         80 0 out 2 block\n80 0 in 3\n90 0 out 3 block\n90 0 in 1\n200 0 out 1 block\n",
    );
    let (a, b) = (&s.tasks[0], &s.tasks[1]);
    let chose = |actions: &[(u64, Action)]| {
        actions
            .iter()
            .filter(|(_, x)| matches!(x, Action::Yield { .. } | Action::Next { .. }))
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(chose(&a.jobs[0].phases[0].actions), vec![(60 * US, Action::Yield { target: 1 })]);
    assert_eq!(a.jobs[0].phases.len(), 1);
    assert_eq!(chose(&b.jobs[0].phases[0].actions), vec![(20 * US, Action::Next { target: 2 })]);
    assert_eq!(b.jobs[0].phases[0].exec_ns, 20 * US);
}

/// Without ready events, the kernel's switch path shows as the time from
/// one task's switch-out to the next one's switch-in on that core (here 3
/// µs, five times); a switch-in after the idle loop is not one.
#[test]
fn without_ready_events_the_dispatch_delay_is_measured_at_the_hand_offs() {
    let mut body = String::from("task 1 task 1 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n0 0 in 1\n");
    for k in 0..5u64 {
        let t = 100 * k;
        body += &format!("{} 0 out 1 block\n{} 0 in 2\n{} 0 out 2 block\n{} 0 in 9\n", t + 10, t + 13, t + 20, t + 20);
        body += &format!("{} 0 out 9 preempt\n{} 0 in 1\n", t + 100, t + 100);
    }
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let w = trace.local_wake().expect("five hand-offs");
    assert_eq!((w.wakes, w.median_ns, w.p25_ns, w.p75_ns), (5, 3 * US, 3 * US, 3 * US));
}

/// With ready events, the time from one task's switch-out to the switch-in
/// of a task that was ready already is the kernel's context switch (here
/// 4 µs, five times). One onto a task made ready after the switch-out
/// (the core idled between: a release, not a switch) is not one, nor is
/// one after the idle loop.
#[test]
fn with_ready_events_the_context_switch_is_measured_between_ready_tasks() {
    let mut body = String::from("task 1 task 1 A\ntask 2 task 1 B\ntask 3 task 1 C\ntask 9 idle 0 IDLE\n0 0 in 9\n");
    for k in 0..5u64 {
        let t = 1000 * k + 100;
        body += &format!("{t} 0 rdy 1\n{t} 0 rdy 2\n{t} 0 out 9 preempt\n{t} 0 in 1\n");
        body += &format!("{} 0 out 1 block\n{} 0 in 2\n{} 0 out 2 block\n", t + 30, t + 34, t + 64);
        // C made ready 50 µs after B left: no switch, and not the idle
        // loop either (a recorder that does not show it).
        body += &format!("{} 0 rdy 3\n{} 0 in 3\n{} 0 out 3 block\n{} 0 in 9\n", t + 114, t + 114, t + 120, t + 120);
    }
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let w = trace.context_switch().expect("five switches");
    assert_eq!((w.wakes, w.median_ns, w.p25_ns, w.p75_ns), (5, 4 * US, 4 * US, 4 * US));
    // Without ready events the same stretch is a hand-off's dispatch.
    let stripped: String = body.lines().filter(|l| !l.contains(" rdy ")).map(|l| format!("{l}\n")).collect();
    let trace = parse_as(&format!("corera-log 1 clock=us\n{stripped}"), FormatChoice::AUTO).unwrap().trace;
    assert_eq!(trace.context_switch(), None);
}

/// A task whose timer releases come two ticks after its own block, however
/// long its job ran (D: `vTaskDelay(2)`), waits a delay: its releases
/// become delays from its block. One released every two ticks whatever
/// its job took (P, on core 1: `vTaskDelayUntil`) keeps its period.
#[test]
fn timer_releases_that_count_ticks_from_the_block_are_delays() {
    let tick = 1000;
    let mut lines: Vec<(u64, String)> = Vec::new();
    let mut ends = Vec::new();
    let mut release = 0;
    for exec in [300, 1200, 2500, 600, 1700, 200, 300] {
        lines.push((release, format!("{release} 0 rdy 1\n{release} 0 in 1\n")));
        lines.push((release + exec, format!("{} 0 out 1 block\n", release + exec)));
        ends.push((release, release + exec));
        release = ((release + exec) / tick + 2) * tick;
    }
    for (k, exec) in [300, 1200, 1500, 600, 1700, 200, 300].into_iter().enumerate() {
        let release = 2 * tick * k as u64;
        lines.push((release, format!("{release} 1 rdy 2\n{release} 1 in 2\n")));
        lines.push((release + exec, format!("{} 1 out 2 block\n", release + exec)));
    }
    lines.sort_by_key(|l| l.0);
    let body: String = lines.into_iter().map(|l| l.1).collect();
    let text = format!("corera-log 1 clock=us\ntask 1 task 1 D\ntask 2 task 1 P\n{body}");
    let mut trace = parse_as(&text, FormatChoice::AUTO).unwrap().trace;
    trace.tick = Some(Tick { period_ns: tick * US, at_ns: 0, source: "the test".into() });
    let s = Schedule::of(&trace);
    let d: Vec<Release> = s.tasks[0].jobs.iter().map(|j| j.phases[0].release).collect();
    let expected: Vec<Release> = std::iter::once(Release::Timer(0))
        .chain(ends.windows(2).map(|w| Release::Delay { at: w[1].0 * US, after_ns: (w[1].0 - w[0].1) * US }))
        .collect();
    assert_eq!(d, expected);
    assert!(s.tasks[1].jobs.iter().all(|j| matches!(j.phases[0].release, Release::Timer(_))), "P keeps its period");
    // Without a recorded tick nothing is counted: D keeps its timers.
    trace.tick = None;
    let s = Schedule::of(&trace);
    assert!(s.tasks[0].jobs.iter().all(|j| matches!(j.phases[0].release, Release::Timer(_))));
}

/// Tick instants are whole periods from the recorded one, on both sides
/// of it: (0, 2.5 ms] holds 0.5, 1.5 and 2.5 ms of a 1 ms tick seen at
/// 2.5 ms; (1.6, 2.4] none; a tick seen before the range counts the same.
#[test]
fn ticks_are_counted_on_both_sides_of_the_recorded_instant() {
    let tick = Tick { period_ns: 1000, at_ns: 2500, source: "the test".into() };
    assert_eq!((tick.count_between(0, 2500), tick.count_between(1600, 2400)), (3, 0));
    let early = Tick { at_ns: 500, ..tick };
    assert_eq!((early.count_between(1200, 2200), early.count_between(2600, 9500)), (1, 7));
}

/// A wake's cost as recorded, where the switch that started the task made
/// way for it: U and T, made ready on the idle core at 100 and 104, start
/// when the idle task leaves at 130 (U) and after U (T): both woke with
/// that switch (30 and 26 µs). T made ready at 300 by an ISR returning at
/// 305 on the core `Low` runs on starts as `Low` is preempted at 320 (15
/// µs from the ISR's exit, whose time is its own). U made ready at 330
/// while T runs starts as T blocks: no switch made way for it, no wake.
/// B, woken at 600 by A on core 0 onto core 1, starts as `Low` is
/// preempted there at 622: 22 µs across cores. M, made ready at 710 while
/// T runs, waits for T, not for A, which preempts T at 740: A woke in 10
/// µs, M has no wake recorded (it is less urgent than T). U, made ready
/// at 810 beside A (812) while M runs, is more urgent than M: it waited
/// for the preemption at 820 too (10 µs), and runs after A. Made ready
/// again at 906 by an ISR whose return (a chance to preempt M) passed,
/// it waited for M, not for A's preemption at 920.
#[test]
fn a_wake_is_what_the_switch_that_made_way_for_it_took() {
    let s = schedule(
        "task 1 task 2 T\ntask 2 task 2 U\ntask 3 task 1 Low\ntask 4 task 3 A\ntask 5 task 3 B\ntask 6 isr - I\n\
         task 7 task 1 M\ntask 9 idle 0 IDLE\n\
         0 0 in 9\n100 0 rdy 2\n104 0 rdy 1\n130 0 out 9 preempt\n130 0 in 2\n150 0 out 2 block\n150 0 in 1\n\
         170 0 out 1 block\n170 0 in 9\n200 0 out 9 preempt\n200 0 in 3\n\
         300 0 ienter 6\n302 0 rdy 1\n305 0 iexit 6\n320 0 out 3 preempt\n320 0 in 1\n\
         330 0 rdy 2\n340 0 out 1 block\n340 0 in 2\n350 0 out 2 block\n350 0 in 3\n400 0 out 3 block\n\
         400 0 in 9\n500 1 in 3\n590 0 out 9 preempt\n590 0 in 4\n600 0 wake 4 5\n600 0 rdy 5\n\
         622 1 out 3 preempt\n622 1 in 5\n640 1 out 5 block\n640 1 in 3\n650 0 out 4 block\n650 0 in 9\n\
         700 0 rdy 1\n700 0 out 9 preempt\n700 0 in 1\n710 0 rdy 7\n730 0 rdy 4\n740 0 out 1 preempt\n740 0 in 4\n\
         750 0 out 4 block\n750 0 in 1\n760 0 out 1 block\n760 0 in 7\n770 0 out 7 block\n\
         770 0 in 9\n800 0 rdy 7\n800 0 out 9 preempt\n800 0 in 7\n810 0 rdy 2\n812 0 rdy 4\n\
         820 0 out 7 preempt\n820 0 in 4\n830 0 out 4 block\n830 0 in 2\n840 0 out 2 block\n840 0 in 7\n\
         850 0 out 7 block\n850 0 in 9\n900 0 rdy 7\n900 0 out 9 preempt\n900 0 in 7\n905 0 ienter 6\n\
         906 0 rdy 2\n907 0 iexit 6\n915 0 rdy 4\n920 0 out 7 preempt\n920 0 in 4\n930 0 out 4 block\n\
         930 0 in 2\n940 0 out 2 block\n940 0 in 7\n950 0 out 7 block\n",
    );
    let wake = |t: usize, j: usize| s.tasks[t].jobs[j].phases[0].wake;
    let local = |us: u64| Some(RecordedWake { ns: us * US, across: false });
    assert_eq!((wake(1, 0), wake(0, 0)), (local(30), local(26)));
    assert_eq!(wake(0, 1), local(15));
    assert_eq!(wake(1, 1), None, "T blocked: no switch made way for U");
    assert_eq!(wake(4, 0), Some(RecordedWake { ns: 22 * US, across: true }));
    assert_eq!((wake(3, 1), wake(6, 0)), (local(10), None));
    // U, made ready beside A and more urgent than the M that A preempts,
    // waited for that preemption too.
    assert_eq!((wake(3, 2), wake(1, 2)), (local(8), local(10)));
    // U, made ready at 906 by an ISR whose return at 907 left M running
    // (as if M had inherited an urgency), waited for M, not for A.
    assert_eq!((wake(3, 3), wake(1, 3)), (local(5), None));
}

/// A core that stays idle while more tasks are made ready on it than its
/// list of woken tasks keeps room for (256) loses none of them: when the
/// idle task leaves at 1000 µs, each of the 300 tasks made ready at 1 to
/// 300 µs took that switch as its wake (999 to 700 µs). Tasks 1 to 20 run
/// on core 1 meanwhile, and take no wake from core 0's switch.
#[test]
fn a_core_idle_through_many_readies_records_every_wake() {
    let n = 300;
    let mut log = String::from("task 1000 idle 0 IDLE\n");
    for k in 1..=n {
        log.push_str(&format!("task {k} task 1 T{k}\n"));
    }
    log.push_str("0 0 in 1000\n");
    for k in 1..=n {
        log.push_str(&format!("{k} 0 rdy {k}\n"));
    }
    for k in 1..=20 {
        log.push_str(&format!("{} 1 in {k}\n{} 1 out {k} block\n", 400 + 2 * k, 401 + 2 * k));
    }
    log.push_str("1000 0 out 1000 preempt\n");
    for k in 21..=n {
        let now = 1000 + k - 21;
        log.push_str(&format!("{now} 0 in {k}\n{} 0 out {k} block\n", now + 1));
    }
    let s = schedule(&log);
    // The idle task was declared first.
    let wake = |k: usize| s.tasks[k].jobs[0].phases[0].wake.map(|w| w.ns / US);
    assert_eq!((wake(21), wake(22), wake(44)), (Some(979), Some(978), Some(956)), "the oldest kept");
    assert_eq!((wake(256), wake(257), wake(300)), (Some(744), Some(743), Some(700)));
    assert_eq!(wake(1), None, "ran on core 1 first");
}

/// Under a kernel that runs one priority at a time (FreeRTOS SMP's
/// default), a task made ready while a more urgent one runs is held back
/// by it: B, made ready with H (priority 3) running on core 2, starts on
/// idle core 1 only as H leaves, 2 ms later; that is not what a wake
/// takes, and the five other wakes' 50 µs stand. Counted, the stress test
/// recorded with ready events on two cores read 32 to 1,284 µs in the
/// middle half (no one latency) where its true wakes take a steady 32 µs.
#[test]
fn a_wake_held_back_by_a_more_urgent_task_is_not_measured() {
    let mut body = String::from("task 1 task 1 A\ntask 2 task 1 B\ntask 3 task 3 H\ntask 9 idle 0 IDLE1\n0 1 in 9\n");
    body += &wakes_onto_core_1(&[50; 5]);
    body += "10000 2 rdy 3\n10000 2 in 3\n10005 0 rdy 2\n12000 2 out 3 done\n12000 1 out 9 preempt\n12000 1 in 2\n\
             12020 1 out 2 block\n12020 1 in 9\n";
    let trace = parse_as(&format!("corera-log 1 clock=us\n{body}"), FormatChoice::AUTO).unwrap().trace;
    let w = trace.cross_core_wake(true).expect("five wakes onto an idle core");
    assert_eq!((w.wakes, w.median_ns, w.p75_ns), (5, 50 * US, 50 * US));
    // Under a kernel that runs several priorities at once, its 1995 µs
    // count as a wake.
    let w = trace.cross_core_wake(false).expect("six wakes onto an idle core");
    assert_eq!((w.wakes, w.median_ns), (6, 50 * US));
}

/// An application event the recorder wrote is an action at its offset and
/// nothing else: with A's two `log` lines taken out, the schedule is the
/// same but for those actions (a yield read from the switch that follows
/// the second stays a yield).
#[test]
fn a_logged_event_is_an_action_and_changes_nothing_else() {
    let body = "task 1 task 2 A\ntask 2 task 2 B\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n3 0 log 1\n9 0 log 1\n10 0 out 1 preempt\n10 0 in 2\n\
         20 0 out 2 done\n20 0 in 1\n30 0 out 1 done\n";
    let with = schedule(body);
    let without = schedule(&body.replace("3 0 log 1\n", "").replace("9 0 log 1\n", ""));
    let a = &with.tasks[0].jobs[0].phases[0];
    let logged: Vec<_> = a.actions.iter().filter(|(_, x)| *x == Action::Logged).map(|(at, _)| *at).collect();
    assert_eq!(logged, vec![3 * US, 9 * US]);
    assert!(a.actions.iter().any(|(_, x)| matches!(x, Action::Yield { .. })), "{:?}", a.actions);
    let mut stripped = with.clone();
    for t in &mut stripped.tasks {
        for j in &mut t.jobs {
            for p in &mut j.phases {
                p.actions.retain(|(_, x)| *x != Action::Logged);
            }
        }
    }
    assert_eq!(stripped.tasks, without.tasks);
}
