//! Zephyr's CTF tracing: `samples/zephyr-ctf/printer/` (the printer
//! workload scheduled by FreeRTOS's POSIX port, recorded in Zephyr's CTF
//! encoding with Zephyr's metadata) checked event by event against
//! babeltrace2's decoding of the same trace (its output kept beside it),
//! and against the workload's own counts.

use std::io::Read;

use crate::formats::ctf::{self, Value};
use crate::{EventKind, FormatChoice, Parsed, ReadOptions, TaskKind, read};

fn sample(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/zephyr-ctf").join(rel)
}

fn parse(dir: &std::path::Path) -> Parsed {
    let meta = dir.join("metadata");
    let text = std::fs::read(&meta).unwrap();
    read(&mut &text[..], FormatChoice::AUTO, &ReadOptions::new(meta.to_str().unwrap())).unwrap()
}

/// babeltrace2's pretty line: `[HH:MM:SS.nnnnnnnnn] (+d) name: { k = v, ... }`.
fn babeltrace(line: &str) -> (u64, String, Vec<(String, String)>) {
    let (time, rest) = line[1..].split_once(']').unwrap();
    let mut hms = time.split([':', '.']).map(|x| x.parse::<u64>().unwrap());
    let (h, m, s, ns) = (hms.next().unwrap(), hms.next().unwrap(), hms.next().unwrap(), hms.next().unwrap());
    let rest = rest.split_once(") ").unwrap().1;
    let (name, fields) = rest.split_once(':').unwrap_or((rest, ""));
    let fields = fields
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .split(", ")
        .filter(|f| !f.trim().is_empty())
        .map(|f| {
            let (k, v) = f.trim().split_once(" = ").unwrap();
            (k.to_string(), v.trim_matches('"').to_string())
        })
        .collect();
    (((h * 60 + m) * 60 + s) * 1_000_000_000 + ns, name.to_string(), fields)
}

#[test]
fn every_event_decodes_as_babeltrace2_decodes_it() {
    let mut text = String::new();
    flate2::read::GzDecoder::new(&std::fs::read(sample("printer.babeltrace2.txt.gz")).unwrap()[..])
        .read_to_string(&mut text)
        .unwrap();
    let theirs: Vec<_> = text.lines().map(babeltrace).collect();
    let meta = ctf::tsdl::parse(&std::fs::read_to_string(sample("printer/metadata")).unwrap()).unwrap();
    let (ours, stop) = ctf::events(&meta, &std::fs::read(sample("printer/channel0_0")).unwrap());
    assert!(stop.is_none(), "{stop:?}");
    assert_eq!(ours.len(), theirs.len());
    for (o, (time, name, fields)) in ours.iter().zip(&theirs) {
        assert_eq!((o.time, &o.name), (*time, name));
        let mine: Vec<(String, String)> = o
            .fields
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    match v {
                        Value::Int(i) => i.to_string(),
                        Value::Text(s) => s.clone(),
                    },
                )
            })
            .collect();
        assert_eq!(&mine, fields, "{name} at {time}");
    }
    assert!(theirs.len() > 8000);
}

#[test]
fn the_recording_reads_as_the_workload_ran() {
    let p = parse(&sample("printer"));
    assert_eq!(p.format, "ctf");
    let counts = std::fs::read_to_string(sample("printer.counts")).unwrap();
    let counted = |what: &str| -> usize {
        counts.lines().find_map(|l| l.strip_prefix(&format!("{what} "))).unwrap().parse().unwrap()
    };
    let count = |k: EventKind| p.trace.events.iter().filter(|e| e.kind == k).count();
    // The workload counts its semaphore and mutex calls; the one give
    // before any thread ran (the mutex's creation) is not an operation of
    // a task.
    assert_eq!(count(EventKind::Give), counted("give"));
    assert_eq!(count(EventKind::Take), counted("take"));
    // Threads by name, priorities as Zephyr counts them (0 most urgent):
    // the workload's Stopper (FreeRTOS 7) and EncoderIrq (6).
    let prio = |n: &str| p.trace.tasks.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("{n}")).priority;
    assert_eq!(prio("Stopper"), Some(0));
    assert_eq!(prio("EncoderIrq"), Some(1));
    assert_eq!(p.trace.priority_order, crate::PriorityOrder::Low);
    assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Idle).count(), 1);
    // Every switch but the first switches a thread out.
    assert_eq!(count(EventKind::Preempted) + count(EventKind::Blocked), count(EventKind::SwitchIn) - 1);
    let s = crate::Schedule::of(&p.trace);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

#[test]
fn a_cut_stream_a_wrapped_clock_and_an_unknown_event_are_handled_and_said() {
    let dir = std::env::temp_dir().join(format!("corera-ctf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(sample("printer/metadata"), dir.join("metadata")).unwrap();
    let good = std::fs::read(sample("printer/channel0_0")).unwrap();
    // Cut inside an event: what came before is read, the cut is located.
    std::fs::write(dir.join("channel0_0"), &good[..good.len() - 7]).unwrap();
    let p = parse(&dir);
    let w = p.warnings.iter().find(|w| w.message.contains("cut by the end")).expect("a warning");
    assert!(w.message.contains("byte ") && w.message.contains("% of the stream"), "{}", w.message);
    // An id the metadata does not declare.
    let mut bad = good.clone();
    bad[4] = 0x7F;
    std::fs::write(dir.join("channel0_0"), &bad).unwrap();
    let p = parse(&dir);
    assert!(
        p.warnings.iter().any(|w| w.message.contains("byte 0: event id 127 is not in the metadata")),
        "{:?}",
        p.warnings
    );
    // Two idle events whose 32-bit clock wraps between them: 16 ns apart.
    let mut wrap = Vec::new();
    wrap.extend((u32::MAX - 5).to_le_bytes());
    wrap.push(0x1E);
    wrap.extend(10u32.to_le_bytes());
    wrap.push(0x1E);
    let meta = ctf::tsdl::parse(&std::fs::read_to_string(sample("printer/metadata")).unwrap()).unwrap();
    let (events, stop) = ctf::events(&meta, &wrap);
    assert!(stop.is_none());
    assert_eq!(events[1].time - events[0].time, 16);
    // Metadata that is not TSDL: an error naming its line.
    std::fs::write(dir.join("metadata"), "/* CTF 1.8 */\ntrace { byte_order = le; };\nevent { id = 1; };\n").unwrap();
    let text = std::fs::read(dir.join("metadata")).unwrap();
    let e = read(&mut &text[..], FormatChoice::of("ctf"), &ReadOptions::new(dir.join("metadata").to_str().unwrap()))
        .unwrap_err();
    assert!(super::chain(&e).contains(":3:1:"), "{}", super::chain(&e));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The in-memory decoder (what the fuzz target drives) reads the sample as
/// the reader reads its directory.
#[test]
fn decoding_in_memory_equals_reading_the_directory() {
    let from_dir = parse(&sample("printer"));
    let metadata = std::fs::read_to_string(sample("printer/metadata")).unwrap();
    let stream = std::fs::read(sample("printer/channel0_0")).unwrap();
    let in_memory = ctf::decode(&metadata, "metadata", &[("channel0_0", &stream)]).unwrap();
    assert_eq!(in_memory.trace.events.len(), from_dir.trace.events.len());
    assert!(!in_memory.trace.events.is_empty());
    let names = |p: &Parsed| p.trace.tasks.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&in_memory), names(&from_dir));
    assert!(in_memory.trace.events.iter().zip(from_dir.trace.events.iter()).all(|(a, b)| a == b));
    // Metadata that is not TSDL: the error names the given path and line.
    let e = ctf::decode("/* CTF 1.8 */\nevent { id = 1; };\n", "meta.tsdl", &[]).unwrap_err();
    assert!(e.to_string().contains("meta.tsdl:2:1:"), "{e}");
}

/// The event header may be declared as a named struct (Zephyr's own
/// metadata) or inline in the stream (the sample's): both read as the same
/// fields, and a stream with no header is an error naming what is missing.
#[test]
fn the_event_header_is_read_named_or_inline() {
    let types = "typealias integer { size = 8; align = 8; signed = false; } := u8;\n\
                 typealias integer { size = 32; align = 8; signed = false; } := u32;\n";
    let event = "event { name = idle; id = 30; };\n";
    let named = format!(
        "{types}struct event_header {{ u32 timestamp; u8 id; }};\nstream {{ event.header := struct event_header; }};\n{event}"
    );
    // With other declarations beside it, which are skipped.
    let inline = format!(
        "{types}stream {{ id = 0; packet.context := struct {{ u32 size; u32 flags; }}; \
         event.header := struct {{ u32 timestamp; u8 id; }}; }};\n{event}"
    );
    let (named, inline) = (ctf::tsdl::parse(&named).unwrap(), ctf::tsdl::parse(&inline).unwrap());
    let fields = |m: &ctf::Metadata| m.header.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(fields(&named), ["timestamp", "id"]);
    assert_eq!(fields(&named), fields(&inline));
    let missing = ctf::tsdl::parse(&format!("{types}{event}")).unwrap_err();
    assert!(missing.1.contains("event.header"), "{missing:?}");
}

/// Regression (issue 33): nested structs are refused before they are read,
/// so that metadata nesting them without end is an error, not a stack
/// overflow.
#[test]
fn structs_nested_without_end_are_an_error() {
    let depth = 200_000;
    let text = format!(
        "typealias integer {{ size = 8; align = 8; signed = false; }} := u8;\nstruct deep {}{};\n",
        "{ struct ".repeat(depth),
        "} x;".repeat(depth)
    );
    let e = ctf::tsdl::parse(&text).unwrap_err();
    assert_eq!(e.0, 2, "{e:?}");
    assert!(e.1.contains("nested structs are not read"), "{e:?}");
}
