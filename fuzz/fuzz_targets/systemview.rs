//! Fuzz target: the systemview reader (see `corera_fuzz::check`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| corera_fuzz::check(data, corera_trace_ingest::FormatChoice::of("systemview")));
