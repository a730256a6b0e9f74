//! Fuzz target: the corera_log reader must never panic, strict or lenient, and
//! whatever it accepts must hold its invariants.
#![no_main]

use corera_trace_ingest::{FormatChoice, ReadOptions, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for lenient in [false, true] {
        let mut options = ReadOptions::new("fuzz");
        options.lenient = lenient;
        if let Ok(parsed) = read(&mut &data[..], FormatChoice::CoreraLog, &options) {
            let t = &parsed.trace;
            // Events are in time order and refer to existing tasks.
            assert!(t.events.windows(2).all(|w| w[0].time <= w[1].time));
            assert!(t.events.iter().all(|e| (e.task as usize) < t.tasks.len()));
            assert!(t.events.iter().all(|e| e.peer == u32::MAX || (e.peer as usize) < t.tasks.len()));
            assert!(t.events.iter().all(|e| e.object == u32::MAX || (e.object as usize) < t.objects.len()));
        }
    }
    // Detection must not panic either.
    let _ = read(&mut &data[..], FormatChoice::Auto, &ReadOptions::new("fuzz"));
});
