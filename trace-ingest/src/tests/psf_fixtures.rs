//! trace-recorder-parser's own PSF fixtures (`../shared/data/
//! recordings/trace-recorder-parser-fixtures/`), read as corera reads them, against the event
//! sequence the crate's authors assert for them (its `tests/streaming.rs`,
//! `common_tests`): events per kind, tasks, the restart and the
//! application's printf of v14.

use crate::{EventKind, FormatChoice, Parsed, ReadOptions, TaskKind, read};

fn parse(version: &str, printf: Option<u16>) -> Parsed {
    let rel = format!("recordings/trace-recorder-parser-fixtures/{version}/trace.psf");
    let bytes = std::fs::read(corera_testdata::shared_dir().join(rel)).unwrap();
    let mut options = ReadOptions::new("trace.psf");
    options.psf_printf_event = printf;
    read(&mut &bytes[..], FormatChoice::AUTO, &options).unwrap()
}

/// The sequence the crate's authors assert for every version (v14 adds
/// user events and its printf before `TaskDelay`, which change no count
/// here).
const SEQUENCE: &[&str] = &[
    "TraceStart",
    "ObjectName",
    "ObjectName",
    "TaskCreate",
    "ObjectName",
    "TaskCreate",
    "DefineIsr",
    "QueueCreate",
    "ObjectName",
    "SemaphoreBinaryCreate",
    "ObjectName",
    "SemaphoreCountingCreate",
    "ObjectName",
    "TaskReady",
    "TaskActivate",
    "QueueSend",
    "QueueSendBlock",
    "QueueSendFront",
    "QueueSendFrontBlock",
    "SemaphoreGive",
    "SemaphoreGive",
    "SemaphoreGiveBlock",
    "SemaphoreGiveBlock",
    "MemoryAlloc",
    "MemoryFree",
    "TaskSwitchIsrBegin",
    "QueueSendFromIsr",
    "QueueSendFrontFromIsr",
    "SemaphoreGiveFromIsr",
    "SemaphoreGiveFromIsr",
    "TaskActivate",
    "TaskReady",
    "TaskActivate",
    "QueueReceive",
    "QueueReceiveBlock",
    "QueueReceiveFromIsr",
    "QueuePeek",
    "QueuePeekBlock",
    "SemaphoreTake",
    "SemaphoreTake",
    "SemaphoreTakeBlock",
    "SemaphoreTakeBlock",
    "SemaphorePeek",
    "SemaphorePeek",
    "SemaphorePeekBlock",
    "SemaphorePeekBlock",
    "SemaphoreTakeFromIsr",
    "SemaphoreTakeFromIsr",
    "UserEvent",
    "TaskDelay",
    "QueueReceiveBlock",
    "UnusedStack",
];

/// What the sequence becomes in the model: the operations that completed
/// (a `*Block` event is a call that blocked, not a message; peeks move
/// nothing), readies, the ISR, and the switches (the activation right after
/// the ISR began resumes the task it interrupted: the ISR's end).
fn expected() -> Vec<(EventKind, usize)> {
    let n = |names: &[&str]| SEQUENCE.iter().filter(|s| names.contains(s)).count();
    let mut in_isr = false;
    let mut resumed = 0;
    for s in SEQUENCE {
        match *s {
            "TaskSwitchIsrBegin" => in_isr = true,
            "TaskActivate" if in_isr => {
                resumed += 1;
                in_isr = false;
            }
            _ => {}
        }
    }
    vec![
        (EventKind::Ready, n(&["TaskReady"])),
        (EventKind::SwitchIn, n(&["TaskActivate"]) - resumed),
        (EventKind::Send, n(&["QueueSend", "QueueSendFront", "QueueSendFromIsr", "QueueSendFrontFromIsr"])),
        (EventKind::Receive, n(&["QueueReceive", "QueueReceiveFromIsr"])),
        (EventKind::Give, n(&["SemaphoreGive", "SemaphoreGiveFromIsr"])),
        (EventKind::Take, n(&["SemaphoreTake", "SemaphoreTakeFromIsr"])),
        (EventKind::IsrEnter, n(&["TaskSwitchIsrBegin"])),
        (EventKind::IsrExit, resumed),
    ]
}

fn counts(p: &Parsed) -> Vec<(EventKind, usize)> {
    expected().iter().map(|&(k, _)| (k, p.trace.events.iter().filter(|e| e.kind == k).count())).collect()
}

#[test]
fn every_fixture_reads_as_its_authors_say_it_holds() {
    corera_testdata::shared_or_skip!("recordings/trace-recorder-parser-fixtures");
    for version in ["v10", "v12", "v13"] {
        let p = parse(version, None);
        assert_eq!(p.format, "psf");
        assert_eq!(counts(&p), expected(), "{version}");
        assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Isr).count(), 1, "{version}: DefineIsr");
        assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Task).count(), 2, "{version}: TaskCreate");
        assert!(!p.warnings.iter().any(|w| w.message.contains("could not be decoded")), "{version}: {:?}", p.warnings);
    }
}

#[test]
fn v14_reads_whole_once_its_printf_is_named_and_says_so_when_not() {
    corera_testdata::shared_or_skip!("recordings/trace-recorder-parser-fixtures");
    let p = parse("v14", Some(0x0FA0));
    assert_eq!(counts(&p), expected());
    assert!(p.warnings.iter().any(|w| w.message.contains("restarted the stream 1 times")), "{:?}", p.warnings);
    assert!(!p.warnings.iter().any(|w| w.message.contains("could not be decoded")), "{:?}", p.warnings);
    assert!(!p.warnings.iter().any(|w| w.message.contains("damaged")), "{:?}", p.warnings);
    // Without the option, the records after the printf do not decode: said,
    // with the event, its byte and the option.
    let p = parse("v14", None);
    let w = p.warnings.iter().find(|w| w.message.contains("first record corera cannot place")).expect("a hint");
    assert!(w.message.contains("0x0FA0 at byte 1316") && w.message.contains("--psf-printf-id"), "{}", w.message);
}
