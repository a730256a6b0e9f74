//! What every fuzz target checks: a reader never panics, strict or lenient,
//! and whatever it accepts holds the model's invariants.

use corera_trace_ingest::{FormatChoice, Parsed, ReadOptions, Schedule, ctf, read};

/// Reads `data` with `choice` (strict and lenient) and with detection.
pub fn check(data: &[u8], choice: FormatChoice) {
    for lenient in [false, true] {
        let mut options = ReadOptions::new("fuzz");
        options.lenient = lenient;
        if let Ok(parsed) = read(&mut &data[..], choice, &options) {
            holds_invariants(&parsed);
        }
    }
    // Detection must not panic either.
    let _ = read(&mut &data[..], FormatChoice::AUTO, &ReadOptions::new("fuzz"));
}

/// The metadata of the bundled Zephyr CTF sample.
const ZEPHYR_METADATA: &str = include_str!("../../samples/zephyr-ctf/printer/metadata");

/// Decodes `data` as a CTF trace: a metadata text, a NUL byte and one
/// stream when `data` starts with `/* CTF`, else one stream under the
/// Zephyr sample's metadata.
pub fn check_ctf(data: &[u8]) {
    let (metadata, stream) = match data.iter().position(|&b| b == 0) {
        Some(nul) if data.starts_with(b"/* CTF") => {
            (String::from_utf8_lossy(&data[..nul]).into_owned(), &data[nul + 1..])
        }
        _ => (ZEPHYR_METADATA.to_string(), data),
    };
    if let Ok(parsed) = ctf::decode(&metadata, "fuzz/metadata", &[("fuzz/channel0_0", stream)]) {
        holds_invariants(&parsed);
    }
}

/// Events in time order, referring to existing tasks and objects; the job
/// model accepts the trace and its stretches stay within it.
fn holds_invariants(parsed: &Parsed) {
    let t = &parsed.trace;
    assert!(t.events.iter().zip(t.events.iter().skip(1)).all(|(a, b)| a.time <= b.time));
    assert!(t.events.iter().all(|e| (e.task as usize) < t.tasks.len()));
    assert!(t.events.iter().all(|e| e.peer == u32::MAX || (e.peer as usize) < t.tasks.len()));
    assert!(t.events.iter().all(|e| e.object == u32::MAX || (e.object as usize) < t.objects.len()));
    let schedule = Schedule::of(t);
    let end = t.duration();
    assert!(schedule.tasks.iter().flat_map(|s| &s.running).all(|r| r.start_ns <= r.end_ns && r.end_ns <= end));
}
