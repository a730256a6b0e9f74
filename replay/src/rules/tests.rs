//! The kernel's rules in the replay: time slicing at the tick and ISRs
//! that nest or wait, each from the recording or the platform file.

use corera_placement::{Kernel, Platform};
use corera_trace_ingest::{FormatChoice, ReadOptions, Trace, read};

use crate::{Outcome, Policy, Replay, Setup, Workload, generate, simulate};

fn log(text: &str) -> Trace {
    read(&mut text.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("t.log")).unwrap().trace
}

fn single(r: &Replay) -> Outcome {
    let platform = Platform::identical(1);
    simulate(r, &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: true })
}

/// Replays `r` on one core with no costs but what `set` gives.
fn single_costing(r: &Replay, set: impl FnOnce(&mut corera_placement::Costs)) -> Outcome {
    let mut platform = Platform::identical(1);
    platform.costs = corera_placement::Costs::none();
    set(&mut platform.costs);
    simulate(r, &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: false })
}

/// Replays `r` (of `trace`, one job per task) on one core and checks each
/// task's response against the recording's; the outcome, for more checks.
fn assert_first_responses_as_recorded(trace: &Trace, r: &Replay) -> Outcome {
    let o = single(r);
    let s = corera_trace_ingest::Schedule::of(trace);
    for (i, t) in r.tasks.iter().enumerate() {
        let recorded = s.tasks[t.id as usize].jobs[0].response_ns();
        assert_eq!(o.tasks[i].response_max_ns, recorded, "{}: {:?}", t.name, o.timeline);
    }
    o
}

/// `r` with no job's own wake recorded (`Phase::wake`): the platform's
/// costs alone charge its wakes.
fn without_recorded_wakes(mut r: Replay) -> Replay {
    r.forget_recorded_wakes();
    r
}

/// Replays `r` under AMP, task `i` on core `core_of[i]`, on `platform`
/// with no costs but a 5 µs message latency per unit of distance.
fn amp_at_5_us_a_hop(r: &Replay, platform: Platform, core_of: &[u16]) -> Outcome {
    let costs = corera_placement::Costs { message_latency_ns: 5_000, ..corera_placement::Costs::none() };
    let platform = Platform { costs, ..platform };
    simulate(
        r,
        &Setup { policy: Policy::Amp, platform: &platform, core_of: Some(core_of), masks: None, timeline: true },
    )
}

fn kernel(tick_us: Option<f64>, time_slicing: Option<bool>, isr_nesting: Option<bool>) -> Kernel {
    Kernel { tick_us, time_slicing, isr_nesting, ..Kernel::default() }
}

/// Two tasks of one priority released together, 3 ms each, and a more
/// urgent one: run to completion they finish at 3 and 6 ms; sliced at a
/// 1 ms tick they take turns (A B A B A B) and finish at 5 and 6 ms; the
/// more urgent task is never sliced against them.
#[test]
fn equal_priorities_take_turns_at_every_tick() {
    let w = Workload::from_toml(
        r#"
        name = "t"
        duration_ms = 20
        [[task]]
        name = "A"
        priority = 1
        period_us = 20000
        exec_us = [3000, 3000]
        [[task]]
        name = "B"
        priority = 1
        period_us = 20000
        exec_us = [3000, 3000]
        [[task]]
        name = "Hi"
        priority = 2
        period_us = 20000
        offset_us = 10000
        exec_us = [3000, 3000]
        "#,
    )
    .unwrap();
    let mut r = Replay::from_trace(&generate(&w).unwrap(), &[]);
    let max = |o: &Outcome, i: usize| o.tasks[i].response_max_ns.unwrap();
    let whole = single(&r);
    assert_eq!((max(&whole, 0), max(&whole, 1)), (3_000_000, 6_000_000));
    r.set_kernel(&kernel(Some(1000.0), Some(true), None)).unwrap();
    assert!(r.rules.describe().starts_with("equal priorities time-sliced: every 1000 µs"), "{}", r.rules.describe());
    let sliced = single(&r);
    assert_eq!((max(&sliced, 0), max(&sliced, 1)), (5_000_000, 6_000_000));
    let turns: Vec<(u32, u64)> =
        sliced.timeline.iter().filter(|s| s.start_ns < 6_000_000).map(|s| (s.task, s.start_ns / 1_000)).collect();
    assert_eq!(turns, [(0, 0), (1, 1000), (0, 2000), (1, 3000), (0, 4000), (1, 5000)]);
    assert_eq!(max(&sliced, 2), 3_000_000, "nothing of its priority: one stretch");
    assert_eq!(sliced.running_ns, whole.running_ns, "slicing moves work, it adds none");
}

/// A recording with one ISR entered inside another: the replay nests
/// them as recorded; told `isr_nesting = false` the urgent one waits for
/// the running one to end (50 µs in, 100 µs long: 60 µs instead of 10).
#[test]
fn isrs_nest_as_recorded_or_wait_when_told() {
    let trace = log("corera-log 1 clock=us\ntask 1 isr 1 IrqLow\ntask 2 isr 2 IrqHigh\ntask 3 task 1 T\n\
         0 0 rdy 3\n0 0 in 3\n100 0 ienter 1\n150 0 ienter 2\n160 0 iexit 2\n210 0 iexit 1\n300 0 out 3 done\n");
    let mut r = Replay::from_trace(&trace, &[]);
    assert_eq!(r.recorded.isr_nesting, Some(true));
    assert!(r.rules.isr_nesting, "{}", r.rules.describe());
    let high = |o: &Outcome| o.tasks[1].response_max_ns.unwrap();
    assert_eq!(high(&single(&r)), 10_000);
    r.set_kernel(&kernel(None, None, Some(false))).unwrap();
    assert!(r.rules.describe().contains("do not nest"), "{}", r.rules.describe());
    assert_eq!(high(&single(&r)), 60_000);
}

/// What each recording shows: the FreeRTOS logger's `TICK` events (1 ms,
/// a kernel that slices), the printer log (generated by corera, whose ISRs
/// never nest, and no tick); a platform file asking for slicing with no
/// tick anywhere is refused.
#[test]
fn the_rules_come_from_the_recording_unless_the_platform_says() {
    let load = |path: &std::path::Path| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        let text = std::fs::read(&path).unwrap();
        read(&mut &text[..], FormatChoice::AUTO, &ReadOptions::new(&path.display().to_string())).unwrap().trace
    };
    let btf = corera_testdata::shared_or_skip!("traces/btf/freertos_v11_rv64sim_2cores.btf");
    let freertos = Replay::from_trace(&load(&btf), &[]);
    let slice = freertos.rules.slice.expect("the logger's tick");
    assert!((990_000..=1_010_000).contains(&slice.period_ns), "{}", slice.period_ns);
    assert!(freertos.rules.slicing_from.contains("STI TICK"), "{}", freertos.rules.slicing_from);
    let mut printer = Replay::from_trace(&load(std::path::Path::new("samples/printer/printer.log")), &[]);
    assert_eq!(printer.rules.slice, None);
    assert_eq!(printer.recorded.isr_nesting, Some(false));
    assert!(!printer.rules.isr_nesting);
    let refused = printer.set_kernel(&kernel(None, Some(true), None)).unwrap_err();
    assert_eq!(refused, crate::ReplayError::SlicingWithoutTick);
    assert!(refused.to_string().contains("tick_us"), "{refused}");
    printer.set_kernel(&kernel(Some(500.0), None, Some(true))).unwrap();
    assert_eq!(printer.rules.slice, None, "a tick alone does not slice a kernel that shows no slicing");
    assert!(printer.rules.isr_nesting);
}

/// Tick instants: whole periods from the recorded one, on either side.
#[test]
fn ticks_fall_on_whole_periods_from_the_recorded_one() {
    let s = crate::Slice { period_ns: 1000, at_ns: 2300 };
    assert_eq!(s.next_after(0), 300);
    assert_eq!(s.next_after(300), 1300);
    assert_eq!(s.next_after(1299), 1300);
    assert!(s.is_tick(2300) && s.is_tick(300) && !s.is_tick(301) && !s.is_tick(0));
}

/// The replay's clock starts at the trace's first event, and so does the
/// tick's phase: a trace starting at 1.4 ms with ticks recorded at
/// 1.7 ms + k ms ticks at 0.3 ms + k ms in the replay; a tick given at 0
/// (a TraceRecorder header's) at 0.6 ms + k ms. (The ESP32 recordings start
/// 1.408 ms into their timebase; sliced at unshifted ticks, their `alloc1`
/// replayed 84 % slower than recorded.)
#[test]
fn the_recorded_tick_is_moved_to_the_replays_clock() {
    let mut trace =
        log("corera-log 1 clock=us os=freertos\ntask 1 task 1 T\n1400 0 rdy 1\n1400 0 in 1\n1900 0 out 1 done\n");
    assert_eq!(trace.start(), 1_400_000);
    let tick = |at_ns| corera_trace_ingest::Tick { period_ns: 1_000_000, at_ns, source: "t".into() };
    trace.tick = Some(tick(1_700_000));
    assert_eq!(crate::Recorded::of(&trace).tick.unwrap().at_ns, 300_000);
    trace.tick = Some(tick(0));
    assert_eq!(crate::Recorded::of(&trace).tick.unwrap().at_ns, 600_000);
    let r = Replay::from_trace(&trace, &[]);
    assert_eq!(r.rules.slice.unwrap().next_after(0), 600_000);
}

/// The scheduler start: tasks made ready at creation (10 and 20 µs), the
/// scheduler starting at 100 µs with B, the last created of the highest
/// priority, which runs a 400 µs first job. Released at their creation,
/// the replay ran A first, from 0 (a response of 100 µs where 500 were
/// recorded); released at the start in the recorded order, it reproduces
/// every response.
#[test]
fn what_was_ready_before_the_scheduler_started_is_released_at_its_start() {
    let trace = log("corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 2 B\ntask 3 task 1 Low\n\
         0 0 rdy 1\n10 0 rdy 2\n20 0 rdy 3\n100 0 in 2\n500 0 out 2 done\n500 0 in 1\n600 0 out 1 done\n\
         600 0 in 3\n650 0 out 3 done\n");
    let s = corera_trace_ingest::Schedule::of(&trace);
    let release = |t: usize| s.tasks[t].jobs[0].release_ns;
    assert_eq!(
        (release(1), release(0), release(2)),
        (100_000, 100_001, 100_002),
        "at the start, in the recorded order"
    );
    assert_eq!(s.tasks[0].ready_ns(), 400_000 - 1, "A waited from its release at the start, not from its creation");
    let r = Replay::from_trace(&trace, &[]);
    let o = assert_first_responses_as_recorded(&trace, &r);
    let first = o.timeline.iter().min_by_key(|seg| seg.start_ns).unwrap();
    assert_eq!((r.tasks[first.task as usize].name.as_str(), first.start_ns), ("B", 100_000));
}

/// A task made ready at the very instant the scheduler starts, before its
/// first switch-in in the recording (FreeRTOS creates the timer task in
/// `vTaskStartScheduler`), is released at the start with the others, in
/// the order they ran: T, readied at 100 µs as C starts the scheduler,
/// ran after B. Released at its own ready, level with B's place at the
/// start and listed first, it ran first (B 80 µs where 130 were recorded).
#[test]
fn a_task_ready_as_the_scheduler_starts_is_released_with_the_others() {
    let trace = log("corera-log 1 clock=us\ntask 1 task 2 T\ntask 2 task 2 B\ntask 3 task 3 C\n\
         0 0 rdy 2\n100 0 rdy 1\n100 0 in 3\n150 0 out 3 done\n150 0 in 2\n200 0 out 2 done\n\
         200 0 in 1\n230 0 out 1 done\n");
    let s = corera_trace_ingest::Schedule::of(&trace);
    let release = |t: usize| s.tasks[t].jobs[0].release_ns;
    assert_eq!((release(1), release(0)), (100_000, 100_001), "B, then T, at the start");
    let r = Replay::from_trace(&trace, &[]);
    assert_first_responses_as_recorded(&trace, &r);
}

/// The task the scheduler starts with takes no dispatch path: the start
/// restores its context directly. B, ready at creation (10 µs), starts the
/// scheduler at 100 µs and runs 24 µs; A, ready from the start too, waits
/// for it. With a 10 µs dispatch charged to every release, B started at
/// 110 µs (34 µs for the 24 recorded, 10 of them READY); as the first task,
/// it starts at once, and A, switched to from B, still takes the dispatch.
/// FreeRTOS's build for several cores starts each on its idle task: there
/// B is switched to, dispatch and all, as the recorded two-core starts show.
#[test]
fn the_first_task_started_takes_no_dispatch() {
    let text = |os: &str| {
        format!(
            "corera-log 1 clock=us{os}\ntask 1 task 2 A\ntask 2 task 2 B\n0 0 rdy 1\n10 0 rdy 2\n100 0 in 2\n\
             124 0 out 2 done\n124 0 in 1\n150 0 out 1 done\n"
        )
    };
    let trace = log(&text(""));
    assert_eq!(corera_trace_ingest::Schedule::of(&trace).started_with, vec![Some(1)]);
    let dispatch = |c: &mut corera_placement::Costs| c.dispatch_ns = Some(10_000);
    let r = Replay::from_trace(&trace, &[]);
    let o = single_costing(&r, dispatch);
    let (a, b) = (0, 1);
    assert_eq!(r.tasks[b].name, "B");
    assert_eq!(o.tasks[b].response_max_ns, Some(24_000), "B from the scheduler start");
    assert_eq!(o.tasks[b].ready_ns, 0);
    assert_eq!(o.tasks[a].response_max_ns, Some(50_000 - 1), "A behind B, from the start");
    let freertos = Replay::from_trace(&log(&text(" os=freertos")), &[]);
    let one = single_costing(&freertos, dispatch);
    assert_eq!(one.tasks[b].response_max_ns, Some(24_000), "one core: B directly");
    let two = two_cores_costing(&freertos, dispatch);
    assert_eq!(two.tasks[b].response_max_ns, Some(34_000), "the SMP build starts on idle: {:?}", two.timeline);
    // Under another kernel, a core of several starts its first task
    // directly still.
    let two = two_cores_costing(&r, dispatch);
    assert_eq!(two.tasks[b].response_max_ns, Some(24_000));
}

/// FreeRTOS on two cores: A and B made ready before the scheduler starts
/// (at 100 µs, with A on core 0); core 1 first switches at 160 µs, out of
/// its idle task, and `switch` µs later to B, which runs 30 µs.
fn two_cores_started(switch: u64) -> Trace {
    let (b, end) = (160 + switch, 190 + switch);
    log(&format!(
        "corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 2 B\ntask 8 idle 0 IDLE0\n\
         task 9 idle 0 IDLE1\n0 0 rdy 1\n10 0 rdy 2\n100 0 in 1\n160 1 out 9 preempt\n{b} 1 in 2\n{end} 1 out 2 done\n\
         {end} 1 in 9\n300 0 out 1 done\n300 0 in 8\n"
    ))
}

/// A core whose first switch is a switch-out came up running a task the
/// recording does not show switched in (FreeRTOS SMP's core 1, up on its
/// idle task): the task it takes as it comes up (B at 160 µs) switches
/// from that one, and pays the context switch (10 µs, to 170) as any
/// switch does. Replayed without it, B ran from 160 (a response of 90 µs
/// where 100 were recorded). Core 0's first switch is A's switch-in: A
/// pays none.
#[test]
fn a_core_up_on_its_idle_task_switches_from_it() {
    let trace = two_cores_started(10);
    let s = corera_trace_ingest::Schedule::of(&trace);
    assert_eq!(s.cores_up_running, vec![false, true]);
    let r = Replay::from_trace(&trace, &[]);
    let o = two_cores_costing(&r, |c| c.context_switch_ns = Some(10_000));
    let b = r.tasks.iter().position(|t| t.name == "B").unwrap();
    assert_eq!(s.tasks[1].jobs[0].response_ns(), Some(100_000 - 1));
    assert_eq!(o.tasks[b].response_max_ns, s.tasks[1].jobs[0].response_ns(), "{:?}", o.timeline);
    let a = r.tasks.iter().position(|t| t.name == "A").unwrap();
    assert_eq!(o.tasks[a].context_switch_ns, 0);
}

/// A kernel brings its cores up one after another (FreeRTOS SMP's first
/// core starts the others): A and B, made ready before the scheduler
/// started, are released at its start on core 0 (100 µs); A runs there,
/// but core 1 first switches at 160 µs, when B starts. Replayed with core
/// 1 up from 0, B ran at once (30 µs where 90 were recorded); up from its
/// first switch, it waits as recorded. A trace begun mid-run shows no
/// core coming up, nor does a Linux one.
#[test]
fn a_core_runs_nothing_before_its_scheduler_comes_up() {
    let trace = two_cores_started(0);
    let s = corera_trace_ingest::Schedule::of(&trace);
    assert_eq!(s.cores_up_ns, vec![100_000, 160_000]);
    let r = Replay::from_trace(&trace, &[]);
    let o = two_cores_costing(&r, |_| {});
    let b = r.tasks.iter().position(|t| t.name == "B").unwrap();
    assert_eq!(o.tasks[b].response_max_ns, s.tasks[1].jobs[0].response_ns(), "{:?}", o.timeline);
    assert_eq!(o.tasks[b].response_max_ns, Some(90_000 - 1));
    let mid_run = log("corera-log 1 clock=us\ntask 1 task 2 A\n0 0 rdy 1\n50 0 out 1 done\n");
    assert!(corera_trace_ingest::Schedule::of(&mid_run).cores_up_ns.is_empty());
    // Linux schedules before any trace starts: a trace of some of its
    // tasks may open on a switch-in, and what was woken before it waited
    // from its wake.
    let linux = log("corera-log 1 clock=us os=linux\ntask 1 task 120 A\n0 0 rdy 1\n40 0 in 1\n50 0 out 1 done\n");
    let s = corera_trace_ingest::Schedule::of(&linux);
    assert!(s.cores_up_ns.is_empty());
    assert_eq!(s.tasks[0].jobs[0].release_ns, 0);
}

/// A trace that begins with the system running (its first switch is a
/// switch-out) has no scheduler start: a task made ready before that
/// switch-out waited from then.
#[test]
fn a_trace_begun_mid_run_keeps_its_first_releases() {
    let trace = log("corera-log 1 clock=us\ntask 1 task 2 Hi\ntask 2 task 1 Lo\n\
         0 0 rdy 2\n50 0 out 1 done\n50 0 in 2\n80 0 out 2 done\n");
    let s = corera_trace_ingest::Schedule::of(&trace);
    assert_eq!(s.tasks[1].jobs[0].release_ns, 0);
}

/// Where a preempted task goes among the ready tasks of its priority, by
/// the recorded OS: X (priority 1) runs from 0, Y (priority 1) is ready
/// from 10 µs, H (priority 2) preempts X at 20 µs for 30 µs. FreeRTOS's
/// next switch moves its ready list's index past X, so Y runs at 50;
/// Zephyr keeps X at the head of its queue, so X resumes. An interrupt
/// that switches no task (an ISR at 100 µs) leaves X in place under both.
#[test]
fn a_preempted_task_goes_behind_its_equals_where_the_kernel_sends_it() {
    let text = |os: &str| {
        format!(
            "corera-log 1 clock=us os={os}\ntask 1 task 1 X\ntask 2 task 1 Y\ntask 3 task 2 H\ntask 4 isr 9 Irq\n\
             0 0 rdy 1\n0 0 in 1\n10 0 rdy 2\n20 0 rdy 3\n20 0 out 1 preempt\n20 0 in 3\n50 0 out 3 done\n\
             50 0 in 2\n90 0 out 2 done\n90 0 in 1\n100 0 ienter 4\n105 0 iexit 4\n300 0 out 1 done\n\
             400 0 rdy 2\n400 0 in 2\n420 0 out 2 done\n"
        )
    };
    let first_after_h = |os: &str| {
        let r = Replay::from_trace(&log(&text(os)), &[]);
        let o = single(&r);
        let seg = o.timeline.iter().find(|s| s.start_ns == 50_000).expect("a segment from 50 µs");
        (r.tasks[seg.task as usize].name.clone(), r.rules.describe())
    };
    let (freertos, rules) = first_after_h("freertos");
    assert_eq!(freertos, "Y", "{rules}");
    assert!(rules.contains("a preempted task going behind them"), "{rules}");
    let (zephyr, rules) = first_after_h("zephyr");
    assert_eq!(zephyr, "X", "{rules}");
    assert!(rules.contains("resuming first"), "{rules}");
    // The ISR at 100 µs: X runs on after it under FreeRTOS (no Y ready then:
    // add one to see that the interrupt alone does not send X back).
    let with_y = text("freertos")
        .replace("100 0 ienter 4", "95 0 rdy 2\n100 0 ienter 4")
        .replace("400 0 rdy 2\n400 0 in 2\n420 0 out 2 done\n", "300 0 in 2\n340 0 out 2 done\n");
    let r = Replay::from_trace(&log(&with_y), &[]);
    let o = single(&r);
    let after_isr = o.timeline.iter().find(|s| s.start_ns == 105_000).expect("a segment from 105 µs");
    assert_eq!(r.tasks[after_isr.task as usize].name, "X");
    // The platform file overrides the OS's row.
    let mut r = Replay::from_trace(&log(&text("zephyr")), &[]);
    r.set_kernel(&Kernel { preempted_to_back: Some(true), ..Kernel::default() }).unwrap();
    assert!(r.rules.describe().contains("the platform file's preempted_to_back"), "{}", r.rules.describe());
}

/// Equal-priority waiters on a mutex get it first come, first served (the
/// kernel's event lists keep FIFO order among equals): B (priority 2)
/// blocks taking the mutex L holds at 10 µs; A (priority 2, an earlier
/// task) waits READY behind L, which inherited 2, until the tick at 20
/// rotates them, then blocks on it too. L's give at 30 hands it to B, the
/// first to wait; by task order A would get it and B, woken by L, would
/// wait for A.
#[test]
fn equal_waiters_on_a_mutex_are_served_in_the_order_they_waited() {
    let mut trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 1 L\ntask 2 task 2 A\ntask 3 task 2 B\n\
         obj m mutex\n\
         0 0 rdy 1\n0 0 in 1\n1 0 take 1 m\n9 0 rdy 3\n9 0 out 1 preempt\n9 0 in 3\n10 0 take 3 m\n\
         10 0 out 3 block\n10 0 in 1\n11 0 rdy 2\n20 0 out 1 preempt\n20 0 in 2\n21 0 take 2 m\n\
         21 0 out 2 block\n21 0 in 1\n30 0 give 1 m\n30 0 wake 1 3\n30 0 rdy 3\n30 0 out 1 preempt\n30 0 in 3\n\
         35 0 give 3 m\n35 0 wake 3 2\n35 0 rdy 2\n36 0 out 3 done\n36 0 in 2\n40 0 give 2 m\n41 0 out 2 done\n\
         41 0 in 1\n50 0 out 1 done\n");
    trace.tick = Some(corera_trace_ingest::Tick { period_ns: 20_000, at_ns: 0, source: "t".into() });
    let r = Replay::from_trace(&trace, &[]);
    assert!(r.rules.slice.is_some(), "{}", r.rules.describe());
    assert_first_responses_as_recorded(&trace, &r);
}

/// Timers that expire at one tick ready their tasks in the order the
/// tasks went to sleep (the kernel's delayed list keeps equal wake times
/// first come, first served): B (created after A, of A's priority) sleeps
/// at 10 µs, A at 20 µs, both until 100 µs, so B runs first, as
/// recorded, and A waits for it: 10 µs and 20 µs. Taken in task order, A
/// would run first.
#[test]
fn timers_expiring_together_ready_their_tasks_in_the_order_they_slept() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 1 A\ntask 2 task 1 B\n\
         0 0 rdy 2\n0 0 in 2\n5 0 rdy 1\n10 0 out 2 block\n10 0 in 1\n20 0 out 1 block\n\
         100 0 rdy 2\n100 0 rdy 1\n100 0 in 2\n110 0 out 2 block\n110 0 in 1\n120 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let o = single(&r);
    let s = corera_trace_ingest::Schedule::of(&trace);
    for (i, t) in r.tasks.iter().enumerate() {
        let recorded: Vec<_> = s.tasks[t.id as usize].jobs.iter().map(|j| j.response_ns()).collect();
        assert_eq!(o.tasks[i].response_max_ns, recorded.into_iter().max().flatten(), "{}: {:?}", t.name, o.timeline);
    }
    let a = r.tasks.iter().position(|t| t.name == "A").unwrap();
    assert_eq!(o.tasks[a].response_max_ns, Some(20_000));
}

/// Task 1 made ready on core 0, idle (task 9), once a millisecond from
/// 1 ms, five times: each starts 7 µs later and runs 30 µs.
fn steady_wakes() -> String {
    (1..=5u64)
        .map(|k| {
            let (t, start, end) = (1000 * k, 1000 * k + 7, 1000 * k + 37);
            format!("{t} 0 rdy 1\n{start} 0 out 9 preempt\n{start} 0 in 1\n{end} 0 out 1 done\n{end} 0 in 9\n")
        })
        .collect()
}

/// A dispatch delay the recording shows (7 µs from every release to the
/// start, even onto an idle core) and the platform's `dispatch_ns`
/// charges to each local release whose own wake is not recorded: replayed
/// in 0 the responses come out 7 µs short; charged, exact, READY
/// included. Each job's own recorded wake gives the same.
#[test]
fn a_steady_dispatch_delay_is_charged_to_local_releases() {
    let text = "corera-log 1 clock=us os=freertos\ntask 1 task 1 T\ntask 9 idle 0 IDLE\n0 0 in 9\n".to_string();
    let trace = log(&(text + &steady_wakes()));
    let recorded = Replay::from_trace(&trace, &[]);
    let r = without_recorded_wakes(recorded.clone());
    let run = |r: &Replay, dispatch_ns| {
        let o = single_costing(r, |c| c.dispatch_ns = dispatch_ns);
        (o.tasks[0].response_max_ns, o.tasks[0].ready_ns)
    };
    assert_eq!(run(&r, None), (Some(30_000), 0));
    let exact = (Some(37_000), 35_000);
    assert_eq!(run(&r, Some(7_000)), exact, "as recorded: 37 µs each, 7 of them READY");
    assert_eq!(run(&recorded, None), exact, "each job's own wake");
}

/// A wake's latency is READY, as a recorder shows it (ready event to
/// switch-in): A on core 0 makes B, bound to core 1, ready at 50 µs; the
/// wake reaches core 1 5 µs later (`message_latency_ns`) and B runs
/// 20 µs. B waited ready from the wake: 5 µs of READY in a 25 µs
/// response. Before, READY counted from the wake's arrival (0), though
/// the response counted from the send. Across a mesh the message
/// travels first and makes the task ready as it arrives.
#[test]
fn a_wake_from_another_core_is_ready_from_when_it_was_sent() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 2 B\n\
         0 0 rdy 1\n0 0 in 1\n50 0 wake 1 2\n50 0 rdy 2\n55 1 in 2\n75 1 out 2 block\n100 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (a, b) = (index("A"), index("B"));
    let mut core_of = vec![0u16; 2];
    core_of[b] = 1;
    let o = amp_at_5_us_a_hop(&r, Platform::identical(2), &core_of);
    assert_eq!(o.tasks[a].response_max_ns, Some(100_000), "{:?}", o.timeline);
    assert_eq!((o.tasks[b].response_max_ns, o.tasks[b].ready_ns), (Some(25_000), 5_000), "{:?}", o.timeline);
    // Two hops of a mesh: the message travels, 10 µs, and makes B ready as
    // it arrives.
    core_of[b] = 2;
    let o = amp_at_5_us_a_hop(&r, Platform::mesh(1, 3), &core_of);
    assert_eq!((o.tasks[b].response_max_ns, o.tasks[b].ready_ns), (Some(30_000), 0), "{:?}", o.timeline);
}

/// A task ready when the trace began (first seen at a switch-in, with no
/// ready event before it: a Linux trace opened mid-run) has its first
/// release read at that switch-in, which already followed the kernel's
/// dispatch: the replay charges it none. S runs 30 µs from the trace's
/// start; T's five wakes onto the idle core take 7 µs each, charged to
/// T's releases. S's response stays 30 µs (37 when its release was a
/// timer's, charged the dispatch again).
#[test]
fn a_task_ready_when_the_trace_began_pays_no_dispatch_again() {
    let text = "corera-log 1 clock=us os=linux\ntask 1 task 120 T\ntask 2 task 120 S\ntask 9 idle 120 IDLE\n\
                0 0 in 2\n30 0 out 2 block\n30 0 in 9\n"
        .to_string();
    let trace = log(&(text + &steady_wakes()));
    let r = Replay::from_trace(&trace, &[]);
    let o = single_costing(&r, |c| c.dispatch_ns = Some(7_000));
    let at = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    assert_eq!(o.tasks[at("T")].response_max_ns, Some(37_000));
    assert_eq!((o.tasks[at("S")].response_max_ns, o.tasks[at("S")].ready_ns), (Some(30_000), 0));
}

/// A recording whose switches take 4 µs (A leaves, B, ready already,
/// comes in 4 µs later: the kernel's context switch, nobody running) and
/// the platform's `context_switch_ns` charged to the task switched in
/// straight after another: replayed in 0, B's responses come out 4 µs
/// short; charged, exact. A, switched in after the idle loop, pays none.
/// The switches are B's overhead, told apart from the rest (a recording
/// counts them to neither task's RUNNING).
#[test]
fn a_context_switch_is_charged_where_one_task_follows_another() {
    let text = std::fs::read_to_string(corera_testdata::path("tests/data/log/context-switches.log")).unwrap();
    let trace = log(&text);
    assert_eq!(trace.context_switch().map(|w| w.median_ns), Some(4_000));
    let r = Replay::from_trace(&trace, &[]);
    let run = |context_switch_ns| {
        let o = single_costing(&r, |c| c.context_switch_ns = context_switch_ns);
        let b = &o.tasks[1];
        assert_eq!((b.context_switch_ns, b.running_ns - b.overhead_ns), (o.overheads.context_switch_ns, 150_000));
        (o.tasks[0].response_max_ns, b.response_max_ns, b.context_switch_ns)
    };
    assert_eq!(run(None), (Some(30_000), Some(60_000), 0));
    assert_eq!(run(Some(4_000)), (Some(30_000), Some(64_000), 20_000), "as recorded: B 64 µs, five switches");
}

/// A gap (lost events, 50 to 1050 µs) while Lo runs: the replay freezes
/// in it and goes on after it, as the recording does, instead of finishing
/// Lo inside the gap and running Lo2 at once. Lo's job spans the gap: no
/// response in either figure. Lo2 waited behind Lo and Hi: 75 µs, 65 of
/// them READY, recorded and replayed.
#[test]
fn the_replay_freezes_in_a_gap_and_counts_the_same_jobs() {
    let mut trace = log("corera-log 1 clock=us\ntask 1 task 1 Lo\ntask 2 task 1 Lo2\ntask 3 task 2 Hi\n\
         0 0 rdy 1\n0 0 in 1\n1055 0 rdy 2\n1060 0 rdy 3\n1060 0 out 1 preempt\n1060 0 in 3\n1080 0 out 3 done\n\
         1080 0 in 1\n1120 0 out 1 done\n1120 0 in 2\n1130 0 out 2 done\n");
    trace.add_gap(50_000, 1_050_000);
    let s = corera_trace_ingest::Schedule::of(&trace);
    assert_eq!(s.tasks[0].jobs[0].response_ns(), None, "Lo spans the gap");
    assert_eq!((s.tasks[1].jobs[0].response_ns(), s.tasks[1].ready_ns()), (Some(75_000), 65_000));
    let r = Replay::from_trace(&trace, &[]);
    let o = single(&r);
    assert_eq!(o.tasks[0].response_max_ns, None, "the same jobs: Lo's is not counted");
    assert_eq!((o.tasks[1].response_max_ns, o.tasks[1].ready_ns), (Some(75_000), 65_000));
    assert_eq!(o.tasks[2].response_max_ns, Some(20_000));
}

/// A recorder that writes a take when it succeeds (corera's generator):
/// H blocks taking the mutex L holds at 12 µs (no take written), L,
/// inheriting H's priority, runs on past M (ready from 14 µs) and gives at
/// 20, handing H the mutex, which H's take at its resume shows. Replayed
/// as two phases, H's second waited for L's give with nothing lent, so M
/// ran first and H finished 40 µs late; as a block on the take, as
/// recorded.
#[test]
fn a_take_after_a_handoff_is_a_block_on_that_take() {
    let trace = log("corera-log 1 clock=us os=corera-gen\ntask 1 task 1 L\ntask 2 task 2 M\ntask 3 task 3 H\n\
         obj m mutex\n\
         0 0 rdy 1\n0 0 in 1\n1 0 take 1 m\n10 0 rdy 3\n10 0 out 1 preempt\n10 0 in 3\n12 0 out 3 block\n\
         12 0 in 1\n14 0 rdy 2\n20 0 give 1 m\n20 0 wake 1 3\n20 0 rdy 3\n20 0 out 1 preempt\n20 0 in 3\n\
         20 0 take 3 m\n25 0 give 3 m\n30 0 out 3 done\n30 0 in 2\n70 0 out 2 done\n70 0 in 1\n80 0 out 1 done\n");
    let r = Replay::from_trace(&trace, &[]);
    let h = r.tasks.iter().position(|t| t.name == "H").unwrap();
    assert_eq!(r.tasks[h].jobs[0].phases.len(), 1, "one phase, the take where it blocked");
    assert_first_responses_as_recorded(&trace, &r);
}

/// A task an ISR interrupts is not READY for the ISR's time (a recording
/// takes the ISR's time out of the task it interrupted), only from when
/// another task takes its core: A runs from 0, the ISR takes 10 to 20 µs
/// and returns to A; at 50 another ISR readies H, which runs 60 to 80, A
/// READY from 60 (when H was switched in), 20 µs in all.
#[test]
fn an_interrupted_task_is_not_ready_for_the_isrs_time() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 1 A\ntask 2 task 2 H\ntask 9 isr 9 Irq\n\
         0 0 rdy 1\n0 0 in 1\n10 0 ienter 9\n20 0 iexit 9\n50 0 ienter 9\n55 0 rdy 2\n60 0 iexit 9\n\
         60 0 out 1 preempt\n60 0 in 2\n80 0 out 2 done\n80 0 in 1\n100 0 out 1 done\n");
    let s = corera_trace_ingest::Schedule::of(&trace);
    assert_eq!(s.tasks[0].ready_ns(), 20_000, "recorded");
    let r = Replay::from_trace(&trace, &[]);
    let o = single(&r);
    assert_eq!(o.tasks[0].ready_ns, 20_000, "replayed");
}

/// The recording ends while Lo, preempted by Hi at 40 µs, still waits: its
/// job never finished, so the work it still needed is unknown and the
/// replay, which runs only the 40 µs recorded, ends it at Hi's finish.
/// READY counts for finished jobs in both figures: Lo's first job waited
/// 10 µs behind Hi (recorded and replayed); the cut one's 20 µs count in
/// neither (they would in the recording's alone).
#[test]
fn what_a_job_cut_off_by_the_end_waited_counts_in_neither_figure() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 1 Lo\ntask 2 task 2 Hi\n\
         0 0 rdy 2\n0 0 rdy 1\n0 0 in 2\n10 0 out 2 done\n10 0 in 1\n30 0 out 1 done\n\
         30 0 rdy 1\n30 0 in 1\n40 0 rdy 2\n40 0 out 1 preempt\n40 0 in 2\n60 0 out 2 done\n");
    let r = Replay::from_trace(&trace, &[]);
    let lo = &r.tasks[0];
    // Lo is released at the start behind Hi, 1 ns later: its READY counts
    // from there.
    assert_eq!((lo.recorded_ready_ns, lo.comparable_ready_ns()), (30_000 - 1, 10_000 - 1));
    let o = single(&r);
    assert_eq!(o.tasks[0].ready_ns, lo.comparable_ready_ns());
}

/// An interrupt routed to core 1 (its mask allows only core 1) is taken on
/// core 1 under masks, wherever the placement's home list puts it: a
/// per-core tick does not move to core 0 because `simulate --policy smp`
/// starts every home on core 0.
#[test]
fn an_isr_runs_on_a_core_its_mask_allows() {
    let trace = log("corera-log 1 clock=us\ntask 1 isr 1 Tick1\ntask 2 task 1 T\n\
         0 1 rdy 2\n0 1 in 2\n100 1 ienter 1\n110 1 iexit 1\n300 1 out 2 done\n");
    let r = Replay::from_trace(&trace, &[]);
    let platform = Platform::identical(2);
    let masks = [corera_placement::CoreSet::one(1), corera_placement::CoreSet::all(2)];
    let o = simulate(
        &r,
        &Setup {
            policy: Policy::Masks,
            platform: &platform,
            core_of: Some(&[0, 0]),
            masks: Some(&masks),
            timeline: true,
        },
    );
    let isr = o.timeline.iter().find(|s| s.task == 0).expect("the ISR ran");
    assert_eq!(isr.core, 1);
    // A home its mask allows is kept.
    let masks = [corera_placement::CoreSet::all(2), corera_placement::CoreSet::all(2)];
    let o = simulate(
        &r,
        &Setup {
            policy: Policy::Masks,
            platform: &platform,
            core_of: Some(&[0, 1]),
            masks: Some(&masks),
            timeline: true,
        },
    );
    assert_eq!(o.timeline.iter().find(|s| s.task == 0).unwrap().core, 0);
}

/// Replays `r` under `policy` on two cores at no cost, with masks if given.
fn two_cores(r: &Replay, policy: Policy, masks: Option<&[corera_placement::CoreSet]>) -> Outcome {
    let platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(2) };
    simulate(r, &Setup { policy, platform: &platform, core_of: None, masks, timeline: true })
}

/// A task bound to a core does not take it from a more urgent free task
/// running there: no kernel moves a running task to make room for a less
/// urgent one. F (priority 3, free) runs on core 1 while X holds core 0;
/// B (1, bound to core 1) is made ready at 50 µs, when core 0 is free
/// again: B waits for F to end at 300 µs, F is not moved to core 0.
#[test]
fn a_bound_task_waits_for_a_more_urgent_task_on_its_core() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 3 F\ntask 2 task 1 B\ntask 3 task 2 X\n\
         0 0 rdy 3\n0 0 in 3\n0 1 rdy 1\n0 1 in 1\n20 0 out 3 done\n50 1 rdy 2\n\
         300 1 out 1 done\n300 1 in 2\n400 1 out 2 done\n");
    let mut r = Replay::from_trace(&trace, &[]);
    r.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (f, b, x) = (index("F"), index("B"), index("X"));
    let mut masks = vec![corera_placement::CoreSet::all(2); 3];
    masks[b] = corera_placement::CoreSet::one(1);
    masks[x] = corera_placement::CoreSet::one(0);
    let o = two_cores(&r, Policy::Masks, Some(&masks));
    let ran =
        |i: usize| o.timeline.iter().filter(|s| s.task as usize == i).map(|s| (s.core, s.start_ns)).collect::<Vec<_>>();
    assert_eq!(ran(f), vec![(1, 0)], "{:?}", o.timeline);
    assert_eq!(ran(b), vec![(1, 300_000)], "{:?}", o.timeline);
    assert_eq!(o.tasks[b].response_max_ns, Some(350_000), "{:?}", o.timeline);
}

/// Without ready events, a hand-off is where the kernel chose the next
/// task on that core. B (bound to core 0) is preempted at 70 µs by K,
/// which hands core 0 to S as it blocks at 78; B resumes at 160 (ftrace's
/// `bash R ==> kworker`, `kworker S ==> sshd`, `sshd S ==> bash` on a
/// Juno board). Replayed on two cores, K and S take core 0 where the
/// kernel chose them, and B, as urgent, takes it back only when S leaves:
/// B's response is the recorded 230 µs. Before, K and S ran on the idle
/// core 1 beside B, which finished at 140 µs.
#[test]
fn a_hand_off_gives_the_core_to_the_task_the_kernel_chose_there() {
    let trace = log("corera-log 1 clock=us os=linux\ntask 1 task 120 B\ntask 2 task 120 K\ntask 3 task 120 S\n\
         0 0 in 1\n70 0 out 1 preempt\n70 0 in 2\n78 0 out 2 block\n78 0 in 3\n\
         160 0 out 3 block\n160 0 in 1\n230 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (b, k, s) = (index("B"), index("K"), index("S"));
    let mut masks = vec![corera_placement::CoreSet::all(2); 3];
    masks[b] = corera_placement::CoreSet::one(0);
    let o = two_cores(&r, Policy::Masks, Some(&masks));
    let ran = |i: usize| {
        o.timeline.iter().filter(|s| s.task as usize == i).map(|s| (s.core, s.start_ns, s.end_ns)).collect::<Vec<_>>()
    };
    assert_eq!(ran(k), vec![(0, 70_000, 78_000)], "{:?}", o.timeline);
    assert_eq!(ran(s), vec![(0, 78_000, 160_000)], "{:?}", o.timeline);
    assert_eq!(ran(b), vec![(0, 0, 70_000), (0, 160_000, 230_000)], "{:?}", o.timeline);
    assert_eq!(o.tasks[b].response_max_ns, Some(230_000), "{:?}", o.timeline);
}

/// CFS preempts a running thread for one it woke when the woken one's
/// virtual runtime says so, which the replay does not model; the
/// recording's switches show where it did. A wakes B at 50 µs and is
/// switched out (`R+`) for it at 60; B blocks at 80, and the kernel
/// chooses C, ready since 40, over A; A resumes at 90. Replayed so on one
/// core: B runs 60 to 80 (response 30 µs), C 80 to 90. Before, A ran on
/// to the end of its job (170 µs of work) with B and C behind it.
#[test]
fn linux_threads_take_the_core_where_the_recording_shows_the_kernel_chose_them() {
    let trace = log("corera-log 1 clock=us os=linux prio=low\ntask 1 task 120 A\ntask 2 task 120 B\n\
         task 3 task 120 C\n0 0 rdy 1\n0 0 in 1\n40 0 rdy 3\n50 0 wake 1 2\n50 0 rdy 2\n60 0 out 1 preempt\n\
         60 0 in 2\n80 0 out 2 block\n80 0 in 3\n90 0 out 3 block\n90 0 in 1\n200 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(1) };
    let o = simulate(
        &r,
        &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: true },
    );
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let ran = |i: usize| {
        o.timeline.iter().filter(|s| s.task as usize == i).map(|s| (s.start_ns, s.end_ns)).collect::<Vec<_>>()
    };
    assert_eq!(ran(index("B")), vec![(60_000, 80_000)], "{:?}", o.timeline);
    assert_eq!(ran(index("C")), vec![(80_000, 90_000)], "{:?}", o.timeline);
    assert_eq!(ran(index("A")), vec![(0, 60_000), (90_000, 200_000)], "{:?}", o.timeline);
}

/// CFS's nice levels weigh a thread's share and rank none above another:
/// Hi (`prio` 110) made ready while Lo (120) runs waits for Lo to block,
/// as recorded, where a fixed-priority reading of `prio` preempted Lo; a
/// real-time thread (`prio` 98) still preempts at once.
#[test]
fn cfs_nice_levels_rank_as_one_below_real_time() {
    let trace = log("corera-log 1 clock=us os=linux prio=low\ntask 1 task 120 Lo\ntask 2 task 110 Hi\n\
         task 3 task 98 Rt\n0 0 rdy 1\n0 0 in 1\n10 0 rdy 2\n50 0 out 1 block\n50 0 in 2\n60 0 out 2 block\n\
         100 0 rdy 1\n100 0 in 1\n110 0 rdy 3\n110 0 out 1 preempt\n110 0 in 3\n120 0 out 3 block\n120 0 in 1\n\
         150 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    assert_eq!(r.tasks[index("Hi")].urgency, r.tasks[index("Lo")].urgency);
    assert!(r.tasks[index("Rt")].urgency > r.tasks[index("Lo")].urgency);
    let platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(1) };
    let o = simulate(
        &r,
        &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: true },
    );
    let ran = |i: usize| {
        o.timeline.iter().filter(|s| s.task as usize == i).map(|s| (s.start_ns, s.end_ns)).collect::<Vec<_>>()
    };
    assert_eq!(ran(index("Hi")), vec![(50_000, 60_000)], "{:?}", o.timeline);
    assert_eq!(ran(index("Rt")), vec![(110_000, 120_000)], "{:?}", o.timeline);
}

/// Replays `r` under global SMP on two cores with no costs but what `set`
/// gives.
/// Task `name`'s stretches in `o`'s timeline: (core, start µs, end µs).
pub(crate) fn stretches_us(r: &Replay, o: &Outcome, name: &str) -> Vec<(u16, u64, u64)> {
    let i = r.tasks.iter().position(|t| t.name == name).unwrap();
    let mine = o.timeline.iter().filter(|s| s.task as usize == i);
    mine.map(|s| (s.core, s.start_ns / 1000, s.end_ns / 1000)).collect()
}

fn two_cores_costing(r: &Replay, set: impl FnOnce(&mut corera_placement::Costs)) -> Outcome {
    let mut platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(2) };
    set(&mut platform.costs);
    simulate(r, &Setup { policy: Policy::Smp, platform: &platform, core_of: None, masks: None, timeline: true })
}

/// FreeRTOS SMP runs one priority at a time by default
/// (`configRUN_MULTIPLE_PRIORITIES` 0): with Hi (priority 2) and Lo (1)
/// ready together on two cores, Lo waits for Hi to end while the other
/// core idles; told `run_multiple_priorities = true` it runs at once. An
/// ISR is no task: it runs on the idle core beside Hi either way.
#[test]
fn one_priority_at_a_time_on_several_cores_where_the_kernel_says() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 Hi\ntask 2 task 1 Lo\ntask 3 isr 5 Irq\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n100 0 ienter 3\n110 0 iexit 3\n300 0 out 1 done\n\
         300 0 in 2\n500 0 out 2 done\n");
    let mut r = Replay::from_trace(&trace, &[]);
    assert!(!r.rules.multiple_priorities, "{}", r.rules.describe());
    assert!(r.rules.describe().contains("configRUN_MULTIPLE_PRIORITIES"), "{}", r.rules.describe());
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (hi, lo, irq) = (index("Hi"), index("Lo"), index("Irq"));
    let start = |o: &Outcome, i: usize| o.timeline.iter().find(|s| s.task as usize == i).map(|s| (s.core, s.start_ns));
    let smp = two_cores(&r, Policy::Smp, None);
    // The ISR takes core 0 at 100 µs and Hi moves to core 1: Lo waits on.
    assert_eq!(smp.tasks[hi].response_max_ns, Some(290_000), "{:?}", smp.timeline);
    // Lo was made ready at the start's instant: released there behind Hi,
    // 1 ns later (the start's order).
    assert_eq!(smp.tasks[lo].response_max_ns, Some(490_000 - 1), "{:?}", smp.timeline);
    // Hi pinned to core 0, the ISR to core 1: the ISR is not held back.
    let mask = |i: usize| match i {
        _ if i == hi => corera_placement::CoreSet::one(0),
        _ if i == irq => corera_placement::CoreSet::one(1),
        _ => corera_placement::CoreSet::all(2),
    };
    let ordered: Vec<_> = (0..3).map(mask).collect();
    let masked = two_cores(&r, Policy::Masks, Some(&ordered));
    assert_eq!(start(&masked, irq), Some((1, 100_000)), "{:?}", masked.timeline);
    assert_eq!(masked.tasks[hi].response_max_ns, Some(290_000), "{:?}", masked.timeline);
    assert!(start(&masked, lo).is_some_and(|(_, at)| at >= 290_000), "{:?}", masked.timeline);
    r.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
    assert!(r.rules.describe().contains("the platform file's run_multiple_priorities"), "{}", r.rules.describe());
    // Lo runs at once, and gives core 1 to Hi for the ISR's 10 µs.
    let smp = two_cores(&r, Policy::Smp, None);
    assert_eq!(smp.tasks[lo].response_max_ns, Some(210_000), "{:?}", smp.timeline);
    assert_eq!(smp.tasks[hi].response_max_ns, Some(290_000), "{:?}", smp.timeline);
}

/// The recording's priority changes (`vTaskPrioritySet`): Hi (2) raises
/// Lo (1, ready since 1 µs) to 2 at 50 µs and Lo runs beside it from then, as
/// recorded, instead of waiting for Hi to end at 500 µs; Lo lowers itself
/// back to 1 at 200 µs and runs on to the end of that call, its recorded
/// switch-out at 211 µs (the kernel yields as the call returns), instead of
/// waiting again with the call's last 11 µs undone.
#[test]
fn the_recorded_priority_changes_are_followed() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 Hi\ntask 2 task 1 Lo\ntask 9 idle 0 IDLE1\n\
         0 0 rdy 1\n0 0 in 1\n0 1 in 9\n1 1 rdy 2\n50 0 prio 1 2 2\n50 1 out 9 preempt\n50 1 in 2\n\
         200 1 prio 2 2 1\n211 1 out 2 done\n211 1 in 9\n500 0 out 1 done\n");
    let r = Replay::from_trace(&trace, &[]);
    assert!(!r.rules.multiple_priorities, "{}", r.rules.describe());
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let smp = two_cores(&r, Policy::Smp, None);
    assert_eq!(smp.tasks[index("Lo")].response_max_ns, Some(210_000), "{:?}", smp.timeline);
    assert_eq!(smp.tasks[index("Hi")].response_max_ns, Some(500_000), "{:?}", smp.timeline);
}

/// A two-core FreeRTOS recording that runs Hi and Lo at once for longer
/// than a tick (here 1 ms, no tick recorded) shows a kernel that runs
/// several priorities; one that does so for 0.2 ms (the time a yield
/// takes to reach the other core) does not, and the OS's default holds.
#[test]
fn a_recording_running_two_priorities_at_once_says_the_kernel_does() {
    let recording = |overlap_us: u64| {
        log(&format!(
            "corera-log 1 clock=us os=freertos\ntask 1 task 2 Hi\ntask 2 task 1 Lo\n\
             0 0 rdy 1\n0 1 rdy 2\n0 0 in 1\n0 1 in 2\n{overlap_us} 1 out 2 done\n5000 0 out 1 done\n"
        ))
    };
    let long = Replay::from_trace(&recording(3000), &[]);
    assert!(long.rules.multiple_priorities);
    assert_eq!(
        long.rules.priorities_from,
        "the recording runs Hi (priority 2) and Lo (priority 1) at once for 3 ms from 0 ms"
    );
    let short = Replay::from_trace(&recording(200), &[]);
    assert_eq!(short.recorded.several_priorities, None);
    assert!(!short.rules.multiple_priorities, "{}", short.rules.describe());
    let mut told = long;
    told.set_kernel(&Kernel { run_multiple_priorities: Some(false), ..Kernel::default() }).unwrap();
    assert!(!told.rules.multiple_priorities, "the platform file overrides the recording");
}

/// A core told by another to yield to a higher priority does so
/// `yield_ns` later: Lo runs from 0 and Hi is released at 100 µs; on two
/// cores Hi takes the idle one and Lo, told to yield, stops at once with
/// no latency (and resumes when Hi ends at 200 µs, ending at 300 µs), or
/// runs 50 µs more with `yield_ns` 50 µs (ending at 250 µs).
#[test]
fn a_core_told_to_yield_does_so_after_the_yield_latency() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 Hi\ntask 2 task 1 Lo\n\
         0 0 rdy 2\n0 0 in 2\n100 0 rdy 1\n100 0 out 2 preempt\n100 0 in 1\n200 0 out 1 done\n\
         200 0 in 2\n300 0 out 2 done\n");
    let r = Replay::from_trace(&trace, &[]);
    let lo = r.tasks.iter().position(|t| t.name == "Lo").unwrap();
    let at_once = two_cores_costing(&r, |_| {});
    assert_eq!(at_once.tasks[lo].response_max_ns, Some(300_000), "{:?}", at_once.timeline);
    let later = two_cores_costing(&r, |c| c.yield_ns = Some(50_000));
    assert_eq!(later.tasks[lo].response_max_ns, Some(250_000), "{:?}", later.timeline);
    let ipi = two_cores_costing(&r, |c| c.message_latency_ns = 20_000);
    assert_eq!(ipi.tasks[lo].response_max_ns, Some(280_000), "without yield_ns, a cross-core signal's latency");
}

/// Two cores recorded by FreeRTOS SMP (one priority at a time): A and B
/// (priority 2) run, C (2) waits, and Hi (3) is made ready at 100 µs,
/// either by B (`wake` holds its `wake` line) or, with `wake` empty, by a
/// timer.
fn three_equals_and_a_more_urgent_task(wake: &str) -> Replay {
    let trace = log(&format!(
        "corera-log 1 clock=us os=freertos\ntask 1 task 3 Hi\ntask 2 task 2 A\ntask 3 task 2 B\ntask 4 task 2 C\n\
         task 8 idle 0 IDLE0\ntask 9 idle 0 IDLE1\n\
         0 0 rdy 2\n0 1 rdy 3\n0 0 in 2\n0 1 in 3\n10 0 rdy 4\n{wake}100 1 rdy 1\n\
         120 0 out 2 preempt\n120 0 in 1\n130 1 out 3 preempt\n130 1 in 9\n220 0 out 1 done\n220 0 in 4\n\
         230 1 out 9 preempt\n230 1 in 2\n420 0 out 4 done\n420 0 in 3\n430 1 out 2 done\n430 1 in 9\n\
         520 0 out 3 done\n520 0 in 8\n"
    ));
    // The kernel's order is what these show: no wake costs anything.
    let r = without_recorded_wakes(Replay::from_trace(&trace, &[]));
    assert!(!r.rules.multiple_priorities, "{}", r.rules.describe());
    r
}

/// FreeRTOS SMP's `prvYieldForTask` interrupts the other cores that must
/// yield at once, but the core whose call made the task ready only at the
/// end of its critical section. B (queued after A) makes Hi ready: Hi
/// starts on A's core 0 at 100 µs and B runs to its yield at 110 µs (not
/// A, the first queued, with Hi on B's core); B, last to leave, goes
/// behind A, so after Hi C and A run (A ends at 420 µs) and B waits (520).
#[test]
fn the_core_that_made_a_task_ready_is_the_last_to_yield() {
    let r = three_equals_and_a_more_urgent_task("100 1 wake 3 1\n");
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let o = two_cores_costing(&r, |c| c.yield_ns = Some(10_000));
    let hi = o.timeline.iter().find(|s| s.task as usize == index("Hi")).map(|s| (s.core, s.start_ns));
    assert_eq!(hi, Some((0, 100_000)), "{:?}", o.timeline);
    let b_first = o.timeline.iter().find(|s| s.task as usize == index("B")).map(|s| s.end_ns);
    assert_eq!(b_first, Some(110_000), "{:?}", o.timeline);
    assert_eq!(o.tasks[index("A")].response_max_ns, Some(420_000), "{:?}", o.timeline);
    assert_eq!(o.tasks[index("B")].response_max_ns, Some(520_000), "{:?}", o.timeline);
}

/// A task that leaves its core to nothing (it yields to a more urgent
/// priority running elsewhere) goes behind its equals, as FreeRTOS SMP
/// moves a core's task to the end of its ready list at every selection on
/// that core. Hi, released by a timer, takes B's core at once; A yields
/// 10 µs later and goes behind B: after Hi C and B run (B ends at 330 µs)
/// and A waits (540 µs), where A keeping its place ran first (B at 530).
#[test]
fn a_task_yielding_to_another_core_goes_behind_its_equals() {
    let r = three_equals_and_a_more_urgent_task("");
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let o = two_cores_costing(&r, |c| c.yield_ns = Some(10_000));
    assert_eq!(o.tasks[index("B")].response_max_ns, Some(330_000), "{:?}", o.timeline);
    assert_eq!(o.tasks[index("A")].response_max_ns, Some(540_000), "{:?}", o.timeline);
}

/// A recording without ready events (the FreeRTOS BTF logger): B, handed
/// core 0 by A at 100 µs, and A, back after the idle loop 200 µs after it
/// blocked. Replayed on two cores with each switch-in holding the kernel's
/// lock 30 µs, A's first job ends at 130: B starts there, not beside A at
/// its recorded 100 µs, and A's second job 200 µs after 130 (at 330), not
/// at its recorded 300. The queue send A's second job makes holds the lock
/// too where that costs something (+40 µs).
#[test]
fn without_ready_events_hand_offs_chain_and_delays_follow_the_replayed_block() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 1 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n\
         obj q queue\n0 0 in 1\n100 0 out 1 block\n100 0 in 2\n150 0 out 2 block\n150 0 in 9\n\
         300 0 out 9 preempt\n300 0 in 1\n305 0 send 1 q -\n310 0 out 1 block\n310 0 in 9\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap() as u32;
    let run = |switch_ns: u64, give_ns: u64| {
        let mut platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(2) };
        platform.costs.lock.switch_ns = switch_ns;
        platform.costs.lock.give_ns = give_ns;
        let o = simulate(
            &r,
            &Setup { policy: Policy::Smp, platform: &platform, core_of: None, masks: None, timeline: true },
        );
        let starts = |t: u32| o.timeline.iter().filter(|s| s.task == t).map(|s| s.start_ns / 1000).collect::<Vec<_>>();
        let ends = |t: u32| o.timeline.iter().filter(|s| s.task == t).map(|s| s.end_ns / 1000).collect::<Vec<_>>();
        (starts(index("A")), starts(index("B")), ends(index("A")))
    };
    assert_eq!(run(0, 0), (vec![0, 300], vec![100], vec![100, 310]), "no cost: as recorded");
    let (a, b, a_ends) = run(30_000, 0);
    assert_eq!((a, b), (vec![0, 330], vec![130]));
    assert_eq!(a_ends.last(), Some(&370));
    assert_eq!(run(30_000, 40_000).2.last(), Some(&410), "the send holds the lock 40 µs");
}

/// Two tasks that take two mutexes in opposite orders, recorded one after
/// the other on one core: replayed side by side on two cores each holds
/// one and waits on the other. Nothing runs and nothing is to come, so the
/// most urgent blocked take goes on as recorded, counted once, and every
/// job still does all its work (the replay used to stop there).
#[test]
fn a_deadlock_the_recording_never_shows_is_counted_and_broken() {
    let trace = log("corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 1 B\nobj m1 mutex\nobj m2 mutex\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n1 0 take 1 m1\n5 0 take 1 m2\n8 0 give 1 m2\n9 0 give 1 m1\n10 0 out 1 done\n\
         10 0 in 2\n11 0 take 2 m2\n15 0 take 2 m1\n18 0 give 2 m1\n19 0 give 2 m2\n20 0 out 2 done\n");
    let r = Replay::from_trace(&trace, &[]);
    assert_eq!(single(&r).deadlocks, 0, "as recorded, one after the other");
    let mut r = r;
    r.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
    let o = two_cores(&r, Policy::Smp, None);
    assert_eq!(o.deadlocks, 1, "{:?}", o.timeline);
    for (t, res) in r.tasks.iter().zip(&o.tasks) {
        let demand: u64 = t.jobs.iter().flat_map(|j| &j.phases).map(|p| p.exec_ns).sum();
        assert_eq!(res.running_ns, demand, "{}", t.name);
    }
}

/// Linux's CFS shares its cores by virtual runtime: the replay of a Linux
/// recording says its kernel is not fixed-priority (what the fidelity's
/// caution reads to give no `--priority` advice), and a FreeRTOS one that
/// it is.
#[test]
fn a_linux_recording_is_replayed_by_rules_that_say_cfs_is_not_fixed_priority() {
    let rules = |os: &str| {
        let text = format!("corera-log 1 clock=us os={os}\ntask 1 task 1 A\n0 0 rdy 1\n0 0 in 1\n50 0 out 1 done\n");
        Replay::from_trace(&log(&text), &[]).rules
    };
    assert!(!rules("linux").fixed_priority);
    assert!(rules("freertos").fixed_priority);
}

/// A wake costs a job what the recording shows it cost (the switch that
/// made way for it): U and T, made ready on the idle core at 100 and 104,
/// wait for the idle task to leave at 130; T made ready at 300 waits 20 µs
/// for `Low` to be preempted. Replayed with no dispatch cost (one wake
/// shows no kernel-wide figure), U and T started at their readies and every
/// response came out 20 to 30 µs short; and of U and T, eligible together,
/// the one made ready first goes first, as the kernel's ready list keeps
/// them.
#[test]
fn a_wake_costs_a_job_what_the_recording_shows() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 T\ntask 2 task 2 U\ntask 3 task 1 Low\n\
         task 9 idle 0 IDLE\n\
         0 0 in 9\n100 0 rdy 2\n104 0 rdy 1\n130 0 out 9 preempt\n130 0 in 2\n150 0 out 2 block\n150 0 in 1\n\
         170 0 out 1 block\n170 0 in 9\n200 0 rdy 3\n200 0 out 9 preempt\n200 0 in 3\n\
         300 0 rdy 1\n320 0 out 3 preempt\n320 0 in 1\n330 0 out 1 block\n330 0 in 3\n400 0 out 3 block\n\
         400 0 in 9\n");
    let r = Replay::from_trace(&trace, &[]);
    let o = single_costing(&r, |_| {});
    let at = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let s = corera_trace_ingest::Schedule::of(&trace);
    for (i, t) in r.tasks.iter().enumerate() {
        let recorded: Vec<u64> = s.tasks[t.id as usize].responses().collect();
        let mean = recorded.iter().sum::<u64>() / recorded.len() as u64;
        assert_eq!(o.tasks[i].response_mean_ns, Some(mean), "{}", t.name);
    }
    assert_eq!(o.tasks[at("U")].response_max_ns, Some(50_000));
    assert_eq!(o.tasks[at("T")].response_max_ns, Some(66_000));
    assert_eq!(o.tasks[at("Low")].response_max_ns, Some(200_000));
}

/// A wake across cores as recorded: A on core 0 wakes B onto idle core 1,
/// where B starts 40 µs later (the other core's interrupt, its idle
/// state's exit). On a chip of one distance B's job pays those 40 µs, not
/// the platform's 5 µs message latency (a 60 µs response, as recorded);
/// on a mesh the message's travel stays the topology's.
#[test]
fn a_wake_across_cores_costs_what_the_recording_shows() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 2 B\ntask 9 idle 0 IDLE1\n\
         0 1 in 9\n0 0 rdy 1\n0 0 in 1\n50 0 wake 1 2\n50 0 rdy 2\n90 1 out 9 preempt\n90 1 in 2\n\
         110 1 out 2 block\n110 1 in 9\n200 0 out 1 block\n");
    let r = Replay::from_trace(&trace, &[]);
    let b = r.tasks.iter().position(|t| t.name == "B").unwrap();
    let mut core_of = vec![0u16; 2];
    core_of[b] = 1;
    let o = amp_at_5_us_a_hop(&r, Platform::identical(2), &core_of);
    assert_eq!(o.tasks[b].response_max_ns, Some(60_000));
    // Two hops of a mesh: 10 µs of travel, then its 20 µs.
    core_of[b] = 2;
    let o = amp_at_5_us_a_hop(&r, Platform::mesh(1, 3), &core_of);
    assert_eq!(o.tasks[b].response_max_ns, Some(30_000));
}

/// Without ready events, Hi yields at 30 µs and the kernel switches it back
/// in 3 µs later, nothing between (a recording that shows the idle loop):
/// Hi stayed ready, so Lo, preempted by Hi at 10 µs and ready since, does
/// not take the core in the switch, as it did while Hi's second job was read
/// as a 3 µs delay. Hi owes the switch instead (its overhead, not its
/// work) and its second job's response counts from its switch-in, as
/// recorded; a recorder of the replay cuts a job at the yield as the
/// recording's reader did (two spans, not one).
#[test]
fn a_task_the_kernel_chose_again_at_once_keeps_its_core_through_the_switch() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 Hi\ntask 2 task 1 Lo\ntask 9 idle 0 IDLE\n\
         0 0 in 2\n10 0 out 2 preempt\n10 0 in 1\n30 0 out 1 block\n33 0 in 1\n50 0 out 1 block\n\
         50 0 in 2\n60 0 out 2 block\n60 0 in 9\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (hi, lo) = (index("Hi"), index("Lo"));
    let o = ran_on_one_core(&r, corera_placement::Costs::none());
    assert_eq!(segments(&o, lo), [(0, 10), (50, 60)], "{:?}", o.timeline);
    assert_eq!(segments(&o, hi), [(10, 30), (30, 50)], "{:?}", o.timeline);
    let h = &o.tasks[hi];
    assert_eq!((h.context_switch_ns, h.running_ns - h.overhead_ns), (3_000, 37_000));
    assert_eq!(h.response_max_ns, Some(20_000), "its first job: 10 to 30 µs; its second 33 to 50");
    assert_eq!(h.spans.count, 2);
}

/// A task that lowers its own priority below a ready task's yields to it
/// as the call returns (FreeRTOS's `vTaskPrioritySet` yields within the
/// call), which the recording shows as its switch-out: S, at 3, lowers
/// itself to 1 at 10 µs and leaves the core to F (2) at 15 µs, staying
/// ready (the kernel's ready hook logs it re-added at 12 µs). Read with
/// the lowering deferred to the end of its phase, S ran on to 30 µs and F
/// started 15 µs late.
#[test]
fn a_task_that_lowers_itself_yields_where_the_recording_shows() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 3 S\ntask 2 task 2 F\ntask 9 idle 0 IDLE\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n10 0 prio 1 1 1\n12 0 rdy 1\n15 0 out 1 preempt\n15 0 in 2\n\
         35 0 out 2 block\n35 0 in 1\n50 0 out 1 block\n50 0 in 9\n");
    let r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let o = ran_on_one_core(&r, corera_placement::Costs::none());
    assert_eq!(segments(&o, index("S")), [(0, 15), (35, 50)], "{:?}", o.timeline);
    assert_eq!(segments(&o, index("F")), [(15, 35)], "{:?}", o.timeline);
}

fn ran_on_one_core(r: &Replay, costs: corera_placement::Costs) -> Outcome {
    let platform = Platform { costs, ..Platform::identical(1) };
    simulate(r, &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: true })
}

fn segments(o: &Outcome, i: usize) -> Vec<(u64, u64)> {
    o.timeline.iter().filter(|s| s.task as usize == i).map(|s| (s.start_ns / 1000, s.end_ns / 1000)).collect()
}

/// FreeRTOS built for one core serves a priority's ready list from its
/// index: A and B (3) were preempted by R (4), B last, so B is the index;
/// C, made ready at 45 µs, goes in before B, and runs before it when A
/// blocks at 60 µs, as recorded. First ready, first served, B ran first.
#[test]
fn a_task_made_ready_goes_before_the_task_its_priority_last_served() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 4 R\ntask 2 task 3 A\ntask 3 task 3 B\n\
         task 4 task 3 C\ntask 9 idle 0 IDLE\n\
         0 0 rdy 2\n0 0 rdy 3\n0 0 in 2\n20 0 rdy 1\n20 0 out 2 preempt\n20 0 in 1\n30 0 out 1 block\n\
         30 0 in 3\n40 0 rdy 1\n40 0 out 3 preempt\n40 0 in 1\n45 0 rdy 4\n50 0 out 1 block\n50 0 in 2\n\
         60 0 out 2 block\n60 0 in 4\n70 0 out 4 block\n70 0 in 3\n80 0 out 3 block\n80 0 in 9\n");
    let r = Replay::from_trace(&trace, &[]);
    assert!(r.rules.served_from_index, "{}", r.rules.describe());
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let o = ran_on_one_core(&r, corera_placement::Costs::none());
    assert_eq!(segments(&o, index("C")), [(60, 70)], "{:?}", o.timeline);
    assert_eq!(segments(&o, index("B")), [(30, 40), (70, 80)], "{:?}", o.timeline);
    // FreeRTOS's SMP build serves from the head: on two cores the rule
    // is not kept.
    let mut smp = r.clone();
    smp.set_kernel(&Kernel { preempted_to_back: Some(false), ..Kernel::default() }).unwrap();
    assert!(!smp.rules.served_from_index);
}

/// A task that yields and is chosen again at once (nothing else of its
/// priority ready, the recording with ready events) owes the kernel's
/// switch back to it: T's job ends at 30 µs as recorded, not 26. Where
/// the replay has a task of its priority ready at that yield (U, raised
/// to T's priority), the yield gives it the core, as `taskYIELD` does.
#[test]
fn a_yield_answered_with_the_same_task_costs_its_switch() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 T\ntask 2 task 1 U\ntask 9 idle 0 IDLE\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n10 0 out 1 preempt\n14 0 in 1\n30 0 out 1 block\n30 0 in 2\n\
         40 0 out 2 block\n40 0 in 9\n");
    let mut r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (t, u) = (index("T"), index("U"));
    let costs = corera_placement::Costs { context_switch_ns: Some(4_000), ..corera_placement::Costs::none() };
    let o = ran_on_one_core(&r, costs.clone());
    assert_eq!(o.tasks[t].response_max_ns, Some(30_000), "{:?}", o.timeline);
    assert_eq!(o.tasks[t].context_switch_ns, 4_000);
    r.tasks[u].urgency = r.tasks[t].urgency;
    let o = ran_on_one_core(&r, costs);
    assert_eq!(segments(&o, u), [(10, 24)], "{:?}", o.timeline);
}

/// FreeRTOS SMP's `vTaskSwitchContext` takes the kernel's locks whatever
/// it selects, so a yield the kernel answers with the same task holds the
/// lock as a switch does. A (priority 2) and B (1), ready together, each
/// yield twice, 10 µs of work apart, and are chosen again at once (one
/// core: B waits for A). Replayed side by side on two cores (several
/// priorities at once) with the switch holding the lock 5 µs: B's
/// switch-in waits for A's (0 to 5, 5 to 10), and each yield holds it
/// 5 µs more, so A ends at 5 + 30 + 2 × 5 = 45 µs and B at 50, not 35 and
/// 40.
#[test]
fn a_yield_answered_with_the_same_task_holds_the_kernels_lock() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n10 0 out 1 preempt\n10 0 in 1\n20 0 out 1 preempt\n20 0 in 1\n\
         30 0 out 1 block\n30 0 in 2\n40 0 out 2 preempt\n40 0 in 2\n50 0 out 2 preempt\n50 0 in 2\n\
         60 0 out 2 block\n60 0 in 9\n");
    let mut r = Replay::from_trace(&trace, &[]);
    r.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let ends = |switch_ns: u64| {
        let o = two_cores_costing(&r, |c| c.lock.switch_ns = switch_ns);
        // In µs (B is released 1 ns after A, the order they first ran in).
        let us = |t: &str| o.tasks[index(t)].response_max_ns.map(|ns| (ns + 500) / 1000);
        (us("A"), us("B"))
    };
    assert_eq!(ends(0), (Some(30), Some(30)), "side by side, no lock");
    assert_eq!(ends(5_000), (Some(45), Some(50)));
}

/// The FreeRTOS BTF logger writes each application event (an interval
/// or tag mark) in a critical section of the kernel's, so on several cores
/// a traced run holds the lock for it. A and B each log one 10 µs into a
/// 20 µs job; recorded on one core, replayed side by side on two with the
/// event holding the lock 5 µs: A holds it 10 to 15 and ends at 25, B
/// waits for it and holds it 15 to 20, ending at 30. With no hold given
/// the events are not followed (20 and 20), and one core takes no lock.
#[test]
fn an_application_event_holds_the_kernels_lock_on_several_cores() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n\
         0 0 rdy 1\n0 0 rdy 2\n0 0 in 1\n10 0 log 1\n20 0 out 1 block\n20 0 in 2\n30 0 log 2\n\
         40 0 out 2 block\n40 0 in 9\n");
    let mut r = Replay::from_trace(&trace, &[]);
    r.set_kernel(&Kernel { run_multiple_priorities: Some(true), ..Kernel::default() }).unwrap();
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let us = |o: &Outcome, t: &str| o.tasks[index(t)].response_max_ns.map(|ns| (ns + 500) / 1000);
    let ends = |logged_ns: u64| {
        let o = two_cores_costing(&r, |c| c.lock.logged_ns = logged_ns);
        (us(&o, "A"), us(&o, "B"))
    };
    assert_eq!(ends(0), (Some(20), Some(20)), "side by side, no hold");
    assert_eq!(ends(5_000), (Some(25), Some(30)));
    let mut platform = Platform { costs: corera_placement::Costs::none(), ..Platform::identical(1) };
    platform.costs.lock.logged_ns = 5_000;
    let one = simulate(
        &r,
        &Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: false },
    );
    assert_eq!((us(&one, "A"), us(&one, "B")), (Some(20), Some(40)), "one core: no lock");
}

/// A call that finds what it waits for does not block. C, P and D (one
/// priority) ran on one core: C blocked at 10 µs, P readied it 2 µs into
/// its run (a send or give), D ran, then C's second phase. On two cores C
/// and P start together and P's send comes at 2, before C reaches the
/// call it blocked in at 10: the call succeeds, C runs on to 20 on its
/// core, and D takes it then (20 to 40). Read as the recorded block, C
/// left its core at 10, D took it, and C waited for P's core.
#[test]
fn a_call_whose_signal_came_first_runs_on() {
    let trace = log("corera-log 1 clock=us os=freertos\ntask 1 task 2 C\ntask 2 task 2 P\ntask 3 task 2 D\n\
         task 9 idle 0 IDLE\n0 0 rdy 1\n0 0 rdy 2\n0 0 rdy 3\n0 0 in 1\n10 0 out 1 block\n10 0 in 2\n\
         12 0 wake 2 1\n12 0 rdy 1\n30 0 out 2 done\n30 0 in 3\n50 0 out 3 done\n50 0 in 1\n\
         60 0 out 1 done\n60 0 in 9\n");
    let r = without_recorded_wakes(Replay::from_trace(&trace, &[]));
    let o = two_cores(&r, Policy::Smp, None);
    let ran = |t: &str| stretches_us(&r, &o, t);
    assert_eq!(ran("C"), [(0, 0, 10), (0, 10, 20)], "{:?}", o.timeline);
    assert_eq!(ran("D"), [(0, 20, 40)], "{:?}", o.timeline);
}

/// A yield enters the scheduler whatever the task it went to in the
/// recording is doing in the replay. A, B, C and D (one priority) share
/// one core: A yields to B at 10 µs, B blocks at 20, A at 30, then C and D
/// run 10 µs each. Replayed on two cores (the recorded wakes left out, so
/// that B starts at once beside A), B runs on core 1 at A's yield: the
/// kernel still serves the first ready task of the priority, C, and A goes
/// behind C and D, to resume at 20 µs. The replay used to ignore a yield
/// whose task could not take the core, and A ran on to its block at 20.
#[test]
fn a_yield_whose_task_runs_elsewhere_still_goes_behind_its_equals() {
    let trace =
        log("corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 2 B\ntask 3 task 2 C\ntask 4 task 2 D\n\
         task 9 idle 0 IDLE\n0 0 rdy 1\n0 0 rdy 2\n0 0 rdy 3\n0 0 rdy 4\n0 0 in 1\n10 0 out 1 preempt\n10 0 in 2\n\
         20 0 out 2 block\n20 0 in 1\n30 0 out 1 block\n30 0 in 3\n40 0 out 3 block\n40 0 in 4\n\
         50 0 out 4 block\n50 0 in 9\n");
    let r = without_recorded_wakes(Replay::from_trace(&trace, &[]));
    let o = two_cores(&r, Policy::Smp, None);
    let ran = |t: &str| stretches_us(&r, &o, t);
    assert_eq!(ran("A"), [(0, 0, 10), (0, 20, 30)], "{:?}", o.timeline);
    assert_eq!(ran("C"), [(0, 10, 20)], "{:?}", o.timeline);
}

/// The FreeRTOS logger's lines of R (priority 3) creating T (2) at 500 µs
/// and blocking at 600, T running 20 µs, then readied by the tick at each
/// millisecond of `wakes` and running 20 µs again; ticks every
/// millisecond to 8 ms.
fn created_then_ticked(wakes: &[u64]) -> Trace {
    let mut text = String::from(
        "#timeScale us\n\
         1,Core_0,0,T,[0/0001]R,0,preempt,create pri:3\n\
         1,Core_0,0,STI,task,0,trigger,resume R[1]\n\
         1,Core_0,0,T,[0/0002]IDLE,0,preempt,create pri:0\n\
         10,Core_0,0,T,[0/0001]R,0,resume,\n\
         500,Core_0,0,T,[0/0003]T,0,preempt,create pri:2\n\
         500,Core_0,0,STI,task,0,trigger,resume T[3]\n\
         600,Core_0,0,T,[0/0001]R,0,preempt,\n\
         605,Core_0,0,T,[0/0003]T,0,resume,\n\
         625,Core_0,0,T,[0/0003]T,0,preempt,\n\
         630,Core_0,0,T,[0/0002]IDLE,0,resume,\n",
    );
    for ms in 1..=8 {
        let at = ms * 1000;
        text += &format!("{at},Core_0,0,STI,TICK,0,trigger,{ms}\n");
        if wakes.contains(&ms) {
            let lines = [
                (1, "STI,task,0,trigger,resume T[3]"),
                (3, "T,[0/0002]IDLE,0,preempt,"),
                (5, "T,[0/0003]T,0,resume,"),
                (25, "T,[0/0003]T,0,preempt,"),
                (28, "T,[0/0002]IDLE,0,resume,"),
            ];
            text.extend(lines.iter().map(|(d, line)| format!("{},Core_0,0,{line}\n", at + d)));
        }
    }
    read(&mut text.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("t.btf")).unwrap().trace
}

/// T waits two ticks at a time from its own previous wake
/// (`vTaskDelayUntil`), readied by the tick at 2, 4 and 6 ms: its period
/// counts from the release R caused (times below from the trace's start at
/// 1 µs). Where R creates it a millisecond later, each of its wakes comes a
/// millisecond later too, not at the recorded times. Woken at irregular
/// tick counts (2, then 3), its releases stay where recorded.
#[test]
fn a_period_counted_from_a_release_moves_with_it() {
    use corera_trace_ingest::{Release, Schedule};
    let trace = created_then_ticked(&[2, 4, 6]);
    let releases =
        |trace: &Trace| Schedule::of(trace).tasks[2].jobs.iter().map(|j| j.phases[0].release).collect::<Vec<_>>();
    assert_eq!(
        releases(&trace),
        [
            Release::Signal { by: 0 },
            Release::Period { at: 2_000_000, after_ns: 1_501_000 },
            Release::Period { at: 4_000_000, after_ns: 2_000_000 },
            Release::Period { at: 6_000_000, after_ns: 2_000_000 },
        ]
    );
    let irregular = created_then_ticked(&[2, 5]);
    assert_eq!(releases(&irregular), [Release::Signal { by: 0 }, Release::Timer(2_000_000), Release::Timer(5_000_000)]);
    let mut r = Replay::from_trace(&trace, &[]);
    let index = |name: &str| r.tasks.iter().position(|t| t.name == name).unwrap();
    let (ri, ti) = (index("R"), index("T"));
    let starts = |o: &Outcome| segments(o, ti).iter().map(|s| s.0).collect::<Vec<_>>();
    let costs = || corera_placement::Costs { context_switch_ns: Some(0), ..corera_placement::Costs::none() };
    assert_eq!(starts(&ran_on_one_core(&r, costs())), [599, 2004, 4004, 6004], "as recorded");
    // R does a millisecond more work before it creates T.
    let phase = &mut r.tasks[ri].jobs[0].phases[0];
    phase.exec_ns += 1_000_000;
    for (offset, _) in &mut phase.actions {
        *offset += 1_000_000;
    }
    assert_eq!(starts(&ran_on_one_core(&r, costs())), [1599, 3004, 5004, 7004]);
}
