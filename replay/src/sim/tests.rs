//! The simulator on minimal event sequences: bounded queues, and jobs cut
//! as a recorder would cut them.

use corera_placement::{Costs, Kernel, Platform};
use corera_trace_ingest::{FormatChoice, ReadOptions, read};

use crate::{Outcome, Policy, Replay, ReplayError, Setup, Spans, simulate};

/// A producer P sends three items on queue `q`, 5 µs apart; the consumer
/// C, more urgent, takes each at once and works 10 µs on it. One core:
/// the queue never holds more than one item.
const PRODUCER_CONSUMER: &str = "corera-log 1 clock=us\ntask 1 task 3 P\ntask 2 task 5 C\ntask 9 idle 0 IDLE\n\
    obj q queue\n0 0 rdy 1\n0 0 in 1\n\
    5 0 send 1 q 4\n5 0 rdy 2\n5 0 out 1 preempt\n5 0 in 2\n5 0 recv 2 q 4\n15 0 out 2 block\n15 0 in 1\n\
    20 0 send 1 q 4\n20 0 rdy 2\n20 0 out 1 preempt\n20 0 in 2\n20 0 recv 2 q 4\n30 0 out 2 block\n30 0 in 1\n\
    35 0 send 1 q 4\n35 0 rdy 2\n35 0 out 1 preempt\n35 0 in 2\n35 0 recv 2 q 4\n45 0 out 2 block\n45 0 in 1\n\
    50 0 out 1 done\n50 0 in 9\n";

fn replay(log: &str) -> Replay {
    let trace = read(&mut log.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("q.log")).unwrap().trace;
    Replay::from_trace(&trace, &[])
}

/// P on a core of the recorded speed, C on one four times slower: C now
/// takes 40 µs an item, and P's sends come faster than C takes them.
fn on_slow_consumer(r: &Replay) -> Outcome {
    let platform = Platform { costs: Costs::none(), speed: vec![1.0, 0.25], ..Platform::identical(2) };
    let setup =
        Setup { policy: Policy::Amp, platform: &platform, core_of: Some(&[0, 1]), masks: None, timeline: false };
    simulate(r, &setup)
}

/// A send to a full queue blocks until a receive makes room: with room for
/// one item, P's third send waits for C to take the second (at 45 µs, C
/// busy with the first until then), so P ends at 50 µs, not at 20 µs as
/// with the queue unbounded (the kernel's `xQueueSend` with
/// `portMAX_DELAY`).
#[test]
fn a_send_to_a_full_queue_waits_for_a_receive() {
    let mut r = replay(PRODUCER_CONSUMER);
    assert_eq!(r.queues.iter().flatten().map(|q| (q.name.as_str(), q.peak)).collect::<Vec<_>>(), [("q", 1)]);
    let unbounded = on_slow_consumer(&r);
    assert_eq!(unbounded.tasks[0].response_mean_ns, Some(20_000));
    r.set_kernel(&Kernel { queue_length: Some(1), ..Kernel::default() }).unwrap();
    let bounded = on_slow_consumer(&r);
    assert_eq!(bounded.tasks[0].response_mean_ns, Some(50_000));
    // C's work is the same either way; P only waited, blocked, not ready.
    assert_eq!(bounded.tasks[1].running_ns, unbounded.tasks[1].running_ns);
    assert_eq!(bounded.tasks[0].ready_ns, 0);
    // Room for two: C took the first item at once, so the second and the
    // third fit.
    r.set_kernel(&Kernel { queues: [("q".to_string(), 2)].into(), ..Kernel::default() }).unwrap();
    assert_eq!(on_slow_consumer(&r).tasks[0].response_mean_ns, Some(20_000));
    // A recorder that names the task a send wakes: the same.
    let mut named = replay(&PRODUCER_CONSUMER.replace("send 1 q 4\n", "send 1 q 4 2\n"));
    named.set_kernel(&Kernel { queue_length: Some(1), ..Kernel::default() }).unwrap();
    assert_eq!(on_slow_consumer(&named).tasks[0].response_mean_ns, Some(50_000));
}

/// A length the recording contradicts, or for a queue it does not have,
/// is refused with the figures.
#[test]
fn queue_lengths_the_recording_contradicts_are_refused() {
    // Two sends before the first receive: the queue held two items.
    let log = PRODUCER_CONSUMER.replacen("5 0 rdy 2\n5 0 out 1 preempt\n5 0 in 2\n5 0 recv 2 q 4\n", "", 1).replacen(
        "20 0 recv 2 q 4\n",
        "20 0 recv 2 q 4\n20 0 recv 2 q 4\n",
        1,
    );
    let mut r = replay(&log);
    let e = r.set_kernel(&Kernel { queue_length: Some(1), ..Kernel::default() }).unwrap_err();
    assert_eq!(e, ReplayError::QueueTooShort { name: "q".into(), length: 1, peak: 2 });
    assert!(e.to_string().contains("held 2 items at once"), "{e}");
    let e = r.set_kernel(&Kernel { queues: [("q9".to_string(), 4)].into(), ..Kernel::default() }).unwrap_err();
    assert_eq!(e.to_string(), "the platform file's [queues] names `q9`; the recording's queues are: q");
}

/// C's jobs, each ended by a block on one core, follow one another with
/// no block between on a slow core (each item is queued by the time the
/// last is done): a recorder of that run would see one job of all three,
/// from the first item's release (5 µs) to the last one's end (125 µs).
#[test]
fn jobs_with_no_block_between_are_one_as_a_recorder_would_cut_them() {
    let r = replay(PRODUCER_CONSUMER);
    let slow = on_slow_consumer(&r);
    assert_eq!(slow.tasks[1].jobs, 3);
    assert_eq!(slow.tasks[1].spans, Spans { count: 1, total_ns: 120_000 });
    // As recorded, C blocks after each item: three spans of 10 µs.
    let platform = Platform { costs: Costs::none(), ..Platform::identical(1) };
    let setup = Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: false };
    let one = simulate(&r, &setup);
    assert_eq!(one.tasks[1].spans, Spans { count: 3, total_ns: 30_000 });
    assert_eq!(one.tasks[1].spans.total_ns / one.tasks[1].spans.count, 10_000);
}
