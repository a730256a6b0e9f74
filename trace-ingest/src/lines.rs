//! What every line-oriented reader shares: a streaming line source that
//! reuses one buffer, checks UTF-8 and strips line ends; and a trace
//! builder that enforces time order (or sorts, when lenient), skips
//! malformed lines when lenient, and collects warnings.

use std::io::BufRead;

use crate::error::{ParseError, ParseErrorKind, Warning};
use crate::model::{Event, Trace};
use crate::{Parsed, ReadOptions};

/// A line as read: its number, text without the line end, and whether it
/// ended with a newline (the last line of a cut-off capture does not).
pub(crate) struct Line<'a> {
    pub(crate) number: u64,
    pub(crate) text: &'a str,
    pub(crate) complete: bool,
}

/// A streaming line source over a [`BufRead`]. Lines that lie whole in the
/// reader's buffer are parsed in place; only a line that spans two buffer
/// fills is copied (into one reused buffer).
pub(crate) struct Lines<'r> {
    reader: &'r mut dyn BufRead,
    spill: Vec<u8>,
    /// Bytes of the reader's buffer that the current line occupies, to be
    /// consumed before the next line is read.
    pending: usize,
    number: u64,
}

impl<'r> Lines<'r> {
    pub(crate) fn new(reader: &'r mut dyn BufRead) -> Lines<'r> {
        Lines { reader, spill: Vec::with_capacity(512), pending: 0, number: 0 }
    }

    /// The next line, `Ok(None)` at the end of input, or an error with the
    /// line number, a 0-based column and what was wrong.
    pub(crate) fn next_line(&mut self) -> Result<Option<Line<'_>>, (u64, usize, ParseErrorKind)> {
        let io = |number: u64| move |e| (number + 1, 0, ParseErrorKind::Io(e));
        self.reader.consume(std::mem::take(&mut self.pending));
        let (found, available) = {
            let buf = self.reader.fill_buf().map_err(io(self.number))?;
            (memchr::memchr(b'\n', buf), buf.len())
        };
        let (bytes, complete): (&[u8], bool) = match found {
            Some(i) => {
                self.pending = i + 1;
                let buf = self.reader.fill_buf().map_err(io(self.number))?;
                (&buf[..=i], true)
            }
            None if available == 0 => return Ok(None),
            None => {
                // The line continues past the buffer: gather it.
                self.spill.clear();
                let mut complete = false;
                loop {
                    let (found, len) = {
                        let buf = self.reader.fill_buf().map_err(io(self.number))?;
                        if buf.is_empty() {
                            break;
                        }
                        let found = memchr::memchr(b'\n', buf);
                        let take = found.map_or(buf.len(), |i| i + 1);
                        self.spill.extend_from_slice(&buf[..take]);
                        (found, take)
                    };
                    self.reader.consume(len);
                    if found.is_some() {
                        complete = true;
                        break;
                    }
                }
                (&self.spill[..], complete)
            }
        };
        self.number += 1;
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let at = e.valid_up_to();
            (self.number, at, ParseErrorKind::NotUtf8 { byte: bytes[at] })
        })?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        Ok(Some(Line { number: self.number, text: text.strip_suffix('\r').unwrap_or(text), complete }))
    }

    /// Lines read so far.
    pub(crate) fn count(&self) -> u64 {
        self.number
    }
}

impl Drop for Lines<'_> {
    fn drop(&mut self) {
        // Leave the reader positioned after the last line handed out.
        self.reader.consume(self.pending);
    }
}

/// 0-based byte offset of `part` inside `line` (`part` must be a slice of
/// `line`; otherwise 0).
pub(crate) fn column(line: &str, part: &str) -> usize {
    let start = line.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    if at >= start && at <= start + line.len() { at - start } else { 0 }
}

/// A reader of one line-oriented format, driven by [`run_lines`].
pub(crate) trait LineFormat {
    /// What an empty input should have started with, for the error.
    const EXPECTED_FIRST: &'static str;
    /// The builder the events go to.
    fn builder(&mut self) -> &mut Builder;
    /// Handles one non-blank line; an error names the offending part of
    /// `text` (for the column) and what was wrong.
    fn line<'a>(&mut self, number: u64, text: &'a str) -> Result<(), (&'a str, ParseErrorKind)>;
    /// Whether any event line was read yet.
    fn started(&self) -> bool;
    /// Whether the line that just failed ends the reading even under
    /// `--lenient` (e.g. a bad header, after which nothing can be read).
    fn fatal(&self) -> bool {
        false
    }
}

/// Reads every line of `input` into `format`: malformed lines are errors
/// (or counted warnings under `--lenient`), a last line cut off without a
/// newline is dropped with a warning once events were read, and an input
/// without any event is an error.
pub(crate) fn run_lines<F: LineFormat>(format: &mut F, input: &mut dyn BufRead) -> Result<(), ParseError> {
    let mut lines = Lines::new(input);
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err((number, column, kind)) => {
                format.builder().malformed(number, column, kind)?;
                continue;
            }
        };
        // Blank lines are skipped (most lines start with a visible byte).
        if !line.text.as_bytes().first().is_some_and(u8::is_ascii_graphic) && line.text.trim().is_empty() {
            continue;
        }
        if let Err((part, kind)) = format.line(line.number, line.text) {
            if !line.complete && format.started() {
                format.builder().warn(
                    line.number,
                    format!("last line is truncated (no newline) and does not parse ({kind}); ignored"),
                );
                break;
            }
            let col = column(line.text, part);
            if format.fatal() {
                return Err(format.builder().error(line.number, col, kind));
            }
            format.builder().malformed(line.number, col, kind)?;
        }
    }
    if !format.started() {
        let line = lines.count().max(1);
        return Err(format.builder().error(line, 0, ParseErrorKind::Empty { expected: F::EXPECTED_FIRST }));
    }
    Ok(())
}

/// Collects events into a [`Trace`] with the checks every format shares.
pub(crate) struct Builder {
    pub(crate) trace: Trace,
    pub(crate) warnings: Vec<Warning>,
    format: &'static str,
    path: String,
    lenient: bool,
    /// Formats a raw timestamp as the source writes it.
    pub(crate) show_time: fn(u64) -> String,
    last_time: u64,
    last_raw: u64,
    out_of_order: u64,
    first_out_of_order: u64,
    skipped: u64,
}

/// Malformed lines listed one by one under `--lenient` before only
/// counting the rest.
const LISTED: u64 = 10;

impl Builder {
    pub(crate) fn new(trace: Trace, format: &'static str, options: &ReadOptions) -> Builder {
        Builder {
            trace,
            warnings: Vec::new(),
            format,
            path: options.path.clone(),
            lenient: options.lenient,
            show_time: |t| t.to_string(),
            last_time: 0,
            last_raw: 0,
            out_of_order: 0,
            first_out_of_order: 0,
            skipped: 0,
        }
    }

    /// An error at `line`, `column` (0-based).
    pub(crate) fn error(&self, line: u64, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { path: self.path.clone(), line, column: column as u32 + 1, format: self.format, kind }
    }

    /// Adds an event, checking time order. `raw_time` is the line's
    /// timestamp in source units, for the message.
    pub(crate) fn push(&mut self, line: u64, event: Event, raw_time: u64) -> Result<(), ParseErrorKind> {
        if event.time < self.last_time {
            if !self.lenient {
                let show = self.show_time;
                return Err(ParseErrorKind::TimeBackwards { previous: show(self.last_raw), now: show(raw_time) });
            }
            if self.out_of_order == 0 {
                self.first_out_of_order = line;
            }
            self.out_of_order += 1;
        } else {
            self.last_time = event.time;
            self.last_raw = raw_time;
        }
        self.trace.events.push(event);
        Ok(())
    }

    /// A malformed line: an error, or under `--lenient` a warning and the
    /// line is skipped.
    pub(crate) fn malformed(&mut self, line: u64, column: usize, kind: ParseErrorKind) -> Result<(), ParseError> {
        if !self.lenient || matches!(kind, ParseErrorKind::Io(_)) {
            return Err(self.error(line, column, kind));
        }
        self.skipped += 1;
        if self.skipped <= LISTED {
            self.warnings.push(Warning {
                line: Some(line),
                message: format!("skipped malformed line (column {}): {kind}", column + 1),
            });
        }
        Ok(())
    }

    /// A recoverable oddity at `line`.
    pub(crate) fn warn(&mut self, line: u64, message: String) {
        self.warnings.push(Warning { line: Some(line), message });
    }

    /// Finishes the trace: sorts out-of-order events under `--lenient`
    /// (stable, so ties keep file order) and adds summary warnings.
    pub(crate) fn finish(mut self) -> Parsed {
        if self.skipped > LISTED {
            self.warnings.push(Warning {
                line: None,
                message: format!("{} malformed lines skipped in all (--lenient)", self.skipped),
            });
        }
        if self.out_of_order > 0 {
            self.trace.events.sort_by_time();
            self.warnings.push(Warning {
                line: Some(self.first_out_of_order),
                message: format!(
                    "{} events had timestamps earlier than a previous line (first here); sorted by time (--lenient)",
                    self.out_of_order
                ),
            });
        }
        self.trace.events.shrink_to_fit();
        Parsed {
            trace: self.trace,
            warnings: self.warnings,
            source: Default::default(),
            format: self.format,
            model: None,
            notes: Vec::new(),
        }
    }
}
