//! Fuzz target: the CTF reader's decoder (see `corera_fuzz::check_ctf`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| corera_fuzz::check_ctf(data));
