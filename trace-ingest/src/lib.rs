//! Trace formats into corera's format-neutral trace model.
//!
//! This is the first stage of corera's pipeline: every supported input
//! format is read into one [`Trace`] (tasks, kernel objects and a time-ordered
//! stream of 32-byte [`Event`] records with nanosecond timestamps), so that
//! later stages never see format details.
//!
//! # Brief overview
//! - [`model`]: [`Trace`], [`Task`], [`Object`], [`Event`], [`EventKind`].
//! - [`TraceFormat`]: the trait every reader implements; [`formats`] lists
//!   them and [`read`] picks one by name or by looking at the first lines.
//! - [`corera_log`]: corera's own text log, reader and writer.
//! - [`ParseError`] names file, line and column; [`Warning`]s report
//!   recoverable oddities with their line.
//!
//! # Example
//! ```
//! use corera_trace_ingest::{read, FormatChoice};
//!
//! let log = "corera-log 1 clock=us\n\
//!            task 1 task 5 Motor\n\
//!            100 0 rdy 1\n\
//!            100 0 in 1\n\
//!            180 0 out 1 done\n";
//! let parsed = read(&mut log.as_bytes(), "run.log", FormatChoice::Auto)?;
//! assert_eq!(parsed.trace.tasks[0].name, "Motor");
//! assert_eq!(parsed.trace.duration(), 80_000); // ns
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod corera_log;
mod error;
mod fingerprint;
pub mod model;

use std::io::BufRead;

pub use error::{ParseError, ParseErrorKind, ReadError, Warning};
pub use fingerprint::Fingerprint;
pub use model::{
    Clock, Event, EventKind, NONE, Object, ObjectId, ObjectKind, PriorityOrder, SwitchOut, Task, TaskId, TaskKind,
    Trace, TraceSummary,
};

/// A parsed trace and the warnings met on the way.
#[derive(Debug)]
pub struct Parsed {
    /// The trace.
    pub trace: Trace,
    /// Recoverable oddities, in input order.
    pub warnings: Vec<Warning>,
    /// Size and hash of the bytes read (set by [`read`]).
    pub source: Fingerprint,
    /// Name of the format that was read (set by [`read`]).
    pub format: &'static str,
}

/// One input format.
///
/// Implementors write [`TraceFormat::parse`] (the whole trace, streaming
/// line by line) and [`TraceFormat::is_applicable`] (a cheap look at the
/// first lines, used by `--format auto`).
pub trait TraceFormat {
    /// Name used by `--format` and in messages.
    fn name(&self) -> &'static str;
    /// Parses a whole trace into the format-neutral model.
    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError>;
    /// `None`: need more input; `Some(true)`: this format; `Some(false)`:
    /// not this format. `head` holds the first lines of the input.
    fn is_applicable(&mut self, head: &str) -> Option<bool>;
}

/// Which format to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// Guess from the first lines (the default).
    #[default]
    Auto,
    /// corera's own log.
    CoreraLog,
}

/// Names of the known formats, for `--format` and error messages.
pub fn formats() -> &'static [&'static str] {
    &[corera_log::NAME]
}

fn reader_for(choice: FormatChoice, path: &str) -> Box<dyn TraceFormat> {
    match choice {
        FormatChoice::Auto | FormatChoice::CoreraLog => {
            Box::new(corera_log::CoreraLog::from(corera_log::Options { path: Some(path.to_string()) }))
        }
    }
}

/// Reads a trace from `input`, naming it `path` in messages.
///
/// With [`FormatChoice::Auto`], every known reader is shown the first lines
/// (up to 64 KiB) and the first that answers yes is used.
///
/// # Errors
/// [`ReadError::UnknownFormat`] when no reader recognises the input,
/// [`ReadError::Parse`] for malformed input, [`ReadError::Io`] when reading
/// fails.
pub fn read(input: &mut dyn BufRead, path: &str, choice: FormatChoice) -> Result<Parsed, ReadError> {
    let mut input = fingerprint::Fingerprinting::new(input);
    let mut parsed = read_format(&mut input, path, choice)?;
    // Whatever the reader left unread (a stopped-early reader) still
    // belongs to the input's fingerprint.
    std::io::copy(&mut input, &mut std::io::sink())
        .map_err(|source| ReadError::Io { path: path.to_string(), source })?;
    parsed.source = input.fingerprint;
    Ok(parsed)
}

fn read_format(input: &mut dyn BufRead, path: &str, choice: FormatChoice) -> Result<Parsed, ReadError> {
    let io = |source| ReadError::Io { path: path.to_string(), source };
    if choice == FormatChoice::Auto {
        let head = input.fill_buf().map_err(io)?;
        let head = String::from_utf8_lossy(&head[..head.len().min(64 * 1024)]).into_owned();
        let empty = head.trim().is_empty();
        let candidates = [FormatChoice::CoreraLog];
        let chosen = candidates.into_iter().find(|&c| reader_for(c, path).is_applicable(&head).unwrap_or(false));
        match chosen {
            Some(c) => return Ok(reader_for(c, path).parse(input)?),
            // An empty input gets the reader's own "empty" error, which
            // says what the first line should be.
            None if empty => return Ok(reader_for(FormatChoice::CoreraLog, path).parse(input)?),
            None => {
                return Err(ReadError::UnknownFormat { path: path.to_string(), known: formats().join(", ") });
            }
        }
    }
    Ok(reader_for(choice, path).parse(input)?)
}

#[cfg(test)]
mod tests;
