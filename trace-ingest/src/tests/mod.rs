//! Reader tests: one module per format, and the real traces in `../shared/data/`.

mod amalthea;
mod btf;
mod corera_log;
mod ctf;
mod esp_idf;
mod ftrace;
mod priority;
mod psf;
mod psf_fixtures;
mod real;
mod schedule;
mod systemview;

use crate::{FormatChoice, Parsed, ReadError, ReadOptions, read};

/// Reads `text` with `choice`, strict.
fn parse_as(text: &str, choice: FormatChoice) -> Result<Parsed, ReadError> {
    read(&mut text.as_bytes(), choice, &ReadOptions::new("t.log"))
}

/// Reads `text` with `choice`, lenient.
fn parse_lenient(text: &str, choice: FormatChoice) -> Result<Parsed, ReadError> {
    let mut options = ReadOptions::new("t.log");
    options.lenient = true;
    read(&mut text.as_bytes(), choice, &options)
}

/// The whole error chain of a failed read, as the CLI prints it.
fn chain(err: &ReadError) -> String {
    let mut msg = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}
