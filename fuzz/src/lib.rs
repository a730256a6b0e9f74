//! What every fuzz target checks: a reader never panics, strict or lenient,
//! and whatever it accepts holds the model's invariants.

use corera_trace_ingest::{FormatChoice, ReadOptions, Schedule, read};

/// Reads `data` with `choice` (strict and lenient) and with detection.
pub fn check(data: &[u8], choice: FormatChoice) {
    for lenient in [false, true] {
        let mut options = ReadOptions::new("fuzz");
        options.lenient = lenient;
        if let Ok(parsed) = read(&mut &data[..], choice, &options) {
            let t = &parsed.trace;
            // Events are in time order and refer to existing tasks.
            assert!(t.events.iter().zip(t.events.iter().skip(1)).all(|(a, b)| a.time <= b.time));
            assert!(t.events.iter().all(|e| (e.task as usize) < t.tasks.len()));
            assert!(t.events.iter().all(|e| e.peer == u32::MAX || (e.peer as usize) < t.tasks.len()));
            assert!(t.events.iter().all(|e| e.object == u32::MAX || (e.object as usize) < t.objects.len()));
            // The job model accepts whatever a reader accepts, and its
            // stretches stay within the trace.
            let schedule = Schedule::of(t);
            let end = t.duration();
            assert!(schedule.tasks.iter().flat_map(|s| &s.running).all(|r| r.start_ns <= r.end_ns && r.end_ns <= end));
        }
    }
    // Detection must not panic either.
    let _ = read(&mut &data[..], FormatChoice::Auto, &ReadOptions::new("fuzz"));
}
