//! The simulator on minimal event sequences: bounded queues, and jobs cut
//! as a recorder would cut them.

use corera_placement::{Costs, Kernel, Platform};
use corera_trace_ingest::{FormatChoice, ReadOptions, read};

use crate::rules::tests::stretches_us;
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

/// Two consumers C1 and C2 (priority 3) block in their receives on queue
/// `q` (two places) as they start; P (5) sends two items at 9 and 14 µs,
/// each readying one of them, and sleeps; C1 takes both, so C2's turn at
/// 26 µs finds the queue empty: a failed retry, 2 µs with no call, and it
/// blocks again until P's send at 45 µs.
const FAILED_RETRY: &str = "corera-log 1 clock=us\ntask 1 task 5 P\ntask 2 task 3 C1\ntask 3 task 3 C2\n\
    task 9 idle 0 IDLE\nobj q queue\n0 0 rdy 2\n0 0 rdy 3\n0 0 in 2\n2 0 out 2 block\n2 0 in 3\n4 0 out 3 block\n\
    4 0 rdy 1\n4 0 in 1\n9 0 send 1 q 4 2\n9 0 rdy 2\n14 0 send 1 q 4 3\n14 0 rdy 3\n16 0 out 1 block\n\
    16 0 in 2\n16 0 recv 2 q 4\n18 0 recv 2 q 4\n26 0 out 2 block\n26 0 in 3\n28 0 out 3 block\n28 0 in 9\n\
    40 0 rdy 1\n40 0 in 1\n45 0 send 1 q 4 3\n45 0 rdy 3\n47 0 out 1 block\n47 0 in 3\n47 0 recv 3 q 4\n\
    57 0 out 3 block\n57 0 in 9\n";

fn on(r: &Replay, policy: Policy, cores: u16) -> Outcome {
    let platform = Platform { costs: Costs::none(), ..Platform::identical(cores) };
    simulate(r, &Setup { policy, platform: &platform, core_of: None, masks: None, timeline: true })
}

/// On more cores than recorded, a task whose jobs end where it blocked
/// blocks where the objects say: it runs straight on into the call it
/// blocked in, which waits while the queue is empty, and the failed
/// retries of the recorded core are gone. On two cores C1 and C2 block
/// in their receives as they start; P's first item goes to C1 (the first
/// to wait), its second to C2, which then runs its 10 µs at once; C1
/// blocks in its second receive until P's send at 45 µs. The replay used
/// to keep C2's failed retry, released by P's second send (run 16 to
/// 18 µs), and its last job for P's third (45 to 55 µs). One core
/// replays the recording as it was.
#[test]
fn on_more_cores_a_call_blocks_where_its_object_says() {
    let mut r = replay(FAILED_RETRY);
    r.set_kernel(&Kernel { queue_length: Some(2), ..Kernel::default() }).unwrap();
    let two = on(&r, Policy::Smp, 2);
    let ran = |t: &str| stretches_us(&r, &two, t);
    assert_eq!(ran("C2"), [(1, 0, 2), (1, 14, 24)], "{:?}", two.timeline);
    assert_eq!(ran("C1"), [(0, 0, 2), (1, 9, 11), (1, 45, 53)], "{:?}", two.timeline);
    // Each block the replay made ends a job, as a recorder cuts them: C2
    // 2 µs to its first receive, then 10 from P's item to its end.
    assert_eq!(two.tasks[2].spans, Spans { count: 2, total_ns: 12_000 });
    assert_eq!(two.tasks[2].jobs, 2);
    let one = on(&r, Policy::Single, 1);
    let ran = |t: &str| stretches_us(&r, &one, t);
    assert_eq!(ran("C2"), [(0, 2, 4), (0, 26, 28), (0, 47, 57)], "{:?}", one.timeline);
    assert_eq!(ran("C1"), [(0, 0, 2), (0, 16, 26)], "{:?}", one.timeline);
}
