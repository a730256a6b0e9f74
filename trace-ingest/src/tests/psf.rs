//! Percepio TraceRecorder streams (PSF): the real recordings in
//! `samples/tracealyzer/` and damaged copies of them.
//!
//! The per-kind counts were taken independently of corera with the
//! `trace-recorder-parser` crate's own example program (`cargo run
//! --release --example streaming -- F` in the crate's source), whose table
//! counts the stream's records by type.

use crate::{EventKind, FormatChoice, Parsed, ReadError, ReadOptions, TaskKind, read};

fn bytes(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/tracealyzer").join(name);
    std::fs::read(path).unwrap()
}

fn parse(data: &[u8], choice: FormatChoice) -> Result<Parsed, ReadError> {
    read(&mut &data[..], choice, &ReadOptions::new("t.psf"))
}

fn count(p: &Parsed, kind: EventKind) -> usize {
    p.trace.events.iter().filter(|e| e.kind == kind).count()
}

#[test]
fn the_printer_recording_maps_every_kernel_event() {
    let p = parse(&bytes("printer.psf"), FormatChoice::AUTO).unwrap();
    assert_eq!(p.format, "psf");
    // The header's tick rate: the recorder's FreeRTOSConfig.h says
    // configTICK_RATE_HZ 1000.
    let tick = p.trace.tick.as_ref().expect("the header's tick rate");
    assert_eq!(tick.period_ns, 1_000_000);
    assert_eq!(p.trace.os, Some(crate::Os::FreeRtos));
    // TASK_READY 1610, TASK_ACTIVATE 2141 (no ISRs: every one is a switch).
    assert_eq!(count(&p, EventKind::Ready), 1610);
    assert_eq!(count(&p, EventKind::SwitchIn), 2141);
    // Every switch but the first switches a task out.
    assert_eq!(count(&p, EventKind::Preempted) + count(&p, EventKind::Blocked), 2140);
    // QUEUE_SEND 417, QUEUE_RECEIVE 417.
    assert_eq!(count(&p, EventKind::Send), 417);
    assert_eq!(count(&p, EventKind::Receive), 417);
    // MUTEX_TAKE 534 + SEMAPHORE_TAKE 400; MUTEX_GIVE 535 + SEMAPHORE_GIVE
    // 400, less the give of xSemaphoreCreateMutex before any task ran.
    assert_eq!(count(&p, EventKind::Take), 934);
    assert_eq!(count(&p, EventKind::Give), 934);
    // TASK_NOTIFY 134 + EVENTGROUP_SETBITS 13.
    assert_eq!(count(&p, EventKind::EventSet), 147);
    // Tasks and priorities as main.c creates them (TASK_CREATE 12: ten
    // tasks, IDLE and the timer task), plus the recorder's TzCtrl.
    let prio = |n: &str| p.trace.tasks.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("{n}")).priority;
    for (name, want) in [
        ("EncoderIrq", 6),
        ("NetRxIrq", 6),
        ("MotorCtl", 5),
        ("NetStack", 4),
        ("Parser", 3),
        ("Raster", 2),
        ("PrintEngine", 3),
        ("UiMgr", 1),
        ("Logger", 1),
        ("Stopper", 7),
    ] {
        assert_eq!(prio(name), Some(want), "{name}");
    }
    assert_eq!(p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Idle).count(), 1);
    assert_eq!(p.trace.tasks.len(), 13);
    let names: Vec<&str> = p.trace.objects.iter().map(|o| o.name.as_str()).collect();
    for object in ["encoder", "spi", "netq", "jobq", "bandq", "logq", "status"] {
        assert!(names.contains(&object), "{object} in {names:?}");
    }
    // The recorder's OS ticks (event 0x31, 401 of them) are counted.
    assert!(p.warnings.iter().any(|w| w.message.contains("NEW_TIME (OS tick) (401)")), "{:?}", p.warnings);
    let s = crate::Schedule::of(&p.trace);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

#[test]
fn the_sampler_recording() {
    let p = parse(&bytes("sampler.psf"), FormatChoice::of("psf")).unwrap();
    // TASK_READY 463, TASK_ACTIVATE 702, QUEUE_SEND 200, QUEUE_RECEIVE 200.
    assert_eq!(count(&p, EventKind::Ready), 463);
    assert_eq!(count(&p, EventKind::SwitchIn), 702);
    assert_eq!(count(&p, EventKind::Send), 200);
    assert_eq!(count(&p, EventKind::Receive), 200);
    let sampler = p.trace.tasks.iter().position(|t| t.name == "Sampler").unwrap() as u32;
    let filter = p.trace.tasks.iter().position(|t| t.name == "Filter").unwrap() as u32;
    // Each send that finds Filter waiting wakes it.
    let wakes = p.trace.events.iter().filter(|e| e.kind == EventKind::Wakeup && e.task == sampler && e.peer == filter);
    assert!(wakes.count() >= 190);
}

fn error_of(data: &[u8]) -> String {
    let err = parse(data, FormatChoice::of("psf")).unwrap_err();
    let mut msg = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}

#[test]
fn damaged_streams_are_errors_or_counted_warnings_never_panics() {
    let good = bytes("sampler.psf");
    // Wrong magic.
    let mut wrong = good.clone();
    wrong[..4].copy_from_slice(b"XXXX");
    let e = error_of(&wrong);
    assert!(e.contains("the magic word `PSF`") && e.contains("none in the input's 38892 bytes"), "{e}");
    assert!(parse(&wrong, FormatChoice::AUTO).is_err(), "not detected as PSF either");
    // An unknown format version (bytes 4-5, little-endian).
    let mut version = good.clone();
    version[4] = 9;
    let e = error_of(&version);
    assert!(e.contains("version 9") && e.contains("10, 12, 13 or 14"), "{e}");
    // Truncated: in the header, and inside a record.
    let e = error_of(&good[..10]);
    assert!(e.contains("a whole header"), "{e}");
    let cut = parse(&good[..good.len() - 3], FormatChoice::of("psf")).unwrap();
    assert!(cut.warnings.iter().any(|w| w.message.contains("ends inside a record")), "{:?}", cut.warnings);
    // Garbage in the middle: every record decoded before and after it, the
    // bad ones counted.
    let mut garbage = good.clone();
    let mid = good.len() / 2;
    for b in &mut garbage[mid..mid + 64] {
        *b = 0xA5;
    }
    let p = parse(&garbage, FormatChoice::of("psf")).unwrap();
    assert!(count(&p, EventKind::SwitchIn) > 300, "{}", count(&p, EventKind::SwitchIn));
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("could not be decoded") || w.message.contains("a damaged record?")),
        "{:?}",
        p.warnings
    );
    assert!(!p.warnings.iter().any(|w| w.message.contains("went backwards")), "{:?}", p.warnings);
    // A corrupt tail: what came before it is kept, and where it starts is
    // said.
    let mut tail = good.clone();
    let three_quarters = good.len() * 3 / 4;
    for (i, b) in tail[three_quarters..].iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(73) ^ 0x5C;
    }
    let p = parse(&tail, FormatChoice::of("psf")).unwrap();
    let whole = parse(&good, FormatChoice::of("psf")).unwrap();
    assert!(count(&p, EventKind::SwitchIn) * 10 >= count(&whole, EventKind::SwitchIn) * 6);
    assert!(
        p.warnings.iter().any(|w| w.message.contains(" byte ")
            && (w.message.contains("could not be decoded")
                || w.message.contains("first record corera cannot place")
                || w.message.contains("ends inside a record"))),
        "{:?}",
        p.warnings
    );
    // Every prefix reads without a panic.
    for len in (0..good.len()).step_by(997) {
        let _ = parse(&good[..len], FormatChoice::of("psf"));
    }
}

/// The printer workload recorded with the RingBuffer stream port and saved
/// from RAM at the end (`samples/tracealyzer/README.md` says how): found
/// without `--format`, also inside a larger memory dump, and read as the
/// last stretch of the same workload.
#[test]
fn a_ringbuffer_ram_dump_is_found_and_read_as_the_runs_last_stretch() {
    let dump = bytes("printer-ringbuffer.bin");
    let p = parse(&dump, FormatChoice::AUTO).unwrap();
    assert_eq!(p.format, "psf");
    assert!(p.notes.iter().any(|n| n.contains("RingBuffer")), "{:?}", p.notes);
    assert!(!p.warnings.iter().any(|w| w.message.contains("could not be decoded")), "{:?}", p.warnings);
    // The workload's tasks, by the names the dump's entry table keeps for
    // them (they were created long before the ring's oldest event).
    let names: Vec<&str> = p.trace.tasks.iter().map(|t| t.name.as_str()).collect();
    for task in ["EncoderIrq", "MotorCtl", "NetStack", "Parser", "Raster", "PrintEngine", "UiMgr", "Logger"] {
        assert!(names.contains(&task), "{task}: {names:?}");
    }
    // Their creations, which carry the priorities, were overwritten: said.
    let lost = p.warnings.iter().find(|w| w.message.contains("holds no creation of")).expect("a warning");
    assert!(lost.message.contains("RingBuffer") && lost.message.contains("--priority"), "{}", lost.message);
    // Every kind of operation the workload does, and a stretch of tens of
    // milliseconds at the end of its 400-tick run.
    for kind in [EventKind::Send, EventKind::Receive, EventKind::Give, EventKind::Take, EventKind::EventSet] {
        assert!(count(&p, kind) > 10, "{kind:?}");
    }
    assert!((20_000_000..400_000_000).contains(&p.trace.duration()), "{} ns", p.trace.duration());
    // One stretch in which the host did not run the simulated target.
    assert_eq!(p.trace.gaps.len(), 1, "{:?}", p.trace.gaps);
    assert!(p.warnings.iter().any(|w| w.message.contains("no event for 8.")), "{:?}", p.warnings);
    // A dump of more RAM, with other data before the buffer.
    let mut ram = (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect::<Vec<u8>>();
    ram.extend(&dump);
    let q = read(&mut &ram[..], FormatChoice::of("psf"), &ReadOptions::new("ram.bin")).unwrap();
    assert_eq!(q.trace.events.len(), p.trace.events.len());
    // Damage: no end markers is an error naming the byte; every prefix and
    // a flipped byte anywhere read without a panic.
    let e = super::chain(&parse(&dump[..dump.len() - 20], FormatChoice::AUTO).unwrap_err());
    assert!(e.contains("byte 16") && e.contains("end markers"), "{e}");
    for at in (0..dump.len()).step_by(53) {
        let mut bad = dump.clone();
        bad[at] ^= 0x5A;
        let _ = parse(&bad, FormatChoice::of("psf"));
        let _ = parse(&dump[..at], FormatChoice::of("psf"));
    }
}

/// A multi-core recorder (`TRC_CFG_CORE_COUNT` 2) writes each event's core
/// in the top four bits of its 16-bit event count. The printer recording,
/// its header saying 2 cores and the middle third of its events marked as
/// core 1's, reads as a 2-core trace with exactly those events on core 1.
#[test]
fn a_multicore_stream_gives_each_event_the_core_in_its_event_count() {
    use trace_recorder_parser::streaming::RecorderData;
    let good = bytes("printer.psf");
    // The header's core count: the low byte of the u32 after the magic
    // word, the format and kernel versions and the options.
    let mut data = good.clone();
    assert_eq!(data[12], 1);
    data[12] = 2;
    // Where each event starts, as the crate reads them.
    let mut r = &good[..];
    let mut rd = RecorderData::find(&mut r).unwrap();
    let mut starts = Vec::new();
    loop {
        let at = good.len() - r.len();
        match rd.read_event(&mut r) {
            Ok(Some(_)) => starts.push(at),
            _ => break,
        }
    }
    let (from, to) = (starts.len() / 3, 2 * starts.len() / 3);
    for (i, &at) in starts.iter().enumerate() {
        let core = u8::from((from..to).contains(&i));
        data[at + 3] = (data[at + 3] & 0x0F) | (core << 4);
    }
    let p = parse(&data, FormatChoice::AUTO).unwrap();
    assert_eq!(p.trace.cores_seen(), 2);
    assert!(p.notes.iter().any(|n| n.contains("2 cores")), "{:?}", p.notes);
    let single = parse(&good, FormatChoice::AUTO).unwrap();
    for kind in
        [EventKind::Ready, EventKind::SwitchIn, EventKind::Send, EventKind::Receive, EventKind::Give, EventKind::Take]
    {
        assert_eq!(count(&p, kind), count(&single, kind), "{kind:?}");
    }
    // The events of core 1 are those of the middle third, by time.
    let span = |core: u16| {
        let times: Vec<u64> = p.trace.events.iter().filter(|e| e.core == core).map(|e| e.time).collect();
        (times[0], *times.last().unwrap())
    };
    let (start1, end1) = span(1);
    assert!(p.trace.events.iter().filter(|e| e.core == 0).all(|e| e.time <= start1 || e.time >= end1));
    assert!(p.trace.events.iter().zip(p.trace.events.iter().skip(1)).all(|(a, b)| a.time <= b.time));
}

#[test]
fn a_kernel_port_corera_cannot_map_is_an_error_naming_it() {
    let good = bytes("printer.psf");
    assert_eq!(good[6..8], [0xA1, 0x1A], "FreeRTOS: TRACE_KERNEL_VERSION 0x1AA1");
    let mut zephyr = good.clone();
    zephyr[6..8].copy_from_slice(&0x9AA9u16.to_le_bytes());
    let e = super::chain(&parse(&zephyr, FormatChoice::AUTO).unwrap_err());
    assert!(e.contains("Zephyr kernel port") && e.contains(": byte 0:"), "{e}");
    let mut custom = good.clone();
    custom[6..8].copy_from_slice(&[0xF1, 0x1F]);
    let e = super::chain(&parse(&custom, FormatChoice::AUTO).unwrap_err());
    assert!(e.contains("[F1, 1F]") && e.contains("custom port"), "{e}");
}
