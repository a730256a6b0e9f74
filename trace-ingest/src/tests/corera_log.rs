//! Reader, writer and round-trip tests for corera's log format.

use proptest::prelude::*;

use super::{chain, parse_as, parse_lenient};
use crate::corera_log::write;
use crate::*;

fn parse(text: &str) -> Result<Parsed, ReadError> {
    parse_as(text, FormatChoice::AUTO)
}

fn parse_err(text: &str) -> String {
    chain(&parse(text).unwrap_err())
}

const SMALL: &str = "\
corera-log 1 clock=us
# a comment
task 1 task 5 Motor Ctl
task 7 isr - UART0
task 0 idle 0 IDLE
obj rxq queue
obj spi mutex
10 0 rdy 1
10 0 in 1
12 0 take 1 spi
13 0 ienter 7
14 0 send 7 rxq 16
15 0 iexit 7
20 0 give 1 spi
21 0 recv 1 rxq 16 7
22 0 set 1 - 1
23 0 wake 1 1
30 0 out 1 done
30 0 in 0
";

#[test]
fn parses_every_event_kind() {
    let parsed = parse(SMALL).unwrap();
    let t = &parsed.trace;
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(t.tasks.len(), 3);
    assert_eq!(t.tasks[0].name, "Motor Ctl");
    assert_eq!(t.tasks[0].priority, Some(5));
    assert_eq!(t.tasks[1].kind, TaskKind::Isr);
    assert_eq!(t.tasks[1].priority, None);
    assert_eq!(t.objects[1].kind, ObjectKind::Mutex);
    assert_eq!(t.events.len(), 12);
    let recv = t.events.at(7);
    assert_eq!(recv.kind, EventKind::Receive);
    assert_eq!((recv.time, recv.object, recv.bytes, recv.peer), (21_000, 0, 16, 1));
    assert_eq!(t.events.last().unwrap().kind, EventKind::SwitchIn);
    assert_eq!(t.duration(), 20_000);
}

#[test]
fn writer_output_reads_back_to_the_same_trace() {
    let parsed = parse(SMALL).unwrap();
    let mut out = Vec::new();
    write(&parsed.trace, &mut out).unwrap();
    let again = parse(std::str::from_utf8(&out).unwrap()).unwrap();
    assert_eq!(again.trace, parsed.trace);
}

/// Regression (issue 32, item 7): a two-core SystemView recording has
/// `IDLE@cpu0` and `IDLE@cpu1` both as the source's task 0 (and an
/// interrupt's per-core copies under one number); `--write-log` wrote them
/// with one id and the log did not read back. A log names each task once:
/// the later of two tasks sharing a source id is written with a fresh one.
#[test]
fn tasks_sharing_a_source_id_are_written_with_ids_of_their_own() {
    let mut trace = parse(
        "corera-log 1 clock=us\ntask 0 idle 0 IDLE@cpu0\ntask 7 task 2 A\ntask 9 idle 0 IDLE@cpu1\n\
                           0 0 in 7\n5 1 in 9\n10 0 out 7 block\n10 0 in 0\n",
    )
    .unwrap()
    .trace;
    trace.tasks[2].handle = 0; // as SystemView numbers both idle loops
    let mut out = Vec::new();
    write(&trace, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("task 0 idle 0 IDLE@cpu0\n") && text.contains("task 8 idle 0 IDLE@cpu1\n"), "{text}");
    let again = parse(&text).unwrap().trace;
    let names = |t: &Trace| t.events.iter().map(|e| t.tasks[e.task as usize].name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&again), names(&trace));
    assert_eq!(again.events.len(), trace.events.len());
}

#[test]
fn fingerprint_covers_every_input_byte() {
    let parsed = parse(SMALL).unwrap();
    assert_eq!(parsed.source, Fingerprint::of(SMALL.as_bytes()));
    assert_eq!(parsed.source.bytes, SMALL.len() as u64);
    assert_ne!(parsed.source, Fingerprint::of(&SMALL.as_bytes()[1..]));
    // Reading in pieces gives the same hash as hashing the whole.
    let mut reader = std::io::BufReader::with_capacity(7, SMALL.as_bytes());
    let again = read(&mut reader, FormatChoice::AUTO, &ReadOptions::new("t.log")).unwrap();
    assert_eq!(again.source, parsed.source);
    assert_ne!(Fingerprint::of(b"a"), Fingerprint::of(b"a\0"));
}

#[test]
fn tick_clock_converts_to_ns() {
    let parsed = parse("corera-log 1 clock=ticks rate=1000\ntask 1 task 1 A\n3 0 rdy 1\n").unwrap();
    assert_eq!(parsed.trace.events.at(0).time, 3_000_000);
}

#[test]
fn errors_name_file_line_column_and_expectation() {
    let cases: &[(&str, &str)] = &[
        (
            "",
            "t.log:1:1: invalid corera-log input: the input is empty; expected a header line such as `corera-log 1 clock=us`",
        ),
        ("corera-log 2 clock=us\n", "t.log:1:12: invalid corera-log input: expected format version 1, found `2`"),
        (
            "corera-log 1\n",
            "t.log:1:13: invalid corera-log input: line ends early; expected `clock=ns`, `clock=us` or `clock=ticks rate=<Hz>`",
        ),
        ("corera-log 1 clock=ticks\n", "line ends early; expected `rate=<ticks per second>`"),
        (
            "corera-log 1 clock=us\ntask 1 task 5 A\n10 0 jump 1\n",
            "t.log:3:6: invalid corera-log input: expected an event keyword",
        ),
        (
            "corera-log 1 clock=us\ntask 1 task 5 A\n10 0 out 1 later\n",
            "t.log:3:12: invalid corera-log input: expected `preempt`, `block` or `done`, found `later`",
        ),
        (
            "corera-log 1 clock=us\ntask 1 task 5 A\n10 0 rdy 1\n9 0 rdy 1\n",
            "t.log:4:1: invalid corera-log input: timestamp 9 is earlier than 10",
        ),
        (
            "corera-log 1 clock=us\ntask 1 task 5 A\n10 0 rdy 1 extra\n",
            "t.log:3:12: invalid corera-log input: unexpected text `extra` after a complete `rdy` event",
        ),
        (
            "corera-log 1 clock=us\ntask 1 task 5 A\ntask 1 task 5 B\n",
            "t.log:3:6: invalid corera-log input: task `1` is declared twice (first on line 2)",
        ),
        ("corera-log 1 clock=us\nx1 0 rdy 1\n", "t.log:2:1: invalid corera-log input: expected a timestamp"),
        (
            "corera-log 1 clock=us\n10 0 rdy\n",
            "t.log:2:9: invalid corera-log input: line ends early; expected a task id",
        ),
        ("corera-log 1 clock=us\n99999999999999999 0 rdy 1\n", "does not fit in 64-bit nanoseconds"),
        (
            "hello\n",
            "`t.log` is not in a known trace format (known formats: corera-log, btf, ftrace, amalthea, psf, systemview, ctf)",
        ),
    ];
    for (input, expected) in cases {
        let msg = parse_err(input);
        assert!(msg.contains(expected), "input {input:?}\n got: {msg}\nwant: {expected}");
    }
}

#[test]
fn non_utf8_is_an_error_with_line_and_byte() {
    let input = b"corera-log 1 clock=us\ntask 1 task 5 A\xff\n";
    let err = read(&mut &input[..], FormatChoice::of("corera-log"), &ReadOptions::new("t.log")).unwrap_err();
    let ReadError::Parse(e) = err else { panic!("{err}") };
    assert_eq!((e.line, e.column), (2, 16));
    assert!(e.kind.to_string().contains("0xff"), "{}", e.kind);
}

#[test]
fn truncated_last_line_is_a_warning_and_keeps_earlier_events() {
    let parsed = parse("corera-log 1 clock=us\ntask 1 task 5 A\n10 0 rdy 1\n11 0 ou").unwrap();
    assert_eq!(parsed.trace.events.len(), 1);
    assert_eq!(parsed.warnings.len(), 1);
    assert_eq!(parsed.warnings[0].line, Some(4));
    assert!(parsed.warnings[0].message.contains("truncated"));
    // A complete last line without a newline is simply accepted.
    let parsed = parse("corera-log 1 clock=us\ntask 1 task 5 A\n10 0 rdy 1").unwrap();
    assert_eq!((parsed.trace.events.len(), parsed.warnings.len()), (1, 0));
}

#[test]
fn lenient_skips_malformed_lines_and_sorts_time() {
    let text = "corera-log 1 clock=us\ntask 1 task 5 A\n10 0 rdy 1\n11 0 jump 1\n9 0 in 1\n12 0 out 1 done\n";
    assert!(parse(text).is_err());
    let parsed = parse_lenient(text, FormatChoice::AUTO).unwrap();
    let kinds: Vec<_> = parsed.trace.events.iter().map(|e| (e.time / 1000, e.kind)).collect();
    assert_eq!(kinds, vec![(9, EventKind::SwitchIn), (10, EventKind::Ready), (12, EventKind::Finished)]);
    assert_eq!(parsed.warnings.len(), 2, "{:?}", parsed.warnings);
    assert_eq!(parsed.warnings[0].line, Some(4));
    assert!(parsed.warnings[0].message.contains("skipped malformed line (column 6)"));
    assert_eq!(parsed.warnings[1].line, Some(5));
    assert!(parsed.warnings[1].message.contains("1 events had timestamps earlier"));
    // A bad header stops the reading even under --lenient.
    let err = chain(&parse_lenient("corera-log 9 clock=us\n10 0 rdy 1\n", FormatChoice::AUTO).unwrap_err());
    assert!(err.contains("t.log:1:12: invalid corera-log input: expected format version 1"), "{err}");
}

#[test]
fn undeclared_task_is_declared_with_a_warning() {
    let parsed = parse("corera-log 1 clock=us\n10 0 rdy 4\n").unwrap();
    assert_eq!(parsed.trace.tasks[0].name, "task4");
    assert_eq!(parsed.warnings[0].line, Some(2));
}

#[test]
fn crlf_and_blank_lines_are_accepted() {
    let parsed = parse("\r\ncorera-log 1 clock=ns\r\n\r\ntask 1 task 5 A\r\n10 0 rdy 1\r\n").unwrap();
    assert_eq!(parsed.trace.tasks[0].name, "A");
    assert_eq!(parsed.trace.events.at(0).time, 10);
}

fn arb_name() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_ .:-]{0,12}[A-Za-z0-9]".prop_map(|s| s)
}

prop_compose! {
    fn arb_trace()(
        clock in prop_oneof![Just(Clock::Ns), Just(Clock::Us), (1u64..=1_000_000_000).prop_map(|rate| Clock::Ticks { rate })],
        low in any::<bool>(),
        names in proptest::collection::vec((arb_name(), 0u8..3, proptest::option::of(-20i32..300)), 1..6),
        nobj in 0usize..5,
        raw in proptest::collection::vec((0u64..5_000, 0u16..4, 0u8..EventKind::ALL.len() as u8, any::<u32>(), any::<u32>(), proptest::option::of(0u32..100_000), any::<bool>()), 0..60),
    ) -> Trace {
        let mut trace = Trace::new(clock);
        if low { trace.priority_order = PriorityOrder::Low; }
        for (i, (name, kind, priority)) in names.into_iter().enumerate() {
            let kind = [TaskKind::Task, TaskKind::Isr, TaskKind::Idle][kind as usize];
            trace.tasks.push(Task { name, kind, priority, handle: (i as u64) * 7 + 3 });
        }
        for i in 0..nobj {
            let kind = [ObjectKind::Queue, ObjectKind::Semaphore, ObjectKind::Mutex, ObjectKind::Event, ObjectKind::Label][i];
            trace.objects.push(Object { name: format!("obj{i}"), kind });
        }
        let nt = trace.tasks.len() as u32;
        let mut time = 0u64;
        for (dt, core, kind, a, b, bytes, flag) in raw {
            time += dt;
            // Store the time as the clock would read it back.
            let ns = clock.to_ns(clock.from_ns(time * 997)).unwrap();
            let kind = EventKind::ALL[kind as usize];
            let mut e = Event::new(ns.max(trace.events.last().map_or(0, |e: Event| e.time)), core, kind, a % nt);
            let object = if nobj == 0 { None } else { Some(b % nobj as u32) };
            match kind {
                EventKind::Send | EventKind::Receive => {
                    let Some(o) = object else { continue };
                    e.object = o;
                    e.bytes = bytes.unwrap_or(NONE);
                    if flag { e.peer = b % nt; }
                }
                EventKind::EventSet => {
                    if let (Some(o), true) = (object, flag) { e.object = o; }
                    if bytes.is_some() { e.peer = b % nt; }
                }
                EventKind::Take | EventKind::Give => {
                    let Some(o) = object else { continue };
                    e.object = o;
                }
                EventKind::Wakeup => e.peer = b % nt,
                EventKind::PrioritySet => e = Event::priority_set(e.time, core, e.task, b % nt, (a % 600) as i32 - 300),
                _ => {}
            }
            trace.events.push(e);
        }
        trace
    }
}

proptest! {
    /// parse(write(t)) == t, and write(parse(x)) == x for every canonical log x.
    #[test]
    fn round_trip(trace in arb_trace()) {
        let mut text = Vec::new();
        write(&trace, &mut text).unwrap();
        let parsed = read(&mut &text[..], FormatChoice::of("corera-log"), &ReadOptions::new("p.log")).unwrap();
        prop_assert!(parsed.warnings.is_empty());
        prop_assert_eq!(&parsed.trace, &trace);
        let mut again = Vec::new();
        write(&parsed.trace, &mut again).unwrap();
        prop_assert_eq!(String::from_utf8(again).unwrap(), String::from_utf8(text).unwrap());
    }

    /// Arbitrary bytes never panic the reader.
    #[test]
    fn arbitrary_input_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut input = b"corera-log 1 clock=us\n".to_vec();
        input.extend(bytes);
        let _ = read(&mut &input[..], FormatChoice::of("corera-log"), &ReadOptions::new("f.log"));
    }
}

/// The OS a log names (`os=`), read and written back; a name corera does
/// not know is an error naming the known ones.
#[test]
fn the_os_in_the_header_is_read_and_written() {
    let text = "corera-log 1 clock=us os=rt-thread\ntask 1 task 1 T\n0 0 rdy 1\n0 0 in 1\n5 0 out 1 done\n";
    let p = crate::read(&mut text.as_bytes(), crate::FormatChoice::AUTO, &crate::ReadOptions::new("t.log")).unwrap();
    assert_eq!(p.trace.os, Some(crate::Os::RtThread));
    let mut out = Vec::new();
    crate::corera_log::write(&p.trace, &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().starts_with("corera-log 1 clock=us os=rt-thread\n"));
    let bad = "corera-log 1 clock=us os=vxworks\n";
    let e = crate::read(&mut bad.as_bytes(), crate::FormatChoice::AUTO, &crate::ReadOptions::new("t.log")).unwrap_err();
    let e = super::chain(&e);
    assert!(e.contains("t.log:1:") && e.contains("freertos, esp-idf, zephyr") && e.contains("vxworks"), "{e}");
}

/// The names recorders give their OS map to corera's.
#[test]
fn recorders_names_of_their_os_are_known() {
    use crate::Os;
    for (name, os) in [
        ("FreeRTOS", Some(Os::FreeRtos)),
        ("ESP-IDF FreeRTOS", Some(Os::EspIdf)),
        ("RT-Thread", Some(Os::RtThread)),
        ("RTThread", Some(Os::RtThread)),
        ("Zephyr", Some(Os::Zephyr)),
        ("embOS", Some(Os::Embos)),
        ("Azure RTOS ThreadX", Some(Os::ThreadX)),
        ("ThreadX", Some(Os::ThreadX)),
        ("uC/OS-III", None),
    ] {
        assert_eq!(Os::from_name(name), os, "{name}");
    }
}
