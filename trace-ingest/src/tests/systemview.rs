//! SEGGER SystemView recordings: the real one in `samples/systemview/`
//! (made with SEGGER's encoder), damaged copies, and hand-built streams.
//!
//! The operation counts are the workload's own: it counts each successful
//! kernel call and writes the counts beside the recording
//! (`samples/systemview/printer.counts`).

use crate::{EventKind, FormatChoice, Parsed, ReadError, ReadOptions, TaskKind, read};

fn bytes(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/systemview").join(name);
    std::fs::read(path).unwrap()
}

fn parse(data: &[u8], choice: FormatChoice) -> Result<Parsed, ReadError> {
    read(&mut &data[..], choice, &ReadOptions::new("t.SVDat"))
}

fn count(p: &Parsed, kind: EventKind) -> usize {
    p.trace.events.iter().filter(|e| e.kind == kind).count()
}

#[test]
fn the_printer_recording_matches_the_workloads_own_counts() {
    let counts = String::from_utf8(bytes("printer.counts")).unwrap();
    let counted = |what: &str| -> usize {
        counts.lines().find_map(|l| l.strip_prefix(&format!("{what} "))).unwrap().parse().unwrap()
    };
    let p = parse(&bytes("printer.SVDat"), FormatChoice::AUTO).unwrap();
    assert_eq!(p.format, "systemview");
    assert_eq!(count(&p, EventKind::Send), counted("send"));
    assert_eq!(count(&p, EventKind::Receive), counted("receive"));
    assert_eq!(count(&p, EventKind::Give), counted("give"));
    assert_eq!(count(&p, EventKind::Take), counted("take"));
    assert_eq!(count(&p, EventKind::EventSet), counted("notify"));
    // Tasks and priorities as main.c creates them (TASK_INFO), the idle
    // task from IDLE packets.
    let prio = |n: &str| p.trace.tasks.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("{n}")).priority;
    for (name, want) in
        [("EncoderIrq", 6), ("MotorCtl", 5), ("NetStack", 4), ("Parser", 3), ("Raster", 2), ("UiMgr", 1)]
    {
        assert_eq!(prio(name), Some(want), "{name}");
    }
    assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Idle).count(), 1);
    assert!(p.trace.tasks.iter().all(|t| !t.name.starts_with("task@")), "{:?}", p.trace.tasks);
    // Queues are queues; the encoder semaphore and the spi mutex are
    // semaphores (given with no item).
    let kind = |n: &str| p.trace.objects.iter().find(|o| o.name == n).unwrap().kind;
    assert_eq!(kind("netq"), crate::ObjectKind::Queue);
    assert_eq!(kind("spi"), crate::ObjectKind::Semaphore);
    assert_eq!(kind("encoder"), crate::ObjectKind::Semaphore);
    // Every switch but the first switches a task out; the schedule agrees.
    assert_eq!(count(&p, EventKind::Preempted) + count(&p, EventKind::Blocked), count(&p, EventKind::SwitchIn) - 1);
    let s = crate::Schedule::of(&p.trace);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// A stream built by hand after SEGGER_SYSVIEW.c: sync, INIT at 1 MHz,
/// TASK_INFO, a task made ready, started, an ISR, a queue send (a packet
/// with a length), and a two-byte id.
#[test]
fn packets_decode_as_the_encoder_writes_them() {
    let mut s = vec![0u8; 10];
    s.extend([10, 0]); // TRACE_START, delta 0
    s.extend([24, 4, 0xC0, 0x84, 0x3D, 0]); // INIT len 4: SysFreq 1,000,000 (+ nothing), delta 0
    s.push(0);
    s.extend([9, 0x40, 3, 4, b'T', b'a', b's', b'k', 0]); // TASK_INFO id 64 prio 3 "Task", delta 0
    s.extend([6, 0x40, 100]); // START_READY 64, +100 µs
    s.extend([4, 0x40, 10]); // START_EXEC 64, +10
    s.extend([2, 15, 5]); // ISR_ENTER 15, +5
    s.extend([3, 2]); // ISR_EXIT, +2
    s.extend([32 + 58, 4, 0x50, 0x01, 0, 0, 3]); // xQueueGenericSend(q 0x50, item 1, 0, 0), +3
    s.extend([0x80 | 0x10, 0x04, 1, 7, 1]); // id 0x210 (a module event), len 1, payload, +1
    let p = parse(&s, FormatChoice::AUTO).unwrap();
    let events: Vec<(u64, EventKind)> = p.trace.events.iter().map(|e| (e.time / 1000, e.kind)).collect();
    assert_eq!(
        events,
        vec![
            (100, EventKind::Ready),
            (110, EventKind::SwitchIn),
            (115, EventKind::IsrEnter),
            (117, EventKind::IsrExit),
            (120, EventKind::Send),
        ]
    );
    assert_eq!(p.trace.tasks[0].name, "Task");
    assert_eq!(p.trace.tasks[0].priority, Some(3));
    assert!(p.warnings.iter().any(|w| w.message.contains("event 528 (1)")), "{:?}", p.warnings);
}

/// The warning about what did not decode, if any.
fn undecoded(p: &Parsed) -> Option<&str> {
    p.warnings.iter().map(|w| w.message.as_str()).find(|m| m.contains("did not decode"))
}

#[test]
fn damaged_recordings_are_errors_or_located_warnings_never_panics() {
    let good = bytes("printer.SVDat");
    assert_eq!(undecoded(&parse(&good, FormatChoice::AUTO).unwrap()), None);
    // No sync sequence: an error naming the byte.
    let e = super::chain(&parse(&good[10..], FormatChoice::of("systemview")).unwrap_err());
    assert!(e.contains("sync sequence") && e.contains(": byte "), "{e}");
    // A host header before the stream is skipped.
    let mut headed = b"SystemView recording\n".to_vec();
    headed.extend(&good);
    let p = parse(&headed, FormatChoice::of("systemview")).unwrap();
    assert!(p.warnings.iter().any(|w| w.message.contains("21 bytes before the first sync")), "{:?}", p.warnings);
    // Truncated inside a packet (a TASK_INFO cut after its task id).
    let mut cut = good.clone();
    cut.extend([9, 0x40]);
    let p = parse(&cut, FormatChoice::of("systemview")).unwrap();
    let w = undecoded(&p).unwrap();
    assert!(w.contains(&format!("at byte {}", good.len())) && w.contains("cut by the end"), "{w}");
    // Garbage in the middle: what comes before it is kept, the warning
    // says where and how much of the stream the figures rest on.
    let mut garbage = good.clone();
    let mid = good.len() / 2;
    for b in &mut garbage[mid..mid + 64] {
        *b = 0xFF;
    }
    let p = parse(&garbage, FormatChoice::of("systemview")).unwrap();
    assert!(count(&p, EventKind::SwitchIn) > 500);
    let w = undecoded(&p).unwrap();
    assert!(w.contains("no SystemView packet") && w.contains("% of the stream"), "{w}");
    let at: usize = w.split("at byte ").nth(1).unwrap().split(':').next().unwrap().parse().unwrap();
    assert!((mid - 32..=mid + 64).contains(&at), "{at} vs {mid}");
    // A corrupt tail: garbage to the end of the file.
    let mut tail = good.clone();
    let three_quarters = good.len() * 3 / 4;
    for (i, b) in tail[three_quarters..].iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37) | 0x80;
    }
    let p = parse(&tail, FormatChoice::of("systemview")).unwrap();
    let w = undecoded(&p).unwrap();
    let share: f64 = w.split("rest on ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!((70.0..80.0).contains(&share), "{w}");
    // An absurd timestamp: a packet that moves the clock by an hour ends
    // what is decoded there, instead of a trace an hour long.
    let mut absurd = good.clone();
    absurd.extend([17, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]); // IDLE, delta 2^32 - 1 ticks: 72 minutes at 1 MHz
    absurd.extend([17, 5]); // IDLE 5 ticks later
    let p = parse(&absurd, FormatChoice::of("systemview")).unwrap();
    let w = undecoded(&p).unwrap();
    assert!(w.contains("advancing the clock"), "{w}");
    assert!(p.trace.duration() < 10_000_000_000, "{} ns", p.trace.duration());
    // Every prefix reads without a panic.
    for len in (0..good.len()).step_by(997) {
        let _ = parse(&good[..len], FormatChoice::of("systemview"));
    }
}

#[test]
fn an_os_without_a_table_is_said_and_its_calls_are_not_read_as_freertos() {
    // The printer recording, saying it ran RT-Thread: its FreeRTOS API ids
    // must not be read as RT-Thread's (nor as FreeRTOS's).
    let good = bytes("printer.SVDat");
    let from = b"O=FreeRTOS";
    let at = good.windows(from.len()).position(|w| w == from).unwrap();
    let mut other = good.clone();
    other[at..at + from.len()].copy_from_slice(b"O=RTThread");
    let p = parse(&other, FormatChoice::AUTO).unwrap();
    let w = p.warnings.iter().find(|w| w.message.contains("no table")).expect("a warning");
    assert!(w.message.contains("RTThread") && w.message.contains("--sysview-desc"), "{}", w.message);
    assert_eq!(count(&p, EventKind::Send) + count(&p, EventKind::Give), 0);
    // Tasks and switches are the OS-neutral part: still read.
    assert_eq!(count(&p, EventKind::SwitchIn), count(&parse(&good, FormatChoice::AUTO).unwrap(), EventKind::SwitchIn));
    assert_eq!(p.trace.priority_order, crate::PriorityOrder::Low, "RT-Thread: smaller is more urgent");
    // With a description file the calls are read by their names.
    let dir = std::env::temp_dir().join(format!("corera-sysview-desc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let desc = dir.join("SYSVIEW_RTThread.txt");
    std::fs::write(&desc, "# the printer's FreeRTOS ids, renamed\n90 rt_mq_send mq=%I\n92 rt_mq_recv mq=%I\n").unwrap();
    let mut options = ReadOptions::new("t.SVDat");
    options.sysview_desc = Some(desc.clone());
    let p = read(&mut &other[..], FormatChoice::AUTO, &options).unwrap();
    assert!(count(&p, EventKind::Send) > 0 && count(&p, EventKind::Receive) > 0);
    assert!(p.notes.iter().any(|n| n.contains("--sysview-desc")), "{:?}", p.notes);
    // A description file that is not one: an error naming its line.
    std::fs::write(&desc, "90 rt_mq_send\nnot a line\n").unwrap();
    let e = super::chain(&read(&mut &other[..], FormatChoice::AUTO, &options).unwrap_err());
    assert!(e.contains("SYSVIEW_RTThread.txt:2:1"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_text_header_of_a_saved_file_is_read_and_its_offsets_checked() {
    let good = bytes("printer.SVDat");
    let mut saved = b";\n; Version     SEGGER SystemView V3.30\n; RecordTime  01 Dec 2026 10:00:00\n;\n".to_vec();
    saved.extend(&good);
    let p = parse(&saved, FormatChoice::AUTO).unwrap();
    assert!(p.notes.iter().any(|n| n.contains("SEGGER SystemView V3.30") && n.contains("RecordTime")), "{:?}", p.notes);
    assert_eq!(count(&p, EventKind::SwitchIn), count(&parse(&good, FormatChoice::AUTO).unwrap(), EventKind::SwitchIn));
    // A multi-core header whose offset lies beyond the data.
    let mut bad = b";\n; Version SEGGER SystemView V3.60\n; Offset Core0 0\n; Offset Core1 99999999\n;\n".to_vec();
    bad.extend(&good);
    let e = super::chain(&parse(&bad, FormatChoice::AUTO).unwrap_err());
    assert!(e.contains("Offset Core1 99999999") && e.contains("beyond"), "{e}");
}

/// A hand-built stream at 1 MHz: task `T` (id 64) made ready at 10 µs and
/// running from 20 µs.
fn task_t_running_from_20us() -> Vec<u8> {
    let mut s = vec![0u8; 10];
    s.extend([10, 0]); // TRACE_START
    s.extend([24, 4, 0xC0, 0x84, 0x3D, 0, 0]); // INIT: 1 MHz
    s.extend([9, 0x40, 3, 1, b'T', 0]); // TASK_INFO 64 "T"
    s.extend([6, 0x40, 10]); // READY at 10 µs
    s.extend([4, 0x40, 10]); // EXEC at 20
    s
}

/// The target's `OVERFLOW` packet says packets were dropped since the one
/// before it: that stretch is a gap.
#[test]
fn dropped_packets_are_a_gap_between_the_packets_around_them() {
    let mut s = task_t_running_from_20us();
    s.extend([1, 57, 0xD0, 0x0F]); // OVERFLOW of 57 packets, +2000: at 2020
    s.extend([17, 80]); // IDLE at 2100
    let p = parse(&s, FormatChoice::AUTO).unwrap();
    assert_eq!(p.trace.gaps, vec![crate::Gap { start: 20_000, end: 2_020_000 }]);
    assert!(p.warnings.iter().any(|w| w.message.contains("dropped 57 packets")), "{:?}", p.warnings);
    assert!(p.notes.iter().any(|n| n.contains("1 gap not counted")), "{:?}", p.notes);
}

/// The count an `OVERFLOW` packet carries is the target's drops so far
/// (SEGGER_SYSVIEW.c keeps `DropCount` for the whole recording): three
/// overflows saying 57, 60 and 100 dropped 100 packets, not 217.
#[test]
fn the_overflow_count_is_cumulative() {
    let mut s = task_t_running_from_20us();
    s.extend([1, 57, 100]); // OVERFLOW 57, at 120
    s.extend([1, 60, 100]); // OVERFLOW 60, at 220
    s.extend([1, 100, 100]); // OVERFLOW 100, at 320
    s.extend([17, 80]); // IDLE at 400
    let p = parse(&s, FormatChoice::AUTO).unwrap();
    assert!(p.warnings.iter().any(|w| w.message.contains("dropped 100 packets")), "{:?}", p.warnings);
}

/// Two recording sessions in one file: the time between `TRACE_STOP` and
/// the next `TRACE_START` is a gap, and said.
#[test]
fn the_time_between_two_sessions_is_a_gap() {
    let mut s = task_t_running_from_20us();
    s.extend([11, 30]); // TRACE_STOP at 50
    s.extend([0u8; 10]); // the next session's sync
    s.extend([10, 0xE8, 0x07]); // TRACE_START, +1000: at 1050
    s.extend([17, 50]); // IDLE at 1100
    let p = parse(&s, FormatChoice::AUTO).unwrap();
    assert_eq!(p.trace.gaps, vec![crate::Gap { start: 50_000, end: 1_050_000 }]);
    assert!(
        p.warnings.iter().any(|w| w.message.contains("several start/stop sessions (2 per stream)")),
        "{:?}",
        p.warnings
    );
    // The task ran from 20 µs to the idle at 1100 µs: 30 + 50 µs outside
    // the gap.
    let sched = crate::Schedule::of(&p.trace);
    let t = p.trace.tasks.iter().position(|t| t.name == "T").unwrap();
    assert_eq!(sched.tasks[t].running_ns(), 80_000);
}

/// A stream at 1 MHz from an OS named `os` with tasks A (id 0x40) and B
/// (0x41), then `body`.
fn stream_of(os: &str, body: &[u8]) -> Vec<u8> {
    let mut s = vec![0u8; 10];
    s.extend([10, 0]); // TRACE_START
    s.extend([24, 4, 0xC0, 0x84, 0x3D, 0, 0]); // INIT 1 MHz
    let desc = format!("N=t,O={os}");
    s.extend([14, desc.len() as u8]);
    s.extend(desc.bytes());
    s.push(0);
    s.extend([9, 0x40, 10, 1, b'A', 0]); // TASK_INFO A, priority 10
    s.extend([9, 0x41, 5, 1, b'B', 0]); // TASK_INFO B, priority 5
    s.extend(body);
    s
}

fn kinds_of(p: &Parsed) -> Vec<(u64, EventKind, String)> {
    p.trace.events.iter().map(|e| (e.time / 1000, e.kind, p.trace.tasks[e.task as usize].name.clone())).collect()
}

/// RT-Thread's SystemView port, switching inside an interrupt, writes
/// `STOP_READY(from)`, `START_READY(to)` and a second `ISR_ENTER` whose
/// exit never comes; its scheduler hook writes `STOP_READY(from)` at every
/// switch, and its suspend hook one more when the thread blocks. Read
/// naively, the first ISR stays open for the rest of the recording and A,
/// preempted, reads as blocked.
#[test]
fn rt_thread_in_isr_switches_neither_leave_an_isr_open_nor_block_the_preempted() {
    let body = [
        6, 0x40, 10, // START_READY A, t 10
        4, 0x40, 1, // START_EXEC A, 11
        2, 53, 100, // ISR_ENTER 53, 111
        6, 0x41, 2, // START_READY B, 113 (the resume hook)
        7, 0x40, 0, 1, // STOP_READY A, 114 (the scheduler hook: from)
        6, 0x41, 1, // START_READY B, 115 (to)
        2, 53, 1, // ISR_ENTER 53 again, 116
        18, 1, // ISR_TO_SCHEDULER, 117
        4, 0x41, 1, // START_EXEC B, 118
        7, 0x41, 0, 50, // STOP_READY B, 168 (suspend hook)
        7, 0x41, 0, 1, // STOP_READY B, 169 (scheduler hook)
        4, 0x40, 1, // START_EXEC A, 170
        2, 15, 30, // ISR_ENTER SysTick, 200
        18, 2, // ISR_TO_SCHEDULER, 202
        4, 0x40, 0, // START_EXEC A again after the exit, 202
        7, 0x40, 0, 20, // STOP_READY A, 222
        7, 0x40, 0, 1, // STOP_READY A, 223
        17, 1, // IDLE, 224
    ];
    let p = parse(&stream_of("RT-Thread", &body), FormatChoice::AUTO).unwrap();
    let isr =
        |k| p.trace.events.iter().filter(|e| e.kind == k && p.trace.tasks[e.task as usize].name == "ISR53").count();
    assert_eq!((isr(EventKind::IsrEnter), isr(EventKind::IsrExit)), (1, 1), "{:?}", kinds_of(&p));
    assert!(p.warnings.iter().any(|w| w.message.contains("skipped 1 ISR enter")), "{:?}", p.warnings);
    let outs: Vec<(u64, EventKind, String)> = kinds_of(&p)
        .into_iter()
        .filter(|(_, k, _)| matches!(k, EventKind::Preempted | EventKind::Blocked | EventKind::SwitchIn))
        .collect();
    let e = |t, k, n: &str| (t, k, n.to_string());
    assert_eq!(
        outs,
        vec![
            e(11, EventKind::SwitchIn, "A"),
            e(118, EventKind::Preempted, "A"),
            e(118, EventKind::SwitchIn, "B"),
            e(170, EventKind::Blocked, "B"),
            e(170, EventKind::SwitchIn, "A"),
            e(224, EventKind::Blocked, "A"),
            e(224, EventKind::SwitchIn, "IDLE"),
        ]
    );
    // The schedule: A waited READY from 118 to 170 µs (its READY at 10 came
    // before the scheduler started, at 11), and no ISR ran on.
    let s = crate::Schedule::of(&p.trace);
    let a = p.trace.tasks.iter().position(|t| t.name == "A").unwrap();
    assert_eq!(s.tasks[a].ready_ns(), 52_000);
    let i53 = p.trace.tasks.iter().position(|t| t.name == "ISR53").unwrap();
    assert_eq!(s.tasks[i53].running_ns(), 6_000);
}

/// An ISR whose exit the recorder never wrote ends when a task is switched
/// in on its core (a task runs only once the ISRs above it returned).
#[test]
fn an_isr_still_open_at_a_switch_in_ends_there() {
    let body = [
        6, 0x40, 10, // START_READY A, 10
        4, 0x40, 1, // START_EXEC A, 11
        2, 20, 10, // ISR_ENTER 20, 21
        6, 0x41, 2, // START_READY B, 23
        4, 0x41, 3, // START_EXEC B, 26: no exit written
        7, 0x41, 0, 10, // STOP_READY B, 36
        4, 0x40, 1, // START_EXEC A, 37
    ];
    let p = parse(&stream_of("FreeRTOS", &body), FormatChoice::AUTO).unwrap();
    let exits: Vec<u64> =
        p.trace.events.iter().filter(|e| e.kind == EventKind::IsrExit).map(|e| e.time / 1000).collect();
    assert_eq!(exits, vec![26]);
    assert!(p.warnings.iter().any(|w| w.message.contains("1 ISRs had no exit")), "{:?}", p.warnings);
    let s = crate::Schedule::of(&p.trace);
    let b = p.trace.tasks.iter().position(|t| t.name == "B").unwrap();
    assert_eq!(s.tasks[b].running_ns(), 11_000, "B runs from its switch-in, not after an ISR that never ends");
}

/// SEGGER's FreeRTOS glue records `vTaskPrioritySet(task, priority)` (the
/// task by its id): a priority change of that task by the one running.
#[test]
fn a_priority_set_call_is_a_priority_change_of_the_task_it_names() {
    let body = [
        6,
        0x40,
        10, // START_READY A, 10
        4,
        0x40,
        1, // START_EXEC A, 11
        32 + 8,
        2,
        0x41,
        12,
        4, // vTaskPrioritySet(B, 12), 15
        32 + 8,
        1,
        0x41,
        1, // vTaskPrioritySet(B) without its priority, 16
    ];
    let p = parse(&stream_of("FreeRTOS", &body), FormatChoice::AUTO).unwrap();
    let b = p.trace.tasks.iter().position(|t| t.name == "B").unwrap() as u32;
    let sets: Vec<(u64, String, u32, Option<i32>)> = p
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PrioritySet)
        .map(|e| (e.time / 1000, p.trace.tasks[e.task as usize].name.clone(), e.peer, e.new_priority()))
        .collect();
    assert_eq!(sets, vec![(15, "A".to_string(), b, Some(12))]);
    assert!(p.warnings.iter().any(|w| w.message.contains("vTaskPrioritySet without its priority")), "{:?}", p.warnings);
}

/// `TASK_TERMINATE` ends the task: with RT-Thread's one stop per switch,
/// its switch-out is a block, not a preemption leaving it READY forever.
#[test]
fn a_terminated_task_is_not_left_ready() {
    let body = [
        6, 0x40, 10, // START_READY A
        4, 0x40, 1, // START_EXEC A, 11
        29, 1, 0x40, 20, // TASK_TERMINATE A, 31
        7, 0x40, 0, 1, // STOP_READY A, 32 (the scheduler hook)
        17, 1, // IDLE, 33
        2, 15, 100, // ISR_ENTER SysTick, 133
        3, 1, // ISR_EXIT, 134
    ];
    let p = parse(&stream_of("RT-Thread", &body), FormatChoice::AUTO).unwrap();
    let out = p.trace.events.iter().find(|e| matches!(e.kind, EventKind::Preempted | EventKind::Blocked)).unwrap();
    assert_eq!(out.kind, EventKind::Blocked);
    let s = crate::Schedule::of(&p.trace);
    assert_eq!(s.tasks[out.task as usize].ready_ns(), 0, "never READY after it ended");
}
